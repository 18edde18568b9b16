"""Tanagra's table drawn from the engine's lattice: triangles, pawns, and what a player may do.

:class:`TanagraBoard` draws an :class:`engine.tanagra.rules.State`: the pieces (size-2 triangles in
light wood, their four cells faintly lined), the pawns (each player's colour, and with 2 players
two clearly different sizes; green and blue pawns carry the tiles' marks, a dark centre and a light
ring, so colour-blind players tell them apart), and on request the spots where a triangle may go,
the selected pawn, its destinations (a dot for a step, a ring for a jump, a red ring round a pawn it
would take) and the emptied triangle awaiting a board change. Geometry comes only from
:mod:`engine.tanagra.lattice` (``corners``, ``centroid``, ``piece_corners``, ``cell_at``); plane
``y`` grows downwards there and upwards on screen, and this module is where that flips.

It judges nothing: a touch is reported as ``on_tap(cell)`` (and ``on_hover(cell)`` while a finger
rests), and the screen asks the engine. :meth:`play` animates an action (a pawn sliding, a captured
pawn shrinking away, a triangle sliding or fading) and then applies it to the state.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Sequence

from kivy.animation import Animation
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Rectangle
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from engine.tanagra.lattice import Cell, cell_at, centroid, corners, piece_corners
from engine.tanagra.rules import Action, Move, Pawn, Relocate, Remove, Size, State

from .countdown import Countdown
from . import theme
from .tileart import filled

PIECE = theme.rgb("#e2cb98")
PIECE_EDGE = theme.rgb("#7a5c2e")
PIECE_LINES = theme.rgb("#b99a62")

SEAT_COLOURS_2 = (theme.rgb("#1b1b1f"), theme.rgb("#ffd21a"))
"""Black and yellow, the 2-player colours of the rule sheet."""
SEAT_COLOURS = (theme.LINK["R"], theme.LINK["Y"], theme.LINK["G"], theme.LINK["B"])
"""3-4 players: the four Tantrix colours, which the LED rings can show."""

PAWN_RADIUS = {Size.SMALL: 0.17, Size.BIG: 0.265, None: 0.23}
"""Pawn radius in triangle sides (a cell's inscribed circle is 0.289)."""


def draw_pawn(group: InstructionGroup, at: tuple[float, float], r: float, colour: theme.RGBA,
              alpha: float = 1.0) -> None:
    """A pawn of ``colour`` and radius ``r`` centred ``at``, with its colour's mark (green's dark
    centre, blue's light ring): drawn once, here, for the board and for every icon naming a seat
    ("Green to play", the seats' rows), so that a player who cannot tell the hues apart matches the
    name to the pawns by the mark (the icons once showed plain discs)."""
    x, y = at
    group.add(Color(*colour[:3], alpha))
    group.add(Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r)))
    light = sum(colour[:3]) / 3 > 0.45
    rim = (0.1, 0.1, 0.12) if light else (0.92, 0.92, 0.9)
    group.add(Color(*rim, alpha))
    group.add(Line(circle=(x, y, r), width=max(1.2, r * 0.12)))
    if colour == theme.LINK["G"]:
        group.add(Color(0.05, 0.25, 0.1, alpha))
        group.add(Ellipse(pos=(x - r * 0.3, y - r * 0.3), size=(r * 0.6, r * 0.6)))
    elif colour == theme.LINK["B"]:
        group.add(Color(0.85, 0.92, 1, alpha))
        group.add(Line(circle=(x, y, r * 0.55), width=max(1.2, r * 0.12)))


TURNS = (0.0, 60.0, 120.0)
"""The ways the table may be drawn: turning the lattice by a sixth of a turn maps it onto itself."""


def _turned(p: tuple[float, float], degrees: float) -> tuple[float, float]:
    if not degrees:
        return p
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return p[0] * c - p[1] * s, p[0] * s + p[1] * c


def seat_colours(players: int) -> tuple[theme.RGBA, ...]:
    return SEAT_COLOURS_2 if players == 2 else SEAT_COLOURS[:players]


class TanagraBoard(Widget):
    """A Tanagra position; see the module docstring."""

    scale = NumericProperty(40.0)
    """Pixels per triangle side."""
    turn = NumericProperty(0.0)
    """How far the table is drawn turned (degrees, one of :data:`TURNS`)."""
    progress = NumericProperty(0.0)
    """0..1 through the running animation."""

    __events__ = ("on_tap", "on_hover")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state: State | None = None
        self.spots: list[Cell] = []
        self.selected: Cell | None = None
        self.destinations: list[tuple[Cell, str]] = []
        self.pending: Cell | None = None
        self.last: Move | None = None
        self.preview: tuple[Cell, bool] | None = None
        self.flashed: tuple[Cell, ...] = ()
        self.origin = (0.0, 0.0)
        self._touch: Any = None
        self._anim: dict[str, Any] | None = None
        self._unflash = Countdown(lambda: self.flash(()), 2.5)
        with self.canvas:
            Color(*theme.TABLE)
            self._bg = Rectangle()
        self._pieces = InstructionGroup()
        self._marks = InstructionGroup()
        self._pawns = InstructionGroup()
        self._top = InstructionGroup()
        for group in (self._pieces, self._marks, self._pawns, self._top):
            self.canvas.add(group)
        self.bind(pos=self._relayout, size=self._relayout, progress=self._draw_animation)

    # ---------------------------------------------------------------- coordinates

    def to_screen(self, p: tuple[float, float]) -> tuple[float, float]:
        """A lattice plane point (y down) in widget coordinates (y up), the table turned ``turn``."""
        x, y = _turned(p, self.turn)
        return self.origin[0] + x * self.scale, self.origin[1] - y * self.scale

    def cell_point(self, cell: Cell) -> tuple[float, float]:
        """Where a pawn on ``cell`` is drawn (widget coordinates)."""
        return self.to_screen(centroid(cell))

    def cell_under(self, x: float, y: float) -> Cell:
        """The cell under the widget point (x, y)."""
        return cell_at(*_turned(((x - self.origin[0]) / self.scale, (self.origin[1] - y) / self.scale), -self.turn))

    def _flat(self, points: Iterable[tuple[float, float]]) -> list[float]:
        return [c for p in points for c in self.to_screen(p)]

    # -------------------------------------------------------------------- showing

    def show(self, state: State, spots: Sequence[Cell] = (), selected: Cell | None = None,
             destinations: Sequence[tuple[Cell, str]] = (), pending: Cell | None = None,
             last: Move | None = None) -> None:
        """Draw ``state`` with the given marks: ``spots`` (piece centres where a triangle may go),
        ``selected`` pawn, ``destinations`` as (cell, "step" | "jump" | "capture"), the ``pending``
        emptied piece, the ``last`` move."""
        self.state = state
        self.spots, self.selected, self.destinations = list(spots), selected, list(destinations)
        self.pending, self.last = pending, last
        self.preview = None
        self._fit()
        self._redraw()

    def flash(self, cells: Iterable[Cell]) -> None:
        """Outline ``cells`` in red for a moment (a refused touch)."""
        self.flashed = tuple(cells)
        self._draw_marks()
        if self.flashed:
            self._unflash.start()

    def set_preview(self, centre: Cell | None, ok: bool = True) -> None:
        """Outline the triangle a touch would put down (green: allowed, red: refused)."""
        self.preview = None if centre is None else (centre, ok)
        self._draw_marks()

    def _fit(self) -> None:
        """Scale and place the drawing so the pieces and spots fill the widget, with a margin. The
        table may be drawn turned by a sixth or a third of a turn (the lattice looks the same) when
        that makes it clearly larger: a long table lies along the screen's long side."""
        state = self.state
        points: list[tuple[float, float]] = []
        if state is not None:
            for centre in [*state.pieces(), *self.spots]:
                points += list(piece_corners(centre))
        if not points:
            points = [(-2.0, -1.5), (2.0, 2.5)]

        def fitted(turn: float) -> tuple[float, tuple[float, float, float, float]]:
            turned = [_turned(p, turn) for p in points]
            xs, ys = [p[0] for p in turned], [p[1] for p in turned]
            box = (min(xs) - 0.7, min(ys) - 0.7, max(xs) + 0.7, max(ys) + 0.7)
            w, h = max(box[2] - box[0], 5.0), max(box[3] - box[1], 4.0)
            return max(4.0, min(self.width / w, self.height / h)), box

        scale, box = fitted(self.turn)
        for turn in TURNS:
            other, other_box = fitted(turn)
            if other > scale * 1.25:
                self.turn, scale, box = turn, other, other_box
        self.scale = scale
        mid_x, mid_y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        self.origin = (self.x + self.width / 2 - mid_x * self.scale, self.y + self.height / 2 + mid_y * self.scale)

    def _relayout(self, *_args: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
        self._fit()
        self._redraw()

    def _redraw(self) -> None:
        self._draw_pieces()
        self._draw_marks()
        self._draw_pawns()

    def _draw_pieces(self) -> None:
        group = self._pieces
        group.clear()
        if self.state is None:
            return
        hidden = self._anim.get("piece") if self._anim else None
        for centre in self.state.pieces():
            if centre != hidden:
                self._piece(group, centre, (0.0, 0.0), 1.0, 1.0)

    def _piece(self, group: InstructionGroup, centre: Cell, shift: tuple[float, float], alpha: float,
               grow: float) -> None:
        corners3 = piece_corners(centre)
        mx = sum(p[0] for p in corners3) / 3
        my = sum(p[1] for p in corners3) / 3

        def moved(p: tuple[float, float]) -> tuple[float, float]:
            return (mx + (p[0] - mx) * grow + shift[0], my + (p[1] - my) * grow + shift[1])

        outline = self._flat(moved(p) for p in corners3)
        group.add(Color(*PIECE[:3], alpha))
        group.add(filled(outline))
        group.add(Color(*PIECE_LINES[:3], alpha))
        inner = self._flat(moved(p) for p in corners(centre))
        group.add(Line(points=inner, width=max(1.0, self.scale * 0.02), close=True))
        group.add(Color(*PIECE_EDGE[:3], alpha))
        group.add(Line(points=outline, width=max(1.2, self.scale * 0.035), close=True))

    def _draw_marks(self) -> None:
        group = self._marks
        group.clear()
        s = self.scale
        if self.pending is not None:
            outline = self._flat(piece_corners(self.pending))
            group.add(Color(*theme.ACCENT[:3], 0.3))
            group.add(filled(outline))
            group.add(Color(*theme.ACCENT))
            group.add(Line(points=outline, width=max(2.5, s * 0.07), close=True))
        for centre in self.spots:
            x, y = self.cell_point(centre)
            r = max(4.0, s * 0.085)
            group.add(Color(1, 1, 1, 0.75))
            group.add(Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r)))
        if self.preview is not None:
            centre, ok = self.preview
            outline = self._flat(piece_corners(centre))
            group.add(Color(*(theme.GOOD if ok else theme.BAD)[:3], 0.35))
            group.add(filled(outline))
            group.add(Color(*(theme.GOOD if ok else theme.BAD)))
            group.add(Line(points=outline, width=max(2.5, s * 0.06), close=True))
        for cell, kind in self.destinations:
            x, y = self.cell_point(cell)
            if kind == "capture":
                r = s * 0.3
                group.add(Color(*theme.BAD))
                group.add(Line(circle=(x, y, r), width=max(2.5, s * 0.05)))
            elif kind == "jump":
                r = s * 0.15
                group.add(Color(*theme.GOOD))
                group.add(Line(circle=(x, y, r), width=max(2.5, s * 0.045)))
            else:
                r = max(6.0, s * 0.125)
                group.add(Color(*theme.GOOD))
                group.add(Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r)))
        for cell in self.flashed:
            group.add(Color(*theme.BAD))
            group.add(Line(points=self._flat(corners(cell)), width=max(2.5, s * 0.05), close=True))

    def _draw_pawns(self) -> None:
        group = self._pawns
        group.clear()
        state = self.state
        if state is None:
            return
        anim = self._anim or {}
        colours = seat_colours(state.players)
        if self.last is not None and self.last.target in state.pawns:
            x, y = self.cell_point(self.last.target)
            group.add(Color(1, 1, 1, 0.35))
            group.add(Line(circle=(x, y, self.scale * 0.33), width=max(1.5, self.scale * 0.025)))
        for cell, pawn in state.pawns.items():
            if cell == anim.get("origin") or cell == anim.get("victim"):
                continue
            self._pawn(group, self.cell_point(cell), pawn, colours, 1.0, 1.0)
        if self.selected is not None and self.selected in state.pawns:
            x, y = self.cell_point(self.selected)
            r = self.scale * (PAWN_RADIUS[state.pawns[self.selected].size] + 0.07)
            group.add(Color(*theme.ACCENT))
            group.add(Line(circle=(x, y, r), width=max(2.5, self.scale * 0.05)))

    def _pawn(self, group: InstructionGroup, at: tuple[float, float], pawn: Pawn,
              colours: Sequence[theme.RGBA], alpha: float, grow: float) -> None:
        x, y = at
        r = self.scale * PAWN_RADIUS[pawn.size] * grow
        group.add(Color(0, 0, 0, 0.3 * alpha))
        group.add(Ellipse(pos=(x - r * 0.92, y - r * 1.12), size=(2 * r, 2 * r)))  # shadow
        draw_pawn(group, (x, y), r, colours[pawn.owner], alpha)

    # ------------------------------------------------------------------ animation

    @property
    def animating(self) -> bool:
        return self._anim is not None

    def stop(self) -> None:
        """Drop a running animation without applying its action (a script skipped or restarted)."""
        Animation.cancel_all(self, "progress")
        self._anim = None
        self._top.clear()

    def play(self, state: State, action: Action, on_done: Callable[[], None] | None = None,
             seconds: float = 0.45, apply: Callable[[Action], None] | None = None) -> None:
        """Animate ``action`` on ``state`` as drawn now, then apply it (``apply``, default
        ``state.apply``), redraw and call ``on_done``. A placement just appears."""
        apply = apply or state.apply
        anim: dict[str, Any] = {"action": action}
        if isinstance(action, Move):
            anim.update(origin=action.origin, pawn=state.pawns[action.origin], target=action.target)
            if action.target in state.pawns:
                anim.update(victim=action.target, victim_pawn=state.pawns[action.target])
        elif isinstance(action, (Relocate, Remove)) and state.pending is not None:
            anim.update(piece=state.pending, to=action.centre if isinstance(action, Relocate) else None)
        else:
            apply(action)
            self.show(state)
            if on_done is not None:
                on_done()
            return
        self._anim = anim
        self.selected, self.destinations, self.spots, self.pending = None, [], [], None
        self._redraw()
        Animation.cancel_all(self, "progress")
        self.progress = 0.0
        run = Animation(progress=1.0, d=seconds, t="in_out_quad")

        def finished(*_args: Any) -> None:
            self._anim = None
            self._top.clear()
            apply(action)
            self.last = action if isinstance(action, Move) else self.last
            self.show(state, last=self.last)
            if on_done is not None:
                on_done()

        run.bind(on_complete=finished)
        run.start(self)

    def _draw_animation(self, *_args: Any) -> None:
        anim = self._anim
        group = self._top
        group.clear()
        if anim is None or self.state is None:
            return
        t = self.progress
        colours = seat_colours(self.state.players)
        if "piece" in anim:
            start = piece_corners(anim["piece"])
            if anim["to"] is None:
                self._piece(group, anim["piece"], (0.0, 0.0), 1.0 - t, 1.0 - 0.5 * t)
            else:
                end = piece_corners(anim["to"])
                sx, sy = sum(p[0] for p in start) / 3, sum(p[1] for p in start) / 3
                ex, ey = sum(p[0] for p in end) / 3, sum(p[1] for p in end) / 3
                flip = (start[0][1] - sy) * (end[0][1] - ey) < 0  # the piece turns over on the way
                self._piece(group, anim["piece"], ((ex - sx) * t, (ey - sy) * t), 1.0,
                            (1 - 2 * t) if flip else 1.0)
            return
        if "victim" in anim:
            self._pawn(group, self.cell_point(anim["victim"]), anim["victim_pawn"], colours,
                       1.0 - t, 1.0 + 0.6 * t)
        ox, oy = self.cell_point(anim["origin"])
        tx, ty = self.cell_point(anim["target"])
        lift = math.sin(math.pi * t) * self.scale * 0.25  # a hop: a jump looks like one
        self._pawn(group, (ox + (tx - ox) * t, oy + (ty - oy) * t + lift), anim["pawn"], colours, 1.0, 1.0)

    # ---------------------------------------------------------------------- touch

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self._touch is not None:
            return False
        touch.grab(self)
        self._touch = touch.uid
        self.dispatch("on_hover", self.cell_under(*touch.pos))
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        if self.collide_point(*touch.pos):
            self.dispatch("on_hover", self.cell_under(*touch.pos))
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self._touch = None
        self.dispatch("on_hover", None)
        if self.collide_point(*touch.pos):
            self.dispatch("on_tap", self.cell_under(*touch.pos))
        return True

    def on_tap(self, cell: Cell) -> None:
        """Event: a finger was lifted over ``cell``."""

    def on_hover(self, cell: Cell | None) -> None:
        """Event: a finger rests over ``cell`` (None: lifted)."""


def destination_kinds(state: State, origin: Cell) -> list[tuple[Cell, str]]:
    """The selected pawn's legal destinations, each marked "step", "jump" or "capture"."""
    found = []
    for move in state.moves_from(origin):
        if move.target in state.pawns:
            kind = "capture"
        elif move.is_step:
            kind = "step"
        else:
            kind = "jump"
        found.append((move.target, kind))
    return found

