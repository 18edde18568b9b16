"""The triangular lattice Tanagra is played on: unit triangle cells and size-2 triangle pieces.

Coordinates
-----------
A cell is a unit triangle written as three integers ``(a, b, c)`` whose sum is 1 or 2:

* ``a + b + c == 2``: the cell points **up** on screen (apex at the top);
* ``a + b + c == 1``: the cell points **down**.

Each coordinate counts one of the three families of lattice lines, so two cells share a side exactly
when they differ by one in a single coordinate: an up cell's three side neighbours are
``(a-1, b, c)``, ``(a, b-1, c)``, ``(a, b, c-1)``; a down cell's are ``(a+1, b, c)``,
``(a, b+1, c)``, ``(a, b, c+1)``. Sharing only a corner is not touching.

A **piece** (one of the 24 triangles of the box) covers a size-2 triangle: a centre cell and its
three side neighbours, the corner cells. So a piece is named by its centre cell alone, it covers
exactly ``piece_cells(centre)``, and it points the other way from its centre (a down centre makes an
up piece). Every cell is the centre of exactly one possible piece.

Plane coordinates (for drawing)
-------------------------------
Sides are 1 long, ``x`` grows to the right and ``y`` grows **downwards** (screen convention, as in
the Tantrix geometry). A lattice point ``(i, j, k)`` with ``i + j + k == 0`` lies at
``x = (i - j) / 2``, ``y = (i + j) * sqrt(3) / 2``. The cell ``(a, b, c)`` is the set of points
whose continuous coordinates ``alpha = x + y / sqrt(3)``, ``beta = -x + y / sqrt(3)``,
``gamma = -2 y / sqrt(3)`` round up to ``(a, b, c)``; :func:`cell_at` inverts the drawing for touch
input. The first piece of a game goes in the middle, on one of :data:`FIRST_CENTRES`: the up piece
standing on the x axis above the origin, or the down piece hanging below it.
"""

from __future__ import annotations

import math
from typing import Iterable

Cell = tuple[int, int, int]
"""A unit triangle ``(a, b, c)`` with ``a + b + c`` equal to 1 (points down) or 2 (points up)."""

Point = tuple[float, float]
"""A point in the plane: ``(x, y)``, sides 1 long, ``y`` growing downwards."""

FIRST_CENTRES: tuple[Cell, Cell] = ((0, 0, 1), (1, 1, 0))
"""Where the first piece may go: the up piece above the origin, or the down piece below it."""

_ROOT3 = math.sqrt(3.0)


def is_cell(cell: object) -> bool:
    """Whether ``cell`` is a well-formed cell: three ints summing to 1 or 2."""
    return (
        isinstance(cell, tuple)
        and len(cell) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        and sum(cell) in (1, 2)
    )


def points_up(cell: Cell) -> bool:
    """Whether the unit triangle ``cell`` points up on screen."""
    return cell[0] + cell[1] + cell[2] == 2


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing a side with ``cell``."""
    a, b, c = cell
    d = -1 if a + b + c == 2 else 1
    return ((a + d, b, c), (a, b + d, c), (a, b, c + d))


def piece_cells(centre: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells a piece covers: its centre first, then its three corner cells.

    Read the other way round, the same four cells are the centres of the four pieces that would
    cover ``centre``: a cell is covered by the piece centred on it or on one of its neighbours.
    """
    n0, n1, n2 = neighbours(centre)
    return (centre, n0, n1, n2)


def piece_points_up(centre: Cell) -> bool:
    """Whether the piece with this centre points up on screen (its centre then points down)."""
    return not points_up(centre)


def touching_cells(cells: Iterable[Cell]) -> set[Cell]:
    """Cells outside ``cells`` that share a side with one of them."""
    inside = set(cells)
    return {n for cell in inside for n in neighbours(cell) if n not in inside}


# ------------------------------------------------------------------------------ plane geometry


def point(vertex: Cell) -> Point:
    """Plane position of the lattice point ``(i, j, k)`` (``i + j + k == 0``)."""
    i, j, _ = vertex
    return ((i - j) / 2.0, (i + j) * _ROOT3 / 2.0)


def cell_vertices(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three lattice points at the corners of ``cell``."""
    a, b, c = cell
    if a + b + c == 2:
        return ((a - 1, b - 1, c), (a - 1, b, c - 1), (a, b - 1, c - 1))
    return ((a, b, c - 1), (a, b - 1, c), (a - 1, b, c))


def corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The corners of the unit triangle ``cell`` in plane coordinates, for drawing it."""
    v0, v1, v2 = cell_vertices(cell)
    return (point(v0), point(v1), point(v2))


def centroid(cell: Cell) -> Point:
    """The middle of the unit triangle ``cell`` (where a pawn is drawn)."""
    (x0, y0), (x1, y1), (x2, y2) = corners(cell)
    return ((x0 + x1 + x2) / 3.0, (y0 + y1 + y2) / 3.0)


def piece_corners(centre: Cell) -> tuple[Point, Point, Point]:
    """The three corners of the piece with this centre, in plane coordinates (its outline)."""
    inner = set(cell_vertices(centre))
    outer = []
    for corner_cell in neighbours(centre):
        (vertex,) = (v for v in cell_vertices(corner_cell) if v not in inner)
        outer.append(point(vertex))
    return (outer[0], outer[1], outer[2])


def cell_at(x: float, y: float) -> Cell:
    """The cell containing the plane point ``(x, y)`` (a point on a side goes to either cell)."""
    values = (x + y / _ROOT3, -x + y / _ROOT3, -2.0 * y / _ROOT3)
    cell = [math.floor(v) + 1 for v in values]
    if sum(cell) == 3:  # on a lattice line: that coordinate's floor + 1 overshot by one
        i = min(range(3), key=lambda n: values[n] - math.floor(values[n]))
        cell[i] -= 1
    return (cell[0], cell[1], cell[2])

