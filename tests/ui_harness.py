"""Runs UI scenarios headless, each in its own process (Kivy runs one App per process), forked
from a process that has already imported the kiosk (:class:`WarmProcess`).

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

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
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
    """Run ``module.scenario`` in a process of its own; its return value, or a test failure.
    ``UI_SCENARIO_FRESH=1`` in the environment starts each one as a new process instead, to compare."""
    import pytest

    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_NO_FILELOG="1", KIVY_CLIPBOARD="sdl2", PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
    # Mesa's software renderer draws on the scenario's own thread: the test workers already use
    # every core, and llvmpipe's helper threads took 2.5 times the CPU of a scenario run alone
    env.setdefault("LP_NUM_THREADS", "0")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")  # one Kivy home per test worker: no races on its files
    env.setdefault("KIVY_HOME", str(Path(tempfile.gettempdir()) / f"tantrix-ui-tests-kivy-{worker}"))
    spec = {"module": module, "scenario": scenario, "size": size, "options": options}
    if os.environ.get("UI_SCENARIO_FRESH"):  # the plain way, a whole new process: to compare
        done = subprocess.run([sys.executable, str(Path(__file__)), json.dumps(spec)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=timeout)
        returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
    else:
        with _warm(env) as warm:
            returncode, stdout, stderr = warm.run(spec, env, timeout)
    lines = [line for line in stdout.splitlines() if line.startswith(MARK)]
    if returncode != 0 or not lines:
        pytest.fail(f"UI scenario {module}.{scenario} failed (exit {returncode}):\n"
                    f"{stderr[-6000:]}\n{stdout[-2000:]}", pytrace=False)
    return json.loads(lines[-1][len(MARK):])


class WarmProcess:
    """A process that has imported Kivy, the kiosk and the engine, and forks a child for each
    scenario: the child opens its window and runs the scenario from there, half a second of CPU
    sooner than a new process (300-odd scenarios in the suite). Nothing the warm process holds
    touches SDL or OpenGL, which a forked child could not use (Mesa's shaders no longer link
    there): Kivy opens its window as ``kivy.core.window`` is imported, so that import is refused in
    the warm process and a module needing it is left to the child. It is kept by the test worker
    that started it and ends when that worker does (its requests' pipe closes)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen([sys.executable, str(Path(__file__)), "--warm"], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, spec: dict[str, Any], env: dict[str, str], timeout: float) -> tuple[int, str, str]:
        """Run one scenario in a forked child: (exit status, its stdout, its stderr)."""
        import select
        import signal

        assert self.process.stdin is not None and self.process.stdout is not None
        with tempfile.TemporaryDirectory(prefix="ui-scenario-") as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            self.process.stdin.write(json.dumps({"spec": spec, "env": env, "out": str(out), "err": str(err)}) + "\n")
            self.process.stdin.flush()
            said = self.process.stdout.readline()  # "child PID"
            if not said:
                raise RuntimeError(f"the warm process ended (exit {self.process.wait()}), its reason above")
            child = int(said.split()[1])
            ready, _w, _x = select.select([self.process.stdout], [], [], timeout)
            if not ready:
                os.kill(child, signal.SIGKILL)
                self.process.stdout.readline()
                raise subprocess.TimeoutExpired(f"UI scenario {spec['module']}.{spec['scenario']}", timeout)
            returncode = int(self.process.stdout.readline().split()[1])  # "exit STATUS"
            return returncode, out.read_text(), err.read_text()


_IDLE: list[WarmProcess] = []
"""This test worker's warm processes waiting for a scenario: one each for the scenarios it runs at
once (a club evening runs two kiosks side by side, from two threads)."""
_IDLE_LOCK = threading.Lock()


@contextlib.contextmanager
def _warm(env: dict[str, str]) -> Iterator[WarmProcess]:
    """A warm process for one scenario (a new one if none is idle), idle again after it."""
    with _IDLE_LOCK:
        warm = _IDLE.pop() if _IDLE else None
    if warm is None or not warm.alive():
        warm = WarmProcess(env)
    try:
        yield warm
    finally:
        if warm.alive():
            with _IDLE_LOCK:
                _IDLE.append(warm)


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


def _open_window(size: tuple[int, int], rotation: int) -> None:
    """Import the kiosk with a window of ``size`` (Kivy opens it as it is imported)."""
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "rotation", str(rotation))  # as [display] rotation
    Config.set("graphics", "multisamples", "0")  # no 2x antialiasing in the software renderer: 1/6 of the time
    import ui.app  # noqa: F401 - the window, the kiosk's modules


class _NoWindow:
    """Refuses ``kivy.core.window`` (whose import opens the window) in the warm process."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "kivy.core.window":
            raise ImportError("the window is opened in the scenario's own process")


def _serve_warm() -> int:
    """The :class:`WarmProcess`: import what can be imported without a window, then fork a child
    per request read from stdin; say "child PID", then "exit STATUS" once it is over."""
    import faulthandler
    import importlib
    import pkgutil
    import random
    import traceback

    import ui

    blocker = _NoWindow()
    sys.meta_path.insert(0, blocker)
    for module in pkgutil.walk_packages(ui.__path__, "ui."):  # and the engine's modules the kiosk uses
        if not module.name.endswith("__main__"):
            try:
                importlib.import_module(module.name)
            except ImportError:  # it needs the window: the child imports it
                pass
    sys.meta_path.remove(blocker)
    threads = Path("/proc/self/task")
    if threads.exists() and len(list(threads.iterdir())) > 1:  # Kivy took sys.stderr: say it on the real one
        print("ui_harness: an import started a thread, which each fork would lose", file=sys.__stderr__)
        return 1
    for line in sys.stdin:
        request = json.loads(line)
        child = os.fork()
        if child == 0:
            code = 1
            try:
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                for fd, path in ((1, request["out"]), (2, request["err"])):
                    os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
                faulthandler.enable(sys.__stderr__)  # a crash says where
                os.environ.clear()
                os.environ.update(request["env"])
                random.seed()  # not the same draws as every other child
                code = _run(request["spec"])
            except BaseException:  # noqa: BLE001 - told to the test, as a new process's would be
                traceback.print_exc(file=sys.__stderr__)
            finally:
                for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
                    if stream is not None:
                        stream.flush()
                os._exit(code)
        print(f"child {child}", flush=True)
        _pid, status = os.waitpid(child, 0)
        print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)
    return 0


def _run(spec: dict[str, Any]) -> int:
    """Open the scenario's window and run it: 0 with its result printed, or 1 with why not."""
    import importlib
    import traceback

    _open_window(tuple(spec["size"]), spec["options"].get("rotation", 0))
    from kivy.clock import Clock

    from ui.app import KioskApp
    from ui.memory import MemorySettings, memory_services

    Clock.tick()  # the clock last ticked when it was imported (in a warm process, long before)
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
    sys.exit(_serve_warm() if sys.argv[1] == "--warm" else _run(json.loads(sys.argv[1])))
