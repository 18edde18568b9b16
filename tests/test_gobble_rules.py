"""The one placement rule of Gobble and Gobbles (engine.gobble.rules), checked against the naive
reference implementation and on hand-built neighbourhoods."""

from __future__ import annotations

import random

import pytest

import tantrix_reference as ref
from engine.board import Board, Placement
from engine.geometry import neighbour, neighbours
from engine.gobble import rules
from engine.gobble.rules import Gobble
from engine.tiles import ALL_NUMBERS
from gobble_scenarios import board_of, scenario


def opening() -> Board:
    return board_of(scenario(3).placements[:2])


def test_the_opening_pair_needs_only_to_touch():
    board = Board()
    assert rules.refusal(board, Placement(5, 1, 0, 0)).rule == "contact"
    assert rules.refusal(board, Placement(5, 0, 0, 0)) is None
    board.push(Placement(5, 0, 0, 0))
    second = rules.legal_placements(board, [9])
    assert second and all(board.neighbour_count(p.cell) == 1 for p in second)
    assert rules.refusal(board, second[0]) is None


def test_after_the_opening_a_tile_must_touch_two_tiles():
    board = opening()
    unused = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
    lonely = next(
        Placement(t, *c, rot)
        for c in board.frontier() if board.neighbour_count(c) == 1
        for t in unused for rot in board.fits(t, c)
    )
    assert board.check(lonely, restricted=False) is None  # fine by the board's own rules...
    refused = rules.refusal(board, lonely)
    assert refused.rule == rules.GobbleRule.TWO_NEIGHBOURS and refused.cells == (lonely.cell,)
    good = rules.legal_placements(board, unused)
    assert good and all(board.neighbour_count(p.cell) == 2 for p in good)
    assert all(rules.refusal(board, p) is None for p in good)


def test_a_mismatch_is_refused_by_the_golden_rule():
    board = opening()
    cell = next(c for c in board.frontier() if board.neighbour_count(c) == 2)
    unused = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
    wrong = next(Placement(t, *cell, rot) for t in unused for rot in range(6) if rot not in board.fits(t, cell))
    refused = rules.refusal(board, wrong)
    assert refused.rule == "golden-rule"
    assert refused.cells[0] == cell and set(refused.cells[1:]) <= set(neighbours(cell))


def test_a_bad_tile_or_a_full_space_is_named_before_the_neighbour_count():
    board = opening()
    first = board.placements()[0]
    assert rules.refusal(board, Placement(first.tile, 5, 5, 0)).rule == "tile-already-placed"
    unused = next(t for t in ALL_NUMBERS if t not in board.placed_tiles())
    assert rules.refusal(board, Placement(unused, first.q, first.r, 0)).rule == "occupied"
    assert rules.refusal(board, Placement(57, 5, 5, 0)).rule == "no-such-tile"


@pytest.mark.parametrize("count, earned", [(1, Gobble.NONE), (2, Gobble.NONE), (3, Gobble.GOBBLE),
                                           (4, Gobble.DOUBLE), (5, Gobble.DOUBLE), (6, Gobble.DOUBLE)])
def test_filling_earns_by_neighbour_count(count, earned):
    board = Board()
    for d in range(count):  # geometry only: push does not check colours
        board.push(Placement(d + 1, *neighbour((0, 0), d), 0))
    assert rules.gobble_of(board, (0, 0)) is earned
    assert int(earned) == min(max(count - 2, 0), 2)


def test_legal_placements_agree_with_the_reference_and_the_refusals():
    rng = random.Random(11)
    for _ in range(6):
        tiles = list(ALL_NUMBERS)
        rng.shuffle(tiles)
        board = Board()
        for t in tiles[:rng.randrange(2, 25)]:
            options = rules.legal_placements(board, [t])
            if options:
                board.push(rng.choice(options))
        pos = {p.cell: (p.tile, p.rot) for p in board.placements()}
        hand = [t for t in tiles if t not in board.placed_tiles()][:12]
        counts = ref.neighbour_counts(set(pos))
        expected = {m for m in ref.legal_placements(pos, hand, restricted=False) if counts[(m[1], m[2])] >= 2}
        found = rules.legal_placements(board, hand)
        assert {tuple(p) for p in found} == expected
        for cell in rng.sample(board.frontier(), 5):
            for t in hand[:4]:
                for rot in range(6):
                    p = Placement(t, *cell, rot)
                    assert (rules.refusal(board, p) is None) == (tuple(p) in expected)
