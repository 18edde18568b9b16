"""The strategy game's board on screen: lines and loops shown, taps on spaces, scores in words.

:class:`LineMarks` lights chosen lines or loops on any :class:`ui.board.BoardView` (the game, the
"how to play" stage, the results): every other tile is dimmed and the line's tiles are thinly outlined
in its colour, so the winning line stands out at arm's length. :class:`StrategyBoard` is the game's
board view: a tap (a touch that neither moves nor pans) on a space tells the screen which cell was
tapped, for the forced-space review. :func:`best_line` picks the line or loop that scores for a
colour, as the engine's score counts it.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from kivy.graphics import Color, InstructionGroup, Line, Mesh

from engine.board import Board
from engine.board import Line as ChainLine
from engine.geometry import Cell

from .. import theme
from ..board import BoardView
from ..hexes import corners
from ..i18n import _


def best_line(board: Board, colour: str) -> ChainLine | None:
    """The line or loop that makes ``colour``'s score (max(longest line, 2 x longest loop)): the
    longest loop when it counts double more than the longest line, else the longest line."""
    chains = board.lines(colour)
    if not chains:
        return None
    return max(chains, key=lambda c: (c.length * (2 if c.loop else 1), c.loop))


def score_words(board: Board, colour: str) -> str:
    """A colour's score as players say it: "line 7" or "loop 5 = 10" (translated)."""
    chain = best_line(board, colour)
    if chain is None:
        return _("line {length}", length=0)
    if chain.loop:
        return _("loop {length} = {points}", length=chain.length, points=2 * chain.length)
    return _("line {length}", length=chain.length)


def _fill(points: list[float]) -> Mesh:
    vertices: list[float] = []
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0.0, 0.0]
    return Mesh(vertices=vertices, indices=list(range(len(points) // 2)), mode="triangle_fan")


class LineMarks:
    """Lines and loops lit on ``view``: every other tile (and the forced spaces) dimmed, so the
    line's own tiles (and its links in them) stand out, each outlined thinly in its colour. Follows the view's pan and zoom;
    costs nothing while nothing is lit."""

    def __init__(self, view: BoardView) -> None:
        self.view = view
        self.lines: tuple[ChainLine, ...] = ()
        self._group = InstructionGroup()
        view.canvas.after.add(self._group)
        view.bind(size_px=self._draw, origin=self._draw, pos=self._draw, size=self._draw)

    def show(self, lines: Iterable[ChainLine | None]) -> None:
        """Light ``lines`` (None entries are skipped); an empty list lights nothing."""
        self.lines = tuple(line for line in lines if line is not None)
        self._draw()

    @property
    def cells(self) -> set[Cell]:
        return {cell for line in self.lines for cell in line.cells}

    def _draw(self, *_args: Any) -> None:
        group = self._group
        group.clear()
        if not self.lines:
            return
        view, s = self.view, self.view.size_px
        lit = self.cells
        group.add(Color(0, 0, 0, 0.68))
        dimmed = [p.cell for p in view.board.placements() if p.cell not in lit]
        for cell in dimmed + [space.cell for space in view.board.forced_spaces()]:
            group.add(_fill(corners(*view.cell_centre(cell), s * 0.99)))
        for line in self.lines:
            group.add(Color(*theme.LINK[line.colour]))
            for cell in line.cells:
                group.add(Line(points=corners(*view.cell_centre(cell), s * 0.9), width=max(1.2, s * 0.05), close=True))


class StrategyBoard(BoardView):
    """The game's board: a BoardView that also reports taps on cells (``on_cell_tap(cell, pos)``,
    ``pos`` in window coordinates). A touch that moves more than a third of a touch unit pans, as
    before, and is no tap."""

    __events__ = ("on_cell_tap",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._taps: dict[Any, tuple[float, float]] = {}

    def on_touch_down(self, touch: Any) -> bool:
        handled = super().on_touch_down(touch)
        if handled and touch.grab_current is None and touch.uid in self._touches:
            self._taps = {touch.uid: touch.pos}  # a second finger makes it a pinch, not a tap
        return handled

    def on_touch_move(self, touch: Any) -> bool:
        start = self._taps.get(touch.uid)
        if start is not None and math.dist(start, touch.pos) > theme.unit() / 3:
            self._taps.pop(touch.uid)
        return super().on_touch_move(touch)

    def on_touch_up(self, touch: Any) -> bool:
        mine = touch.grab_current is self
        start = self._taps.pop(touch.uid, None) if mine else None
        handled = super().on_touch_up(touch)
        if start is not None and len(self._touches) == 0:
            self.dispatch("on_cell_tap", self.cell_under(*touch.pos), self.to_window(*touch.pos))
        return handled

    def on_cell_tap(self, cell: Cell, window_pos: Sequence[float]) -> None:
        """Event: a cell was tapped."""
