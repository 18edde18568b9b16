"""Rotation puzzles: the device's own layouts are solvable (it builds them from a solution), and the
solver turns scrambled tiles back, checked by the reference rules."""

from __future__ import annotations

import random

import pytest

import tantrix_reference as ref
from engine.geometry import pyramid
from engine.solo.rotation import GREAT_PYRAMID_ROWS, HINT_LOOP, build_layout
from engine.solver import fill
from solver_check import arrangement, assert_all_edges_match


@pytest.mark.parametrize("rows", [3, 6, GREAT_PYRAMID_ROWS])
def test_built_layouts_fill_the_pyramid_with_matching_edges(rows):
    layout = build_layout(rows, random.Random(rows))
    assert sorted(p.cell for p in layout) == sorted(pyramid(rows))
    assert len({p.tile for p in layout}) == len(layout)
    assert_all_edges_match(layout)


def test_the_great_pyramid_holds_the_booklets_yellow_loop():
    layout = build_layout(GREAT_PYRAMID_ROWS, random.Random(5))
    assert len(layout) == 45
    hint_tiles = [p for p in layout if p.tile in HINT_LOOP]
    assert ref.chains(arrangement(hint_tiles), "Y") == [(3, True)]


def test_layouts_depend_on_the_seed_only():
    assert build_layout(5, random.Random(1)) == build_layout(5, random.Random(1))
    assert build_layout(5, random.Random(1)) != build_layout(5, random.Random(2))


def test_scrambled_rotations_are_solved_again():
    layout = build_layout(GREAT_PYRAMID_ROWS, random.Random(8))
    tiles = {p.cell: p.tile for p in layout}
    rng = random.Random(0)
    scrambled = {p.tile: rng.randrange(6) for p in layout}
    found = fill(tiles, tiles=tiles, prefer=scrambled)
    assert len(found) == 1
    assert {p.cell: p.tile for p in found[0]} == tiles  # only rotations change
    assert_all_edges_match(found[0])


def test_every_way_to_turn_a_layout_is_found_and_distinct():
    layout = build_layout(5, random.Random(3))
    tiles = {p.cell: p.tile for p in layout}
    every = fill(tiles, tiles=tiles, limit=None)
    assert sorted(layout) in [sorted(s) for s in every]
    assert len({tuple(sorted(s)) for s in every}) == len(every)
    for s in every:
        assert_all_edges_match(s)


def test_fill_agrees_with_brute_force_on_a_small_layout():
    cells = [(0, 0), (1, 0), (0, 1)]
    tiles = {(0, 0): 3, (1, 0): 45, (0, 1): 21}
    found = fill(cells, tiles=tiles, limit=None)
    for s in found:
        assert_all_edges_match(s)
    # every one of the 6**3 ways to turn the three tiles, checked by the reference rules
    brute = 0
    for a in range(6):
        for b in range(6):
            for c in range(6):
                position = {(0, 0): (3, a), (1, 0): (45, b), (0, 1): (21, c)}
                if all(ref.golden_ok({k: v for k, v in position.items() if k != cell}, cell, *position[cell])
                       for cell in position):
                    brute += 1
    assert len(found) == brute
