"""Benchmark: legal placements of a 6-tile hand over 100 mid-game positions, and random playouts.

Mid-game positions hold 30 tiles, built by random legal play from a fixed seed (restrictions on,
bag 20); each gets a random hand of 6 unplaced tiles. Prints JSON: the median and worst time per
hand, and complete 56-tile playouts per second on one core.

    .venv/bin/python bench/engine_moves.py
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.strategy.playout import playout  # noqa: E402
from engine.tiles import ALL_NUMBERS  # noqa: E402


def hands_benchmark(positions: int = 100, seed: int = 2026) -> dict[str, float]:
    rng = random.Random(seed)
    times, counts = [], []
    for _ in range(positions):
        board = playout(rng, stop_after=30)
        board.bag = 20
        unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
        hand = rng.sample(unplaced, 6)
        start = time.perf_counter()
        legal = board.legal_placements(hand)
        times.append(time.perf_counter() - start)
        counts.append(len(legal))
    return {
        "positions": positions,
        "median_ms_per_hand": round(statistics.median(times) * 1000, 3),
        "max_ms_per_hand": round(max(times) * 1000, 3),
        "mean_placements_per_hand": round(statistics.mean(counts), 1),
    }


def playout_benchmark(playouts: int = 500, seed: int = 7) -> dict[str, float]:
    rng = random.Random(seed)
    done = placed = 0
    start = time.process_time()  # CPU time of this process: one core, whatever else runs
    for done in range(1, playouts + 1):
        placed += len(playout(rng))
    elapsed = time.process_time() - start
    return {
        "playouts": done,
        "playouts_per_second": round(done / elapsed, 1),
        "mean_tiles_placed": round(placed / done, 2),
    }


if __name__ == "__main__":
    print(json.dumps({"legal_placements": hands_benchmark(), "playouts": playout_benchmark()}, indent=2))
