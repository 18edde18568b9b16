"""Benchmark: count every hole-free loop of tiles 1..10 in red, yellow and blue.

Counts distinct arrangements up to turning and shifting the whole arrangement (rules.md: solution
counts count hole-free solutions only). Prints JSON: the count and seconds per colour and the total
(goal: under 10 s).

    .venv/bin/python bench/solver_count.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.solver import Goal, count  # noqa: E402

if __name__ == "__main__":
    out: dict[str, object] = {}
    cpu = time.process_time()
    wall = time.perf_counter()
    for colour in "RYB":
        started = time.perf_counter()
        result = count(Goal(tuple(range(1, 11)), (colour,), True))
        out[colour] = {"count": result.count, "seconds": round(time.perf_counter() - started, 2)}
    out["total_seconds"] = round(time.perf_counter() - wall, 2)
    out["total_cpu_seconds"] = round(time.process_time() - cpu, 2)
    print(json.dumps(out, indent=1))
