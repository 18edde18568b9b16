"""Soak: many master decisions in a row on the kiosk's worker processes, some of them killed.

    nice .venv/bin/python bench/master_workers.py [--decisions 200] [--kill-every 10] [--workers 2]

Games of 2, 3 and 4 players and Doubles in turn, every seat a master, until ``decisions`` master
searches have been made. Each game has its own Master (as each game screen makes one) and each
search runs on a thread of its own (as ui.jobs runs it); every ``kill-every`` decisions one worker
process is SIGKILLed, as the OOM killer would (0: none). Prints JSON: decisions, games, kills, and
this process's file descriptors, threads and descendant processes after the first decision and
after the last.

Goal: none of the three grows (a killed worker's pool is replaced, never kept nor leaked).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.board import Placement  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.robots import configure, make_robot, robot_task  # noqa: E402
from engine.strategy.robots import master as master_module  # noqa: E402

SETUPS: list[dict[str, Any]] = [dict(players=2), dict(players=3), dict(players=4), dict(players=4, doubles=True)]


def descendants() -> int:
    """This process's live descendants (the workers hang below multiprocessing's fork server)."""
    parents: dict[int, int] = {}
    for path in Path("/proc").glob("[0-9]*"):
        try:
            fields = path.joinpath("stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(path.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        found |= frontier
    return len(found)


def counts() -> dict[str, int]:
    return dict(fds=len(os.listdir("/proc/self/fd")), threads=len(os.listdir("/proc/self/task")),
                descendants=descendants())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--kill-every", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    configure(master_seconds=30, workers=args.workers)
    decisions = kills = games = 0
    first: dict[str, int] = {}
    while decisions < args.decisions:
        setup = SETUPS[games % len(SETUPS)]
        game = StrategyGame.new(**setup, robots=["master"] * setup["players"], seed=games)
        master = make_robot("master")
        games += 1
        while not game.finished and decisions < args.decisions:
            task = robot_task(game, master)
            chosen: list[Placement] = []
            thinking = threading.Thread(target=lambda: chosen.append(task()))
            thinking.start()
            thinking.join()
            game.place(chosen[0])
            decisions += 1
            first = first or counts()
            pool = master_module._POOLS.get(args.workers)
            if args.kill_every and decisions % args.kill_every == 0 and decisions < args.decisions and pool is not None:
                processes = list(pool._processes)  # type: ignore[attr-defined]
                if processes:
                    os.kill(processes[0], signal.SIGKILL)
                    kills += 1
    print(json.dumps(dict(decisions=decisions, games=games, kills=kills, first=first, last=counts())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
