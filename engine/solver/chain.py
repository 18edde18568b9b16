"""The chain search: one loop of one colour through every tile of a set, grown along the colour.

A loop through every tile of a set is a closed path over the hex grid. The search starts with one
tile and repeatedly puts a tile on the cell the chain points to, in a rotation that lets the chain
enter there and that keeps the golden rule with every tile already down (the board decides that:
:func:`engine.board.fits` against the cell's requirement). The rotation then says where the chain
leaves, and so which cell comes next. What keeps this fast:

* symmetry: without fixed tiles the first tile lies on (0, 0) with rotation 0, so every solution is
  met exactly once (up to turning and shifting the whole arrangement);
* bounds (see :mod:`.bends`), checked before a tile goes down: the chain must still be able to come
  back, in distance, in total turn (exactly one full turn) and, for its last tiles, in position and
  heading together; tiles with the same bend share one check (the booklet's hint: for the loop's
  shape they are interchangeable);
* for hole-free loops only (counting), the side of the loop that will be inside is fixed, and every
  cell on that side of a tile must itself be on the loop.

Fixed tiles (the player's, when asking for a hint) stay where they are: the chain starts from one
of them and must pass through all the others. Whatever the search finds is accepted only by
:func:`.goal.status`. To find one solution it restarts with growing node budgets and shuffled
choices (a bad early choice can otherwise cost minutes); the last run always completes, so "no
solution" is a proof.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..board import Board, Placement, fits
from ..geometry import Cell, distance, neighbour
from ..tiles import FACES, OTHER_END
from .bends import REACH_LIMIT, bend, can_close, can_reach, turn
from .canonical import Form, canonical
from .control import Control, Enough, OverBudget, restarting
from .goal import Goal, status


class ChainSearch:
    """Loops through all tiles of a one-colour, free-form, closed ``goal``, containing the
    ``fixed`` placements.

    ``limit``: stop after this many distinct solutions (None: all of them). ``hole_free``: accept
    only arrangements without holes. ``rng``: shuffle choices and restart with growing node budgets
    (for finding one solution fast); without it the search is one deterministic pass. ``keep``:
    how many solutions to keep (all are counted).
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
        if len(goal.colours) != 1 or not goal.closed or goal.shape is not None:
            raise ValueError("the chain search finds one free-form loop of one colour")
        self.goal = goal
        self.colour = goal.colours[0]
        self.fixed = list(fixed)
        self.limit = limit
        self.hole_free = hole_free
        self.control = control if control is not None else Control()
        self.rng = rng
        self.keep = keep
        self.forms: set[Form] = set()
        self.solutions: list[list[Placement]] = []
        self.bends = {t: bend(t, self.colour) for t in goal.tiles}

    @property
    def count(self) -> int:
        """How many distinct solutions were found."""
        return len(self.forms)

    def run(self) -> list[list[Placement]]:
        """Search; the distinct solutions found (at most ``keep`` kept, all counted). Raises
        :class:`.control.Interrupted` on timeout or cancel."""
        if not self.goal.possible() or not self.goal.can_hold(self.fixed):
            return self.solutions
        restarting(self._pass, 2000, randomised=self.rng is not None)
        return self.solutions

    # ----------------------------------------------------------------------------- set up

    def _pass(self, budget: int | None) -> None:
        """One complete pass (raises OverBudget once ``budget`` nodes are spent)."""
        self.budget = budget
        self.nodes = 0
        if self.fixed:
            first = self.fixed[0]
            sides: tuple[bool | None, ...] = (None,)
        else:
            # Any solution turned and shifted has this tile on (0, 0) with rotation 0. Hole-free
            # solutions go round one way or the other: decide which, to know the inside.
            number = min(self.goal.tiles, key=lambda t: (self.bends[t] != 0, t))
            first = Placement(number, 0, 0, 0)
            sides = (True, False) if self.hole_free else (None,)
        for clockwise in sides:
            self.board = Board()
            for p in self.fixed:
                self.board.push(p)
            self.todo = set(self.goal.tiles) - self.board.placed_tiles()
            self.pending = {p.cell for p in self.fixed}  # fixed tiles the chain has yet to pass
            self.left = len(self.goal.tiles)  # tiles not yet on the chain
            self.counts = [0, 0, 0]  # corners, curves, straights among them
            for t in self.goal.tiles:
                bends = self.bends[t]
                assert bends is not None  # the goal's tiles all carry its colour
                self.counts[2 - bends] += 1
            self.demand: dict[Cell, int] = {}
            self.clockwise = clockwise
            face = FACES[first.tile][first.rot]
            back = face.index(self.colour)
            front = face.index(self.colour, back + 1)
            self.origin = first.cell
            self.close_at = neighbour(first.cell, back)  # where the last tile goes
            self.close_heading = (back + 3) % 6  # and the heading it leaves with
            self._place(first.cell, (back + 3) % 6, 0, [(first.tile, first.rot)], front, not self.fixed)

    # --------------------------------------------------------------------------- the chain

    def _grow(self, cell: Cell, heading: int, turned: int) -> None:
        """Extend the chain onto ``cell``, entered with ``heading``, having turned ``turned`` so
        far (:meth:`_viable` has passed for it)."""
        self.control.tick()
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OverBudget
        if self.demand and not self._inside_reachable(cell):
            return
        board = self.board
        entry = (heading + 3) % 6
        here = board.at(cell)
        if here is not None:  # a fixed tile (as _viable checked): the chain must pass through it
            if FACES[here.tile][here.rot][entry] == self.colour:
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
        if self.left == 1:
            ways = {self.close_heading: ways.get(self.close_heading, [])}
        for out, group in ways.items():
            self._place(cell, heading, turned, group, out, True)

    def _viable(self, cell: Cell, heading: int, turned: int) -> bool:
        """The cheap bounds, checked before a tile goes down: can the chain, entering ``cell``
        with ``heading`` after turning ``turned``, still close with the tiles it has left?"""
        if cell in self.board and cell not in self.pending:
            return False
        left = self.left
        target = self.close_at
        gap = distance(cell, target)
        if gap > left - 1 or (gap == 0 and left > 1):
            return False
        corners, curves, straights = self.counts
        if not can_close(turned, corners, curves, self.clockwise):
            return False
        if left <= REACH_LIMIT and not can_reach(cell, heading, self.origin, self.close_heading,
                                                 (corners, curves, straights)):
            return False
        return all(distance(cell, c) + distance(c, target) <= left - 1 for c in self.pending)

    def _place(self, cell: Cell, heading: int, turned: int, options: list[tuple[int, int]], out: int, new: bool) -> None:
        """Try each (tile, rot) of ``options`` on ``cell`` as the chain's next tile (or pass
        through the fixed one there), all leaving towards ``out``, so sharing one bend and one
        check of the bounds; go on from where the chain leaves, then take the tile back."""
        board = self.board
        size = abs(turn(heading, out))
        closing = self.left == 1
        nxt = neighbour(cell, out)
        self.counts[2 - size] -= 1
        self.left -= 1
        self.pending.discard(cell)
        turned += turn(heading, out)
        try:
            if closing:
                if cell != self.close_at or out != self.close_heading:
                    return
            elif not self._viable(nxt, out, turned):
                return
            for t, rot in options:
                if new:
                    board.push(Placement(t, cell[0], cell[1], rot))
                    self.todo.discard(t)
                marked = self._mark_inside(cell, heading, out) if self.clockwise is not None else ()
                try:
                    if closing:
                        self._accept()
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
                self.pending.add(cell)

    # -------------------------------------------------------------- hole-free loops only

    def _mark_inside(self, cell: Cell, heading: int, out: int) -> list[Cell]:
        """Record the empty cells on the inner side of the tile on ``cell``: a hole-free loop
        must pass through every one of them."""
        entry = (heading + 3) % 6
        first, stop = (out, entry) if self.clockwise else (entry, out)
        marked = []
        d = (first + 1) % 6
        while d != stop:
            n = neighbour(cell, d)
            if n not in self.board:
                self.demand[n] = self.demand.get(n, 0) + 1
                marked.append(n)
            d = (d + 1) % 6
        return marked

    def _inside_reachable(self, cell: Cell) -> bool:
        """Every empty inner-side cell must still be visited on the way back to the start."""
        waiting = [c for c in self.demand if c not in self.board]
        left = self.left
        if len(waiting) > left:
            return False
        target = self.close_at
        return all(distance(cell, c) + distance(c, target) <= left - 1 for c in waiting)

    def _accept(self) -> None:
        board = self.board
        if not status(board, self.goal).solved or (self.hole_free and board.holes()):
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

