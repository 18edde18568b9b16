"""Benchmark: the time a robot takes per placement, as a distribution, with a Raspberry Pi 4
projection.

Plays ``--games`` games of the robot against club (2 players unless ``--players`` or ``--doubles``)
and times each of its decisions by the CPU time of this process (``time.process_time``: on a
shared, busy machine wall-clock time measures the neighbours) and by the wall clock. Prints the
median, 90th percentile and maximum of both, the master's iterations, and the CPU figures times
``--pi-factor``: how many times slower a Pi 4 core runs pure Python than this machine's, measured
before and after the run with the benchmarks-game n-body program, their mean (bench/pi_factor.py:
the machine is not always the same host, and its speed drifts within a run). For the master it
also divides that by ``--pi-workers`` (default 3: the kiosk gives it the Pi 4's cores but one, and its batch of
6 splits evenly over them), except the root's ranking of every placement, which stays in the
deciding process (timed apart, on a copy of the position, and not divided); the projection leaves
out the few milliseconds a batch spends travelling to the workers.

    nice -n 19 .venv/bin/python bench/robot_times.py --robot master --games 2 --seed 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import compiled  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.robots import make_robot, robot_move  # noqa: E402
from engine.strategy.robots.club import ranked  # noqa: E402
from engine.strategy.robots.master import Master  # noqa: E402
from pi_factor import pi_factor  # noqa: E402


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 3),
            "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3),
            "max": round(ordered[-1], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--robot", default="master")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--doubles", action="store_true", help="4 players in two teams")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pi-factor", type=float, help="default: measured now (bench/pi_factor.py)")
    parser.add_argument("--pi-workers", type=int, default=3)
    parser.add_argument("--budget", type=float, default=1000.0,
                        help="the safety cap in seconds: high, so that the work, not the machine's load, decides")
    args = parser.parse_args()
    factors = [pi_factor()] if args.pi_factor is None else [args.pi_factor]
    robot = make_robot(args.robot, budget=args.budget)
    club = make_robot("club")
    cpu: list[float] = []
    wall: list[float] = []
    iterations: list[int] = []
    pooled: list[float] = []  # the master's time on a Pi with its workers, per decision
    for number in range(args.games):
        players = 4 if args.doubles else args.players
        game = StrategyGame.new(players, doubles=args.doubles, robots=[args.robot] + ["club"] * (players - 1),
                                seed=args.seed + number)
        while not game.finished:
            if game.turn != 0:
                robot_move(game, club)
                continue
            if len(game.legal()) == 1:
                robot_move(game, robot)  # no decision: not timed (the robot answers at once)
                continue
            root = 0.0
            if isinstance(robot, Master):  # its root ranking, which the workers do not share
                start_cpu = time.process_time()
                ranked(game.view(), robot.weights)
                root = time.process_time() - start_cpu
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            robot_move(game, robot)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start_wall)
            if isinstance(robot, Master) and robot.last is not None:
                iterations.append(robot.last.iterations)
                pooled.append(root + max(0.0, cpu[-1] - root) / args.pi_workers)
    if args.pi_factor is None:
        factors.append(pi_factor())
    factor = statistics.mean(factors)
    report = {"robot": args.robot, "engine": compiled.status(), "decisions": len(cpu),
              "cpu_s": percentiles(cpu), "wall_s": percentiles(wall),
              "pi4_projection_s": {k: round(v * factor, 2) for k, v in percentiles(cpu).items()},
              "pi_factor": round(factor, 2), "pi_factors_measured": [round(f, 2) for f in factors]}
    if iterations:
        report["iterations"] = percentiles([float(i) for i in iterations])
        report["pi4_projection_with_workers_s"] = {k: round(v * factor, 2) for k, v in percentiles(pooled).items()}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
