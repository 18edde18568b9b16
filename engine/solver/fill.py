"""Filling fixed cells: rotation puzzles, and building their layouts.

A rotation puzzle (the booklet's Great Pyramid) fixes which tile lies on which cell; the player only
turns tiles until every touching edge matches. :func:`fill` finds such rotations (or, given a pool
instead of a tile per cell, picks the tiles too, which is how the device builds its own layouts).
It is a constraint search: always decide the cell with the fewest fitting (tile, rotation) pairs
given the tiles already around it (the board's requirement), and give up on a branch as soon as
some cell has none. Preferred rotations (the player's current ones) are tried first, so a hint
changes as few tiles as possible.
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping, Sequence

from ..board import Board, Placement, fits
from ..geometry import Cell
from .control import Control, Enough, OverBudget, restarting


def fill(
    cells: Iterable[Cell],
    *,
    tiles: Mapping[Cell, int] | None = None,
    pool: Iterable[int] = (),
    fixed: Sequence[Placement] = (),
    prefer: Mapping[int, int] | None = None,
    limit: int | None = 1,
    rng: random.Random | None = None,
    control: Control | None = None,
) -> list[list[Placement]]:
    """Ways to put a tile on every one of ``cells`` with every touching edge matching.

    ``tiles`` fixes the tile of each cell (a rotation puzzle); otherwise each cell takes a
    different tile of ``pool``. ``fixed`` placements are kept as they are. ``prefer`` maps a tile
    to the rotation to try first. Stops after ``limit`` solutions (None: all). With ``rng`` the
    choices are shuffled and the search restarts with growing budgets (finding one fast); the last
    run completes, so an empty answer proves there is none. Raises :class:`.control.Interrupted`.
    """
    search = _Fill(list(cells), tiles, list(pool), list(fixed), prefer or {}, limit, rng, control or Control())
    return search.run()


class _Fill:
    def __init__(
        self,
        cells: list[Cell],
        tiles: Mapping[Cell, int] | None,
        pool: list[int],
        fixed: list[Placement],
        prefer: Mapping[int, int],
        limit: int | None,
        rng: random.Random | None,
        control: Control,
    ) -> None:
        self.cells = cells
        self.tiles = tiles
        self.pool = pool
        self.fixed = fixed
        self.prefer = prefer
        self.limit = limit
        self.rng = rng
        self.control = control
        self.found: list[list[Placement]] = []

    def run(self) -> list[list[Placement]]:
        restarting(self._pass, 5000, randomised=self.rng is not None)
        return self.found

    def _pass(self, budget: int | None) -> None:
        self.found = []
        self.budget = budget
        self.nodes = 0
        self.board = Board()
        for p in self.fixed:
            self.board.push(p)
        placed = self.board.placed_tiles()
        self.unused = [t for t in self.pool if t not in placed]
        self.empty = {c for c in self.cells if c not in self.board}
        self._step()

    def _options(self, cell: Cell) -> list[Placement]:
        need = self.board.requirement(cell)
        numbers = (self.tiles[cell],) if self.tiles is not None else self.unused
        return [Placement(t, cell[0], cell[1], rot) for t in numbers for rot in fits(t, need)]

    def _step(self) -> None:
        self.control.tick()
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OverBudget
        if not self.empty:
            self.found.append(self.board.placements())
            self.control.solutions += 1
            if self.limit is not None and len(self.found) >= self.limit:
                raise Enough
            return
        board = self.board
        touching = [c for c in self.empty if board.neighbour_count(c)] or [min(self.empty, key=lambda c: (c[1], c[0]))]
        best: list[Placement] | None = None
        for cell in touching:
            options = self._options(cell)
            if not options:
                return
            if best is None or len(options) < len(best):
                best = options
        assert best is not None
        if self.rng is not None:
            self.rng.shuffle(best)
        best.sort(key=lambda p: self.prefer.get(p.tile) != p.rot)
        for p in best:
            board.push(p)
            self.empty.discard(p.cell)
            if self.tiles is None:
                where = self.unused.index(p.tile)
                del self.unused[where]
            try:
                self._step()
            finally:
                board.undo()
                self.empty.add(p.cell)
                if self.tiles is None:
                    self.unused.insert(where, p.tile)
