"""The strategy game's "how to play": hands of six, touching and matching, a refused colour, a
forced space made and filled first, the one free move and the draw, then the longest line or loop.

The positions are real: every placement below is legal in the strategy game with tiles still in
the bag (restrictions on), the refused one breaks the golden rule, and the last picture holds a
green loop of 7 and a red line of 5 (the tests check all of it against the engine).
"""

from __future__ import annotations

from typing import Any

from engine.board import Board
from engine.board import Placement as P

from ...howto import Step, TileStage
from ...i18n import N_
from .board import LineMarks, best_line

OPENING = P(3, 0, 0, 4)
"""Hand 0 (left of the table) starts in the middle."""
SECOND = P(28, 1, 0, 1)
"""Hand 1 (right) answers."""
REFUSED = P(24, -1, 0, 0)
"""Tile 24 has no yellow: it can never touch the yellow side of tile 3 (the golden rule)."""
MAKES_FORCED = P(6, 2, -1, 2)
"""Three tiles now surround (1, -1): a forced space."""
FORCED_CELL = (1, -1)
FILL = P(14, 1, -1, 4)
"""Hand 1 must fill it first..."""
FREE = P(22, 0, -1, 3)
"""...then makes its one free move."""
DRAWN = 18
"""The replacement hand 1 draws."""
HANDS = ([OPENING.tile, REFUSED.tile, MAKES_FORCED.tile, 41, 12, 50], [SECOND.tile, FILL.tile, FREE.tile, 9, 33, 47])

LOOP_POSITION = (
    P(33, 0, 0, 1), P(23, 0, 1, 5), P(4, 1, -1, 4), P(35, 0, 2, 5), P(54, -1, 0, 0), P(25, 1, 0, 1), P(17, -1, 1, 3),
    P(8, 2, -2, 4), P(29, -2, 0, 2), P(45, 3, -3, 3), P(42, -1, 2, 3), P(39, 0, -1, 3), P(44, 1, 1, 1),
)
"""A game a few turns in: a green loop of 7 tiles (14 points) beats a red line of 5."""
LOOP_COLOUR, LINE_COLOUR = "G", "R"

_FRAME = [p.cell for p in (OPENING, SECOND, REFUSED, MAKES_FORCED, FILL, FREE)]


def loop_board() -> Board:
    board = Board()
    for p in LOOP_POSITION:
        board.push(p)
    return board


def script(stage: TileStage) -> tuple[list[Step], Any]:
    """The steps and the reset of the strategy game's "how to play" on ``stage`` (two hands)."""
    stage.view.frontier_touching = 1
    marks = LineMarks(stage.view)

    def reset() -> None:
        marks.show(())
        stage.reset((), [list(h) for h in HANDS], _FRAME)

    def lines() -> None:
        hands = [list(h.tiles) for h in stage.hands]
        stage.reset(LOOP_POSITION, hands, [p.cell for p in LOOP_POSITION])
        board = loop_board()
        marks.show([best_line(board, LOOP_COLOUR)])
        stage.timeline.later(2.2, lambda: marks.show([best_line(board, LOOP_COLOUR), best_line(board, LINE_COLOUR)]))

    def draw() -> None:
        stage.slide(1, FREE)

        def drawn() -> None:
            if DRAWN not in stage.hands[1].tiles:
                stage.hands[1].tiles.append(DRAWN)

        stage.timeline.later(1.4, drawn)

    steps = [
        Step(N_("Each player has a colour and six tiles, face up for everyone to see."), None, 3.2),
        Step(N_("The highest number starts in the middle. Take turns: a tile must touch the table, and colours must "
                "match wherever tiles touch."), lambda: (stage.slide(0, OPENING), stage.slide(1, SECOND, delay=1.2)),
             4.4),
        Step(N_("A tile whose colours do not match is refused."), lambda: stage.slide(0, REFUSED, refused=True), 3.4),
        Step(N_("An empty space with three tiles around it is a forced space (orange)."),
             lambda: stage.slide(0, MAKES_FORCED), 3.6),
        Step(N_("On your turn, first fill the forced spaces a tile of yours fits..."), lambda: stage.slide(1, FILL), 3.6),
        Step(N_("...then make one free move, anywhere it fits. After each tile, draw a new one from the bag."),
             draw, 4.2),
        Step(N_("The longest line or loop of your colour wins. A loop counts double!"), lines, 5.0),
    ]
    return steps, reset
