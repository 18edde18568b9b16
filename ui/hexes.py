"""Screen geometry of the hexagonal board: where a cell is drawn and which cell is under a point.

Pointy-top hexagons as in rules.md: direction 0 is east and directions turn clockwise *on screen*.
Kivy's y axis points up while the engine's ``r`` grows downwards, so ``r`` is negated here; this is
the one place that conversion happens. ``size`` is a hexagon's circumradius (centre to corner).
"""

from __future__ import annotations

import math

from engine.geometry import Cell

SQRT3 = math.sqrt(3.0)


def centre(cell: Cell, size: float) -> tuple[float, float]:
    """The centre of ``cell`` in board units (y up), the origin cell at (0, 0)."""
    q, r = cell
    return size * SQRT3 * (q + r / 2.0), -size * 1.5 * r


def cell_at(x: float, y: float, size: float) -> Cell:
    """The cell whose hexagon contains the point (x, y) (board units, y up)."""
    r = -y / (1.5 * size)
    q = x / (SQRT3 * size) - r / 2.0
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def corners(cx: float, cy: float, size: float, turn_degrees: float = 0.0) -> list[float]:
    """The six corners of a pointy-top hexagon (turned ``turn_degrees`` counter-clockwise) as a
    flat [x0, y0, x1, y1, ...] list."""
    points: list[float] = []
    for i in range(6):
        a = math.radians(90 - 60 * i + turn_degrees)
        points += [cx + size * math.cos(a), cy + size * math.sin(a)]
    return points


def rotated_quad(cx: float, cy: float, half: float, rot: float, extra_degrees: float = 0.0) -> list[float]:
    """Corners of a square of half-width ``half`` centred on (cx, cy), turned ``rot`` sixths of a
    turn clockwise (plus ``extra_degrees`` counter-clockwise), in the order (bottom-left,
    bottom-right, top-right, top-left) of the unturned square: a textured Quad with these points
    shows the texture turned like a placed tile."""
    a = math.radians(-60 * rot + extra_degrees)
    c, s = math.cos(a), math.sin(a)
    points: list[float] = []
    for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half)):
        points += [cx + dx * c - dy * s, cy + dx * s + dy * c]
    return points


def extent(turn_degrees: float) -> tuple[float, float]:
    """Width and height, in circumradii, of a pointy-top hexagon turned ``turn_degrees``."""
    points = corners(0.0, 0.0, 1.0, turn_degrees)
    xs, ys = points[0::2], points[1::2]
    return max(xs) - min(xs), max(ys) - min(ys)
