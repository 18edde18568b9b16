"""The strategy screen's own work for one placement, on the UI's thread: what a Pi's core spends on
every move besides drawing (the board, the hands, the plates, the forced-space cues and the news
laid out again).

    .venv/bin/python bench/ui_placement.py [--size 800x480] [--players 2,4] [--seed 1]

Every seat is a person whose moves a club robot chooses (outside the timing); each move goes
through the screen as a finger's would end: put down provisionally (``put``), then Confirm
(``confirm``). Each of the two is timed in CPU seconds of the UI's thread (``time.thread_time``:
Mesa's rendering threads, which draw the frames here where a Pi's GPU does, and other jobs on the
machine do not count). Prints JSON per game: median, 90th percentile and longest, in milliseconds,
and the Pi 4 factor measured in this run (bench/pi_factor.py) with the projected median and longest
of put + confirm.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import people_games, people_games_kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)
from pi_factor import pi_factor  # noqa: E402


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 1),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1), "max": round(ordered[-1], 1)}


def main() -> int:
    args, app = people_games_kiosk()
    results: list[dict[str, Any]] = []
    put_ms: list[float] = []
    confirm_ms: list[float] = []

    def place(game: Any, screen: Any, choice: Any) -> Iterator[float]:
        c0 = time.thread_time()
        screen.put(game.turn, choice)
        c1 = time.thread_time()
        screen.confirm()
        c2 = time.thread_time()
        put_ms.append((c1 - c0) * 1000)
        confirm_ms.append((c2 - c1) * 1000)
        yield 0

    def ended(game: Any) -> None:
        both = [p + c for p, c in zip(put_ms, confirm_ms)]
        results.append({"players": len(game.seats), "size": args.size, "placements": len(both),
                        "put_cpu_ms": _summary(put_ms), "confirm_cpu_ms": _summary(confirm_ms),
                        "put_and_confirm_cpu_ms": _summary(both)})
        put_ms.clear()
        confirm_ms.clear()

    run_steps(app, people_games(app, args.players, args.seed, place, ended))
    factor = pi_factor(300_000)
    for result in results:
        both = result["put_and_confirm_cpu_ms"]
        result["pi4_factor"] = round(factor, 2)
        result["pi4_put_and_confirm_ms"] = {"median": round(both["median"] * factor), "max": round(both["max"] * factor)}
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
