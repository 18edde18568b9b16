"""The master robot: a determinized Monte-Carlo search over the placements of a turn.

The bag's order is the only hidden information (hands lie face up), so every *iteration* of the
search draws one determinization: the unseen tiles in a random order (``StrategyGame.sample``).
At the root stand the placements the turn allows now, in the club's order (each free move judged
with the fills it forces played out, engine.strategy.robots.club). An iteration picks one of them by UCB1,
with **progressive widening**: only the best ``widen * sqrt(n)`` of them are in play after ``n``
iterations, so the search spends its work on the promising placements and reaches the others
only when they stay close. It then plays that determinization forward with the club policy for
every seat: the rest of its own turn (forced fills, free move, fills again, draws) and the next
player's whole turn with their real hand (``replies``; ``horizon`` 2 plays every other player's
turn and its own next one), then judges the position from its own side with the evaluation (a
finished game by its scores). A fill with one legal placement is made without judging. The placement visited most wins, the best mean
breaking ties. Its settings come from matches against the expert and an independent sparring
robot (bench/master_tune.py, bench/RESULTS.md); its evaluation's weights (``TUNED``) from
self-play (bench/weights_tune.py), which is what makes it stronger than the expert, whose search
is alike.

A placement's k-th visit uses the k-th determinization, so placements are compared on the same
luck. Its work is bounded by ``iterations`` (and wall-clock ``cap`` seconds only as a safety net),
so for a given seed and budget its choice is the same on a busy machine or a slow Pi. A playout
judges every placement for every colour in play, so its cost grows with the colours: ``iterations``
is the count for two colours (two players, or Doubles' two teams), and a game of ``c`` colours gets
``2 / c`` of it (3 players 85, 4 players 64), which keeps a placement's work, and so its time on a
Pi, that of two players (bench/RESULTS.md). Iterations are evaluated in batches of ``batch``
chosen by UCB with a virtual loss; ``workers`` > 1 spreads a batch over worker processes, which
changes the speed and never the choice (a batch of 6 splits evenly over the 2 or 3 workers a Pi's
spare cores give).

Partners in Doubles share a colour, so the evaluation never counts a partner's line against it.
The coach (engine.strategy.robots.coach) words the choice of a :class:`Search` in one sentence.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Sequence

from ...board import Placement
from ...lifeline import end_with
from ..game import StrategyGame
from .club import perspective, ranked
from .evaluation import TUNED, WEIGHTS, Evaluator, Weights

log = logging.getLogger(__name__)

@dataclass
class Child:
    """One root placement: its club value and rank, and the values its visits found."""

    placement: Placement
    prior: float
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else -math.inf


@dataclass
class Search:
    """What a decision found: the children in club order, the iterations made and the choice."""

    children: list[Child]
    iterations: int
    choice: Placement


def rollout(view: StrategyGame, placement: Placement, seed: int, weights: Weights = WEIGHTS,
            horizon: int = 1, replies: int | None = 1) -> float:
    """The value for the mover of ``placement`` in the determinization ``seed``: the game played
    on with the club policy through the other players' turns (``horizon`` 1: the replies the move
    meets) or also the mover's own next turn (``horizon`` 2), or to its end, then judged.
    ``replies`` bounds how many other players' turns ``horizon`` 1 plays (None: all): the next player's
    reply is the one that meets the move first, and every further turn made the playouts of 3 and
    4 players 2.5 and 4.5 times as long as with 2 (in 2 players it changes nothing)."""
    rng = random.Random(seed)
    me = view.turn
    assert me is not None
    mine, others = perspective(view)
    game = view.sample(rng)
    game.place(placement)
    stage = 0  # 0: the rest of this turn, 1: the other players' turns, 2: the next own turn
    seat: int | None = me  # whose turn was last played
    turns = 0  # how many other players' turns began
    while not game.finished:
        if game.turn != me:
            if stage == 2:
                break
            if game.turn != seat:
                turns += 1
                if replies is not None and horizon < 2 and turns > replies:
                    break
            stage = 1
        elif stage == 1:
            if horizon < 2:
                break
            stage = 2
        seat = game.turn
        legal = game.legal()
        if len(legal) == 1:  # a forced fill: nothing to judge
            game.place(legal[0])
            continue
        options = ranked(game, weights, fills=False)
        top = options[0][0]
        game.place(rng.choice([p for value, p in options if value >= top - 1e-9]))
    if game.finished:
        assert game.result is not None
        scores = game.result.scores
        return float(scores[mine] - max((scores[c] for c in others), default=0))
    placed = game.board.placed_tiles()
    judge = Evaluator([t for t in range(1, 57) if t not in placed], game.bag_count, weights)
    return judge.value(game.board, mine, others)


def _rollouts(view: StrategyGame, jobs: Sequence[tuple[Placement, int]], weights: Weights,
              horizon: int, replies: int | None) -> list[float]:
    return [rollout(view, p, seed, weights, horizon, replies) for p, seed in jobs]


_POOLS: dict[int, Executor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(workers: int) -> Executor:
    """The process's one pool of ``workers`` worker processes, shared by every Master: a kiosk makes
    a Master for each game screen and one for the coach, and a pool each left idle processes behind
    every screen until it was collected (on a Pi, three processes a pool). Threads may submit to it
    at once: a search on a screen just left runs out its batch beside the next one's. Each worker
    ends by itself once this process ends, whatever killed it (engine.lifeline)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            # a fork server, not fork: the kiosk's process has threads and a GL context
            pool = _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"),
                                                         initializer=end_with, initargs=(os.getpid(),))
        return pool


def _discard(workers: int, pool: Executor) -> None:
    """Forget ``pool`` if it is still the one of ``workers`` processes (another thread may have
    replaced it already), so the next batch starts fresh workers; its survivors are stopped."""
    with _POOLS_LOCK:
        if _POOLS.get(workers) is pool:
            del _POOLS[workers]
    pool.shutdown(wait=False, cancel_futures=True)


class Master:
    name = "master"

    def __init__(self, iterations: int = 128, widen: float = 1.5, exploration: float = 0.7,
                 batch: int = 6, workers: int = 1, cap: float = 30.0, weights: Weights = TUNED,
                 horizon: int = 1, replies: int | None = 1) -> None:
        self.iterations = iterations
        self.widen = widen
        self.exploration = exploration
        self.batch = batch
        self.workers = workers
        self.cap = cap
        self.weights = weights
        self.horizon = horizon
        self.replies = replies
        self.last: Search | None = None

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        return self.search(view, rng).choice

    def search(self, view: StrategyGame, rng: random.Random) -> Search:
        """Search the position and keep the result in :attr:`last` (the coach reads it)."""
        deadline = time.perf_counter() + self.cap
        scored = ranked(view, self.weights)
        children = [Child(p, value) for value, p in scored]
        work = self.work(view)
        seeds = [rng.randrange(1 << 30) for _ in range(work)]
        done = 0
        if len(children) > 1:
            while done < work and time.perf_counter() < deadline:
                picks = self._pick(children, done, min(self.batch, work - done))
                jobs = [(children[i].placement, seeds[len(children[i].values) + extra])
                        for i, extra in picks]
                values = self._evaluate(view, jobs, deadline)
                if values is None:
                    break
                for (i, _), value in zip(picks, values):
                    children[i].values.append(value)
                done += len(picks)
        choice = max(children, key=lambda c: (len(c.values), c.mean, c.prior)).placement
        self.last = Search(children, done, choice)
        return self.last

    def work(self, view: StrategyGame) -> int:
        """The iterations a search of ``view`` makes: ``iterations`` scaled to the colours in play."""
        return max(1, round(self.iterations * 2 / len(view.colours())))

    def _pick(self, children: list[Child], done: int, count: int) -> list[tuple[int, int]]:
        """``count`` picks by UCB1 over the widened set, as (child, visits already pending for it
        in this batch): a pending visit counts as made (a virtual visit), spreading the batch."""
        pending = [0] * len(children)
        picks = []
        for n in range(done, done + count):
            width = min(len(children), max(2, math.ceil(self.widen * math.sqrt(n + 1))))
            best, best_score = 0, -math.inf
            spread = self._spread(children[:width])
            for i in range(width):
                visits = len(children[i].values) + pending[i]
                if visits == 0:
                    best = i
                    break
                mean = children[i].mean if children[i].values else children[i].prior
                score = mean + self.exploration * spread * math.sqrt(math.log(n + 1) / visits)
                if score > best_score:
                    best, best_score = i, score
            picks.append((best, pending[best]))
            pending[best] += 1
        return picks

    @staticmethod
    def _spread(children: list[Child]) -> float:
        """The scale of the values seen (their standard deviation, at least 1)."""
        values = [v for c in children for v in c.values]
        if len(values) < 2:
            return 4.0
        mean = sum(values) / len(values)
        return max(1.0, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)))

    def _evaluate(self, view: StrategyGame, jobs: list[tuple[Placement, int]], deadline: float) -> list[float] | None:
        """The values of ``jobs``, on the worker processes if there are any; None when they did
        not answer by ``deadline`` (the cap bounds the wait for them too: frozen or stuck workers
        held the search, and the table, for ever)."""
        if self.workers <= 1 or len(jobs) < 2:
            return _rollouts(view, jobs, self.weights, self.horizon, self.replies)
        pool = _pool(self.workers)
        parts = [jobs[i:: self.workers] for i in range(self.workers)]
        try:
            futures = [pool.submit(_rollouts, view, part, self.weights, self.horizon, self.replies)
                       for part in parts if part]
            results = [f.result(timeout=max(0.0, deadline - time.perf_counter())) for f in futures]
        except TimeoutError:
            log.warning("the master's worker processes did not answer within its %g s cap; it plays the best "
                        "placement found so far", self.cap)
            for future in futures:
                future.cancel()
            return None
        except BrokenProcessPool as error:
            # A worker was killed (the OOM killer, kill -9): a broken pool refuses every later batch,
            # which made every later master search of the kiosk fail. The batch is played out here
            # (the same values: the choice does not change) and the next one gets fresh workers.
            log.warning("a worker process of the master's search ended abruptly (%s); its batch runs "
                        "in the kiosk's process and fresh workers start", error)
            _discard(self.workers, pool)
            return _rollouts(view, jobs, self.weights, self.horizon, self.replies)
        values: list[float] = [0.0] * len(jobs)
        for i, part in enumerate(results):
            values[i:: self.workers] = part
        return values

    def close(self) -> None:
        """Stop the worker processes of this Master's size of pool, if they were started (a match's
        end; a Master that searches again later starts them anew)."""
        with _POOLS_LOCK:
            pool = _POOLS.pop(self.workers, None)
        if pool is not None:
            pool.shutdown()
