"""The board's view controls: zoom buttons, an overview of the whole board when it no longer
fits on the table at a size fingers can use, and cues to the forced spaces out of sight.

:class:`ViewControls` sits in a corner of the table: **-** and **+** zoom the view (pinching does
too, but nothing tells a newcomer so); above them, while part of the board lies out of view, a
small map shows every tile, an orange ring round every forced space and a frame round the part on
screen. A tap on the map brings that part of the board into view (a tap near a ring: that forced
space, whole). A player who must fill forced spaces may not see them all (the table holds only so
many at the size fingers need, :func:`ui.board.aim_in_sight`), and a newcomer does not read maps:
at the table's edge towards those out of sight (:func:`out_of_sight`, the one rule for map and
cues), a :class:`ForcedCue` (a small orange forced space with an arrow, and how many lie that way)
brings them into view when tapped; it never lies over a control, a hand or a plate (:func:`cue_spot`).
While all of them are in sight there is none. The map's rings
and the cues stand for the forced spaces the player to move must fill (a mode's own rule, given as
``to_fill``: the strategy game's :meth:`engine.strategy.game.StrategyGame.forced_cells`); the board
still outlines the others, which no tile in that player's hand fits. The controls read the
:class:`ui.board.BoardView` they serve and never change the board itself.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from kivy.graphics import Color, Line, Quad, RoundedRectangle, Triangle
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from engine.geometry import Cell

from . import theme, tileart
from .board import BoardView
from .hexes import SQRT3, cell_at, centre, corners, rotated_quad
from .table import Rect, overlaps, ringed
from .widgets import TButton

ZOOM_STEP = 1.25
"""Each tap on a zoom button changes the tiles' size by this factor."""

CUE_SIZE = 1.2
"""A cue's side in fingertips (:func:`ui.theme.min_target`); the whole square takes the tap."""


def table_rect(view: BoardView) -> tuple[float, float, float, float]:
    """The free table (``view.fit_area``, else the whole view) in window coordinates: x, y, w, h."""
    return window_rect(view, tuple(view.fit_area or (view.x, view.y, view.width, view.height)))


def window_rect(widget: Widget, rect: Sequence[float]) -> tuple[float, float, float, float]:
    """``rect`` (x, y, w, h in the coordinates of ``widget``'s own position) in window coordinates."""
    x, y, w, h = rect
    x0, y0 = widget.to_window(x, y)
    x1, y1 = widget.to_window(x + w, y + h)
    return min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)


ToFill = Callable[[], Iterable[Cell]]
"""Which forced spaces the player to move must fill now (a mode's rule)."""


def outlined(view: BoardView) -> list[Cell]:
    """Every forced space the board draws orange (where no mode says which must be filled)."""
    return [space.cell for space in view.board.forced_spaces()]


def out_of_sight(view: BoardView, but: Iterable[Widget] = (), cells: Iterable[Cell] | None = None) -> list[Cell]:
    """Of the forced spaces ``cells`` (default: every one the board draws orange), those not wholly
    in sight where the view settles: part of the space lies off the free table, or under a hand, a
    plate or a control (a shield of the view other than ``but``). Its centre, corners and the
    middles of its sides are looked at, a pixel of rounding allowed."""
    but = list(but)
    x0, y0, w, h = table_rect(view)
    hidden = []
    for cell in outlined(view) if cells is None else cells:
        x, y, size = view.settled_cell(cell)
        rim = corners(x, y, size * 0.97)
        points = [(x, y)] + [(rim[i], rim[i + 1]) for i in range(0, 12, 2)]
        points += [((rim[i] + rim[(i + 2) % 12]) / 2, (rim[i + 1] + rim[(i + 3) % 12]) / 2) for i in range(0, 12, 2)]
        if any(not (x0 - 1 <= px <= x0 + w + 1 and y0 - 1 <= py <= y0 + h + 1) or view.covered((px, py), but)
               for px, py in points):
            hidden.append(cell)
    return hidden


def bring_forced(view: BoardView, cells: list[Cell], among: list[Cell]) -> None:
    """Pan so that one of the forced spaces ``cells`` at least lies whole on the free table,
    with as many of the others ``among`` (those to fill) as it holds (a cue's tap, a ring's on the map)."""
    view.look_at_all(among, wanted=cells)


class CuePlace(NamedTuple):
    """Where a cue would lie (its centre), the middle of the forced spaces out of sight it stands
    for (its arrow points there; window coordinates) and those spaces."""

    x: float
    y: float
    towards: tuple[float, float]
    cells: tuple[Cell, ...]


def cue_places(view: BoardView, hidden: list[Cell], side: float) -> list[CuePlace]:
    """One cue for each edge of the free table beyond which some of ``hidden`` lie: where the line
    from the table's middle towards them meets that edge, ``side`` (a cue's side, px) inside it.
    A space lies beyond the edge its direction from the middle crosses
    (one under a control, inside the table, counts for the edge its way leads to)."""
    x0, y0, w, h = table_rect(view)
    cx, cy = x0 + w / 2, y0 + h / 2
    half_w, half_h = max(w / 2 - side / 2, 0.0), max(h / 2 - side / 2, 0.0)
    edges: dict[str, list[tuple[Cell, float, float]]] = {}
    for cell in hidden:
        x, y, _size = view.settled_cell(cell)
        dx, dy = x - cx, y - cy
        edge = ("right" if dx > 0 else "left") if abs(dx) * h >= abs(dy) * w else ("top" if dy > 0 else "bottom")
        edges.setdefault(edge, []).append((cell, dx, dy))
    places = []
    for edge in sorted(edges):
        found = edges[edge]
        dx = sum(f[1] for f in found) / len(found)
        dy = sum(f[2] for f in found) / len(found)
        reach = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
        reach = 0.0 if math.isinf(reach) else reach
        places.append(CuePlace(cx + dx * reach, cy + dy * reach, (cx + dx, cy + dy), tuple(f[0] for f in found)))
    return places


class OverviewMap(Widget):
    """The whole board in miniature, with a ring round each forced space and a frame round the
    part the view shows; a tap looks there."""

    def __init__(self, view: BoardView, to_fill: Callable[[], list[Cell]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.forced = to_fill
        """The forced spaces the map rings (those to fill)."""
        self._scale = 1.0
        self._offset = (0.0, 0.0)
        self._drawn: tuple[Any, ...] | None = None
        """What the map was last drawn from (None: nothing drawn)."""
        view.bind(size_px=self.redraw, origin=self.redraw, fit_area=self.redraw)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        """Draw the map, unless it is drawn from the same as last time (its place and size, the
        board's tiles and forced spaces to fill, the view's place, size, zoom and free table, the
        touch unit): the board's move and the table's refresh each ask for it, several times a
        placement and at every frame of a move."""
        view = self.view
        if self.opacity == 0 or self.height < 2:
            self.canvas.clear()
            self._drawn = None
            return
        drawn = (tuple(self.pos), tuple(self.size), tuple(view.board.placements()), tuple(self.forced()),
                 tuple(view.fit_area or ()), tuple(view.pos), tuple(view.size), view.size_px, tuple(view.origin),
                 theme.unit())
        if drawn == self._drawn:
            return
        self._drawn = drawn
        self.canvas.clear()
        cells = [p.cell for p in view.board.placements()] or [(0, 0)]
        points = [centre(c, 1.0) for c in cells]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        pad = 1.2
        span_x, span_y = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
        scale = min(self.width / span_x, self.height / span_y)
        mid = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        ox, oy = self.center_x - mid[0] * scale, self.center_y - mid[1] * scale
        self._scale, self._offset = scale, (ox, oy)
        with self.canvas:
            Color(*theme.TABLE_DARK[:3], 0.92)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[theme.unit() * 0.15])
            Color(1, 1, 1, 1)
            for p in view.board.placements():
                x, y = centre(p.cell, 1.0)
                Quad(points=rotated_quad(ox + x * scale, oy + y * scale, scale, p.rot), texture=tileart.face(p.tile, scale))
            # the part on screen: the free table, in board units
            fx, fy, fw, fh = view.fit_area or (view.x, view.y, view.width, view.height)
            s = view.size_px
            left, bottom = (fx - view.origin[0]) / s, (fy - view.origin[1]) / s
            x0 = max(ox + left * scale, self.x)
            y0 = max(oy + bottom * scale, self.y)
            x1 = min(ox + (left + fw / s) * scale, self.right)
            y1 = min(oy + (bottom + fh / s) * scale, self.top)
            Color(*theme.ACCENT)
            Line(rectangle=(x0, y0, max(x1 - x0, 2.0), max(y1 - y0, 2.0)), width=1.6)
            # every forced space to fill: an orange ring on a dark one, round an empty space, a shape no
            # tile has (a colour-blind player tells it from the tiles by that, as on the board)
            ring = max(scale * 0.9, theme.unit() * 0.1)
            for cell in self.forced():
                x, y = self.on_map(cell)
                Color(*theme.TABLE_DARK[:3], 0.95)
                Line(circle=(x, y, ring), width=max(2.4, ring * 0.42))
                Color(*theme.ACCENT)
                Line(circle=(x, y, ring), width=max(1.2, ring * 0.2))

    def on_map(self, cell: Cell) -> tuple[float, float]:
        """Where ``cell``'s centre lies on the map (widget coordinates)."""
        x, y = centre(cell, 1.0)
        return self._offset[0] + x * self._scale, self._offset[1] + y * self._scale

    def on_touch_down(self, touch: Any) -> bool:
        """Look where the map was tapped; a tap within a fingertip of a forced space's ring (too
        small on the map to hit) brings that space wholly into view."""
        if not self.collide_point(*touch.pos) or self.opacity == 0:
            return False
        forced = self.forced()
        near = sorted((math.dist(self.on_map(cell), touch.pos), cell) for cell in forced)
        if near and near[0][0] <= theme.min_target() / 2:
            bring_forced(self.view, [near[0][1]], forced)
            return True
        ox, oy = self._offset
        cell = cell_at((touch.x - ox) / self._scale, (touch.y - oy) / self._scale, 1.0)
        self.view.look_at(cell)
        return True


class ForcedCue(ButtonBehavior, Widget):
    """At the free table's edge: a small forced space (orange, as on the board) with an arrow
    towards forced spaces out of sight and how many lie that way (:attr:`count`, in the hexagon,
    on its own dark fill); a tap brings them into view."""

    angle = NumericProperty(0.0)
    """The way the arrow points, radians counter-clockwise from east."""
    cells = ListProperty([])
    """The forced spaces out of sight it stands for."""

    def __init__(self, view: BoardView, to_fill: Callable[[], list[Cell]], **kwargs: Any) -> None:
        side = theme.min_target() * CUE_SIZE
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("size", (side, side))
        super().__init__(**kwargs)
        self.view = view
        self.to_fill = to_fill
        self.count = Label(bold=True, color=theme.TEXT, size_hint=(None, None))
        self.add_widget(self.count)
        self.bind(pos=self._draw, size=self._draw, angle=self._draw, cells=self._count)
        self._count()
        self._draw()

    def _count(self, *_args: Any) -> None:
        self.count.text = str(len(self.cells))

    def _draw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        side = self.width
        x, y = self.center
        r = side * 0.32
        # inside the hexagon (a pointy top one is 1.4 r high where it is r wide): its fill is what
        # the digits lie on
        self.count.font_size = r * 0.95
        self.count.size = (r, r * 1.4)
        self.count.center = self.center
        ux, uy = math.cos(self.angle), math.sin(self.angle)
        base = (x + ux * r * 0.75, y + uy * r * 0.75)
        tip = (x + ux * side * 0.5, y + uy * side * 0.5)
        wide = side * 0.2
        arrow = [tip[0], tip[1], base[0] - uy * wide, base[1] + ux * wide, base[0] + uy * wide, base[1] - ux * wide]
        with self.canvas.before:
            Color(*theme.TABLE_DARK)  # a dark rim: the cue stands out on tiles and baize alike
            Line(points=arrow, width=max(2.0, side * 0.04), close=True)
            tileart.filled(corners(x, y, r * 1.15))
            Color(*theme.ACCENT)
            Triangle(points=arrow)
            Color(*theme.ACCENT[:3], 0.28)
            tileart.filled(corners(x, y, r))
            Color(*theme.ACCENT)
            Line(points=corners(x, y, r), width=max(1.5, side * 0.05), close=True)

    def on_release(self) -> None:
        bring_forced(self.view, self.cells, self.to_fill())


class ForcedCues(Widget):
    """The cues at the table's edges (see the module docstring): a layer over the table that
    takes a finger only on a cue. It is one of the board's shields (a tile let go over a cue goes
    back to its hand)."""

    def __init__(self, view: BoardView, to_fill: Callable[[], list[Cell]], **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("size", (0, 0))
        super().__init__(**kwargs)
        self.view = view
        self.to_fill = to_fill
        self._shown: list[tuple[CuePlace, tuple[float, float]]] = []

    @property
    def cues(self) -> list[ForcedCue]:
        return [child for child in self.children if isinstance(child, ForcedCue)]

    def collide_point(self, x: float, y: float) -> bool:
        return any(cue.collide_point(x, y) for cue in self.cues)

    def follow(self, hidden: list[Cell]) -> None:
        """A cue towards each edge beyond which some of ``hidden`` lie, each clear of the controls,
        hands and plates (:meth:`_clear`: none for an edge where the table has no such place);
        none when ``hidden`` is empty."""
        side = theme.min_target() * CUE_SIZE
        places = cue_places(self.view, hidden, side) if self.get_root_window() is not None else []
        shown: list[tuple[CuePlace, tuple[float, float]]] = []
        for place in places:
            spot = self._clear(place, side, [(x - side / 2, y - side / 2, side, side) for _place, (x, y) in shown])
            if spot is not None:
                shown.append((place, spot))
        if shown == self._shown:
            return
        self._shown = shown
        self.clear_widgets()
        for place, (x, y) in shown:
            angle = math.atan2(place.towards[1] - y, place.towards[0] - x)
            self.add_widget(ForcedCue(self.view, self.to_fill, angle=angle, cells=list(place.cells),
                                      pos=self.to_widget(x - side / 2, y - side / 2)))

    def _clear(self, place: CuePlace, side: float, cues: Sequence[Rect]) -> tuple[float, float] | None:
        """Where the cue goes (:func:`cue_spot`): a finger's gap clear of every control, hand and
        plate (the view's shields: the cue would hide them, and a finger meant for one would press
        the other), where it can a finger's gap clear of the ``cues`` placed before it (towards
        two edges from near the corner between them, two cues lay one over the other), where it
        can over no forced space (it points at the one peeking in, beside it),
        and then where it can clear of the screen's news (the view's :attr:`~ui.board.BoardView.news_reach`:
        Gobbles' "No turns: everyone places at once. Go!" ran under a cue at the bottom seat)."""
        view = self.view
        gap = theme.min_gap()
        shields = [ringed(box, gap) for box in view.shield_boxes([self])]
        spaces = [(x - size * SQRT3 / 2, y - size, size * SQRT3, 2 * size)
                  for x, y, size in (view.settled_cell(space.cell) for space in view.board.forced_spaces())]
        others = [ringed(cue, gap) for cue in cues]
        return cue_spot(place, side, table_rect(view), [shields, others, spaces, list(view.news_reach())])


def cue_spot(place: CuePlace, side: float, table: Rect, avoid: Sequence[Sequence[Rect]]) -> tuple[float, float] | None:
    """Where the centre of a cue of ``side`` (px) goes: of the places whole on the free ``table``
    (its edge row, then further in, a third of a cue apart), the nearest its ``place`` that
    covers none of ``avoid``: groups of rectangles, the most important first. Where no place
    clears every group the last one is given up, and so on, but never the first (what a cue must
    never cover): None where no place clears it."""
    x0, y0, w, h = table
    half, step = side / 2, side / 3

    def spots(low: float, length: float, own: float) -> list[float]:
        return [own] + [low + half + i * step for i in range(int(max(length - side, 0.0) / step) + 1)] + \
            [low + length - half]

    places = sorted(((x, y) for x in spots(x0, w, place.x) for y in spots(y0, h, place.y)),
                    key=lambda p: math.hypot(p[0] - place.x, p[1] - place.y))
    best: dict[int, tuple[float, float]] = {}
    for x, y in places:
        square = (x - half, y - half, side, side)
        kept = next((i for i, group in enumerate(avoid) if any(overlaps(square, r) for r in group)), len(avoid))
        if kept == len(avoid):
            return x, y
        best.setdefault(kept, (x, y))
    return best[max(best)] if best and max(best) > 0 else None


class ViewControls(BoxLayout):
    """Zoom buttons, and the overview map while the board does not fit (see the module docstring).
    Its :attr:`cues` the screen lays over the table itself. ``to_fill`` says which forced spaces
    the player to move must fill (default: every one the board outlines)."""

    def __init__(self, view: BoardView, to_fill: ToFill | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint", (None, None))
        super().__init__(**kwargs)
        u = theme.unit()
        self.view = view
        self._to_fill = to_fill
        self.spacing = theme.min_gap()
        self.map = OverviewMap(view, self.to_fill)
        self.cues = ForcedCues(view, self.to_fill)
        """The cues to the forced spaces out of sight, for the screen to lay over its table."""
        self.row = row = BoxLayout(spacing=theme.min_gap(), size_hint=(1, None), height=u * 1.0)
        self.zoom_out = TButton(msg="\u2212", scale=1.3, bold=True)
        self.zoom_in = TButton(msg="+", scale=1.3, bold=True)
        self.zoom_out.bind(on_release=lambda *_: view.zoom(1 / ZOOM_STEP))
        self.zoom_in.bind(on_release=lambda *_: view.zoom(ZOOM_STEP))
        row.add_widget(self.zoom_out)
        row.add_widget(self.zoom_in)
        self.add_widget(self.map)
        self.add_widget(row)
        view.bind(size_px=self._follow, origin=self._follow, fit_area=self._follow)
        self._follow()

    def overflowing(self) -> bool:
        """Whether some tile of the board lies out of the part of the table on screen."""
        view = self.view
        fx, fy, fw, fh = view.fit_area or (view.x, view.y, view.width, view.height)
        s = view.size_px
        for p in view.board.placements():
            x, y = view.cell_centre(p.cell)
            if x - s < fx or x + s > fx + fw or y - s < fy or y + s > fy + fh:
                return True
        return False

    @property
    def parts(self) -> list[Widget]:
        """The parts a finger may touch (a drop over them is no drop on the board)."""
        return [self.map, self.row, self.cues]

    def to_fill(self) -> list[Cell]:
        """The forced spaces the map rings and the cues stand for: of those the board outlines, the
        ones the player to move must fill (a provisional tile may lie on one)."""
        shown = outlined(self.view)
        return shown if self._to_fill is None else [cell for cell in self._to_fill() if cell in shown]

    def hidden(self) -> list[Cell]:
        """The forced spaces to fill out of sight (:func:`out_of_sight`; the cues hide none themselves)."""
        return out_of_sight(self.view, [self.cues], self.to_fill())

    def refresh(self) -> None:
        """The board, or what lies over it, changed, or these controls were moved: draw the map and
        the cues again. The map and the zoom are laid out where the controls now lie first (Kivy
        would do it only before the next frame): the cues keep clear of them there, not where
        they were (a cue lay over the zoom's - just moved onto it)."""
        self.do_layout()
        self._follow()

    def _follow(self, *_args: Any) -> None:
        """Show the map only while it tells something (its room stays, so nothing moves), and the
        cues towards the forced spaces out of sight."""
        u = theme.unit()
        self.size = (u * 2.2, u * 2.7)
        hidden = self.hidden()
        self.map.opacity = 1 if hidden or self.overflowing() else 0
        self.map.redraw()
        self.cues.follow(hidden)
