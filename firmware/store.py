"""Everything that must survive a power cut, in one SQLite database (``ui.services.Store``).

Durability: the UI journals the game in progress (``engine.modes.save(mode)``) after every step and
shows the step only once :meth:`SqliteStore.save_current` has returned. Each write is one
transaction committed in WAL mode with ``synchronous=FULL``, so the WAL is synced to the card on
every commit: a power cut or a crash at any moment leaves either the previous step or the new one,
never a mixture (if the file system cannot do WAL, the rollback journal with ``synchronous=FULL``
gives the same guarantee, more slowly). Both settings are read back after they are set.

Failures are survived, not fatal: a database that is corrupt, unreadable or written by a newer
firmware is moved aside (renamed with a timestamp, never deleted) and replaced by a fresh one; a
read-only or full disk is reported and play goes on in an in-memory copy of what could be read.
Every such event goes to ``report`` (which the runtime shows to staff) and to the log.

The schema is versioned with ``PRAGMA user_version``: :data:`MIGRATIONS` lists the steps from an
empty database, and each runs in the same transaction as the version bump, so a crash during an
upgrade leaves the old version intact. The ``tile_tags`` table is the one ``hardware``'s
``SqliteTagStore`` uses for the tag registry (created there too if missing).

Records: ``add_record(kind, record)`` keeps a finished game (its JSON as the UI wrote it) and counts
it under ``kind``; if the record has ``"robots": {name: "won" | "lost" | "drawn"}``, each robot's
result is counted too. Only the newest ``keep_records`` records are kept; the counts stay.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)

DATABASE = "kiosk.db"
CURRENT = 1
"""The one row of ``current`` (there is at most one game in progress)."""
HIGH_SCORES_KEPT = 100
"""Entries kept per mode; the lowest drop out."""
ROBOT_RESULTS = ("won", "lost", "drawn")

Migration = Callable[[sqlite3.Connection], None]


def _schema_1(db: sqlite3.Connection) -> None:
    """The game in progress and finished games."""
    db.execute("CREATE TABLE current (id INTEGER PRIMARY KEY CHECK (id = 1), saved TEXT NOT NULL,"
               " updated REAL NOT NULL)")
    db.execute("CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,"
               " created REAL NOT NULL, record TEXT NOT NULL)")
    db.execute("CREATE INDEX records_by_kind ON records (kind, id)")


def _schema_2(db: sqlite3.Connection) -> None:
    """Puzzle and learning progress, high scores."""
    db.execute("CREATE TABLE progress (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("CREATE TABLE scores (id INTEGER PRIMARY KEY, mode TEXT NOT NULL, name TEXT NOT NULL,"
               " score INTEGER NOT NULL, created REAL NOT NULL)")
    db.execute("CREATE INDEX scores_by_mode ON scores (mode, score DESC, id)")


def _schema_3(db: sqlite3.Connection) -> None:
    """Counters that outlive pruned records (seeded from the records kept so far), and the tag
    registry's table."""
    db.execute("CREATE TABLE counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
    db.execute("INSERT INTO counters (key, value) SELECT 'games:' || kind, count(*) FROM records GROUP BY kind")
    db.execute("CREATE TABLE IF NOT EXISTS tile_tags (uid TEXT PRIMARY KEY,"
               " tile INTEGER NOT NULL UNIQUE CHECK (tile BETWEEN 1 AND 56))")


MIGRATIONS: tuple[Migration, ...] = (_schema_1, _schema_2, _schema_3)
"""Step ``i`` takes the schema from version ``i`` to ``i + 1``. Append; never edit a shipped step."""
SCHEMA_VERSION = len(MIGRATIONS)

# SQLite's primary result codes (https://sqlite.org/rescode.html) that mean "the disk cannot take
# our writes" as opposed to "the file is damaged".
_STORAGE_FAILURES = {3: "permission denied", 5: "locked by another program", 8: "read-only",
                     10: "disk I/O error", 13: "full", 14: "cannot be opened"}
_DAMAGED = {11: "corrupt", 26: "not a database"}


class Unusable(Exception):
    """The database file cannot be used as it is and must be moved aside."""


def migrate(db: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring ``db`` (autocommit mode) to ``len(migrations)``; returns the version it had."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > len(migrations):
        raise Unusable(f"schema version {version} is newer than this firmware's {len(migrations)}")
    for target in range(version + 1, len(migrations) + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            migrations[target - 1](db)
            db.execute(f"PRAGMA user_version = {target}")
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
    return version


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite may already have rolled back (e.g. on SQLITE_FULL)


def _code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def _connect(target: str, uri: bool = False) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, so DDL and pragmas are transactional
    # exactly where we say; check_same_thread=False: all use is serialised by the store's lock.
    return sqlite3.connect(target, uri=uri, isolation_level=None, check_same_thread=False, timeout=5.0)


def open_read_only(directory: str | Path) -> sqlite3.Connection:
    """The kiosk's database opened by another process (the web page) that must never change it:
    SQLite refuses every write on this connection, and WAL lets it read while the kiosk writes.
    Raises sqlite3.OperationalError while there is no database yet."""
    uri = (Path(directory) / DATABASE).resolve().as_uri() + "?mode=ro"
    return _connect(uri, uri=True)


class SqliteStore:
    """The kiosk's :class:`ui.services.Store`. Thread-safe; every method commits before returning.

    ``directory`` holds ``kiosk.db``; ``max_bytes`` bounds the file (reaching it counts as a full
    disk); ``keep_records`` bounds the finished games kept; ``report`` receives one line per
    storage problem (the runtime shows them to staff).
    """

    def __init__(self, directory: str | Path, *, max_bytes: int | None = None, keep_records: int = 2000,
                 report: Callable[[str], None] | None = None) -> None:
        self.path = Path(directory) / DATABASE
        self._max_bytes = max_bytes
        self._keep_records = keep_records
        self._report = report or (lambda message: None)
        self._lock = threading.RLock()
        self.journal_mode = "memory"
        """``wal`` (normally), ``delete`` (rollback journal) or ``memory`` (nothing is kept)."""
        self.in_memory = False
        self.memory_reason = ""
        """Why the store is in memory only (empty while it writes to disk)."""
        self._db = self._open()

    # ----------------------------------------------------------------------- the Store protocol

    def save_current(self, saved: dict[str, Any]) -> None:
        text = json.dumps(saved, separators=(",", ":"))
        self._write(lambda db: db.execute(
            "INSERT INTO current (id, saved, updated) VALUES (?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET saved = excluded.saved, updated = excluded.updated",
            (CURRENT, text, time.time())))

    def load_current(self) -> dict[str, Any] | None:
        row = self._read("SELECT saved FROM current WHERE id = ?", (CURRENT,))
        return json.loads(row[0][0]) if row else None

    def clear_current(self) -> None:
        self._write(lambda db: db.execute("DELETE FROM current"))

    def add_record(self, kind: str, record: dict[str, Any]) -> int:
        text = json.dumps(record, separators=(",", ":"))
        robots = record.get("robots")
        results = [(f"robot:{name}:{result}",) for name, result in robots.items()
                   if result in ROBOT_RESULTS] if isinstance(robots, dict) else []

        def add(db: sqlite3.Connection) -> int:
            cursor = db.execute("INSERT INTO records (kind, created, record) VALUES (?, ?, ?)",
                                (kind, time.time(), text))
            record_id = int(cursor.lastrowid or 0)
            db.execute("DELETE FROM records WHERE id <= ?", (record_id - self._keep_records,))
            counting = ("INSERT INTO counters (key, value) VALUES (?, 1)"
                        " ON CONFLICT (key) DO UPDATE SET value = value + 1")
            db.execute(counting, (f"games:{kind}",))
            db.executemany(counting, results)
            return record_id

        return self._write(add)

    def records(self, kind: str | None = None, limit: int = 50) -> list[tuple[int, str, dict[str, Any]]]:
        if kind is None:
            rows = self._read("SELECT id, kind, record FROM records ORDER BY id DESC LIMIT ?", (limit,))
        else:
            rows = self._read("SELECT id, kind, record FROM records WHERE kind = ? ORDER BY id DESC LIMIT ?",
                              (kind, limit))
        return [(row[0], row[1], json.loads(row[2])) for row in rows]

    def progress(self, key: str) -> dict[str, Any]:
        row = self._read("SELECT value FROM progress WHERE key = ?", (key,))
        return json.loads(row[0][0]) if row else {}

    def set_progress(self, key: str, value: dict[str, Any]) -> None:
        text = json.dumps(value, separators=(",", ":"))
        self._write(lambda db: db.execute(
            "INSERT INTO progress (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, text)))

    def add_score(self, mode: str, name: str, score: int) -> None:
        def add(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO scores (mode, name, score, created) VALUES (?, ?, ?, ?)",
                       (mode, name, score, time.time()))
            db.execute("DELETE FROM scores WHERE mode = ? AND id NOT IN (SELECT id FROM scores WHERE mode = ?"
                       " ORDER BY score DESC, id LIMIT ?)", (mode, mode, HIGH_SCORES_KEPT))

        self._write(add)

    def high_scores(self, mode: str, limit: int = 10) -> list[tuple[str, int]]:
        rows = self._read("SELECT name, score FROM scores WHERE mode = ? ORDER BY score DESC, id LIMIT ?",
                          (mode, limit))
        return [(row[0], row[1]) for row in rows]

    def statistics(self) -> dict[str, Any]:
        """``games``: finished games per kind; ``robots``: {name: {won, lost, drawn}};
        ``records``: records kept; ``storage``: where the data lives (or why only in memory)."""
        games: dict[str, int] = {}
        robots: dict[str, dict[str, int]] = {}
        for key, value in self._read("SELECT key, value FROM counters ORDER BY key", ()):
            what, _, rest = key.partition(":")
            if what == "games":
                games[rest] = value
            elif what == "robot":
                name, _, result = rest.rpartition(":")
                robots.setdefault(name, dict.fromkeys(ROBOT_RESULTS, 0))[result] = value
        kept = self._read("SELECT count(*) FROM records", ())[0][0]
        storage = f"in memory only: {self.memory_reason}" if self.in_memory else str(self.path)
        return {"games": games, "robots": robots, "records": kept, "storage": storage}

    # --------------------------------------------------------------------------- housekeeping

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------ internals

    def _open(self) -> sqlite3.Connection:
        """The file database; moved aside and made afresh only on positive evidence of damage,
        in memory when the disk refuses (read-only, full, locked, missing directory)."""
        try:
            return self._open_file()
        except Unusable as exc:
            if not self._move_aside(str(exc)):
                return self._memory(f"the database {self.path} is unusable ({exc}) and cannot be moved aside")
        except OSError as exc:
            return self._memory(f"the state directory {self.path.parent} cannot be used ({exc.strerror})")
        except sqlite3.Error as exc:
            readable = self._readable_copy()
            try:
                return self._memory(f"the database {self.path} cannot be written ({exc})", copy_from=readable)
            finally:
                if readable is not None:
                    readable.close()
        try:
            return self._open_file()
        except (Unusable, OSError, sqlite3.Error) as exc:
            return self._memory(f"a fresh database {self.path} cannot be made ({exc})")

    def _open_file(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = _connect(str(self.path))
        try:
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":  # e.g. a file system without shared memory: the rollback journal
                mode = db.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
            db.execute("PRAGMA synchronous = FULL")
            synchronous = db.execute("PRAGMA synchronous").fetchone()[0]
            if mode not in ("wal", "delete") or synchronous != 2:
                raise sqlite3.OperationalError(
                    f"cannot make writes durable (journal_mode={mode}, synchronous={synchronous})")
            check = db.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                raise Unusable("damaged: " + "; ".join(row[0] for row in check[:3]))
            if self._max_bytes is not None:
                page_size = db.execute("PRAGMA page_size").fetchone()[0]
                db.execute(f"PRAGMA max_page_count = {max(1, self._max_bytes // page_size)}")
            previous = migrate(db)
            if previous != SCHEMA_VERSION:
                log.info("database %s: schema %d -> %d", self.path, previous, SCHEMA_VERSION)
        except sqlite3.DatabaseError as exc:
            db.close()
            if _code(exc) in _DAMAGED:
                raise Unusable(str(exc)) from exc
            raise
        except BaseException:
            db.close()
            raise
        self.journal_mode = mode
        return db

    def _move_aside(self, reason: str) -> bool:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.unusable-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.unusable-{stamp}-{n}")
        try:
            self.path.rename(aside)
            for suffix in ("-wal", "-shm"):
                companion = self.path.with_name(self.path.name + suffix)
                if companion.exists():
                    companion.rename(aside.with_name(aside.name + suffix))
        except OSError as exc:
            log.error("cannot move %s aside: %s", self.path, exc)
            return False
        self._tell(f"the database {self.path} was unusable ({reason}); it was moved to {aside.name} "
                   f"and a fresh one started")
        return True

    def _memory(self, reason: str, copy_from: sqlite3.Connection | None = None) -> sqlite3.Connection:
        """Go on in memory, starting from a copy of ``copy_from`` when it can be read."""
        self.in_memory, self.journal_mode, self.memory_reason = True, "memory", reason
        self._tell(f"{reason}; play goes on, but nothing new is kept after a restart")
        memory = _connect(":memory:")
        if copy_from is not None:
            try:
                copy_from.backup(memory)
                migrate(memory)
                return memory
            except (sqlite3.Error, Unusable) as exc:
                log.error("cannot copy %s into memory: %s", self.path, exc)
                memory.close()
                memory = _connect(":memory:")
        migrate(memory)
        return memory

    def _readable_copy(self) -> sqlite3.Connection | None:
        """The file opened read-only, if it can be (to keep what it holds when it cannot be written).
        ``immutable=1`` reads a WAL database whose ``-shm`` cannot be made on a read-only disk."""
        uri = self.path.resolve().as_uri()
        for target in (f"{uri}?mode=ro", f"{uri}?immutable=1"):
            try:
                source = _connect(target, uri=True)
            except sqlite3.Error:
                continue
            try:
                if source.execute("PRAGMA quick_check").fetchall() == [("ok",)]:
                    return source
            except sqlite3.Error:
                pass
            source.close()
        return None

    def _write(self, change: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            try:
                return self._transaction(change)
            except sqlite3.DatabaseError as exc:
                failure = _STORAGE_FAILURES.get(_code(exc)) or _DAMAGED.get(_code(exc))
                if self.in_memory or failure is None:
                    raise
                failed = self._db
                self._db = self._memory(f"the database {self.path} failed: {failure} ({exc})", copy_from=failed)
                failed.close()
            return self._transaction(change)

    def _transaction(self, change: Callable[[sqlite3.Connection], Any]) -> Any:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            result = change(db)
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return result

    def _read(self, sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, parameters).fetchall()

    def _tell(self, message: str) -> None:
        log.error("%s", message)
        self._report(message)
