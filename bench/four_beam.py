"""Benchmark: how fast one beam search of the Four lines / Four loops optimiser runs on this CPU.

    .venv/bin/python bench/four_beam.py                   # width 300, seeds 1-3, both goals
    .venv/bin/python bench/four_beam.py --width 800 --seeds 5

The beam search (``engine.optimise.beam_search``) is the pure-Python part of the optimiser; its
speed decides how many rebuilds a round of ``bench/four_optimise.py`` gets before it stalls, so
this is the figure to compare between machines (a Pi 4 against the development machine) and
between versions. One process, from scratch, fixed seeds: the same seed builds the same
arrangement, so only the seconds differ between runs. Prints one JSON object: per goal each
seed's score and seconds, and the mean seconds per beam.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.four import GOALS  # noqa: E402
from engine.optimise import beam_search  # noqa: E402


def run(goal: str, width: int, seeds: int) -> dict[str, object]:
    beams = []
    for seed in range(1, seeds + 1):
        started = time.perf_counter()
        found = beam_search(goal, width, random.Random(seed))  # type: ignore[arg-type]
        beams.append({"seed": seed, "score": None if found is None else found[0],
                      "seconds": round(time.perf_counter() - started, 3)})
    mean = sum(beam["seconds"] for beam in beams) / len(beams)  # type: ignore[misc]
    return {"width": width, "beams": beams, "seconds_per_beam": round(mean, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--goal", choices=GOALS, action="append", help="lines or loops (default both)")
    parser.add_argument("--width", type=int, default=300, help="states kept at each cell (default 300)")
    parser.add_argument("--seeds", type=int, default=3, help="beams, seeded 1..N (default 3)")
    args = parser.parse_args()
    print(json.dumps({goal: run(goal, args.width, args.seeds) for goal in args.goal or GOALS}, indent=1))


if __name__ == "__main__":
    main()
