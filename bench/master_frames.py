"""The frames the table draws while the master thinks: the gaps between frames while a robot's
search runs, with the search in the kiosk's process (``--workers 1``) or on worker processes.

    SDL_VIDEODRIVER=offscreen nice .venv/bin/python bench/master_frames.py [--workers 1,2] [--decisions 30]

Each run is a fresh kiosk process (headless, 800x480) playing a 2-player game of masters (the
kiosk's default cap, 128 iterations) until ``decisions`` master searches have ended. Every frame
drawn while a search runs is timed. Prints JSON per run: searches, their median seconds, frames
drawn while thinking, and the gaps between them (median, 90th percentile, longest, in ms).

Goal: while the master thinks on worker processes, the longest gap stays under 100 ms (a dragged
tile still follows the finger) on a Pi. Off a Pi Mesa's software renderer draws the frames, and
other jobs share the two cores here, so read these as this machine's figures (bench/RESULTS.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import child_result, kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)


def one(workers: int, decisions: int, seed: int) -> dict[str, Any]:
    """One run in this process: a game of masters, the frames timed while they think."""
    app, _services = kiosk((800, 480))
    from kivy.clock import Clock

    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import configure
    from ui.modes.strategy import play as strategy_play

    configure(workers=workers)
    gaps: list[float] = []
    last: list[float | None] = [None]
    screen: list[Any] = []

    def tick(_dt: float) -> None:
        now = time.perf_counter()
        if screen and screen[0].robot_job.busy:
            if last[0] is not None:
                gaps.append(now - last[0])
            last[0] = now
        else:
            last[0] = None

    def steps() -> Iterator[float]:
        screen.append(strategy_play.open_game(app, StrategyGame.new(2, "RY", ["master", "master"], seed=seed)))
        timer = Clock.schedule_interval(tick, 0)
        while len(screen[0].think_log) < decisions and not screen[0].game.finished:
            yield 0.2
        timer.cancel()

    run_steps(app, steps(), first=0.5)
    searches = [seconds for seconds, _frames in screen[0].think_log]
    ordered = sorted(gaps)
    return dict(workers=workers, searches=len(searches), search_s=round(statistics.median(searches), 2),
                frames=len(gaps), gap_median_ms=round(statistics.median(ordered) * 1000, 1),
                gap_p90_ms=round(ordered[int(len(ordered) * 0.9)] * 1000, 1),
                gap_max_ms=round(ordered[-1] * 1000, 1))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", default="1,2", help="worker counts to run, one kiosk each (1: in-process)")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a single run, in a child process
    args = parser.parse_args()
    if args.one is not None:
        print("RESULT " + json.dumps(one(args.one, args.decisions, args.seed)))
        return 0
    for workers in (int(w) for w in args.workers.split(",")):
        print(child_result(__file__, "--one", str(workers), "--decisions", str(args.decisions), "--seed", str(args.seed)),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
