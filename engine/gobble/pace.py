"""How long a person needs to place a Gobbles tile: the reaction model that paces the robots (each
level plays like a kind of player) and the benchmark's scripted first-time player
(``bench/gobbles_human.py``), so that a robot's speed means something next to a person's.

A placement takes *search + decision + movement*, each a right-skewed (log-normal) duration, as
reaction times are:

* **search**: the player compares (hand tile, space) pairs in no particular order until they
  recognise one that fits (a serial, self-terminating search: Treisman & Gelade 1980, Wolfe 1998).
  One comparison asks whether the 2 or 3 colours at a space's sides appear, turned the right way,
  on a tile: the judgement of a turned shape, 0.5 s upright to 1 s turned half round in Cooper &
  Shepard (1973). A fitting pair is overlooked with some chance. A tile the table outlines in amber
  (it fits an amber forced space) is tried first: one comparison. After ``patience`` comparisons
  without a find the player looks up and starts again (the table may have changed meanwhile).
* **decision**: picking the tile up, a few cognitive cycles of the Model Human Processor (Card,
  Moran & Newell 1983: 70 ms each, on top of 100 ms to perceive and 70 ms to start moving).
* **movement**: pointing at the tile, then dragging it to the space: two Fitts' law tasks in a
  row (MacKenzie & Buxton 1994). The robots use a fixed median here; the benchmark works it out
  from the distance and the size of the tiles on screen (:func:`fitts_ms`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import NamedTuple

from . import rules
from .gobbles import Gobbles

SPREAD = 0.35
"""Log-normal sigma of every duration: reaction times are skewed to the slow side, with a spread
of about a third of their median (Luce 1986, "Response Times")."""


@dataclass(frozen=True, slots=True)
class Pace:
    """A kind of player's speed: medians in milliseconds."""

    compare_ms: float
    """One (tile, space) comparison."""
    overlook: float
    """Chance of judging a fitting pair as not fitting."""
    decide_ms: float
    move_ms: float
    """Pointing at the tile and dragging it onto its space."""
    patience: int = 40
    """Comparisons before starting afresh."""


class Search(NamedTuple):
    """What a search took, and whether it found a pair that fits."""

    ms: int
    found: bool


class Sight(NamedTuple):
    """A player's view of the table: (tile, space) pairs to compare, how many fit, and how many of
    those fit a forced space with a tile the table marks."""

    pairs: int
    fits: int
    marked: int


def sight(game: Gobbles, seat: int) -> Sight:
    """What ``seat`` has to search through now."""
    board = game.board
    spaces = [c for c in board.frontier() if board.neighbour_count(c) >= rules.needed_neighbours(board)]
    fitting = {(p.tile, p.cell) for p in game.legal_placements(seat)}
    marked = sum(1 for _tile, cell in fitting if board.neighbour_count(cell) >= 3)
    return Sight(len(spaces) * len(game.hands[seat]), len(fitting), marked)


def duration(median_ms: float, rng: random.Random) -> float:
    """A log-normal duration with this median."""
    return median_ms * math.exp(rng.gauss(0.0, SPREAD))


def search(pace: Pace, view: Sight, rng: random.Random) -> Search:
    """One search through ``view`` (pairs in random order, without repeats)."""
    if view.marked:
        return Search(round(duration(pace.compare_ms, rng)), True)
    spent, good, left = 0.0, view.fits, view.pairs
    for _ in range(min(view.pairs, pace.patience)):
        spent += duration(pace.compare_ms, rng)
        if rng.random() * left < good:
            if rng.random() >= pace.overlook:
                return Search(round(spent), True)
            good -= 1
        left -= 1
    return Search(round(max(spent, pace.compare_ms)), False)


def fitts_ms(distance: float, width: float, intercept_ms: float, bits_per_s: float) -> float:
    """Fitts' law (Shannon form): movement time over ``distance`` to a target ``width`` wide."""
    return intercept_ms + 1000 * math.log2(distance / width + 1) / bits_per_s
