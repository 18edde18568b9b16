"""UI timings, headless (software OpenGL, so the GL part is slower than on the Pi's GPU):

* start to first frame of ``KioskApp`` (process start to the first drawn frame);
* the Python work of a placement with 56 tiles on the board (drop judged by the target, the tile
  placed, the board view and the hands' hints updated), and the whole next frame;
* CPU use while nothing moves (home screen) and on the attract screen (a tile every 2 s).

    nice -n 10 .venv/bin/python bench/ui_frame.py [--size 1280x800] [--placements 20] [--idle 5]

Prints JSON. Goals: placement work under 8 ms, idle CPU under 5 % of a core, first frame under 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(size: tuple[int, int], placements: int, idle_seconds: float, started: float) -> dict:
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    import random

    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.uix.screenmanager import Screen

    from engine.strategy.playout import playout
    from ui.app import KioskApp
    from ui.board import HandView
    from ui.memory import memory_services
    from ui.table import TableLayout

    class Rules:
        def __init__(self, board):
            self.board = board

        def check(self, p):
            return self.board.check(p)

        def place(self, p):
            r = self.check(p)
            if r is not None:
                raise r
            self.board.push(p)

    services = memory_services()
    app = KioskApp(services, simulated_panel=False)
    services.devices.listener = app.post
    result: dict = {"size": f"{size[0]}x{size[1]}"}

    def measure(_dt: float) -> None:
        board = playout(random.Random(5))
        board.bag = 0
        screen = Screen(name="bench")
        table = TableLayout()
        table.board.target = Rules(board)
        hands = [HandView(tiles=[]), HandView(tiles=[])]
        table.seat(hands)
        screen.add_widget(table)
        app.show(screen)
        table.board.show(board)
        for _ in range(3):
            EventLoop.idle()
        handler, handler_cpu, frame = [], [], []
        for _ in range(placements):
            last = board.undo()
            hands[0].tiles = [last.tile]
            table.board.show(board)
            table.board._user_moved = True  # keep the view still: measure the placement, not a recentring
            EventLoop.idle()
            pos = table.board.window_cell_centre(last.cell)
            c0, t0 = time.thread_time(), time.perf_counter()  # main thread only: not llvmpipe's workers
            placed = table.board.drop(pos, last.tile, last.rot)
            c1, t1 = time.thread_time(), time.perf_counter()
            EventLoop.idle()
            t2 = time.perf_counter()
            assert placed == last, (placed, last)
            handler.append((t1 - t0) * 1000)
            handler_cpu.append((c1 - c0) * 1000)
            frame.append((t2 - t1) * 1000)
        result["tiles_on_board"] = len(board)
        result["placement_python_ms_median"] = round(statistics.median(handler), 2)
        result["placement_python_cpu_ms_median"] = round(statistics.median(handler_cpu), 2)
        result["placement_python_ms_max"] = round(max(handler), 2)
        result["next_frame_ms_median"] = round(statistics.median(frame), 2)
        app.stop()

    def idle(name: str, then) -> None:
        cpu0, wall0 = time.process_time(), time.perf_counter()

        def done(_dt: float) -> None:
            cpu = time.process_time() - cpu0
            wall = time.perf_counter() - wall0
            result[f"idle_cpu_percent_{name}"] = round(100 * cpu / wall, 2)
            then()

        Clock.schedule_once(done, idle_seconds)

    def start(_dt: float) -> None:
        if app.first_frame_at is None:
            Clock.schedule_once(start, 0.05)
            return
        result["first_frame_s"] = round(app.first_frame_at - started, 3)
        app.go_home()
        Clock.schedule_once(lambda dt: idle("home", after_home), 1.0)

    def after_home() -> None:
        app.manager.current = "attract"
        Clock.schedule_once(lambda dt: idle("attract", lambda: Clock.schedule_once(measure, 0)), 1.0)

    Clock.schedule_once(start, 0.5)
    app.run()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--placements", type=int, default=20)
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    if args.child:
        print("RESULT " + json.dumps(child((width, height), args.placements, args.idle, args.child)), file=sys.__stdout__)
        return 0
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1", KIVY_CLIPBOARD="sdl2", PYTHONPATH=str(ROOT))
    started = time.time()
    done = subprocess.run([sys.executable, __file__, "--size", args.size, "--placements", str(args.placements),
                           "--idle", str(args.idle), "--child", repr(started)],
                          env=env, capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        print(done.stderr[-4000:], file=sys.stderr)
        return 1
    print(json.dumps(json.loads(lines[-1][7:]), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
