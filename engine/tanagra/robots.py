"""Tanagra robots: ``beginner`` (legal, mostly sensible, quick) and ``expert`` (a timed search).

Every robot answers :meth:`Robot.choose` with one legal action for the player to move, in any
phase; a turn with a board change is two calls (the move, then the change).

* :class:`Beginner` takes a pawn when it can (always when that wins), otherwise moves at random but
  mostly not onto a cell the pawn could be taken on at once; it usually leaves an emptied piece.
* :class:`Expert` searches whole turns (a move plus its board change) with iterative-deepening
  alpha-beta under a time limit. With 3-4 players it searches "paranoid": everyone else is assumed
  to play against it, which is cautious but sound since any other player's win is its loss. Leaves
  are scored by :func:`evaluate`. A board change offers over a hundred relocations, so at the root
  the search tries leave, remove and the few relocations :func:`relocation_candidates` ranks
  highest, and deeper in the tree only leave and remove. While building it puts each piece where
  :func:`evaluate` likes it best (no search: nothing can be taken yet).
"""

from __future__ import annotations

import random
import time
from typing import Callable, Iterator, Protocol

from .lattice import Cell, neighbours, piece_cells
from .rules import (
    Action,
    Leave,
    Move,
    Pass,
    Pawn,
    Phase,
    Relocate,
    Remove,
    Size,
    State,
)

WIN = 10_000.0


class Robot(Protocol):
    name: str

    def choose(self, state: State) -> Action:
        """A legal action for the player to move in ``state`` (which is not changed)."""
        ...


# ------------------------------------------------------------------------------ evaluation


def capture_targets(state: State, seat: int) -> tuple[set[Cell], int]:
    """Cells holding pawns that ``seat`` could take with one move now, and its number of moves."""
    pawns = state.pawns
    targets: set[Cell] = set()
    mobility = 0
    for origin, pawn in list(pawns.items()):
        if pawn.owner == seat:
            reach = state.destinations(origin)
            mobility += len(reach)
            targets.update(c for c in reach if c in pawns)
    return targets, mobility


def _danger(count: int) -> float:
    """2 players: what having only ``count`` pawns of a size left costs (none left loses)."""
    return (-60.0, -12.0, -4.0)[count] if count < 3 else 0.0


def _side_2p(small: int, big: int) -> float:
    return 10.0 * (small + big) + _danger(small) + _danger(big)


def _threat_weight(state: State, attacker: int, victim: int) -> float:
    """How likely a capture ``attacker`` could make now is to happen: sure if it is their turn,
    unlikely if the victim moves first and can flee, likely otherwise."""
    n = state.players
    to_attacker = (attacker - state.turn) % n
    if to_attacker == 0:
        return 0.9
    return 0.3 if (victim - state.turn) % n < to_attacker else 0.7


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` (between turns) is for ``seat``: +/-WIN when the game is decided, else
    material towards the goal (the left neighbour's pawns, or the opponent's weaker size), captures
    possible right now weighted by who moves first, isolated pawns, own pieces, mobility, and how
    close hunters stand to their prey (a gradient for the search when no capture is in sight)."""
    if state.result is not None:
        winner = state.result.winner
        return 0.0 if winner is None else (WIN if winner == seat else -WIN)
    n = state.players
    counts: dict[Pawn, int] = {}
    for pawn in state.pawns.values():
        counts[pawn] = counts.get(pawn, 0) + 1
    score = 0.0
    prey, predator = (seat + 1) % n, (seat - 1) % n  # one and the same opponent with 2 players
    reach = {s: capture_targets(state, s) for s in (seat, predator)}
    if n == 2:
        opp = prey
        sides = [(counts.get(Pawn(s, Size.SMALL), 0), counts.get(Pawn(s, Size.BIG), 0)) for s in (0, 1)]
        score += _side_2p(*sides[seat]) - _side_2p(*sides[opp])

        def loss(cell: Cell) -> float:
            pawn = state.pawns[cell]
            small, big = sides[pawn.owner]
            after = (small - 1, big) if pawn.size is Size.SMALL else (small, big - 1)
            return _side_2p(small, big) - _side_2p(*after)

        for attacker, victim, sign in ((seat, opp, 1.0), (opp, seat, -1.0)):
            targets = reach[attacker][0]
            if targets:
                score += sign * _threat_weight(state, attacker, victim) * max(map(loss, targets))
    else:
        mine, theirs = counts.get(Pawn(seat), 0), counts.get(Pawn(prey), 0)
        score += 10.0 * mine - 12.0 * theirs + (8.0 if theirs == 1 else 0.0)
        for attacker, victim, sign in ((seat, prey, 1.0), (predator, seat, -1.0)):
            targets = reach[attacker][0]
            if targets:
                score += sign * _threat_weight(state, attacker, victim) * (10.0 + len(targets) - 1)
        own = sum(1 for owners in state.owners_by_piece().values() if owners == {seat})
        score += 0.5 * min(own, 3)
    islands = state.isolated_pieces()
    for cell, pawn in state.pawns.items():
        if state.cover[cell] in islands:
            score += -1.0 if pawn.owner == seat else 1.5 / (n - 1)
    score += 0.05 * reach[seat][1]
    score += 1.5 * _closeness(state, seat) - 1.0 * sum(
        _closeness(state, other, seat) for other in range(n) if other != seat
    )
    return score


def cell_distance(a: Cell, b: Cell) -> int:
    """Side crossings between two cells on a full lattice (holes in the table make it longer)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])


def _closeness(state: State, attacker: int, only: int | None = None) -> float:
    """Sum over ``attacker``'s pawns of 1 / distance to the nearest pawn it may take (of
    ``only``'s pawns if given): how close its hunters stand to their prey."""
    by_kind: dict[Pawn, list[Cell]] = {}
    for cell, pawn in state.pawns.items():
        if only is None or pawn.owner == only:
            by_kind.setdefault(pawn, []).append(cell)
    total = 0.0
    for cell, pawn in state.pawns.items():
        if pawn.owner == attacker:
            targets = [c for kind in state.victims(pawn) for c in by_kind.get(kind, ())]
            if targets:
                total += 1.0 / min(cell_distance(cell, c) for c in targets)
    return total


# ----------------------------------------------------------------------- board-change options


def relocation_candidates(state: State, seat: int, limit: int) -> list[Cell]:
    """The ``limit`` most promising places to move the pending piece to, for ``seat``: next to its
    own pawns and to pawns it may take (a bridge to attack over), away from pawns that take its."""
    assert state.pending is not None
    pawns = state.pawns
    mine = {p for p in pawns.values() if p.owner == seat}
    worth: dict[Pawn, float] = {}
    for pawn in set(pawns.values()):
        if pawn.owner == seat:
            worth[pawn] = 1.0
        else:
            worth[pawn] = 1.5 * any(state.takes(m, pawn) for m in mine) - 2.0 * any(
                state.takes(pawn, m) for m in mine
            )
    scored = []
    for centre in state.placements(lifted=state.pending):
        score = 0.0
        for cell in piece_cells(centre):
            for n in neighbours(cell):
                near = pawns.get(n)
                if near is not None:
                    score += worth[near]
        scored.append((score, centre))
    scored.sort(key=lambda sc: (-sc[0], sc[1]))
    return [c for _, c in scored[:limit]]


def change_options(state: State, seat: int, relocations: int) -> list[Action]:
    """Leave, remove, and the best ``relocations`` relocations of the pending piece."""
    if not relocations:  # ranking relocations costs as much as a dozen evaluations
        return [Leave(), Remove()]
    return [Leave(), Remove(), *(Relocate(c) for c in relocation_candidates(state, seat, relocations))]


# -------------------------------------------------------------------------------- beginner


class Beginner:
    """Quick and plausible: takes when it can, rarely walks into a capture, usually leaves pieces."""

    name = "beginner"

    def __init__(self, seed: int | None = None, care: float = 0.75) -> None:
        self.rng = random.Random(seed)
        self.care = care  # how often it checks that a move does not hand a pawn over

    def choose(self, state: State) -> Action:
        rng = self.rng
        if state.phase is Phase.CHANGE:
            roll = rng.random()
            if roll < 0.7:
                return Leave()
            if roll < 0.85:
                return Remove()
            return Relocate(rng.choice(state.placements(lifted=state.pending)))
        actions = state.legal_actions()
        if state.phase is not Phase.MOVE or isinstance(actions[0], Pass):
            return rng.choice(actions)
        captures = [m for m in actions if isinstance(m, Move) and m.target in state.pawns]
        for move in captures:
            after = state.copy()
            after.play(move)
            if after.result is not None and after.result.winner == state.turn:
                return move
        if captures and rng.random() < 0.9:
            return rng.choice(captures)
        if rng.random() < self.care:
            safe = [m for m in actions if isinstance(m, Move) and not self._exposed(state, m)]
            if safe:
                return rng.choice(safe)
        return rng.choice(actions)

    @staticmethod
    def _exposed(state: State, move: Move) -> bool:
        """Whether the moved pawn could be taken at once where it lands."""
        after = state.copy()
        after.pawns[move.target] = after.pawns.pop(move.origin)
        mover = after.pawns[move.target]
        for origin, pawn in after.pawns.items():
            if state.takes(pawn, mover) and move.target in after.destinations(origin):
                return True
        return False


# ---------------------------------------------------------------------------------- expert


class _Timeout(Exception):
    pass


Plan = tuple[Action, ...]


class Expert:
    """Iterative-deepening alpha-beta over whole turns, within ``time_limit`` seconds a move.

    ``max_depth`` caps the depth in turns (tests use 1 or 2 to be quick and repeatable); the
    search always finishes depth 1, so a move is found even when the clock is very short.
    """

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        time_limit: float = 0.3,
        max_depth: int = 8,
        root_relocations: int = 4,
        inner_relocations: int = 0,
    ) -> None:
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.root_relocations = root_relocations
        self.inner_relocations = inner_relocations
        self._plan: tuple[object, Action] | None = None
        self.last_depth = 0  # depth of the last completed search (for benchmarks)

    def choose(self, state: State) -> Action:
        if state.phase is Phase.CHANGE and self._plan is not None and self._plan[0] == _fingerprint(state):
            return self._plan[1]
        self._plan = None
        if state.phase is Phase.BUILD:
            return self._best_placement(state)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        plan = self._search(state)
        if len(plan) == 2:
            after = state.copy()
            after.play(plan[0])
            self._plan = (_fingerprint(after), plan[1])
        return plan[0]

    def _best_placement(self, state: State) -> Action:
        seat = state.turn
        best: list[Action] = []
        best_score = -float("inf")
        for action in state.legal_actions():
            after = state.copy()
            after.play(action)
            score = evaluate(after, seat)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)

    # ------------------------------------------------------------------------- the search

    def _turns(self, state: State, relocations: int) -> Iterator[tuple[Plan, State]]:
        """Whole turns from ``state`` (move phase or pending change): captures first."""
        seat = state.turn
        if state.phase is Phase.CHANGE:
            for change in change_options(state, seat, relocations):
                after = state.copy()
                after.play(change)
                yield (change,), after
            return
        moves = state.moves()
        if not moves:
            after = state.copy()
            after.play(Pass())
            yield (Pass(),), after
            return
        pawns = state.pawns
        moves.sort(key=lambda m: m.target not in pawns)
        for move in moves:
            after = state.copy()
            after.play(move)
            if after.phase is not Phase.CHANGE:
                yield (move,), after
                continue
            for change in change_options(after, seat, relocations):
                final = after.copy()
                final.play(change)
                yield (move, change), final

    def _search(self, state: State) -> Plan:
        root = state.turn
        deadline = time.perf_counter() + self.time_limit
        scored = [
            (evaluate(after, root), plan, after)
            for plan, after in self._turns(state, self.root_relocations)
        ]
        self.rng.shuffle(scored)  # ties go to a random plan, not always the first generated
        scored.sort(key=lambda s: -s[0])
        best = scored[0][1]
        self.last_depth = 1
        for depth in range(2, self.max_depth + 1):
            started = time.perf_counter()
            if started > deadline or abs(scored[0][0]) >= WIN:
                break
            try:
                results = []
                alpha = -float("inf")
                for _, plan, after in scored:
                    value = self._value(after, depth - 1, alpha, float("inf"), root, deadline)
                    results.append((value, plan, after))
                    alpha = max(alpha, value)
            except _Timeout:
                break
            results.sort(key=lambda s: -s[0])
            scored, best = results, results[0][1]
            self.last_depth = depth
            now = time.perf_counter()
            if now + 2 * (now - started) > deadline:
                break  # the next depth costs several times this one: it would not finish
        return best

    def _value(
        self, state: State, depth: int, alpha: float, beta: float, root: int, deadline: float
    ) -> float:
        """Paranoid alpha-beta value of ``state`` for ``root``, ``depth`` turns deep."""
        if depth == 0 or state.result is not None:
            return evaluate(state, root)
        if time.perf_counter() > deadline:
            raise _Timeout
        maximising = state.turn == root
        best = -float("inf") if maximising else float("inf")
        for _, after in self._turns(state, self.inner_relocations):
            value = self._value(after, depth - 1, alpha, beta, root, deadline)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def _fingerprint(state: State) -> object:
    return (state.turn, state.pending, frozenset(state.pawns.items()), frozenset(state.cover.items()))


LEVELS: dict[str, Callable[..., Robot]] = {"beginner": Beginner, "expert": Expert}


def make_robot(level: str, seed: int | None = None, **settings: float) -> Robot:
    """A robot of ``level`` (see :data:`LEVELS`); ``settings`` go to its constructor."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown robot level {level!r} (choose from {', '.join(LEVELS)})") from None
    return factory(seed=seed, **settings)
