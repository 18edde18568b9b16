"""The board's view controls: zoom buttons, and an overview of the whole board when it no longer
fits on the table at a size fingers can use.

:class:`ViewControls` sits in a corner of the table: **-** and **+** zoom the view (pinching does
too, but nothing tells a newcomer so); above them, while part of the board lies out of view, a
small map shows every tile and a frame round the part on screen. A tap on the map brings that part
of the board into view. It reads the :class:`ui.board.BoardView` it serves and never changes the
board itself.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Quad, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from . import theme, tileart
from .board import BoardView
from .hexes import cell_at, centre, rotated_quad
from .widgets import TButton

ZOOM_STEP = 1.25
"""Each tap on a zoom button changes the tiles' size by this factor."""


class OverviewMap(Widget):
    """The whole board in miniature, with a frame round the part the view shows; a tap looks there."""

    def __init__(self, view: BoardView, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view = view
        self._scale = 1.0
        self._offset = (0.0, 0.0)
        view.bind(size_px=self.redraw, origin=self.redraw, fit_area=self.redraw)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        if self.opacity == 0 or self.height < 2:
            return
        view = self.view
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

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.opacity == 0:
            return False
        ox, oy = self._offset
        cell = cell_at((touch.x - ox) / self._scale, (touch.y - oy) / self._scale, 1.0)
        self.view.look_at(cell)
        return True


class ViewControls(BoxLayout):
    """Zoom buttons, and the overview map while the board does not fit (see the module docstring)."""

    def __init__(self, view: BoardView, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint", (None, None))
        super().__init__(**kwargs)
        u = theme.unit()
        self.view = view
        self.spacing = theme.min_gap()
        self.map = OverviewMap(view)
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
        return [self.map, self.row]

    def refresh(self) -> None:
        """The board changed: draw the map again."""
        self._follow()

    def _follow(self, *_args: Any) -> None:
        """Show the map only while it tells something (its room stays, so nothing moves)."""
        u = theme.unit()
        self.size = (u * 2.2, u * 2.7)
        self.map.opacity = 1 if self.overflowing() else 0
        self.map.redraw()
