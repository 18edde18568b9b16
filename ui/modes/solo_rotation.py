"""Rotation puzzles at the kiosk: a pyramid of 3 to 9 rows (9: the Great Pyramid, 45 tiles) whose
tiles lie in their places, turned wrongly; tap a tile to turn it until every touching edge matches.

The pyramid fills the board as large as the screen allows (pinch to zoom, drag to pan, a double
tap on the cloth frames it again); a finger that moves pans instead of turning. Edges that do not
match yet carry a short red bar. Hint shows one tile pale as it should lie (tap it to turn the tile
so); Undo takes back a turn, Reset all of them. Solving is celebrated in place and its time kept.
"""

from __future__ import annotations

import random
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen

from engine.board import Board, Placement
from engine.geometry import pyramid
from engine.modes import Refused
from engine.solo.rotation import GREAT_PYRAMID_ROWS, HINT_LOOP, RotationPuzzle, Turn
from engine.solver import Hint, HintKind

from .. import theme
from ..howto import HowToPlayScreen, Step, TileStage
from ..i18n import N_, _
from ..refusals import explain
from ..results import Confetti
from ..services import Cue
from ..table import Banner, SeatBox
from ..widgets import Confirm, TButton
from . import kind_screen
from .solo_board import SoloBoard
from .solo_common import (
    SidePanel, SolvedCard, Stopwatch, ThinkingCard, Worker, best_time, format_time, record_solved, record_time,
)

KIND = "rotation"


def rotation_key(rows: int) -> str:
    """The name its progress and best times are kept under."""
    return f"rotation-{rows}"


def rotation_title(rows: int) -> str:
    return _("Great Pyramid") if rows == GREAT_PYRAMID_ROWS else _("Pyramid of {rows} rows", rows=rows)


def open_rotation(app: Any, rows: int, seed: int | None = None) -> RotationScreen:
    """A new layout of ``rows`` rows (built from a solution, then turned at random), journaled."""
    puzzle = RotationPuzzle.start(rows, seed if seed is not None else random.randrange(1 << 30))
    app.journal(puzzle)
    screen = RotationScreen(app, puzzle)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Any, puzzle: RotationPuzzle) -> Screen:
    return RotationScreen(app, puzzle, resumed=True)


class RotationScreen(Screen):
    """One rotation puzzle (see the module docstring)."""

    attract_when_idle = False

    def __init__(self, app: Any, puzzle: RotationPuzzle, resumed: bool = False, **kwargs: Any) -> None:
        super().__init__(name=KIND, **kwargs)
        self.app, self.puzzle = app, puzzle
        self.key = rotation_key(puzzle.rows)
        self.worker: Worker[Hint] = Worker()
        self.stopwatch = Stopwatch(app.services.store, f"{self.key}:{puzzle.seed}", resumed)
        if not resumed:
            self.stopwatch.save()
        self.thinking: ThinkingCard | None = None
        self.solved_card: SolvedCard | None = None
        self._ticker: Any = None
        self.board = SoloBoard(tiles_mode="turnable", show_frontier=False, auto_fit=False, show_forced=False,
                               frame=sorted(pyramid(puzzle.rows)))
        self.board.bind(on_tile_tap=lambda _b, p: self.turn(Turn(p.tile, 1)),
                        on_ghost_tap=lambda _b, p: self.take_hint(p))
        root = BoxLayout()
        root.add_widget(self.board)
        self.panel = SidePanel(on_howto=lambda: show_howto(app, then=lambda: app.show(self)))
        self.panel.title.text = rotation_title(puzzle.rows)
        goal = _("Tap tiles to turn them until all touching edges match.")
        if puzzle.rows == GREAT_PYRAMID_ROWS:
            goal += "\n" + _("Tip: first make the yellow loop of tiles {a}, {b} and {c}.",
                             a=HINT_LOOP[0], b=HINT_LOOP[1], c=HINT_LOOP[2])
        self.panel.goal.text = goal
        self.hint_button = TButton(msg=N_("Hint"), scale=1.0, bold=True, bg=list(theme.CHOSEN))
        self.hint_button.bind(on_release=lambda *_: self.ask_hint())
        self.panel.add_row(self.hint_button, height=1.1)
        self.undo_button = TButton(msg=N_("Undo"), scale=0.85)
        self.undo_button.bind(on_release=lambda *_: self.undo())
        self.reset_button = TButton(msg=N_("Reset"), scale=0.85)
        self.reset_button.bind(on_release=lambda *_: self.ask_reset())
        self.panel.add_row(self.undo_button, self.reset_button)
        self.back_button = TButton(msg=N_("Back"), scale=0.85)
        self.back_button.bind(on_release=lambda *_: self.ask_leave())
        self.panel.add_row(self.back_button)
        root.add_widget(self.panel)
        self.overlay = FloatLayout()
        self.overlay.add_widget(root)
        self.add_widget(self.overlay)
        self.banner = Banner()
        self.overlay.add_widget(self.banner)
        self.overlay.bind(size=lambda *_: self._place_card(), pos=lambda *_: self._place_card())
        self.refresh()
        if puzzle.finished:
            self.stopwatch.stop()
            self.show_solved(first_time=False)

    # ---------------------------------------------------------------------- showing

    def refresh(self) -> None:
        puzzle = self.puzzle
        status = puzzle.status()
        self.board.show(puzzle.board)
        self.board.show_clashes(status.mismatches)
        self.board.show_ghost(None)
        matching = status.contacts - len(status.mismatches)
        self.panel.set_lines([(_("Matching edges: {matching} of {total}", matching=matching, total=status.contacts),
                                None)])
        done = status.solved
        self.board.tiles_mode = "fixed" if done else "turnable"
        for button in (self.hint_button, self.undo_button, self.reset_button):
            button.disabled = done
        self._show_clock()

    def _show_clock(self, *_args: Any) -> None:
        self.panel.clock.text = _("Time: {time}", time=format_time(self.stopwatch.seconds))

    def tell(self, text: str, good: bool = False) -> None:
        """Say ``text`` over the bottom of the board for a few seconds ("" hides what was said)."""
        if not text:
            self.banner.hide()
            return
        board = self.board
        self.banner.say(text, SeatBox(board.center_x, board.y, board.width, 0.0, 0.0), good)

    def on_enter(self, *_args: Any) -> None:
        self.stopwatch.run()
        if self._ticker is None:
            self._ticker = Clock.schedule_interval(self._show_clock, 1.0)

    def on_leave(self, *_args: Any) -> None:
        if not self.stopwatch.stopped:
            self.stopwatch.pause()
            self.stopwatch.save()
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self.worker.busy:
            self.worker.cancel()

    # ------------------------------------------------------------------------ steps

    def after_step(self) -> None:
        self.app.journal(self.puzzle)
        self.stopwatch.save()
        self.tell("")
        self.refresh()
        if self.puzzle.finished and self.solved_card is None:
            self.stopwatch.stop()
            self.stopwatch.save()
            self.show_solved(first_time=True)

    def turn(self, turn: Turn) -> None:
        try:
            self.puzzle.apply(turn)
        except Refused as refusal:
            self.tell(explain(refusal))
            return
        self.after_step()

    def take_hint(self, placement: Placement) -> None:
        """A tap on the pale tile turns that tile as it shows."""
        steps = (placement.rot - self.puzzle.rotations[placement.tile]) % 6
        if steps:
            self.turn(Turn(placement.tile, steps))

    def undo(self) -> None:
        try:
            self.puzzle.undo()
        except Refused as refusal:
            self.tell(explain(refusal))
            return
        self.after_step()

    def ask_reset(self) -> None:
        if self.puzzle.history:
            self.overlay.add_widget(Confirm(N_("Turn every tile back to how it lay at the start?"), N_("Start again"),
                                            N_("Keep playing"), self.reset))

    def reset(self) -> None:
        while self.puzzle.history:
            self.puzzle.undo()
        self.after_step()

    def ask_leave(self) -> None:
        if self.puzzle.history and not self.puzzle.finished:
            self.overlay.add_widget(Confirm(N_("Leave this puzzle? Your turns will be lost."), N_("Leave"), N_("Stay"),
                                            self.leave))
        else:
            self.leave()

    def leave(self) -> None:
        from .puzzles import open_puzzles

        self.app.services.store.clear_current()
        open_puzzles(self.app)

    # ------------------------------------------------------------------------ hints

    def ask_hint(self) -> None:
        if self.worker.busy or self.puzzle.finished:
            return
        self.thinking = ThinkingCard(on_cancel=self.worker.cancel)
        self.overlay.add_widget(self.thinking)
        puzzle = self.puzzle
        self.worker.start(lambda control: puzzle.hint(control), self._hinted)

    def _hinted(self, hint: Hint | None, cancelled: bool) -> None:
        if self.thinking is not None:
            self.thinking.dismiss()
            self.thinking = None
        self.app.journal(self.puzzle)
        if cancelled or hint is None or self.manager is None:
            return
        if hint.kind is HintKind.PLACE and hint.placement is not None:
            self.board.show_ghost(hint.placement)
            self.tell(_("Tile {tile} should lie as shown: tap it to turn it so.", tile=hint.placement.tile), good=True)
        elif hint.kind is HintKind.UNKNOWN:
            self.tell(_("No hint found in time. Try again, or take a tile back."))

    # ------------------------------------------------------------------------ solved

    def show_solved(self, first_time: bool) -> None:
        store = self.app.services.store
        seconds = self.stopwatch.seconds
        best = best_time(store, self.key)
        if first_time:
            record_time(store, self.key, seconds)
            record_solved(store, self.key)
            store.add_record(KIND, self.puzzle.to_json())
            self.app.services.devices.cue(Cue(winners=(0,), colours=("G",)))
            confetti = Confetti(size=self.overlay.size, pos=self.overlay.pos)
            self.overlay.add_widget(confetti)
            confetti.burst()
        lines = [_("Time: {time}", time=format_time(seconds))]
        if first_time and (best is None or seconds < best):
            lines.append(_("Your best time!"))
        elif best is not None:
            lines.append(_("Best: {time}", time=format_time(best)))
        self.solved_card = SolvedCard(_("Solved!"), lines, [
            (_("New pyramid"), lambda: open_rotation(self.app, self.puzzle.rows), True),
            (_("Back"), self.leave, False)])
        self.overlay.add_widget(self.solved_card)
        self._place_card()
        self.tell(_("Every edge matches: well done!"), good=True)

    def _place_card(self) -> None:
        card = self.solved_card
        if card is None:
            return
        u = theme.unit()
        board = self.board
        card.width = min(board.width - u * 0.4, u * 11)
        card.pos = (board.x + (board.width - card.width) / 2, board.y + u * 0.2)
        above = card.top + u * 0.1  # the solved pyramid stays in sight above the card
        board.fit_area = [board.x, above, board.width, max(board.top - above, 1)]
        board.recentre(animate=False)


# ----------------------------------------------------------------------- how to play

HOWTO_ROWS, HOWTO_SEED = 3, 4
"""A small layout that needs only seven taps, so the demonstration stays short."""


def rotation_script(stage: TileStage) -> tuple[list[Step], Any]:
    """The rotation puzzles' "how to play": a 3-row pyramid turned right, tile by tile."""
    puzzle = RotationPuzzle.start(HOWTO_ROWS, seed=HOWTO_SEED)
    start = dict(puzzle.rotations)
    solution = {p.tile: p.rot for p in puzzle.solution}
    cells = dict(puzzle.cells)
    rots: dict[int, int] = {}
    wrong = [t for t in sorted(cells) if start[t] != solution[t]]

    def show() -> None:
        board = Board()
        for tile, cell in cells.items():
            board.push(Placement(tile, cell[0], cell[1], rots[tile]))
        stage.board = board
        stage.view.show(board)

    def reset() -> None:
        rots.clear()
        rots.update(start)
        stage.reset((), [], sorted(cells.values()))
        show()

    def turn_to_solution(tile: int, delay: float) -> float:
        """Tap ``tile`` until it lies right, a tap every 0.45 s; the delay after the last tap."""
        for _tap in range((solution[tile] - start[tile]) % 6):
            stage.timeline.later(delay, lambda t=tile: (rots.__setitem__(t, (rots[t] + 1) % 6), show()))
            delay += 0.45
        return delay

    def first() -> None:
        turn_to_solution(wrong[0], 0.3)

    def rest() -> None:
        delay = 0.2
        for tile in wrong[1:]:
            delay = turn_to_solution(tile, delay)

    steps = [
        Step(N_("Every tile already lies in its place, but turned the wrong way."), None, 3.0),
        Step(N_("Tap a tile to turn it."), first, 3.2),
        Step(N_("Turn them until every touching edge matches: solved!"), rest, 5.0),
        Step(N_("Stuck? Tap Hint: a pale tile shows how one should lie. Tap it to turn it so."), None, 3.6),
    ]
    return steps, reset


class PyramidStage(TileStage):
    """A stage with no hands: the pyramid takes the whole of it."""

    def _layout(self, *_args: Any) -> None:
        self.view.show_frontier = False
        self.view.pos, self.view.size = self.pos, self.size
        self.view.recentre(animate=False, cells=self._fit)


def show_howto(app: Any, then: Any) -> None:
    stage = PyramidStage(hands=0)
    steps, reset = rotation_script(stage)
    app.show(HowToPlayScreen(KIND, N_("Turn the tiles"), stage, steps, reset, on_done=then))
