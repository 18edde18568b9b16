"""The strategy game's board on screen: lines and loops traced, taps on spaces, scores in words.

:class:`LineMarks` traces chosen lines or loops on any :class:`ui.board.BoardView` (the results,
the "how to play" stage): the rest of the board is dimmed, the line's own links are drawn again at
full strength (their patterns too) inside a light rim, and a pulse runs along each line, round
and round a loop, so the eye can follow it at arm's length whatever its colour, and players who
confuse colours still see which links are meant. :class:`StrategyBoard` is the game's board view:
a tap (a touch that neither moves nor pans) on a space tells the screen which cell was tapped, for
the forced-space review. :func:`best_line` picks the line or loop that scores for a colour, as the
engine's score counts it.
"""

from __future__ import annotations

import bisect
import math
from functools import partial
from typing import Any, Iterable, Sequence

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Canvas, Color, InstructionGroup, Line
from kivy.properties import ObjectProperty

from engine.board import Board, Placement
from engine.board import Line as ChainLine
from engine.geometry import Cell, neighbour
from engine.tiles import tile

from ... import theme
from ...board import BoardView
from ...hexes import corners
from ...i18n import _
from ...tileart import FACE_RADIUS, Point, draw_link, filled, link_path
from ...solo_board import SoloBoard


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
        return _loop_words(chain.length)
    return _("line {length}", length=chain.length)


def widest_score_words() -> str:
    """The longest a score's words get (a loop of 28 tiles, counted double: two figures each), in
    the language shown: what a seat's plate keeps room for, so that no score grows out of it."""
    return _loop_words(28)


def _loop_words(length: int) -> str:
    return _("loop {length} = {points}", length=length, points=2 * length)


def line_course(board: Board, line: ChainLine) -> list[tuple[Placement, list[Point]]]:
    """Each tile of ``line`` with its link's centre line on the unrotated unit tile, turned to run
    along the line: from the side facing the tile before to the side facing the tile after (round
    a loop; an open line from one free end to the other)."""
    cells = line.cells
    course = []
    for i, cell in enumerate(cells):
        placement = board.at(cell)
        assert placement is not None, f"{cell} is not on the board"
        link = tile(placement.tile).link(line.colour)
        assert link is not None, f"tile {placement.tile} has no {line.colour} link"
        path = link_path(link)
        following = cells[(i + 1) % len(cells)] if line.loop or i + 1 < len(cells) else None
        preceding = cells[i - 1] if line.loop or i > 0 else None
        exit_b = (link.b + placement.rot) % 6
        if following is not None:
            backwards = neighbour(cell, exit_b) != following
        else:
            backwards = preceding is not None and neighbour(cell, exit_b) == preceding
        course.append((placement, path[::-1] if backwards else path))
    return course


RIM = theme.rgb("#f4f1e8")
"""The light rim round a traced link: it parts the link from the dimmed board, whatever its colour."""


class LineMarks:
    """Lines and loops traced on ``view`` (see the module docstring). Follows the view's pan and
    zoom; the pulse runs while the view is on screen and nothing costs anything while nothing is
    traced."""

    PULSE_SECONDS_PER_TILE = 0.28
    """How long the pulse takes to cross one tile (a loop of 8 goes round in about 2 s)."""
    FPS = 30

    def __init__(self, view: BoardView) -> None:
        self.view = view
        self.lines: tuple[ChainLine, ...] = ()
        self.progress = 0.0
        """How far the pulse has run along the lines (0..1, then again from 0)."""
        self._canvas = Canvas()
        self._pulse = Canvas()
        view.canvas.after.add(self._canvas)
        view.canvas.after.add(self._pulse)
        self._tracks: list[tuple[list[Point], list[float]]] = []
        self._clock: Any = None
        self._was_on_screen = False
        view.bind(size_px=self._draw, origin=self._draw, pos=self._draw, size=self._draw)

    def show(self, lines: Iterable[ChainLine | None]) -> None:
        """Trace ``lines`` (None entries are skipped); an empty list traces nothing."""
        self.lines = tuple(line for line in lines if line is not None)
        self.progress = 0.0
        self._draw()
        if self.lines and self._clock is None:
            self._was_on_screen = False
            self._clock = Clock.schedule_interval(self._tick, 1 / self.FPS)
        elif not self.lines and self._clock is not None:
            self._stop()

    @property
    def cells(self) -> set[Cell]:
        return {cell for line in self.lines for cell in line.cells}

    def _draw(self, *_args: Any) -> None:
        canvas = self._canvas
        canvas.clear()
        self._tracks = []
        if not self.lines:
            self._pulse.clear()
            return
        view, s = self.view, self.view.size_px
        board = view.board
        lit = self.cells
        radius = s * FACE_RADIUS
        courses = [(line, line_course(board, line)) for line in self.lines]
        with canvas:
            Color(0, 0, 0, 0.7)
            for p in board.placements():
                if p.cell not in lit:
                    filled(corners(*view.cell_centre(p.cell), s * 0.99))
            for space in board.forced_spaces():
                filled(corners(*view.cell_centre(space.cell), s * 0.99))
            Color(0, 0, 0, 0.5)  # the line's tiles: their other links recede, the hexagons stay
            for cell in lit:
                filled(corners(*view.cell_centre(cell), s * 0.99))
            Color(*RIM)
            for _line, course in courses:
                for placement, path in course:
                    Line(points=self._flat(placement, path), width=radius * 0.19, cap="none", joint="round")
            for line, course in courses:
                for placement, path in course:
                    draw_link(line.colour, path, partial(self._flat, placement), radius)
        for line, course in courses:
            points = [pt for placement, path in course for pt in _pairs(self._flat(placement, path))]
            lengths = [0.0]
            for a, b in zip(points, points[1:]):
                lengths.append(lengths[-1] + math.dist(a, b))
            self._tracks.append((points, lengths))
        self._draw_pulse()

    def _flat(self, placement: Placement, path: list[Point]) -> list[float]:
        """``path`` on the unit tile, turned as ``placement`` and drawn where its cell is."""
        cx, cy = self.view.cell_centre(placement.cell)
        radius = self.view.size_px * FACE_RADIUS
        a = math.radians(-60.0 * placement.rot)
        c, s = math.cos(a) * radius, math.sin(a) * radius
        return [v for x, y in path for v in (cx + x * c - y * s, cy + x * s + y * c)]

    def _tick(self, dt: float) -> bool | None:
        if self.view.get_root_window() is None:
            if self._was_on_screen:  # the screen was left: stop until shown again
                self._stop()
                return False
            return None
        self._was_on_screen = True
        longest = max(line.length for line in self.lines)
        self.progress = (self.progress + dt / (self.PULSE_SECONDS_PER_TILE * (longest + 2))) % 1.0
        self._draw_pulse()
        return None

    def _stop(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    def _draw_pulse(self) -> None:
        """A short bright stroke (white inside a dark edge, seen on every link colour) at
        :attr:`progress` along each line: an open line is run from end to end, a loop round."""
        pulse = self._pulse
        pulse.clear()
        s = self.view.size_px
        with pulse:
            for line, (points, lengths) in zip(self.lines, self._tracks):
                total = lengths[-1]
                if total <= 0:
                    continue
                tail = s * 1.1
                if line.loop:
                    head = self.progress * total
                    pieces = [_cut(points, lengths, head - tail, head)]
                    if head < tail:
                        pieces.append(_cut(points, lengths, total + head - tail, total))
                else:
                    head = self.progress * (total + tail)
                    pieces = [_cut(points, lengths, head - tail, head)]
                for piece in pieces:
                    if len(piece) < 4:
                        continue
                    Color(*theme.TILE_FACE)
                    Line(points=piece, width=s * 0.09, cap="round", joint="round")
                    Color(1, 1, 1, 1)
                    Line(points=piece, width=s * 0.045, cap="round", joint="round")


def _pairs(flat: list[float]) -> list[Point]:
    return list(zip(flat[0::2], flat[1::2]))


def _cut(points: list[Point], lengths: list[float], start: float, end: float) -> list[float]:
    """The stretch of the polyline ``points`` (``lengths``: the distance run at each point) from
    ``start`` to ``end``, both clamped to the polyline, as a flat list."""
    total = lengths[-1]
    start, end = max(start, 0.0), min(end, total)
    if end <= start:
        return []

    def at(d: float) -> Point:
        i = max(bisect.bisect_right(lengths, d) - 1, 0)
        i = min(i, len(points) - 2)
        span = lengths[i + 1] - lengths[i] or 1.0
        t = (d - lengths[i]) / span
        (x0, y0), (x1, y1) = points[i], points[i + 1]
        return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t

    inside = [points[i] for i in range(len(points)) if start < lengths[i] < end]
    return [v for pt in [at(start), *inside, at(end)] for v in pt]


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
