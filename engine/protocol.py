"""The external robot protocol: any program that speaks JSON lines on stdin/stdout can play.

Like chess engines with UCI, a robot is a separate program. The engine starts it, writes one JSON
object per line to its standard input and reads one JSON object per line from its standard output:

* ``{"type": "hello", "protocol": "tantrix-robot/1"}`` -> the program answers
  ``{"type": "ready", "name": "..."}``;
* ``{"type": "move", ...}`` (:func:`move_message`: the position, every hand, the unseen tiles, the
  seat, its colour, the turn step, the forced spaces and the legal placements) -> the program
  answers the placement it makes, ``{"tile": 17, "q": 1, "r": 0, "rot": 3}``;
* ``{"type": "quit"}`` when it is no longer needed; it should then exit.

Each answer must come within ``timeout`` seconds. A program that answers with something that is not
a placement, that crashes or that stays silent raises :class:`RobotError` (and is stopped); a
placement the rules refuse is refused by the game like anyone else's. The README documents this.
"""

from __future__ import annotations

import json
import queue
import random
import shlex
import subprocess
import threading
from typing import Any, NoReturn

from .board import Placement
from .game import StrategyGame

PROTOCOL = "tantrix-robot/1"


class RobotError(RuntimeError):
    """An external robot broke the protocol: no answer in time, a crash, or a bad answer."""


def move_message(view: StrategyGame) -> dict[str, Any]:
    """What a robot is told when it must place a tile (everything a player at the table knows)."""
    assert view.turn is not None and view.step is not None
    return {
        "type": "move",
        "seat": view.turn,
        "colour": view.colour_of(view.turn),
        "step": str(view.step),
        "options": view.options.to_json(),
        "seats": [{"colour": s.colour} for s in view.seats],
        "position": view.board.to_json(),
        "hands": [list(h) for h in view.hands],
        "hand": list(view.hands[view.turn]),
        "unseen": view.unseen(),
        "forced": [{"q": q, "r": r} for q, r in view.forced_cells()],
        "legal": [p.to_json() for p in view.legal()],
    }


def parse_placement(line: str) -> Placement:
    """A placement from a robot's answer line; RobotError names what is wrong with it."""
    try:
        answer = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RobotError(f"answer is not JSON ({exc.msg}): {line.strip()[:80]!r}") from None
    if not isinstance(answer, dict):
        raise RobotError(f"answer must be an object with tile, q, r, rot: {line.strip()[:80]!r}")
    values = [v for v in (answer.get(k) for k in ("tile", "q", "r", "rot")) if isinstance(v, int) and not isinstance(v, bool)]
    if len(values) != 4:
        raise RobotError(f"answer needs whole numbers tile, q, r and rot: {line.strip()[:80]!r}")
    return Placement(*values)


class ExternalRobot:
    """A robot played by another program (started on first use, restarted after a failure)."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        if self._process is None:
            self._start()
        self._send(move_message(view))
        line = self._receive("a placement")
        try:
            return parse_placement(line)
        except RobotError as exc:
            self._fail(str(exc))

    def close(self) -> None:
        """Ask the program to quit, and stop it if it does not."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.write(json.dumps({"type": "quit"}) + "\n")
                process.stdin.close()
            process.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            process.kill()
            process.wait()

    def _start(self) -> None:
        try:
            process = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True, bufsize=1)
        except OSError as exc:
            raise RobotError(f"cannot start {self.command!r}: {exc.strerror}") from None
        self._process = process
        self._lines = lines = queue.Queue[str | None]()

        def read() -> None:  # a thread, so that waiting for an answer can time out
            assert process.stdout is not None
            for line in process.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL})
        self._receive("its ready message")

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(message) + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fail("the program is not reading its input (it has probably crashed)")

    def _receive(self, what: str) -> str:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._fail(f"no answer within {self.timeout:g} s (waiting for {what})")
        if line is None:
            assert self._process is not None
            status = self._process.wait()
            self._fail(f"the program ended (exit status {status}) instead of sending {what}")
        return line

    def _fail(self, reason: str) -> NoReturn:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        raise RobotError(f"{self.command}: {reason}")
