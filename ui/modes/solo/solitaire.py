"""Tantrix Solitaire at the kiosk: tiles 1..14 come out of the bag, each placed touching the table
and matching it, aiming at one red line (or, harder, one red loop) through all fourteen.

The start card offers the rules (one tile at a time, as the French and English booklets play it,
or two in hand with a bonus tile for every forced space filled, as the Polish one does) and the
aim, with the best scores of that choice. The game screen shows the drawn tile(s) under the table,
the bag's count, the goal and the longest red line and loop so far. Forced spaces are orange and a
tile that fits one is ringed: it must go there (a drop elsewhere is refused in plain words). There
is no undo: a tile once down stays (the booklets' rule). The engine draws the next tile itself, so
the bag button only points at it. The end (all placed, or stuck, or the loop closed) shows the
result with a replay; the score is kept, and a win ticks Solitaire on the Learn path.
"""

from __future__ import annotations

import random
import time
from typing import Any

from kivy.clock import Clock
from kivy.uix.screenmanager import Screen

from engine.actions import Place
from engine.board import Placement as P
from engine.solo.solitaire import TILES, Aim, End, Rules, Solitaire

from ... import solo_players, theme
from ...board import BoardView, HandView
from ...howto import HowToPlayScreen, Step, TileStage
from ...i18n import N_, _, follow_language, n_
from ...mode_target import ModeTarget
from ...results import BoardReplay, ResultsScreen, Standing, Words
from ...services import BagButtonPressed, Cue
from ...setup import Choice, SetupScreen, SetupSpec
from ...leaving import Leavable, leaves, unless_left
from ...shell import Shell
from ...table import TableLayout
from ...widgets import Overlay, TButton, TLabel, beside, confirm_leave
from ...navigation import family_screen, kind_screen
from .common import ONE_CHAIN, SidePanel, chain_name, record_solitaire_won

KIND = "solitaire"
RULES = (("classic", N_("One tile at a time")), ("hand", N_("Two in hand")))
AIMS = (("line", N_("Red line")), ("loop", N_("Red loop")))
SPEC = SetupSpec(key=KIND, title=N_("Solitaire"), players=(1, 1), default_players=1,
                 blurb=N_("Tiles 1 to 14, drawn one by one: make one red line through all of them."),
                 options=(Choice("rules", N_("Rules"), RULES, "classic"), Choice("aim", N_("Aim"), AIMS, "line")))
FROM_LEARN = "solitaire-from-learn"
"""The store's progress key: ``{"learn": true}`` while the game in progress was started from the
Learn path (``{}``: from Solitaire's own card), kept beside the journal so that a game resumed after
a power cut still leads back to Learn (every start writes it, so it never outlives its game)."""
RULE_WORDS = {
    Rules.CLASSIC: N_("Draw a tile, place it. A tile that fits a forced space must go into one."),
    Rules.HAND: N_("Hold two tiles, place one. Fill a forced space and draw a bonus tile."),
}


def score_key(rules: str, aim: str) -> str:
    """The high-score table of one choice of rules and aim."""
    return f"{KIND}:{rules}:{aim}"


def best_scores_text(app: Shell, rules: str, aim: str) -> str:
    scores = app.services.store.high_scores(score_key(rules, aim), 3)
    if not scores:
        return _("No scores yet: be the first!")
    return _("Best scores: {scores}", scores=", ".join(str(s) for _n, s in scores))


@family_screen(KIND)
def open_setup(app: Shell) -> Screen:
    """The start card: who plays, rules, aim, the best scores of that choice (the table's and the
    player's), how to play, Start."""
    options = {c.key: c.default for c in SPEC.options}

    def bests() -> str:
        key = score_key(options["rules"], options["aim"])
        return "\n".join(filter(None, (best_scores_text(app, options["rules"], options["aim"]),
                                        solo_players.best_text(app, key, solo_players.show_score))))

    extra = solo_players.SoloCard(app, bests)
    setup = SetupScreen(SPEC, on_start=lambda s: start(app, s.options["rules"], s.options["aim"]),
                        on_back=app.go_home, on_howto=lambda: show_howto(app, then=lambda: app.show(open_setup(app))),
                        orientation=app.services.settings.orientation, extra=extra)
    options = setup.options

    def show_best(*_args: Any) -> None:
        extra.refresh()

    def chosen(*_args: Any) -> None:  # returns None: the chip row's own handler must run too
        Clock.schedule_once(show_best, 0)

    for row in setup.choices.values():
        for chip in row.chips:
            chip.bind(on_release=chosen)
    show_best()
    return setup


def start(app: Shell, rules: str = "classic", aim: str = "line", seed: int | None = None,
          from_learn: bool = False) -> SolitaireScreen:
    """A new game, journaled and shown (``from_learn``: its end leads back to the Learn path)."""
    game = Solitaire.start(rules, aim, seed if seed is not None else random.randrange(1 << 32))
    store = app.services.store
    with store.batch():  # the journal and where it was started from, together
        app.journal(game)
        store.set_progress(FROM_LEARN, {"learn": True} if from_learn else {})
    screen = SolitaireScreen(app, game, from_learn=from_learn)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Shell, game: Solitaire) -> Screen:
    """A game restored after a power cut, leading back where it was started from (Learn, or home)."""
    return SolitaireScreen(app, game, from_learn=bool(app.services.store.progress(FROM_LEARN).get("learn")))


class SolitaireScreen(Leavable, Screen):
    """One game of Solitaire (see the module docstring)."""

    attract_when_idle = False

    def __init__(self, app: Shell, game: Solitaire, from_learn: bool = False, **kwargs: Any) -> None:
        super().__init__(name=KIND, **kwargs)
        u = theme.unit()
        self.app, self.game, self.from_learn = app, game, from_learn
        self._ended = False
        self.best: solo_players.BestNote | None = None
        """What the finished game meant for the solo player's own best (None: a guest)."""
        self.table = TableLayout(orientation=app.services.settings.orientation)
        self.board = self.table.board
        self.board.target = ModeTarget(game, Place)
        self.board.bind(on_placed=lambda *_: self.after_step())
        self.hand = HandView()
        self.table.seat([self.hand])
        self.panel = SidePanel(on_howto=lambda: show_howto(app, then=lambda: app.show(self)))
        self.panel.title.msg = N_("Solitaire")
        self.advice = TLabel(scale=0.78, halign="left", color=theme.ACCENT, size_hint=(1, None), height=u * 1.3)
        self.panel.add_extra(self.advice)
        self.panel.clock.height = 0  # Solitaire is not timed
        leave = TButton(msg=N_("Leave the game"), scale=0.85)
        leave.bind(on_release=lambda *_: confirm_leave(self))
        self.panel.add_row(leave)
        self.overlay = Overlay()
        self.overlay.add_widget(beside(self.table, self.panel))
        self.add_widget(self.overlay)
        self.refresh()
        # the goal and counts are composed: a language staff switch to while the game is on (their
        # web page, or their menu over it) is theirs at once, as the buttons' is
        follow_language(self, lambda screen: screen.refresh())
        if game.finished:
            Clock.schedule_once(lambda dt: self.finish(), 0)

    # ---------------------------------------------------------------------- showing

    def refresh(self) -> None:
        game = self.game
        self.panel.goal.text = _(ONE_CHAIN[("R", game.aim is Aim.LOOP)], count=len(TILES)) + "\n" + _(RULE_WORDS[game.rules])
        self.board.show(game.board)
        self.hand.tiles = list(game.hand)
        self.hand.active = not game.finished
        self.table.bag = len(game.bag)
        self.table.refresh_hints()
        status = game.status()
        self.panel.set_lines([
            (_("Tiles down: {placed} of {total}", placed=status.placed, total=len(TILES)), None),
            (_("{chain}: {length} of {needed}", chain=chain_name("R", False), length=status.line, needed=len(TILES)),
             theme.LINK["R"]),
            (_("{chain}: {length} of {needed}", chain=chain_name("R", True), length=status.loop, needed=len(TILES)),
             theme.LINK["R"]),
        ])
        self.advice.text = _("A tile in your hand fits an orange forced space: it must go there.") \
            if self.hand.marked else ""

    @unless_left
    def after_step(self) -> None:
        """After every placement: journal, show the next tile, end the game when it is over.
        What the player was told before it (a refusal, a reminder) is over. Not once the game was
        left (:mod:`ui.leaving`): a tile still dragged when Leave was confirmed brought it back."""
        self.table.hush(0)
        self.app.journal(self.game)
        self.refresh()
        if self.game.finished:
            self.finish()

    def on_device_event(self, event: Any) -> None:
        if isinstance(event, BagButtonPressed) and not self.game.finished:
            # the engine draws by itself: the next tile is already in the hand
            self.table.tell(0, lambda: _("Your tile is already drawn: place it on the table."), good=True)

    @leaves
    def leave(self) -> None:
        self.app.forget_current()
        self.home()

    def home(self) -> None:
        if self.from_learn:
            self.app.open_family("learn")
        else:
            self.app.go_home()

    # ----------------------------------------------------------------------- the end

    def finish(self) -> None:
        if self._ended:
            return
        self._ended = True
        game = self.game
        store = self.app.services.store
        status = game.status()
        with store.batch():
            store.add_score(score_key(game.rules.value, game.aim.value), time.strftime("%Y-%m-%d"), game.score)
            self.best = solo_players.keep_best(self.app, score_key(game.rules.value, game.aim.value), game.score)
            store.add_record(KIND, game.to_json())
            store.clear_current()
            if status.won:
                record_solitaire_won(store)
        if status.won:
            self.app.services.devices.cue(Cue(winners=(0,), colours=("R",)))
            self.table.tell(0, lambda: _("One red chain through all 14 tiles: you did it!"), good=True)
        elif game.end is End.STUCK:
            self.table.tell(0, lambda: _("Your tiles fit nowhere: the game is over."))
        Clock.schedule_once(lambda dt: self.show_results(), 2.5)

    def show_results(self) -> None:
        if self.manager is None or self.manager.current_screen is not self:
            return
        game, best = self.game, self.best
        status = game.status()
        view = BoardView(show_frontier=False)
        view.show(game.board)
        scores = self.app.services.store.high_scores(score_key(game.rules.value, game.aim.value), 3)

        def words() -> Words:
            if status.won:
                headline = _(ONE_CHAIN[("R", game.aim is Aim.LOOP or status.loop == len(TILES))], count=len(TILES))
            elif game.end is End.LOOP_CLOSED:
                headline = n_("Your red loop closed with {count} tile.", "Your red loop closed with {count} tiles.",
                              status.loop, count=status.loop)
            elif game.end is End.STUCK:
                headline = n_("Stuck with {count} tile down: no space for the tile drawn.",
                              "Stuck with {count} tiles down: no space for the tile drawn.", status.placed,
                              count=status.placed)
            else:
                headline = _("All tiles down, but not in one red chain.")
            notes = [_("Best scores: {scores}", scores=", ".join(str(s) for _n, s in scores))] if scores else []
            if best is not None and best.text(solo_players.show_score):
                notes.insert(0, best.text(solo_players.show_score))
            notes.insert(0, _("Longest red line: {line} · longest red loop: {loop}", line=status.line, loop=status.loop))
            return Words(_("You did it!") if status.won else _("Game over"), headline,
                         [Standing(1 if status.won else None, best.name if best else _("You"), theme.LINK["R"],
                                   _("score: {score}", score=game.score))],
                         notes)

        self.app.show(ResultsScreen(
            KIND, words, stage=view, replay=BoardReplay(view, game.board.placements()), celebrate=status.won,
            on_again=lambda: start(self.app, game.rules.value, game.aim.value, from_learn=self.from_learn),
            on_home=self.home))


# ----------------------------------------------------------------------- how to play

HOWTO_BUILD = (P(11, 0, 0, 2), P(7, -1, 0, 1), P(3, -1, -1, 0))
"""The first three tiles drawn: after them (0, -1) is a forced space."""
HOWTO_ELSEWHERE = P(4, -2, -1, 1)
"""Fits there, but tile 4 fits the forced space: refused."""
HOWTO_FILL = P(4, 0, -1, 2)


def solitaire_script(stage: TileStage) -> tuple[list[Step], Any]:
    """Solitaire's "how to play" (real tiles and rules: the tests replay it on the engine)."""
    hand = stage.hands[0]

    def reset() -> None:
        stage.reset((), [[HOWTO_BUILD[0].tile]], [p.cell for p in (*HOWTO_BUILD, HOWTO_ELSEWHERE, HOWTO_FILL)])

    def build() -> None:
        delay = 0.0
        for index, placement in enumerate(HOWTO_BUILD):
            if index:
                def into_hand(t: int = placement.tile) -> None:
                    hand.tiles.append(t)

                stage.timeline.later(delay, into_hand)
                delay += 0.4
            stage.slide(0, placement, seconds=0.7, delay=delay)
            delay += 1.1

    def forced() -> None:
        hand.tiles.append(HOWTO_FILL.tile)
        stage.slide(0, HOWTO_ELSEWHERE, refused=True, delay=0.6)

    steps = [
        Step(N_("Solitaire: tiles 1 to 14 come out of the bag one by one. Aim: one red line through all."),
             None, 3.4),
        Step(N_("Place each tile you draw touching the others, colours matching."), build, 4.2),
        Step(N_("Orange: a forced space, with three tiles around it. Your tile fits it, so it must go there."),
             forced, 4.2),
        Step(N_("Filled! The next tile comes out of the bag by itself."), lambda: stage.slide(0, HOWTO_FILL), 3.0),
        Step(N_("There is no undo: a tile once placed stays. Keep the red line growing!"), None, 3.2),
    ]
    return steps, reset


def show_howto(app: Shell, then: Any) -> None:
    stage = TileStage(hands=1)
    steps, reset = solitaire_script(stage)
    app.show(HowToPlayScreen(KIND, N_("Solitaire"), stage, steps, reset, on_done=then))
