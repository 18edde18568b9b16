"""Benchmark: is the master's endgame search worth more than its sampling once the bag is empty?

Once the bag is empty nothing is hidden (hands lie face up), so the master's sampling of the bag
only repeats one future; the search below (:func:`solve`) spends the work looking ahead instead.
A cheap screen before a master-against-expert match: both sides play the club robot until the bag
is empty; from then on one side decides by this endgame search (``--nodes`` positions ranked at
most, leaves judged by the club evaluation or, with ``--playout``, by the club's first choices
played to the end of the game) and the other by the master's Monte-Carlo search at its defaults.
It did not help (bench/RESULTS.md), so the master does not use it; it stays here to be measured.
2-player duplicate blocks (one bag played both ways); prints the endgame search's share of points with a
Wilson 95 % interval, its mean margin, and both sides' median and slowest endgame decision in CPU
seconds.

    nice -n 19 .venv/bin/python bench/endgame_screen.py --blocks 200 --seed 5 --minutes 14 --nodes 120
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.intervals import wilson  # noqa: E402
from engine.board import Placement  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.match import play_game  # noqa: E402
from engine.strategy.robots.club import Club, perspective, ranked  # noqa: E402
from engine.strategy.robots.evaluation import WEIGHTS, Evaluator, Weights  # noqa: E402
from engine.strategy.robots.master import Master  # noqa: E402

WIDTHS = (8, 5, 4, 3, 3, 2, 2, 2)  # placements tried at each level of choice, in the club's order
_SAME = random.Random(0)  # copies of a game with an empty bag: nothing left to shuffle


class _OutOfWork(Exception):
    pass


@dataclass
class Endgame:
    """The values of the root placements tried (best first) and the positions ranked."""

    values: list[tuple[float, Placement]]
    nodes: int
    depth: int


def solve(view: StrategyGame, root: list[Placement] | None = None, weights: Weights = WEIGHTS,
          widths: tuple[int, ...] = WIDTHS, nodes: int = 120, deadline: float = math.inf,
          playout: bool = False) -> Endgame:
    """A minimax with alpha-beta over the placements of every seat (a placement the rules leave
    alone is made without searching), each seat choosing among its best ``widths[level]`` in the
    club's order, the mover's colour maximising and every other colour minimising; a finished game
    counts by its scores, a cut-off position by the club evaluation (or a playout). Iterative
    deepening bounded by work: one level more while the positions ranked stay within ``nodes``;
    the deepest search completed answers.

    Search ``view`` (bag empty), trying the ``root`` placements (by default
    all, in the club's order) first to last; deepens while ``nodes`` allow (and, as a safety cap
    only, until ``time.perf_counter()`` passes ``deadline``)."""
    assert view.bag_count == 0
    mine, others = perspective(view)
    if root is None:
        root = [p for _, p in ranked(view, weights)]
    found = Endgame([(0.0, root[0])], 0, 0)
    used = 0
    for depth in range(1, len(widths) + 1):
        search = _Search(mine, others, weights, widths[:depth], nodes - used, deadline)
        search.playout = playout
        try:
            values = search.root(view, root[: widths[0]])
        except _OutOfWork:
            break
        used += search.count
        found = Endgame(values, used, depth)
        if not search.cut:  # every line reached the end of the game: deeper finds nothing new
            break
    return found


class _Search:
    def __init__(self, mine: str, others: list[str], weights: Weights, widths: tuple[int, ...], nodes: int,
                 deadline: float) -> None:
        self.mine, self.others, self.weights, self.widths = mine, others, weights, widths
        self.nodes, self.deadline, self.count, self.cut = nodes, deadline, 0, False
        self.playout = False

    def root(self, view: StrategyGame, placements: list[Placement]) -> list[tuple[float, Placement]]:
        values = []
        alpha = -math.inf
        for p in placements:
            child = view.sample(_SAME)
            child.place(p)
            value = self.value(child, 1, alpha, math.inf)
            alpha = max(alpha, value)
            values.append((value, p))
        values.sort(key=lambda item: -item[0])  # stable: ties keep the club's order
        return values

    def value(self, game: StrategyGame, level: int, alpha: float, beta: float) -> float:
        """The value of ``game`` (a copy of its own, changed here) for the master's colour."""
        while not game.finished:
            legal = game.legal()
            if len(legal) != 1:
                break
            game.place(legal[0])
        if game.finished:
            assert game.result is not None
            scores = game.result.scores
            return float(scores[self.mine] - max((scores[c] for c in self.others), default=0))
        if level >= len(self.widths) and self.playout:
            self.cut = True
            while not game.finished:  # the club's first choice for every seat, to the end
                legal = game.legal()
                if len(legal) > 1:
                    self.count += 1
                    legal = [ranked(game, self.weights, fills=False)[0][1]]
                game.place(legal[0])
            assert game.result is not None
            scores = game.result.scores
            return float(scores[self.mine] - max((scores[c] for c in self.others), default=0))
        if level >= len(self.widths):
            self.cut = True
            placed = game.board.placed_tiles()
            judge = Evaluator([t for t in range(1, 57) if t not in placed], 0, self.weights)
            return judge.value(game.board, self.mine, self.others)
        self.count += 1
        if self.count > self.nodes or time.perf_counter() > self.deadline:
            raise _OutOfWork
        assert game.turn is not None
        maximise = game.colour_of(game.turn) == self.mine
        best = -math.inf if maximise else math.inf
        for _, p in ranked(game, self.weights, fills=False)[: self.widths[level]]:
            child = game.sample(_SAME)
            child.place(p)
            value = self.value(child, level + 1, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best



class LateDecider:
    """The club until the bag is empty, then ``decide`` (timed in CPU seconds)."""

    def __init__(self, name: str, decide: Any) -> None:
        self.name, self.decide, self.club, self.times = name, decide, Club(), []  # type: list[float]

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        if view.bag_count or len(view.legal()) == 1:
            return self.club.choose(view, rng)
        start = time.process_time()
        choice = self.decide(view, rng)
        self.times.append(time.process_time() - start)
        return choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blocks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=14.0)
    parser.add_argument("--nodes", type=int, default=120)
    parser.add_argument("--playout", action="store_true")
    args = parser.parse_args()
    searcher = LateDecider("endgame", lambda v, rng: solve(v, nodes=args.nodes, playout=args.playout).values[0][1])
    sampler = LateDecider("master", Master().choose)
    stop = time.monotonic() + 60 * args.minutes
    points = margin = 0.0
    games = 0
    for block in range(args.blocks):
        if time.monotonic() > stop:
            break
        seed = args.seed * 111_000 + block  # --seed 5: bags 555000, 555001, ...
        for seat in (0, 1):
            robots: list[Any] = [sampler, sampler]
            robots[seat] = searcher
            game = play_game(StrategyGame.new(2, seed=seed, robot_seed=seed + seat), robots)
            assert game.result is not None
            colour, scores = game.colour_of(seat), game.result.scores
            points += 1.0 if game.result.winner == colour else 0.5 if game.result.winner is None else 0.0
            margin += scores[colour] - max(v for c, v in scores.items() if c != colour)
            games += 1
        print(f"{games} games: {points / games:.3f}", file=sys.stderr, flush=True)
    report: dict[str, Any] = {"games": games, "share": round(points / games, 3), "ci95": wilson(points, games),
                              "mean_margin": round(margin / games, 2), "nodes": args.nodes, "playout": args.playout}
    for robot in (searcher, sampler):
        report[f"{robot.name}_cpu_median_s"] = round(statistics.median(robot.times), 3)
        report[f"{robot.name}_cpu_max_s"] = round(max(robot.times), 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
