"""The weave search: several chains at once, or one chain inside a fixed shape.

Where a goal asks for two chains through mostly the same tiles (Professor, Genius) or for a line
filling a pyramid, the arrangement is dense and the golden rule does most of the work, so this
search is driven by the most constrained spot instead of by a chain's head. Every tile of a goal
carries a goal colour, so a solution is connected through goal-colour links: starting from one
tile (or from the player's tiles), every open end of a goal colour (a placed tile showing that
colour towards an empty cell) must one day meet a tile, unless it is one of a line's two ends.
At each step the open cell with the fewest fitting (tile, rotation) pairs is decided: each pair in
turn, and, if a line may still end there, leaving it empty for good. Each solution is reached by
exactly one path (given the fixed first tile), so the search also counts.

Bounds, all cheap necessary conditions: no chain may close early; a colour's open ends drop by at
most two per tile still carrying it; every open cell needs a tile of its own (a matching of cells to
tiles) unless a line ends there; joining a colour's pieces takes at least a spanning tree's worth
of tiles along shortest paths; and solutions are compact (n tiles touch along at most
3n - ceil(sqrt(12n - 3)) edges, and the chains already need most of them).
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from ..board import Board, Placement, fits
from ..geometry import DIRECTIONS, Cell, neighbour
from ..tiles import FACES, tile
from .canonical import Form, canonical
from .control import Control, Enough, OverBudget, restarting
from .goal import Goal, status


class WeaveSearch:
    """Arrangements reaching ``goal`` that contain the ``fixed`` placements (same options as
    :class:`.chain.ChainSearch`)."""

    def __init__(
        self,
        goal: Goal,
        fixed: Sequence[Placement] = (),
        *,
        limit: int | None = 1,
        hole_free: bool = False,
        control: Control | None = None,
        rng: random.Random | None = None,
        keep: int = 10,
    ) -> None:
        self.goal = goal
        self.fixed = list(fixed)
        self.limit = limit
        self.hole_free = hole_free
        self.control = control if control is not None else Control()
        self.rng = rng
        self.keep = keep
        self.forms: set[Form] = set()
        self.solutions: list[list[Placement]] = []
        self.carriers = {c: frozenset(goal.carriers(c)) for c in goal.colours}
        self.full_shape = goal.shape is not None and len(goal.shape) == len(goal.tiles)
        # n cells touch along at most 3n - ceil(sqrt(12n - 3)) edges (Harary and Harborth); the
        # chains use (carriers - 1) of them per line, carriers per loop; only the rest may touch
        # in other colours.
        n = len(goal.tiles)
        links = sum(len(c) - (not goal.closed) for c in self.carriers.values())
        self.other_contacts_allowed = 3 * n - math.isqrt(12 * n - 4) - 1 - links

    @property
    def count(self) -> int:
        return len(self.forms)

    def run(self) -> list[list[Placement]]:
        """Search; the distinct solutions found (see :meth:`.chain.ChainSearch.run`)."""
        if not self.goal.possible() or not self.goal.can_hold(self.fixed):
            return self.solutions
        restarting(self._pass, 4000, randomised=self.rng is not None)
        return self.solutions

    def _pass(self, budget: int | None) -> None:
        self.budget = budget
        self.nodes = 0
        self.board = Board()
        self.faces: dict[Cell, str] = {}
        self.todo = set(self.goal.tiles)
        self.sealed: set[Cell] = set()
        # Kept up to date by _put/_take and _seal/_unseal rather than recomputed at every step:
        self.open: dict[Cell, list[str]] = {}  # empty cell -> colours of the open ends facing it
        self.ends = dict.fromkeys(self.goal.colours, 0)  # open ends per goal colour
        self.sealed_ends = dict.fromkeys(self.goal.colours, 0)  # ends left open for good
        self.left = {c: len(t) for c, t in self.carriers.items()}  # carriers not yet placed
        self.other_contacts = 0  # touching edges in colours that are not goal colours
        for p in self.fixed:
            self._put(p)
        if self.fixed:
            self._step()
            return
        # Nothing placed yet: fix the first tile. Free-form, any solution can be turned and shifted
        # to have it on (0, 0) with rotation 0; in a shape, some tile fills a chosen corner.
        if self.goal.shape is None:
            first = max(self.goal.tiles, key=lambda t: (sum(c in tile(t).edges for c in self.goal.colours), -t))
            starts = [Placement(first, 0, 0, 0)]
        else:
            shape = self.goal.shape
            corner = min(shape, key=lambda c: (sum(neighbour(c, d) in shape for d in range(6)), c[1], c[0]))
            starts = [Placement(t, corner[0], corner[1], rot) for t in sorted(self.goal.tiles) for rot in range(6)]
        if self.rng is not None:
            self.rng.shuffle(starts)
        for p in starts:
            self._try(p)

    # ------------------------------------------------------------------------- the search

    def _put(self, p: Placement) -> list[str] | None:
        """Place ``p`` and update the open ends; returns what _take needs to undo it."""
        cell = p.cell
        face = FACES[p.tile][p.rot]
        self.board.push(p)
        self.faces[cell] = face
        self.todo.discard(p.tile)
        ends, faces = self.ends, self.faces
        for c in self.goal.colours:
            if c in face:
                self.left[c] -= 1
        met = self.open.pop(cell, None)  # the ends facing this cell are joined now
        for c in met or ():
            ends[c] -= 1
        q, r = cell
        for d, (dq, dr) in enumerate(DIRECTIONS):
            n = (q + dq, r + dr)
            colour = face[d]
            if n in faces:
                if colour not in ends:
                    self.other_contacts += 1
            elif colour in ends:
                if self._closed(n):
                    self.sealed_ends[colour] += 1
                else:
                    self.open.setdefault(n, []).append(colour)
                    ends[colour] += 1
        return met

    def _take(self, p: Placement, met: list[str] | None) -> None:
        """Undo ``_put(p)``."""
        cell = p.cell
        face = self.faces[cell]
        ends, faces = self.ends, self.faces
        q, r = cell
        for d, (dq, dr) in enumerate(DIRECTIONS):
            n = (q + dq, r + dr)
            colour = face[d]
            if n in faces:
                if colour not in ends:
                    self.other_contacts -= 1
            elif colour in ends:
                if self._closed(n):
                    self.sealed_ends[colour] -= 1
                else:
                    facing = self.open[n]
                    facing.remove(colour)
                    if not facing:
                        del self.open[n]
                    ends[colour] -= 1
        if met:
            self.open[cell] = met
            for c in met:
                ends[c] += 1
        for c in self.goal.colours:
            if c in face:
                self.left[c] += 1
        del faces[cell]
        self.todo.add(p.tile)
        self.board.undo()

    def _try(self, p: Placement) -> None:
        met = self._put(p)
        try:
            if not any(c in self.faces[p.cell] and self._closes_early(p.cell, c) for c in self.goal.colours):
                self._step()
        finally:
            self._take(p, met)

    def _seal(self, cell: Cell) -> None:
        """Leave ``cell`` empty for good: the line ends facing it are final."""
        self.sealed.add(cell)
        for c in self.open.pop(cell):
            self.ends[c] -= 1
            self.sealed_ends[c] += 1

    def _unseal(self, cell: Cell, facing: list[str]) -> None:
        self.sealed.discard(cell)
        self.open[cell] = facing
        for c in facing:
            self.ends[c] += 1
            self.sealed_ends[c] -= 1

    def _closed(self, cell: Cell) -> bool:
        """Whether ``cell`` must stay empty: an end left open there, or outside the shape."""
        shape = self.goal.shape
        return cell in self.sealed or (shape is not None and cell not in shape)

    def _step(self) -> None:
        self.control.tick()
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OverBudget
        if not self.todo:
            self._accept()
            return
        goal, board = self.goal, self.board
        if self.other_contacts > self.other_contacts_allowed:
            return  # the arrangement cannot be compact enough for all its chains
        ends_allowed = 0 if goal.closed else 2
        spares: dict[str, int] = {}
        for colour in goal.colours:
            left, ends = self.left[colour], self.ends[colour]
            spare = spares[colour] = ends_allowed - self.sealed_ends[colour]
            if spare < 0 or ends > 2 * left + spare:
                return
            if left and not ends and len(self.carriers[colour]) > left:
                return  # the chain so far is finished, yet tiles of its colour remain
        cells = self.open
        if self.full_shape:  # every cell of a full shape gets a tile, whatever faces it
            cells = {c: cells.get(c, []) for c in board.frontier() if not self._closed(c)}
        if len(cells) > len(self.todo) + sum(spares.values()):
            return  # each open cell takes a tile of its own, or is left empty by a line's end
        for colour in goal.colours:
            if self._joining_cost(colour, spares[colour]) > self.left[colour]:
                return
        best: Cell | None = None
        best_options: list[tuple[int, int]] = []
        best_branches = 0
        takers: list[set[int]] = []  # for each open cell, the tiles that could go there
        todo = self.todo
        for n, facing in cells.items():
            need = board.requirement(n)
            options = [(t, rot) for t in todo for rot in fits(t, need)]
            sealable = self._may_seal(n, facing)
            if not options and not sealable:
                return
            takers.append({t for t, _ in options})
            branches = len(options) + sealable
            if best is None or branches < best_branches:
                best, best_options, best_branches = n, options, branches
        if best is None:
            return  # tiles remain but nothing can join them to the arrangement
        if _matching(takers) < len(cells) - sum(spares.values()):
            return  # not enough different tiles for the cells that must be filled
        cell = best
        sealable = self._may_seal(cell, cells[cell])
        if self.rng is not None:
            self.rng.shuffle(best_options)
        else:
            best_options.sort()
        for t, rot in best_options:
            self._try(Placement(t, cell[0], cell[1], rot))
        if sealable:
            facing = list(self.open[cell])
            self._seal(cell)
            try:
                self._step()
            finally:
                self._unseal(cell, facing)

    def _joining_cost(self, colour: str, spare: int) -> int:
        """A lower bound on the tiles of ``colour`` still needed to join its pieces into one
        chain. Joining two open ends takes a tile on every cell of a path between the cells they
        face; the joins connect all pieces (a spanning tree at least), and every open end but the
        ``spare`` line ends left is joined (at least half the sum, over those ends, of the
        cheapest join each could make)."""
        faces, closed = self.faces, self._closed
        seen: set[Cell] = set()
        pieces: list[list[Cell]] = []  # the open cells each piece's ends face
        for cell, face in faces.items():
            if cell in seen or colour not in face:
                continue
            seen.add(cell)
            ends = []
            first = face.index(colour)
            for d in (first, face.index(colour, first + 1)):
                q, r = cell
                while True:
                    dq, dr = DIRECTIONS[d]
                    q, r = q + dq, r + dr
                    n = (q, r)
                    there = faces.get(n)
                    if there is None:
                        if not closed(n):
                            ends.append(n)
                        break
                    if n == cell:
                        break  # a loop
                    seen.add(n)
                    back = (d + 3) % 6
                    k = there.index(colour)
                    d = there.index(colour, k + 1) if k == back else k
            pieces.append(ends)
        if len(pieces) < 2:
            return 0
        if not all(pieces):
            return len(self.todo) + 1  # a finished piece can never join the others
        # near[i][j]: the cheapest join (cells on a shortest path between the faced cells, + 1)
        # from piece i to piece j; cheapest: the same for each end to any other piece.
        count = len(pieces)
        near = [[0] * count for _ in range(count)]
        cheapest = []
        for i, ends in enumerate(pieces):
            for a0, a1 in ends:
                best_end = 1 << 30
                for j, other in enumerate(pieces):
                    if j == i:
                        continue
                    cost = min((abs(a0 - b0) + abs(a1 - b1) + abs(a0 - b0 + a1 - b1)) // 2 for b0, b1 in other) + 1
                    if near[i][j] == 0 or cost < near[i][j]:
                        near[i][j] = cost
                    best_end = min(best_end, cost)
                cheapest.append(best_end)
        cheapest.sort()
        ends_bound = (sum(cheapest[: max(0, len(cheapest) - spare)]) + 1) // 2
        # Prim's spanning tree over the pieces
        tree = 0
        reach = near[0][1:]
        rest = list(range(1, count))
        while rest:
            k = min(range(len(rest)), key=reach.__getitem__)
            tree += reach[k]
            joined = rest.pop(k)
            reach.pop(k)
            reach = [min(c, near[joined][j]) for c, j in zip(reach, rest)]
        return max(tree, ends_bound)

    def _may_seal(self, cell: Cell, facing: list[str]) -> bool:
        """Whether ``cell`` may stay empty for good: only line ends face it, and each of those
        lines has an end to spare; a full shape leaves no cell empty."""
        if self.goal.closed or not facing or self.full_shape:
            return False
        return all(self.sealed_ends[c] + facing.count(c) <= 2 for c in set(facing))

    def _closes_early(self, cell: Cell, colour: str) -> bool:
        """Whether ``colour``'s chain through ``cell`` is now a loop it must not (yet) be."""
        length = _loop_length(self.faces, cell, colour)
        if length is None:
            return False
        return not self.goal.closed or length < len(self.carriers[colour])

    def _accept(self) -> None:
        board = self.board
        if not status(board, self.goal).solved:
            return
        if self.hole_free and board.holes():
            return
        placements = board.placements()
        form = canonical(placements)
        if form in self.forms:
            return
        self.forms.add(form)
        self.control.solutions += 1
        if len(self.solutions) < self.keep:
            self.solutions.append(placements)
        if self.limit is not None and len(self.forms) >= self.limit:
            raise Enough


def _loop_length(faces: dict[Cell, str], cell: Cell, colour: str) -> int | None:
    """The number of tiles on ``colour``'s chain through ``cell`` if it closes, else None."""
    direction = faces[cell].index(colour)
    at, length = cell, 1
    while True:
        nxt = neighbour(at, direction)
        face = faces.get(nxt)
        back = (direction + 3) % 6
        if face is None or face[back] != colour:
            return None
        if nxt == cell:
            return length
        length += 1
        other = face.index(colour)
        if other == back:
            other = face.index(colour, back + 1)
        at, direction = nxt, other


def _matching(takers: list[set[int]]) -> int:
    """The most cells that can each get a different tile (Kuhn's augmenting paths)."""
    owner: dict[int, int] = {}

    def assign(i: int, tried: set[int]) -> bool:
        for t in takers[i]:
            if t not in tried:
                tried.add(t)
                if t not in owner or assign(owner[t], tried):
                    owner[t] = i
                    return True
        return False

    return sum(assign(i, set()) for i in range(len(takers)))
