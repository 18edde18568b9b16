"""Random legal play: the building block of benchmarks, property tests and Monte Carlo robots.

A playout takes tiles in a given order and puts each on a random legal placement, into a forced
space whenever the tile fits one (as the strategy game obliges), with the restrictions on while
tiles remain to be drawn after it. A tile with no legal placement is set aside.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..board import Board, Placement
from ..tiles import ALL_NUMBERS


def random_placement(board: Board, tile: int, rng: random.Random) -> Placement | None:
    """A uniformly random legal placement of ``tile``, in a forced space when it legally fits one;
    None when it has no legal placement.

    Candidates that keep the golden rule are tried in random order and the first legal one is
    taken: uniform over the legal ones, but restrictions are checked only until one passes. Forced
    spaces are tried first, so the whole frontier is listed only when they take nothing.
    """
    forced = [s.cell for s in board.forced_spaces()]
    for cells in (forced, None):
        fitting = board.legal_placements((tile,), cells, restricted=False)
        rng.shuffle(fitting)
        for p in fitting:
            if (cells is not None or not board.is_forced(p.cell)) and board.is_legal(p):
                return p
    return None


def playout(
    rng: random.Random,
    order: Sequence[int] | None = None,
    stop_after: int | None = None,
    board: Board | None = None,
) -> Board:
    """Place the tiles of ``order`` (default: all 56 shuffled) one by one at random legal spots.

    ``board.bag`` counts the tiles of ``order`` not yet taken, so the restrictions lift for the
    last one. Stops once ``stop_after`` tiles are on the board.
    """
    board = board if board is not None else Board()
    if order is None:
        order = list(ALL_NUMBERS)
        rng.shuffle(order)
    for i, tile in enumerate(order):
        if stop_after is not None and len(board) >= stop_after:
            break
        board.bag = len(order) - i - 1
        placement = random_placement(board, tile, rng)
        if placement is not None:
            board.push(placement)
    return board
