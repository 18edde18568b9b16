"""Staff sign-in on the web page: the kiosk's own PIN check, a backoff against guessing, sessions.

The PIN is checked with :func:`firmware.pin.verify_pin` against ``kiosk.staff_pin`` from the same
configuration file the kiosk reads, looked at again whenever that file changes
(:class:`firmware.staff_pin.ConfiguredPin`, as the table's keypad does): read only at the start, a
PIN the owner changed (``install.sh --set-pin``) left the old one signing in until the unit was
restarted. While no PIN is set (a desktop run's table then accepts 0000, with a warning) the web
page accepts no PIN at all: a default PIN must never be reachable from the
café's Wi-Fi. Guessing is slowed for everyone at once, not per address (an attacker on the Wi-Fi can
change address at will): after :data:`~web.lockout.PIN_TRIES` wrong PINs in a row every PIN is
refused for a lockout that doubles with each further wrong PIN, up to an hour
(``web.lockout``, which keeps the count on disk, so a restart of this process ends nothing).
Someone flooding the page can thus keep staff out of the web page, never out of the table itself.

A session is a random token (``secrets``) in an HttpOnly, SameSite=Strict cookie, kept only in this
process's memory: it ends after ``session_minutes`` without a request, :data:`MAX_SESSION_SECONDS`
after sign-in however much it is used (the staff page asks every few seconds, so a page left open
on a shared computer would otherwise stay signed in for ever), at sign-out, and when the process
restarts.
"""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path
from typing import Callable, NamedTuple

from firmware.pin import verify_pin

from .lockout import Lockout, LockoutRecord


class Checked(NamedTuple):
    """A PIN's check: whether it was right, and the seconds before another is looked at (0: now)."""

    right: bool
    wait: float


class PinGuard:
    """Checks staff PINs against the hash ``pin()`` gives now (:class:`firmware.staff_pin.ConfiguredPin`) with a
    growing lockout after repeated wrong ones, kept in ``directory`` (the kiosk's storage directory)."""

    def __init__(self, pin: Callable[[], str], directory: str | Path, clock: Callable[[], float] = time.time) -> None:
        self._pin = pin
        self._record = LockoutRecord(directory, clock)
        self._clock = clock
        self._lock = threading.Lock()

    @property
    def configured(self) -> bool:
        """Whether a staff PIN is set (without one, nobody can sign in on the web)."""
        return bool(self._pin())

    def check(self, pin: object) -> Checked:
        """Whether ``pin`` is the staff PIN (anything but text is a wrong one); never while locked
        out or without a PIN set. The PIN is counted as wrong before it is checked, and the count
        taken back once it proves right, so no crash or restart in between forgets a wrong one.
        One check at a time, so parallel guesses cannot slip past the count. Raises
        :class:`web.lockout.Unrecorded` when the count cannot be kept: then nothing is checked."""
        with self._lock:
            pin_hash = self._pin()
            if not pin_hash:
                return Checked(False, 0.0)
            now = self._clock()
            kept, counted = self._record.update(lambda kept: kept if kept.wait(now) > 0 else kept.wrong_again(now))
            if kept.wait(now) > 0:
                return Checked(False, kept.wait(now))
            if isinstance(pin, str) and verify_pin(pin, pin_hash):
                self._record.update(lambda _: Lockout())
                return Checked(True, 0.0)
            return Checked(False, counted.wait(now))


MAX_SESSION_SECONDS = 12 * 3600.0
"""The longest a staff session lasts, however much it is used: a working day."""


class Sessions:
    """Staff sessions: a token per sign-in, ended after ``idle_seconds`` without use or
    :data:`MAX_SESSION_SECONDS` after sign-in."""

    def __init__(self, idle_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._idle = idle_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._until: dict[str, tuple[float, float]] = {}
        """Each token's (end if unused, end at the latest)."""

    def start(self) -> str:
        token = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            self._until[token] = (now + self._idle, now + MAX_SESSION_SECONDS)
        return token

    def valid(self, token: str | None) -> bool:
        """Whether ``token`` is a live session; using it extends it (up to its latest end)."""
        if not token:
            return False
        now = self._clock()
        with self._lock:
            for stale in [t for t, (idle, last) in self._until.items() if min(idle, last) <= now]:
                del self._until[stale]
            if token not in self._until:
                return False
            last = self._until[token][1]
            self._until[token] = (now + self._idle, last)
            return True

    def end(self, token: str | None) -> None:
        with self._lock:
            self._until.pop(token or "", None)

    def end_all(self) -> None:
        """End every session (the staff PIN they were opened with is no longer the PIN)."""
        with self._lock:
            self._until.clear()
