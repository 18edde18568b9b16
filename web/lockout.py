"""The staff PIN's lockout on the web page: the rule, and its record on disk that outlasts a restart.

Kept in this process's memory, the lockout ended whenever ``tantrix-web`` restarted, so someone
guessing PINs from the café's Wi-Fi had only to crash it (or wait for systemd's restart after a
crash) to guess on. The wrong PINs in a row and the end of the lock are now kept in a small SQLite
file of the web process's own in the kiosk's storage directory (:data:`DATABASE`, beside
``kiosk.db``, which is the kiosk's), one row written in a transaction;
:class:`web.auth.PinGuard` counts each PIN as wrong there before it checks it, so a crash in the
middle of a check has counted it too.

It fails closed. Only a file made afresh (none was there) starts with no wrong PINs, and it is made
with its row in the transaction that makes its table (``firmware.store.migrate``). A missing row,
a row that does not hold together, or a file SQLite cannot read as this one is damage: a lock for
the full :data:`LONGEST_LOCK_SECONDS` from when it is found, written back (a damaged file is rebuilt
beside it, then renamed over it, so there is never no file). While the file cannot be written
(a read-only or full card, a directory where it should be) no PIN is checked at all:
:class:`Unrecorded`.

Times are the wall clock's, since a lock must outlast a reboot; a clock set back while locked (a
Pi has no battery clock) moves the lock's end to a full lock from when it is seen, written back, as
the kiosk's keypad reckons it (``firmware.pin.lock_end``): never longer than the lock, and it runs out.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from firmware.pin import LONGEST_LOCK_SECONDS, full_lock_wrong, lock_end, lock_seconds
from firmware.store import Unusable, migrate
from firmware.stored import decode_text

log = logging.getLogger(__name__)

PIN_TRIES = 5
"""Wrong PINs in a row allowed before the lockout starts (``firmware.pin.lock_seconds``)."""
DATABASE = "web-staff-pin.db"
"""The record's file in the kiosk's storage directory."""
BUSY_SECONDS = 5.0
"""How long a write waits for another process's lock on the file (a second ``tantrix-web``)."""
_STORAGE_FAILURES = {sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_READONLY,
                     sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}
"""SQLite's primary result codes that say the card or the file's place refuses, not that the file
is damaged: rebuilding would not help."""


FULL_LOCKOUT_WRONG = full_lock_wrong(PIN_TRIES)
"""The wrong PINs counted when the record is damaged: the fewest whose lock is the longest."""


@dataclass(frozen=True)
class Lockout:
    """Wrong PINs in a row, and when (wall clock) the lock they brought ends."""

    wrong: int = 0
    until: float = 0.0

    def wait(self, now: float) -> float:
        """Seconds before a PIN is looked at again (0: now)."""
        return max(0.0, self.seen_at(now).until - now)

    def seen_at(self, now: float) -> Lockout:
        """This lockout as the record keeps it once looked at, at ``now``: its end moved to a full
        lock from ``now`` if the clock was set back since (:func:`firmware.pin.lock_end`)."""
        return Lockout(self.wrong, lock_end(self.until, lock_seconds(self.wrong, PIN_TRIES), now))

    def wrong_again(self, now: float) -> Lockout:
        """One more wrong PIN at ``now`` (counted up to :data:`FULL_LOCKOUT_WRONG`: more add nothing)."""
        wrong = min(self.wrong + 1, FULL_LOCKOUT_WRONG)
        return Lockout(wrong, now + lock_seconds(wrong, PIN_TRIES))

    @staticmethod
    def damaged(now: float) -> Lockout:
        """What a damaged record counts as: locked for the full period from ``now``."""
        return Lockout(FULL_LOCKOUT_WRONG, now + LONGEST_LOCK_SECONDS)


class Unrecorded(Exception):
    """The lockout cannot be read or written (the message names the file and why)."""


def _schema_1(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE lockout (id INTEGER PRIMARY KEY CHECK (id = 1), wrong INTEGER NOT NULL,"
               " until REAL NOT NULL)")
    db.execute("INSERT INTO lockout (id, wrong, until) VALUES (1, 0, 0.0)")


MIGRATIONS = (_schema_1,)


class LockoutRecord:
    """The lockout kept in ``directory`` (:data:`DATABASE`). Thread-safe."""

    def __init__(self, directory: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(directory) / DATABASE
        self._clock = clock
        self._lock = threading.Lock()

    def update(self, change: Callable[[Lockout], Lockout]) -> tuple[Lockout, Lockout]:
        """The lockout kept (as :meth:`Lockout.seen_at` now; a damaged one as :meth:`Lockout.damaged`)
        and ``change`` of it, kept in its place in the same transaction. Unrecorded when it cannot be."""
        with self._lock:
            now = self._clock()
            try:
                return self._update(change, now)
            except (sqlite3.Error, Unusable) as exc:
                if (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF in _STORAGE_FAILURES:
                    raise self._unrecorded(f"{self.path} cannot be written ({exc})") from exc
                log.warning("%s is damaged (%s): rebuilt, locked for %.0f s", self.path, exc, LONGEST_LOCK_SECONDS)
                try:
                    self._rebuild(now)
                    return self._update(change, now)
                except (OSError, sqlite3.Error, Unusable) as again:
                    raise self._unrecorded(f"{self.path} is damaged ({exc}) and cannot be rebuilt ({again})") from again

    def _update(self, change: Callable[[Lockout], Lockout], now: float) -> tuple[Lockout, Lockout]:
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)  # before the kiosk's first start (else: Unrecorded)
        existed = self.path.exists()
        with contextlib.closing(self._connect(self.path)) as db:
            if existed and db.execute("PRAGMA user_version").fetchone()[0] == 0:
                raise Unusable("the file holds no lockout (emptied, or made by something else)")
            migrate(db, MIGRATIONS)
            db.execute("BEGIN IMMEDIATE")
            try:
                kept = _lockout(db.execute("SELECT wrong, until FROM lockout WHERE id = 1").fetchone())
                if kept is None:
                    log.warning("%s has no lockout that holds together: locked for %.0f s",
                                self.path, LONGEST_LOCK_SECONDS)
                before = kept.seen_at(now) if kept is not None else Lockout.damaged(now)
                after = change(before)
                if after != kept:
                    _write(db, after)
                db.execute("COMMIT")
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
        return before, after

    @staticmethod
    def _unrecorded(message: str) -> Unrecorded:
        log.error("no staff PIN is checked on the web page: %s", message)
        return Unrecorded(message)

    def _rebuild(self, now: float) -> None:
        """A new file holding the full lock, built beside the damaged one and renamed over it (the
        damaged one's journal removed first: SQLite would play it back into the new file)."""
        healing = self.path.with_name(self.path.name + ".healing")
        healing.unlink(missing_ok=True)
        with contextlib.closing(self._connect(healing)) as db:
            migrate(db, MIGRATIONS)
            _write(db, Lockout.damaged(now))
        self.path.with_name(self.path.name + "-journal").unlink(missing_ok=True)
        os.replace(healing, self.path)

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        """Autocommit (``migrate`` and the update say where each transaction begins); SQLite's
        default rollback journal with ``synchronous=FULL``, so a committed count is on the card."""
        db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
        db.text_factory = decode_text
        return db


def _lockout(row: tuple[object, ...] | None) -> Lockout | None:
    """The row's lockout; None for a row missing or not holding together (damage)."""
    if row is None:
        return None
    wrong, until = row
    if not (isinstance(wrong, int) and 0 <= wrong <= FULL_LOCKOUT_WRONG
            and isinstance(until, (int, float)) and math.isfinite(until)):
        return None
    return Lockout(wrong, float(until))


def _write(db: sqlite3.Connection, lockout: Lockout) -> None:
    db.execute("INSERT INTO lockout (id, wrong, until) VALUES (1, ?, ?)"
               " ON CONFLICT (id) DO UPDATE SET wrong = excluded.wrong, until = excluded.until",
               (lockout.wrong, lockout.until))
