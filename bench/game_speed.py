"""Benchmark: how long each robot level takes to choose a placement, over real game positions.

Positions are every decision with more than one legal placement in a few club-vs-club games
(2 players, fixed seeds), plus a 4-player and a Doubles game; each robot chooses on each of them.
Prints JSON per level: decisions, median, 90th percentile and longest time in milliseconds, as wall
clock (what a player waits; the expert's budget is wall-clock time) and as CPU time of the thread
(what the robot itself costs, without the waits of a machine shared with other work), and the
machine's load average when it ran.

    .venv/bin/python bench/game_speed.py [--games 6] [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import compiled  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.robots import LEVELS, make_robot, robot_move  # noqa: E402


def positions(games: int) -> list[StrategyGame]:
    """Views of every real decision (more than one legal placement) in some club games."""
    setups = [dict(players=2, seed=s) for s in range(games)]
    setups += [dict(players=4, seed=100), dict(players=4, doubles=True, seed=101)]
    found = []
    for setup in setups:
        game = StrategyGame.new(**setup, robots=["club"] * setup["players"])
        while not game.finished:
            if len(game.legal()) > 1:
                found.append(game.view())
            robot_move(game)
    return found


def summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        "median_ms": round(1000 * statistics.median(times), 2),
        "p90_ms": round(1000 * times[int(0.9 * len(times))], 2),
        "max_ms": round(1000 * times[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6, help="2-player games to take positions from")
    parser.add_argument("--budget", type=float, default=None, help="expert's budget (default: its own)")
    args = parser.parse_args()
    views = positions(args.games)
    report: dict[str, object] = {"positions": len(views), "engine": compiled.status(),
                                 "load_average": os.getloadavg()[0]}
    for level in LEVELS:
        robot = make_robot(level, budget=args.budget)
        wall, cpu = [], []
        for view in views:
            start, start_cpu = time.perf_counter(), time.thread_time()
            robot.choose(view, view.robot_rng())
            wall.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
        report[level] = {"decisions": len(views), "wall": summary(wall), "cpu": summary(cpu)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
