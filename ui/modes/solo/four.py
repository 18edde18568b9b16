"""Four lines and Four loops at the kiosk: all 56 tiles laid out freely in one arrangement, scored.

The tiles wait in a tray under the table, a page at a time (the arrows beside it turn the pages:
56 tiles at a size a finger can hold do not fit in one tray). Drag a tile onto the table, tap it
to turn it (in the tray or on the table), drag a placed tile elsewhere or back onto the tray; Undo
takes back a step. The panel shows, live, each colour's longest line (or loop) and the score,
their sum. Once all 56 tiles lie in one arrangement the score counts: the player's best is kept in
the store (high scores of mode ``KIND``), celebrated when beaten. "The table's best" shows the
device's best known arrangement (:func:`engine.four.best_known`, read only) with the booklets'
figures (:data:`engine.four.RECORDS`). Every step is journaled, so a power cut loses nothing.

The rules are the engine's (:mod:`engine.four`): the placement target only asks the board whether a
placement keeps the golden rule and touches the others, and the mode refuses what would split the
arrangement in two.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.screenmanager import Screen

from engine.actions import Place
from engine.board import Placement
from engine.board import Placement as P
from engine.four import RECORDS, FourLines, FourLoops, FourPuzzle, Goal, best_known, colour_scores
from engine.modes import Refused
from engine.tiles import ALL_NUMBERS, COLOURS

from ... import solo_players, theme
from ...board import HandView
from ...howto import HowToPlayScreen, Step, TileStage
from ...i18n import N_, Words, _, follow_language
from ...mode_target import ModeTarget
from ...refusals import explain
from ...results import Confetti, IconButton
from ...services import Cue
from ...widgets import Confirm, Overlay, TButton, beside
from ...navigation import kind_screen
from ...solo_board import SoloBoard, TrayTable
from .common import SidePanel, chain_name
from ...leaving import Leavable, leaves, unless_left
from ...shell import Shell


MODES: dict[Goal, type[FourPuzzle]] = {"lines": FourLines, "loops": FourLoops}
TITLES = {"lines": N_("Four lines"), "loops": N_("Four loops")}
GOALS = {
    "lines": N_("Put all 56 tiles down in one arrangement. Score: the longest line of each colour, added up "
                "(a closed loop is not a line)."),
    "loops": N_("Put all 56 tiles down in one arrangement. Score: the longest loop of each colour, added up."),
}
SUBTITLES = {"lines": N_("the longest line of each colour"), "loops": N_("the longest loop of each colour")}
BOOKLET = {
    "lines": N_("The booklet: {booklet_computed} found by computer, {booklet_by_hand} by hand."),
    "loops": N_("The booklet: {booklet_best}; {booklet_believed_maximum} is believed to be the most."),
}
"""The booklets' figures in words (fields: the keys of engine.four.RECORDS)."""


def player_best(store: Any, goal: Goal) -> int | None:
    """The best score kept at this table for ``goal`` (None: no complete arrangement yet)."""
    found = store.high_scores(MODES[goal].KIND, 1)
    return found[0][1] if found else None


def entries(store: Any) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """The puzzle list's buttons (see :func:`ui.modes.solo.puzzles.four_entries`): English title, the
    line under it in words, and what a tap opens."""
    found: list[tuple[str, str, Callable[[Any], Any]]] = []
    for goal in MODES:
        subtitle = _(SUBTITLES[goal])
        best = player_best(store, goal)
        if best is not None:
            subtitle += "\n" + _("best {score}", score=best)
        found.append((TITLES[goal], subtitle, partial(open_four, goal=goal)))
    return found


def open_four(app: Shell, goal: Goal) -> FourScreen:
    """Start an empty arrangement (journaled) and show it."""
    four = MODES[goal]()
    app.journal(four)
    screen = FourScreen(app, four)
    app.show(screen)
    return screen


@kind_screen(FourLines.KIND)
@kind_screen(FourLoops.KIND)
def resume(app: Shell, four: FourPuzzle) -> Screen:
    return FourScreen(app, four)


class FourScreen(Leavable, Screen):
    """One arrangement being built (see the module docstring)."""

    attract_when_idle = False

    def __init__(self, app: Shell, four: FourPuzzle, **kwargs: Any) -> None:
        super().__init__(name="four", **kwargs)
        u = theme.unit()
        self.app, self.four = app, four
        self.goal: Goal = four.GOAL
        self.target = ModeTarget(four, Place)  # from the tray, or moved (or turned) where it lies: the mode decides
        self.page = 0
        self._session_best = four.best_score
        self.board = SoloBoard(tiles_mode="movable", show_forced=False)
        self.board.target = self.target
        self.table = TrayTable(board=self.board, sides=u * 1.25, full_width=True)
        self.table.hand_rows = 2
        self.tray = HandView()
        self.table.seat([self.tray])
        self.board.tray, self.board.drag_layer = self.tray, self.table.drag_layer
        self.board.bind(on_placed=lambda *_: self.after_step(), on_tile_tap=lambda _b, p: self.turn_placed(p),
                        on_pick_up=lambda _b, tile: self.pick_up(tile),
                        on_move_refused=lambda _b, refusal: self.tell(lambda: explain(refusal)))
        self.panel = SidePanel(on_howto=lambda: show_howto(app, self.goal, then=lambda: app.show(self)))
        self.panel.title.msg = TITLES[self.goal]
        self.panel.goal.msg = GOALS[self.goal]
        self.panel.clock.bold, self.panel.clock.color = True, theme.TEXT  # the score, where puzzles keep time
        self.undo_button = TButton(msg=N_("Undo"), scale=0.85)
        self.undo_button.bind(on_release=lambda *_: self.undo())
        self.reset_button = TButton(msg=N_("Start again"), scale=0.85)
        self.reset_button.bind(on_release=lambda *_: self.ask_reset())
        self.panel.add_row(self.undo_button, self.reset_button)
        self.best_button = TButton(msg=N_("The table's best"), scale=0.85, bg=list(theme.rgb("#35607f")))
        self.best_button.bind(on_release=lambda *_: self.show_best())
        self.back_button = TButton(msg=N_("Back"), scale=0.85)
        self.back_button.bind(on_release=lambda *_: self.ask_leave())
        self.panel.add_row(self.best_button, self.back_button)
        self.overlay = Overlay()
        self.overlay.add_widget(beside(self.table, self.panel))
        self.previous = IconButton(icon="back", size_hint=(None, None), size=(u * 1.05, u * 1.05))
        self.previous.bind(on_release=lambda *_: self.turn_page(-1))
        self.following = IconButton(icon="next", size_hint=(None, None), size=(u * 1.05, u * 1.05))
        self.following.bind(on_release=lambda *_: self.turn_page(1))
        self.overlay.add_widget(self.previous)
        self.overlay.add_widget(self.following)
        self.add_widget(self.overlay)
        self._arrange = Clock.create_trigger(lambda dt: self._place_arrows())
        self.table.bind(size=lambda *_: self._arrange(), pos=lambda *_: self._arrange())
        self.table.bind(width=lambda *_: self._show_tray())  # the tray's capacity follows the width
        self.refresh()
        # the counts and the score are composed: a language staff switch to while the puzzle is
        # on (their web page, or their menu over it) is theirs at once, as the buttons' is
        follow_language(self, lambda screen: screen.refresh())

    # ---------------------------------------------------------------------- showing

    def refresh(self) -> None:
        four = self.four
        self.board.show(four.board)
        self._show_tray()
        scores = four.colour_scores()
        loop = self.goal == "loops"
        lines: list[tuple[str, theme.RGBA | None]] = [
            (_("Tiles down: {placed} of {total}", placed=len(ALL_NUMBERS) - len(four.hand), total=len(ALL_NUMBERS)),
             None)]
        lines += [(_("{chain}: {length}", chain=chain_name(c, loop), length=scores[c]), theme.LINK[c]) for c in COLOURS]
        best = player_best(self.app.services.store, self.goal)
        lines.append((_("Table's best: {score}", score=best) if best is not None else _("Table's best: not yet"), None))
        self.panel.set_lines(lines)
        self.panel.clock.text = _("Score: {score}", score=sum(scores.values()))

    def _show_tray(self) -> None:
        hand = self.four.hand
        per_page = self.table.capacity()
        pages = max(1, -(-len(hand) // per_page))
        self.page = min(max(self.page, 0), pages - 1)
        self.tray.tiles = hand[self.page * per_page:(self.page + 1) * per_page]
        self.previous.disabled = self.page == 0
        self.following.disabled = self.page >= pages - 1
        self._arrange()

    def turn_page(self, step: int) -> None:
        self.page += step
        self._show_tray()

    def _place_arrows(self) -> None:
        """The page arrows at both ends of the tray."""
        if not self.table.boxes:
            return
        box = self.table.boxes[0]
        gap = theme.unit() * 0.1
        y = self.table.y + box.cy - self.previous.height / 2
        self.previous.pos = (self.table.x + box.cx - box.length / 2 - gap - self.previous.width, y)
        self.following.pos = (self.table.x + box.cx + box.length / 2 + gap, y)
        shown = len(self.four.hand) > len(self.tray.tiles)
        for arrow in (self.previous, self.following):
            arrow.opacity = 1 if shown else 0
            arrow.disabled = arrow.disabled or not shown

    def tell(self, words: Words, good: bool = False) -> None:
        self.table.tell(0, words, good)

    # ---------------------------------------------------------------------- steps

    @unless_left
    def after_step(self) -> None:
        """After every change: journal, show, and celebrate a new best complete arrangement (not
        once the arrangement was left, :mod:`ui.leaving`: a finger still on Undo or a tile brought
        it back). What
        was said about the step before (a refusal) no longer holds after this one. A new best is
        kept in the journal's transaction: the journal holds the best, and a resumed arrangement
        counts it as kept already, so a power cut between two writes lost it."""
        self.table.hush(0)
        score = self.four.best_score
        better = score is not None and (self._session_best is None or score > self._session_best)
        with self.app.services.store.batch():
            self.app.journal(self.four)
            kept = self.keep(score) if better and score is not None else None
        self.refresh()
        if score is not None and kept is not None:
            self._session_best = score
            self.celebrate(score, *kept)

    def keep(self, score: int) -> tuple[bool, solo_players.BestNote | None]:
        """Keep ``score``, a new best of this arrangement, as the table's best if it beats it and as
        the player's: whether it was the table's best, and the player's note."""
        store = self.app.services.store
        kept = player_best(store, self.goal)
        if kept is None or score > kept:
            store.add_score(self.four.KIND, time.strftime("%Y-%m-%d"), score)
        return kept is None or score > kept, solo_players.keep_best(self.app, self.four.KIND, score)

    def celebrate(self, score: int, table_best: bool, mine: solo_players.BestNote | None) -> None:
        def said() -> str:
            """The player's own best, after a space ("" for a guest)."""
            note = mine.text(solo_players.show_score) if mine is not None else ""
            return " " + note if note else ""

        if table_best:
            self.tell(lambda: _("All 56 tiles in one arrangement: {score} points. The table's best!", score=score)
                      + said(), good=True)
            self.app.services.devices.cue(Cue(winners=(0,), colours=("G",)))
            confetti = Confetti(size=self.overlay.size, pos=self.overlay.pos)
            self.overlay.add_widget(confetti)
            confetti.burst()
        else:
            self.tell(lambda: _("All 56 tiles in one arrangement: {score} points.", score=score) + said(), good=True)
        self.refresh()

    def _act(self, action: Callable[[], Any], cells: tuple[Any, ...] = ()) -> None:
        try:
            action()
        except Refused as refusal:
            self.refresh()  # a lifted tile goes back where it lay
            self.board.highlight(refusal.cells or cells)
            self.tell(partial(explain, refusal))
            return
        self.after_step()

    def turn_placed(self, placement: Placement) -> None:
        """A tap on a placed tile: turn it clockwise to its next rotation that still matches."""
        for step in range(1, 6):
            turned = placement._replace(rot=(placement.rot + step) % 6)
            if self.target.check(turned) is None:
                self._act(lambda: self.four.rotate(placement.cell, turned.rot))
                return
        self.board.highlight((placement.cell,))
        self.tell(lambda: _("Turned any other way this tile would break the golden rule here."))

    def pick_up(self, tile: int) -> None:
        cell = self.four.board.cell_of(tile)
        if cell is not None:
            self._act(lambda: self.four.pick_up(cell), (cell,))

    def undo(self) -> None:
        self._act(self.four.undo)

    def ask_reset(self) -> None:
        if self.four.hand != list(ALL_NUMBERS):
            self.overlay.add_widget(Confirm(N_("Take every tile back and start again? Your best stays kept."),
                                            N_("Start again"), N_("Keep playing"), self.reset))

    def reset(self) -> None:
        """An empty table; the session's best arrangement stays."""
        saved = self.four.to_json()
        saved.update(position=type(self.four)().to_json()["position"], undo=[])
        fresh = type(self.four).from_json(saved)
        self.app.journal(fresh)
        self.app.show(FourScreen(self.app, fresh))

    def ask_leave(self) -> None:
        if self.four.hand != list(ALL_NUMBERS):
            self.overlay.add_widget(Confirm(N_("Leave? This arrangement will be cleared (your best score stays)."),
                                            N_("Leave"), N_("Stay"), self.leave))
        else:
            self.leave()

    @leaves
    def leave(self) -> None:
        self.app.forget_current()
        self.app.open_family("puzzles")

    def show_best(self) -> None:
        self.app.show(BestScreen(self.app, self.goal, back=lambda: self.app.show(self)))


class BestScreen(Screen):
    """The device's best known arrangement for ``goal``, to look at (pan and pinch, nothing moves),
    with its score per colour, the booklets' figures and the player's best."""

    def __init__(self, app: Shell, goal: Goal, back: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(name="four-best", **kwargs)
        score, board = best_known(goal)
        self.board = SoloBoard(tiles_mode="fixed", show_forced=False, show_frontier=False)
        self.board.show(board)
        panel = SidePanel(on_howto=lambda: show_howto(app, goal, then=lambda: app.show(self)))
        panel.title.msg = N_("The table's best")
        panel.goal.text = _(BOOKLET[goal], **RECORDS[goal])
        scores = colour_scores(board, goal)
        lines: list[tuple[str, theme.RGBA | None]] = [
            (_("{chain}: {length}", chain=chain_name(c, goal == "loops"), length=scores[c]), theme.LINK[c])
            for c in COLOURS]
        best = player_best(app.services.store, goal)
        lines.append((_("Table's best: {score}", score=best) if best is not None else _("Table's best: not yet"), None))
        panel.set_lines(lines)
        panel.clock.text = _("Score: {score}", score=score)
        panel.clock.bold, panel.clock.color = True, theme.TEXT
        self.back_button = TButton(msg=N_("Back"), scale=0.9, bold=True)
        self.back_button.bind(on_release=lambda *_: back())
        panel.add_row(self.back_button, height=1.1)
        self.add_widget(beside(self.board, panel))


# ----------------------------------------------------------------------- how to play

HOWTO_TILES = (P(1, 0, 0, 0), P(2, 1, 0, 2), P(3, 0, 1, 0))
"""Discovery 3's loop (as in the puzzles' how to play): three tiles that match."""
HOWTO_STEPS = {
    "lines": N_("Four lines: put all 56 tiles down, each touching the others, colours matching."),
    "loops": N_("Four loops: put all 56 tiles down, each touching the others, colours matching."),
}
HOWTO_SCORE = {
    "lines": N_("Each colour scores its longest line; the four add up. Beat your best!"),
    "loops": N_("Each colour scores its longest loop; the four add up. Beat your best!"),
}


def show_howto(app: Shell, goal: Goal, then: Callable[[], None]) -> None:
    stage = TileStage(hands=1)

    def reset() -> None:
        stage.reset((), [[p.tile for p in HOWTO_TILES]], [p.cell for p in HOWTO_TILES])

    def turn_and_place() -> None:
        stage.timeline.later(0.2, lambda: stage.turn(0, 2, 1))
        stage.timeline.later(0.8, lambda: stage.turn(0, 2, 1))
        stage.slide(0, HOWTO_TILES[1], delay=1.5)

    steps = [
        Step(HOWTO_STEPS[goal], lambda: stage.slide(0, HOWTO_TILES[0]), 3.4),
        Step(N_("Tap a tile to turn it; drag a placed tile to move it, or back to the tray."), turn_and_place, 3.4),
        Step(N_("The arrows beside the tray show the other tiles."), lambda: stage.slide(0, HOWTO_TILES[2]), 3.0),
        Step(HOWTO_SCORE[goal], None, 3.4),
    ]
    app.show(HowToPlayScreen("four", TITLES[goal], stage, steps, reset, on_done=then))
