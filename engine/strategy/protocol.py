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

:class:`Session` is the conversation itself, lines in and out with no program behind it;
:class:`ExternalRobot` carries its lines to and from a program.
"""

from __future__ import annotations

import json
import queue
import random
import shlex
import subprocess
import threading
from typing import Any, NoReturn

from ..board import Placement
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
    answer = _parse(line, "an object with tile, q, r, rot")
    values = [v for v in (answer.get(k) for k in ("tile", "q", "r", "rot")) if isinstance(v, int) and not isinstance(v, bool)]
    if len(values) != 4:
        raise RobotError(f"answer needs whole numbers tile, q, r and rot: {line.strip()[:80]!r}")
    return Placement(*values)


def _parse(line: str, expected: str) -> dict[str, Any]:
    try:
        answer = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RobotError(f"answer is not JSON ({exc.msg}): {line.strip()[:80]!r}") from None
    if not isinstance(answer, dict):
        raise RobotError(f"answer must be {expected}: {line.strip()[:80]!r}")
    return answer


class Session:
    """The protocol's conversation, without its transport (as python-chess's engine protocols are
    tested over a mock transport): it says which line to send next and turns each line received into
    a name or a placement, or a :class:`RobotError`. :class:`ExternalRobot` carries its lines to and
    from a program; the tests speak to it exchange by exchange.

    ``hello()`` -> ``ready(line)`` -> (``ask(view)`` -> ``answer(line)``)* -> ``quit()``; a line
    out of that order is refused (:class:`RobotError`), and so is a second question before the
    first is answered."""

    def __init__(self) -> None:
        self.name: str | None = None
        self._awaiting: str | None = None  # what the next line received must be

    @property
    def awaiting(self) -> str | None:
        """What the robot owes now ("its ready message", "a placement"), or None."""
        return self._awaiting

    def hello(self) -> str:
        self._expect(None, "say hello")
        self._awaiting = "its ready message"
        return json.dumps({"type": "hello", "protocol": PROTOCOL})

    def ready(self, line: str) -> str:
        """The robot's name from its ready message."""
        self._expect("its ready message", "read a ready message")
        answer = _parse(line, 'a ready message, {"type": "ready", "name": ...}')
        if answer.get("type") != "ready":
            raise RobotError(f"expected a ready message, got {line.strip()[:80]!r}")
        self._awaiting = None
        name = answer.get("name")
        self.name = name if isinstance(name, str) and name.strip() else "unnamed robot"
        return self.name

    def ask(self, view: StrategyGame) -> str:
        """The move request for the seat to move in ``view``."""
        if self.name is None:
            raise RobotError("the robot must be greeted (hello, ready) before it is asked to move")
        self._expect(None, "ask for a move")
        self._awaiting = "a placement"
        return json.dumps(move_message(view))

    def answer(self, line: str) -> Placement:
        """The placement the robot answered (which the game then judges like anyone's)."""
        self._expect("a placement", "read a placement")
        self._awaiting = None
        return parse_placement(line)

    def quit(self) -> str:
        self._awaiting = None
        return json.dumps({"type": "quit"})

    def _expect(self, awaiting: str | None, doing: str) -> None:
        if self._awaiting != awaiting:
            owed = f"while waiting for {self._awaiting}" if self._awaiting else "with nothing asked"
            raise RobotError(f"cannot {doing} {owed}")


class ExternalRobot:
    """A robot played by another program (started on first use, restarted after a failure)."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._session = Session()

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        if self._process is None:
            self._start()
        self._send(self._session.ask(view))
        line = self._receive()
        try:
            return self._session.answer(line)
        except RobotError as exc:
            self._fail(str(exc))

    def close(self) -> None:
        """Ask the program to quit, and stop it if it does not."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.write(self._session.quit() + "\n")
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
        self._session = session = Session()

        def read() -> None:  # a thread, so that waiting for an answer can time out
            assert process.stdout is not None
            for line in process.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        self._send(session.hello())
        try:
            session.ready(self._receive())
        except RobotError as exc:
            self._fail(str(exc))

    def _send(self, line: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fail("the program is not reading its input (it has probably crashed)")

    def _receive(self) -> str:
        what = self._session.awaiting
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
