"""Benchmark: solve all 28 Discovery puzzles (tiles 1..3 up to 1..30) from an empty table.

Each puzzle is solved with the solver's default settings (seeded, so repeatable); every solution is
re-checked by the goal check. Prints JSON: seconds per puzzle, the total (goal: under 30 s) and the
slowest. Pass seeds to repeat the whole run with other seeds, e.g. ``... solver_discovery.py 0 1 2``.

    .venv/bin/python bench/solver_discovery.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Board  # noqa: E402
from engine.solo.catalogue import DISCOVERY_SIZES, PUZZLES  # noqa: E402
from engine.solver import solve, status  # noqa: E402


def run(seed: int) -> dict[str, object]:
    seconds: dict[str, float] = {}
    cpu = time.process_time()
    wall = time.perf_counter()
    for n in DISCOVERY_SIZES:
        goal = PUZZLES[f"discovery-{n}"].goal()
        started = time.perf_counter()
        result = solve(goal, seed=seed)
        seconds[str(n)] = round(time.perf_counter() - started, 3)
        board = Board()
        for p in result.solution or []:
            board.push(p)
        if not status(board, goal).solved:
            raise SystemExit(f"discovery-{n}: no valid solution")
    slowest = max(seconds, key=seconds.__getitem__)
    return {
        "seed": seed,
        "total_seconds": round(time.perf_counter() - wall, 2),
        "total_cpu_seconds": round(time.process_time() - cpu, 2),
        "slowest": {"puzzle": f"discovery-{slowest}", "seconds": seconds[slowest]},
        "seconds": seconds,
    }


if __name__ == "__main__":
    seeds = [int(s) for s in sys.argv[1:]] or [0]
    print(json.dumps([run(s) for s in seeds] if len(seeds) > 1 else run(seeds[0]), indent=1))
