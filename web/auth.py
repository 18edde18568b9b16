"""Staff sign-in on the web page: the kiosk's own PIN check, a backoff against guessing, sessions.

The PIN is checked with :func:`firmware.pin.verify_pin` against ``kiosk.staff_pin`` from the same
configuration file the kiosk reads. While no PIN is set (the kiosk then accepts 0000 at the table,
with a warning) the web page accepts no PIN at all: a default PIN must never be reachable from the
café's Wi-Fi. Guessing is slowed for everyone at once, not per address (an attacker on the Wi-Fi can
change address at will): after :data:`PIN_TRIES` wrong PINs in a row every PIN is refused for a
lockout that doubles with each further wrong PIN, up to :data:`MAX_LOCKOUT_SECONDS`. Someone
flooding the page can thus keep staff out of the web page, never out of the table itself.

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
from typing import Callable

from firmware.pin import verify_pin

PIN_TRIES = 5
"""Wrong PINs in a row allowed before the lockout starts."""
FIRST_LOCKOUT_SECONDS = 30.0
MAX_LOCKOUT_SECONDS = 3600.0


class PinGuard:
    """Checks staff PINs against ``pin_hash`` with a growing lockout after repeated wrong ones."""

    def __init__(self, pin_hash: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._hash = pin_hash
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong = 0
        self._locked_until = 0.0

    @property
    def configured(self) -> bool:
        """Whether a staff PIN is set (without one, nobody can sign in on the web)."""
        return bool(self._hash)

    def wait(self) -> float:
        """Seconds before a PIN will be looked at again (0: now)."""
        return max(0.0, self._locked_until - self._clock())

    def check(self, pin: str) -> bool:
        """Whether ``pin`` is the staff PIN; always False while locked out or without a PIN set.
        One check at a time, so parallel guesses cannot slip past the count."""
        with self._lock:
            if not self.configured or self.wait() > 0:
                return False
            if verify_pin(pin, self._hash):
                self._wrong = 0
                return True
            self._wrong += 1
            if self._wrong >= PIN_TRIES:
                lockout = min(MAX_LOCKOUT_SECONDS, FIRST_LOCKOUT_SECONDS * 2 ** (self._wrong - PIN_TRIES))
                self._locked_until = self._clock() + lockout
            return False


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
