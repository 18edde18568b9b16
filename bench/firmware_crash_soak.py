"""Soak: the store under random SIGKILLs across every family's ending, and damaged databases.

Kills: a child process plays games one after another (journals a step, prints it once the write has
returned; at each game's last step it ends it as the families do: record, counters and clearing of
the journal in one ``batch``), cycling through the six families. The parent SIGKILLs it at random
moments (``--kills`` times, default 120) and starts it again; the child resumes the journaled game.
Reported: kills, resumes identical to the last step printed (or the one after: committed, killed
before printing), games recorded twice (must be 0), games lost (ended but not recorded, must be 0).

Corruption: a database holding 56 enrolled tags, 300 finished games, progress and a game in
progress (journaled after the last-known-good copy was made, at the last finished game), is damaged
in each way below, then opened as the kiosk does. Reported per case: the kiosk started (no exception), and what
came back: tags, records, whether the game in progress is still offered.

    .venv/bin/python bench/firmware_crash_soak.py [--kills N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.store import DATABASE, SqliteStore  # noqa: E402

FAMILIES = ("strategy", "gobbles", "tanagra", "gobble-solo", "solitaire", "puzzle")
STEPS = 12

PLAYER = f"""
import sys
from firmware.store import SqliteStore
FAMILIES, STEPS = {FAMILIES!r}, {STEPS}
store = SqliteStore(sys.argv[1], keep_records=10**9)  # every game's record kept: each is checked
saved = store.load_current()
state = saved["state"] if saved else {{"game": store.progress("soak").get("next", 0), "step": 0}}
print("RESUMED", state["game"], state["step"], flush=True)
while True:
    if state["step"] < STEPS:  # resumed at the last step: the ending was cut short, end it again
        state["step"] += 1
        store.save_current({{"kind": "soak", "state": state}})
        print("STEP", state["game"], state["step"], flush=True)
    if state["step"] == STEPS:
        family = FAMILIES[state["game"] % len(FAMILIES)]
        with store.batch():
            if family in ("gobble-solo", "solitaire", "puzzle"):
                store.add_score(family, "soak", state["game"])
            store.add_record(family, {{"game": state["game"]}})
            store.clear_current()
            store.set_progress("soak", {{"next": state["game"] + 1}})
        print("ENDED", state["game"], flush=True)
        state = {{"game": state["game"] + 1, "step": 0}}
"""


def soak(kills: int, rng: random.Random) -> dict:
    directory = Path(tempfile.mkdtemp(prefix="tantrix-soak-"))
    identical = mismatched = 0
    last: tuple[int, int] | None = None
    ended: set[int] = set()
    started = time.monotonic()
    try:
        for _ in range(kills):
            child = subprocess.Popen([sys.executable, "-c", PLAYER, str(directory)], cwd=ROOT,
                                     stdout=subprocess.PIPE, text=True)
            assert child.stdout is not None
            first = child.stdout.readline().split()
            resumed = (int(first[1]), int(first[2]))
            if last is not None:
                game, step = last
                # the step shown, or the next one (written, killed before it was printed): after a
                # game's last step, the next game not begun or its first step
                after = [(game, step + 1)] if step < STEPS else [(game + 1, 0), (game + 1, 1)]
                ok = resumed in [(game, step), *after]
                identical += ok
                mismatched += not ok
                if not ok:
                    print(f"resumed {resumed} after {last} was shown", file=sys.stderr)
            deadline = time.monotonic() + rng.uniform(0.02, 0.6)
            last = resumed
            lines = []
            while time.monotonic() < deadline:
                lines.append(child.stdout.readline())
            child.send_signal(signal.SIGKILL)
            lines += child.stdout.read().splitlines(keepends=True)  # printed before the kill: shown to players
            child.wait()
            # a line the kill cut short (no newline) was never wholly shown: it does not count
            for words in (line.split() for line in lines if line.endswith("\n")):
                if words and words[0] == "STEP":
                    last = (int(words[1]), int(words[2]))
                elif words and words[0] == "ENDED":
                    ended.add(int(words[1]))
        with SqliteStore(directory, keep_records=10**9) as store:
            records = store.records(limit=10**9)
            counted = sum(store.statistics()["games"].values())
        games = [r[2]["game"] for r in records]
        return {"files": sorted(p.name for p in directory.iterdir()), "kills": kills, "resumes_identical": identical, "resumes_different": mismatched,
                "games_recorded": len(games), "games_counted": counted,
                "recorded_twice": len(games) - len(set(games)), "ended_but_lost": len(ended - set(games)),
                "seconds": round(time.monotonic() - started, 1)}
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def filled(directory: Path) -> None:
    with SqliteStore(directory) as store:
        for n in range(56):
            store._db.execute("INSERT INTO tile_tags (uid, tile) VALUES (?, ?)", (f"{n:010X}", n + 1))
        store.set_progress("puzzles", {"solved": ["junior", "master"]})
        for n in range(300):
            store.add_record("strategy", {"game": n, "padding": "x" * 300})
            store.wait_for_backup()  # the last-known-good copy follows each finished game
        store.save_current({"kind": "soak", "state": {"game": 300, "step": 7}})  # newer than the copy


def damage(case: str, path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    page = 4096
    pages = len(data) // page
    if case == "bit flip in each table":
        for n in range(1, pages):
            data[n * page + rng.randrange(100, page)] ^= 1 << rng.randrange(8)
    elif case == "truncated to half":
        del data[len(data) // 2:]
    elif case == "zeroed header":
        data[:100] = bytes(100)
    elif case == "random pages garbage":
        for n in rng.sample(range(1, pages), max(1, pages // 10)):
            data[n * page:(n + 1) * page] = os.urandom(page)
    elif case == "whole file garbage":
        data[:] = os.urandom(len(data))
    path.write_bytes(bytes(data))


def corruption(rng: random.Random) -> list[dict]:
    results = []
    cases = ("bit flip in each table", "truncated to half", "zeroed header", "random pages garbage",
             "whole file garbage", "WAL damaged", "flipped bit in the saved game")
    for case in cases:
        directory = Path(tempfile.mkdtemp(prefix="tantrix-corrupt-"))
        try:
            filled(directory)
            path = directory / DATABASE
            if case == "WAL damaged":
                with SqliteStore(directory) as store:  # a step only in the WAL, its frame then damaged
                    store.save_current({"kind": "soak", "state": {"game": 300, "step": 8}})
                    shutil.copyfile(path, directory / "db.copy")
                    shutil.copyfile(f"{path}-wal", directory / "wal.copy")
                os.replace(directory / "db.copy", path)
                wal = bytearray((directory / "wal.copy").read_bytes())
                wal[len(wal) // 2] ^= 0xFF
                Path(f"{path}-wal").write_bytes(bytes(wal))
            elif case == "flipped bit in the saved game":
                data = bytearray(path.read_bytes())
                at = data.index(b'"step":7')
                data[at + 1] ^= 0x40
                path.write_bytes(bytes(data))
            else:
                damage(case, path, rng)
            reports: list[str] = []
            try:
                with SqliteStore(directory, report=reports.append) as store:
                    try:
                        current = store.load_current() is not None
                    except ValueError:
                        current = "offered to discard"
                    results.append({"case": case, "started": True, "in_memory": store.in_memory,
                                    "tags": len(store.tags()), "records": len(store.records(limit=1000)),
                                    "games_counted": sum(store.statistics()["games"].values()),
                                    "game_in_progress": current, "reports": len(reports)})
            except Exception as exc:  # what must never happen
                results.append({"case": case, "started": False, "error": repr(exc)})
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(json.dumps({"soak": soak(args.kills, rng), "corruption": corruption(rng)}, indent=1))


if __name__ == "__main__":
    main()
