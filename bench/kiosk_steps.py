"""The kiosk, headless, driven by a script of steps: what the screen benchmarks share.

    app, services = kiosk((800, 480))   # before anything opens Kivy's window
    run_steps(app, steps())             # steps() yields the seconds to wait before its next step

The app stops when the steps end (``run_steps`` returns then).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, Iterator


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


def child_result(script: str, *args: str) -> str:
    """Run ``script`` with ``args`` in a fresh Python, Kivy quiet (Kivy takes its window's size once
    a process: each run at a size, or from a cold start, is a process of its own), and return the
    JSON of the line it prints as "RESULT {...}"."""
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1")
    out = subprocess.run([sys.executable, script, *args], env=env, capture_output=True, text=True, check=True).stdout
    return next(line[7:] for line in out.splitlines() if line.startswith("RESULT "))
