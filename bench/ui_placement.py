"""The strategy screen's own work for one placement, on the UI's thread: what a Pi's core spends on
every move besides drawing (the board, the hands, the plates, the forced-space cues and the news
laid out again).

    .venv/bin/python bench/ui_placement.py [--size 800x480] [--players 2,4] [--seed 1]

Every seat is a person whose moves a club robot chooses (outside the timing); each move goes
through the screen as a finger's would end: put down provisionally (``put``), then Confirm
(``confirm``). Each of the two is timed in CPU seconds of the UI's thread (``time.thread_time``:
Mesa's rendering threads and other jobs on the machine do not count), and the frame after the
confirmation in wall time (Mesa's software renderer draws it here; a Pi's GPU does that part).
Prints JSON per game: median, 90th percentile and longest, in milliseconds, and the Pi 4 factor
measured in this run (bench/pi_factor.py) with the projected median and longest of put + confirm.
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

from kiosk_steps import kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)
from pi_factor import pi_factor  # noqa: E402


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 1),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1), "max": round(ordered[-1], 1)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    app, _services = kiosk((width, height))
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot, robot_choice
    from ui.modes.strategy import play as strategy_play

    results: list[dict[str, Any]] = []

    def games() -> Iterator[float]:
        yield 0.3
        for players in (int(p) for p in args.players.split(",")):
            game = StrategyGame.new(players, "RYGB"[:players], [None] * players, seed=args.seed)
            screen = strategy_play.open_game(app, game)
            yield 0.5
            robot = make_robot("club")
            put_ms: list[float] = []
            confirm_ms: list[float] = []
            frame_ms: list[float] = []
            while not game.finished:
                choice = robot_choice(game, robot)
                c0 = time.thread_time()
                screen.put(game.turn, choice)
                c1 = time.thread_time()
                screen.confirm()
                c2 = time.thread_time()
                shown = time.perf_counter()
                yield 0
                frame_ms.append((time.perf_counter() - shown) * 1000)
                put_ms.append((c1 - c0) * 1000)
                confirm_ms.append((c2 - c1) * 1000)
            both = [p + c for p, c in zip(put_ms, confirm_ms)]
            results.append({"players": players, "size": args.size, "placements": len(both),
                            "put_cpu_ms": _summary(put_ms), "confirm_cpu_ms": _summary(confirm_ms),
                            "put_and_confirm_cpu_ms": _summary(both), "next_frame_wall_ms": _summary(frame_ms)})
            screen.leave()
            yield 0.3

    run_steps(app, games())
    factor = pi_factor(300_000)
    for result in results:
        both = result["put_and_confirm_cpu_ms"]
        result["pi4_factor"] = round(factor, 2)
        result["pi4_put_and_confirm_ms"] = {"median": round(both["median"] * factor), "max": round(both["max"] * factor)}
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
