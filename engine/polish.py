"""Polishing a Four lines / Four loops arrangement with a constraint solver (OR-Tools CP-SAT).

Why a second method beside the beam search of :mod:`engine.optimise`
--------------------------------------------------------------------
The beam search builds arrangements cell by cell and improves them by rebuilding whole corners;
what it cannot do is change a few tiles *scattered* over the table at once (swap two distant tiles,
turn a handful along a chain), and a good arrangement is mostly improved by exactly such moves.
CP-SAT's large-neighbourhood search does them: it frees a random part of the model (tiles,
a chain's cells, a region), solves what is freed *exactly* against the rest, and keeps any gain.
Measured from the same beam results (``bench/four_optimise.py`` figures are in the README):
lines 122 -> 134 and 129 -> 141 within two minutes, loops 113 -> 121 in 25 s; from the stored best
arrangements it gains little (lines 141 stays, loops 124 -> 126), so it polishes, it does not replace.

The model
---------
One Boolean per (cell, tile, rotation) on a fixed region of cells (:mod:`engine.optimise` passes
its own: a hexagon of 61 cells for Four lines, a triangle and three cells beside it, 58 in all, for
Four loops); each tile once, at most one per cell; from those, the
colour each edge shows, and touching edges match. Each colour's counted chain is one ``AddCircuit``
over the cells (a cell left out of the chain takes its self-loop): for Four loops the circuit is
the loop; for Four lines it also passes through one extra node standing for "the empty space",
entered and left through edges that face no tile, so what it describes is an open line. The
objective is the puzzle score itself: the cells on the four circuits. A cell with a tile must touch
another tile (no stray tile; that the whole arrangement is one piece is checked on each answer).

Why these regions, and this model: two spare cells give the tiles room to move. From the same six
Four loops beam answers (one thread, 90 s each), the 58-cell region averaged 111.5; exactly the 56
cells of each answer 107.3; nine spare cells 110.0, and the whole ring around the triangle (88
cells) no better. An edge-matching formulation (tile and rotation as integers, a table
constraint per cell, one colour per shared edge) finds arrangements from scratch within seconds,
which this one does not, but polishes no better (107.7 on the 56 cells), so the beam search
still builds the first answer.

For Four loops the objective stays the score alone. Six beam answers (118-128, one thread, 60 s
each) polished to 121.7 on average; less 3 points per tile on the triangle's rim that does not turn
its chains straight back (the beam search's rim penalty) 120.7; less a quarter point (a tie-break)
121.5. Asked for a clean rim outright, from scratch (two threads), CP-SAT finds one in about 20 s,
but its loops then stall at 100.
"""

from __future__ import annotations

import math
import queue
import threading
from typing import Any, Callable, Sequence

from ortools.sat.python import cp_model

from .board import Board, Placement
from .four import Goal, incomplete, puzzle_score
from .geometry import Cell, neighbour, opposite
from .solver.control import Flag, Patience
from .tiles import ALL_NUMBERS, COLOURS, FACES

__all__ = ["polish"]

Progress = Callable[[int, Board], None]


class _Model:
    """The CP-SAT model of one goal on one region, with the variables an answer is read from."""

    def __init__(self, goal: Goal, cells: Sequence[Cell]) -> None:
        self.goal = goal
        self.cells = list(cells)
        index = {c: i for i, c in enumerate(self.cells)}
        n = len(self.cells)
        nb = [[index.get(neighbour(cell, d), -1) for d in range(6)] for cell in self.cells]
        m = self.model = cp_model.CpModel()
        self.x = {(u, t, r): m.new_bool_var(f"x{u}_{t}_{r}") for u in range(n) for t in ALL_NUMBERS for r in range(6)}
        x = self.x
        self.occupied = [m.new_bool_var(f"occupied{u}") for u in range(n)]
        for u in range(n):
            m.add(sum(x[u, t, r] for t in ALL_NUMBERS for r in range(6)) == self.occupied[u])
        for t in ALL_NUMBERS:
            m.add_exactly_one(x[u, t, r] for u in range(n) for r in range(6))
        self.shows = {}  # (cell, direction, colour index) -> the edge shows that colour
        for u in range(n):
            for d in range(6):
                for c, colour in enumerate(COLOURS):
                    shows = self.shows[u, d, c] = m.new_bool_var(f"shows{u}_{d}_{c}")
                    m.add(shows == sum(x[u, t, r] for t in ALL_NUMBERS for r in range(6) if FACES[t][r][d] == colour))
        for u in range(n):
            for d, v in enumerate(nb[u]):
                if v >= 0:  # the golden rule, written from both sides of each edge
                    for c in range(4):
                        m.add_implication(self.shows[u, d, c], self.shows[v, opposite(d), c]).only_enforce_if(
                            self.occupied[v]
                        )
            m.add_bool_or([self.occupied[v] for v in nb[u] if v >= 0]).only_enforce_if(self.occupied[u])
        self.arcs: list[dict[tuple[int, int], cp_model.IntVar]] = []
        self.skip: list[list[cp_model.IntVar]] = []
        self.exits: list[tuple[dict[Any, Any], dict[Any, Any]]] = []  # lines: (leave, enter) by (cell, direction)
        lines = goal == "lines"
        for c in range(4):
            arcs = {(u, v): m.new_bool_var(f"arc{c}_{u}_{v}") for u in range(n) for v in nb[u] if v >= 0}
            skip = [m.new_bool_var(f"skip{c}_{u}") for u in range(n)]
            leave: dict[tuple[int, int], cp_model.IntVar] = {}
            enter: dict[tuple[int, int], cp_model.IntVar] = {}
            circuit = [(u, v, a) for (u, v), a in arcs.items()] + [(u, u, skip[u]) for u in range(n)]
            for u in range(n):
                for d, v in enumerate(nb[u]):
                    through = [arcs[u, v], arcs[v, u]] if v >= 0 else []
                    if lines:  # the line may leave or enter the "empty space" node here
                        leave[u, d] = m.new_bool_var(f"leave{c}_{u}_{d}")
                        enter[u, d] = m.new_bool_var(f"enter{c}_{u}_{d}")
                        through += [leave[u, d], enter[u, d]]
                        if v >= 0:
                            m.add_implication(leave[u, d], self.occupied[v].Not())
                            m.add_implication(enter[u, d], self.occupied[v].Not())
                    # a cell on the chain: the chain passes exactly through the edges of its colour
                    m.add(sum(through) == self.shows[u, d, c]).only_enforce_if(skip[u].Not())
                if lines:
                    out, into = m.new_bool_var(f"out{c}_{u}"), m.new_bool_var(f"in{c}_{u}")
                    m.add(out == sum(leave[u, d] for d in range(6)))
                    m.add(into == sum(enter[u, d] for d in range(6)))
                    circuit += [(u, n, out), (n, u, into)]
            m.add_circuit(circuit)
            self.arcs.append(arcs)
            self.skip.append(skip)
            self.exits.append((leave, enter))
        m.maximize(sum(s.Not() for skip in self.skip for s in skip))

    def hint(self, board: Board) -> None:
        """Give the solver ``board`` (inside the region) as a complete starting answer."""
        m, index = self.model, {c: i for i, c in enumerate(self.cells)}
        where = {index[p.cell]: (p.tile, p.rot) for p in board.placements()}
        for (u, t, r), var in self.x.items():
            m.add_hint(var, where.get(u) == (t, r))
        for u, occupied in enumerate(self.occupied):
            m.add_hint(occupied, u in where)
        for (u, d, c), var in self.shows.items():
            m.add_hint(var, u in where and FACES[where[u][0]][where[u][1]][d] == COLOURS[c])
        loop = self.goal == "loops"
        for c, colour in enumerate(COLOURS):
            chain = next((line.cells for line in board.lines(colour) if line.loop == loop), ())
            order = [index[cell] for cell in chain]
            follows = dict(zip(order, order[1:] + order[:1] if loop else order[1:]))
            for (u, v), var in self.arcs[c].items():
                m.add_hint(var, follows.get(u) == v)
            on = set(order)
            for u, var in enumerate(self.skip[c]):
                m.add_hint(var, u not in on)
            if not loop:
                leave, enter = self.exits[c]
                first, last = (_exit(board, chain, colour, end) for end in (0, -1))
                for (u, d), var in enter.items():
                    m.add_hint(var, (u, d) == (order[0], first))
                for (u, d), var in leave.items():
                    m.add_hint(var, (u, d) == (order[-1], last))

    def board(self, value: Callable[[cp_model.IntVar], int]) -> Board:
        """The arrangement an answer describes."""
        board = Board()
        for (u, t, r), var in self.x.items():
            if value(var):
                board.push(Placement(t, *self.cells[u], r))
        return board


def _exit(board: Board, chain: Sequence[Cell], colour: str, end: int) -> int:
    """The direction in which the line ``chain`` leaves its first (``end`` 0) or last (-1) tile:
    the tile's edge of ``colour`` that does not lead to the next tile of the line."""
    cell = chain[end]
    placement = board.at(cell)
    assert placement is not None
    edges = [d for d in range(6) if FACES[placement.tile][placement.rot][d] == colour]
    if len(chain) == 1:
        return edges[end]
    inner = chain[1] if end == 0 else chain[-2]
    return next(d for d in edges if neighbour(cell, d) != inner)


def polish(
    goal: Goal,
    board: Board,
    cells: Sequence[Cell],
    *,
    seconds: float,
    workers: int = 1,
    seed: int = 0,
    cancel: Flag | None = None,
    progress: Progress | None = None,
    stall: float = math.inf,
) -> tuple[int, Board]:
    """Improve ``board`` (a complete arrangement lying inside ``cells``) for about ``seconds``, or
    until ``stall`` seconds have passed without a better answer.

    Returns the best (score, arrangement), never worse than ``board``. ``progress(score, board)``
    is called, in the calling thread, with each better answer; ``cancel`` is polled ten times a
    second. ``workers`` threads search at once (one per core is right: the solver runs outside the
    interpreter lock)."""
    if (problem := incomplete(board)) is not None:
        raise ValueError(f"board is not a complete arrangement: {problem}")
    outside = {p.cell for p in board.placements()} - set(cells)
    if outside:
        raise ValueError(f"board has tiles outside the region: {sorted(outside)}")
    model = _Model(goal, cells)
    model.hint(board)
    best = (puzzle_score(board, goal), board)
    found: queue.SimpleQueue[Board | None] = queue.SimpleQueue()  # answers, then None when done

    class Answers(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.put(model.board(self.boolean_value))

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.0)
    solver.parameters.num_workers = max(workers, 1)
    solver.parameters.random_seed = seed % 2**31  # the solver takes a 32-bit signed seed
    solver.parameters.use_lns_only = True  # every thread improves the answer; none tries to prove it best
    solver.parameters.interleave_search = workers <= 1  # one thread takes turns among the neighbourhoods

    def solve() -> None:
        try:
            solver.solve(model.model, Answers())
        finally:
            found.put(None)

    search = threading.Thread(target=solve, name="polish", daemon=True)
    search.start()
    patience = Patience(seconds, cancel, stall)
    try:
        while True:
            if patience.over():
                solver.stop_search()
            try:
                answer = found.get(timeout=0.1)
            except queue.Empty:
                continue
            if answer is None:
                break
            score = puzzle_score(answer, goal)
            if score > best[0] and incomplete(answer) is None:  # one piece: the model allows two
                best = (score, answer)
                patience.improved()
                if progress is not None:
                    progress(score, answer.copy())
    finally:
        solver.stop_search()
        search.join()
    return best
