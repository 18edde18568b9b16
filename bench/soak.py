"""Soak: a simulated day at a café, memory watched with tracemalloc and the resident size.

The real kiosk runtime (``firmware.runtime.Runtime``: configuration, SQLite store, settings, simulated
button, reader and rings, the Kivy app headless at 800x480) lives through ``--hours`` of simulated
time on a sped-up clock: Kivy's clock (which drives every timer, animation, robot pause and the
idle time before the attract screen) reads a simulated time that each frame moves on by a step
(short while a game runs, long while nobody is there), so a day passes in minutes.

The day: closed until 10:00 and after 23:00 (the attract screen running); in between, visitors every
few minutes (``--gap-minutes`` on average). The first person after power-on looks at every family's
setup and tries the staff corner; then a visitor taps the attract screen, sometimes a language flag,
opens the setup of one of the day's families and goes back, or holds the staff corner and types a
wrong PIN before Cancel (scripted touches on the real widgets), then a game is played to its end by
robots, the families in turn (strategy 2-4 players, Tanagra, Gobbles, Solitaire, Gobble solo), with
tiles put on the simulated readers and the bag button pressed meanwhile (device noise the screens
must ignore or answer). After a game its results stay until the attract screen comes back.

Power cuts: the process SIGKILLs itself ``--cuts`` times (during a game, at random moments in the
first ``--cut-hours`` hours); the next process starts on the same state directory and a tap on
Resume carries on the interrupted game.

Memory: each process samples tracemalloc's traced size and the resident size (after a full
collection) every ``--sample-minutes`` of simulated time, at the first frame the attract screen
shows once a sample is due: the same state each time (no game, no results on screen), so that
what a sample holds does not depend on which screen it caught (one caught in a game held 2 MB
more than one caught between visitors, and a regression over such samples read that as growth).
The app keeps one screen of each name (a finished game's screen stays until the next game of its
family replaces it), so memory climbs in steps until every screen the day visits has been built
once: growth is judged from the last such step, once ``--warmup`` hours of the process have passed
and every family has been played to its end. There a tracemalloc snapshot is kept and compared
with the one at its end (the top growing allocation sites). Reported: peak, growth per simulated
hour after warm-up (traced and resident), games played, real time taken.

    nice -n 19 .venv/bin/python bench/soak.py --hours 24 [--seed S] [--cuts N] [--json FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
HOUR = 3600.0
OPENS, CLOSES = 10, 23
"""The café's opening hours (simulated clock time of day); the day starts at 08:00."""
DAY_STARTS = 8
PLAY_STEP = 0.5
"""Simulated seconds per frame while a game runs (a robot's pause, a tile's flight: a frame or two)."""
IDLE_STEP = 60.0
"""... while nobody plays (the attract screen, results left on screen)."""
CLOSED_STEP = 300.0
FAMILIES = ("tantrix", "tanagra", "gobbles", "solitaire", "gobble-solo")
MARK = "SOAK "


# ------------------------------------------------------------------------------ the simulated clock


class SimulatedTime:
    """The time Kivy's clock reads: moved on by the driver, one step per frame."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


class Wait:
    """Let ``seconds`` of simulated time pass in frames of ``step``, or until ``condition()``."""

    def __init__(self, seconds: float, step: float, condition: Callable[[], bool] | None = None) -> None:
        self.seconds, self.step, self.condition = seconds, step, condition


# ------------------------------------------------------------------------------ one kiosk process


class Kiosk:
    """One power-on of the kiosk: drives the app through simulated time from ``start`` (simulated
    seconds since the day began) to ``end``, or to the power cut at ``cut``."""

    def __init__(self, state: Path, start: float, end: float, cut: float | None, seed: int, warmup: float,
                 gap_minutes: float, sample_every: float, frames: int = 1,
                 families: tuple[str, ...] = FAMILIES) -> None:
        self.state, self.start, self.end, self.cut = state, start, end, cut
        self.rng = random.Random(seed)
        self.warmup, self.gap, self.sample_every = warmup, gap_minutes * 60, sample_every
        self.games: dict[str, int] = {}
        self.touches = 0
        self.noise = 0
        self.family_turn = seed
        self.frames = frames
        self.families = families

    # -------------------------------------------------------------------------------- running

    def run(self) -> None:
        from kivy.clock import Clock

        from firmware.runtime import Launch, Runtime

        config = self.state / "config.toml"
        with Runtime(Launch(str(config), simulate=True, size=(800, 480)), environ={}) as runtime:
            self.runtime = runtime
            self.clock = SimulatedTime(Clock._last_tick)
            self.origin = self.clock.now - self.start  # simulated clock time of the day's start
            Clock.time = self.clock  # every timer, animation and idle check reads the simulated time
            Clock._max_fps = 0  # no sleeping between frames: the time is simulated
            Clock.schedule_once(self._begin, 0)
            runtime.run()

    def day_seconds(self) -> float:
        return self.clock.now - self.origin

    def _begin(self, _dt: float) -> None:
        from kivy.app import App
        from kivy.clock import Clock

        tracemalloc.start(self.frames)  # from the first frame: start-up is measured by the resident size
        self.app = App.get_running_app()
        self.script = self.day()
        self.waiting: Wait | None = None
        self.until = 0.0
        self.next_sample = self.start + self.sample_every
        self.snapshot: Any = None
        self.warm: float | None = None
        self.screens: frozenset[str] = frozenset()
        self.sample()
        Clock.schedule_interval(self._frame, 0)

    def _frame(self, _dt: float) -> None:
        """One frame: the script's wait, the clock's step, the hourly sample, the power cut."""
        wait = self.waiting
        if wait is not None:
            if self.day_seconds() < self.until and not (wait.condition and wait.condition()):
                self.clock.now += wait.step
                self._every_frame()
                return
        try:
            self.waiting = next(self.script)
        except StopIteration:
            self.app.stop()
            return
        self.until = self.day_seconds() + self.waiting.seconds
        self._every_frame()

    def _every_frame(self) -> None:
        now = self.day_seconds()
        if now >= self.next_sample and self.app.manager.current == "attract":
            self.sample()
            self.next_sample = now + self.sample_every
        if self.cut is not None and now >= self.cut and self.app.services.store.load_current() is not None:
            report({"cut": now / HOUR, "games": self.games})
            os.kill(os.getpid(), signal.SIGKILL)  # the power cut: nothing is closed, nothing flushed
        if now >= self.end:
            if self.snapshot is not None:
                grown = tracemalloc.take_snapshot().compare_to(self.snapshot, "lineno")
                report({"top": [{"site": str(s.traceback), "grew": s.size_diff, "count": s.count_diff}
                                for s in grown[:8]]})
                self.snapshot = None
            self.script = iter(())

    def sample(self) -> None:
        from kivy.uix.widget import Widget

        gc.collect()
        traced, _peak = tracemalloc.get_traced_memory()
        hours = self.day_seconds() / HOUR
        widgets = sum(1 for o in gc.get_objects() if issubclass(type(o), Widget))  # a screen kept alive shows here
        screens = frozenset(self.app.manager.screen_names)
        report({"hour": round(hours, 3), "traced": traced, "rss": rss(), "widgets": widgets,
                "games": sum(self.games.values()), "screens": len(screens)})
        new_screen, self.screens = screens != self.screens, screens
        ready = hours - self.start / HOUR >= self.warmup and len(self.games) >= len(set(self.families))
        if ready and (self.warm is None or new_screen):
            self.snapshot = tracemalloc.take_snapshot()
            self.warm = hours
            report({"warm": round(hours, 3)})

    # -------------------------------------------------------------------------------- the day

    def day(self) -> Iterator[Wait]:
        """The script: the resume after a power cut, then visitors in opening hours."""
        yield Wait(1.0, PLAY_STEP)
        if self.app.manager.current == "resume":
            yield from self.tap(self.app.manager.current_screen.resume_button)
            yield from self.finish_game()
        yield from self.first_look()
        while True:
            hour = (self.day_seconds() / HOUR + DAY_STARTS) % 24
            if not OPENS <= hour < CLOSES:
                yield Wait(HOUR / 2, CLOSED_STEP)
                continue
            yield Wait(self.rng.expovariate(1 / self.gap), IDLE_STEP)
            yield from self.visitor()

    def first_look(self) -> Iterator[Wait]:
        """The first person after power-on looks at every setup of the day's families and tries
        the staff corner before playing: each screen the day's visitors will open is then built
        early, and memory is judged from the first game of each family on (otherwise a setup first
        opened at a whim hours later moved the warm-up's end there)."""
        app = self.app
        if app.manager.current == "attract":
            yield from self.tap(app.manager.current_screen)
        for family in dict.fromkeys(self.families):
            yield from self.tap(app.home.buttons[family])
            yield Wait(2.0, PLAY_STEP)
            app.go_home()
            yield Wait(0.2, PLAY_STEP)
        yield from self.staff_attempt()

    def visitor(self) -> Iterator[Wait]:
        app = self.app
        if app.manager.current == "attract":
            yield from self.tap(app.manager.current_screen)
        if app.manager.current != "home":
            app.go_home()
            yield Wait(0.2, PLAY_STEP)
        whim = self.rng.random()
        if whim < 0.25:
            flag = self.rng.choice(list(app.home.flags.children))
            yield from self.tap(flag)
        elif whim < 0.5:
            yield from self.tap(app.home.buttons[self.rng.choice(self.families)])
            yield Wait(self.rng.uniform(3, 20), PLAY_STEP)
            app.go_home()
            yield Wait(0.2, PLAY_STEP)
        elif whim < 0.6:
            yield from self.staff_attempt()
        self.family_turn += 1
        yield from self.play(self.families[self.family_turn % len(self.families)])

    def staff_attempt(self) -> Iterator[Wait]:
        """Someone holds the staff corner, types a wrong PIN, cancels: back where they were."""
        from kivy.tests.common import UnitTestTouch

        app = self.app
        x, y = app.corner.to_window(*app.corner.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        yield Wait(3.0, PLAY_STEP)
        touch.touch_up()
        self.touches += 1
        yield Wait(0.2, PLAY_STEP)
        if app.manager.current == "staff-pin":
            pin = app.manager.current_screen
            for key in [*"98765"[: self.rng.randint(4, 5)], "OK", "Cancel"]:
                yield from self.tap(next(b for b in pin.walk() if getattr(b, "msg", None) == key))

    def play(self, family: str) -> Iterator[Wait]:
        """A game of ``family`` by robots, to its end."""
        from kivy.clock import Clock

        from engine.strategy.game import StrategyGame
        from engine.gobble.gobbles import Gobbles, Level, Player
        from engine.tanagra.game import Game as TanagraGame
        from engine.tanagra.rules import Options
        from ui.modes.gobble import solo as gobble_solo
        from ui.modes.solo import solitaire
        from ui.modes.strategy import play as strategy_play
        from ui.modes.tanagra import play as tanagra
        from ui.modes.gobble.gobbles import GobblesScreen

        app, rng = self.app, self.rng
        seed = rng.randrange(1 << 30)
        if family == "tantrix":
            players = rng.choice((2, 3, 4))
            levels = [rng.choice(("beginner", "beginner", "club")) for _ in range(players)]
            strategy_play.open_game(app, StrategyGame.new(players, "RYGB"[:players], levels, seed=seed))
        elif family == "tanagra":
            players = rng.choice((2, 3, 4))
            game = TanagraGame(Options(players=players), ["robot:beginner"] * players)
            app.journal(game)
            app.show(tanagra.TanagraScreen(app, game))
        elif family == "gobbles":
            players = [Player(f"Robot {i + 1}", rng.choice(list(Level))) for i in range(rng.choice((2, 3, 4)))]
            game = Gobbles.deal(players, seed=seed)
            app.journal(game)
            app.show(GobblesScreen(app, game, clock=Clock.time, robot_seed=seed))
        elif family == "solitaire":
            solitaire.start(app, rng.choice(("classic", "hand")), rng.choice(("line", "loop")), seed=seed)
        else:
            gobble_solo.start(app, seed=seed)
        yield from self.finish_game()

    def finish_game(self) -> Iterator[Wait]:
        """Play the game on screen to its end: robots play their seats themselves; a solo game is
        played by the engine's first legal action every few seconds, as a person would."""
        app = self.app
        screen = app.manager.current_screen
        kind = screen.name
        game = getattr(screen, "game", None)
        solo = kind in ("solitaire", "gobble-solo")
        started = self.day_seconds()
        while game is not None and not finished(game) and self.day_seconds() - started < 2 * HOUR:
            if solo:
                think = self.rng.uniform(2, 15)
                yield Wait(think, think / 2)
                actions = game.legal_actions()
                if actions:
                    game.apply(actions[0] if kind == "solitaire" else self.rng.choice(actions))
                    screen.after_step()
            else:
                yield Wait(self.rng.uniform(5, 30), PLAY_STEP, lambda: finished(game))
            if self.rng.random() < 0.2:
                self.device_noise()
        if game is not None and finished(game):
            self.games[kind] = self.games.get(kind, 0) + 1
        yield Wait(self.rng.uniform(10, 60), IDLE_STEP)  # the results are looked at, then left

    def device_noise(self) -> None:
        """A tile put on a reader, or the bag button pressed, while the robots play."""
        devices = self.app.services.devices
        if self.rng.random() < 0.5:
            devices.scan(self.rng.randint(1, 56), self.rng.choice([None, 0, 1]))
        else:
            devices.press_button(held=False)
        self.noise += 1

    def tap(self, widget: Any) -> Iterator[Wait]:
        from kivy.tests.common import UnitTestTouch

        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.touches += 1
        yield Wait(0.3, PLAY_STEP)


def finished(game: Any) -> bool:
    for name in ("finished", "result"):
        value = getattr(game, name, None)
        if value is not None and value is not False:
            return True
    return False


def rss() -> int:
    """Resident size in bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


LOG: Path | None = None
"""Where a kiosk process also appends its reports (``samples.jsonl`` in the state directory), so a
day stopped early still has its figures."""


def report(data: dict[str, Any]) -> None:
    print(MARK + json.dumps(data), flush=True)
    if LOG is not None:
        with LOG.open("a") as log:
            log.write(json.dumps(data) + "\n")


# ------------------------------------------------------------------------------ the day, process by process


def child(args: argparse.Namespace) -> int:
    global LOG
    LOG = Path(args.state) / "samples.jsonl"
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    sys.path.insert(0, str(ROOT))
    kiosk = Kiosk(Path(args.state), args.start * HOUR, args.end * HOUR, None if args.cut is None else args.cut * HOUR,
                  args.seed, args.warmup, args.gap_minutes, args.sample_minutes * 60, args.frames,
                  tuple(args.families.split(",")))
    kiosk.run()
    report({"end": kiosk.day_seconds() / HOUR, "games": kiosk.games, "touches": kiosk.touches, "noise": kiosk.noise})
    return 0


def write_config(state: Path) -> None:
    (state / "config.toml").write_text(
        f'[kiosk]\nidle_seconds = 120\nlog_level = "warning"\n\n[storage]\ndirectory = "{state / "data"}"\n')


def simulate(hours: float, seed: int, cuts: int, cut_hours: float, warmup: float, gap_minutes: float,
             sample_minutes: float = 60, frames: int = 1, state: Path | None = None, start: float = 0.0,
             families: tuple[str, ...] = FAMILIES, extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run the day, a process per power-on; returns the samples of each process and what was played."""
    rng = random.Random(seed)
    state = state or Path(tempfile.mkdtemp(prefix="tantrix-soak-"))
    write_config(state)
    cut_at = sorted(rng.uniform(0.3, cut_hours) for _ in range(cuts))
    segments: list[dict[str, Any]] = []
    began = time.monotonic()
    env = dict(os.environ, **(extra_env or {}), KIVY_HOME=str(state / "kivy"))
    while start < hours - 1e-9:
        cut = next((c for c in cut_at if c > start + 0.05), None)
        argv = [sys.executable, str(Path(__file__)), "--child", "--state", str(state), "--start", str(start),
                "--end", str(hours), "--seed", str(seed + len(segments)), "--warmup", str(warmup),
                "--gap-minutes", str(gap_minutes), "--sample-minutes", str(sample_minutes), "--frames", str(frames),
                "--families", ",".join(families)]
        if cut is not None:
            argv += ["--cut", str(cut)]
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        lines = [json.loads(line[len(MARK):]) for line in done.stdout.splitlines() if line.startswith(MARK)]
        segment = {"start": start, "samples": [x for x in lines if "hour" in x], "exit": done.returncode,
                   "warm": next((x["warm"] for x in reversed(lines) if "warm" in x), None),
                   "top": next((x["top"] for x in lines if "top" in x), []),
                   "games": next((x["games"] for x in lines if "end" in x or "cut" in x), {}),
                   "touches": next((x.get("touches", 0) for x in lines if "end" in x), 0)}
        ended = next((x for x in lines if "end" in x or "cut" in x), None)
        if ended is None:
            raise RuntimeError(f"the kiosk process failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
        segment["until"] = ended.get("end", ended.get("cut"))
        segment["stderr"] = done.stderr[-2000:]
        segments.append(segment)
        start = segment["until"]
    return {"segments": segments, "seconds": time.monotonic() - began, "cuts": len(segments) - 1}


def from_log(path: Path) -> dict[str, Any]:
    """The processes of a day as far as their ``samples.jsonl`` goes (a day stopped early)."""
    segments: list[dict[str, Any]] = []
    for line in path.read_text().splitlines():
        data = json.loads(line)
        if "hour" in data and (not segments or "until" in segments[-1]):
            segments.append({"start": data["hour"], "samples": [], "warm": None, "top": [], "games": {}})
        if not segments:
            continue
        segment = segments[-1]
        if "hour" in data:
            segment["samples"].append(data)
        elif "warm" in data:
            segment["warm"] = data["warm"]
        elif "top" in data:
            segment["top"] = data["top"]
        elif "cut" in data or "end" in data:
            segment["until"], segment["games"] = data.get("cut", data.get("end")), data["games"]
    for segment in segments:
        segment.setdefault("until", segment["samples"][-1]["hour"])
    return {"segments": segments, "seconds": float("nan"), "cuts": sum(1 for s in segments[:-1])}


def growth(segment: dict[str, Any], key: str) -> tuple[float, float]:
    """(growth per simulated hour after the warm-up, by least squares; peak) of ``key``."""
    samples = [s for s in segment["samples"] if segment["warm"] is not None and s["hour"] >= segment["warm"]]
    peak = max(s[key] for s in segment["samples"])
    if len(samples) < 2:
        return float("nan"), peak
    xs, ys = [s["hour"] for s in samples], [s[key] for s in samples]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return slope, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=24.0, help="simulated hours (default 24)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cuts", type=int, default=2, help="power cuts (default 2)")
    parser.add_argument("--cut-hours", type=float, default=4.0, help="the cuts fall in the first hours (default 4)")
    parser.add_argument("--warmup", type=float, default=2.0, help="simulated hours of each process not judged")
    parser.add_argument("--gap-minutes", type=float, default=45.0, help="mean simulated time between visitors")
    parser.add_argument("--sample-minutes", type=float, default=60.0)
    parser.add_argument("--frames", type=int, default=1, help="tracemalloc traceback depth")
    parser.add_argument("--families", default=",".join(FAMILIES), help="the families played in turn")
    parser.add_argument("--json", help="write every sample there")
    parser.add_argument("--from-log", metavar="STATE", help="summarise the samples.jsonl of a day stopped early")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--state", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--end", type=float, default=24.0, help=argparse.SUPPRESS)
    parser.add_argument("--cut", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    if args.from_log:
        result = from_log(Path(args.from_log) / "samples.jsonl")
        args.hours = result["segments"][-1]["until"]
    else:
        result = simulate(args.hours, args.seed, args.cuts, args.cut_hours, args.warmup, args.gap_minutes,
                          args.sample_minutes, args.frames, families=tuple(args.families.split(",")))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    games: dict[str, int] = {}
    for segment in result["segments"]:
        for kind, n in segment["games"].items():
            games[kind] = games.get(kind, 0) + n
    print(f"{args.hours:g} simulated hours in {result['seconds'] / 60:.1f} min real time, "
          f"{result['cuts']} power cuts, games: {sum(games.values())} {games}")
    for i, segment in enumerate(result["segments"]):
        traced, traced_peak = growth(segment, "traced")
        resident, resident_peak = growth(segment, "rss")
        print(f"process {i + 1}: hours {segment['start']:.2f}-{segment['until']:.2f}, warm from {segment['warm']}, "
              f"traced peak {traced_peak / 2**20:.1f} MiB, growth {traced / 2**10:+.1f} KiB/h; "
              f"RSS peak {resident_peak / 2**20:.1f} MiB, growth {resident / 2**10:+.1f} KiB/h")
        for row in segment["top"][:5]:
            print(f"    {row['grew'] / 1024:+8.1f} KiB {row['count']:+6d} blocks  {row['site']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
