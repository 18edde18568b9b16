"""The chain search: loops and lines through a set of tiles, grown tile by tile along the colour.

A loop or line through every tile of a set is a path over the hex grid. The search starts with one
tile and repeatedly puts a tile on the cell its chain points to, in a rotation that lets the chain
enter there and that keeps the golden rule with every tile already down (the board decides that:
:func:`engine.board.fits` against the cell's requirement). The rotation then says where the chain
leaves, and so which cell comes next. What keeps this fast:

* symmetry: a free-form loop's first tile lies on (0, 0) with rotation 0, so every solution is met
  exactly once (up to turning and shifting the whole arrangement);
* bounds (see :mod:`.bends`): a loop must still be able to come back, in distance, in total turn
  (exactly one full turn) and, for its last tiles, in position and heading together;
* for hole-free loops only (counting), the side of the loop that will be inside is fixed, and every
  cell on that side of a tile must itself be on the loop;
* a fixed shape (pyramid) must stay coverable by one path from the chain's end;
* a second goal colour may not close a loop too early.

Tiles not carrying the search colour (Professor, Genius) are placed afterwards, on the open ends of
the other goal colour's chain. Whatever the search finds is accepted only by :func:`.goal.status`.

The search is cooperative (see :mod:`.control`). To find one solution it restarts with growing
node budgets and shuffled choices (a bad early choice can otherwise cost minutes); the last run
always completes, so "no solution" is a proof.
"""

from __future__ import annotations

import random
from typing import Iterator, Sequence

from ..board import Board, Placement, fits
from ..geometry import Cell, distance, neighbour
from ..tiles import FACES, OTHER_END, tile
from .bends import REACH_LIMIT, bend, can_close, can_reach, turn
from .canonical import Form, canonical, fitting_motion, moved
from .control import Control
from .goal import Goal, status


class _Enough(Exception):
    """Enough solutions found: unwind."""


class _OverBudget(Exception):
    """This run's node budget is spent: restart."""


class _Start:
    """Where a search begins: the first tile's placement, the chain end left behind (``back``)
    and the one grown from (``front``); ``second_leg``: a line may also grow from ``back``."""

    __slots__ = ("placement", "back", "front", "second_leg", "clockwise")

    def __init__(self, placement: Placement, back: int, front: int, second_leg: bool, clockwise: bool | None) -> None:
        self.placement = placement
        self.back = back
        self.front = front
        self.second_leg = second_leg
        self.clockwise = clockwise


class ChainSearch:
    """One search for arrangements reaching ``goal`` that contain the ``fixed`` placements.

    ``limit``: stop after this many distinct solutions (None: all of them). ``hole_free``: accept
    only arrangements without holes. ``rng``: shuffle choices and restart with growing node budgets
    (for finding one solution fast); without it the search is one deterministic pass.
    """

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
        counts = {c: len(goal.carriers(c)) for c in goal.colours}
        self.colour = max(goal.colours, key=lambda c: counts[c])  # the colour the chain follows
        self.others = tuple(c for c in goal.colours if c != self.colour)
        self.primary = frozenset(goal.carriers(self.colour))
        self.bends = {t: bend(t, self.colour) for t in self.primary}
        fixed_tiles = {p.tile for p in self.fixed}
        # With no fixed tile on the chain the frame is free: search without the fixed tiles and
        # keep the solutions that some motion lays over them.
        self.matching = bool(self.fixed) and not (fixed_tiles & self.primary)

    # ----------------------------------------------------------------------------- running

    def run(self) -> list[list[Placement]]:
        """Search; the distinct solutions found (at most ``keep`` kept, all counted in ``forms``).
        Raises :class:`.control.Interrupted` on timeout or cancel."""
        if not self.goal.possible() or not self._fixed_ok():
            return self.solutions
        budget = 2000
        while True:
            try:
                self._pass(budget if self.rng is not None else None)
                return self.solutions
            except _Enough:
                return self.solutions
            except _OverBudget:
                budget = budget * 3 // 2

    @property
    def count(self) -> int:
        return len(self.forms)

    def _fixed_ok(self) -> bool:
        board = Board()
        for p in self.fixed:
            if p.tile not in self.goal.tiles or p.cell in board or p.tile in board.placed_tiles():
                return False
            if self.goal.shape is not None and p.cell not in self.goal.shape:
                return False
            board.push(p)
        return not board.golden_rule_breaks()

    def _pass(self, budget: int | None) -> None:
        """One complete pass over every start (raises _OverBudget when ``budget`` nodes are spent)."""
        self.budget = budget
        self.nodes = 0
        starts = list(self._starts())
        if self.rng is not None:
            self.rng.shuffle(starts)
        for start in starts:
            self._reset()
            self._begin(start)

    def _reset(self) -> None:
        self.board = Board()
        for p in [] if self.matching else self.fixed:
            self.board.push(p)
        placed = self.board.placed_tiles()
        self.todo = set(self.primary - placed)
        self.pending = {p.tile for p in self.board.placements() if p.tile in self.primary}
        self.leftovers = [t for t in self.goal.tiles if t not in self.primary and t not in placed]
        self.left = len(self.primary)
        self.counts = [0, 0, 0]  # corners, curves, straights not yet on the chain
        for t in self.primary:
            self.counts[2 - self.bends[t]] += 1
        self.sealed: set[Cell] = set()
        self.other_sealed: dict[str, set[Cell]] = {c: set() for c in self.others}
        self.demand: dict[Cell, int] = {}
        self.leg = 1
        self.pending_cells = {p.cell for p in self.board.placements() if p.tile in self.pending}

    def _starts(self) -> Iterator[_Start]:
        goal, colour = self.goal, self.colour
        # Inside-side bookkeeping needs every loop cell to be a chain tile: only without others.
        sides: tuple[bool | None, ...] = (True, False) if (
            self.hole_free and goal.closed and not self.others and not self.fixed
        ) else (None,)
        on_chain = [p for p in ([] if self.matching else self.fixed) if p.tile in self.primary]
        if on_chain:
            p = on_chain[0]
            a, b = _ends(p.tile, p.rot, colour)
            yield _Start(p, a, b, not goal.closed, None)
            return
        if goal.shape is None:
            if goal.closed:
                first = min(self.primary, key=lambda t: (self.bends[t] != 0, t))
                a, b = _ends(first, 0, colour)
                for side in sides:
                    yield _Start(Placement(first, 0, 0, 0), a, b, False, side)
            else:
                for t in sorted(self.primary):
                    a, b = _ends(t, 0, colour)
                    yield _Start(Placement(t, 0, 0, 0), a, b, False, None)
                    yield _Start(Placement(t, 0, 0, 0), b, a, False, None)
            return
        cells = sorted(goal.shape, key=lambda c: (c[1], c[0]))
        firsts = [min(self.primary)] if goal.closed else sorted(self.primary)
        for t in firsts:
            for cell in cells:
                for rot in range(6):
                    a, b = _ends(t, rot, colour)
                    for back, front in ((a, b), (b, a)) if not goal.closed else ((a, b),):
                        if neighbour(cell, front) not in goal.shape:
                            continue
                        if (neighbour(cell, back) in goal.shape) != goal.closed:
                            continue  # a loop stays inside; a line's first end points outside
                        yield _Start(Placement(t, cell[0], cell[1], rot), back, front, False, None)

    # --------------------------------------------------------------------------- the chain

    def _begin(self, start: _Start) -> None:
        p = start.placement
        self.start = start
        self.origin = p.cell
        self.close_at = neighbour(p.cell, start.back)  # where a loop's last tile goes
        self.close_heading = (start.back + 3) % 6  # the heading it leaves that tile with
        if not self.goal.closed and not start.second_leg:
            if self.goal.shape is None:
                self.sealed.add(self.close_at)  # the line's first end faces a cell left empty
        self.leg = 1 if start.second_leg else 2
        self._place(p.cell, (start.back + 3) % 6, 0, [(p.tile, p.rot)], start.front, p.tile not in self.pending)

    def _tick(self) -> None:
        self.control.tick()
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _OverBudget

    def _grow(self, cell: Cell, heading: int, turned: int) -> None:
        """Extend the chain onto ``cell``, entered with ``heading``, having turned ``turned`` so far
        (:meth:`_viable` has passed for it)."""
        self._tick()
        left = self.left
        goal = self.goal
        if not goal.closed:
            if (left == 0 or self.leg == 1) and self._may_end(cell):
                self._end_leg(cell)
            if left == 0 or cell in self.sealed:
                return
            if goal.shape is not None and not self._shape_coverable(cell):
                return
        elif self.demand and not self._demand_reachable(cell, left):
            return
        board = self.board
        entry = (heading + 3) % 6
        here = board.at(cell)
        if here is not None:
            if here.tile in self.pending and FACES[here.tile][here.rot][entry] == self.colour:
                self._place(cell, heading, turned, [(here.tile, here.rot)], OTHER_END[here.tile][here.rot][entry], False)
            return
        need = board.requirement(cell)
        options = [(t, rot, OTHER_END[t][rot][entry]) for t in self.todo for rot in fits(t, need)]
        if self.rng is not None:
            self.rng.shuffle(options)  # a way out with more tiles is more likely to come first
        else:
            options.sort()
        ways: dict[int, list[tuple[int, int]]] = {}  # where the chain leaves -> (tile, rot)
        for t, rot, out in options:
            ways.setdefault(out, []).append((t, rot))
        if goal.closed and left == 1:
            ways = {self.close_heading: ways.get(self.close_heading, [])}
        for out, group in ways.items():
            self._place(cell, heading, turned, group, out, True)

    def _viable(self, cell: Cell, heading: int, turned: int, left: int) -> bool:
        """The cheap bounds, checked before a tile goes down: can a chain with ``left`` tiles to
        go, entering ``cell`` with ``heading`` after turning ``turned``, still be completed?"""
        here = self.board.at(cell)
        if here is not None and here.tile not in self.pending:
            return False
        if not self.goal.closed:
            return True
        target = self.close_at
        gap = distance(cell, target)
        if gap > left - 1 or (gap == 0 and left > 1):
            return False
        corners, curves, _ = self.counts
        if not can_close(turned, corners, curves, self.start.clockwise):
            return False
        if left <= REACH_LIMIT and not can_reach(cell, heading, self.origin, self.close_heading, tuple(self.counts)):
            return False
        for c in self.pending_cells:
            if distance(cell, c) + distance(c, target) > left - 1:
                return False
        return self.goal.shape is None or cell in self.goal.shape

    def _place(
        self, cell: Cell, heading: int, turned: int, options: list[tuple[int, int]], out: int, new: bool
    ) -> None:
        """Try each (tile, rot) of ``options`` on ``cell`` as the chain's next tile (or pass
        through the fixed one there), all leaving towards ``out``, so sharing one bend and one
        check of the bounds; go on from where the chain leaves, then take the tile back."""
        board = self.board
        size = abs(turn(heading, out))
        closing = self.goal.closed and self.left == 1
        nxt = neighbour(cell, out)
        self.counts[2 - size] -= 1
        self.left -= 1
        if not new:
            self.pending.discard(options[0][0])
            self.pending_cells.discard(cell)
        turned += turn(heading, out)
        try:
            if not closing and not self._viable(nxt, out, turned, self.left):
                return
            for t, rot in options:
                if new:
                    board.push(Placement(t, cell[0], cell[1], rot))
                    self.todo.discard(t)
                marked = self._mark_inside(cell, heading, out) if self.start.clockwise is not None else ()
                try:
                    if any(c in tile(t).edges and self._closes_early(cell, c) for c in self.others):
                        continue
                    if closing:
                        if cell == self.close_at:
                            self._complete()
                    else:
                        self._grow(nxt, out, turned)
                finally:
                    for c in marked:
                        n = self.demand[c] - 1
                        if n:
                            self.demand[c] = n
                        else:
                            del self.demand[c]
                    if new:
                        board.undo()
                        self.todo.add(t)
        finally:
            self.left += 1
            self.counts[2 - size] += 1
            if not new:
                self.pending.add(options[0][0])
                self.pending_cells.add(cell)

    # ----------------------------------------------------------------- lines and their ends

    def _may_end(self, cell: Cell) -> bool:
        """Whether a line may end facing ``cell``: it stays empty (outside a fixed shape)."""
        if cell in self.board:
            return False
        if self.goal.shape is not None:
            return cell not in self.goal.shape
        return True

    def _end_leg(self, cell: Cell) -> None:
        """End the line's current leg facing ``cell``; a first leg continues from the start
        tile's other end, a last one completes the arrangement."""
        added = cell not in self.sealed
        self.sealed.add(cell)
        try:
            if self.leg == 1:
                self.leg = 2
                try:
                    back = self.start.back
                    self._grow(neighbour(self.origin, back), back, 0)
                finally:
                    self.leg = 1
            elif self.left == 0:
                self._complete()
        finally:
            if added:
                self.sealed.discard(cell)

    def _shape_coverable(self, cell: Cell) -> bool:
        """In a shape with one cell per tile, one path from ``cell`` must cover every empty cell:
        they are connected and at most one of them (the line's far end) is a dead end."""
        shape = self.goal.shape
        assert shape is not None
        if cell not in shape or cell in self.board:
            return False
        if len(shape) != len(self.goal.tiles) or self.others:
            return True
        empty = {c for c in shape if c not in self.board}
        seen = {cell}
        todo = [cell]
        dead_ends = 0
        while todo:
            c = todo.pop()
            free = [n for d in range(6) if (n := neighbour(c, d)) in empty]
            if c != cell and len(free) <= 1:
                dead_ends += 1
            for n in free:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(empty) and dead_ends <= 1

    # -------------------------------------------------------------- hole-free loops only

    def _mark_inside(self, cell: Cell, heading: int, out: int) -> list[Cell]:
        """Record the empty cells on the inner side of the tile on ``cell``: a hole-free loop
        must pass through every one of them."""
        entry = (heading + 3) % 6
        first, stop = (out, entry) if self.start.clockwise else (entry, out)
        marked = []
        d = (first + 1) % 6
        while d != stop:
            n = neighbour(cell, d)
            if n not in self.board:
                self.demand[n] = self.demand.get(n, 0) + 1
                marked.append(n)
            d = (d + 1) % 6
        return marked

    def _demand_reachable(self, cell: Cell, left: int) -> bool:
        """Every empty inner-side cell must still be visited on the way back to the start."""
        board = self.board
        waiting = [c for c in self.demand if c not in board]
        if len(waiting) > left:
            return False
        target = self.close_at
        return all(distance(cell, c) + distance(c, target) <= left - 1 for c in waiting)

    # --------------------------------------------------------- the other goal colours

    def _closes_early(self, cell: Cell, colour: str) -> bool:
        """Whether ``colour``'s chain through ``cell`` is now a loop it must not yet be."""
        length = _loop_length(self.board, cell, colour)
        if length is None:
            return False
        return not self.goal.closed or length < len(self.goal.carriers(colour))

    def _complete(self) -> None:
        """The chain is done: place the remaining tiles on the open ends of the other colours."""
        self._tick()
        if not self.leftovers:
            self._accept()
            return
        board = self.board
        best: tuple[Cell, str, list[tuple[int, int]]] | None = None
        for p in board.placements():
            face = FACES[p.tile][p.rot]
            for d in range(6):
                colour = face[d]
                if colour not in self.other_sealed:
                    continue
                n = neighbour(p.cell, d)
                if n in board or n in self.other_sealed[colour]:
                    continue
                need = board.requirement(n)
                options = [(t, rot) for t in self.leftovers for rot in fits(t, need)]
                if best is None or len(options) < len(best[2]):
                    best = (n, colour, options)
        if best is None:
            self._place_anywhere()
            return
        cell, colour, options = best
        if self.rng is not None:
            self.rng.shuffle(options)
        for t, rot in options:
            board.push(Placement(t, cell[0], cell[1], rot))
            self.leftovers.remove(t)
            try:
                if not any(c in tile(t).edges and self._closes_early(cell, c) for c in self.others):
                    self._complete()
            finally:
                board.undo()
                self.leftovers.append(t)
                self.leftovers.sort()
        if not self.goal.closed and len(self.other_sealed[colour]) < 2:
            self.other_sealed[colour].add(cell)  # this end of the line stays open
            try:
                self._complete()
            finally:
                self.other_sealed[colour].discard(cell)

    def _place_anywhere(self) -> None:
        """No open end is left: only a tile carrying no goal colour may still go down (anywhere)."""
        goal_colours = set(self.goal.colours)
        t = self.leftovers[0]
        if goal_colours & set(tile(t).edges):
            return
        for p in self.board.legal_placements([t], restricted=False):
            self.board.push(p)
            self.leftovers.remove(t)
            try:
                self._complete()
            finally:
                self.board.undo()
                self.leftovers.insert(0, t)

    def _accept(self) -> None:
        board = self.board
        if not status(board, self.goal).solved:
            return
        if self.hole_free and board.holes():
            return
        placements = board.placements()
        if self.matching:
            motion = fitting_motion(self.fixed, placements)
            if motion is None:
                return
            placements = moved(placements, *motion)
        form = canonical(placements)
        if form in self.forms:
            return
        self.forms.add(form)
        self.control.solutions += 1
        if len(self.solutions) < self.keep:
            self.solutions.append(placements)
        if self.limit is not None and len(self.forms) >= self.limit:
            raise _Enough


def _ends(t: int, rot: int, colour: str) -> tuple[int, int]:
    """The two directions tile ``t`` with rotation ``rot`` shows ``colour`` towards."""
    face = FACES[t][rot]
    a = face.index(colour)
    return a, face.index(colour, a + 1)


def _loop_length(board: Board, cell: Cell, colour: str) -> int | None:
    """The number of tiles on ``colour``'s chain through ``cell`` if it closes, else None."""
    here = board.at(cell)
    assert here is not None
    direction = FACES[here.tile][here.rot].index(colour)
    at, length = cell, 1
    while True:
        nxt = neighbour(at, direction)
        there = board.at(nxt)
        back = (direction + 3) % 6
        if there is None or FACES[there.tile][there.rot][back] != colour:
            return None
        if nxt == cell:
            return length
        length += 1
        at, direction = nxt, OTHER_END[there.tile][there.rot][back]
