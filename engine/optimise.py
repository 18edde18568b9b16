"""Anytime optimiser for the Four lines and Four loops puzzles (see :mod:`engine.four`).

Why a beam search, and what it ranks by
---------------------------------------
Every valid face with three colours on two edges each is a tile, except the eight "three straight
links" faces: the 56 tiles are *all* the others, each once. That makes compact arrangements
extremely rigid: in a finished arrangement no small group of tiles (up to 25-30 cells) can be
rearranged in place, so local search and "remove a region and refill it" find nothing, while
penalty methods that allow mismatches or repeated faces reach high scores but never repair the
last few faults. So the optimiser *builds* arrangements, cell by cell, and keeps the best few
thousand partial arrangements at each step (a beam search), ranking them by a lower bound on the
score they must lose.

What is lost is easy to count. Every chain of a colour ends on two edges facing an empty space, so
an arrangement with ``E`` such edges has ``E / 2`` chains; all but the longest of each colour are
waste, so Four lines scores at most ``168 - (E / 2 - 4)`` (168 = 4 colours x 42 tiles). The most
compact 56-tile shape has ``E = 52``, giving 146: exactly the booklet's computed best. Beyond that,
every tile of a wasted chain past its first is lost, and so is every loop. While building, a chain
whose both ends are already fixed is final, and of the chains with one end fixed at most two per
colour can still become that colour's longest line; everything else they hold is certainly lost.
That bound (plus half the fixed ends, and a small bonus for long chains still growing) ranks the
beam; for Four loops every open chain is waste and only each colour's longest loop counts, and
the rank adds a penalty for each tile on the rim that does not turn its chains straight back
(:data:`_RIM_FAULT`), which the bound alone sees too late.

Where the tiles go
------------------
Each goal has its region (``_SCANS``), filled row by row; each new tile must touch an earlier
one, so the arrangement is always in one piece, and the last ``_EXHAUSTIVE`` cells are completed
by an exhaustive search from each surviving state.

Four lines works in the 61 cells of a radius-4 hexagon, the most compact shape. Its last rows may
be left empty (``skip_from``): an exact fill of such a shape with exactly the 56 tiles often
dead-ends in its last cells, while a little slack lets the beam finish and choose the bottom edge.

Four loops counts every chain as waste, so what matters is how many tiles the boundary forces onto
chains. A boundary cell with two edges facing out side by side can turn a chain straight back
(a sharp curve): a one-tile chain. A corner cell of a hexagonal shape has three: the odd one starts
a chain that crosses the table to another odd edge, several tiles each, and a hexagon has six such
corners. A triangle's corner cells have four (two sharp curves) and its side cells two: no odd edge
at all. So Four loops works in a triangle of side 10 (55 cells, 60 edges facing out) with the 56th
tile beside the middle of one side: 62 edges, 31 chains, a score of at most about 136, the
booklet's "believed possible". The triangle is filled exactly, from its long side to its point, so
the open chains close as the rows shrink. Measured in 10 minutes from scratch (seed 1, both
cores, with the polish): the hexagon gave 124, the triangle 127; and CP-SAT's polish is far
stronger in the exact triangle (one beam answer went from 112 to 126 in 25 s).

:func:`optimise` runs beams of growing width with fresh random tie-breaks, reporting each
improvement: anytime, cancellable, and always holding a valid answer (a quick greedy arrangement,
or the caller's ``start``, before the first beam ends). The last part of its time goes to
:func:`engine.polish.polish`, a constraint solver that improves the best answer by changing
tiles scattered over the whole table at once, which rebuilding corners cannot do. With
``workers`` it runs that many independent searches (different seeds) in parallel processes and
keeps the best: the outcome of one search varies a lot with its tie-breaks (for Four loops, fresh
beams of width 300 end anywhere between 37 and 90, mostly because one colour's long chain fails to
close into a loop at the last rows), so more independent draws are worth as much as more time.
For the same reason a Four loops search runs as independent rounds, each a beam search and then
the polish, each ended when it stalls (``_STALL``).
"""

from __future__ import annotations

import argparse
import heapq
import math
import multiprocessing
import os
import queue
import random
import time
import traceback
from operator import itemgetter
from typing import Any, Callable, Sequence

from .board import Board, Placement
from .four import GOALS, Goal, best_known, colour_scores, incomplete, puzzle_score
from .geometry import DIRECTIONS, Cell, neighbour, opposite, rotate_cell
from .solver.control import Control, Flag, Patience
from .tiles import ALL_NUMBERS, COLOURS, FACES

try:  # OR-Tools publishes no wheels for 32-bit ARM: there the beam search works alone
    from .polish import polish
except ImportError:  # pragma: no cover - only on 32-bit Raspberry Pi OS
    polish = None  # type: ignore[assignment]

__all__ = ["Goal", "optimise", "best_known", "beam_search", "greedy_arrangement", "solve_command"]

Progress = Callable[[int, Board], None]

class _Scan:
    """A region of cells in the order the search decides them, with each cell's neighbours (as
    indices in that order, -1 outside) and the directions towards cells decided before it. Cells
    from ``skip_from`` on may be left empty. ``turns``: the turns (in sixths) that map the region
    onto itself, up to a shift, so that a rebuild can keep any of its sides. ``rim``: for each cell
    of ``body`` on its edge whose edges facing out lie side by side in one or two pairs, the pair of
    edges a tile must link there to turn every chain reaching that side straight back (the two
    edges facing out, or for a corner with four the two facing in); see :data:`_RIM_FAULT`.
    ``ahead``: for each cell, the rim cells after it that touch a cell decided by then, each as (rim
    cell, the directions from it to those decided cells, which of them points at this cell or -1,
    the direction from this cell to the rim cell, its pair), so that the beam sees a rim fault
    coming as soon as the tiles around the rim cell make it certain."""

    def __init__(self, cells: list[Cell], skip_from: int, turns: tuple[int, ...], body: Sequence[Cell] = ()) -> None:
        self.cells = tuple(cells)
        index = {c: i for i, c in enumerate(cells)}
        self.nb = tuple(tuple(index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in cells)
        self.earlier = tuple(tuple(d for d in range(6) if 0 <= self.nb[i][d] < i) for i in range(len(cells)))
        self.skip_from = skip_from
        self.turns = turns
        self.rim: dict[int, tuple[int, int]] = {}
        inside = set(body)
        for cell in body:
            out = [d for d in range(6) if neighbour(cell, d) not in inside]
            pair = out if len(out) == 2 else [d for d in range(6) if d not in out] if len(out) == 4 else []
            if len(pair) == 2 and (pair[1] - pair[0]) % 6 in (1, 5):
                self.rim[index[cell]] = (pair[0], pair[1])
        ahead: list[list[tuple[int, tuple[int, ...], int, int, tuple[int, int]]]] = [[] for _ in cells]
        for j, rim_pair in self.rim.items():
            if self.earlier[j]:
                for i in range(min(self.nb[j][d] for d in self.earlier[j]), j):
                    dirs = tuple(d for d in self.earlier[j] if self.nb[j][d] <= i)
                    at = next((k for k, d in enumerate(dirs) if self.nb[j][d] == i), -1)
                    ahead[i].append((j, dirs, at, opposite(dirs[at]) if at >= 0 else -1, rim_pair))
        self.ahead = tuple(tuple(found) for found in ahead)


def _rows(cells: list[Cell]) -> list[Cell]:
    return sorted(cells, key=lambda c: (c[1], c[0]))


_RADIUS = 4
_HEXAGON = _Scan(
    _rows([(q, r) for q in range(-_RADIUS, _RADIUS + 1) for r in range(-_RADIUS, _RADIUS + 1) if abs(q + r) <= _RADIUS]),
    45, (0, 1, 2, 3, 4, 5),
)
"""Four lines: the 61 cells of a radius-4 hexagon row by row, top to bottom; the last 16 cells (the
bottom two rows and the end of the third) may stay empty."""
_SIDE = 10  # even, so that each side has a middle pair of cells for the 56th tile to touch
_HALF = _SIDE // 2
_TRIANGLE_CELLS = _rows([(q, r) for r in range(_SIDE) for q in range(_SIDE - r)])
_TRIANGLE = _Scan(_TRIANGLE_CELLS + [(_HALF, -1), (_HALF, _HALF), (-1, _HALF)], len(_TRIANGLE_CELLS), (0, 2, 4),
                  _TRIANGLE_CELLS)
"""Four loops: a triangle of side 10 pointing down (rows of 10, 9, ... 1 cells, 55 in all), row by
row, then three cells, one beside the middle of each side, of which the 56th tile takes one. Its
rim is the 27 cells on the triangle's sides."""
_SCANS: dict[Goal, _Scan] = {"lines": _HEXAGON, "loops": _TRIANGLE}
_OPP = tuple(opposite(d) for d in range(6))
_EXHAUSTIVE = 8
"""The last cells, completed exhaustively from every state the beam keeps."""
_GAMMA = {"lines": 0.1, "loops": 0.0}
"""Lines: weight of the bonus for each colour's longest chain still growing (measured: 0.1 beats 0
and 0.2 or more). Loops: none; :func:`_loops_bound` ranks by the certain waste alone. (It once
added this weight for each extra chain open at both ends and for each of their tiles: 0.5 beat 0,
0.3 and 1 in the hexagon. In the triangle, with the rim penalty, it holds the beam back: rebuild
cycles (a fresh beam, then rebuilds until the patience runs out, one process, 10 minutes, two
seeds each) ended at 119.4 on average with 0.5 (80 cycles), 120.0 with 0.2, 121.9 with 0.1 and
121.8 with 0 (about 40 cycles each), and at 127 or more 0.08 times a minute with 0.5 against 0.31
to 0.41 with 0.1 or 0; fresh beams of width 300, seeds 1000-1099, 0.5 to 0: 101.0, 103.1 (0.25),
106.5, 105.3. A bonus for the longest chain hurts.)"""
_START_WIDTHS = (30, 300)
"""Widths of the first beam searches, from scratch: a narrow one gives a fair answer within a
second or two, then a wider one a good one."""
_REBUILD: dict[Goal, tuple[int, int, int]] = {"lines": (400, 15, 800), "loops": (800, 8, 1600)}
"""(first width, patience, widest) of the rebuilding beams: the width doubles after ``patience``
rebuilds without gain, and after ``patience`` more at the widest the search starts again from
scratch, keeping its best. Measured in 10 minutes from scratch, two runs side by side: lines seeds
1 and 2: (400, 15, 800) 136 and 141; (400, 10, 400) 136 and 135; seed 1 without restarts 137.
Loops, measured in the hexagon it used before the triangle: a rebuild took about 3 s (in the
triangle about 1 s) and nearly all gains came in a cycle's first few rebuilds, so a long patience
mostly waits; one search process for 6 minutes, seeds 1 and 3: patience 40 gave 102 and 117,
patience 8 117 and 119, patience 4 116 and 118 (width 400 instead of 800 at patience 40: no
better). In the triangle a round's beam search phase (stall 30 s, one process, seeds 21-26) gave
119.7 on average with (800, 8, 1600), 117.0 with (400, 8, 1600) and 114.2 with (1600, 8, 3200);
phases that end 102-128 from the same settings make that noise more than a trend."""
_RIM_FAULT = 3.0
"""Four loops: added to a partial arrangement's rank for each rim cell (see :class:`_Scan`) whose tile
does not turn the chains at that side straight back (a *fault*). The bound counts a chain reaching
the rim as lost only tile by tile as it grows, so it sees a fault as costing one or two tiles, while
the two chains a fault starts must travel to another fault to end: several tiles each, and the
longer chains block the loops. The penalty steers the beam to a clean rim, on which every chain
but the one-tile turns is a loop. Measured from scratch, seeds 1-8, one beam of width 300: mean
score 63 without it, 92 at weight 1, 98 at 2 to 4, 100 at 8 (faults 7-13 -> 4-8); the beam
search phase of a round, seeds 11-16: 100.5 -> 117.2, and then polished (90 s, one thread) 111.5 ->
122.0; there, weight 8 gave 118.2 (no better), and with weight 3 a loops ``_GAMMA`` of 1 gave 112.5
and rebuilds of width 1600 to 3200 115.0. (A ranking term only: a hard rule dead-ends every beam.)

A fault counts from the moment it is certain, not only on the rim cell's turn: once the colours its
decided neighbours show it leave no unused tile that links its pair (:func:`_clean`). The left end
of each row touches its first neighbour a whole row before its turn, and near the last rows, where
the tiles left run short, that is where the faults were. Measured from scratch, one beam, seeds
1-8: width 300 97.9 -> 113.6 (faults 5-8 -> 2-7); width 3000, seeds 1-6, 116.0 -> 117.7 (weight 5
instead of 3: 117.8); in 10-minute runs a round's beam answer 110-126 -> 118-132 (122.5 on
average). (Also tried: the same look ahead at every cell, dropping a state once some cell ahead
has no tile left at all: no clear gain, and slower; fresh beams of width 10000, about 150 s on one
core: 127, 124, 117, 122, 116 without the look ahead, 123, 121 with it, and the polish adds little
to them. Counting as certain also the faults of rim cells ahead that compete for the same few tiles
(a maximum matching of the cells to the tiles left that could make them clean): width 300, seeds
1-8, 113.6 -> 98.6, so each cell is checked alone. A beam four times wider over its last 20 cells,
width 1500: 118.5, the same as width 3000 throughout.)

Where the faults are: in fresh beam answers nearly all lie in the triangle's last four rows (3 to 5
of the 7 rim cells there), where the scan ends. Those rows are not to blame: CP-SAT solving the last
28 cells of such an answer exactly against the rest proves it already optimal there (four answers,
119-128, in 6-21 s each); the first rows decide which tiles and colours are left for them."""
_KEEP = (8, 36)
"""How many cells of the row scan a rebuild keeps (chosen uniformly in this range)."""
_POLISH_SHARE = 0.4
"""The share of each round's time (see :data:`_STALL`) kept at the end for
:func:`engine.polish.polish`. Measured in 10 minutes from scratch with two workers, one round, beam
search alone -> with the polish: lines seed 1 137 -> 143, seed 2 141 -> 141; loops in the hexagon
(rebuild patience 40) seed 1 118 -> 116, seed 2 124 -> 127. In the triangle the loops beam search
stalls within two or three minutes and the polish does most of the late gains (seed 1: 118 at 360 s,
127 at 470 s); a share of 0.6 gave 123 on seed 2, one run, so not enough to change it. (Not tuned
further.)"""
_STALL: dict[Goal, tuple[float, float]] = {"lines": (math.inf, math.inf), "loops": (45.0, 30.0)}
"""Seconds without a better answer after which a round's beam search, then its polish, ends; the
time left goes to a fresh round (see :data:`_FRESH_MIN`) and the best round wins. Where the beam
search and the polish stall varies widely from one draw to the next (rounds of one search end
between 121 and 132), so independent draws are worth more than waiting long on one, but a beam
search cut short gives the polish a worse start: the stalls trade the two, and a slower machine
gets rounds long enough for its beam search. Rounds last 70-190 s here, about five in 10 minutes.

Measured as it is now (the loops rank of :data:`_GAMMA`, link effects shared between parents),
10 minutes from scratch, two workers, each round's beam and polished answers logged, on an
otherwise idle machine, seeds 9-16: 131, 132, 131, 130, 132, 132, 133, 132 (43 rounds of 110 s
on average; beam answers 127.9, polished 129.3, 29 rounds reaching 129). The polish's stall is
wall-clock, so it needs its cores: seed 8, run while other jobs took a core now and then, 128,
its polish adding 1.2 a round against 1.4. With the beam search 1.4 times slower, seeds 1-7: 129,
128, 133 (not stored: run without ``--store``), 130, 132, 128, 132 (seeds 5-7 also beside other
jobs: polish gains 0.7). Before the loops rank changed, with the beam search then (each
link worked out once per parent), each round's beam answer and polished answer logged: stalls of
(15, 40), seeds 1-2, 15 rounds of 78 s on average: beam answers 122.0, polished 124.5, one round
reaching 129; (45, 60), one 45-minute search, 15 rounds of 149 s: 124.4 and 126.0, one reaching 129 (there, the beam
search's last gain came up to 117 s into a round, the polish's up to 68 s; replaying those logs
with shorter polish stalls gives the same polished average down to about 20 s); (45, 30), seeds
1-8: 130, 130, 128, 132, 129, 132, 128, 128 (seeds 1-6: 32 rounds of 110 s, 124.7 and 126.6,
seven reaching 129). The (30, 40) used before gave, seeds 1-11: 130, 129, 125, 132, 125, 132, 127,
129, 128, 129, 129: 129 as often, but lower when it missed.

Earlier measurements, with the beam search 2.4 times slower and stalls of (30, 40) unless said,
with the rim penalty counted ahead (:data:`_RIM_FAULT`), seeds 1-8: 127, 128, 126, 132, 127, 128,
127, 127 (rounds ended at 118-132, 125 on average); with stalls of (15, 20), seed 1: 127 (nine
rounds averaging 121.6). With the penalty counted only on the rim cell's turn, seeds 1-4: 125, 128,
125, 125 (rounds averaging 123); with stalls of (15, 20), seed 3: 129 (but ten rounds averaging
121), seed 4: 126.
Before the rim penalty, seeds 1-6: 130, 124, 121, 123, 126, 122 (seed 1 again: 121); with fixed
rounds of 200 s (beam search 120 s, then polish 80 s), seeds 1-4: 128, 122, 125, 122; with one
round, seeds 1-2: 127, 123. Each worker process running rounds of its own (its beam search, then
a polish with one solver thread), twice the rounds: seeds 1-3, 129, 128, 124 against 127, 128,
126, so the workers share each round. Also tried: keeping the last fifth of the time for polishing
the best round's answer again and again, each time with a fresh seed (the polish's outcome depends on
its seed: the same four beam answers, one thread, stall 40 s, ended 124/121/118, 122/122/122,
120/123/125 and 120/120/120 with three seeds): seeds 1-4 gave 131, 129, 127, 132, every gain before
that last fifth, so the rounds keep the whole time. Four lines keeps one round: its beam search
still gains late (143 at 500 s)."""
_FRESH_MIN = 60.0
"""A new round needs about a minute for its beam search to give an answer worth polishing: with less
time left the search ends."""
_POLISH_MIN = 10.0
"""Below this many seconds of polishing, skip it: building the solver's model takes about three."""
_NOISE = 0.9
"""Random tie-break added to the rank: enough to reorder equal ranks, never to cross a whole point."""

_CI = {c: i for i, c in enumerate(COLOURS)}
_LINKS: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = ((),) + tuple(
    tuple(
        tuple((_CI[face[a]], a, b) for a in range(6) for b in range(a + 1, 6) if face[a] == face[b])
        for face in FACES[t]
    )
    for t in ALL_NUMBERS
)
"""``_LINKS[tile][rot]``: its three links as (colour index, direction, direction)."""
_FACE_CI: tuple[tuple[tuple[int, ...], ...], ...] = ((),) + tuple(
    tuple(tuple(_CI[colour] for colour in face) for face in FACES[t]) for t in ALL_NUMBERS
)
"""``_FACE_CI[tile][rot][d]``: the colour index its edge ``d`` shows."""

_OPTIONS: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, int]]] = {}


def _options(dirs: tuple[int, ...], colours: tuple[int, ...]) -> list[tuple[int, int]]:
    """(tile, rot) pairs showing ``colours`` towards ``dirs`` (memoised; a few hundred patterns)."""
    key = (dirs, colours)
    found = _OPTIONS.get(key)
    if found is None:
        want = [(d, COLOURS[c]) for d, c in zip(dirs, colours)]
        found = [(t, rot) for t in ALL_NUMBERS for rot in range(6) if all(FACES[t][rot][d] == c for d, c in want)]
        _OPTIONS[key] = found
    return found


_CLEAN: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, int]], int] = {}


def _clean(dirs: tuple[int, ...], colours: tuple[int, ...], pair: tuple[int, int]) -> int:
    """Bit mask of the tiles that can show ``colours`` towards ``dirs`` while linking the two edges
    ``pair``: the tiles that can still make a rim cell clean (memoised, so that checking a rim cell
    ahead costs one dict lookup and one ``&`` with the tiles left). A negative colour stands for an
    empty neighbour, which asks nothing."""
    key = (dirs, colours, pair)
    found = _CLEAN.get(key)
    if found is None:
        found = 0
        shown = [(d, c) for d, c in zip(dirs, colours) if c >= 0]
        for tile, rot in _options(tuple(d for d, _ in shown), tuple(c for _, c in shown)):
            if FACES[tile][rot][pair[0]] == FACES[tile][rot][pair[1]]:
                found |= 1 << tile
        _CLEAN[key] = found
    return found


# A chain end still facing a cell the search has not decided is a *port*, keyed ``cell * 6 + d``
# (the undecided cell and the direction from it to the chain's last tile); each colour has a dict
# port -> (tiles in the chain, the port at its other end or -1 when that end faces empty space).
# Beside the dicts each colour keeps the lengths of its open chains, sorted longest first, split into
# chains with one end already closed ("half") and chains open at both ends ("both"): the bound needs
# only those, so a candidate is ranked without copying any dict.
_Ports = dict[int, tuple[int, int]]
_Chains = tuple[tuple[int, ...], tuple[int, ...]]  # (half, both), each sorted longest first


def _lines_bound(chains: _Chains, done: tuple[int, int], loops: tuple[int, int], gamma: float) -> float:
    """One colour's certain waste in Four lines beyond one tile per chain, less the growth bonus.

    ``done``: (tiles past the first of the chains already closed at both ends, the longest of
    them); ``loops``: (tiles in loops, which are never lines, longest loop). Either the colour's
    longest line is one already closed, and every other chain is waste, or it is still open, and
    then at most two of the chains with one closed end can become part of it.
    """
    half, both = chains
    extra = sum(half) - len(half)
    if len(half) >= 2:
        waste = done[0] + extra - half[0] - half[1] + 2
    elif half:
        waste = done[0] + extra - half[0] + 1
    else:
        waste = done[0]
    longest = done[1]
    if longest:
        other = done[0] - longest + 1 + extra + sum(both) - len(both)
        if other < waste:
            waste = other
    grow = half[0] if half else 0
    if both and both[0] > grow:
        grow = both[0]
    return waste + loops[0] - gamma * grow


def _loops_bound(chains: _Chains, done: tuple[int, int], loops: tuple[int, int], gamma: float) -> float:
    """One colour's certain waste in Four loops: every chain with a closed end, and every loop but
    the longest (all of them if the longest is still to close). ``done``: (tiles in chains closed at
    both ends, 0); ``loops``: (tiles in loops, longest loop). ``gamma`` (0 for loops, see
    :data:`_GAMMA`) is taken only to share :func:`_lines_bound`'s signature."""
    half, both = chains
    waste = done[0] + sum(half) + loops[0]
    if loops[1]:
        other = waste + sum(both) - loops[1]
        if other < waste:
            waste = other
    return waste


def _without(lengths: tuple[int, ...], length: int) -> tuple[int, ...]:
    i = lengths.index(length)
    return lengths[:i] + lengths[i + 1 :]


def _with(lengths: tuple[int, ...], length: int) -> tuple[int, ...]:
    i = 0
    while i < len(lengths) and lengths[i] > length:
        i += 1
    return lengths[:i] + (length,) + lengths[i:]


def _colour_at(ports: Sequence[_Ports], port: int) -> int:
    """The colour of the chain ending at ``port``, or -2 when none does."""
    for c in range(4):
        if port in ports[c]:
            return c
    return -2


class _Stop(Exception):
    """Time is up or the caller cancelled: abandon the current beam."""


_Candidate = tuple[Any, ...]
"""One way to extend a partial arrangement: (rank, parent :class:`_Node`, tile, rot, link effects,
faults), as ``candidates`` in :func:`beam_search` makes them."""
_Effect = tuple[Any, ...]
"""What a tile's link does to its colour (see ``link`` in :func:`beam_search`)."""


class _Node:
    """A partial arrangement: the first ``cell`` cells of the scan decided."""

    __slots__ = ("rank", "waste", "used", "filled", "ports", "chains", "done", "loops", "bounds",
                 "ends", "faults", "placed", "history")

    def __init__(  # noqa: PLR0913
        self, rank: float, waste: float, used: int, filled: int, ports: tuple[Any, ...], chains: tuple[Any, ...],
        done: tuple[Any, ...], loops: tuple[Any, ...], bounds: tuple[Any, ...], ends: int, faults: int, placed: int,
        history: Any,
    ) -> None:
        self.rank = rank  # waste bound, growth bonus, rim penalty and random tie-break: what the beam sorts by
        self.waste = waste  # the bound alone (no bonus, no noise): exact once the cells are all decided
        self.used = used  # bit mask of tiles placed
        self.filled = filled  # bit mask of cells holding a tile
        self.ports = ports  # per colour: port -> (length, other port or -1)
        self.chains = chains  # per colour: (half, both) lengths
        self.done = done  # per colour: lines: (tiles past the first of closed chains, longest); loops: (tiles, 0)
        self.loops = loops  # per colour: (tiles in loops, longest loop)
        self.bounds = bounds  # per colour: the bound (with its growth bonus)
        self.ends = ends  # chain ends facing empty space so far
        self.faults = faults  # rim cells whose tile does not turn the chains there straight back
        self.placed = placed
        self.history = history  # (previous history, (cell index, tile, rot)) or None


def beam_search(
    goal: Goal,
    width: int,
    rng: random.Random,
    should_stop: Callable[[], bool] = lambda: False,
    prefix: Sequence[tuple[int, int] | None] = (),
    guide: Sequence[tuple[int, int] | None] = (),
    scan: _Scan | None = None,
) -> tuple[int, Board] | None:
    """One beam search keeping ``width`` states over ``scan`` (by default the goal's own region);
    the arrangement found and its score (None if every state dead-ended, or ``should_stop()``,
    polled a few times a second, became true).

    ``prefix`` imposes the first cells of the scan ((tile, rot), or None for an empty cell): the
    search then only rebuilds the rest. ``guide`` (a whole arrangement, cell by cell, extending the
    prefix) is kept in the beam at every step, so the result is never worse than the guide."""
    lines = goal == "lines"
    scan = scan or _SCANS[goal]
    bound = _lines_bound if lines else _loops_bound
    gamma = _GAMMA[goal]
    n = len(scan.cells)
    nbs, earliers, skip_from = scan.nb, scan.earlier, scan.skip_from
    tiles = len(ALL_NUMBERS)
    random_ = rng.random
    polls = [0]
    memo: dict[tuple[Any, ...], _Effect] = {}  # link effects at cell memo_at[0], shared by the parents alike in that colour
    memo_at = [-1]

    rim, ahead = scan.rim, scan.ahead

    def total(bounds: Sequence[float], ends: int) -> float:
        """The bound on the waste: exact once every cell is decided."""
        return sum(bounds) + ends / 2 if lines else sum(bounds)

    def close(done: tuple[int, int], length: int) -> tuple[int, int]:
        """Record a chain closed at both ends."""
        return (done[0] + length - 1, max(done[1], length)) if lines else (done[0] + length, 0)

    def candidates(i: int, parent: _Node, out: list[_Candidate], force: tuple[int, int] | None | bool = False) -> None:
        """Append (rank, parent, tile, rot, detail, faults) for every legal placement on cell ``i``,
        and (..., 0, 0, ...) for leaving it empty when that is allowed; or only the placement
        ``force`` ((tile, rot), or None for empty) the caller imposes. ``detail`` is what :func:`node`
        needs to build the state: for a placement, the effects of its links (see :func:`link`); for an
        empty cell, (chains, done, loops, bounds, ends).

        Why effects per link: a tile's three links have three different colours, so each changes its
        own colour's chains alone, the same way whichever tile carries it. A parent's candidates
        share a few dozen links, so each is worked out once (most of the search's time went there),
        and only the rank is summed per candidate, from each link's change to it. Parents alike in a
        colour (the same chains, and the same chain ends at this cell) share that colour's links too:
        two in three links of a beam step are found in ``memo`` (a beam of width 300 takes 1.3 times
        less time, the same states in the same order)."""
        polls[0] += 1
        if polls[0] % 64 == 0 and should_stop():
            raise _Stop
        nb = nbs[i]
        ports = parent.ports
        present = [d for d in earliers[i] if parent.filled >> nb[d] & 1]
        colour_of = {d: _colour_at(ports, i * 6 + d) for d in present}
        left = tiles - parent.placed
        if (force is None) if force is not False else (i >= skip_from and left < n - i):
            chains, done, bounds = list(parent.chains), list(parent.done), list(parent.bounds)
            here = {i * 6 + d for d in present}
            for d, c in colour_of.items():
                length, other = ports[c][i * 6 + d]
                half, both = chains[c]
                if other < 0:
                    chains[c] = (_without(half, length), both)
                    done[c] = close(done[c], length)
                elif other in here:  # both ends of one chain meet this cell: it closes
                    if other < i * 6 + d:
                        continue
                    chains[c] = (half, _without(both, length))
                    done[c] = close(done[c], length)
                else:
                    chains[c] = (_with(half, length), _without(both, length))
                bounds[c] = bound(chains[c], done[c], parent.loops[c], gamma)
            ends = parent.ends + len(present)
            out.append((total(bounds, ends) + _RIM_FAULT * parent.faults + random_() * _NOISE, parent, 0, 0,
                        (chains, done, parent.loops, bounds, ends), parent.faults))
        if force is False and (left == 0 or (parent.placed and not present)):
            return
        used = parent.used
        pair = rim.get(i)  # the two edges a tile here must link to turn its chains straight back
        options = _options(tuple(present), tuple(colour_of.values()))
        # The rim cells ahead (:data:`_RIM_FAULT`) with the colours their decided neighbours show them
        # (-2 for a neighbour left empty, which only a start or guide with a hole in the triangle has),
        # as the direction from this cell to the rim cell (or -1 when this cell does not touch it) and
        # the tiles that could still make it clean, by the colour this cell's tile shows it.
        checks: list[tuple[int, tuple[int, ...]]] = []
        for j, dirs, at, facing, jpair in ahead[i]:
            colours = [_colour_at(ports, j * 6 + d) for d in dirs]
            if at < 0:
                checks.append((0, (_clean(dirs, tuple(colours), jpair),) * 4))
                continue
            clean: list[int] = []
            for c in range(4):
                colours[at] = c
                clean.append(_clean(dirs, tuple(colours), jpair))
            checks.append((facing, tuple(clean)))
        if force is not False:
            options = [force] if force is not None and force in options else []
        if memo_at[0] != i:
            memo.clear()
            memo_at[0] = i
        base = total(parent.bounds, parent.ends)
        effects: dict[tuple[int, int, int], _Effect] = {}
        for tile, rot in options:
            if used >> tile & 1:
                continue
            rank = base
            for found in _LINKS[tile][rot]:
                effect = effects.get(found)
                if effect is None:
                    c, a, b = found
                    key = (found, ports[c].get(i * 6 + a) if a in colour_of else None,
                           ports[c].get(i * 6 + b) if b in colour_of else None,
                           parent.chains[c], parent.done[c], parent.loops[c])
                    effect = memo.get(key)
                    if effect is None:
                        effect = memo[key] = link(i, parent, colour_of, *found)
                    effects[found] = effect
                rank += effect[-1]
            face = _FACE_CI[tile][rot]
            faults = parent.faults
            if pair is not None:
                faults += face[pair[0]] != face[pair[1]]
            certain = faults
            unused = ~(used | 1 << tile)
            for facing, cleaners in checks:
                if not cleaners[face[facing]] & unused:
                    certain += 1  # no tile left can turn that rim cell's chains back: its fault is certain
            out.append((rank + _RIM_FAULT * certain + random_() * _NOISE, parent, tile, rot, effects,
                        faults))

    def link(i: int, parent: _Node, colour_of: dict[int, int], c: int, a: int, b: int) -> _Effect:
        """What a tile on cell ``i`` linking edges ``a`` and ``b`` in colour ``c`` does to that
        colour: its (chains, done, loops, bound), the chain ends it leaves facing empty space, the
        chain it makes as (length, the port at each end or -1), which :func:`node` records, and
        the change it makes to the parent's rank."""
        nb = nbs[i]
        ports = parent.ports[c]
        half, both = parent.chains[c]
        done, loops = parent.done[c], parent.loops[c]
        ends = 0
        length = 1
        other: list[int] = []
        for e in (a, b):
            if e in colour_of:
                la, fa = ports[i * 6 + e]
                if fa < 0:
                    half = _without(half, la)
                elif not (e == b and a in colour_of and other[0] == i * 6 + b):
                    both = _without(both, la)
                length += la
                other.append(fa)
            elif nb[e] > i:
                other.append(nb[e] * 6 + _OPP[e])
            else:
                ends += 1
                other.append(-1)
        if a in colour_of and b in colour_of and other[0] == i * 6 + b:
            size = (length + 1) // 2  # both sides counted the same chain
            loops = (loops[0] + size, max(loops[1], size))
        elif other[0] < 0 and other[1] < 0:
            done = close(done, length)
        elif other[0] < 0 or other[1] < 0:
            half = _with(half, length)
        else:
            both = _with(both, length)
        new = bound((half, both), done, loops, gamma)
        change = new - parent.bounds[c] + (ends / 2 if lines else 0)
        return (half, both), done, loops, new, ends, length, other[0], other[1], change

    def node(i: int, candidate: _Candidate) -> _Node:
        """Build the state a candidate describes (its ports dicts are copied only now)."""
        _, parent, tile, rot, detail, faults = candidate
        ports = list(parent.ports)
        nb = nbs[i]
        if tile == 0:
            chains, done, loops, bounds, ends = detail
            for d in earliers[i]:
                if parent.filled >> nb[d] & 1:
                    c = _colour_at(ports, i * 6 + d)
                    cp = ports[c] = dict(ports[c])
                    length, other = cp.pop(i * 6 + d)
                    if other >= 0:
                        cp[other] = (length, -1)
            filled, used, placed, history = parent.filled, parent.used, parent.placed, parent.history
        else:
            chains, done = list(parent.chains), list(parent.done)
            loops, bounds = list(parent.loops), list(parent.bounds)
            ends = parent.ends
            for c, a, b in _LINKS[tile][rot]:
                chains[c], done[c], loops[c], bounds[c], added, length, fa, fb, _ = detail[c, a, b]
                ends += added
                cp = ports[c] = dict(ports[c])
                cp.pop(i * 6 + a, None)  # the chains this tile joins no longer end here
                cp.pop(i * 6 + b, None)
                if fa == i * 6 + b:
                    continue  # a loop closed
                if fa >= 0:
                    cp[fa] = (length, fb)
                if fb >= 0:
                    cp[fb] = (length, fa)
            filled, used, placed = parent.filled | 1 << i, parent.used | 1 << tile, parent.placed + 1
            history = (parent.history, (i, tile, rot))
        exact = bounds if not gamma else [bound(chains[c], done[c], loops[c], 0.0) for c in range(4)]
        return _Node(candidate[0], total(exact, ends),  # without a growth bonus the bounds are the waste
                     used, filled, tuple(ports), tuple(chains), tuple(done), tuple(loops), tuple(bounds), ends,
                     faults, placed, history)

    empty: _Ports = {}
    no_chains: _Chains = ((), ())
    states = [_Node(0.0, 0.0, 0, 0, (empty,) * 4, (no_chains,) * 4, ((0, 0),) * 4, ((0, 0),) * 4,
                    (0.0,) * 4, 0, 0, 0, None)]
    try:
        for i, force in enumerate(prefix):
            found: list[_Candidate] = []
            candidates(i, states[0], found, force)
            if not found:
                raise ValueError(f"the prefix breaks the golden rule at {scan.cells[i]}")
            states = [node(i, found[0])]
        guided = states[0] if guide else None
        for i in range(len(prefix), n - _EXHAUSTIVE):
            found = []
            for parent in states:
                candidates(i, parent, found)
            if guided is not None:
                want = guide[i] or (0, 0)
                follow = [c for c in found if c[1] is guided and (c[2], c[3]) == want]
                if not follow:  # the guide breaks the scan's own habits here: impose its move
                    candidates(i, guided, follow, guide[i])
                    found += follow
            if not found:
                return None
            if len(found) > width:
                kept = heapq.nsmallest(width, found, key=itemgetter(0))
                if guided is not None and follow and follow[0] not in kept:
                    kept[-1] = follow[0]
                found = kept
            states = [node(i, c) for c in found]
            if guided is not None:
                guided = next((s for s, c in zip(states, found) if follow and c is follow[0]), None)

        best: list[_Node | None] = [None]

        def complete(i: int, state: _Node, guided: bool = False) -> None:
            if i == n:
                if state.placed == tiles and (best[0] is None or state.waste < best[0].waste):
                    best[0] = state
                return
            found: list[_Candidate] = []
            candidates(i, state, found)
            follow = None
            if guided:
                want = guide[i] or (0, 0)
                follow = next((c for c in found if (c[2], c[3]) == want), None)
                if follow is None:
                    extra: list[_Candidate] = []
                    candidates(i, state, extra, guide[i])
                    found += extra
                    follow = extra[0] if extra else None
            for c in found:
                child = node(i, c)
                if best[0] is None or child.waste < best[0].waste or c is follow:
                    complete(i + 1, child, c is follow)

        if guided is not None:
            complete(n - _EXHAUSTIVE, guided, True)
        for state in sorted(states, key=lambda s: s.waste):
            if best[0] is not None and state.waste >= best[0].waste:
                break
            complete(n - _EXHAUSTIVE, state)
    except _Stop:
        return None
    if best[0] is None:
        return None
    moves = []
    history = best[0].history
    while history is not None:
        history, move = history
        moves.append(move)
    board = Board()
    for i, tile, rot in reversed(moves):
        q, r = scan.cells[i]
        board.push(Placement(tile, q, r, rot))
    return puzzle_score(board, goal), board


def greedy_arrangement(rng: random.Random) -> Board:
    """All 56 tiles in one arrangement, placed one by one where each touches most tiles: a quick,
    always available answer (it scores poorly; the beam search does the real work)."""
    board = Board()
    order = list(ALL_NUMBERS)
    rng.shuffle(order)
    pending = order
    while pending:
        stuck = []
        for tile in pending:
            options = board.legal_placements((tile,), restricted=False)
            if not options:
                stuck.append(tile)
                continue
            most = max(board.neighbour_count(p.cell) for p in options)
            board.push(rng.choice([p for p in options if board.neighbour_count(p.cell) == most]))
        if len(stuck) == len(pending):  # never seen: every tile fits some single-neighbour space
            raise RuntimeError(f"tiles {stuck} fit nowhere")
        pending = stuck
    return board


def _decisions(board: Board, turn: int, scan: _Scan) -> list[tuple[int, int] | None] | None:
    """The arrangement turned by ``turn`` sixths and shifted into ``scan``'s region, as the scan's
    decisions cell by cell (None for an empty cell); None when it does not fit."""
    turned = Board()
    for p in board.placements():
        turned.push(Placement(p.tile, *rotate_cell(p.cell, turn), (p.rot + turn) % 6))
    fitted = _fitted(turned, scan.cells)
    if fitted is None:
        return None
    where = {p.cell: (p.tile, p.rot) for p in fitted.placements()}
    return [where.get(c) for c in scan.cells]


def _fitted(board: Board, region: Sequence[Cell]) -> Board | None:
    """``board`` moved so that it lies in ``region``, or None when it cannot."""
    cells = [p.cell for p in board.placements()]
    inside = set(region)
    for dq, dr in sorted(
        {(q0 - q, r0 - r) for q, r in cells[:1] for q0, r0 in region},
        key=lambda v: abs(v[0]) + abs(v[1]) + abs(v[0] + v[1]),
    ):
        if all((q + dq, r + dr) in inside for q, r in cells):
            moved = Board()
            for p in board.placements():
                moved.push(Placement(p.tile, p.q + dq, p.r + dr, p.rot))
            return moved
    return None


def optimise(
    goal: Goal,
    *,
    seconds: float,
    seed: int | None = None,
    cancel: Flag | None = None,
    progress: Progress | None = None,
    start: Board | None = None,
    workers: int | None = 1,
) -> tuple[int, Board]:
    """Search for a high-scoring arrangement of all 56 tiles for ``goal`` for about ``seconds``.

    Returns the best (score, arrangement) found. ``progress(score, board)`` is called with every
    improvement (the first call reports the starting answer); ``cancel`` (a ``threading.Event`` or
    anything with ``is_set()``) is polled a few times a second and ends the search early; ``start``
    (a complete arrangement) is the answer to beat, and the search goes on from it when it fits the
    goal's region. The same seed gives the same search, but where the time limit cuts it varies.

    After one beam search from scratch, the search improves its answer by rebuilding part of it:
    turn the arrangement a way its region allows (any sixth for the hexagon, a third for the
    triangle), keep the first rows of the row scan, and run a beam search over the rest with the
    current arrangement as its guide (so it never gets worse).
    The width grows when many rebuilds in a row find nothing better, and when even the widest find
    nothing the search starts again from scratch (the best answer is kept).

    ``workers`` > 1 (None: one per core) runs that many such searches, with different seeds, in
    worker processes (see :func:`_optimise_in_workers`); progress is still reported, and the answer
    returned, in the calling thread.

    The last :data:`_POLISH_SHARE` of the time (when that is at least :data:`_POLISH_MIN` seconds)
    goes to :func:`engine.polish.polish` on the best answer, with ``workers`` solver threads.

    For Four loops each phase ends once it has gone :data:`_STALL` seconds without a better
    answer, and the time left goes to another such round (beam, then polish) from scratch with its
    own seed (the first round starts from ``start``, with ``seed`` itself); the best round wins, and
    progress reports only what beats every earlier round.
    """
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {GOALS}, not {goal!r}")
    if start is not None and (problem := incomplete(start)) is not None:
        raise ValueError(f"start is not a complete arrangement: {problem}")
    count = (os.cpu_count() or 1) if workers is None else workers
    if count < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    deadline = time.monotonic() + seconds
    best: tuple[int, Board] | None = None

    def relay(score: int, board: Board) -> None:
        if progress is not None and (best is None or score > best[0]):
            progress(score, board)

    k = 0
    while True:
        found = _round(goal, deadline - time.monotonic(), _derived_seed(seed, k, "round "), cancel, relay,
                       start if k == 0 else None, count)
        if best is None or found[0] > best[0]:
            best = found
        if deadline - time.monotonic() < _FRESH_MIN or (cancel is not None and cancel.is_set()):
            return best
        k += 1


def _round(
    goal: Goal, seconds: float, seed: int | None, cancel: Flag | None, progress: Progress | None,
    start: Board | None, count: int,
) -> tuple[int, Board]:
    """One round of :func:`optimise` of at most ``seconds``: beam search (in ``count`` processes),
    then the polish, each ended early when it stalls (:data:`_STALL`)."""
    deadline = time.monotonic() + seconds
    polishing = seconds * _POLISH_SHARE if polish is not None and seconds * _POLISH_SHARE >= _POLISH_MIN else 0.0
    beam_stall, polish_stall = _STALL[goal]
    if count > 1:
        best = _optimise_in_workers(goal, seconds - polishing, seed, cancel, progress, start, count, beam_stall)
    else:
        best = _optimise_alone(goal, seconds - polishing, seed, cancel, progress, start, beam_stall)
    left = deadline - time.monotonic()
    region = _SCANS[goal].cells
    fitted = _fitted(best[1], region) if polishing and left > 0 else None
    if fitted is None or (cancel is not None and cancel.is_set()):
        return best
    return polish(goal, fitted, region, seconds=left, workers=count, seed=seed or 0, cancel=cancel, progress=progress,
                  stall=polish_stall)


def _optimise_alone(
    goal: Goal, seconds: float, seed: int | None, cancel: Flag | None, progress: Progress | None, start: Board | None,
    stall: float = math.inf,
) -> tuple[int, Board]:
    """The beam searches of :func:`optimise` in this process, ended early after ``stall`` seconds
    without a better answer."""
    patience = Patience(seconds, cancel, stall)
    should_stop = patience.over
    rng = random.Random(seed)

    board = start.copy() if start is not None else greedy_arrangement(rng)
    best = (puzzle_score(board, goal), board)
    if progress is not None:
        progress(best[0], best[1].copy())

    def offer(found: tuple[int, Board] | None) -> None:
        nonlocal best
        if found is not None and found[0] > best[0]:
            best = found
            patience.improved()
            if progress is not None:
                progress(best[0], best[1].copy())

    scan = _SCANS[goal]
    current = (best[0], fitted) if start is not None and (fitted := _fitted(start, scan.cells)) else None
    if current is None:
        for width in _START_WIDTHS:
            found = beam_search(goal, width, rng, should_stop)
            offer(found)
            if found is not None and (current is None or found[0] > current[0]):
                current = found
    first, tries, widest = _REBUILD[goal]
    width, idle = first, 0
    while not should_stop():
        if current is None:  # stuck, or every beam so far dead-ended: start again, fresh tie-breaks
            current = beam_search(goal, _START_WIDTHS[-1], rng, should_stop)
            offer(current)
            width, idle = first, 0
            continue
        decisions = _decisions(current[1], rng.choice(scan.turns), scan)
        assert decisions is not None  # the search's own arrangements always fit, turned any way it allows
        keep = rng.randint(*_KEEP)
        found = beam_search(goal, width, rng, should_stop, prefix=decisions[:keep], guide=decisions)
        if found is None or incomplete(found[1]) is not None:
            continue
        idle = 0 if found[0] > current[0] else idle + 1
        current = found
        offer(found)
        if idle >= tries:
            if width < widest:
                width, idle = 2 * width, 0
            else:
                current = None
    return best


def _derived_seed(seed: int | None, index: int, kind: str = "") -> int | None:
    """The seed of worker (``kind`` "") or round (``kind`` "round ") ``index``: index 0 runs exactly
    the search of ``seed`` itself, and no two workers or rounds share a seed."""
    if seed is None or index == 0:
        return seed
    return random.Random(f"{seed}/{kind}{index}").getrandbits(32)


def _worker(goal: Goal, seconds: float, seed: int | None, start: dict[str, Any] | None, stop: Any, out: Any) -> None:
    """One worker process: :func:`optimise` alone, every improvement sent to ``out`` as
    ("better", score, position), then ("done", None, None), or ("error", message, None)."""
    try:
        _optimise_alone(
            goal, seconds, seed, stop, lambda score, board: out.put(("better", score, board.to_json())),
            None if start is None else Board.from_json(start),
        )
        out.put(("done", None, None))
    except BaseException:  # noqa: BLE001 - reported to the parent, which raises it
        out.put(("error", traceback.format_exc(), None))


_GRACE = 2.0
"""Seconds the parent waits for its workers to end on their own after a stop before killing them."""


def _optimise_in_workers(
    goal: Goal, seconds: float, seed: int | None, cancel: Flag | None, progress: Progress | None,
    start: Board | None, count: int, stall: float = math.inf,
) -> tuple[int, Board]:
    """:func:`_optimise_alone` as ``count`` independent searches in worker processes, keeping the
    best, and stopping them all after ``stall`` seconds in which none found a better answer.

    The searches share nothing, so separate processes (not threads: the search is pure Python and
    the interpreter lock would serialise it) give one full search per core. The parent reports the
    starting answer at once, then relays each answer better than any before; it watches the time
    limit and ``cancel`` itself and passes a stop to the workers, and whatever happens (time up,
    cancel, an error here or in a worker) ends or kills every worker before it returns. Workers
    are *spawned*, not forked: forking a process that runs threads (the kiosk UI) is unsafe.
    """
    patience = Patience(seconds, cancel, stall)
    board = start.copy() if start is not None else greedy_arrangement(random.Random(seed))
    best = (puzzle_score(board, goal), board)
    if progress is not None:
        progress(best[0], best[1].copy())
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    out = context.Queue()
    position = None if start is None else start.to_json()
    processes = [
        context.Process(target=_worker, args=(goal, seconds, _derived_seed(seed, k), position, stop, out), daemon=True)
        for k in range(count)
    ]
    try:
        for process in processes:
            process.start()
        running = count
        stopped_at: float | None = None
        while running:
            now = time.monotonic()
            if stopped_at is None and patience.over():
                stop.set()
                stopped_at = now
            if stopped_at is not None and now > stopped_at + _GRACE:
                break
            try:
                kind, value, found = out.get(timeout=0.05)
            except queue.Empty:
                if not any(p.is_alive() for p in processes):  # killed from outside: nothing more comes
                    break
                continue
            if kind == "done":
                running -= 1
            elif kind == "error":
                raise RuntimeError(f"a worker of the Four {goal} search failed:\n{value}")
            elif value > best[0] and stopped_at is None:
                best = (value, Board.from_json(found))
                patience.improved()
                if progress is not None:
                    progress(best[0], best[1].copy())
    finally:
        stop.set()
        ending = time.monotonic() + _GRACE
        while any(p.is_alive() for p in processes) and time.monotonic() < ending:
            try:  # a worker exits only once what it sent is read
                out.get(timeout=0.05)
            except queue.Empty:
                pass
        for process in processes:
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                process.join()
        out.close()
        out.cancel_join_thread()
    return best


DEFAULT_SECONDS = 60.0
"""How long ``python -m engine solve four-lines|four-loops`` searches without ``--timeout``: a
minute gives a fair answer (seed 1: lines 131, loops 124 to 130, one round cut where the minute
ends); the booklet records take ten minutes or more (see ``bench/four_optimise.py``)."""


def solve_command(args: argparse.Namespace, control: Control) -> dict[str, Any]:
    """``python -m engine solve four-lines|four-loops [--timeout S] [--seed N]``: run
    :func:`optimise` on every core from scratch for ``--timeout`` seconds (default :data:`DEFAULT_SECONDS`) and
    answer the best arrangement, its ``score``, each colour's share (``scores``) and the score of
    the device's stored best (``best_known``)."""
    goal: Goal = "lines" if args.puzzle == "four-lines" else "loops"
    seconds = control.remaining()
    score, board = optimise(
        goal, seconds=DEFAULT_SECONDS if seconds is None else seconds, seed=args.seed, cancel=control.cancel,
        workers=None,
    )
    return {
        "solved": True,
        "position": board.to_json(),
        "score": score,
        "scores": colour_scores(board, goal),
        "best_known": best_known(goal)[0],
    }
