"""Tag frame bytes written to the serial port -> TagRead delivered to a listener, through a pty.

The real SerialTileReader (pyserial, default config: two identical reads confirm a tag) reads
the slave end of a pseudo-terminal; we time from writing the confirming frame on the master end
to the listener being called. Prints JSON; goal: median under 5 ms.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.config import ReaderConfig  # noqa: E402
from hardware.events import TagRead  # noqa: E402
from hardware.protocols import rdm6300_frame  # noqa: E402
from hardware.reader import SerialTileReader  # noqa: E402
from hardware.registry import TILES, TagRegistry, synthetic_uid  # noqa: E402

SAMPLES = 300
GOAL_MS = 5.0


def main() -> None:
    master, slave = os.openpty()
    delivered = threading.Event()
    arrival: list[float] = []

    def listener(event: object) -> None:
        if isinstance(event, TagRead):
            arrival.append(time.monotonic())
            delivered.set()

    reader = SerialTileReader(ReaderConfig(port=os.ttyname(slave)), TagRegistry.simulated(), listener)
    time.sleep(0.3)  # let it open the port
    latencies = []
    for i in range(SAMPLES):
        frame = rdm6300_frame(synthetic_uid(TILES[i % len(TILES)]))  # a new tile each time
        os.write(master, frame)  # first read: not yet confirmed
        time.sleep(0.003)
        delivered.clear()
        start = time.monotonic()
        os.write(master, frame)  # the confirming read
        if not delivered.wait(1.0):
            raise SystemExit(f"sample {i}: no TagRead within 1 s")
        latencies.append((arrival[-1] - start) * 1000)
    reader.close()
    os.close(master)
    os.close(slave)
    median = statistics.median(latencies)
    print(json.dumps({
        "benchmark": "hardware_reader_latency", "samples": SAMPLES,
        "median_ms": round(median, 3), "p95_ms": round(statistics.quantiles(latencies, n=20)[18], 3),
        "max_ms": round(max(latencies), 3), "goal_median_ms": GOAL_MS, "ok": median < GOAL_MS,
    }))


if __name__ == "__main__":
    main()
