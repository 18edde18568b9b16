"""Power cuts in the middle of real games: SIGKILL a process playing robot games and solo modes
through the kiosk's own store and journal, at random moments, and check every restart resumes the
identical state.

The child plays as the UI does: one step, ``store.save_current(engine.modes.save(mode))``, and only
then shows it. It prints ``SAVING <digest>`` before each save and ``SAVED <digest>`` after, so the
parent knows exactly which states may be on disk: the last one saved, or the one whose save was cut
short. After each kill the next child restores the journal with ``engine.modes.restore``, and the
restored mode must save to exactly that state again. When a game ends the child starts the next
kind (robot strategy games, a Discovery puzzle, robot Tanagra, Gobble solo, in turn).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KILLS = 51

PLAYER = r"""
import hashlib, json, random, sys
from engine import modes
from engine.strategy.game import StrategyGame
from engine.gobble.solo import GobbleSolo
from engine.solo.puzzle import PickUp, PuzzlePlay
from engine.tanagra.game import Game as Tanagra
from engine.tanagra.robots import make_robot
from engine.tanagra.rules import Options
from firmware.store import SqliteStore

def digest(saved):
    return hashlib.sha256(json.dumps(saved, sort_keys=True).encode()).hexdigest()[:16]

KINDS = (StrategyGame, PuzzlePlay, Tanagra, GobbleSolo)

def fresh(kind, n):
    if kind is StrategyGame:
        return StrategyGame.new(players=2 + n % 3, robots=["beginner", "club", "beginner", "club"][: 2 + n % 3], seed=n)
    if kind is PuzzlePlay:
        return PuzzlePlay.start(f"discovery-{5 + n % 4}")
    if kind is Tanagra:
        return Tanagra(Options(players=2, x=4))
    return GobbleSolo.start(seed=n)

def step(mode, n):
    if isinstance(mode, StrategyGame):
        mode.robot_move()
    elif isinstance(mode, Tanagra):
        mode.apply(make_robot("beginner", seed=n).choose(mode.state))
    elif isinstance(mode, PuzzlePlay) and n % 4:  # a player who mostly follows the hints
        hint = mode.hint()
        mode.apply(hint.placement if hint.placement is not None else PickUp(hint.tile))
    else:
        actions = mode.legal_actions()
        mode.apply(actions[n % len(actions)])

store = SqliteStore(sys.argv[1], report=lambda message: print("REPORT", message, flush=True))
saved = store.load_current()
games = store.progress("journey").get("games", 0)  # only varies the seeds
if saved is None:
    mode = fresh(StrategyGame, games)
else:
    mode = modes.restore(saved)
    print("RESUMED", digest(saved), digest(modes.save(mode)), flush=True)
n = 0
while True:
    if mode.finished:
        games += 1
        store.set_progress("journey", {"games": games})
        # the next kind follows from the finished one (a kill between these two writes skips none)
        mode = fresh(KINDS[(KINDS.index(type(mode)) + 1) % len(KINDS)], games)
    else:
        n += 1
        step(mode, n)
    saved = modes.save(mode)
    print("SAVING", digest(saved), flush=True)
    store.save_current(saved)
    print("SAVED", digest(saved), type(mode).__name__, flush=True)
"""


def test_sigkill_during_robot_games_and_solo_modes_resumes_the_identical_state(tmp_path):
    rng = random.Random(7)
    saved: str | None = None  # the last digest known to be on disk
    pending: str | None = None  # a digest whose save may or may not have committed
    kinds: set[str] = set()
    resumes = 0
    for kill in range(KILLS):
        child = subprocess.Popen([sys.executable, "-c", PLAYER, str(tmp_path)], cwd=ROOT,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout is not None
        text = ""
        for _ in range(rng.randrange(2, 40)):  # a few steps, then the power goes
            line = child.stdout.readline()
            if not line:
                break
            text += line
        time.sleep(rng.uniform(0, 0.01))
        child.send_signal(signal.SIGKILL)
        child.wait()
        # the rest through the same buffered file readline used (communicate() would skip what
        # readline had buffered); a line the kill cut short is not a message
        text += child.stdout.read()
        lines = [line.split() for line in text.split("\n")[:-1]]
        errors = child.stderr.read()
        child.stdout.close()
        child.stderr.close()
        assert child.returncode == -signal.SIGKILL, errors
        assert not any(words[0] == "REPORT" for words in lines), lines
        if lines and lines[0][0] == "RESUMED":
            resumes += 1
            _, on_disk, again = lines.pop(0)
            assert on_disk in {saved, pending} - {None}, (kill, on_disk, saved, pending)
            assert again == on_disk  # the restored mode is exactly the saved one
            saved, pending = on_disk, None
        for words in lines:
            if words[0] == "SAVING":
                pending = words[1]
            elif words[0] == "SAVED":
                assert words[1] == pending
                saved, pending = words[1], None
                kinds.add(words[2])
    assert resumes >= KILLS - 2  # only the first start (and a kill before any save) find nothing
    assert kinds == {"StrategyGame", "Game", "GobbleSolo", "PuzzlePlay"}
