"""The solver's front door: solve a goal, count its solutions, give a hint from an arrangement.

Which search runs is decided here: one free-form loop of one colour (Discovery, Rainbow loops,
Junior, Student, Master) follows the chain (:mod:`.chain`); two chains at once or a line in a
shape (Professor, Genius, the Rainbow pyramids) is woven from its most constrained spot
(:mod:`.weave`). All of them take a :class:`.control.Control` (time limit, cancel flag, progress)
and never leave the caller waiting longer than it allows.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Sequence

from ..board import Board, Placement
from ..geometry import neighbour
from .chain import ChainSearch
from .control import Control, Interrupted
from .goal import Goal, status
from .weave import WeaveSearch


class Outcome(StrEnum):
    SOLVED = "solved"  # a solution was found
    IMPOSSIBLE = "impossible"  # the search completed without one: there is none
    COUNTED = "counted"  # every solution was counted
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Result:
    """What a search found: ``solution`` (placements), ``count`` (when counting), how it ended,
    the nodes it visited and the seconds it took."""

    outcome: Outcome
    solution: list[Placement] | None = None
    count: int | None = None
    nodes: int = 0
    seconds: float = 0.0

    @property
    def solved(self) -> bool | None:
        """True or False when known, None when the search was stopped first."""
        if self.outcome in (Outcome.TIMEOUT, Outcome.CANCELLED):
            return None
        return self.solution is not None or bool(self.count)


def _search(goal: Goal, fixed: Sequence[Placement], **options: object) -> ChainSearch | WeaveSearch:
    if len(goal.colours) == 1 and goal.closed and goal.shape is None:
        return ChainSearch(goal, fixed, **options)  # type: ignore[arg-type]
    return WeaveSearch(goal, fixed, **options)  # type: ignore[arg-type]


def solve(goal: Goal, fixed: Sequence[Placement] = (), *, control: Control | None = None, seed: int = 0) -> Result:
    """One arrangement reaching ``goal`` that keeps every ``fixed`` placement; IMPOSSIBLE is a
    proof that there is none. ``seed`` makes the (shuffled, restarting) search repeatable."""
    control = control if control is not None else Control()
    start = time.monotonic()
    search = _search(goal, fixed, control=control, rng=random.Random(seed), limit=1, keep=1)
    try:
        found = search.run()
    except Interrupted as stop:
        return Result(Outcome(stop.reason), nodes=control.nodes, seconds=time.monotonic() - start)
    outcome = Outcome.SOLVED if found else Outcome.IMPOSSIBLE
    return Result(outcome, found[0] if found else None, nodes=control.nodes, seconds=time.monotonic() - start)


def count(goal: Goal, *, hole_free: bool = True, control: Control | None = None) -> Result:
    """Count the distinct solutions of ``goal`` (up to turning and shifting the arrangement),
    hole-free ones only unless ``hole_free`` is False; the first one found is returned too."""
    control = control if control is not None else Control()
    start = time.monotonic()
    search = _search(goal, (), control=control, limit=None, hole_free=hole_free, keep=1)
    try:
        found = search.run()
    except Interrupted as stop:
        return Result(Outcome(stop.reason), count=search.count, nodes=control.nodes, seconds=time.monotonic() - start)
    return Result(
        Outcome.COUNTED, found[0] if found else None, search.count, control.nodes, time.monotonic() - start
    )


class HintKind(StrEnum):
    PLACE = "place"  # put ``placement`` down (a tile from the tray, or a placed tile moved there)
    TAKE_BACK = "take-back"  # no solution keeps all the tiles down: pick ``tile`` up
    SOLVED = "solved"  # nothing to do
    IMPOSSIBLE = "impossible"  # the goal has no solution at all (e.g. the wrong colour chosen)
    UNKNOWN = "unknown"  # the time ran out or the hint was cancelled


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggestion: what to do (``kind``), the ``placement`` to make or the ``tile`` to take back,
    the goal ``colours`` it aims at, and the full ``solution`` it comes from (when one was found)."""

    kind: HintKind
    placement: Placement | None = None
    tile: int | None = None
    colours: tuple[str, ...] = ()
    solution: list[Placement] = field(default_factory=list)


def hint(goal: Goal, placements: Sequence[Placement], *, control: Control | None = None, seed: int = 0) -> Hint:
    """From the player's arrangement (``placements`` in the order they were put down): the next
    placement of some solution that keeps every tile where it is, or, when no solution does, which
    tile to take back (the earliest one that no solution keeping the ones before it allows)."""
    control = control if control is not None else Control()
    board = Board()
    for p in placements:
        board.push(p)
    colours = goal.colours
    if status(board, goal).solved:
        return Hint(HintKind.SOLVED, colours=colours)
    found = solve(goal, placements, control=control, seed=seed)
    if found.solution is not None:
        return Hint(HintKind.PLACE, _next_step(board, found.solution), colours=colours, solution=found.solution)
    if found.solved is None:
        return Hint(HintKind.UNKNOWN, colours=colours)
    if not placements:
        return Hint(HintKind.IMPOSSIBLE, colours=colours)
    # The longest solvable prefix: prefix 0 is solvable (the goal is, or the empty case above
    # answered), prefix len(placements) is not; whether a prefix is solvable only gets worse as
    # tiles are added.
    good, bad = 0, len(placements)
    while bad - good > 1:
        middle = (good + bad) // 2
        tried = solve(goal, placements[:middle], control=control, seed=seed)
        if tried.solved is None:
            return Hint(HintKind.UNKNOWN, colours=colours)
        if tried.solved:
            good = middle
        else:
            bad = middle
    if good == 0:
        whole = solve(goal, (), control=control, seed=seed)
        if whole.solved is None:
            return Hint(HintKind.UNKNOWN, colours=colours)
        if not whole.solved:
            return Hint(HintKind.IMPOSSIBLE, colours=colours)
    return Hint(HintKind.TAKE_BACK, tile=placements[bad - 1].tile, colours=colours)


def _next_step(board: Board, solution: list[Placement]) -> Placement:
    """The placement of ``solution`` to suggest next: a tile not yet down, touching as many of the
    player's tiles as possible, then the lowest tile number."""
    missing = [p for p in solution if board.at(p.cell) != p]
    return max(missing, key=lambda p: (sum(neighbour(p.cell, d) in board for d in range(6)), -p.tile))
