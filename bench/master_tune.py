"""Benchmark: tune the master by matches of a variant against a partner, with 95 % intervals.

A variant is the master's settings as ``key=value`` pairs (``iterations``, ``widen``,
``exploration``, ``batch``, ``horizon``, ``replies``: engine.strategy.robots.master's arguments;
``w.growth=3.5`` and the like change a field of its evaluation's Weights, which are TUNED; the
master before them is ``w.growth=3.0,w.link_free=5.0,w.link_forced=1.0,w.end_two=2.0,
w.end_forced=1.5,w.endgame_open=0.5,w.small_loop=6.0``; ``oracle=1`` tells it the bag's real
order, so that every determinization is the real future: not a robot, a bound on what better
guesses about the bag could give);
the partner is ``expert``, ``club`` or ``sparring`` (bench/sparring_robot.py through the external
protocol, so the master is not tuned to one opponent). Games are 2-player blocks of one bag played
both ways (duplicate play, as engine.strategy.match), each block from its own seed, spread over ``--workers``
processes (at most 2 on the shared machine). Every block is appended to ``--out`` as it ends, so
runs pool and resume; ``--minutes`` stops starting new blocks after that long. The summary per
(variant, partner): games, the master's wins, draws and share of points with a Wilson 95 %
interval, its mean score margin, and its median and slowest placement in CPU seconds.

    nice -n 19 .venv/bin/python bench/master_tune.py --variant iterations=96,batch=6,horizon=1 \\
        --partner expert --blocks 20 --seed 7 --minutes 25 --out bench/master_tune.jsonl
    .venv/bin/python bench/master_tune.py --summary bench/master_tune.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.intervals import wilson  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.robots import Robot, make_robot  # noqa: E402
from engine.strategy.robots.evaluation import TUNED  # noqa: E402
from engine.strategy.robots.master import Master  # noqa: E402

SPARRING = f"cmd:{sys.executable} {ROOT / 'bench' / 'sparring_robot.py'}"


def parse(variant: str) -> dict[str, float]:
    """``"iterations=112,horizon=1"`` -> {"iterations": 112, "horizon": 1}."""
    settings: dict[str, float] = {}
    for part in filter(None, variant.split(",")):
        name, _, value = part.partition("=")
        settings[name.strip()] = float(value) if "." in value else int(value)
    return settings


def master(settings: dict[str, float]) -> Master:
    """The master with ``settings``; those named ``w.<field>`` change a field of its evaluation's
    Weights (TUNED, engine.strategy.robots.evaluation)."""
    weights = {k[2:]: v for k, v in settings.items() if k.startswith("w.")}
    rest: dict[str, Any] = {k: v for k, v in settings.items() if not k.startswith("w.") and k != "oracle"}
    if weights:
        rest["weights"] = dataclasses.replace(TUNED, **weights)
    return Master(cap=1000.0, **rest)


class InOrder(random.Random):
    """A random source whose shuffles keep the order: a determinization drawn with it is the bag
    as it really lies."""

    def shuffle(self, x: Any) -> None:
        pass


def knowing_the_bag(game: StrategyGame) -> StrategyGame:
    """``game``'s view, except that its every sample is the real future (the oracle bound)."""
    view = game.view()
    view._bag = list(game._bag)  # noqa: SLF001 - a bench's cheat, on purpose
    view.sample = lambda rng: StrategyGame.sample(view, InOrder())  # type: ignore[method-assign]
    return view


class Timed:
    """A robot whose every choice is timed in CPU seconds of this process; with ``game`` set
    (the oracle), it decides on :func:`knowing_the_bag` of it instead of the view it is given."""

    def __init__(self, robot: Robot) -> None:
        self.robot, self.name, self.times = robot, robot.name, []  # type: list[float]
        self.game: StrategyGame | None = None

    def choose(self, view: StrategyGame, rng: Any) -> Any:
        start = time.process_time()
        choice = self.robot.choose(view if self.game is None else knowing_the_bag(self.game), rng)
        if len(view.legal()) > 1:
            self.times.append(time.process_time() - start)
        return choice


PLAYED = ("iterations", "widen", "exploration", "horizon", "replies")


def played(robot: Master) -> dict[str, Any]:
    """The settings that decide a master's choices, written with every block: a variant is
    relative to the defaults of its day (``""`` played 96 iterations before 2026-11-27 and 128
    after), so a line says what played and runs of different days pool correctly."""
    return {**{k: getattr(robot, k) for k in PLAYED}, "weights": dataclasses.asdict(robot.weights)}


def block(variant: str, partner: str, seed: int) -> dict[str, Any]:
    """One bag played both ways: the master's points (1 a win, 1/2 a draw) and score margins."""
    from engine.strategy.match import play_game

    settings = parse(variant)
    mine = Timed(master(settings))
    other = make_robot(SPARRING if partner == "sparring" else partner, 1000.0, 60.0)
    points, margins = [], []
    try:
        for seat in (0, 1):
            robots = [other, other]
            robots[seat] = mine  # type: ignore[call-overload]
            game = StrategyGame.new(2, seed=seed, robot_seed=seed + seat)
            mine.game = game if settings.get("oracle") else None
            play_game(game, robots)
            assert game.result is not None
            colour = game.colour_of(seat)
            scores = game.result.scores
            theirs = max(v for c, v in scores.items() if c != colour)
            points.append(1.0 if game.result.winner == colour else 0.5 if game.result.winner is None else 0.0)
            margins.append(scores[colour] - theirs)
    finally:
        for robot in (mine.robot, other):
            close = getattr(robot, "close", None)
            if close is not None:
                close()
    return {"variant": variant, "played": played(mine.robot), "partner": partner, "seed": seed,
            "points": points, "margins": margins,
            "cpu": mine.times}


def summary(path: Path) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        groups.setdefault((entry["variant"], entry["partner"]), []).append(entry)
    rows = []
    for (variant, partner), entries in groups.items():
        points = [p for e in entries for p in e["points"]]
        cpu = sorted(t for e in entries for t in e["cpu"])
        rows.append({"variant": variant, "partner": partner, "games": len(points),
                     "wins": points.count(1.0), "draws": points.count(0.5),
                     "share": round(sum(points) / len(points), 3), "ci95": wilson(sum(points), len(points)),
                     "mean_margin": round(statistics.fmean(m for e in entries for m in e["margins"]), 2),
                     "cpu_median_s": round(statistics.median(cpu), 3) if cpu else None,
                     "cpu_max_s": round(cpu[-1], 3) if cpu else None})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="")
    parser.add_argument("--partner", choices=("expert", "club", "sparring"), default="expert")
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="the first block (to extend an earlier run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--out", type=Path, default=Path("bench/master_tune.jsonl"))
    parser.add_argument("--summary", type=Path, default=None)
    args = parser.parse_args()
    if args.summary is None:
        stop = time.monotonic() + 60 * args.minutes
        seeds = [args.seed * 100_000 + b for b in range(args.first, args.first + args.blocks)]
        with ProcessPoolExecutor(args.workers) as pool:
            pending = {pool.submit(block, args.variant, args.partner, s) for s in seeds[: args.workers]}
            queue = seeds[args.workers:]
            while pending:
                done = next(as_completed(pending))
                pending.remove(done)
                entry = done.result()
                with args.out.open("a") as f:
                    f.write(json.dumps(entry) + "\n")
                print(f"{entry['variant']} vs {entry['partner']} seed {entry['seed']}: {entry['points']}",
                      file=sys.stderr, flush=True)
                if queue and time.monotonic() < stop:
                    pending.add(pool.submit(block, args.variant, args.partner, queue.pop(0)))
    print(json.dumps(summary(args.summary or args.out), indent=2))


if __name__ == "__main__":
    main()
