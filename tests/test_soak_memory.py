"""Memory stays flat at the kiosk: an hour of bench/soak.py's café day (the real runtime
with its SQLite store and simulated devices, the Kivy app headless on a sped-up clock), solo games
played one after another by scripted visitors; after the first 24 minutes the memory traced by
tracemalloc grows less than :data:`BOUND` per simulated hour. The whole day, every family and the
power cuts are the bench's (``bench/soak.py --hours 24``, figures in bench/RESULTS.md)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import soak  # noqa: E402

BOUND = 256 * 1024
"""Bytes per simulated hour. A flat run measured +23 KiB/h; the same run with every screen shown kept
alive (a leak injected in ``KioskApp.show`` while this test was written) measured +10,403 KiB/h."""


def test_memory_is_flat_after_warm_up(tmp_path):
    result = soak.simulate(hours=3.0, start=2.0, seed=3, cuts=0, cut_hours=0.0, warmup=0.4, gap_minutes=4,
                           sample_minutes=5, state=tmp_path, families=("gobble-solo", "solitaire"))
    (day,) = result["segments"]
    assert day["exit"] == 0, day["stderr"]
    assert sum(day["games"].values()) >= 3, day["games"]  # the games were played, and ended
    slope, _peak = soak.growth(day, "traced")
    print(f"traced memory after warm-up: {slope / 1024:+.0f} KiB per simulated hour, {len(day['samples'])} samples")
    assert slope < BOUND, (f"{slope / 1024:.0f} KiB per simulated hour after warm-up", day["samples"], day["top"])
