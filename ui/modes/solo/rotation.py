"""Rotation puzzles at the kiosk: a pyramid of 3 to 9 rows (9: the Great Pyramid, 45 tiles) whose
tiles lie in their places, turned wrongly; tap a tile to turn it until every touching edge matches.

The pyramid fills the board as large as the screen allows (pinch to zoom, drag to pan, a double
tap on the cloth frames it again); a finger that moves pans instead of turning. Edges that do not
match yet carry a short red bar. Hint shows one tile pale as it should lie (tap it to turn the tile
so); Undo takes back a turn, Reset all of them. Solving is celebrated in place and its time kept.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Callable

from kivy.uix.screenmanager import Screen

from engine.board import Board, Placement
from engine.geometry import pyramid
from engine.modes import Refused
from engine.solo.rotation import GREAT_PYRAMID_ROWS, HINT_LOOP, RotationPuzzle, Turn
from engine.solver import Hint, HintKind

from ... import theme
from ...howto import HowToPlayScreen, Step, TileStage
from ...i18n import N_, Words, _, n_
from ...refusals import explain
from ...leaving import leaves
from ...shell import Shell
from ...table import Banner, SeatBox
from ...navigation import kind_screen
from ...solo_board import SoloBoard
from .common import SolvedCard
from .screen import SoloPuzzleScreen

KIND = "rotation"


def rotation_key(rows: int) -> str:
    """The name its progress and best times are kept under."""
    return f"rotation-{rows}"


def rotation_title(rows: int) -> str:
    return _("Great Pyramid") if rows == GREAT_PYRAMID_ROWS else n_("Pyramid of {rows} row", "Pyramid of {rows} rows", rows, rows=rows)


def open_rotation(app: Shell, rows: int, seed: int | None = None) -> RotationScreen:
    """A new layout of ``rows`` rows (built from a solution, then turned at random), journaled."""
    puzzle = RotationPuzzle.start(rows, seed if seed is not None else random.randrange(1 << 30))
    app.journal(puzzle)
    screen = RotationScreen(app, puzzle)
    app.show(screen)
    return screen


@kind_screen(KIND)
def resume(app: Shell, puzzle: RotationPuzzle) -> Screen:
    return RotationScreen(app, puzzle, resumed=True)


class RotationScreen(SoloPuzzleScreen[RotationPuzzle]):
    """One rotation puzzle (see the module docstring; the clock, Hint, Undo, Reset, Back and the
    solved card are :class:`SoloPuzzleScreen`'s)."""

    KIND = KIND
    RESET_QUESTION = N_("Turn every tile back to how it lay at the start?")
    LEAVE_QUESTION = N_("Leave this puzzle? Your turns will be lost.")
    CARD_WIDTH = 11.0

    def __init__(self, app: Shell, puzzle: RotationPuzzle, resumed: bool = False, **kwargs: Any) -> None:
        key = rotation_key(puzzle.rows)
        super().__init__(app, puzzle, key=key, clock=f"{key}:{puzzle.seed}", resumed=resumed, howto=show_howto,
                         **kwargs)
        self.board = SoloBoard(tiles_mode="turnable", show_frontier=False, auto_fit=False, show_forced=False,
                               frame=sorted(pyramid(puzzle.rows)))
        self.board.bind(on_tile_tap=lambda _b, p: self.turn(Turn(p.tile, 1)),
                        on_ghost_tap=lambda _b, p: self.take_hint(p))
        self.banner = Banner()
        self.set_up(self.board, layers=[self.banner])
        # after the solved card (placed as the board is laid out): a puzzle resumed solved says
        # "Every edge matches" before the board has its size
        self.board.bind(pos=lambda *_: self._place_banner(), size=lambda *_: self._place_banner())

    @property
    def puzzle(self) -> RotationPuzzle:
        """The puzzle being played (``mode``), by its name in this module."""
        return self.mode

    @property
    def started(self) -> bool:
        return bool(self.puzzle.history)

    # ---------------------------------------------------------------------- showing

    def words(self) -> tuple[str, str]:
        puzzle = self.puzzle
        goal = _("Tap tiles to turn them until all touching edges match.")
        if puzzle.rows == GREAT_PYRAMID_ROWS:
            goal += "\n" + _("Tip: first make a yellow loop of the three outlined tiles.")
        return rotation_title(puzzle.rows), goal

    def refresh(self) -> None:
        puzzle = self.puzzle
        status = puzzle.status()
        self.board.show(puzzle.board)
        self.board.show_clashes(status.mismatches)
        great = puzzle.rows == GREAT_PYRAMID_ROWS and not status.solved
        self.board.pointed = [p.cell for p in puzzle.board.placements() if p.tile in HINT_LOOP] if great else []
        self.board.show_ghost(None)
        matching = status.contacts - len(status.mismatches)
        self.panel.set_lines([(_("Matching edges: {matching} of {total}", matching=matching, total=status.contacts),
                                None)])
        done = status.solved
        self.board.tiles_mode = "fixed" if done else "turnable"
        self.show_panel_state(done)

    def tell(self, words: Words, good: bool = False) -> None:
        """Say ``words`` over the bottom of the board for a few seconds."""
        self.banner.say(words, self._banner_foot(), good)

    def hush(self) -> None:
        self.banner.hide()

    def _banner_foot(self) -> SeatBox:
        """What the banner lies just above: the foot of the board, or the solved card lying there
        (drawn over the banner, it hid "Every edge matches" but for a green rim)."""
        board, card = self.board, self.solved_card
        foot = card.top if card is not None and card.parent is not None else board.y
        return SeatBox(board.center_x, foot, board.width, 0.0, 0.0)

    def _place_banner(self) -> None:
        """Lay the banner shown out again where the board now lies."""
        if self.banner.opacity > 0:
            self.banner.place(self._banner_foot())

    # ------------------------------------------------------------------------ steps

    def turn(self, turn: Turn) -> None:
        try:
            self.puzzle.apply(turn)
        except Refused as refusal:
            self.tell(partial(explain, refusal))
            return
        self.after_step()

    def take_hint(self, placement: Placement) -> None:
        """A tap on the pale tile turns that tile as it shows."""
        steps = (placement.rot - self.puzzle.rotations[placement.tile]) % 6
        if steps:
            self.turn(Turn(placement.tile, steps))

    def reset(self) -> None:
        while self.puzzle.history:
            self.puzzle.undo()
        self.after_step()

    @leaves
    def leave(self) -> None:
        self.app.forget_current()
        self.app.open_family("puzzles")

    # ------------------------------------------------------------------------ hints

    def show_hint(self, hint: Hint) -> None:
        if hint.kind is HintKind.PLACE and hint.placement is not None:
            self.board.show_ghost(hint.placement)
            tile = hint.placement.tile
            self.tell(lambda: _("Tile {tile} should lie as shown: tap it to turn it so.", tile=tile), good=True)
        elif hint.kind is HintKind.UNKNOWN:
            self.tell(lambda: _("No hint found in time. Try again, or take a tile back."))

    # ------------------------------------------------------------------------ solved

    def show_solved(self, first_time: bool) -> None:
        super().show_solved(first_time)
        self.tell(lambda: _("Every edge matches: well done!"), good=True)

    def solved_buttons(self) -> list[tuple[str, Callable[[], object], bool]]:
        return [(_("New pyramid"), lambda: open_rotation(self.app, self.puzzle.rows), True),
                (_("Back"), self.leave, False)]

    def make_room(self, card: SolvedCard) -> None:
        board = self.board
        above = card.top + theme.unit() * 0.1  # the solved pyramid stays in sight above the card
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

            def tap(t: int = tile) -> None:
                rots[t] = (rots[t] + 1) % 6
                show()

            stage.timeline.later(delay, tap)
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


def show_howto(app: Shell, then: Any) -> None:
    stage = PyramidStage(hands=0)
    steps, reset = rotation_script(stage)
    app.show(HowToPlayScreen(KIND, N_("Turn the tiles"), stage, steps, reset, on_done=then))
