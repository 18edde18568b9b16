"""The kiosk, headless, driven by a script of steps: what the screen benchmarks share.

    app, services = kiosk((800, 480))   # before anything opens Kivy's window
    run_steps(app, steps())             # steps() yields the seconds to wait before its next step

The app stops when the steps end (``run_steps`` returns then).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any, Callable, Iterator, Sequence


def kiosk(size: tuple[int, int]) -> tuple[Any, Any]:
    """A kiosk app (as on a table: kiosk mode, no simulated panel) and its in-memory services, in a
    window of ``size``: called before anything opens Kivy's window, which takes its size then."""
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    from ui.app import KioskApp
    from ui.memory import memory_services

    services = memory_services()
    app = KioskApp(services, kiosk=True, simulated_panel=False)
    services.devices.listener = app.post
    return app, services


def run_steps(app: Any, steps: Iterator[float], first: float = 0.2) -> None:
    """Run ``app``, taking each step of ``steps`` after the wait the one before yielded (the first
    after ``first`` seconds); stop it when they end."""
    from kivy.clock import Clock

    def advance(_dt: float) -> None:
        try:
            wait = next(steps)
        except StopIteration:
            app.stop()
            return
        Clock.schedule_once(advance, wait)

    Clock.schedule_once(advance, first)
    app.run()


def people_games_kiosk() -> tuple[argparse.Namespace, Any]:
    """A bench of :func:`people_games`: its command line (``--size WxH``, ``--players 2,4``, ``--seed``,
    ``players`` read as a list) and a kiosk of that size."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--players", default="2,4", type=lambda text: [int(p) for p in text.split(",")])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    app, _services = kiosk((width, height))
    return args, app


DOUBLES = "doubles"
"""A table of :func:`people_games`: four players in two teams (Red and Yellow), not a number of players."""


def people_games(app: Any, tables: Sequence[int | str], seed: int,
                 place: Callable[[Any, Any, Any], Iterator[float]], ended: Callable[[Any], None]) -> Iterator[float]:
    """Steps for :func:`run_steps`: a whole strategy game for each table of ``tables`` (a number of
    players, or :data:`DOUBLES`), every seat a person whose moves a club robot chooses. Each
    placement is ``place(game, screen, choice)``, steps of its own: it makes the move through the
    screen as a finger's would end (``screen.put(game.turn, choice)``, then ``screen.confirm()``),
    yielding the waits it needs, at least the one after the move (a sweep checks the table between
    put and confirm); ``ended(game)`` once a game is over, before its screen is left."""
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot, robot_choice
    from ui.modes.strategy import play as strategy_play

    yield 0.3
    robot = make_robot("club")
    for table in tables:
        doubles = table == DOUBLES
        players = 4 if doubles else int(table)
        game = StrategyGame.new(players, "RY" if doubles else "RYGB"[:players], [None] * players, doubles=doubles,
                                seed=seed)
        screen = strategy_play.open_game(app, game)
        yield 0.5
        while not game.finished:
            yield from place(game, screen, robot_choice(game, robot))
        ended(game)
        screen.leave()
        yield 0.3


def child_result(script: str, *args: str) -> str:
    """Run ``script`` with ``args`` in a fresh Python, Kivy quiet (Kivy takes its window's size once
    a process: each run at a size, or from a cold start, is a process of its own), and return the
    JSON of the line it prints as "RESULT {...}"."""
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1")
    out = subprocess.run([sys.executable, script, *args], env=env, capture_output=True, text=True, check=True).stdout
    return next(line[7:] for line in out.splitlines() if line.startswith("RESULT "))
