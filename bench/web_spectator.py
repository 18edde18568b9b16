"""The web pages beside a playing kiosk: what a spectator costs the table, and what it sees.

Runs the kiosk's UI (headless, software OpenGL) on a robots-only strategy game that journals every
step into a real SQLite store, twice for the same time: alone, then with ``tantrix-web`` serving
that database to a phone-sized headless Chromium on the spectator page plus ``--clients`` more
event streams. Reports the kiosk's frame intervals both times, the step-to-page latency (from the
kiosk's save of a step to the page having drawn it, measured by the page's own clock, which is
this machine's), and the web process's memory and CPU.

    nice -n 19 .venv/bin/python bench/web_spectator.py [--seconds 30] [--clients 20] [--size 800x480]

Prints JSON. Goals: the kiosk's frame times unchanged by spectators (within this shared machine's
noise); step-to-page under 1 s; the web process under 60 MB resident.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def kiosk_child(directory: Path, seconds: float, size: tuple[int, int]) -> dict:
    """The kiosk's UI over the store in ``directory``: resume the saved robots game, record frames."""
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    from kivy.clock import Clock

    from firmware.store import SqliteStore
    from ui.app import KioskApp
    from ui.memory import memory_services

    store = SqliteStore(directory)
    services = memory_services(store=store)
    app = KioskApp(services, simulated_panel=False)
    services.devices.listener = app.post
    frames: list[float] = []
    steps = [0]
    journal = app.journal

    def counting_journal(mode: object) -> None:
        journal(mode)
        steps[0] += 1

    app.journal = counting_journal  # type: ignore[method-assign]
    last = [0.0]

    def frame(_dt: float) -> None:
        now = time.perf_counter()
        if last[0]:
            frames.append((now - last[0]) * 1000)
        last[0] = now

    def begin(_dt: float) -> None:
        app.resume()
        Clock.schedule_interval(frame, 0)
        Clock.schedule_once(lambda dt: app.stop(), seconds)

    Clock.schedule_once(begin, 1.0)
    app.run()
    store.close()
    frames.sort()
    return {"frames": len(frames), "steps_journaled": steps[0],
            "frame_ms_median": round(statistics.median(frames), 2),
            "frame_ms_p95": round(frames[int(0.95 * len(frames))], 2),
            "frame_ms_p99": round(frames[int(0.99 * len(frames))], 2),
            "frame_ms_max": round(frames[-1], 2)}


def run_kiosk(directory: Path, seconds: float, size: str) -> dict:
    from engine.strategy.game import StrategyGame
    from engine.modes import save
    from firmware.store import SqliteStore

    with SqliteStore(directory) as store:  # the same opening position for both runs
        store.save_current(save(StrategyGame.new(2, robots=["beginner", "beginner"], seed=11)))
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, __file__, "--child", str(directory), "--seconds", str(seconds),
                           "--size", size], env=env, capture_output=True, text=True, timeout=seconds + 120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        raise SystemExit(done.stderr[-4000:])
    return json.loads(lines[-1][7:])


def process_figures(pid: int) -> dict:
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return {"rss_mb": int(status["VmRSS"].split()[0]) / 1024, "peak_rss_mb": int(status["VmHWM"].split()[0]) / 1024,
            "cpu_s": cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=20, help="event streams besides the browser's")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        width, height = (int(v) for v in args.size.split("x"))
        print("RESULT " + json.dumps(kiosk_child(Path(args.child), args.seconds, (width, height))), file=sys.__stdout__)
        return 0
    from web_support import chromium, connect, web_server, write_config

    result: dict = {"seconds": args.seconds, "kiosk_size": args.size}
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        config = write_config(directory)
        result["kiosk_alone"] = run_kiosk(directory / "state", args.seconds, args.size)
        with web_server(config) as base:
            pid = int(subprocess.run(["pgrep", "-f", f"web --config {config}"], capture_output=True,
                                     text=True).stdout.split()[0])
            result["web_idle"] = process_figures(pid)
            browser = chromium(412, 915)
            streams = []
            host, port = base.removeprefix("http://").split(":")
            for client in range(1, args.clients + 1):  # each a phone of its own, as in the café
                stream = connect(int(port), client)
                stream.sendall(b"GET /events HTTP/1.1\r\nHost: " + host.encode() + b"\r\nAccept: text/event-stream\r\n\r\n")
                streams.append(stream)
            try:
                browser.get(base + "/")
                before = process_figures(pid)
                started = time.perf_counter()
                result["kiosk_with_spectators"] = run_kiosk(directory / "state", args.seconds, args.size)
                after = process_figures(pid)
                latencies = sorted(browser.execute_script("return window.latencies")[1:])  # [0]: the page opening
            finally:
                browser.quit()
                for stream in streams:
                    stream.close()
            result["web_serving"] = {"rss_mb": round(after["rss_mb"], 1), "peak_rss_mb": round(after["peak_rss_mb"], 1),
                                     "cpu_percent_of_a_core": round(100 * (after["cpu_s"] - before["cpu_s"])
                                                                    / (time.perf_counter() - started), 1),
                                     "event_streams": args.clients + 1}
            result["web_idle"] = {k: round(v, 1) for k, v in result["web_idle"].items() if k != "cpu_s"}
        result["step_to_page_ms"] = {"steps": len(latencies),
                                     "median": round(1000 * statistics.median(latencies), 1),
                                     "p95": round(1000 * latencies[int(0.95 * len(latencies))], 1),
                                     "max": round(1000 * latencies[-1], 1)} if latencies else None
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
