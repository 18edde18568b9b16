"""The kiosk, headless, driven by a script of steps: what the screen benchmarks share.

    app, services = kiosk((800, 480))   # before anything opens Kivy's window
    run_steps(app, steps())             # steps() yields the seconds to wait before its next step

The app stops when the steps end (``run_steps`` returns then).
"""

from __future__ import annotations

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
