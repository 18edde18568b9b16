"""The kiosk's database as the web process sees it: read-only, plus one narrow write.

Reads go through :func:`firmware.store.open_read_only`, so no bug here can damage the kiosk's data,
and WAL mode lets them run beside the kiosk's writes without making it wait. Every read is a short
autocommit statement (no transaction is held open, so the kiosk's checkpoints are never pinned).
:meth:`KioskDatabase.changed` asks SQLite's ``data_version``, which moves whenever another
connection commits: polling it costs a read of shared memory, not a query.

The only writes are two keys of the kiosk's progress table that the kiosk watches on its own clock:
the staff overrides (language, brightness; :meth:`KioskDatabase.set_overrides`) and a restart
request (:meth:`KioskDatabase.request_restart`). Each opens a short read-write connection that
never creates the file or its schema.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from firmware.players import LadderRow, Players
from firmware.restart import RESTART
from firmware.settings import OVERRIDES
from firmware.status import STATUS
from firmware.store import DATABASE, ROBOT_RESULTS, open_read_only
from firmware.stored import decode_text, read_json


class NoDatabase(Exception):
    """The kiosk has not made its database yet (or it cannot be read)."""


class KioskDatabase:
    """Reads of the kiosk's database in ``directory``; thread-safe, reopened after a failure."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def changed(self, seen: int | None) -> tuple[bool, int]:
        """Whether anyone committed since ``data_version`` was ``seen``, and the version now."""
        version = self._rows("PRAGMA data_version")[0][0]
        return version != seen, version

    def current(self) -> tuple[dict[str, Any] | None, float | None]:
        """The game in progress as the kiosk journalled it, and when (None, None: none). ValueError
        when it cannot be read back, as :meth:`firmware.store.SqliteStore.load_current` says."""
        rows = self._rows("SELECT saved, updated FROM current")
        if not rows:
            return None, None
        saved = read_json(rows[0][0])
        if not isinstance(saved, dict):
            raise ValueError("the saved game is damaged (it is not a JSON object)")
        return saved, rows[0][1]

    def progress(self, key: str) -> dict[str, Any]:
        """The kiosk's value for ``key``; {} when it is missing or damaged (the kiosk then starts
        it afresh too, :meth:`firmware.store.SqliteStore.progress`)."""
        rows = self._rows("SELECT value FROM progress WHERE key = ?", (key,))
        return _object(rows[0][0]) if rows else {}

    def status(self) -> dict[str, Any]:
        """The kiosk's health snapshot (``firmware.status``)."""
        return self.progress(STATUS)

    def overrides(self) -> dict[str, Any]:
        return self.progress(OVERRIDES)

    def statistics(self) -> dict[str, Any]:
        """Finished games per kind and each robot's results, from the kiosk's counters."""
        games: dict[str, int] = {}
        robots: dict[str, dict[str, int]] = {}
        for key, value in self._rows("SELECT key, value FROM counters ORDER BY key"):
            what, _, rest = key.partition(":")
            if what == "games":
                games[rest] = value
            elif what == "robot":
                name, _, result = rest.rpartition(":")
                robots.setdefault(name, dict.fromkeys(ROBOT_RESULTS, 0))[result] = value
        kept = self._rows("SELECT count(*) FROM records")[0][0]
        return {"games": games, "robots": robots, "records": kept}

    def ladder(self) -> list[LadderRow]:
        """The players' ladder, best first, read by ``firmware.players`` itself (which only reads
        through :meth:`query` here), so the page and the table never disagree on its order."""
        return Players(self).ladder()  # type: ignore[arg-type]

    def query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One read, as the store's :meth:`firmware.store.SqliteStore.query`."""
        return self._rows(sql, parameters)

    def records(self, batch: int = 200) -> Iterator[dict[str, Any]]:
        """Every finished game kept, oldest first, read in batches (no long transaction). A record
        that cannot be read back is left out, as the kiosk leaves it out: one damaged row must not
        end the export there."""
        after = 0
        while True:
            rows = self._rows("SELECT id, kind, created, record FROM records WHERE id > ? ORDER BY id LIMIT ?",
                              (after, batch))
            for record_id, kind, created, text in rows:
                try:
                    record = read_json(text)
                except ValueError:
                    continue
                if isinstance(record, dict):
                    yield {"id": record_id, "kind": kind, "created": created, "record": record}
            if len(rows) < batch:
                return
            after = rows[-1][0]

    def set_overrides(self, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` (already checked) into the staff overrides; returns them all."""
        return self._merge(OVERRIDES, changes)

    def request_restart(self) -> None:
        """Ask the kiosk to restart (``firmware.restart``)."""
        self._merge(RESTART, {"requested": time.time()})

    def _merge(self, key: str, changes: dict[str, Any]) -> dict[str, Any]:
        """``changes`` over the kiosk's value for ``key`` (a damaged one starts afresh, as the
        kiosk's own write would); NoDatabase when the kiosk's database refuses the write (missing,
        locked beyond the busy timeout, read-only)."""
        path = (self.directory / DATABASE).resolve()
        try:
            with contextlib.closing(sqlite3.connect(path.as_uri() + "?mode=rw", uri=True, isolation_level=None,
                                                    timeout=5.0)) as db:
                db.text_factory = decode_text
                db.execute("BEGIN IMMEDIATE")
                row = db.execute("SELECT value FROM progress WHERE key = ?", (key,)).fetchone()
                merged = {**(_object(row[0]) if row else {}), **changes}
                db.execute("INSERT INTO progress (key, value) VALUES (?, ?)"
                           " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           (key, json.dumps(merged, separators=(",", ":"))))
                db.execute("COMMIT")
                return merged
        except sqlite3.Error as exc:
            raise NoDatabase(f"the kiosk's database {path} cannot be written ({exc})") from exc

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                if self._db is None:
                    self._db = open_read_only(self.directory)
                return self._db.execute(sql, parameters).fetchall()
            except sqlite3.Error as exc:
                if self._db is not None:
                    self._db.close()
                    self._db = None
                raise NoDatabase(f"the kiosk's database in {self.directory} cannot be read ({exc})") from exc


def _object(text: Any) -> dict[str, Any]:
    """A stored JSON object; {} for one that cannot be read back (a flipped bit, not an object)."""
    try:
        value = read_json(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
