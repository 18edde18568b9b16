"""How promising a position is for each colour: the club robot's judgement, and the expert's guide.

Tantrix strategy (the booklets' chapter on strategy and tactics) in numbers. For one colour:

* its **chains** are the board's lines of that colour; an open chain has two *ends*, each pointing
  into an empty cell;
* an empty cell that two ends point into is an **indirect connection**: whatever tile goes there
  joins them (the golden rule leaves it no choice). It counts with the chance that a tile will fill
  it, from how many unplaced tiles fit the cell: few when it is a forced space with a demanding
  pattern, none when it is dead;
* chains joined by connections form a **path** (or a **cycle**: a loop waiting to close). A path's
  worth is its expected length, seen from its best chain outwards, plus the **growth** its two free
  ends still promise: an end in open space is worth a lot early in the game and nothing at the end,
  an end in a forced space only as much as the tiles left that fit it, a blocked end nothing;
* a cycle scores twice its length once closed, but stops growing: a small one is a trap (the
  booklets' "force your opponent into small loops"), a long one a prize (a 12-tile line is worth
  closing);
* a colour's potential is its best path, cycle or loop (only the best counts, as in the score).

A robot judges a position by its own colour's potential minus the strongest opponent's, so it
blocks opponents' ends and forces their small loops as readily as it extends its own line.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterable

from ...board import Board, fits
from ...geometry import DIRECTIONS, Cell
from ...tiles import ALL_NUMBERS, FACES


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's few numbers (tuned by robot matches, bench/game_match.py)."""

    growth: float = 3.0  # tiles one fully open end is expected to add, from the start of the game
    link_free: float = 5.0  # a connection cell with two neighbours: p = k / (k + link_free)
    link_forced: float = 1.0  # a forced connection cell: p = k / (k + link_forced)
    end_two: float = 2.0  # an end whose cell has two neighbours: openness k / (k + end_two)
    end_forced: float = 1.5  # an end in a forced space: openness 0.8 k / (k + end_forced)
    endgame_open: float = 0.5  # openness once the bag is empty and ends are easy to block
    small_loop: float = 6.0  # penalty for closing one's own loop of at most small_loop_tiles early
    small_loop_tiles: int = 6  # (the booklets' first warning: a small loop stops a line for good)

    def __reduce__(self) -> tuple[type[Weights], tuple[float | int, ...]]:
        # the master's workers get the weights by pickle, and a compiled (engine.compiled) frozen
        # class cannot be unpickled field by field: it is rebuilt from its values
        return Weights, tuple(getattr(self, f.name) for f in fields(self))


WEIGHTS = Weights()
# The master's: tuned by self-play of the club (SPSA over 1,128 games, bench/weights_tune.py); the
# club with them won 55 % of 400 games against the club with WEIGHTS, on bags the tuning never saw
# (bench/RESULTS.md). Only the master uses them until the other levels are measured with them.
TUNED = Weights(growth=3.701, link_free=6.353, link_forced=1.153, end_two=4.48, end_forced=0.398,
                endgame_open=0.385, small_loop=3.869)
_FITTING: dict[str, int] = {}  # requirement -> bit set of the tiles that keep the golden rule there


class Evaluator:
    """Judges positions that share the same unplaced tiles (one robot decision): the count of
    tiles fitting each requirement is computed once and reused for every candidate."""

    def __init__(self, unplaced: Iterable[int], bag: int, weights: Weights = WEIGHTS) -> None:
        self.unplaced = tuple(unplaced)
        self._mask = sum(1 << t for t in self.unplaced)
        self.stage = len(self.unplaced) / 56
        self.endgame = bag == 0
        self.weights = weights
        self._fitting: dict[str, int] = {}
        self._status: dict[tuple[str, int], float] = {}

    def fitting(self, need: str) -> int:
        """How many unplaced tiles keep the golden rule on a cell with requirement ``need``."""
        k = self._fitting.get(need)
        if k is None:
            mask = _FITTING.get(need)
            if mask is None:
                mask = _FITTING[need] = sum(1 << t for t in ALL_NUMBERS if fits(t, need))
            k = self._fitting[need] = (mask & self._mask).bit_count()
        return k

    def chance(self, need: str, ends: int) -> float:
        """For a cell with requirement ``need`` that ``ends`` chain ends of one colour point into:
        the chance it joins two ends (ends = 2), or how open it leaves one end (ends = 1)."""
        found = self._status.get((need, ends))
        if found is None:
            w = self.weights
            k = self.fitting(need)
            empty = need.count(".")
            if ends == 2:
                found = k / (k + (w.link_forced if empty <= 3 else w.link_free))
            else:
                if empty <= 3:
                    found = 0.8 * k / (k + w.end_forced)
                elif empty == 4:
                    found = k / (k + w.end_two)
                else:
                    found = min(1.0, k / 8)
                if self.endgame:
                    found *= w.endgame_open
            self._status[(need, ends)] = found
        return found

    def value(self, board: Board, mine: str, others: Iterable[str]) -> float:
        """``mine``'s potential minus the strongest of the ``others``."""
        return self.potential(board, mine) - max((self.potential(board, c) for c in others), default=0.0)

    def potential(self, board: Board, colour: str) -> float:
        """The expected worth of ``colour``'s best line or loop (see the module's docstring)."""
        return ColourAnalysis(self, board, colour).potential


_NEAR = tuple((d, dq, dr) for d, (dq, dr) in enumerate(DIRECTIONS))


class ColourAnalysis:
    """One colour's chains, connections and paths on one board, built once per decision so that
    :meth:`after` can judge a candidate placement by redoing only what it touches: the chains
    ending in or next to its cell, and the paths they belong to."""

    def __init__(self, evaluator: Evaluator, board: Board, colour: str) -> None:
        self.evaluator, self.board, self.colour = evaluator, board, colour
        self.lengths: list[int] = []
        self.ends: list[tuple[Cell, Cell]] = []
        self.ends_at: dict[Cell, list[int]] = {}
        self.best_loop = 0
        for line in board.lines(colour):
            if line.loop:
                self.best_loop = max(self.best_loop, 2 * line.length)
                continue
            i = len(self.lengths)
            self.lengths.append(line.length)
            first, last = line.cells[0], line.cells[-1]
            found: list[Cell] = []
            for cell in (first,) if first == last else (first, last):
                tile, q, r, rot = board.at(cell)  # type: ignore[misc]
                face = FACES[tile][rot]
                for d, dq, dr in _NEAR:
                    if face[d] == colour:
                        e = (q + dq, r + dr)
                        if e not in board:
                            found.append(e)
                            self.ends_at.setdefault(e, []).append(i)
            self.ends.append((found[0], found[1]))
        members = list(range(len(self.lengths)))
        self._chances: dict[Cell, tuple[int, float]] = {}
        paths = self._paths(members, self.lengths, self.ends, {}, "")
        self.path_of = [0] * len(self.lengths)
        self.paths: list[tuple[float, list[int]]] = sorted(paths, key=lambda item: -item[0])
        for number, (_, chains) in enumerate(self.paths):
            for i in chains:
                self.path_of[i] = number
        self.potential = self._aggregate([], set(), self.best_loop)
        self._around: dict[Cell, tuple[dict[Cell, int], set[int], tuple[int, ...]]] = {}
        # the most a lone tile of this colour can be worth: one tile and two open ends (a chance
        # is at most 1, or the endgame's factor)
        weights = evaluator.weights
        self._lone = 1.0 + 2 * weights.growth * evaluator.stage * max(1.0, weights.endgame_open)
        self._known: dict[tuple[Cell, str], float] = {}

    def closes_loop(self, cell: Cell, face: str) -> int:
        """The length of the loop of this colour that a tile showing ``face`` on ``cell`` would
        close, or 0 when it closes none."""
        attached = self.ends_at.get(cell, ())
        if self.colour in face and len(attached) == 2 and attached[0] == attached[1]:
            return self.lengths[attached[0]] + 1
        return 0

    def _aggregate(self, extra: list[float], dropped: set[int], best_loop: int) -> float:
        """The best of the unchanged paths (those not ``dropped``), the ``extra`` ones and loops."""
        best = max(extra, default=0.0)
        for number, (value, _) in enumerate(self.paths):  # sorted best first
            if number not in dropped:
                best = max(best, value)
                break
        return max(best, float(best_loop))

    def after(self, cell: Cell, face: str) -> float:
        """The potential once a tile showing ``face`` goes on the empty ``cell``.

        A search asks this for every placement of every position it plays through, so answers are
        kept per (cell, the part of ``face`` that matters): the edges showing this colour and those
        facing an end of one of its chains. Whatever else the face shows changes nothing here, so
        the many placements that differ only there are worked out once."""
        around = self._around.get(cell)
        if around is None:
            around = self._around[cell] = self._neighbourhood(cell)
        touched, affected, facing = around
        colour = self.colour
        if not affected and (colour not in face or self.potential >= self._lone):
            return self.potential  # it touches none of this colour's chains: a lone tile at best
        seen = (cell, "".join(c if c == colour or d in facing else "." for d, c in enumerate(face)))
        value = self._known.get(seen)
        if value is None:
            value = self._known[seen] = self._after(cell, face, touched, affected)
        return value

    def _neighbourhood(self, cell: Cell) -> tuple[dict[Cell, int], set[int], tuple[int, ...]]:
        """For a tile on ``cell``: the cells it touches (itself as -1, each neighbour by its
        direction), the chains ending in them, and the directions that face a chain's end."""
        q, r = cell
        ends_at = self.ends_at
        touched = {cell: -1}
        for d, dq, dr in _NEAR:
            touched[(q + dq, r + dr)] = d
        affected = {i for t in touched for i in ends_at.get(t, ())}
        facing = tuple(d for t, d in touched.items() if d >= 0 and t in ends_at)
        return touched, affected, facing

    def _after(self, cell: Cell, face: str, touched: dict[Cell, int], affected: set[int]) -> float:
        colour = self.colour
        q, r = cell
        ends_at = self.ends_at
        dropped = {self.path_of[i] for i in affected}
        local = [i for number in dropped for i in self.paths[number][1]]
        lengths = {i: self.lengths[i] for i in local}
        ends = {i: self.ends[i] for i in local}
        best_loop = self.best_loop
        if colour in face:
            a = face.index(colour)
            b = face.index(colour, a + 1)
            attached = ends_at.get(cell, [])
            if len(attached) == 2 and attached[0] == attached[1]:  # the tile closes a loop
                i = attached[0]
                best_loop = max(best_loop, 2 * (lengths.pop(i) + 1))
                del ends[i]
            else:
                length = 1
                new_ends = [e for d in (a, b) if (e := (q + DIRECTIONS[d][0], r + DIRECTIONS[d][1])) not in self.board]
                for i in attached:
                    length += lengths.pop(i)
                    there = ends.pop(i)
                    new_ends.append(there[1] if there[0] == cell else there[0])
                lengths[-1] = length
                ends[-1] = (new_ends[0], new_ends[1])

        members = list(lengths)
        paths = self._paths(members, lengths, ends, touched, face)
        return self._aggregate([v for v, _ in paths], dropped, best_loop)

    def _chance(self, e: Cell) -> tuple[int, float]:
        """How many of this colour's ends point into the empty ``e`` as the board stands, and the
        chance :meth:`Evaluator.chance` gives it (kept: a search asks again for every placement
        that leaves ``e`` alone)."""
        found = self._chances.get(e)
        if found is None:
            count = len(self.ends_at.get(e, ()))
            chance = 0.0 if count > 2 else self.evaluator.chance(self.board.requirement(e), count)
            found = self._chances[e] = (count, chance)
        return found

    def _paths(self, members: list[int], lengths: Any, ends: Any, touched: dict[Cell, int], face: str,
               ) -> list[tuple[float, list[int]]]:
        """Every path or cycle among the chains ``members`` (``lengths[i]``, ``ends[i]``), joined
        at cells where exactly two ends meet, with its worth and its chains. In the ``touched``
        cells (a tile showing ``face`` goes on the one at -1, the others see its side d) the ends
        are counted among the members and the requirement changes; elsewhere the board's hold."""
        evaluator = self.evaluator
        at: dict[Cell, list[int]] = {}
        for n, i in enumerate(members):
            for e in ends[i]:
                found = at.get(e)
                if found is None:
                    at[e] = [n]
                else:
                    found.append(n)
        links: list[tuple[int, int, float]] = []
        opens: list[list[float]] = [[] for _ in members]
        for e, chains in at.items():
            d = touched.get(e)
            if d is None:
                count, chance = self._chance(e)
            else:
                count = len(chains)
                if count > 2:
                    chance = 0.0
                else:
                    need = self.board.requirement(e)
                    if d >= 0:
                        side = (d + 3) % 6
                        need = need[:side] + face[d] + need[side + 1:]
                    chance = evaluator.chance(need, count)
            if count > 2:  # no tile carries a colour three times: every end here is dead
                for n in chains:
                    opens[n].append(0.0)
            elif count == 2:
                links.append((chains[0], chains[1], chance))
            else:
                opens[chains[0]].append(chance)
        growth = evaluator.weights.growth * evaluator.stage
        return [(value, [members[n] for n in nodes])
                for value, nodes in _components([lengths[i] for i in members], links, opens, growth)]


def _components(lengths: list[int], links: list[tuple[int, int, float]], opens: list[list[float]],
                growth: float) -> list[tuple[float, list[int]]]:
    """The worth of every path or cycle of chains joined by connections, with its chains."""
    adjacent: list[list[tuple[int, float, int]]] = [[] for _ in lengths]
    for e, (i, j, p) in enumerate(links):
        adjacent[i].append((j, p, e))
        adjacent[j].append((i, p, e))
    seen = [False] * len(lengths)
    values: list[tuple[float, list[int]]] = []
    for start in range(len(lengths)):  # paths first: they start at a chain with a free end
        if seen[start] or len(adjacent[start]) == 2:
            continue
        nodes, probs = _walk(start, adjacent, seen)
        free = opens[nodes[0]] + opens[nodes[-1]] if len(nodes) > 1 else opens[start]
        values.append((_path_value([lengths[n] for n in nodes], probs, free[0], free[-1], growth), nodes))
    for start in range(len(lengths)):  # what is left are cycles
        if seen[start]:
            continue
        nodes, probs = _walk(start, adjacent, seen)
        values.append((_cycle_value([lengths[n] for n in nodes], probs, growth), nodes))
    return values


def _walk(start: int, adjacent: list[list[tuple[int, float, int]]], seen: list[bool],
          ) -> tuple[list[int], list[float]]:
    """Follow connections from ``start`` (a path's end, or anywhere on a cycle) until they stop or
    come back; the chains in order and the connection chances between them (for a cycle the last
    one closes it)."""
    nodes: list[int] = [start]
    probs: list[float] = []
    seen[start] = True
    came_by = -1
    current = start
    while True:
        step = next(((j, p, e) for j, p, e in adjacent[current] if e != came_by), None)
        if step is None:
            return nodes, probs
        j, p, e = step
        probs.append(p)
        if seen[j]:
            return nodes, probs  # back at the start of a cycle
        nodes.append(j)
        seen[j] = True
        came_by, current = e, j


def _path_value(lengths: list[int], probs: list[float], open_a: float, open_b: float, growth: float) -> float:
    """Expected length of the line through the path's best chain, plus the growth of its ends."""
    best = 0.0
    for a in range(len(lengths)):
        value = float(lengths[a])
        chance = 1.0
        for j in range(a - 1, -1, -1):
            chance *= probs[j]
            value += (lengths[j] + 1) * chance
        reach_a = chance
        chance = 1.0
        for j in range(a + 1, len(lengths)):
            chance *= probs[j - 1]
            value += (lengths[j] + 1) * chance
        value += growth * (open_a * reach_a + open_b * chance)
        best = max(best, value)
    return best


def _cycle_value(lengths: list[int], probs: list[float], growth: float) -> float:
    """A loop waiting to close: twice its length if every connection fills, else the line left
    when the weakest one never does (its two ends then blocked). Where several are weakest alike,
    the best line one of them leaves: the value must not hang on where the walk round the cycle
    began (judging a placement incrementally and judging the board after it walk differently)."""
    closed = 1.0
    for p in probs:
        closed *= p
    low = min(probs)
    total = sum(lengths) + len(lengths)
    broken = 0.0
    for weakest in [i for i, p in enumerate(probs) if p == low]:
        order = list(range(weakest + 1, len(lengths))) + list(range(weakest + 1))
        path_probs = [probs[i % len(probs)] for i in order[:-1]]
        broken = max(broken, _path_value([lengths[i] for i in order], path_probs, 0.0, 0.0, growth))
    return closed * 2 * total + (1 - closed) * broken
