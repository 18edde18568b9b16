"""CPU cost of the ring animations: 4 rings of 24 LEDs at 30 frames per second.

Runs the real Rings animator (its own thread) for a few seconds per case and divides the
process CPU time (time.process_time, all threads) by the wall time. Cases: the rainbow attract
animation (every LED changes every frame) and a pulsing turn, on the simulated strip and through
the SPI encoding path (WS2812 bits as SPI bytes) into /dev/null. Prints JSON; goal: under 5%.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.config import RingsConfig, RingSpec  # noqa: E402
from hardware.rings import Attract, Cue, Play, Rings  # noqa: E402
from hardware.strips import SimulatedStrip, SpiStrip, Strip  # noqa: E402

SECONDS = 3.0
GOAL_PERCENT = 5.0
CONFIG = RingsConfig(backend="simulated", rings=(RingSpec(24),) * 4, fps=30)


def measure(strip: Strip, cue: Cue) -> dict[str, float]:
    with Rings(CONFIG, strip=strip) as rings:
        rings.show(cue)
        time.sleep(0.2)
        writes, cpu, wall = rings.writes, time.process_time(), time.monotonic()
        time.sleep(SECONDS)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        frames = rings.writes - writes
    return {"cpu_percent": round(100 * cpu / wall, 2), "fps": round(frames / wall, 1)}


def main() -> None:
    cases = {}
    for cue_name, cue in (("attract", Attract()), ("pulse", Play(colours=((255, 0, 0),) * 4, turn=1, pulse=True))):
        cases[f"{cue_name}/simulated"] = measure(SimulatedStrip(CONFIG.all_rings), cue)
        with open("/dev/null", "wb", buffering=0) as null:
            cases[f"{cue_name}/spi"] = measure(SpiStrip(CONFIG, sink=null), cue)
    worst = max(case["cpu_percent"] for case in cases.values())
    print(json.dumps({"benchmark": "hardware_rings_cpu", "rings": "4x24", "target_fps": CONFIG.fps,
                      "seconds_per_case": SECONDS, "cases": cases, "worst_cpu_percent": worst,
                      "goal_cpu_percent": GOAL_PERCENT, "ok": worst < GOAL_PERCENT}))


if __name__ == "__main__":
    main()
