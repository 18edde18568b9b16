"""Positions for the Gobble tests, found by a seeded search rather than typed in by hand.

``scenario(n)`` builds, from a random opening pair, a sequence of placements that each fill a space
with exactly two neighbours (so they earn nothing) until some unused tile can legally fill a space
with ``n`` neighbours. The search is deterministic: the same ``n`` always gives the same scenario.
"""

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

from engine.board import Board, Placement
from engine.geometry import neighbours
from engine.gobble import rules
from engine.tiles import ALL_NUMBERS


class Scenario(NamedTuple):
    placements: tuple[Placement, ...]  # the opening pair first, then quiet placements
    fill: Placement  # legally fills a space with the asked number of neighbours
    unused: tuple[int, ...]  # tiles neither placed nor the filler


def board_of(placements: tuple[Placement, ...]) -> Board:
    board = Board()
    for p in placements:
        board.push(p)
    return board


@cache
def scenario(neighbour_count: int, quiet_before: int = 0) -> Scenario:
    """At least ``quiet_before`` quiet placements after the opening, then a fill of a space with
    ``neighbour_count`` neighbours."""
    for seed in range(1000):
        found = _attempt(neighbour_count, quiet_before, random.Random(seed))
        if found is not None:
            return found
    raise AssertionError(f"no scenario with a {neighbour_count}-neighbour fill")


def _attempt(n: int, quiet_before: int, rng: random.Random) -> Scenario | None:
    tiles = list(ALL_NUMBERS)
    rng.shuffle(tiles)
    board = Board()
    board.push(Placement(tiles.pop(), 0, 0, rng.randrange(6)))
    board.push(rng.choice(rules.legal_placements(board, [tiles.pop()])))
    for _ in range(30):
        if len(board) >= 2 + quiet_before:
            fills = [p for p in rules.legal_placements(board, tiles) if board.neighbour_count(p.cell) == n]
            if fills:
                fill = fills[0]
                return Scenario(tuple(board.placements()), fill, tuple(t for t in tiles if t != fill.tile))
        quiet = [p for p in rules.legal_placements(board, tiles) if board.neighbour_count(p.cell) == 2]
        if not quiet:
            return None
        # aim at crowding one space: prefer cells next to the most crowded empty space
        def crowd(p: Placement) -> int:
            return max((board.neighbour_count(c) for c in neighbours(p.cell) if c not in board), default=0)
        best = max(map(crowd, quiet))
        p = rng.choice([p for p in quiet if crowd(p) == best])
        board.push(p)
        tiles.remove(p.tile)
    return None


def misfits(board: Board, tiles: tuple[int, ...] | list[int], after: tuple[Placement, ...] = ()) -> list[int]:
    """The tiles of ``tiles`` with no legal place on ``board``, nor after ``after`` is placed."""
    later = board.copy()
    for p in after:
        later.push(p)
    return [t for t in tiles if not rules.legal_placements(board, [t]) and not rules.legal_placements(later, [t])]
