"""Benchmark: what durability costs. The journal write after every step, and the store's start.

``save_current`` of a strategy game's saved state (a random legal 40-tile position with four hands
and a bag order, ~1.5 KB of JSON) is timed over 300 steps in a fresh database in the given directory
(default: a temporary one; pass a directory on the Pi's SD card to measure the card). The start is
timed on a database holding 2000 finished games (the default ``keep_records``): opening includes
``PRAGMA quick_check`` and the migrations check. Prints JSON.

    .venv/bin/python bench/firmware_store.py [DIRECTORY]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.strategy.playout import playout  # noqa: E402
from engine.tiles import ALL_NUMBERS  # noqa: E402
from firmware.store import DATABASE, SqliteStore  # noqa: E402


def saved_game(rng: random.Random) -> dict:
    board = playout(rng, stop_after=40)
    board.bag = 0
    left = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
    rng.shuffle(left)
    hands = [left[i:i + 6] for i in range(0, 24, 6)]
    return {"kind": "strategy", "state": {"position": board.to_json(), "hands": hands, "bag": left[24:],
                                          "turn": 2, "players": ["Ann", "robot:fox", "Bea", "robot:owl"]}}


def journal_benchmark(directory: Path, steps: int = 300) -> dict[str, float]:
    rng = random.Random(11)
    saved = saved_game(rng)
    times = []
    with SqliteStore(directory) as store:
        for step in range(steps):
            saved["state"]["turn"] = step % 4
            start = time.perf_counter()
            store.save_current(saved)
            times.append(time.perf_counter() - start)
        mode = store.journal_mode
    times.sort()
    return {
        "steps": steps,
        "journal_mode": mode,
        "state_bytes": len(json.dumps(saved, separators=(",", ":"))),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p95_ms": round(times[int(0.95 * len(times))] * 1000, 2),
        "max_ms": round(times[-1] * 1000, 2),
    }


def start_benchmark(directory: Path, records: int = 2000) -> dict[str, float]:
    rng = random.Random(5)
    record = {"moves": saved_game(rng)["state"]["position"], "robots": {"fox": "won"}}
    with SqliteStore(directory, keep_records=records) as store:
        for _ in range(records):
            store.add_record("strategy", record)
    start = time.perf_counter()
    with SqliteStore(directory, keep_records=records) as store:
        opened = time.perf_counter() - start
        assert store.statistics()["records"] == records
    return {"records": records, "database_mb": round((directory / DATABASE).stat().st_size / 2**20, 2),
            "open_ms": round(opened * 1000, 1)}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(scratch)
        with tempfile.TemporaryDirectory(dir=base) as journal, tempfile.TemporaryDirectory(dir=base) as start:
            print(json.dumps({"save_current": journal_benchmark(Path(journal)),
                              "start": start_benchmark(Path(start))}, indent=2))
