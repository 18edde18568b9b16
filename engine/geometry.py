"""Hexagonal geometry exactly as rules.md section 2 fixes it.

Pointy-top hexagons in axial coordinates ``(q, r)`` with ``r`` growing downwards on screen.
Directions run clockwise from east: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE. A tile placed with rotation
``k`` shows its edge ``i`` towards direction ``(i + k) % 6``.

The board packs a cell into one int (``key``) because int hashing and adding a constant per
direction are several times faster in CPython than building and hashing tuples; only the board and
its close helpers see keys, everything public speaks ``Cell`` tuples.
"""

from __future__ import annotations

from typing import Iterator

Cell = tuple[int, int]
"""An axial coordinate ``(q, r)``."""

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

LIMIT = 1 << 14
"""Coordinates must lie strictly inside ``(-LIMIT, LIMIT)`` so that keys stay unambiguous."""

_SHIFT = 16
_OFFSET = 1 << 15
STEP: tuple[int, ...] = tuple((dq << _SHIFT) + dr for dq, dr in DIRECTIONS)
"""``key(neighbour(c, d)) == key(c) + STEP[d]``."""


def opposite(direction: int) -> int:
    """The direction pointing back: a neighbour across ``d`` touches with its side ``(d + 3) % 6``."""
    return (direction + 3) % 6


def neighbour(cell: Cell, direction: int) -> Cell:
    dq, dr = DIRECTIONS[direction]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Cell) -> Iterator[Cell]:
    """The six adjacent cells, in direction order 0..5."""
    q, r = cell
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def in_range(cell: Cell) -> bool:
    return -LIMIT < cell[0] < LIMIT and -LIMIT < cell[1] < LIMIT


def key(cell: Cell) -> int:
    return ((cell[0] + _OFFSET) << _SHIFT) + cell[1] + _OFFSET


def unkey(k: int) -> Cell:
    return ((k >> _SHIFT) - _OFFSET, (k & 0xFFFF) - _OFFSET)


def pyramid(rows: int) -> list[Cell]:
    """The cells of a pyramid of ``rows`` rows: row r holds the r + 1 cells q = -r..0."""
    return [(q, r) for r in range(rows) for q in range(-r, 1)]


def rotate_cell(cell: Cell, steps: int) -> Cell:
    """``cell`` turned ``steps`` sixths of a turn clockwise about the origin."""
    q, r = cell
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)
