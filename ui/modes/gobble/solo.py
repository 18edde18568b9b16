"""Gobble solo at the kiosk: place all 56 tiles, one drawn at a time, each touching two.

The home button opens a start card (how to play, best scores, Start). The game screen shows the
board, the drawn tile (a hand of one; two for the opening pair), the discard pile with its top
tile, progress, and the reward after a gobble (play the top discard, which then lies in the hand,
or return it to the bag). Refusals say the rule in plain words (two neighbours, the golden rule,
"it fits: place it"). There is no undo button: in Gobble a placed tile stays. The engine draws the
next tile by itself, so the bag button only points at the tile already drawn. A finished game is
kept as a record and its score as a high score, and the results replay it tile by tile.
"""

from __future__ import annotations

import random
import time
from functools import partial
from typing import Any, Sequence

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.gobble.rules import Gobble
from engine.actions import Place
from engine.gobble.solo import Discard, GobbleSolo, ReturnDiscard
from engine.modes import Refused

from ... import solo_players, theme
from ...board import BoardView, HandView, PileView
from ...howto import HowToPlayScreen, TileStage
from ...i18n import N_, _, n_
from ...mode_target import ModeTarget
from ...refusals import explain
from ...results import BoardReplay, ResultsScreen, Standing, Words
from ...services import BagButtonPressed, Cue
from ...setup import SetupScreen, SetupSpec
from ...leaving import Leavable, leaves, unless_left
from ...shell import Shell
from ...table import TableLayout
from ...widgets import Overlay, TButton, TLabel, beside, confirm_leave, panel_background
from ...navigation import family_screen, kind_screen
from .common import solo_script

KIND = "gobble-solo"
SPEC = SetupSpec(key=KIND, title=N_("Gobble solo"), players=(1, 1), default_players=1,
                 blurb=N_("Place every tile, each touching two."))


def best_scores(app: Shell, limit: int = 3) -> list[tuple[str, int]]:
    return app.services.store.high_scores(KIND, limit)


def best_words(scores: list[tuple[str, int]]) -> str:
    """The table's best scores, saying what they count (a game's score is the tiles it placed):
    "Best scores: 56, 49, 9" left a newcomer guessing."""
    return _("Most tiles placed: {scores}", scores=", ".join(str(s) for _n, s in scores))


@family_screen(KIND)
def open_setup(app: Shell) -> Screen:
    """The start card: who plays, how to play, the table's best scores and the player's, Start."""
    scores = best_scores(app)
    extra = solo_players.SoloCard(app, lambda: "\n".join(filter(None, (
        best_words(scores) if scores
        else _("No scores yet: be the first!"), solo_players.best_text(app, KIND, solo_players.show_score)))))
    return SetupScreen(SPEC, on_start=lambda setup: start(app), on_back=app.go_home,
                       on_howto=lambda: show_howto(app), orientation=app.services.settings.orientation, extra=extra)


def show_howto(app: Shell, then: Any = None) -> None:
    stage = TileStage(hands=1, pile=True)
    steps, reset = solo_script(stage)
    app.show(HowToPlayScreen(KIND, N_("Gobble solo"), stage, steps, reset,
                             on_done=then or (lambda: app.show(open_setup(app)))))


def start(app: Shell, seed: int | None = None, order: Sequence[int] | None = None) -> GobbleSoloScreen:
    """A new game (``order``: the drawing order, default shuffled by ``seed``), journaled and shown."""
    game = GobbleSolo.start(seed=seed if seed is not None else random.randrange(1 << 32), order=order)
    app.journal(game)
    screen = GobbleSoloScreen(app, game)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Shell, game: GobbleSolo) -> Screen:
    return GobbleSoloScreen(app, game)


class GobbleSoloScreen(Leavable, Screen):
    """One solo Gobble game (see the module docstring)."""

    attract_when_idle = False  # a game in progress stays on screen (it is journaled anyway)

    def __init__(self, app: Shell, game: GobbleSolo, **kwargs: Any) -> None:
        super().__init__(name=KIND, **kwargs)
        u = theme.unit()
        self.app, self.game = app, game
        self.earned: Gobble | None = None
        """What the last placement earned (a gobble gives the top discard as a reward)."""
        self.rules = ModeTarget(game, Place, after=lambda earned: setattr(self, "earned", earned))
        self.best: solo_players.BestNote | None = None
        """What the finished game meant for the solo player's own best (None: a guest)."""
        self.table = TableLayout(orientation=app.services.settings.orientation)
        self.table.board.target = self.rules
        self.table.board.frontier_touching = 2
        self.hand = HandView()
        self.table.seat([self.hand])
        self.hand.bind(on_played=lambda *_: self.after_step())
        # beside the table a column; on a portrait panel a band above it: the words, the pile, the buttons
        band = theme.portrait()
        side = BoxLayout(orientation="horizontal" if band else "vertical", size_hint=(1, None) if band else (None, 1),
                         width=u * 4.2, height=u * 3.6, padding=u * 0.2, spacing=u * 0.15)  # the words' column: 3.1 units
        panel_background(side, theme.TABLE_DARK, radius=0)
        # the title with "?" (how to play, then back to this game) and the goal: what a player
        # who skipped the start card must know to begin, as every solo screen says it
        title = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.1)
        title.add_widget(TLabel(msg=N_("Gobble solo"), scale=1.15, bold=True))
        self.howto_button = TButton(text="?", scale=1.1, bold=True, size_hint=(None, 1), width=u * 1.0,
                                    bg=list(theme.rgb("#35607f")))
        self.howto_button.bind(on_release=lambda *_: show_howto(app, then=lambda: app.show(self)))
        title.add_widget(self.howto_button)
        goal = TLabel(msg=SPEC.blurb, scale=0.8, size_hint=(1, None), height=u * 1.0)
        self.progress = TLabel(msg=N_("Placed: {placed} of {total}"), scale=1.0, size_hint=(1, None), height=u * 0.8)
        # the reward offered is the pile's top tile: while it stands, the offer's words take the
        # pile's place (squeezed into what the column had left, they were once 9 px letters)
        pile_slot = FloatLayout(size_hint=(0.6, 1) if band else (1, None), height=u * 3.0)
        self.pile = PileView(size_hint=(1, 1), pos_hint={"x": 0, "y": 0})
        self.offer = TLabel(scale=0.82, color=theme.ACCENT, bold=True, size_hint=(1, 1), pos_hint={"x": 0, "y": 0},
                            opacity=0)
        pile_slot.add_widget(self.pile)
        pile_slot.add_widget(self.offer)
        self.action = TButton(scale=0.85, size_hint=(1, None), height=u * 1.35)
        self.action.bind(on_release=lambda *_: self.press_action())
        leave = TButton(msg=N_("Leave the game"), scale=0.8, size_hint=(1, None), height=u * 1.0)
        leave.bind(on_release=lambda *_: confirm_leave(self))
        if band:
            words = BoxLayout(orientation="vertical", spacing=u * 0.1)
            buttons = BoxLayout(orientation="vertical", spacing=u * 0.15)
            columns = [(words, (title, goal, self.progress)), (pile_slot, ()),
                       (buttons, (Widget(), self.action, leave))]
        else:
            columns = [(w, ()) for w in (title, goal, self.progress, pile_slot, Widget(), self.action, leave)]
        for column, parts in columns:
            for part in parts:
                column.add_widget(part)
            side.add_widget(column)
        self.overlay = Overlay()
        self.overlay.add_widget(beside(self.table, side))
        self.add_widget(self.overlay)
        self.refresh()
        if game.finished:  # the power went between the last step's journal and the ending: end it now
            Clock.schedule_once(lambda dt: self.finish(), 0)

    # ------------------------------------------------------------------ showing

    def refresh(self) -> None:
        game = self.game
        self.table.board.show(game.board)
        self.hand.tiles = list(game.playable)
        self.table.bag = len(game.bag)
        self.table.refresh_hints()
        placed, total = game.progress
        self.progress.values = {"placed": placed, "total": total}
        self.pile.tiles = list(game.discards[:-1] if game.reward else game.discards)
        if game.reward:
            self.offer.msg = N_("Gobble! Your reward is the top discard: drag it onto the table, or return it.")
            self.action.msg = N_("Return it to the bag")
            self.action.bg = list(theme.BUTTON)
        elif game.finished:
            self.offer.msg = ""
            self.action.msg = N_("See the result")
            self.action.bg = list(theme.GO)
        else:
            self.offer.msg = ""
            self.action.msg = N_("It fits nowhere: discard it")
            self.action.bg = list(theme.BUTTON)
        self.action.opacity = 1 if (game.reward or game.hand or game.finished) else 0
        self.offer.opacity, self.pile.opacity = (1, 0) if game.reward else (0, 1)

    @unless_left
    def after_step(self) -> None:
        """After every action: journal, show, celebrate a gobble, end the game when it is over.
        What the player was told before it (a refusal, a reminder) is over. Not once the game was
        left (:mod:`ui.leaving`): a finger still on the action or a tile when Leave was confirmed
        brought it back."""
        self.table.hush(0)
        earned, self.earned = self.earned, None
        self.app.journal(self.game)
        self.refresh()
        if earned and self.game.reward:
            self.table.tell(0, lambda: _("Gobble! You may play the top discard."), good=True)
        if self.game.finished:
            self.finish()

    # ------------------------------------------------------------------ actions

    def press_action(self) -> None:
        game = self.game
        if game.finished:
            self.show_results()
            return
        try:
            game.apply(ReturnDiscard() if game.reward else Discard())
        except Refused as refusal:
            self.table.board.highlight(refusal.cells, theme.MARK_FITS)  # where the tile fits
            self.table.tell(0, partial(explain, refusal))
            return
        self.after_step()

    def on_device_event(self, event: Any) -> None:
        if isinstance(event, BagButtonPressed) and not self.game.finished:
            # the engine draws by itself: the tile is already in the hand
            self.table.tell(0, lambda: _("Your tile is already drawn: place it on the table."), good=True)

    @leaves
    def leave(self) -> None:
        self.app.discard()

    # ------------------------------------------------------------------ the end

    def finish(self) -> None:
        store = self.app.services.store
        game = self.game
        with store.batch():
            store.add_score(KIND, time.strftime("%Y-%m-%d"), game.score)
            self.best = solo_players.keep_best(self.app, KIND, game.score)
            store.add_record(KIND, game.to_json())
            store.clear_current()
        if game.goal_reached:
            self.table.tell(0, lambda: n_("All {total} tile placed: you did it!", "All {total} tiles placed: you did it!",
                                          game.total, total=game.total), good=True)
            self.app.services.devices.cue(Cue(winners=(0,), colours=("G",)))
        Clock.schedule_once(lambda dt: self.show_results(), 2.5)

    def show_results(self) -> None:
        if self.manager is None or self.manager.current_screen is not self:
            return
        game, best = self.game, self.best
        view = BoardView(show_frontier=False)
        view.show(game.board)
        scores = best_scores(self.app)

        def words() -> Words:
            placed, total = game.progress
            notes = [best_words(scores)] if scores else []
            if best is not None and best.text(solo_players.show_score):
                notes.insert(0, best.text(solo_players.show_score))
            return Words(
                _("Goal reached!") if game.goal_reached else _("Game over"),
                n_("You placed {placed} of {total} tiles.", "You placed {placed} of {total} tiles.", placed,
                   placed=placed, total=total),
                [Standing(1 if game.goal_reached else None, best.name if best else _("You"), None,
                          _("discarded: {count}", count=len(game.discards)))],
                notes)

        self.app.show(ResultsScreen(
            KIND, words, stage=view, replay=BoardReplay(view, game.board.placements()),
            celebrate=game.goal_reached, on_again=lambda: start(self.app), on_home=self.app.go_home))

