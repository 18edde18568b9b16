"""Benchmark: tune the evaluation's Weights by self-play of the club robot (SPSA), then validate.

Club-against-club games are cheap (a 2-player game in well under a second), so the evaluation's
few numbers (engine.strategy.robots.evaluation.Weights) can be tuned on thousands of games. The
method is SPSA (simultaneous perturbation stochastic approximation, Spall 1998), the noisy
optimiser engine authors use for evaluation weights: each step perturbs every tuned weight at once
by +-c (in log space: weights are scales), plays ``--blocks`` duplicate blocks (one bag played
both ways, so the luck of the tiles cancels) of the club with the weights moved up against the
club with them moved down, and moves the weights along the difference in points. The answer is
the mean of the second half of the steps (Polyak averaging: the last step alone is noisy).
``--start`` continues from a previous run's answer instead of the defaults.

``--validate A B`` plays club with Weights ``A`` against club with ``B`` on seeds apart from the
tuning's (``--seed`` picks them) and prints A's share of points with a Wilson 95 % interval.
Weights are given as ``growth=3.5,end_two=2.2`` over the defaults (``""`` for the defaults).

``--robot expert`` plays the expert instead of the club, its ranking, playouts and leaves all with
the weights: the evaluation as the master uses it, after the opponent's reply (a step is about
five times as slow).

``--players 3`` (or 4) tunes and validates at a larger table: a bag is played once with A alone
in each seat among Bs (a win is 1 point, a draw is split among the colours tied at the top; an
even share is 1 / players), and a tuning step also plays B alone among As, so both sides of the
perturbation are judged alike.

    nice -n 19 .venv/bin/python bench/weights_tune.py --steps 200 --blocks 4 --seed 1 \\
        --minutes 25 --workers 1 --out bench/weights_tune.jsonl
    nice -n 19 .venv/bin/python bench/weights_tune.py --validate "growth=3.5" "" --blocks 150 --seed 9
    nice -n 19 .venv/bin/python bench/weights_tune.py --players 3 --validate "growth=3.5" "" --blocks 400 --seed 42
    nice -n 5 .venv/bin/python bench/weights_tune.py --robot expert --steps 400 --blocks 8 --seed 181 --a 0.06 \\
        --minutes 34 --workers 2 --start \\
        "growth=3.701,link_free=6.353,link_forced=1.153,end_two=4.48,end_forced=0.398,endgame_open=0.385,small_loop=3.869"
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.intervals import wilson  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.match import play_game  # noqa: E402
from engine.strategy.robots.club import Club  # noqa: E402
from engine.strategy.robots.expert import Expert  # noqa: E402
from engine.strategy.robots.evaluation import WEIGHTS, Weights  # noqa: E402

TUNED = ("growth", "link_free", "link_forced", "end_two", "end_forced", "endgame_open", "small_loop")


def weights(spec: str | dict[str, float]) -> Weights:
    """``"growth=3.5,end_two=2"`` (or a dict) over the default Weights."""
    if isinstance(spec, str):
        spec = {k.strip(): float(v) for k, _, v in (p.partition("=") for p in filter(None, spec.split(",")))}
    return dataclasses.replace(WEIGHTS, **spec)


def robot(name: str, spec: dict[str, float]) -> Club | Expert:
    """The club or the expert (work-bounded: its clock cap never binds) judging with ``spec``."""
    return Club(weights(spec)) if name == "club" else Expert(budget=1000.0, weights=weights(spec))


def duplicate(a: dict[str, float], b: dict[str, float], seed: int, players: int = 2,
              name: str = "club") -> tuple[float, float]:
    """One bag played ``players`` times, robot ``name`` with weights a in each seat in turn among
    ones with b: a's points (a win 1, a draw split among the colours tied at the top, or among all
    after a deadlock) and summed margin over its best opponent."""
    first, second = robot(name, a), robot(name, b)
    points = margin = 0.0
    for seat in range(players):
        robots = [second] * players
        robots[seat] = first
        game = play_game(StrategyGame.new(players, seed=seed, robot_seed=seed + seat), robots)
        assert game.result is not None
        colour = game.colour_of(seat)
        result = game.result
        scores = result.scores
        if result.winner is not None:
            points += result.winner == colour
        else:  # a draw: shared by the colours tied at the top, or by all after a deadlock
            top = max(scores.values())
            drawn = [c for c, v in scores.items() if v == top or result.reason == "deadlock"]
            points += 1.0 / len(drawn) if colour in drawn else 0.0
        margin += scores[colour] - max(v for c, v in scores.items() if c != colour)
    return points, margin


def play(pool: ProcessPoolExecutor, a: dict[str, float], b: dict[str, float], seeds: list[int],
         players: int = 2, name: str = "club") -> tuple[float, float]:
    n = len(seeds)
    results = list(pool.map(duplicate, [a] * n, [b] * n, seeds, [players] * n, [name] * n))
    return sum(p for p, _ in results), sum(m for _, m in results)


def tune(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    theta = {k: math.log(getattr(weights(args.start), k)) for k in TUNED}
    history: list[dict[str, float]] = []
    stop = time.monotonic() + 60 * args.minutes
    with ProcessPoolExecutor(args.workers) as pool:
        for k in range(args.steps):
            if time.monotonic() > stop:
                break
            a_k = args.a / (1 + k / 50) ** 0.602
            c_k = args.c / (1 + k / 50) ** 0.101
            delta = {n: rng.choice((-1.0, 1.0)) for n in TUNED}
            plus = {n: math.exp(theta[n] + c_k * delta[n]) for n in TUNED}
            minus = {n: math.exp(theta[n] - c_k * delta[n]) for n in TUNED}
            seeds = [args.seed * 1_000_000 + k * args.blocks + b for b in range(args.blocks)]
            games = args.players * args.blocks
            points, margin = play(pool, plus, minus, seeds, args.players, args.robot)
            # +1 all won by plus, -1 all by minus; the margin breaks the many ties of a short step
            if args.players == 2:  # plus alone against minus is minus alone against plus
                signal = (2 * points - games) / games + 0.02 * margin / games
            else:  # so at 3 and 4 players each is also played alone among the other
                against, their_margin = play(pool, minus, plus, seeds, args.players, args.robot)
                signal = (points - against) / games + 0.01 * (margin - their_margin) / games
            for n in TUNED:
                theta[n] += a_k * signal / (2 * c_k * delta[n])
            now = {n: round(math.exp(v), 4) for n, v in theta.items()}
            history.append(now)
            with args.out.open("a") as f:
                f.write(json.dumps({"robot": args.robot, "step": k, "points": points, "games": games, "margin": margin,
                                    "theta": now}) + "\n")
            print(f"step {k}: {points}/{games} margin {margin:+.0f} {now}", file=sys.stderr, flush=True)
    half = history[len(history) // 2:]
    mean = {n: round(math.exp(sum(math.log(h[n]) for h in half) / len(half)), 3) for n in TUNED}
    print(json.dumps({"steps": len(history), "averaged": mean,
                      "spec": ",".join(f"{n}={v}" for n, v in mean.items())}, indent=2))


def validate(args: argparse.Namespace) -> None:
    a, b = args.validate
    seeds = [args.seed * 7_000_000 + n for n in range(args.blocks)]
    stop = time.monotonic() + 60 * args.minutes
    points = margin = 0.0
    games = 0
    with ProcessPoolExecutor(args.workers) as pool:
        for first in range(0, len(seeds), 10 * args.workers):
            if time.monotonic() > stop:
                break
            chunk = seeds[first: first + 10 * args.workers]
            p, m = play(pool, dataclasses.asdict(weights(a)), dataclasses.asdict(weights(b)), chunk, args.players,
                        args.robot)
            points, margin, games = points + p, margin + m, games + args.players * len(chunk)
            print(f"{games} games: {points / games:.3f}", file=sys.stderr, flush=True)
    result: dict[str, Any] = {"robot": args.robot, "a": a, "b": b, "players": args.players, "games": games,
                              "share": round(points / games, 3), "even_share": round(1 / args.players, 3),
                              "ci95": wilson(points, games), "mean_margin": round(margin / games, 2)}
    print(json.dumps(result, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--blocks", type=int, default=4, help="duplicate blocks per step (or to validate)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a", type=float, default=0.1, help="SPSA step size")
    parser.add_argument("--c", type=float, default=0.2, help="SPSA perturbation, in log space")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--out", type=Path, default=Path("bench/weights_tune.jsonl"))
    parser.add_argument("--start", default="", help="weights to start from, e.g. a previous run's spec")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="table size: at 3 and 4 players each club plays alone among the other's")
    parser.add_argument("--robot", choices=("club", "expert"), default="club",
                        help="the robot that plays with the weights")
    parser.add_argument("--validate", nargs=2, metavar=("A", "B"), default=None)
    args = parser.parse_args()
    if args.validate:
        validate(args)
    else:
        tune(args)


if __name__ == "__main__":
    main()
