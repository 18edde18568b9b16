"""How long laying out the seats' tags takes on a Gobbles table: each tag change and each piece of
the table's news lays them all again, in the frame where it happens.

    SDL_VIDEODRIVER=offscreen .venv/bin/python bench/ui_seat_tags.py [--size 800x480] [--people 4,6]

For each table of people (dealt, nothing placed yet), the median of 20 layouts of the seats' own
tags, then of the news at every seat ("No turns: everyone places at once. Go!"), in milliseconds
on this machine. A crowded table (six people on the 7" panel) tries the most places: a tag keeps
clear of the other hands, the controls and the tags laid before it, and news narrows until it fits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)

RUNS = 20


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--people", default="4,6")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    app, _services = kiosk((width, height))
    from engine.gobble.gobbles import Gobbles, Player
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import gobbles

    results: list[dict[str, Any]] = []

    def median_ms(lay: Callable[[], None]) -> float:
        times = []
        for _run in range(RUNS):
            start = time.perf_counter()
            lay()
            times.append(time.perf_counter() - start)
        return round(statistics.median(times) * 1000, 2)

    def tables() -> Iterator[float]:
        yield 0.3
        for people in (int(p) for p in args.people.split(",")):
            game = Gobbles.deal([Player(f"Player {n + 1}") for n in range(people)], seed=4)
            screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
            app.show(screen)
            yield 0.5
            layout = screen.layout
            tags = median_ms(layout._show_tags)
            layout.announce(lambda: _(gobbles.START_NEWS))
            yield 0
            news = median_ms(layout._show_tags)
            results.append({"size": args.size, "people": people, "tags_ms": tags, "news_ms": news})
            screen.leave()
            yield 0.2

    run_steps(app, tables())
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
