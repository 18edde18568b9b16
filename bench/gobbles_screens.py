"""Gobbles on every supported panel: renders setup, play (start, middle, late) and results to PNG
and measures the smallest board tile while a person still plays, over a whole game.

A person (seat 0, scripted: a forced space first, else any legal placement, gifts as suggested
at once) races a Casual robot; the robot acts on the table's simulated clock (3 s a step). After each step
the view settles before it is measured. Each size runs in its own process (one Kivy app each).

    nice -n 19 .venv/bin/python bench/gobbles_screens.py [--sizes 800x480,1280x800] [--out screenshots]

Prints JSON: per size, the smallest board tile across the flats (px) while the person played, the
hand tiles' size, and the files written.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
SIZES = "800x480,1280x800,1024x600,1920x1080,720x1280"


def child(size: tuple[int, int], out: Path) -> dict[str, Any]:
    from kiosk_steps import kiosk, run_steps

    app, _services = kiosk(size)
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.hexes import SQRT3
    from ui.modes.gobble import gobbles
    from ui.modes import family
    tag = f"{size[0]}x{size[1]}"
    result: dict[str, Any] = {"files": []}

    def shot(name: str) -> None:
        path = out / f"{tag}-gobbles-{name}.png"
        app.root.export_to_png(str(path))
        result["files"].append(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path))

    def steps() -> Iterator[float]:
        yield 0.3
        app.open_family(family("gobbles"))
        yield 0.3
        shot("1-setup")
        rng = random.Random(1)
        game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.CASUAL)], seed=3)
        clock = ManualClock()
        screen = gobbles.GobblesScreen(app, game, clock=clock, robot_seed=1)
        app.show(screen)
        yield 0.6
        shot("2-play-start")
        board = screen.layout.board
        smallest = board.size_px * SQRT3
        result["hand_tile_px"] = round(screen.hands[0].tile_radius() * SQRT3, 1)
        shots = {30: "3-play-middle", 44: "4-play-late"}
        while not game.finished:
            options = game.legal_placements(0)
            forced = [p for p in options if game.board.neighbour_count(p.cell) >= 3]
            if options and rng.random() < 0.5:
                screen.table.claim(0, rng.choice(forced or options))
            if 0 in game.pending:  # given at once: the shots show the table, not the gift card
                gift = game.suggest_gift(0)
                screen.table.give(0, gift.to, gift.tiles)
            clock.advance(3000)
            screen.tick()
            screen.refresh()
            yield 0.45
            if game.playing(0) and not game.finished:
                smallest = min(smallest, board.size_px * SQRT3)
            name = next((n for k, n in shots.items() if len(game.board) >= k), None)
            if name is not None:
                shot(name)
                shots = {k: n for k, n in shots.items() if n != name}
            if game.now_ms > 3_600_000:
                raise RuntimeError("no end after a simulated hour")
        result["smallest_board_tile_px"] = round(smallest, 1)
        result["tiles_on_board"] = len(game.board)
        for _ in range(60):
            if app.manager.current == "gobbles-results":
                break
            yield 0.1
        yield 0.4
        shot("5-results")

    run_steps(app, steps())
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=SIZES)
    parser.add_argument("--out", default=str(ROOT / "screenshots"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.child:
        width, height = (int(v) for v in args.child.split("x"))
        print("RESULT " + json.dumps(child((width, height), out)), file=sys.__stdout__)
        return 0
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1", KIVY_CLIPBOARD="sdl2", PYTHONPATH=str(ROOT))
    results: dict[str, Any] = {}
    for size in args.sizes.split(","):
        done = subprocess.run([sys.executable, __file__, "--child", size, "--out", str(out)], env=env,
                              capture_output=True, text=True, timeout=600)
        lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        if done.returncode != 0 or not lines:
            print(done.stderr[-4000:], file=sys.stderr)
            return 1
        results[size] = json.loads(lines[-1][7:])
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
