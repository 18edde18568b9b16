"""Benchmark: the Rainbow and booklet puzzles (Junior .. Genius), each choice the player may make.

For every puzzle and allowed colour choice: whether it has a solution and the seconds to find one or
to prove there is none, with the solver's default settings. Prints JSON; Genius B (one solution up
to turning and shifting) is the slowest.

    .venv/bin/python bench/solver_booklet.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.solo.catalogue import PUZZLES  # noqa: E402
from engine.solver import solve  # noqa: E402

if __name__ == "__main__":
    out: dict[str, object] = {}
    wall = time.perf_counter()
    for name, puzzle in PUZZLES.items():
        if name.startswith("discovery-"):
            continue
        for colours in puzzle.choices:
            started = time.perf_counter()
            result = solve(puzzle.goal(colours))
            out[f"{name} {''.join(colours)}"] = {
                "solved": result.solved, "seconds": round(time.perf_counter() - started, 2), "nodes": result.nodes,
            }
    out["total_seconds"] = round(time.perf_counter() - wall, 2)
    print(json.dumps(out, indent=1))
