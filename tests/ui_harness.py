"""Runs UI scenarios headless, each in its own process (Kivy runs one App per process).

A scenario is a generator function ``scenario(app)`` in a test module: it drives the running
:class:`ui.app.KioskApp` with simulated touches, ``yield``s to let frames render (``yield`` = one
frame, ``yield 0.5`` = half a second, ``yield until(condition)`` = as soon as ``condition()`` holds,
polled each frame, for at most ``seconds``: what depends on timers must not depend on how busy the
machine is) and returns a JSON-able result. Assertions inside it fail the
test with the subprocess's traceback. ``scenario.prepare(services)``, if set, runs before the app
is built (e.g. to leave an interrupted game in the store).

    result = run_scenario("test_ui_screens", "scenario_home", size=(800, 480))
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
MARK = "UI-SCENARIO-RESULT "


def tick_until(condition: Any, limit: float = 60.0) -> None:
    """For tests of the UI's parts in the test's own process (no window): tick Kivy's clock until
    ``condition()`` holds (the limit only stops a broken test hanging, never a pass on speed)."""
    from kivy.clock import Clock

    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        Clock.tick()
        time.sleep(0.005)


def run_scenario(module: str, scenario: str, size: tuple[int, int] = (1280, 800), timeout: float = 90,
                 **options: Any) -> Any:
    """Run ``module.scenario`` in a fresh process; its return value, or a test failure."""
    import pytest

    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_NO_FILELOG="1", KIVY_CLIPBOARD="sdl2", PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
    # Mesa's software renderer draws on the scenario's own thread: the test workers already use
    # every core, and llvmpipe's helper threads took 2.5 times the CPU of a scenario run alone
    env.setdefault("LP_NUM_THREADS", "0")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")  # one Kivy home per test worker: no races on its files
    env.setdefault("KIVY_HOME", str(Path(tempfile.gettempdir()) / f"tantrix-ui-tests-kivy-{worker}"))
    spec = json.dumps({"module": module, "scenario": scenario, "size": size, "options": options})
    done = subprocess.run([sys.executable, str(Path(__file__)), spec], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode != 0 or not lines:
        pytest.fail(f"UI scenario {module}.{scenario} failed (exit {done.returncode}):\n"
                    f"{done.stderr[-6000:]}\n{done.stdout[-2000:]}", pytrace=False)
    return json.loads(lines[-1][len(MARK):])


# ------------------------------------------------------------------ helpers for scenarios


class until:
    """``yield until(lambda: ...)``: resume the scenario once the condition holds. A condition
    still false after ``seconds`` fails the scenario at that ``yield`` (:class:`WaitedInVain`): a
    wait that never sees what it waits for hides a broken step and costs its whole time (four
    waits for a screen by a name it does not have once cost 55 s of every run). ``required=False``
    is for a wait that may end either way (a widget that moves on purpose)."""

    def __init__(self, condition: Any, seconds: float = 15.0, required: bool = True) -> None:
        self.condition = condition
        self.seconds = seconds
        self.required = required


class WaitedInVain(AssertionError):
    """An :class:`until`'s condition did not hold within its time."""


def touch_at(x: float, y: float) -> Any:
    from kivy.tests.common import UnitTestTouch

    return UnitTestTouch(x, y)


def settled_screens() -> Iterator[Any]:
    """Wait until no screen is sliding in or out: a finger lands where the widgets will stay (on a
    busy machine a transition may still run when a scenario's fixed wait is over)."""
    from kivy.app import App

    app = App.get_running_app()
    manager = getattr(app, "manager", None)
    if manager is not None and manager.transition.is_active:
        yield until(lambda: not manager.transition.is_active)


def settled(widget: Any) -> Iterator[Any]:
    """Wait until ``widget`` stays put from one frame to the next (a card just opened may still
    be laid out on a busy machine): the finger lands where the widget is. At most 3 s, for a
    widget that moves on purpose."""
    last: Any = None

    def still() -> bool:
        nonlocal last
        here = (tuple(widget.to_window(*widget.center)), tuple(widget.size))
        same, last = here == last, here
        return same

    yield until(still, seconds=3.0, required=False)


def tap(widget_or_pos: Any) -> Iterator[Any]:
    """Tap a widget's centre (once it stays put) or a window position, and let a frame pass."""
    yield from settled_screens()
    if isinstance(widget_or_pos, tuple):
        x, y = widget_or_pos
    else:
        yield from settled(widget_or_pos)
        x, y = widget_or_pos.to_window(*widget_or_pos.center)
    touch = touch_at(x, y)
    touch.touch_down()
    touch.touch_up()
    yield


def drag(start: tuple[float, float], end: tuple[float, float], steps: int = 8,
         before_release: Any = None) -> Iterator[Any]:
    """Press at ``start``, move to ``end`` in ``steps``, (call ``before_release()``), release."""
    yield from settled_screens()
    touch = touch_at(*start)
    touch.touch_down()
    yield
    for i in range(1, steps + 1):
        touch.touch_move(start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps)
    yield
    if before_release is not None:
        before_release()
    touch.touch_up()
    yield


def labels(widget: Any, shown: bool = False) -> list[str]:
    """The texts of every label under ``widget`` (``shown``: only those a person can see, no
    widget between them and ``widget`` made transparent)."""
    from kivy.uix.label import Label

    def visible(child: Any) -> bool:
        while child is not None and child is not widget:
            if child.opacity <= 0:
                return False
            child = child.parent
        return True

    found = []
    for child in widget.walk(restrict=True):
        if isinstance(child, Label) and child.text and (not shown or visible(child)):
            found.append(child.text)
    return found


class Pixels:
    """A rendered picture of a widget (window coordinates, as the widget is placed)."""

    def __init__(self, widget: Any) -> None:
        image = widget.export_as_image()
        texture = image.texture
        self.width, self.height = texture.size
        self.data = bytes(texture.pixels)
        self.origin = widget.to_window(*widget.pos)

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        """The colour at window position (x, y)."""
        px = int(round(x - self.origin[0]))
        py = int(round(y - self.origin[1]))
        px = min(max(px, 0), self.width - 1)
        py = min(max(py, 0), self.height - 1)
        i = ((self.height - 1 - py) * self.width + px) * 4  # the exported rows run top-down
        return self.data[i], self.data[i + 1], self.data[i + 2]

    def digest(self) -> str:
        import hashlib

        return hashlib.sha256(self.data).hexdigest()


def near(colour: tuple[int, int, int], rgba: tuple[float, ...], tolerance: int = 40) -> bool:
    return all(abs(c - round(v * 255)) <= tolerance for c, v in zip(colour, rgba[:3]))


# --------------------------------------------------------------------- the subprocess


DRAW_EVERY = 24
"""A scenario's window is drawn on the first frame of each screen it shows and once in this many
frames that have something new to draw. Drawing is Mesa's software renderer filling the window,
45 % of a scenario's time when every eighth frame was drawn, and what a scenario asserts never
reads it: layout, touches and the store are the widgets' own, and a test that reads pixels draws
the widget itself (:class:`Pixels`, ``export_to_png``). Drawing each new screen and now and then
still puts every screen through the renderer, so a canvas that cannot be drawn fails its scenario.
``run_scenario(..., draw_every=1)`` draws every frame."""


def _draw_sometimes(every: int) -> None:
    from kivy.app import App
    from kivy.core.window import Window

    draw, frames = Window.on_draw, iter(range(1 << 62))
    drawn: list[Any] = [None]  # the screen last drawn

    def on_draw() -> None:
        manager = getattr(App.get_running_app(), "manager", None)
        screen = manager.current_screen if manager is not None else None
        if next(frames) % every == 0 or screen is not drawn[0]:
            drawn[0] = screen
            draw()

    Window.on_draw = on_draw


def _main(spec_text: str) -> int:
    import importlib
    import traceback

    spec = json.loads(spec_text)
    from kivy.config import Config

    Config.set("graphics", "width", str(spec["size"][0]))
    Config.set("graphics", "height", str(spec["size"][1]))
    Config.set("graphics", "rotation", str(spec["options"].get("rotation", 0)))  # as [display] rotation
    Config.set("graphics", "multisamples", "0")  # no 2x antialiasing in the software renderer: 1/6 of the time
    from kivy.clock import Clock

    from ui.app import KioskApp
    from ui.memory import MemorySettings, memory_services

    module = importlib.import_module(spec["module"])
    scenario = getattr(module, spec["scenario"])
    options = spec["options"]
    quits: list[int] = []
    settings = MemorySettings(**options.get("settings", {}))
    services = memory_services(settings, quit_to_system=lambda: quits.append(1))
    prepare = getattr(scenario, "prepare", None)
    if prepare is not None:
        prepare(services)
    app = KioskApp(services, kiosk=True, simulated_panel=options.get("panel", False))
    app.quits = quits
    services.devices.listener = app.post
    outcome: dict[str, Any] = {}

    def start(_dt: float) -> None:
        _draw_sometimes(options.get("draw_every", DRAW_EVERY))
        steps = scenario(app)

        def advance(_dt: float, failure: BaseException | None = None) -> None:
            try:
                wait = steps.throw(failure) if failure is not None else next(steps)
            except StopIteration as stop:
                outcome["result"] = stop.value
                app.stop()
                return
            except BaseException:  # noqa: BLE001 - reported to the test
                outcome["error"] = traceback.format_exc()
                app.stop()
                return
            if hasattr(wait, "condition"):  # an ``until`` (this file also runs as __main__: no isinstance)
                deadline = time.monotonic() + wait.seconds

                def poll(_dt: float, wait: Any = wait) -> None:
                    if wait.condition():
                        advance(0)
                    elif time.monotonic() > deadline:
                        advance(0, WaitedInVain(f"waited {wait.seconds} s for a condition that never held")
                                if wait.required else None)
                    else:
                        Clock.schedule_once(poll, 0.05)

                Clock.schedule_once(poll, 0)
                return
            Clock.schedule_once(advance, wait if isinstance(wait, (int, float)) else 0)

        advance(0)

    Clock.schedule_once(start, 0.2)
    try:
        app.run()
    except BaseException:  # noqa: BLE001 - raised by the app, not the scenario: Kivy's log swallows
        outcome["error"] = traceback.format_exc()  # sys.stderr, so the test would show no reason
    if "error" in outcome:
        print(outcome["error"], file=sys.__stderr__)
        return 1
    print(MARK + json.dumps(outcome.get("result")), file=sys.__stdout__)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1]))
