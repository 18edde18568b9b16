"""The triangular lattice: cells, touching, pieces, and the plane coordinates a screen draws with."""

from __future__ import annotations

import math
import random

import pytest

from engine.tanagra.lattice import (
    FIRST_CENTRES,
    cell_at,
    cell_vertices,
    centroid,
    corners,
    is_cell,
    neighbours,
    piece_cells,
    piece_corners,
    piece_points_up,
    point,
    points_up,
    touching_cells,
)


def random_cells(n: int, seed: int = 1) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    cells = []
    for _ in range(n):
        a, b = rng.randint(-30, 30), rng.randint(-30, 30)
        cells.append((a, b, rng.choice((1, 2)) - a - b))
    return cells


def rounded(points):
    return {(round(x, 9), round(y, 9)) for x, y in points}


def test_cells_are_triples_summing_to_one_or_two():
    assert is_cell((0, 0, 1)) and is_cell((1, 1, 0))
    assert not is_cell((0, 0, 0)) and not is_cell((1, 1, 1))
    assert not is_cell((0, 1)) and not is_cell([0, 0, 1]) and not is_cell((0.0, 0, 1))
    assert not is_cell((True, 0, 0))


def test_touching_cells_share_exactly_one_side():
    for cell in random_cells(300):
        mine = rounded(corners(cell))
        for n in neighbours(cell):
            assert points_up(n) != points_up(cell)
            assert len(mine & rounded(corners(n))) == 2
            assert cell in neighbours(n)


def test_up_cells_have_their_apex_on_top_and_unit_sides():
    for cell in random_cells(200):
        pts = corners(cell)
        ys = sorted(y for _, y in pts)
        if points_up(cell):
            assert ys[0] < ys[1] and ys[1] == pytest.approx(ys[2])  # y grows down: apex least y
        else:
            assert ys[0] == pytest.approx(ys[1]) and ys[1] < ys[2]
        for i in range(3):
            assert math.dist(pts[i], pts[(i + 1) % 3]) == pytest.approx(1.0)


def test_lattice_points_have_zero_sum_and_map_to_the_documented_plane():
    assert all(sum(v) == 0 for v in cell_vertices((3, -1, 0)))
    assert point((1, -1, 0)) == (1.0, 0.0)
    assert point((1, 0, -1)) == pytest.approx((0.5, math.sqrt(3) / 2))


def test_cell_at_inverts_drawing_even_near_sides():
    for cell in random_cells(500, seed=2):
        assert cell_at(*centroid(cell)) == cell
        # points close to each corner, pulled slightly towards the middle, still land inside
        cx, cy = centroid(cell)
        for x, y in corners(cell):
            assert cell_at(x + (cx - x) * 0.02, y + (cy - y) * 0.02) == cell
    # a point exactly on a side goes to one of the two cells sharing it
    left, right = (1, 0, 1), (1, 0, 0)
    (x0, y0), (x1, y1) = sorted(rounded(corners(left)) & rounded(corners(right)))
    assert cell_at((x0 + x1) / 2, (y0 + y1) / 2) in (left, right)


def test_a_piece_is_a_centre_and_its_three_neighbours_forming_a_size_two_triangle():
    for centre in random_cells(100, seed=3):
        cells = piece_cells(centre)
        assert cells[0] == centre and set(cells[1:]) == set(neighbours(centre))
        assert all(points_up(c) == piece_points_up(centre) for c in cells[1:])
        outline = piece_corners(centre)
        for i in range(3):
            assert math.dist(outline[i], outline[(i + 1) % 3]) == pytest.approx(2.0)
        # the four cells tile the outline: their centroids lie inside and their areas add up
        ox = sum(x for x, _ in outline) / 3
        oy = sum(y for _, y in outline) / 3
        assert centroid(centre) == pytest.approx((ox, oy))
        assert len(rounded(p for c in cells for p in corners(c))) == 6  # 3 outer + 3 midpoints


def test_first_centres_are_the_up_and_down_pieces_on_the_x_axis():
    up, down = FIRST_CENTRES
    assert piece_points_up(up) and not piece_points_up(down)
    assert rounded(piece_corners(up)) == rounded([(-1, 0), (1, 0), (0, -math.sqrt(3))])
    assert rounded(piece_corners(down)) == rounded([(-1, 0), (1, 0), (0, math.sqrt(3))])


def test_touching_cells_of_a_piece_are_its_outside_border():
    border = touching_cells(piece_cells((0, 0, 1)))
    assert len(border) == 6  # two cells along each side of a size-2 triangle
    assert not border & set(piece_cells((0, 0, 1)))
