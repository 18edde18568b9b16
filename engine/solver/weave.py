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

Bounds: a colour's open ends can drop by at most two per tile still carrying it, a colour with
tiles to come cannot have run out of open ends, no chain may close early, and in a shape every
empty cell beside the tiles must still take some tile.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from ..board import Board, Placement, fits
from ..geometry import Cell, distance, neighbour
from ..tiles import FACES, tile
from .canonical import Form, canonical
from .control import Control
from .goal import Goal, status


class _Enough(Exception):
    """Enough solutions found: unwind."""


class _OverBudget(Exception):
    """This run's node budget is spent: restart."""


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
        # chains use (carriers - 1) of them per line, carriers per loop; the rest may touch in
        # other colours. Counted from both sides, as the scan in _step meets them.
        n = len(goal.tiles)
        links = sum(len(c) - (not goal.closed) for c in self.carriers.values())
        self.other_contacts_allowed = 2 * (3 * n - math.isqrt(12 * n - 4) - 1 - links)

    @property
    def count(self) -> int:
        return len(self.forms)

    def run(self) -> list[list[Placement]]:
        """Search; the distinct solutions found (see :meth:`.chain.ChainSearch.run`)."""
        if not self.goal.possible() or not self.goal.can_hold(self.fixed):
            return self.solutions
        budget = 4000
        while True:
            try:
                self._pass(budget if self.rng is not None else None)
                return self.solutions
            except _Enough:
                return self.solutions
            except _OverBudget:
                budget = budget * 3 // 2

    def _pass(self, budget: int | None) -> None:
        self.budget = budget
        self.nodes = 0
        self.board = Board()
        self.faces: dict[Cell, str] = {}
        self.todo = set(self.goal.tiles)
        self.sealed: set[Cell] = set()
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
            corner = min(self.goal.shape, key=lambda c: (sum(neighbour(c, d) in self.goal.shape for d in range(6)), c[1], c[0]))
            starts = [Placement(t, corner[0], corner[1], rot) for t in sorted(self.goal.tiles) for rot in range(6)]
        if self.rng is not None:
            self.rng.shuffle(starts)
        for p in starts:
            self._try(p)

    # ------------------------------------------------------------------------- the search

    def _put(self, p: Placement) -> None:
        self.board.push(p)
        self.faces[p.cell] = FACES[p.tile][p.rot]
        self.todo.discard(p.tile)

    def _take(self, p: Placement) -> None:
        self.board.undo()
        del self.faces[p.cell]
        self.todo.add(p.tile)

    def _try(self, p: Placement) -> None:
        self._put(p)
        try:
            if not any(c in self.faces[p.cell] and self._closes_early(p.cell, c) for c in self.goal.colours):
                self._step()
        finally:
            self._take(p)

    def _closed(self, cell: Cell) -> bool:
        """Whether ``cell`` must stay empty: an end left open there, or outside the shape."""
        shape = self.goal.shape
        return cell in self.sealed or (shape is not None and cell not in shape)

    def _step(self) -> None:
        self.control.tick()
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _OverBudget
        if not self.todo:
            self._accept()
            return
        goal, board = self.goal, self.board
        open_ends: dict[str, int] = dict.fromkeys(goal.colours, 0)
        sealed_ends: dict[str, int] = dict.fromkeys(goal.colours, 0)
        cells: dict[Cell, list[str]] = {}  # open cell -> colours whose ends face it
        other_contacts = 0  # touching edges of other colours, each seen from both sides
        for cell, face in self.faces.items():
            for d in range(6):
                colour = face[d]
                n = neighbour(cell, d)
                if n in self.faces:
                    if colour not in open_ends:
                        other_contacts += 1
                    continue
                if colour in open_ends:
                    if self._closed(n):
                        sealed_ends[colour] += 1
                        continue
                    open_ends[colour] += 1
                    cells.setdefault(n, []).append(colour)
                elif self.full_shape and not self._closed(n):
                    cells.setdefault(n, [])  # every cell of a full shape gets a tile
        if other_contacts > self.other_contacts_allowed:
            return  # the arrangement cannot be compact enough for all its chains
        ends_allowed = 0 if goal.closed else 2
        spares = 0
        for colour in goal.colours:
            left = sum(1 for t in self.todo if t in self.carriers[colour])
            spare = ends_allowed - sealed_ends[colour]
            if spare < 0 or open_ends[colour] > 2 * left + spare:
                return
            if left and not open_ends[colour] and len(self.carriers[colour]) > left:
                return  # the chain so far is finished, yet tiles of its colour remain
            if self._joining_cost(colour, spare) > left:
                return
            spares += spare
        if len(cells) > len(self.todo) + spares:
            return  # each open cell takes a tile of its own, or is left empty by a line's end
        best: tuple[Cell, list[Placement]] | None = None
        takers: list[set[int]] = []  # for each open cell, the tiles that could go there
        for n in cells:
            need = board.requirement(n)
            options = [Placement(t, n[0], n[1], rot) for t in self.todo for rot in fits(t, need)]
            if not options and not self._may_seal(n, cells[n], sealed_ends):
                return
            takers.append({p.tile for p in options})
            if best is None or len(options) < len(best[1]):
                best = (n, options)
        if best is None:
            return  # tiles remain but nothing can join them to the arrangement
        if _matching(takers) < len(cells) - spares:
            return  # not enough different tiles for the cells that must be filled
        cell, options = best
        if self.rng is not None:
            self.rng.shuffle(options)
        for p in options:
            self._try(p)
        if self._may_seal(cell, cells[cell], sealed_ends):
            self.sealed.add(cell)
            try:
                self._step()
            finally:
                self.sealed.discard(cell)

    def _joining_cost(self, colour: str, spare: int) -> int:
        """A lower bound on the tiles of ``colour`` still needed to join its pieces into one
        chain. Joining two open ends takes a tile on every cell of a path between the cells they
        face; the joins connect all pieces (a spanning tree at least), and every open end but the
        ``spare`` line ends left is joined (at least half the sum, over those ends, of the
        cheapest join each could make)."""
        faces = self.faces
        seen: set[Cell] = set()
        pieces: list[list[Cell]] = []  # the open cells each piece's ends face
        for cell, face in faces.items():
            if cell in seen or colour not in face:
                continue
            seen.add(cell)
            ends = []
            first = face.index(colour)
            for d in (first, face.index(colour, first + 1)):
                at = cell
                while True:
                    n = neighbour(at, d)
                    there = faces.get(n)
                    if there is None:
                        if not self._closed(n):
                            ends.append(n)
                        break
                    if n == cell:
                        break  # a loop
                    seen.add(n)
                    back = (d + 3) % 6
                    other = there.index(colour)
                    d = there.index(colour, other + 1) if other == back else other
                    at = n
            pieces.append(ends)
        if len(pieces) < 2:
            return 0
        if any(not ends for ends in pieces):
            return len(self.todo) + 1  # a finished piece can never join the others
        cheapest = sorted(
            min(distance(e, f) + 1 for j, other in enumerate(pieces) if j != i for f in other)
            for i, ends in enumerate(pieces) for e in ends
        )
        ends_bound = (sum(cheapest[: max(0, len(cheapest) - spare)]) + 1) // 2
        # Prim's algorithm over the pieces, joining cost = cells on the shortest path + 1
        cost = 0
        joined = [pieces[0]]
        rest = pieces[1:]
        best = [min(distance(a, b) for a in rest_ends for b in pieces[0]) + 1 for rest_ends in rest]
        while rest:
            i = min(range(len(rest)), key=best.__getitem__)
            cost += best[i]
            piece = rest.pop(i)
            best.pop(i)
            joined.append(piece)
            best = [min(b, min(distance(x, y) for x in r for y in piece) + 1) for b, r in zip(best, rest)]
        return max(cost, ends_bound)

    def _may_seal(self, cell: Cell, colours: list[str], sealed_ends: dict[str, int]) -> bool:
        """Whether ``cell`` may stay empty for good: only line ends face it, and each of those
        lines has an end to spare; a full shape leaves no cell empty."""
        if self.goal.closed or not colours or self.full_shape:
            return False
        return all(sealed_ends[c] + colours.count(c) <= 2 for c in set(colours))

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
            raise _Enough


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
