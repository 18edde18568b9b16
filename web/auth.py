"""Staff sign-in on the web page: the kiosk's own PIN check, a backoff against guessing, sessions.

The PIN is checked with :func:`firmware.pin.verify_pin` against ``kiosk.staff_pin`` from the same
configuration file the kiosk reads, looked at again whenever that file changes
(:class:`ConfiguredPin`): read only at the start, a PIN the owner changed (``install.sh --set-pin``)
left the old one signing in until the unit was restarted. While no PIN is set (the kiosk then accepts 0000 at the table,
with a warning) the web page accepts no PIN at all: a default PIN must never be reachable from the
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

import logging
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Callable, NamedTuple

from firmware.config import Config, load_config
from firmware.pin import verify_pin

from .lockout import Lockout, LockoutRecord

log = logging.getLogger(__name__)


class Checked(NamedTuple):
    """A PIN's check: whether it was right, and the seconds before another is looked at (0: now)."""

    right: bool
    wait: float


class ConfiguredPin:
    """The staff PIN's hash as the configuration file ``path`` holds it now (called: the hash, ""
    for none). The file is read again only when its status changes (device, inode, size,
    modification and change times: one ``stat`` per sign-in), so a new PIN is the only one taken
    from the first sign-in after it was written, and ``on_change`` is called once it differs (the
    sessions opened with the old one end). It fails closed: a file that cannot be read or whose PIN
    is refused (:func:`firmware.config.load_config` leaves ``kiosk.staff_pin`` unset) gives none,
    and nobody signs in until it is fixed."""

    def __init__(self, path: Path | None, on_change: Callable[[], None] = lambda: None) -> None:
        self._path = path
        self._on_change = on_change
        self._lock = threading.Lock()
        self._seen: tuple[int, ...] | None = None
        """The file's status when it was last read (None: not read yet, or it could not be)."""
        self._hash = ""

    def __call__(self) -> str:
        with self._lock:
            if self._path is None:
                return ""
            try:
                status = os.stat(self._path)
            except OSError as exc:
                self._seen = None
                self._replace("", f"{self._path} cannot be read ({exc.strerror})")
                return ""
            seen = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
            if seen != self._seen:  # looked at before it is read: a change while reading is read again
                self._seen = seen
                config = load_config(self._path)
                self._replace(config.kiosk.staff_pin, _why_no_pin(config, self._path))
            return self._hash

    def _replace(self, pin_hash: str, why_none: str) -> None:
        """Take ``pin_hash`` as the PIN; said in the log, and ``on_change`` called, when it changed."""
        if pin_hash == self._hash:
            return
        was_set, self._hash = bool(self._hash), pin_hash
        if pin_hash:
            log.info("the staff PIN in %s changed: the web page takes the new one now", self._path)
        else:
            log.warning("the web page accepts no staff PIN now: %s", why_none)
        if was_set:
            self._on_change()


def _why_no_pin(config: Config, path: Path) -> str:
    """Why ``config``, read from ``path``, gives no staff PIN, in the words of its warning."""
    if config.source is None and config.warnings:  # the file as a whole cannot be used
        return config.warnings[0]
    refused = [warning for warning in config.warnings if "kiosk.staff_pin" in warning]
    return refused[0] if refused else f"{path} sets no kiosk.staff_pin"


class PinGuard:
    """Checks staff PINs against the hash ``pin()`` gives now (:class:`ConfiguredPin`) with a
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
