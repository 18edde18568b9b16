"""Render every UI screen headless at both kiosk sizes into ./screenshots/ (PNG), for a person to
look at: legible at arm's length, big touch targets, nothing cut off.

    .venv/bin/python bench/ui_screenshots.py [--sizes 1280x800,800x480] [--out screenshots]

Prints JSON: the files written. Each size runs in its own process (Kivy runs one app per process).
The table shots use a small rules target on engine.board.Board, as the board tests do; they show
the board widget and the seats, not a mode.
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


def child(size: tuple[int, int], out: Path) -> list[str]:
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    from kivy.clock import Clock

    from ui.app import KioskApp
    from ui.memory import memory_services

    services = memory_services()
    services.store.save_current({"kind": "strategy", "state": {}})
    app = KioskApp(services, kiosk=True, simulated_panel=False)
    services.devices.listener = app.post
    written: list[str] = []
    tag = f"{size[0]}x{size[1]}"

    def shot(name: str) -> None:
        path = out / f"{tag}-{name}.png"
        app.root.export_to_png(str(path))
        written.append(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path))

    def steps() -> Iterator[float]:
        yield 0.3
        shot("01-resume")
        app.discard()
        app.manager.current = "attract"
        yield AttractWait
        shot("02-attract")
        app.go_home()
        yield 0.2
        shot("03-home")
        app.set_language("pl")
        yield 0.2
        shot("04-home-pl")
        app.open_family("tantrix")
        yield 0.2
        shot("05-coming-soon-pl")
        app.set_language("en")
        app.open_staff()
        app.pin.keypad.entered = "12"
        yield 0.2
        shot("06-staff-pin")
        app.pin._enter("99")
        yield 0.1
        shot("07-staff-pin-wrong")
        services.devices.set_status("reader", False, "no serial device at /dev/ttyUSB0")
        app.manager.current = "staff"
        app.staff.open_page("hardware")
        yield 0.2
        shot("08-staff-hardware-badge")
        app.staff.open_page("tags")
        services.devices.start_enrolment(list(range(1, 57)))
        services.devices.scan(1, None)
        services.devices.scan(2, None)
        yield 0.2
        shot("09-staff-tags")
        app.staff.open_page("brightness")
        yield 0.1
        shot("10-staff-brightness")
        app.staff.open_page("language")
        yield 0.1
        shot("11-staff-language")
        services.devices.set_status("reader", True)
        for players, orientation in ((2, "flat"), (4, "flat"), (3, "upright")):
            screen, table, hands = _table(app, players, orientation)
            yield 0.6
            shot(f"12-table-{players}-{orientation}")
        # a refused drop, explained to the player who made it, facing them
        screen, table, hands = _table(app, 4, "flat")
        yield 0.6
        board = table.board.board
        hand = hands[2]
        bad = next((t, c) for t in hand.tiles for c in board.frontier() if not board.fits(t, c))
        result = table.board.drop(table.board.window_cell_centre(bad[1]), bad[0], 0)
        hand.dispatch("on_refused", result)
        yield 0.2
        shot("13-table-refused")
        # dragging with a finger: the space under the lifted tile shows whether it fits
        from kivy.tests.common import UnitTestTouch

        table.board.highlight(())
        hand = hands[0]
        legal = next(p for p in board.legal_placements(hand.tiles) if not board.is_forced(p.cell))
        hand.rotations[legal.tile] = legal.rot
        sx, sy = hand.to_window(*hand.slot_centre(hand.tiles.index(legal.tile)))
        x, y = table.board.window_cell_centre(legal.cell)
        finger = UnitTestTouch(sx, sy)
        finger.touch_down()
        for i in range(1, 9):
            finger.touch_move(sx + (x - sx) * i / 8, sy + (y - hand.tile_radius() * 1.3 - sy) * i / 8)
        yield 0.1
        shot("14-table-dragging")
        finger.touch_up()
        yield 0.7
        shot("15-table-placed")
        app.simulated_panel and app.toggle_simulated_panel()
        from ui.services import Cue

        services.devices.cue(Cue(turn=1, colours=("R", "Y", "G", "B")))
        app.go_home()
        yield 0.2
        shot("16-home-simulated-devices")

    AttractWait = 6.5
    iterator = steps()

    def advance(_dt: float) -> None:
        try:
            wait = next(iterator)
        except StopIteration:
            app.stop()
            return
        Clock.schedule_once(advance, wait)

    Clock.schedule_once(advance, 0.3)
    app.run()
    return written


class _BoardRules:
    """Screenshot-only placement target: engine.board.Board's own rules."""

    def __init__(self, board: Any) -> None:
        self.board = board

    def check(self, placement: Any) -> Any:
        from ui.refusals import refused

        violation = self.board.check(placement)
        return None if violation is None else refused(violation)

    def place(self, placement: Any) -> None:
        refusal = self.check(placement)
        if refusal is not None:
            raise refusal
        self.board.push(placement)


def _table(app: Any, players: int, orientation: str) -> tuple[Any, Any, list[Any]]:
    from kivy.uix.screenmanager import Screen

    from engine.playout import playout
    from ui.board import HandView
    from ui.table import TableLayout

    rng = random.Random(11)
    board = playout(rng, stop_after=22)
    board.bag = 56 - len(board) - 6 * players
    rest = [t for t in range(1, 57) if t not in board.placed_tiles()]
    rng.shuffle(rest)
    screen = Screen(name="table")
    table = TableLayout(orientation=orientation)
    table.board.target = _BoardRules(board)
    table.board.show(board)
    hands = [HandView(tiles=rest[6 * i: 6 * i + 6]) for i in range(players)]
    hands[0].rotations[hands[0].tiles[1]] = 2
    for hand, colour in zip(hands, "RYGB"):
        hand.colour = colour
    table.seat(hands)
    table.bag = board.bag
    table.refresh_hints()
    for hand in hands[1:]:
        hand.active = False
    screen.add_widget(table)
    app.show(screen)
    return screen, table, hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1280x800,800x480")
    parser.add_argument("--out", default=str(ROOT / "screenshots"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.child:
        width, height = (int(v) for v in args.child.split("x"))
        print("FILES " + json.dumps(child((width, height), out)), file=sys.__stdout__)
        return 0
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1", KIVY_CLIPBOARD="sdl2", PYTHONPATH=str(ROOT))
    files: list[str] = []
    for size in args.sizes.split(","):
        done = subprocess.run([sys.executable, __file__, "--child", size, "--out", str(out)], env=env,
                              capture_output=True, text=True, timeout=300)
        lines = [line for line in done.stdout.splitlines() if line.startswith("FILES ")]
        if done.returncode != 0 or not lines:
            print(done.stderr[-4000:], file=sys.stderr)
            return 1
        files += json.loads(lines[-1][6:])
    print(json.dumps({"screenshots": files}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
