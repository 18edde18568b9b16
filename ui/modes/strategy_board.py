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

from kivy.animation import Animation
from kivy.graphics import Color, InstructionGroup, Line, Mesh
from kivy.properties import ObjectProperty

from engine.board import Board, Placement
from engine.board import Line as ChainLine
from engine.geometry import Cell

from .. import theme
from ..board import BoardView
from ..hexes import corners
from ..i18n import _
from .solo_board import SoloBoard


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


class StrategyBoard(SoloBoard):
    """The game's board: a board view that also reports taps on cells (``on_cell_tap(cell, pos)``,
    ``pos`` in window coordinates; a touch that moves more than a third of a touch unit pans, as
    before, and is no tap), shows a person's :attr:`provisional` placement (not yet confirmed: a
    breathing white outline; a finger can turn it with a tap, move it, or drag it back onto the
    hand, :attr:`tray`) and marks each seat's last placement in that seat's colour."""

    __events__ = ("on_cell_tap",)

    provisional = ObjectProperty(None, allownone=True)
    """The placement a person has put down and not yet confirmed (drawn on the shown board)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("tiles_mode", "movable")
        super().__init__(**kwargs)
        self._taps: dict[Any, tuple[float, float]] = {}
        self.last_placed: dict[Cell, str] = {}
        """Each seat's latest placement: its cell and the seat's colour."""
        self._status = InstructionGroup()
        self._pending_colour = Color(1, 1, 1, 1)
        self.canvas.add(self._status)
        self._breath = Animation(a=0.55, d=0.7, t="in_out_sine") + Animation(a=1.0, d=0.7, t="in_out_sine")
        self._breath.repeat = True
        self.bind(provisional=self._draw_status)

    def grips(self, placement: Placement) -> bool:
        """Only the provisional tile can be taken hold of; every other finger pans or taps."""
        return placement == self.provisional

    def show(self, board: Board) -> None:
        super().show(board)
        self._draw_status()

    def mark_last(self, marks: dict[Cell, str]) -> None:
        """Mark ``marks`` (cell: colour), each seat's latest placement."""
        if marks != self.last_placed:
            self.last_placed = dict(marks)
            self._draw_status()

    def _redraw(self, *args: Any) -> None:
        super()._redraw(*args)
        self._draw_status()

    def _draw_status(self, *_args: Any) -> None:
        """The provisional tile's breathing outline, the last placements' corner marks."""
        group = self._status
        group.clear()
        s = self.size_px
        for cell, colour in self.last_placed.items():
            if cell not in self.board or (self.provisional is not None and cell == self.provisional.cell):
                continue
            x, y = self.cell_centre(cell)
            group.add(Color(*theme.TABLE_DARK))
            group.add(Line(points=corners(x, y, s * 0.9), width=max(2.0, s * 0.1), close=True))
            group.add(Color(*theme.LINK[colour]))
            group.add(Line(points=corners(x, y, s * 0.9), width=max(1.2, s * 0.055), close=True))
        Animation.cancel_all(self._pending_colour)
        if self.provisional is not None and self.provisional.cell in self.board:
            x, y = self.cell_centre(self.provisional.cell)
            group.add(Color(*theme.TABLE_DARK))
            group.add(Line(points=corners(x, y, s * 0.98), width=max(4.0, s * 0.17), close=True))
            self._pending_colour.a = 1.0
            group.add(self._pending_colour)
            group.add(Line(points=corners(x, y, s * 0.98), width=max(2.5, s * 0.11), close=True))
            self._breath.start(self._pending_colour)

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
