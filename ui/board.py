"""The Tantrix board and the hands of tiles: the widgets every Tantrix mode reuses.

:class:`BoardView` draws an :class:`engine.board.Board` (placed tiles as turned textured quads,
forced spaces, highlighted cells), lets players pan, pinch-zoom and recentre it, and judges drops.
:class:`HandView` shows a hand: tap a tile to turn it, twist it with two fingers, drag it onto the
board. While a tile is dragged the board shows at once, on the space under it, whether it fits
there; a drop the rules refuse is answered with the rule in plain words and the cells involved.

Neither widget knows a rule: a mode plugs its own rules in as a :class:`PlacementTarget`, which
judges (``check``) and makes (``place``) placements and refuses with
:class:`engine.modes.Refused`. An accepted drop is drawn at once from the board the view shows
(the mode's own Board object); whatever else the mode does (a replacement tile, a robot's move, a
new Board) its screen shows with :meth:`BoardView.show` and by setting ``HandView.tiles``.

Several players may drag at once (Gobbles has no turns): each hand's drag has its own preview on
the board and its own tile on the drag layer, and a hand may carry its own ``target`` (the player
on whose behalf its drops are judged and made) instead of the board's.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Protocol

from kivy.animation import Animation
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Quad, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.scatter import Scatter
from kivy.uix.widget import Widget

from engine.board import Board, Placement
from engine.geometry import Cell
from engine.modes import Play, Refused

from .countdown import Countdown
from . import theme, tileart
from .hexes import SQRT3, cell_at, centre, corners, extent, rotated_quad
from .i18n import N_
from .widgets import TLabel


class PlacementTarget(Protocol):
    """A mode's rules as the board widget sees them."""

    def check(self, placement: Placement) -> Refused | None:
        """None if ``placement`` would be accepted now, else why not. Changes nothing: it is
        asked on every hover, so it must be quick (Board.check is)."""
        ...

    def place(self, placement: Placement) -> None:
        """Make ``placement``, or raise :class:`Refused` and change nothing."""
        ...


MIN_SIZE, MAX_SIZE = 0.3, 2.4
"""Zoom limits: a hexagon's circumradius in touch units (see :func:`ui.theme.unit`)."""


def aim_in_sight(points: list[tuple[float, float]], room: tuple[float, float],
                 wanted: list[tuple[float, float]] | None = None) -> tuple[float, float]:
    """Where to centre a view that has ``room`` (width, height) for the centres of whole spaces
    around ``points`` (the centres of the spaces a player must fill; board units): the middle of
    them all, moved just enough to keep wholly in sight the most of them the room holds (of the
    views that hold one of ``wanted`` at least, when given). Spaces too far apart for one view at
    the size fingers need then lie whole on the table, the rest towards the middle (a space
    centred on the middle of them all could lie part under a plate, as could each of two when
    they were a little too far apart)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    middle = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
    room_w, room_h = max(room[0], 0.0), max(room[1], 0.0)
    best: tuple[int, float, tuple[float, float]] | None = None
    for left in xs:  # each most-filled window has a space on its left edge and one on its bottom
        for bottom in ys:
            group = [(x, y) for x, y in points
                     if left - 1e-9 <= x <= left + room_w + 1e-9 and bottom - 1e-9 <= y <= bottom + room_h + 1e-9]
            if not group or (wanted and not any(p in group for p in wanted)):
                continue
            gx, gy = [p[0] for p in group], [p[1] for p in group]
            # as near the middle of them all as keeps this group in the window
            aim = (min(max(middle[0], max(gx) - room_w / 2), min(gx) + room_w / 2),
                   min(max(middle[1], max(gy) - room_h / 2), min(gy) + room_h / 2))
            off = math.dist(aim, middle)
            if best is None or (-len(group), off) < (-best[0], best[1]):
                best = (len(group), off, aim)
    return best[2] if best is not None else middle


def most_in_view(aim: float, low: float, high: float, room: float) -> float:
    """``aim`` (one axis of a view's centre) moved as little as keeps in the view ``room`` wide as
    much of the board, from ``low`` to ``high`` with its ring of spaces, as it holds: a board
    narrower than the view lies wholly in it; a wider one fills it, never leaving the empty table in
    sight past one of its edges while tiles lie out of sight past the other."""
    inner, outer = low + room / 2, high - room / 2
    return min(max(aim, min(inner, outer)), max(inner, outer))


def beyond(finger: tuple[float, float], lift: float, angle: float) -> tuple[float, float]:
    """Where a tile dragged by a finger at ``finger`` is drawn (window coordinates): ``lift`` beyond
    it as the player turned ``angle`` (degrees, as a hand's ``seat_angle``) sees it, towards the
    middle of the table, so that neither their finger nor their palm hides it."""
    a = math.radians(angle)
    return finger[0] - math.sin(a) * lift, finger[1] + math.cos(a) * lift


class BoardView(Widget):
    """A board position drawn to scale; see the module docstring.

    ``size_px`` is the current hexagon circumradius in pixels, ``origin`` where cell (0, 0)'s centre
    is (widget coordinates). ``fit_area`` (x, y, w, h in widget coordinates, default the whole
    widget) is where :meth:`recentre` fits the tiles, i.e. the table between the hands.
    """

    size_px = NumericProperty(40.0)
    origin = ListProperty([0.0, 0.0])
    fit_area = ListProperty([])
    target = ObjectProperty(None, allownone=True)
    snap_rotation = BooleanProperty(True)
    """While hovering, if the tile does not fit as turned but fits turned otherwise, show (and on
    drop place) the nearest rotation that fits: what the preview shows is what a drop does."""
    show_frontier = BooleanProperty(True)
    frontier_touching = NumericProperty(1)
    """Outline only the spaces touching at least this many tiles (Gobble: 2, once two are down)."""
    auto_fit = BooleanProperty(True)
    """Recentre (animated) when tiles are added, unless a player has moved the view."""
    min_fit_px = NumericProperty(0.0)
    """:meth:`recentre` never fits the tiles smaller than this circumradius (pixels): while someone
    must act on them, tiles stay big enough for a finger and the view shows the part of the board
    that matters (its ``focus``) instead of all of it."""
    shields = ListProperty([])
    """Widgets lying over the board (hands, trays, plates, buttons): a finger released over one is
    not on the table, so the tile it carries goes back where it came from, silently."""
    news_reach = ObjectProperty(lambda: [])
    """Where the screen's messages may come to lie over the board, as window boxes (x, y, width,
    height), for what is laid over the table for good (the cues to forced spaces out of sight) to
    keep off where it can: news that comes later would be read under it."""

    __events__: tuple[str, ...] = ("on_placed", "on_refused")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = Board()
        self._drawn: dict[Cell, tuple[int, int, Quad]] = {}
        self._touches: dict[Any, tuple[float, float]] = {}
        self._hovers: dict[Any, tuple[tuple[Cell, int, int] | None, InstructionGroup]] = {}
        self.verdict: tuple[Placement, Refused | None] | None = None
        """The latest hover's verdict: the placement a drop would make and its refusal (None when
        that hover left the board)."""
        self._highlight_clear = Countdown(lambda: self.highlight(()), 5.0)
        self._user_moved = False
        self._fit_cells: list[Cell] | None = None
        self._focus: list[Cell] | None = None
        self._held: set[Any] = set()  # fingers dragging a tile over this view: it must not move
        self._deferred: tuple[bool, list[Cell] | None, list[Cell] | None] | None = None
        self._deferred_pan: tuple[float, float] | None = None  # a :meth:`pan` waiting for the fingers
        self._target: tuple[float, tuple[float, float]] | None = None  # (size_px, origin) a move ends at
        with self.canvas:
            Color(*theme.TABLE)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self._frontier = InstructionGroup()
        self._tiles = InstructionGroup()
        self._forced = InstructionGroup()
        self._marks = InstructionGroup()
        self._spaces = InstructionGroup()
        self._lit: tuple[Cell, ...] = ()
        self._preview = InstructionGroup()  # one child group per hover (per dragging hand)
        self._tiles.add(Color(1, 1, 1, 1))  # every tile quad is drawn opaque, after this one colour
        self._frontier.add(Color(1, 1, 1, 0.16))
        self._frontier_lines: dict[Cell, Line] = {}
        for group in (self._frontier, self._tiles, self._forced, self._spaces, self._marks, self._preview):
            self.canvas.add(group)
        self.bind(pos=self._relayout, size=self._relayout, fit_area=self._relayout, size_px=self._redraw,
                  origin=self._redraw)

    # ---------------------------------------------------------------- coordinates

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        """Where ``cell``'s centre is drawn, in widget coordinates."""
        x, y = centre(cell, self.size_px)
        return self.origin[0] + x, self.origin[1] + y

    def cell_under(self, x: float, y: float) -> Cell:
        """The cell under the widget-coordinate point (x, y)."""
        return cell_at(x - self.origin[0], y - self.origin[1], self.size_px)

    def window_cell_centre(self, cell: Cell) -> tuple[float, float]:
        return self.to_window(*self.cell_centre(cell))

    def settled_cell(self, cell: Cell) -> tuple[float, float, float]:
        """Where ``cell``'s centre will be (window coordinates) and the size of a tile, once the
        view's move under way ends: what the table lays its controls around."""
        size, (ox, oy) = self._target or (self.size_px, (self.origin[0], self.origin[1]))
        x, y = centre(cell, size)
        return (*self.to_window(ox + x, oy + y), size)

    def tile_runs(self) -> list[tuple[float, float, float, float]]:
        """The board's tiles and forced spaces where the view settles (window coordinates), a
        rectangle per run of them along a row (a tenth as many to weigh as one per tile, on every
        refresh): what a control had better not cover."""
        shown = self.board  # with a provisional tile, if one lies there
        rows: dict[int, list[float]] = {}
        size = 0.0
        for cell in [p.cell for p in shown.placements()] + [s.cell for s in shown.forced_spaces()]:
            x, y, size = self.settled_cell(cell)
            rows.setdefault(round(y), []).append(x)
        runs: list[tuple[float, float, float, float]] = []
        for y, xs in rows.items():
            xs.sort()
            start = previous = xs[0]
            for x in [*xs[1:], math.inf]:
                if x - previous > size * 1.8:  # a gap: the run ends
                    runs.append((start - size * 0.87, y - size, previous - start + size * 1.74, size * 2))
                    start = x
                previous = x
        return runs

    def on_table(self, finger: tuple[float, float]) -> bool:
        """Whether a finger at ``finger`` (window coordinates) is over the open table: inside this
        view and over none of its :attr:`shields`."""
        return self.collide_point(*self.to_widget(*finger)) and not self.covered(finger)

    def covered(self, point: tuple[float, float], but: Iterable[Widget] = ()) -> bool:
        """Whether one of the :attr:`shields` shown (other than ``but``) lies over ``point``
        (window coordinates)."""
        # a widget's collide_point takes its parent's coordinates: to_widget alone gives a turned
        # plate's (a Scatter) own, and a point beside it was taken for one over it
        return any(shield.collide_point(*shield.to_parent(*shield.to_widget(*point))) for shield in self._shown(but))

    def shield_boxes(self, but: Iterable[Widget] = ()) -> list[tuple[float, float, float, float]]:
        """Where the :attr:`shields` shown (other than ``but``) lie on the window: the box (x, y,
        width, height) round each, through any scatter that holds or turns it (a hand, a plate)."""
        boxes = []
        for shield in self._shown(but):
            (x, y), (w, h) = shield.bbox if isinstance(shield, Scatter) else (shield.pos, shield.size)
            points = [shield.to_window(px, py) for px in (x, x + w) for py in (y, y + h)]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            boxes.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        return boxes

    def _shown(self, but: Iterable[Widget]) -> list[Widget]:
        """The :attr:`shields` on screen now (other than ``but``): a hidden one covers nothing."""
        skip = set(map(id, but))
        return [shield for shield in self.shields
                if id(shield) not in skip and shield.get_root_window() is not None and shield.opacity > 0]

    def takes_drop(self, finger: tuple[float, float], tile: tuple[float, float]) -> bool:
        """Whether a tile dragged by a finger at ``finger``, drawn at ``tile`` (above the finger, so
        that it shows which space it would take), is over the open table: the finger and the tile
        both (window coordinates). A finger on the table with the tile over another player's hand
        once put it on a space under that hand: the tile vanished while dragged, and lay there out
        of its player's sight, waiting for them to confirm a move they could not see."""
        return self.on_table(finger) and self.on_table(tile)

    # --------------------------------------------------------------------- drawing

    def show(self, board: Board) -> None:
        """Draw ``board`` (the mode's current position). Only what changed is redrawn."""
        self.board = board
        wanted = {p.cell: p for p in board.placements()}
        for cell in [c for c in self._drawn if c not in wanted or wanted[c][::3] != self._drawn[c][:2]]:
            self._tiles.remove(self._drawn.pop(cell)[2])
        added = False
        for cell, p in wanted.items():
            if cell not in self._drawn:
                quad = Quad(points=self._quad_points(cell, p.rot), texture=tileart.face(p.tile, self.size_px))
                self._tiles.add(quad)
                self._drawn[cell] = (p.tile, p.rot, quad)
                added = True
        self._draw_forced()
        self._draw_frontier()
        self._hovers = {who: (None, group) for who, (_key, group) in self._hovers.items()}  # judge afresh
        if added and self.auto_fit and not self._user_moved:
            self.recentre()

    def _quad_points(self, cell: Cell, rot: int) -> list[float]:
        x, y = self.cell_centre(cell)
        return rotated_quad(x, y, self.size_px, rot)

    def _relayout(self, *_args: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
        if not self._user_moved:
            self.recentre(animate=False, cells=self._fit_cells, focus=self._focus)
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        for cell, (tile, rot, quad) in self._drawn.items():
            quad.points = self._quad_points(cell, rot)
            quad.texture = tileart.face(tile, self.size_px)  # numbered only where legible
        self._draw_forced()
        self._draw_frontier(moved=True)
        self._draw_spaces()
        self._draw_marks()
        self._forget_hovers()

    def _forget_hovers(self) -> None:
        """Drop every preview (the view moved or the board changed): the next finger move redraws."""
        self._hovers.clear()
        self._preview.clear()

    def _draw_forced(self) -> None:
        """Forced spaces: an amber hexagon with a bold outline, so they catch the eye."""
        group = self._forced
        group.clear()
        s = self.size_px
        for space in self.board.forced_spaces():
            x, y = self.cell_centre(space.cell)
            group.add(Color(*theme.ACCENT[:3], 0.28))
            group.add(tileart.filled(corners(x, y, s * 0.92)))
            group.add(Color(*theme.ACCENT))
            group.add(Line(points=corners(x, y, s * 0.88), width=max(1.5, s * 0.07), close=True))

    def _draw_frontier(self, moved: bool = False) -> None:
        """Faint outlines of the spaces a tile could touch: where play can go. Kept per cell, so a
        placement only adds and removes a few outlines (``moved``: the view moved, redo all)."""
        lines = self._frontier_lines
        board = self.board
        cells: set[Cell] = set()
        if self.show_frontier:
            touching = min(self.frontier_touching, len(board))  # the first tiles touch fewer
            cells = {c for c in board.frontier() if board.neighbour_count(c) >= touching} if len(board) else {(0, 0)}
        for cell in [c for c in lines if c not in cells]:
            self._frontier.remove(lines.pop(cell))
        for cell in cells:
            line = lines.get(cell)
            if line is None:
                line = lines[cell] = Line(width=1.1, close=True)
                self._frontier.add(line)
            elif not moved:
                continue
            x, y = self.cell_centre(cell)
            line.points = corners(x, y, self.size_px * 0.94)

    # ------------------------------------------------------------------ highlights

    _marked: tuple[Cell, ...] = ()
    _mark: theme.RGBA = theme.MARK_REFUSED

    def highlight(self, cells: Iterable[Cell], mark: theme.RGBA = theme.MARK_REFUSED) -> None:
        """Mark ``cells`` for a few seconds: by default the cells a refused placement involves
        (white, filled); ``theme.MARK_FITS`` where a tile would fit (an outline only)."""
        self._marked = tuple(cells)
        self._mark = mark
        self._draw_marks()
        if self._marked:
            self._highlight_clear.start()

    def _draw_marks(self) -> None:
        group = self._marks
        group.clear()
        s = self.size_px
        for cell in self._marked:
            x, y = self.cell_centre(cell)
            if self._mark is theme.MARK_REFUSED:
                group.add(Color(*self._mark[:3], 0.25))
                group.add(tileart.filled(corners(x, y, s * 0.95)))
            group.add(Color(*self._mark))
            group.add(Line(points=corners(x, y, s * 0.9), width=max(2.0, s * 0.09), close=True))

    @property
    def highlighted(self) -> tuple[Cell, ...]:
        return self._marked

    def light(self, cells: Iterable[Cell]) -> None:
        """Light the spaces ``cells`` (where a lifted tile fits): a white ring and a white dot,
        marks no link colour can be taken for. An empty list puts them out."""
        self._lit = tuple(cells)
        self._draw_spaces()

    @property
    def lit(self) -> tuple[Cell, ...]:
        return self._lit

    def _draw_spaces(self) -> None:
        group = self._spaces
        group.clear()
        s = self.size_px
        for cell in self._lit:
            x, y = self.cell_centre(cell)
            group.add(Color(*theme.TABLE_DARK[:3], 0.9))
            group.add(Line(points=corners(x, y, s * 0.8), width=max(2.5, s * 0.11), close=True))
            group.add(Color(1, 1, 1, 0.95))
            group.add(Line(points=corners(x, y, s * 0.8), width=max(1.5, s * 0.06), close=True))
            group.add(Ellipse(pos=(x - s * 0.14, y - s * 0.14), size=(s * 0.28, s * 0.28)))

    # ------------------------------------------------------------- judging drops

    def judge(self, tile: int, cell: Cell, rot: int, target: PlacementTarget | None = None,
              ) -> tuple[Placement, Refused | None]:
        """The placement a drop of ``tile`` turned ``rot`` on ``cell`` would make, and the verdict
        of ``target`` (default: the board's). With ``snap_rotation`` a refused rotation is replaced
        by the nearest one that keeps the golden rule and is accepted, if any."""
        target = target or self.target
        placement = Placement(tile, cell[0], cell[1], rot)
        if target is None:
            return placement, Refused(Play.NO_GAME, "no game is being played")
        verdict = target.check(placement)
        if verdict is not None and self.snap_rotation and cell not in self.board:
            turns = sorted(self.board.fits(tile, cell), key=lambda r: min((r - rot) % 6, (rot - r) % 6))
            for other in turns:
                candidate = Placement(tile, cell[0], cell[1], other)
                if other != rot and target.check(candidate) is None:
                    return candidate, None
        return placement, verdict

    def hover(self, window_pos: tuple[float, float] | None, tile: int = 0, rot: int = 0, who: Any = None,
              target: PlacementTarget | None = None) -> bool:
        """Show on the space under ``window_pos`` whether ``tile`` turned ``rot`` fits there (the
        verdict is kept in :attr:`verdict`); False when the point is off the board (None: stop).
        ``who`` tells simultaneous drags apart (each keeps its own preview); ``target`` judges
        instead of the board's."""
        if window_pos is None or not self.collide_point(*self.to_widget(*window_pos)):
            gone = self._hovers.pop(who, None)
            if gone is not None:
                self._preview.remove(gone[1])
            self.verdict = None
            return False
        cell = self.cell_under(*self.to_widget(*window_pos))
        key = (cell, tile, rot)
        known = self._hovers.get(who)
        if known is not None and known[0] == key:
            return True
        if known is None:
            group = InstructionGroup()
            self._preview.add(group)
        else:
            group = known[1]
        self._hovers[who] = (key, group)
        placement, refusal = self.judge(tile, cell, rot, target)
        self.verdict = (placement, refusal)
        group.clear()
        x, y = self.cell_centre(cell)
        s = self.size_px
        if cell not in self.board:
            group.add(Color(1, 1, 1, 0.9 if refusal is None else 0.5))
            group.add(Quad(points=rotated_quad(x, y, s, placement.rot), texture=tileart.face(tile, s)))
        group.add(Color(*(theme.MARK_FITS if refusal is None else theme.MARK_REFUSED)))
        group.add(Line(points=corners(x, y, s * 0.96), width=max(2.0, s * 0.08), close=True))
        return True

    def drop(self, window_pos: tuple[float, float], tile: int, rot: int, who: Any = None,
             target: PlacementTarget | None = None) -> Placement | Refused | None:
        """Drop ``tile`` at ``window_pos``: the Placement made, the Refused, or None when the drop
        was not over the board (the tile simply goes back to the hand). ``who`` and ``target`` as
        for :meth:`hover`."""
        self.hover(None, who=who)
        target = target or self.target
        local = self.to_widget(*window_pos)
        if not self.collide_point(*local):
            return None
        placement, verdict = self.judge(tile, self.cell_under(*local), rot, target)
        if verdict is None:
            try:
                target.place(placement)
            except Refused as refusal:
                verdict = refusal
        if verdict is not None:
            self.highlight(verdict.cells or (placement.cell,))
            self.dispatch("on_refused", verdict)
            return verdict
        self.highlight(())
        self.show(self.board)  # the target changed the board it shares with this view
        self.dispatch("on_placed", placement)
        return placement

    def on_placed(self, placement: Placement) -> None:
        """Event: the target accepted ``placement`` (the screen then calls :meth:`show`)."""

    def on_refused(self, refusal: Refused) -> None:
        """Event: a drop was refused (the table shows :func:`ui.refusals.explain` to the player)."""

    def fitting_forced(self, tiles: Iterable[int], target: PlacementTarget | None = None) -> set[int]:
        """Which of ``tiles`` the target (default: the board's) would accept on some forced space
        (the hand marks them)."""
        target = target or self.target
        found: set[int] = set()
        if target is None:
            return found
        spaces = self.board.forced_spaces()
        for t in tiles:
            if any(
                target.check(Placement(t, s.q, s.r, rot)) is None
                for s in spaces
                for rot in self.board.fits(t, s.cell)
            ):
                found.add(t)
        return found

    # ----------------------------------------------------------- pan, zoom, recentre

    def hold(self, who: Any) -> None:
        """``who`` drags a tile over the view: until :meth:`release`, the view stays where it is
        (a recentring asked for meanwhile waits), so the space under the finger never moves."""
        self._held.add(who)

    def release(self, who: Any) -> None:
        """``who``'s drag ended: a recentring (else a :meth:`pan`) that waited for it happens now."""
        self._held.discard(who)
        if self._held:
            return
        pan, self._deferred_pan = self._deferred_pan, None
        if self._deferred is not None:
            animate, cells, focus = self._deferred
            self._deferred = None
            self.recentre(animate, cells, focus)
        elif pan is not None:
            self.pan(*pan)

    @property
    def moved_by_player(self) -> bool:
        """Whether a player panned or zoomed the view since it was last fitted."""
        return self._user_moved

    @property
    def held(self) -> bool:
        """Whether a finger is dragging a tile over the view (it does not move meanwhile)."""
        return bool(self._held)

    def recentre(self, animate: bool = True, cells: Iterable[Cell] | None = None,
                 focus: Iterable[Cell] | None = None) -> None:
        """Fit the placed tiles (or ``cells``), and the spaces around them, into ``fit_area``; where
        they only fit smaller than ``min_fit_px``, show them at that size centred on ``focus``
        (default: their own middle), as many of its spaces wholly in sight as the room holds
        (:func:`aim_in_sight`) and as much of the board around them as the view holds
        (:func:`most_in_view`). While a tile is dragged over the view it waits (:meth:`hold`)."""
        if self._held:
            self._deferred = (animate, list(cells) if cells is not None else None,
                              list(focus) if focus is not None else None)
            self._deferred_pan = None  # measured on the view the recentring replaces
            return
        # what to fit and centre on is kept even where there is no room yet: the view laid out
        # later (a screen still being built) must centre on it, not on the board's middle
        self._fit_cells = list(cells) if cells is not None else None
        self._focus = list(focus) if focus is not None else None
        x0, y0, w, h = self.fit_area or (self.x, self.y, self.width, self.height)
        if w <= 0 or h <= 0:
            return
        cells = self._fit_cells or [p.cell for p in self.board.placements()] or [(0, 0)]
        unit_pts = [centre(c, 1.0) for c in cells]
        xs = [p[0] for p in unit_pts]
        ys = [p[1] for p in unit_pts]
        # extents in circumradius units, with the ring of spaces around the tiles when it is shown
        ring = 1 if self.show_frontier else 0
        span_x = max(xs) - min(xs) + SQRT3 * (1 + 2 * ring)
        span_y = max(ys) - min(ys) + 2 + 3 * ring
        unit = theme.unit()
        size = min(w / span_x, h / span_y, MAX_SIZE * unit * 0.75)
        size = max(size, MIN_SIZE * unit)
        aim = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        if size < self.min_fit_px:
            size = self.min_fit_px
            if self._focus:
                # a hexagon (pointy top) is SQRT3 wide and 2 high: how far apart whole ones may lie
                aim = aim_in_sight([centre(c, 1.0) for c in self._focus], (w / size - SQRT3, h / size - 2))
                # the spaces to fill lie within the board's ring: kept whole in sight as it fills the view
                ring_x, ring_y = (span_x - max(xs) + min(xs)) / 2, (span_y - max(ys) + min(ys)) / 2
                aim = (most_in_view(aim[0], min(xs) - ring_x, max(xs) + ring_x, w / size),
                       most_in_view(aim[1], min(ys) - ring_y, max(ys) + ring_y, h / size))
        origin = [x0 + w / 2 - aim[0] * size, y0 + h / 2 - aim[1] * size]
        self._user_moved = False
        Animation.cancel_all(self)
        self._target = (size, (origin[0], origin[1]))
        if animate and self.get_root_window() is not None:
            Animation(size_px=size, origin=origin, d=0.35, t="out_quad").start(self)
        else:
            self.size_px, self.origin = size, origin

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or len(self._touches) >= 2:
            return False
        if touch.is_double_tap:
            self.recentre()
            return True
        touch.grab(self)
        self._touches[touch.uid] = touch.pos
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or touch.uid not in self._touches:
            return False
        old = self._touches
        new = dict(old)
        new[touch.uid] = touch.pos
        if len(new) == 1:
            (ox, oy), (nx, ny) = old[touch.uid], touch.pos
            self._move(nx - ox, ny - oy, 1.0, (nx, ny))
        else:
            (a0, b0), (a1, b1) = (old[k] for k in new), (new[k] for k in new)
            d0 = math.dist(a0, b0) or 1.0
            d1 = math.dist(a1, b1)
            m0 = ((a0[0] + b0[0]) / 2, (a0[1] + b0[1]) / 2)
            m1 = ((a1[0] + b1[0]) / 2, (a1[1] + b1[1]) / 2)
            self._move(m1[0] - m0[0], m1[1] - m0[1], d1 / d0, m1)
        self._touches = new
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self._touches.pop(touch.uid, None)
        return True

    def refit(self) -> None:
        """Put the view at once where its latest :meth:`recentre` (perhaps still animating) ends."""
        self.recentre(animate=False, cells=self._fit_cells, focus=self._focus)

    def look_at(self, cell: Cell, animate: bool = True) -> None:
        """Pan (at the present zoom) so that ``cell`` lies in the middle of the free table, as a
        player's finger would (the view then stays there until fitted again). Not while a tile is
        dragged over the view (:meth:`hold`): the space under that finger must not move."""
        self.look_at_all([cell], animate)

    def look_at_all(self, cells: Iterable[Cell], animate: bool = True, wanted: Iterable[Cell] | None = None) -> None:
        """As :meth:`look_at`, for as many of ``cells`` as the free table holds whole at the zoom
        the view settles at, one of ``wanted`` (some of ``cells``) among them when given
        (:func:`aim_in_sight`): a tap that asks for spaces out of sight."""
        points = [centre(c, 1.0) for c in cells]
        if self._held or not points:
            return
        x0, y0, w, h = self.fit_area or (self.x, self.y, self.width, self.height)
        size = self._target[0] if self._target is not None else self.size_px
        aim = aim_in_sight(points, (w / size - SQRT3, h / size - 2),
                           [centre(c, 1.0) for c in wanted] if wanted is not None else None)
        origin = [x0 + w / 2 - aim[0] * size, y0 + h / 2 - aim[1] * size]
        Animation.cancel_all(self)
        self._target = (size, (origin[0], origin[1]))
        if animate and self.get_root_window() is not None:
            Animation(size_px=size, origin=origin, d=0.3, t="out_quad").start(self)
        else:
            self.size_px, self.origin = size, origin
        self._user_moved = True

    def pan(self, dx: float, dy: float, animate: bool = True) -> None:
        """Slide the view (at its zoom; ``animate``: gliding there) ``dx``, ``dy`` pixels from where
        it settles: the table making room, not a player's move (the view still follows the play, see
        :attr:`moved_by_player`). While a tile is dragged over the view it waits for the finger to
        lift (:meth:`hold`), unless a recentring waits too: that one moves the view instead."""
        if self._held:
            if self._deferred is None:
                self._deferred_pan = (dx, dy)
            return
        size, (ox, oy) = self._target or (self.size_px, (self.origin[0], self.origin[1]))
        origin = [ox + dx, oy + dy]
        Animation.cancel_all(self)
        self._target = (size, (origin[0], origin[1]))
        if animate and self.get_root_window() is not None:
            Animation(size_px=size, origin=origin, d=0.3, t="out_quad").start(self)
        else:
            self.size_px, self.origin = size, origin

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` about the middle of the free table (the zoom buttons)."""
        x0, y0, w, h = self.fit_area or (self.x, self.y, self.width, self.height)
        self._move(0.0, 0.0, factor, (x0 + w / 2, y0 + h / 2))

    def _move(self, dx: float, dy: float, factor: float, about: tuple[float, float]) -> None:
        """Pan by (dx, dy) and zoom by ``factor`` keeping the point ``about`` fixed; nothing while
        a tile is dragged over the view (:meth:`hold`: another player's pan, pinch or zoom button
        must not move the space under that finger)."""
        if self._held:
            return
        Animation.cancel_all(self)
        unit = theme.unit()
        size = min(max(self.size_px * factor, MIN_SIZE * unit, min(self.min_fit_px, self.size_px)), MAX_SIZE * unit)
        factor = size / self.size_px
        ox, oy = self.origin
        ox, oy = ox + dx, oy + dy
        ax, ay = about
        self.size_px = size
        self.origin = [ax + (ox - ax) * factor, ay + (oy - ay) * factor]
        self._target = None
        self._user_moved = True


class HandView(Widget):
    """A row of tiles a player holds. Tap a tile to turn it clockwise, twist it with two fingers,
    drag it onto ``board`` to play it. Each finger's tap turns the tile it touched: one finger
    resting on a tile, or dragging it, while another taps its neighbour turns the neighbour.

    Tiles are drawn turned the way they would lie on the board: a hand rotated to face a player
    (``seat_angle``, degrees counter-clockwise, set by the table layout) shows them counter-turned,
    so what a player sees in hand is what lands on the table. ``marked`` tiles (e.g. those that fit
    a forced space) get an amber outline. ``drag_layer`` draws the tile under the finger.

    A big hand wraps into up to ``max_rows`` rows, whichever number keeps its tiles largest. With
    ``picking`` on, a tap picks or unpicks a tile (``picked``, outlined in green) instead of turning
    it, and nothing is dragged: how a player chooses tiles to give away.
    """

    tiles = ListProperty([])
    marked = ListProperty([])
    seat_angle = NumericProperty(0.0)
    board = ObjectProperty(None, allownone=True)
    drag_layer = ObjectProperty(None, allownone=True)
    active = BooleanProperty(True)
    """Whether this hand may play now (an inactive hand is dimmed and does not drag)."""
    colour = StringProperty("")
    """The player's link colour ("R", "Y", "G", "B"), shown as a band on their edge with its marking; "" for none."""
    target = ObjectProperty(None, allownone=True)
    """This hand's own placement target (a player's claims when all play at once); None: the board's."""
    max_rows = NumericProperty(1)
    for_fingers = BooleanProperty(True)
    """Whether a person plays from this hand (a Gobbles robot's hand is only looked at: its tiles
    need not be fingertip-sized, see :mod:`ui.audit`)."""
    picking = BooleanProperty(False)
    picked = ListProperty([])

    __events__ = ("on_played", "on_refused", "on_lift", "on_waiting")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rotations: dict[int, int] = {}
        self._drag: dict[str, Any] | None = None
        self._twist: dict[str, Any] | None = None
        self._taps: dict[Any, tuple[int, tuple[float, float]]] = {}
        """The other fingers come down on a tile while one drags (touch uid: that tile, where it
        came down): each one lifted where it came down turns its own tile."""
        self.bind(pos=self._redraw, size=self._redraw, tiles=self._redraw, marked=self._redraw,
                  seat_angle=self._redraw, active=self._redraw, colour=self._redraw, max_rows=self._redraw,
                  picking=self._redraw, picked=self._redraw)

    # ----------------------------------------------------------------- layout

    def _extent(self) -> tuple[float, float]:
        return extent(-self.seat_angle)

    def _grid(self) -> tuple[int, int, float]:
        """(rows, tiles per row, hexagon circumradius): the rows (up to ``max_rows``) that keep
        the tiles largest, the fewest rows on a tie."""
        n = max(len(self.tiles), 1)
        wide, high = self._extent()
        best = (1, n, 0.0)
        for rows in range(1, max(int(self.max_rows), 1) + 1):
            cols = math.ceil(n / rows)
            radius = min(self.height * 0.94 / (high * rows * 1.02), self.width / (cols * wide * 1.06))
            if radius > best[2] * 1.001:
                best = (rows, cols, radius)
        rows, cols, radius = best
        return math.ceil(n / cols), cols, max(1.0, radius)

    def tile_radius(self) -> float:
        """Hexagon circumradius that fits the tiles in their rows inside the widget."""
        return self._grid()[2]

    def slot_centre(self, index: int) -> tuple[float, float]:
        rows, cols, r = self._grid()
        wide, high = self._extent()
        row, col = divmod(index, cols)
        in_row = min(cols, len(self.tiles) - row * cols)
        step = r * wide * 1.06
        first = self.x + self.width / 2 - step * (in_row - 1) / 2
        rise = r * high * 1.02
        return first + col * step, self.y + self.height / 2 + rise * ((rows - 1) / 2 - row)  # not .center_y: stale in size callbacks

    def tile_at(self, x: float, y: float) -> int | None:
        """The tile whose slot contains the local point (x, y)."""
        r = self.tile_radius()
        for i, t in enumerate(self.tiles):
            cx, cy = self.slot_centre(i)
            if math.hypot(x - cx, y - cy) <= r:
                return t
        return None

    def rotation(self, tile: int) -> int:
        return self.rotations.get(tile, 0)

    def turn(self, tile: int, steps: int = 1) -> None:
        """Turn ``tile`` ``steps`` sixths of a turn clockwise."""
        self.rotations[tile] = (self.rotation(tile) + steps) % 6
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        r = self.tile_radius()
        turn = -self.seat_angle
        dragged = self._drag["tile"] if self._drag and self._drag.get("moving") else None
        with self.canvas:
            # the player's strip: darker when waiting, lit when it is their turn
            Color(0, 0, 0, 0.22 if self.active else 0.35)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[r * 0.3])
            if self.colour:
                self._draw_colour_band(r)
            for i, t in enumerate(self.tiles):
                cx, cy = self.slot_centre(i)
                if t in self.marked:
                    Color(*theme.ACCENT)
                    Line(points=corners(cx, cy, r * 1.02, turn), width=max(2.0, r * 0.08), close=True)
                if self.picking and t in self.picked:
                    Color(*theme.GOOD)
                    Line(points=corners(cx, cy, r * 1.04, turn), width=max(2.5, r * 0.12), close=True)
                alpha = 0.25 if t == dragged else (1.0 if self.active or self.picking else 0.55)
                Color(1, 1, 1, alpha)
                Quad(points=rotated_quad(cx, cy, r * 0.95, self.rotation(t), turn), texture=tileart.face(t, r * 0.95))

    def _draw_colour_band(self, r: float) -> None:
        """The player's colour along the hand's edge, drawn as a link of that colour on the tiles,
        its marking too (:func:`ui.tileart.draw_link`: red dots, blue dashes...): a plain bar of
        colour told the hands apart only by hue, which players who confuse colours cannot read."""
        start, length = self.x + self.width * 0.1, self.width * 0.8
        y = self.y + r * 0.15

        def flat(path: list[tileart.Point]) -> list[float]:
            return [c for x, py in path for c in (start + x * r, y + py * r)]

        tileart.draw_link(self.colour, [(0.0, 0.0), (length / r, 0.0)], flat, r)

    # ------------------------------------------------------------------ touches

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        tile = self.tile_at(*touch.pos)
        if self._drag is not None and self._twist is None and not self._drag["moving"]:
            # a second finger while one holds a tile: it twists that tile, or, landing on another
            # tile and lifted without turning or moving, taps that one (it turned the held tile)
            self._twist = {"uid": touch.uid, "angle": self._finger_angle(touch), "total": 0.0, "turned": 0,
                           "tap": tile if tile != self._drag["tile"] else None, "start": touch.pos}
            touch.grab(self)
            return True
        if self._drag is not None:
            if tile is not None and tile != self._drag["tile"]:
                self._taps[touch.uid] = (tile, touch.pos)
                touch.grab(self)
            return True
        if tile is None:
            return True  # the hand's strip is not the board: swallow the touch
        if self.picking:
            self.picked = [t for t in self.picked if t != tile] if tile in self.picked else [*self.picked, tile]
            return True
        if not self.active:
            self.dispatch("on_waiting", tile)
            return True
        touch.grab(self)
        self._drag = {"uid": touch.uid, "tile": tile, "start": touch.pos, "moving": False}
        return True

    def _finger_angle(self, second: Any) -> float:
        drag = self._drag
        assert drag is not None, "only a held tile is twisted"
        first = drag["pos"] if "pos" in drag else drag["start"]
        return math.degrees(math.atan2(second.pos[1] - first[1], second.pos[0] - first[0]))

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        tap = self._taps.get(touch.uid)
        if tap is not None and self._moved(touch, tap[1]):
            del self._taps[touch.uid]  # a finger that moved is no tap
        drag = self._drag
        if drag is None:
            return True
        if self._twist is not None and touch.uid == self._twist["uid"]:
            # the tile follows the fingers' turn, to the nearest sixth (clockwise = clockwise)
            twist = self._twist
            angle = self._finger_angle(touch)
            twist["total"] += (angle - twist["angle"] + 180) % 360 - 180
            twist["angle"] = angle
            steps = round(-twist["total"] / 60)
            if self._moved(touch, twist["start"]):
                twist["tap"] = None  # a finger that moved is twisting, not tapping
            if steps != twist["turned"]:
                twist["tap"] = None
                self.turn(drag["tile"], steps - twist["turned"])
                twist["turned"] = steps
                drag["twisted"] = True
            return True
        if touch.uid != drag["uid"]:
            return True
        drag["pos"] = touch.pos
        if not drag["moving"] and self._moved(touch, drag["start"]):
            drag["moving"] = True
            if self.board is not None:
                self.board.hold(self)
            self.dispatch("on_lift", drag["tile"])
            self._redraw()
        if drag["moving"]:
            self._show_drag(touch)
        return True

    def _moved(self, touch: Any, start: tuple[float, float]) -> bool:
        """Whether the finger of ``touch`` went far enough from ``start`` to be moving, not tapping."""
        return math.dist(touch.pos, start) > self.tile_radius() * 0.45

    def _tapped(self, tile: int | None, touch: Any) -> None:
        """A finger other than the holding one lifted: it came down on ``tile`` (None: no tap) and
        lifts on it still, so it turns that tile (one the hand still holds)."""
        if tile is not None and tile in self.tiles and self.tile_at(*touch.pos) == tile:
            self.turn(tile)

    def _lifted(self, touch: Any) -> tuple[float, float]:
        """Where the dragged tile is shown: above the finger as the player sees it, so the finger
        does not hide it (window coordinates)."""
        return beyond(self.to_window(*touch.pos), self.tile_radius() * 1.3, self.seat_angle)

    def _on_table(self, touch: Any) -> bool:
        """Whether the finger of ``touch`` and the tile lifted above it are over the open table (not a
        hand, plate or tray): see :meth:`BoardView.takes_drop`."""
        return self.board is not None and self.board.takes_drop(self.to_window(*touch.pos), self._lifted(touch))

    def _show_drag(self, touch: Any) -> None:
        drag = self._drag
        assert drag is not None, "only a held tile is dragged"
        pos = self._lifted(touch)
        rot = self.rotation(drag["tile"])
        over_board = self._on_table(touch) and self.board.hover(pos, drag["tile"], rot, self, self.target)
        if not over_board and self.board is not None:
            self.board.hover(None, who=self)
        if self.drag_layer is not None:
            if over_board:
                self.drag_layer.hide(self)  # the board shows the tile on the space, fitting or not
            else:
                self.drag_layer.show(pos, drag["tile"], rot, self.tile_radius(), self)

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        tap = self._taps.pop(touch.uid, None)
        if tap is not None:
            self._tapped(tap[0], touch)
            return True
        drag = self._drag
        if self._twist is not None and touch.uid == self._twist["uid"]:
            tapped, self._twist = self._twist["tap"], None
            self._tapped(tapped, touch)
            return True
        if drag is None or touch.uid != drag["uid"]:
            return True
        self._drag = None
        if self.drag_layer is not None:
            self.drag_layer.hide(self)
        self._twist = None
        if not drag["moving"]:
            if not drag.get("twisted"):
                self.turn(drag["tile"])
            return True
        result = None
        if self._on_table(touch):
            result = self.board.drop(self._lifted(touch), drag["tile"], self.rotation(drag["tile"]), self, self.target)
        elif self.board is not None:
            self.board.hover(None, who=self)  # released over a hand, a plate, off the table: back it goes
        if isinstance(result, Placement):
            if drag["tile"] in self.tiles:
                self.tiles.remove(drag["tile"])
            self.rotations.pop(drag["tile"], None)
            self.dispatch("on_played", result)
        elif isinstance(result, Refused):
            self.dispatch("on_refused", result)
        self.dispatch("on_lift", None)
        if self.board is not None:
            self.board.release(self)  # only now may the view follow what the drop changed
        self._redraw()
        return True

    def on_played(self, placement: Placement) -> None:
        """Event: a tile of this hand was placed."""

    def on_refused(self, refusal: Refused) -> None:
        """Event: a drop from this hand was refused (the table shows why, facing this player)."""

    def on_lift(self, tile: int | None) -> None:
        """Event: ``tile`` was lifted out of the hand to be dragged (None: the drag ended), so a
        screen can light the spaces where it fits."""

    def on_waiting(self, tile: int) -> None:
        """Event: ``tile`` was touched while this hand may not play (dimmed), so a screen can say
        why: a finger that gets no answer takes the table for frozen."""


class DragLayer(Widget):
    """Draws the tiles being dragged above everything else (it ignores touches); ``who`` tells
    simultaneous drags apart, one tile each."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: dict[Any, tuple[Color, Quad]] = {}

    def show(self, window_pos: tuple[float, float], tile: int, rot: int, radius: float, who: Any = None) -> None:
        drawn = self._shown.get(who)
        if drawn is None:
            drawn = self._shown[who] = (Color(1, 1, 1, 0), Quad(points=[0] * 8))
            self.canvas.add(drawn[0])
            self.canvas.add(drawn[1])
        colour, quad = drawn
        x, y = self.to_widget(*window_pos)
        quad.texture = tileart.face(tile, radius)
        quad.points = rotated_quad(x, y, radius, rot)
        colour.a = 0.9

    def hide(self, who: Any = None) -> None:
        drawn = self._shown.get(who)
        if drawn is not None:
            drawn[0].a = 0

    @property
    def showing(self) -> int:
        """How many dragged tiles are drawn now."""
        return sum(1 for colour, _quad in self._shown.values() if colour.a > 0)

    def on_touch_down(self, touch: Any) -> bool:
        return False


class PileView(Widget):
    """A pile of tiles lying face up (Gobble's discards): the top tile, and how many lie there."""

    tiles = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.label = TLabel(msg=N_("Discards: {count}"), values={"count": 0}, scale=0.8)
        self.add_widget(self.label)
        self.bind(pos=self.redraw, size=self.redraw, tiles=self.redraw)

    def tile_radius(self) -> float:
        return max(1.0, min(self.width * 0.42, (self.height - theme.unit() * 0.8) * 0.46))

    def tile_centre(self) -> tuple[float, float]:
        """Where the top tile is drawn (widget coordinates)."""
        return self.x + self.width / 2, self.y + theme.unit() * 0.8 + (self.height - theme.unit() * 0.8) / 2

    def redraw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        r = self.tile_radius()
        cx, cy = self.tile_centre()
        with self.canvas.before:
            Color(1, 1, 1, 0.3)
            Line(points=corners(cx, cy, r), width=1.5, close=True)
            if self.tiles:
                Color(1, 1, 1, 1)
                Quad(points=rotated_quad(cx, cy, r * 0.96, 0), texture=tileart.face(self.tiles[-1], r * 0.96))
        self.label.values = {"count": len(self.tiles)}
        self.label.size = (self.width, theme.unit() * 0.7)
        self.label.pos = (self.x, self.y)
