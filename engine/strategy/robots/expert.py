"""The expert robot: search under uncertainty, guided by the club evaluation.

The bag's order is the only hidden information in Tantrix (hands lie face up), so the expert
*samples* it: each sample is the unseen tiles in a random order (``StrategyGame.sample``). For the
most promising placements by the club's one-ply judgement it plays each sample forward, with the
club policy on both sides: the rest of its own turn (the fills the move forces, the draws it brings),
then the next opponent's whole turn with the opponent's real hand. The position after that is
judged by the evaluation from its own side, and the placement with the best average wins.
Candidates are narrowed by successive halving (more samples for the ones still in the running), and
every sample is shared by all candidates so that they are compared on the same luck.

So the expert sees what one ply cannot: the forced spaces its move hands the opponent, the reply the
opponent's actual tiles allow (blocking an end, forcing a small loop, linking through a forced
space), and the fills its own move sets off. Its work is bounded by ``samples`` and
``candidates``; ``budget`` seconds per placement is only a safety cap, so its play is the same on a
busy machine or a slower Pi.
"""

from __future__ import annotations

import random
import time

from ...board import Placement
from ..game import StrategyGame
from .club import perspective, ranked
from .evaluation import WEIGHTS, Evaluator, Weights


class Expert:
    name = "expert"

    def __init__(self, budget: float = 5.0, candidates: int = 8, samples: int = 6,
                 weights: Weights = WEIGHTS) -> None:
        self.budget = budget
        self.candidates = candidates
        self.samples = samples
        self.weights = weights

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        deadline = time.perf_counter() + self.budget
        scored = ranked(view, self.weights)
        if len(scored) == 1:
            return scored[0][1]
        best = scored[0][0]
        pool = [p for value, p in scored[: self.candidates] if value > best - 8.0]
        if len(pool) == 1:
            return pool[0]
        seeds = [rng.randrange(1 << 30) for _ in range(self.samples)]
        per_round = max(1, self.samples // max(1, (len(pool) - 1).bit_length()))
        totals = {p: 0.0 for p in pool}
        counts = {p: 0 for p in pool}
        for first in range(0, len(seeds), per_round):
            for seed in seeds[first: first + per_round]:
                for p in pool:
                    if time.perf_counter() > deadline:
                        return _best(pool, totals, counts)
                    totals[p] += self._try(view, p, seed)
                    counts[p] += 1
            if len(pool) > 2:  # successive halving: the better half goes on
                pool = sorted(pool, key=lambda p: -totals[p] / counts[p])[: (len(pool) + 1) // 2]
        return _best(pool, totals, counts)

    def _try(self, view: StrategyGame, placement: Placement, seed: int) -> float:
        """The value for the mover of ``placement`` followed, in one sampled future, by the rest
        of its turn and the next opponent's turn, both played by the club policy."""
        rng = random.Random(seed)
        me = view.turn
        assert me is not None
        mine, others = perspective(view)
        game = view.sample(rng)
        game.place(placement)
        opponent = (me + 1) % game.players
        seen_opponent = False
        while not game.finished:
            if game.turn == opponent:
                seen_opponent = True
            elif seen_opponent or game.turn != me:
                break
            options = ranked(game, self.weights, fills=False)
            top = options[0][0]
            game.place(rng.choice([p for value, p in options if value >= top - 1e-9]))
        placed = game.board.placed_tiles()
        judge = Evaluator([t for t in range(1, 57) if t not in placed], game.bag_count, self.weights)
        return judge.value(game.board, mine, others)


def _best(pool: list[Placement], totals: dict[Placement, float], counts: dict[Placement, int]) -> Placement:
    """The candidate with the best average over its samples (the club's first choice if none was
    tried before time ran out)."""
    tried = [p for p in pool if counts[p]]
    return max(tried, key=lambda p: totals[p] / counts[p]) if tried else pool[0]
