"""The board of the solo screens (:class:`ui.board.BoardView` with what puzzles add; the strategy
game's board builds on it too) and the table with a puzzle's tray under it (:class:`TrayTable`).

* ``tiles_mode``: "fixed" (Solitaire: a placed tile stays), "movable" (puzzles: tap a placed tile
  to turn it, drag it elsewhere or back onto the ``tray``), "turnable" (rotation puzzles: tap a
  tile to turn it; a finger that moves pans the view instead, so the full pyramid can be panned).
* ``shape``: a puzzle's fixed cells (the Rainbow pyramids), outlined where no tile lies yet; the
  view frames them (``frame``) rather than the tiles.
* a hint's ghost: the hinted tile drawn pale where it should go (a tap on it makes the move), or
  an orange ring round a tile to take back.
* ``clashes``: edges that do not match yet (rotation puzzles), as short red bars across them.

The screen listens to ``on_tile_tap(placement)``, ``on_pick_up(tile)``, ``on_ghost_tap(placement)``
and ``on_move_refused(refusal)``; a placed tile dragged to another space goes through the
placement target like a tile from the tray (``on_placed``).
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from kivy.graphics import Color, InstructionGroup, Line, Quad
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, OptionProperty

from engine.board import Board, Placement
from engine.geometry import Cell
from engine.modes import Refused

from . import theme, tileart
from .board import BoardView, beyond
from .hexes import SQRT3, corners, rotated_quad
from .table import SeatBox, TableLayout


CLASH = theme.rgb("#ffb3c0", 0.85)
"""Edges that do not match: pale pink, told apart from the red links by its lightness."""
TRAY_TILE = 0.62
"""A puzzle tray's tiles, circumradius in touch units (about 1 cm wide on the 7" panel)."""


class TrayTable(TableLayout):
    """A table with one tray of puzzle tiles under it. A puzzle's arrangement needs less room than
    a game's table and small fingers need big tiles: the tray takes as many rows (up to
    ``hand_rows``) as keep its tiles at ``TRAY_TILE`` units, and only then do they shrink. ``reserve``
    keeps that much of the bottom free of the board (a card lies there); ``sides`` that much room at
    each end of the tray (page arrows lie there); ``full_width`` keeps the tray as wide as it may be,
    however few tiles it holds (a tray shown a page at a time)."""

    reserve = NumericProperty(0.0)
    sides = NumericProperty(0.0)
    full_width = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(reserve=self._relayout, sides=self._relayout, full_width=self._relayout)
        self._hands_changed = self._follow_hands  # a new page of the tray is laid out at once, never shown at the old size

    def _per_row(self) -> int:
        """How many tiles a row of the tray holds at full size."""
        room = max(self.width - 2 * self.sides - theme.unit() * 0.3, 1.0)
        return max(1, int(room // (TRAY_TILE * theme.unit() * SQRT3 * 1.06)))

    def capacity(self) -> int:
        """How many tiles the tray holds at full size (``hand_rows`` rows)."""
        return self._per_row() * max(int(self.hand_rows), 1)

    def _layout(self) -> tuple[int, list[SeatBox], tuple[float, float, float, float]]:
        width, height = self.size
        u = theme.unit()
        count = max((len(h.tiles) for h in self.hands), default=1) or 1
        room = max(width - 2 * self.sides - u * 0.3, 1.0)
        radius = TRAY_TILE * u
        per_row = self._per_row()
        rows = min(math.ceil(count / per_row), max(int(self.hand_rows), 1))
        per_row = math.ceil(count / rows)
        radius = min(radius, room / (per_row * SQRT3 * 1.06))
        depth = rows * radius * 2 * 1.02 / 0.94 + u * 0.1
        length = width - 2 * self.sides
        if not self.full_width:
            length = min(length, per_row * radius * SQRT3 * 1.06 + u * 0.4)
        bottom = max(depth, self.reserve)
        return rows, [SeatBox(width / 2, depth / 2, length, depth, 0.0)], (0.0, bottom, width, height - bottom)


class SoloBoard(BoardView):
    """See the module docstring."""

    tiles_mode = OptionProperty("fixed", options=["fixed", "movable", "turnable"])
    shape = ObjectProperty(None, allownone=True)
    frame = ListProperty([])
    """The cells :meth:`recentre` fits by default (empty: the tiles), e.g. the pyramid."""
    show_forced = BooleanProperty(True)
    pointed = ListProperty([])
    """Cells the screen's words point at, outlined for as long as they are set: a tile's number is
    drawn only where it is large enough to read, so words may not name tiles by number alone."""
    tray = ObjectProperty(None, allownone=True)
    drag_layer = ObjectProperty(None, allownone=True)

    __events__: tuple[str, ...] = ("on_tile_tap", "on_pick_up", "on_ghost_tap", "on_move_refused")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ghost: Placement | None = None
        self.ghost_take_back = False
        self.clashes: tuple[tuple[Cell, Cell], ...] = ()
        self._clash_group = InstructionGroup()
        self._ghost_group = InstructionGroup()
        self._pointed_group = InstructionGroup()
        self.canvas.add(self._clash_group)
        self.canvas.add(self._pointed_group)
        self.canvas.add(self._ghost_group)
        self._tile_touch: dict[str, Any] | None = None
        self._unlifted: Board | None = None
        self.bind(shape=lambda *_: self._draw_frontier(moved=True), pointed=lambda *_: self._draw_pointed())

    # --------------------------------------------------------------------- drawing

    def recentre(self, animate: bool = True, cells: Iterable[Cell] | None = None,
                 focus: Iterable[Cell] | None = None) -> None:
        super().recentre(animate, cells if cells is not None else (self.frame or None), focus)

    def show(self, board: Board) -> None:
        """Draw ``board``. Shown by the screen while a finger moves a placed tile, the tile stays
        lifted off it while the new board still holds it where it lay and it may still be gripped;
        otherwise (another finger took it back, confirmed it, undid it) it is no longer held and its
        finger's release changes nothing: it once put the old board back on show, a tile taken back
        into the hand lying on the table as well, and marked the space it was let go on in red."""
        drag = self._tile_touch
        if drag is not None and self._unlifted is not None:
            placement = drag["placement"]
            if board.at(placement.cell) == placement and self.grips(placement):
                self._unlifted, board = board, _without(board, placement.tile)
            else:
                self._let_go()
        super().show(board)

    def _let_go(self) -> None:
        """The placed tile being moved is held no more (:meth:`show`)."""
        self._tile_touch, self._unlifted = None, None
        self.hover(None, who=self)
        if self.drag_layer is not None:
            self.drag_layer.hide(self)
        self.release(self)

    def _redraw(self, *args: Any) -> None:
        super()._redraw(*args)
        self._draw_clashes()
        self._draw_pointed()
        self._draw_ghost()

    def _draw_forced(self) -> None:
        if self.show_forced:
            super()._draw_forced()
        else:
            self._forced.clear()

    def _draw_frontier(self, moved: bool = False) -> None:
        """Free-form: the spaces touching the tiles (as BoardView). Shaped: the shape's empty cells,
        clearly outlined, so the pyramid is there before any tile is."""
        if self.shape is None:
            super()._draw_frontier(moved)
            return
        group = self._frontier
        group.clear()
        self._frontier_lines.clear()
        s = self.size_px
        for cell in self.shape:
            if cell in self.board:
                continue
            x, y = self.cell_centre(cell)
            group.add(Color(1, 1, 1, 0.07))
            group.add(tileart.filled(corners(x, y, s * 0.97)))
            group.add(Color(1, 1, 1, 0.45))
            group.add(Line(points=corners(x, y, s * 0.95), width=max(1.2, s * 0.035), close=True))

    def show_clashes(self, clashes: Iterable[tuple[Cell, Cell]]) -> None:
        """Mark the touching edges that do not match (pairs of cells)."""
        self.clashes = tuple(clashes)
        self._draw_clashes()

    def _draw_clashes(self) -> None:
        group = self._clash_group
        group.clear()
        if not self.clashes:
            return
        s = self.size_px
        group.add(Color(*CLASH))
        for a, b in self.clashes:
            (ax, ay), (bx, by) = self.cell_centre(a), self.cell_centre(b)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            length = math.hypot(bx - ax, by - ay) or 1.0
            px, py = -(by - ay) / length, (bx - ax) / length  # along the shared edge
            half = s * 0.3
            group.add(Line(points=[mx - px * half, my - py * half, mx + px * half, my + py * half],
                           width=max(1.3, s * 0.045), cap="round"))

    def _draw_pointed(self) -> None:
        group = self._pointed_group
        group.clear()
        s = self.size_px
        for cell in self.pointed:
            x, y = self.cell_centre(cell)
            group.add(Color(*theme.TABLE_DARK))
            group.add(Line(points=corners(x, y, s * 0.93), width=max(3.0, s * 0.11), close=True))
            group.add(Color(*theme.ACCENT))
            group.add(Line(points=corners(x, y, s * 0.93), width=max(2.0, s * 0.07), close=True))

    def show_ghost(self, placement: Placement | None, take_back: bool = False) -> None:
        """Show a hint: ``placement`` drawn pale on its space, or (``take_back``) a ring round the
        tile on ``placement.cell`` to pick up. None clears it."""
        self.ghost, self.ghost_take_back = placement, take_back
        self._draw_ghost()

    def _draw_ghost(self) -> None:
        group = self._ghost_group
        group.clear()
        ghost = self.ghost
        if ghost is None:
            return
        x, y = self.cell_centre(ghost.cell)
        s = self.size_px
        if not self.ghost_take_back:
            if ghost.cell in self.board:  # turn a tile: show it as it should lie, over it
                group.add(Color(*theme.TABLE_DARK))
                group.add(tileart.filled(corners(x, y, s)))
                group.add(Color(1, 1, 1, 0.92))
                group.add(Quad(points=rotated_quad(x, y, s * 0.9, ghost.rot), texture=tileart.face(ghost.tile, s * 0.9)))
            else:  # put a tile down: pale, on its space
                group.add(Color(1, 1, 1, 0.6))
                group.add(Quad(points=rotated_quad(x, y, s, ghost.rot), texture=tileart.face(ghost.tile, s)))
        group.add(Color(*(theme.ACCENT if self.ghost_take_back else theme.GOOD)))
        group.add(Line(points=corners(x, y, s * 0.97), width=max(2.5, s * 0.1), close=True))

    # ---------------------------------------------------------------------- touches

    def grips(self, placement: Placement) -> bool:
        """Whether a finger on ``placement``'s tile takes hold of it (to tap or move it), rather
        than panning the view: every tile, unless "fixed"."""
        return True

    def on_touch_down(self, touch: Any) -> bool:
        if self.tiles_mode == "fixed" or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        if self._tile_touch is not None:
            return True  # one tile at a time
        if self._touches:
            return super().on_touch_down(touch)  # a second finger: pinch
        cell = self.cell_under(*touch.pos)
        ghost = self.ghost if self.ghost is not None and not self.ghost_take_back and self.ghost.cell == cell else None
        placed = self.board.at(cell)
        if placed is not None and not self.grips(placed):
            placed = None
        if ghost is None and placed is None:
            return super().on_touch_down(touch)
        touch.grab(self)
        self._tile_touch = {"uid": touch.uid, "start": touch.pos, "placement": placed, "ghost": ghost,
                            "moving": False}
        return True

    def on_touch_move(self, touch: Any) -> bool:
        drag = self._tile_touch
        if drag is None or touch.uid != drag["uid"] or touch.grab_current is not self:
            return super().on_touch_move(touch)
        if not drag["moving"] and math.dist(touch.pos, drag["start"]) > self.size_px * 0.45:
            if self.tiles_mode == "turnable" or drag["placement"] is None:
                # not a tap after all: the finger pans the view (rotation puzzles are all tiles)
                self._tile_touch = None
                self._touches[touch.uid] = touch.pos
                return True
            drag["moving"] = True
            self.hold(self)
            self._lift(drag["placement"].tile)
        if drag["moving"]:
            self._show_drag(touch, drag["placement"])
        return True

    def on_touch_up(self, touch: Any) -> bool:
        drag = self._tile_touch
        if drag is None or touch.uid != drag["uid"] or touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        self._tile_touch = None
        if not drag["moving"]:
            if drag["ghost"] is not None:
                self.dispatch("on_ghost_tap", drag["ghost"])
            elif drag["placement"] is not None:
                self.dispatch("on_tile_tap", drag["placement"])
            return True
        if self.drag_layer is not None:
            self.drag_layer.hide(self)
        self._end_move(touch, drag["placement"])
        self._unlifted = None
        self.release(self)  # only now may the view follow what the move changed
        return True

    def _end_move(self, touch: Any, placement: Placement) -> None:
        """A placed tile was let go: onto the tray (picked up), over a hand, a plate or off the
        table (back where it was, silently), or on a space (moved there, or refused and back)."""
        if self._over_tray(touch):
            self.hover(None, who=self)
            self.dispatch("on_pick_up", placement.tile)
            return
        if not self.takes_drop(self.to_window(*touch.pos), self._lifted(touch)):
            self.hover(None, who=self)
            self._put_back()
            return
        result = self.drop(self._lifted(touch), placement.tile, placement.rot, who=self)
        if not isinstance(result, Placement):
            self._put_back()
            if isinstance(result, Refused):
                self.dispatch("on_move_refused", result)

    def _lifted(self, touch: Any) -> tuple[float, float]:
        """Where a dragged tile is drawn (window coordinates): beyond the finger as its player sees
        it, as in their hand (:attr:`tray`, turned to face them), so that neither finger nor palm
        hides it. Drawn up the screen whoever moved it, the tile of the player across the table lay
        under their palm, and went to a space they could not see."""
        return beyond(self.to_window(*touch.pos), self.size_px * 1.1, self.tray.seat_angle if self.tray is not None else 0.0)

    def _lift(self, tile: int) -> None:
        """Show the board without ``tile`` while it is being moved."""
        unlifted = self.board
        auto, self.auto_fit = self.auto_fit, False
        self.show(_without(unlifted, tile))
        self.auto_fit = auto
        self._unlifted = unlifted

    def _put_back(self) -> None:
        if self._unlifted is not None:
            auto, self.auto_fit = self.auto_fit, False
            self.show(self._unlifted)
            self.auto_fit = auto

    def _over_tray(self, touch: Any) -> bool:
        """Whether the finger (not the tile lifted above it: the tray lies at the screen's edge) is
        over the tray."""
        tray = self.tray
        if tray is None or tray.get_root_window() is None:
            return False
        return tray.collide_point(*tray.to_widget(*self.to_window(*touch.pos)))

    def _show_drag(self, touch: Any, placement: Placement) -> None:
        pos = self._lifted(touch)
        over_board = (self.takes_drop(self.to_window(*touch.pos), pos)
                      and self.hover(pos, placement.tile, placement.rot, who=self))
        if not over_board:
            self.hover(None, who=self)
        if self.drag_layer is not None:
            if over_board:
                self.drag_layer.hide(self)
            else:
                self.drag_layer.show(pos, placement.tile, placement.rot, self.size_px, self)

    def on_tile_tap(self, placement: Placement) -> None:
        """Event: a placed tile was tapped."""

    def on_pick_up(self, tile: int) -> None:
        """Event: a placed tile was dragged onto the tray."""

    def on_ghost_tap(self, placement: Placement) -> None:
        """Event: the hint's pale tile was tapped (make that move)."""

    def on_move_refused(self, refusal: Refused) -> None:
        """Event: a placed tile dragged to another space was refused there."""


def _without(board: Board, tile: int) -> Board:
    """``board`` with ``tile`` lifted off it."""
    lifted = Board()
    for p in board.placements():
        if p.tile != tile:
            lifted.push(p)
    return lifted
