"""How long the screen stands still when a strategy game opens, after the attract screen idled a while.

    SDL_VIDEODRIVER=offscreen .venv/bin/python bench/ui_game_opening.py [--size 800x480] [--idle 1,30] [--runs 3]

Each run is a fresh kiosk process (the tile faces are drawn once per process): it starts on the
attract screen, waits ``idle`` seconds, opens a 2-player game with people at both seats, and times
the frames of its first second. Prints JSON per run: the longest frame, the first twelve, the tile
faces drawn while the game opened (ui.tileart draws each face once per process, on first use) and
those drawn before. An idle of 1 s is a passer-by who touches at once; 30 s a table left alone.

Off a Pi the frames are drawn by Mesa's software renderer, whose work shows in these times (a
texture upload waits for the frame before it to be rasterised); on a Pi the GPU does that part, so
read these figures as this machine's, not the kiosk's (bench/RESULTS.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import child_result, kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)


def one(size: str, idle: float, seed: int) -> dict[str, Any]:
    """One run in this process: idle on the attract screen, then open a game and time its frames."""
    width, height = (int(v) for v in size.split("x"))
    app, _services = kiosk((width, height))
    from kivy.clock import Clock

    from engine.strategy.game import StrategyGame
    from ui import tileart
    from ui.modes.strategy import play as strategy_play

    result: dict[str, Any] = {}
    frames: list[float] = []
    last = [0.0]

    def tick(_dt: float) -> None:
        now = time.perf_counter()
        frames.append(now - last[0])
        last[0] = now

    def steps() -> Iterator[float]:
        yield idle
        before = set(tileart._FACES)
        last[0] = time.perf_counter()
        timer = Clock.schedule_interval(tick, 0)
        strategy_play.open_game(app, StrategyGame.new(2, "RY", [None, None], seed=seed))
        yield 1.0
        timer.cancel()
        result.update(idle_s=idle, size=size, faces_before=len(before),
                      faces_drawn=len(set(tileart._FACES) - before),
                      longest_frame_ms=round(max(frames) * 1000), frames=len(frames),
                      first=[round(f * 1000) for f in frames[:12]])

    run_steps(app, steps(), first=0)
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--idle", default="1,30", help="seconds on the attract screen before the game opens")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--one", type=float, help=argparse.SUPPRESS)  # a single run, in a child process
    args = parser.parse_args()
    if args.one is not None:
        print("RESULT " + json.dumps(one(args.size, args.one, args.seed)))
        return 0
    for idle in (float(v) for v in args.idle.split(",")):
        for run in range(args.runs):
            print(child_result(__file__, "--size", args.size, "--seed", str(args.seed + run), "--one", str(idle)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
