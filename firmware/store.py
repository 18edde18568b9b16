"""Everything that must survive a power cut, in one SQLite database (``ui.services.Store``).

Durability: the UI journals the game in progress (``engine.modes.save(mode)``) after every step and
shows the step only once :meth:`SqliteStore.save_current` has returned. Each write is one
transaction committed in WAL mode with ``synchronous=FULL``, so the WAL is synced to the card on
every commit: a power cut or a crash at any moment leaves either the previous step or the new one,
never a mixture (if the file system cannot do WAL, the rollback journal with ``synchronous=FULL``
gives the same guarantee, more slowly). Both settings are read back after they are set.

Failures are survived, not fatal, and as little as possible is lost:

- *Damage* (``quick_check`` fails, not a database, a newer schema, a file or its write-ahead log
  that cannot be read, the log's last steps then lost): the file is moved aside (renamed with a timestamp, never deleted); the fresh database starts from the
  last-known-good copy (``kiosk.db.good``, made with SQLite's backup API after each finished game
  and at each start on a healthy file), then every row still readable in the damaged file is
  salvaged into it, the tag registry first. The report says how many rows of each table came back.
  Where the file cannot be replaced (a read-only directory, where damage is found on a copy of
  the file as SQLite cannot open it there), play goes on in memory from what the heal would have
  made, the good copy and the salvage, so the enrolled tags and the players are there; the report
  says why, and that nothing new is kept.
- *An index that cannot be opened* (``kiosk.db-shm``, permissions 000 or a directory in its place):
  it is only the write-ahead log's index, so it is moved aside and SQLite makes it again from the
  log; play stays on disk. Where it cannot be moved, play goes on in memory and the report says why,
  and each retry of the disk (below) tries to move it again.
- *A missing table* (the file is fine, a table is gone) is made again, empty.
- *A disk that refuses writes* (read-only, full, locked, I/O error): play goes on in memory, from a
  copy of what could be read (a read-only WAL database is copied with its WAL to a temporary
  directory first, so the last steps are not lost); every :data:`RETRY_SECONDS` the store tries the
  disk again and, once it takes writes, puts the memory copy back on it. ``on_state`` is called
  whenever the store goes to memory or back (the runtime shows a badge to players).
- *Reaching max_bytes* prunes the oldest records before anything else is given up.
- *A value that cannot be read back* (a flipped bit inside the JSON; SQLite has no page checksums):
  :meth:`load_current` raises ValueError (the UI offers to discard the game), a bad record or
  progress row is skipped and reported. No read ever raises anything else.

Every such event goes to ``report`` (which the runtime shows to staff) and to the log.

Endings are atomic: ``with store.batch():`` makes every write inside it one transaction, so a
finished game's record, its statistics and the clearing of ``current`` land together or not at all.

The schema is versioned with ``PRAGMA user_version``: :data:`MIGRATIONS` lists the steps from an
empty database, and each runs in the same transaction as the version bump, so a crash during an
upgrade leaves the old version intact. The ``tile_tags`` table is the one ``hardware``'s
``SqliteTagStore`` uses for the tag registry (created there too if missing).

Records: ``add_record(kind, record)`` keeps a finished game (its JSON as the UI wrote it) and counts
it under ``kind``; if the record has ``"robots": {name: "won" | "lost" | "drawn"}``, each robot's
result is counted too. Only the newest ``keep_records`` records are kept; the counts stay.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TypeVar

from ui.services import STAT_DAYS, StoreUnreadable, games_per_day

from . import players
from .stored import decode_text, read_json, undecodable

log = logging.getLogger(__name__)
T = TypeVar("T")

DATABASE = "kiosk.db"
CURRENT = 1
"""The one row of ``current`` (there is at most one game in progress)."""
HIGH_SCORES_KEPT = 100
"""Entries kept per mode; the lowest drop out."""
ROBOT_RESULTS = ("won", "lost", "drawn")
GOOD_COPY = DATABASE + ".good"
"""The last-known-good copy beside the database."""
LOCK = DATABASE + ".lock"
"""The file whose lock lets one process at a time open, heal or copy the database."""
RETRY_SECONDS = 30.0
"""How often a store in memory tries the disk again."""

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


MIGRATIONS: tuple[Migration, ...] = (_schema_1, _schema_2, _schema_3, players.schema, players.club_schema,
                                     players.merge_stamps, players.tournament_index)
"""Step ``i`` takes the schema from version ``i`` to ``i + 1``. Append; never edit a shipped step."""
SCHEMA_VERSION = len(MIGRATIONS)

TABLES: dict[str, tuple[str, ...]] = {
    "tile_tags": ("CREATE TABLE tile_tags (uid TEXT PRIMARY KEY,"
                  " tile INTEGER NOT NULL UNIQUE CHECK (tile BETWEEN 1 AND 56))",),
    "progress": ("CREATE TABLE progress (key TEXT PRIMARY KEY, value TEXT NOT NULL)",),
    "counters": ("CREATE TABLE counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",),
    "scores": ("CREATE TABLE scores (id INTEGER PRIMARY KEY, mode TEXT NOT NULL, name TEXT NOT NULL,"
               " score INTEGER NOT NULL, created REAL NOT NULL)",
               "CREATE INDEX scores_by_mode ON scores (mode, score DESC, id)"),
    "records": ("CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,"
                " created REAL NOT NULL, record TEXT NOT NULL)",
                "CREATE INDEX records_by_kind ON records (kind, id)"),
    "current": ("CREATE TABLE current (id INTEGER PRIMARY KEY CHECK (id = 1), saved TEXT NOT NULL,"
                " updated REAL NOT NULL)",),
    **players.TABLES,
}
"""Each table of the current schema as the migrations leave it, in salvage order (the tag registry
first: rescanning 56 tiles is the worst loss; the players' tables are ``firmware.players``'s). Used
to make a missing table again, to heal a damaged file and to copy the store to memory and back."""

# SQLite's primary result codes (https://sqlite.org/rescode.html) that mean "the disk cannot take
# our writes" as opposed to "the file is damaged".
_STORAGE_FAILURES = {3: "permission denied", 5: "locked by another program", 8: "read-only",
                     10: "disk I/O error", 13: "full", 14: "cannot be opened"}
_DAMAGED = {11: "corrupt", 26: "not a database"}
_BUSY = 5


class Unusable(Exception):
    """The database file cannot be used as it is and must be moved aside."""


def migrate(db: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring ``db`` (autocommit mode) to ``len(migrations)``; returns the version it had."""
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    if version > len(migrations):
        raise Unusable(f"schema version {version} is newer than this firmware's {len(migrations)}")
    if version < 0:
        raise Unusable(f"schema version {version} is no version")
    for target in range(version + 1, len(migrations) + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            migrations[target - 1](db)
            db.execute(f"PRAGMA user_version = {target}")
            db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            _rollback(db)
            if _code(exc) in _STORAGE_FAILURES:
                raise
            # a step that cannot run on this file (its tables already there: the version in the
            # header is damaged, which SQLite's check does not see): damage, never a disk to retry
            raise Unusable(f"schema version {version} does not match its tables ({exc})") from exc
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


def _connect(target: str, uri: bool = False, timeout: float = 5.0) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, so DDL and pragmas are transactional
    # exactly where we say; check_same_thread=False: all use is serialised by the store's lock.
    db = sqlite3.connect(target, uri=uri, isolation_level=None, check_same_thread=False, timeout=timeout)
    db.text_factory = decode_text
    return db


def ensure_tables(db: sqlite3.Connection) -> list[str]:
    """Make again (empty) any table of :data:`TABLES` that is missing; returns their names."""
    present = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = [name for name in TABLES if name not in present]
    if missing:
        db.execute("BEGIN IMMEDIATE")
        try:
            for name in missing:
                for statement in TABLES[name]:
                    db.execute(statement.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
    return missing


def misshapen_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of :data:`TABLES` whose columns are not those the schema gives them (damage to the
    schema's text, a hand edit): every write to them would fail, so the file is not usable as is."""
    return [name for name, columns in _columns().items()
            if [row[1] for row in db.execute(f"PRAGMA table_info({name})")] not in ([], columns)]


@functools.cache
def _columns() -> dict[str, list[str]]:
    """Each table's column names, as :data:`TABLES` makes them."""
    db = sqlite3.connect(":memory:")
    try:
        for statements in TABLES.values():
            db.execute(statements[0])
        return {name: [row[1] for row in db.execute(f"PRAGMA table_info({name})")] for name in TABLES}
    finally:
        db.close()


@dataclass
class Copied:
    """What :func:`copy_rows` copied: the rows per table, and the tables it could not read to the end."""

    rows: dict[str, int] = field(default_factory=dict)
    partial: set[str] = field(default_factory=set)


def copy_rows(source: sqlite3.Connection, target: sqlite3.Connection, replace_all: bool = False) -> Copied:
    """Copy every row of :data:`TABLES` that ``source`` can still give into ``target`` (replacing
    rows with the same key unless visibly damaged, or all of ``target``'s with ``replace_all``),
    table by table in salvage order, each as far as it can be read; one transaction. For salvage:
    nothing in ``source`` is trusted."""
    copied = Copied()
    target.execute("BEGIN IMMEDIATE")
    try:
        for table in TABLES:
            if replace_all:
                target.execute(f"DELETE FROM {table}")
            columns = [row[1] for row in target.execute(f"PRAGMA table_info({table})")]
            copied.rows[table] = 0
            try:
                cursor = source.execute(f"SELECT * FROM {table}")
                names = [d[0] for d in cursor.description]
            except sqlite3.Error:
                copied.partial.add(table)
                continue
            keep = [i for i, name in enumerate(names) if name in columns]
            into = f"INTO {table} ({', '.join(names[i] for i in keep)}) VALUES ({', '.join('?' for _ in keep)})"
            while True:
                try:
                    row = cursor.fetchone()
                except sqlite3.Error:
                    copied.partial.add(table)
                    break  # the rest of this table is past the damage
                if row is None:
                    break
                values = [row[i] for i in keep]
                # a row with bytes that are not text is damaged: it never replaces the target's
                # row of the same key, but is kept where there is none
                damaged = any(isinstance(value, str) and undecodable(value) for value in values)
                try:
                    target.execute(f"INSERT OR {'IGNORE' if damaged else 'REPLACE'} {into}", values)
                    copied.rows[table] += 1
                except sqlite3.IntegrityError:
                    pass  # a damaged row that breaks a rule of the table
        target.execute("COMMIT")
    except BaseException:
        _rollback(target)
        raise
    return copied


def _unreadable(path: Path) -> OSError | None:
    """Why the file ``path`` cannot be read to its end (permissions, an I/O error), None when it can
    or is not there. SQLite says only that it cannot open it, as it says of a directory it cannot
    write: this tells damage to heal (from the good copy) from a disk that refuses writes."""
    try:
        with open(path, "rb") as file:
            while file.read(1 << 20):
                pass
    except FileNotFoundError:
        return None
    except OSError as exc:
        return exc
    return None


def _restored(restored: dict[str, int], salvaged: dict[str, int]) -> str:
    """What a heal restored from the good copy and salvaged from the damaged file, for the report."""
    from_good = ", ".join(f"{table} {count}" for table, count in restored.items() if count) or "nothing"
    kept = ", ".join(f"{table} {count}" for table, count in salvaged.items() if count) or "nothing"
    return f"restored from the last-known-good copy: {from_good}; salvaged from the damaged file: {kept}"


def _progress_value(text: Any) -> dict[str, Any]:
    """A progress row's stored value; ValueError when it is not a JSON object (:func:`read_json`)."""
    value = read_json(text)
    if not isinstance(value, dict):
        raise ValueError(f"it is a JSON {type(value).__name__}, not an object")
    return value


def _wal(path: Path) -> Path:
    """The write-ahead log beside the database ``path``."""
    return path.with_name(path.name + "-wal")


def _shm(path: Path) -> Path:
    """The index of the write-ahead log (SQLite's shared memory) beside the database ``path``."""
    return path.with_name(path.name + "-shm")


def _unusable_index(index: Path) -> str | None:
    """Why SQLite cannot use the index ``index`` (:func:`_shm`), None when it can or it is not there."""
    try:
        if not index.is_file():
            return None if not index.exists() else "is a directory, not a file" if index.is_dir() else "is not a file"
        os.close(os.open(index, os.O_RDWR))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be opened ({exc.strerror or exc})"
    return None


def _aside(path: Path) -> Path:
    """A name beside ``path`` to move it to, not taken: ``<name>.unusable-<time>[-n]``."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    aside = path.with_name(f"{path.name}.unusable-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.unusable-{stamp}-{n}")
    return aside


def _why_unreadable(path: Path) -> str | None:
    """Why the database ``path`` or its write-ahead log cannot be read (:func:`_unreadable`), None
    when both can. Either is damage: SQLite opens neither without the other, so a log that cannot
    be read kept the kiosk from every row of a readable file as surely as the file itself."""
    problem = _unreadable(path)
    if problem is not None:
        return f"it cannot be read: {problem.strerror or problem}"
    problem = _unreadable(_wal(path))
    if problem is not None:
        return (f"its write-ahead log {_wal(path).name} cannot be read ({problem.strerror or problem}): "
                f"what was committed only there is lost")
    return None


@contextlib.contextmanager
def exclusive(directory: Path) -> Iterator[None]:
    """Hold the lock of ``directory``'s database (:data:`LOCK`) while opening, healing or making
    the good copy. Two kiosks started at once on one directory (one by hand beside the unit)
    healed the same damage together: each moved aside the database the other had just made and
    restored, kept writing to a file set aside, and copied an empty database over the good copy.
    Without a lock file (a read-only or unusable directory) nothing there can be healed anyway."""
    try:
        handle = open(directory / LOCK, "ab")
    except OSError:
        yield
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)  # released when closed, or when the process dies
        except OSError as exc:  # a file system without locks: as before there was one, never a failed start
            log.warning("cannot lock %s: %s", handle.name, exc)
        yield


COPY_PLACES: tuple[str | None, ...] = (None, "/dev/shm")
"""Where :func:`readable_copy` copies a database, in turn: the system's temporary directory, else
shared memory. On Raspberry Pi OS /tmp (the unit's PrivateTmp too) is on the card, so a full card,
or one the kernel remounted read-only after errors, has no room for the copy there either."""


@contextlib.contextmanager
def readable_copy(path: Path) -> Iterator[sqlite3.Connection | None]:
    """``path`` with its WAL (if that can be read), copied to a temporary directory (:data:`COPY_PLACES`) and opened
    there (None if nothing can be read). Reading a copy needs no write access to ``path``'s
    directory (SQLite must create a ``-shm`` to read a WAL database, and ``immutable=1`` would
    ignore the WAL, i.e. the last steps)."""
    source: sqlite3.Connection | None = None
    with contextlib.ExitStack() as cleanup:
        for place in COPY_PLACES:
            try:
                directory = cleanup.enter_context(tempfile.TemporaryDirectory(
                    prefix="tantrix-kiosk-", dir=place, ignore_cleanup_errors=True))
                copy = Path(directory) / path.name
                shutil.copyfile(path, copy)
                # a directory there, or a log that cannot be read, would keep every row of the file
                # itself from salvage: the file is read as its last checkpoint left it
                if _wal(path).is_file() and _unreadable(_wal(path)) is None:
                    shutil.copyfile(_wal(path), _wal(copy))
                source = _connect(str(copy))
                break
            except (OSError, sqlite3.Error) as exc:
                log.info("cannot copy %s to read it (%s): %s", path, place or "temporary directory", exc)
        try:
            yield source
        finally:
            if source is not None:
                source.close()


def open_read_only(directory: str | Path) -> sqlite3.Connection:
    """The kiosk's database opened by another process (the web page) that must never change it:
    SQLite refuses every write on this connection, and WAL lets it read while the kiosk writes.
    Raises sqlite3.OperationalError while there is no database yet."""
    uri = (Path(directory) / DATABASE).resolve().as_uri() + "?mode=ro"
    return _connect(uri, uri=True)


class SqliteStore:
    """The kiosk's :class:`ui.services.Store`. Thread-safe; every method commits before returning
    (or, inside :meth:`batch`, with the batch).

    ``directory`` holds ``kiosk.db``; ``max_bytes`` bounds the file (reaching it prunes the oldest
    records, and counts as a full disk when nothing is left to prune); ``keep_records`` bounds the
    finished games kept; ``report`` receives one line per storage problem (the runtime shows them to
    staff); ``busy_seconds`` is how long a write waits for another program's lock.
    """

    def __init__(self, directory: str | Path, *, max_bytes: int | None = None, keep_records: int = 2000,
                 report: Callable[[str], None] | None = None, busy_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(directory) / DATABASE
        self.good_path = self.path.with_name(GOOD_COPY)
        self._max_bytes = max_bytes
        self._keep_records = keep_records
        self._report = report or (lambda message: None)
        self._busy = busy_seconds
        self._clock = clock
        self._lock = threading.RLock()
        self._batch: list[Callable[[sqlite3.Connection], Any]] | None = None
        self._backup_after_batch = False
        self._backup_thread: threading.Thread | None = None
        self._backup_lock = threading.Lock()
        self._backup_asked = threading.Lock()  # guards the two flags below
        self._backup_running = False
        self._backup_again = False
        self._retry_at: float | None = None
        """When to try the disk again (None: never, e.g. nothing from the disk is in memory)."""
        self._seeded = False
        """Whether the memory copy holds all the disk holds (read when play went to memory, or a
        file the store made there since)."""
        self._exporting = False
        """Whether a read that fails raises (:meth:`exporting`) instead of giving nothing."""
        self._damaged: dict[str, Any] = {}
        """The damaged value of each progress key last told (the settings' poll and the restart watch
        read theirs about once a second)."""
        self.on_state: Callable[[], None] = lambda: None
        """Called (under the store's lock) when the store goes to memory or back to the disk."""
        self.journal_mode = "memory"
        """``wal`` (normally), ``delete`` (rollback journal) or ``memory`` (nothing is kept)."""
        self.in_memory = False
        self.memory_reason = ""
        """Why the store is in memory only (empty while it writes to disk)."""
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)  # for the lock (_open says why it cannot be)
        with exclusive(self.path.parent):
            self._db = self._open()
        if not self.in_memory:
            self.backup()

    # ----------------------------------------------------------------------- the Store protocol

    def save_current(self, saved: dict[str, Any]) -> None:
        text = json.dumps(saved, separators=(",", ":"))
        self._write(lambda db: db.execute(
            "INSERT INTO current (id, saved, updated) VALUES (?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET saved = excluded.saved, updated = excluded.updated",
            (CURRENT, text, time.time())))

    def load_current(self) -> dict[str, Any] | None:
        """The saved game; ValueError when it is there but cannot be read back (offer to discard)."""
        rows = self._read_or_damage("SELECT saved FROM current WHERE id = ?", (CURRENT,), "the saved game")
        if not rows:
            return None
        saved = read_json(rows[0][0])
        if not isinstance(saved, dict):
            raise ValueError("the saved game is damaged (it is not a JSON object)")
        return saved

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

        record_id = self._write(add)
        if self._batch is None:
            self.backup_soon()  # a finished game: a good moment for the last-known-good copy
        else:
            self._backup_after_batch = True
        return int(record_id or 0)

    def records(self, kind: str | None = None, limit: int = 50) -> list[tuple[int, str, dict[str, Any]]]:
        if kind is None:
            rows = self._read("SELECT id, kind, record FROM records ORDER BY id DESC LIMIT ?", (limit,))
        else:
            rows = self._read("SELECT id, kind, record FROM records WHERE kind = ? ORDER BY id DESC LIMIT ?",
                              (kind, limit))
        found = []
        for number, what, text in rows:
            try:
                record = read_json(text)
            except ValueError as exc:
                self.tell(f"record {number} in {self.path} cannot be read back ({exc}); it is skipped")
                continue
            if isinstance(record, dict) and isinstance(what, str) and isinstance(number, int):
                found.append((number, what, record))
        return found

    def progress(self, key: str) -> dict[str, Any]:
        row = self._read("SELECT value FROM progress WHERE key = ?", (key,))
        if not row:
            return {}
        try:
            return _progress_value(row[0][0])
        except ValueError as exc:
            if self._damaged.get(key) != row[0][0]:  # keys read every second are told once, not every second
                self._damaged[key] = row[0][0]
                self.tell(f"the progress {key!r} in {self.path} cannot be read back ({exc}); it starts afresh")
            return {}

    def saved_progress(self, key: str) -> dict[str, Any] | None:
        """As :meth:`progress`, telling none from damage: None when there is no row; ValueError for
        a row that cannot be read back as an object, or a read that fails (it is not told: the
        caller says what it makes of the damage)."""
        rows = self._read_or_damage("SELECT value FROM progress WHERE key = ?", (key,), "it")
        return _progress_value(rows[0][0]) if rows else None

    def _read_or_damage(self, sql: str, params: tuple[Any, ...], what: str) -> list[Any]:
        """Rows of a read whose failure the caller must hear as damage (ValueError naming
        ``what``), not as nothing saved; a closed store stays the caller's mistake."""
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.ProgrammingError:
                raise
            except sqlite3.Error as exc:
                raise ValueError(f"{what} cannot be read: {exc}") from None

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
        return [(row[0], row[1]) for row in rows if isinstance(row[0], str) and isinstance(row[1], int)]

    def statistics(self) -> dict[str, Any]:
        """``games``: finished games per kind; ``robots``: {name: {won, lost, drawn}}; ``days``: the
        games of the last weeks per day and kind (from the records kept, see
        :func:`ui.services.games_per_day`); ``newest``: when the newest record was kept (None:
        none); ``records``: records kept; ``storage``: where the data lives (or why only in memory)."""
        games: dict[str, int] = {}
        robots: dict[str, dict[str, int]] = {}
        for key, value in self._read("SELECT key, value FROM counters ORDER BY key", ()):
            if not isinstance(key, str) or not isinstance(value, int):
                continue
            what, _, rest = key.partition(":")
            if what == "games":
                games[rest] = value
            elif what == "robot":
                name, _, result = rest.rpartition(":")
                if result in ROBOT_RESULTS:
                    robots.setdefault(name, dict.fromkeys(ROBOT_RESULTS, 0))[result] = value
        kept = self._read("SELECT count(*), max(created) FROM records", ())
        recent = self._read("SELECT created, kind FROM records WHERE created >= ?",
                            (time.time() - (STAT_DAYS + 1) * 86400,))
        days = games_per_day((when, kind) for when, kind in recent
                             if isinstance(when, (int, float)) and isinstance(kind, str))
        storage = f"in memory only: {self.memory_reason}" if self.in_memory else str(self.path)
        newest = kept[0][1] if kept and isinstance(kept[0][1], (int, float)) else None
        return {"games": games, "robots": robots, "days": days, "newest": newest, "records": kept[0][0] if kept else 0,
                "storage": storage}

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Every write inside is one transaction: all of them are kept, or none (a power cut
        between a finished game's record and the clearing of ``current`` cannot count it twice)."""
        with self._lock:
            if self._batch is not None:  # nested: part of the outer batch
                yield
                return
            self._retry_disk()
            self._batch, self._backup_after_batch = [], False
            try:
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                except sqlite3.DatabaseError as exc:
                    self._resume_batch(exc)
                try:
                    yield
                except BaseException:
                    _rollback(self._db)
                    raise
                changes = self._batch
            finally:
                self._batch = None
            try:
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                _rollback(self._db)
                self._recover(exc)
                self._run(changes)
            if self._backup_after_batch:
                self.backup_soon()

    @contextlib.contextmanager
    def exporting(self) -> Iterator[None]:
        """Every read inside gives all it asked for or raises StoreUnreadable (told too): an export
        read through reads that give nothing on a failure (a page that cannot be read, a file
        gone bad) was written short, as a whole file. The store's lock is held throughout, so
        no other thread's read raises meanwhile."""
        with self._lock:
            if self._exporting:  # nested: part of the outer export
                yield
                return
            self._exporting = True
            try:
                yield
            finally:
                self._exporting = False

    # ------------------------------------------------------------------------ the tag registry

    def tags(self) -> dict[str, int]:
        """The enrolled tags (uid -> tile) as the store holds them (in memory too, so a reader
        handed an in-memory registry still knows every enrolled tile)."""
        rows = self._read("SELECT uid, tile FROM tile_tags", ())
        return {uid: tile for uid, tile in rows
                if isinstance(uid, str) and isinstance(tile, int) and 1 <= tile <= 56}

    # ------------------------------------------------- for modules with tables here (players)

    def query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read."""
        return self._read(sql, parameters)

    def transaction(self, change: Callable[[sqlite3.Connection], T]) -> T:
        """``change(db)`` in one committed transaction, with the store's handling of failing disks."""
        result: T = self._write(change)
        return result

    # --------------------------------------------------------------------------- housekeeping

    def backup(self) -> bool:
        """Make the last-known-good copy now with SQLite's backup API (never while in memory, never
        from a file that fails its check); it replaces the old copy only once complete and synced."""
        with self._backup_lock, exclusive(self.path.parent):
            if self.in_memory:
                return False
            temporary = self.good_path.with_name(self.good_path.name + ".new")
            try:
                source = _connect(str(self.path), timeout=self._busy)
                try:
                    if source.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
                        return False
                    target = _connect(str(temporary))
                    try:
                        source.backup(target)
                    finally:
                        target.close()
                finally:
                    source.close()
                with open(temporary, "rb") as written:
                    os.fsync(written.fileno())
                os.replace(temporary, self.good_path)
                return True
            except (OSError, sqlite3.Error) as exc:
                log.warning("cannot make the last-known-good copy %s: %s", self.good_path, exc)
                with contextlib.suppress(OSError):
                    temporary.unlink()
                return False

    def backup_soon(self) -> None:
        """:meth:`backup` on a thread of its own (the UI does not wait for it). Asked while one is
        being made, it makes one more afterwards: games ending back to back all reach the copy."""
        if self.in_memory:
            return
        with self._backup_asked:
            if self._backup_running:
                self._backup_again = True
                return
            self._backup_running = True
        self._backup_thread = threading.Thread(target=self._backups, name="store-backup", daemon=True)
        self._backup_thread.start()

    def _backups(self) -> None:
        while True:
            self.backup()
            with self._backup_asked:
                if not self._backup_again:
                    self._backup_running = False
                    return
                self._backup_again = False

    def wait_for_backup(self) -> None:
        thread = self._backup_thread
        if thread is not None:
            thread.join()

    def close(self) -> None:
        self.wait_for_backup()
        with self._lock:
            self._db.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------ internals

    def _open(self) -> sqlite3.Connection:
        """The file database; moved aside, made afresh and healed only on positive evidence of
        damage (a file or a write-ahead log that cannot be read is: nothing, or not all, of it could
        go to memory, where the good copy can give what it holds); in memory when the disk refuses (read-only, full, locked, missing
        directory). An index that cannot be used is made again first (:meth:`_heal_index`)."""
        index = self._heal_index()
        try:
            return self._open_file(first=True)
        except Unusable as exc:
            return self._heal(str(exc))
        except OSError as exc:
            return self._memory(f"the state directory {self.path.parent} cannot be used ({exc.strerror})")
        except sqlite3.Error as exc:
            unreadable = _why_unreadable(self.path)
            if unreadable is not None:  # nothing (or not all) to keep in memory: heal from the good copy
                return self._heal(unreadable)
            with readable_copy(self.path) as readable:
                # a file another program holds locked may be copied mid-write: no evidence either way
                damage = None if _code(exc) == _BUSY else self._damage_in_copy(readable)
                if damage is None:
                    return self._memory(index or f"the database {self.path} cannot be written ({exc})",
                                        copy_from=readable)
            return self._heal(damage)

    def _heal_index(self) -> str | None:
        """Move aside an index of the write-ahead log that SQLite cannot open (:func:`_unusable_index`:
        permissions 000, a directory in its place), so that SQLite makes it again from the log: it is
        only an index, and nothing in it is lost. Left there, it kept SQLite from opening the
        database, and play went to memory at every start. Why the database cannot be opened when
        the index cannot be moved (a directory that cannot be written), else None."""
        index = _shm(self.path)
        why = _unusable_index(index)
        if why is None:
            return None
        aside = _aside(index)
        try:
            index.rename(aside)
        except OSError as exc:
            return (f"the database {self.path} cannot be opened: its index {index.name} {why}, and it cannot "
                    f"be moved aside ({exc.strerror or exc})")
        self.tell(f"the index {index.name} beside {self.path} {why}: it was moved to {aside.name}, and SQLite "
                  f"makes it again from the write-ahead log (nothing is lost); play goes on on disk")
        return None

    def _open_file(self, first: bool = False) -> sqlite3.Connection:
        """The file database, checked (:meth:`_judge`, with ``first`` at the kiosk's start) and
        migrated."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for where in (self.path, _wal(self.path)):
            if where.is_dir():  # SQLite cannot open it, nor ever will: damage (to move aside), not a disk to retry
                raise Unusable(f"{where.name} is a directory, not a file")
        db = _connect(str(self.path), timeout=self._busy)
        try:
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":  # e.g. a file system without shared memory: the rollback journal
                mode = db.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
            db.execute("PRAGMA synchronous = FULL")
            synchronous = db.execute("PRAGMA synchronous").fetchone()[0]
            if mode not in ("wal", "delete") or synchronous != 2:
                raise sqlite3.OperationalError(
                    f"cannot make writes durable (journal_mode={mode}, synchronous={synchronous})")
            # judged before the schema is made: made first, a power cut before the heal left an
            # empty database with the whole schema, which the next start took for a healthy one
            self._judge(db, first)
            if self._max_bytes is not None:
                page_size = db.execute("PRAGMA page_size").fetchone()[0]
                db.execute(f"PRAGMA max_page_count = {max(1, self._max_bytes // page_size)}")
            previous = migrate(db)
            if previous != SCHEMA_VERSION:
                log.info("database %s: schema %d -> %d", self.path, previous, SCHEMA_VERSION)
            misshapen = misshapen_tables(db)
            if misshapen:
                raise Unusable(f"its table(s) {', '.join(misshapen)} lost their columns")
            missing = ensure_tables(db)
            if missing:
                self.tell(f"the database {self.path} had lost its table(s) {', '.join(missing)}; "
                           f"made again, empty")
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

    def _judge(self, db: sqlite3.Connection, first: bool) -> None:
        """Unusable for a database that fails ``quick_check`` or, with ``first`` (the kiosk's
        start), has no schema beside a last-known-good copy: the database was there before (the
        copy is made from it), so an empty or missing file is damage (a power cut during a file
        system repair, a card swapped), never a fresh start that would also replace the good copy
        with an empty one."""
        check = db.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise Unusable("damaged: " + "; ".join(str(row[0]) for row in check[:3]))
        if first and db.execute("PRAGMA user_version").fetchone()[0] == 0 and self.good_path.exists():
            raise Unusable(f"it was empty or missing beside the last-known-good copy {self.good_path.name}")

    def _damage_in_copy(self, readable: sqlite3.Connection | None) -> str | None:
        """What :meth:`_judge` finds in ``readable``, the copy of a file SQLite cannot open for
        writing (a read-only directory keeps it from even checking one), a file not there judged as
        an empty one; None where it finds nothing, or there is no copy to judge. So damage is found
        (and the good copy used, in memory if need be) in a directory that cannot be written too:
        an empty or missing file there sent play to memory with nothing in it."""
        try:
            if readable is not None:
                self._judge(readable, first=True)
            elif not self.path.exists():
                with contextlib.closing(_connect(":memory:")) as empty:
                    self._judge(empty, first=True)
        except Unusable as exc:
            return str(exc)
        except sqlite3.DatabaseError as exc:
            if _code(exc) in _DAMAGED:
                return str(exc)
        return None

    def _heal(self, reason: str) -> sqlite3.Connection:
        """A damaged file: a new database is made beside it (:meth:`_rebuild`) from the
        last-known-good copy, then from every row the damaged file still gives (it is newer than
        the copy); only once that is complete is the damaged file set aside and the new one put in
        its place. Made in place, a power cut between the new file's schema and its rows left an
        empty database that the next start took for a healthy one, and whose good copy it then
        replaced with an empty one: every game only in the file set aside."""
        healing = self.path.with_name(self.path.name + ".healing")
        with readable_copy(self.path) as damaged:
            try:
                restored, salvaged = self._rebuild(healing, damaged)
            except (OSError, sqlite3.Error) as exc:
                return self._memory(f"the database {self.path} is unusable ({reason}) and cannot be replaced: a new "
                                    f"one cannot be made in {self.path.parent} ({exc})", copy_from=damaged,
                                    restore=True)
            aside = self._move_aside()
            if aside is None:
                return self._memory(f"the database {self.path} is unusable ({reason}) and cannot be replaced: it "
                                    f"cannot be moved aside", copy_from=damaged, restore=True)
        try:
            os.replace(healing, self.path)
            db = self._open_file()
        except (Unusable, OSError, sqlite3.Error) as exc:
            return self._memory(f"a fresh database {self.path} cannot be made ({exc})")
        self.tell(f"the database {self.path} was unusable ({reason}); it was moved to {aside.name}; "
                   f"{_restored(restored, salvaged)}")
        return db

    def _rebuild(self, healing: Path, damaged: sqlite3.Connection | None) -> tuple[dict[str, int], dict[str, int]]:
        """Make ``healing`` afresh (what a heal cut short left there goes): the schema, then the
        rows :meth:`_restore` gives; closed, complete, with no journal beside it, so that it can be
        renamed. The rows restored and salvaged per table."""
        for leftover in (healing, _wal(healing), healing.with_name(healing.name + "-journal")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
        db = _connect(str(healing), timeout=self._busy)
        try:
            db.execute("PRAGMA journal_mode = DELETE")  # each commit synced, and nothing left beside it
            db.execute("PRAGMA synchronous = FULL")
            migrate(db)
            return self._restore(db, damaged)
        finally:
            db.close()

    def _restore(self, target: sqlite3.Connection, damaged: sqlite3.Connection | None) -> tuple[dict[str, int], dict[str, int]]:
        """Into ``target`` (the schema, no rows): the rows of the last-known-good copy, then every
        row ``damaged`` still gives (it is newer than the copy). The rows restored and salvaged per
        table."""
        restored: dict[str, int] = {}
        if self.good_path.exists():
            try:
                # immutable: nothing changes the copy while it is read (a backup replaces it whole,
                # under the store's lock), and SQLite then wants no -shm beside it, which a
                # read-only directory refuses
                good = _connect(self.good_path.resolve().as_uri() + "?mode=ro&immutable=1", uri=True)
                try:
                    if good.execute("PRAGMA quick_check").fetchall() == [("ok",)]:
                        restored = copy_rows(good, target).rows
                finally:
                    good.close()
            except sqlite3.Error as exc:
                log.error("the last-known-good copy %s cannot be read: %s", self.good_path, exc)
        salvaged = copy_rows(damaged, target).rows if damaged is not None else {}
        return restored, salvaged

    def _move_aside(self) -> Path | None:
        aside = _aside(self.path)
        try:
            self.path.rename(aside)
            for suffix in ("-wal", "-shm"):
                companion = self.path.with_name(self.path.name + suffix)
                if companion.exists():
                    companion.rename(aside.with_name(aside.name + suffix))
        except OSError as exc:
            log.error("cannot move %s aside: %s", self.path, exc)
            return None
        return aside

    def _memory(self, reason: str, copy_from: sqlite3.Connection | None = None, *,
                restore: bool = False) -> sqlite3.Connection:
        """Go on in memory, starting from a copy of ``copy_from`` when it can be read; with
        ``restore`` (a damaged file that cannot be replaced: ``copy_from`` is what it still gives),
        from what a heal would have made (:meth:`_restore`): from nothing, the kiosk knew none of
        its enrolled tags (it could not read a real tile) and none of its players. The disk is
        tried again later only if the memory copy holds all the disk held (every table of an
        undamaged file read to its end) or there is no file, since going back replaces the disk's
        tables with the memory's; a damaged file is left to the next start's heal."""
        memory = _connect(":memory:")
        migrate(memory)
        seeded = False
        try:
            if restore:
                reason = f"{reason}; in memory, {_restored(*self._restore(memory, copy_from))}"
            elif copy_from is not None:
                copied = copy_rows(copy_from, memory)
                seeded = not copied.partial
                if copied.partial:
                    log.error("cannot read %s of %s into memory: the disk is left as it is",
                              ", ".join(sorted(copied.partial)), self.path)
        except sqlite3.Error as exc:
            log.error("cannot copy %s into memory: %s", self.path, exc)
        self.in_memory, self.journal_mode, self.memory_reason = True, "memory", reason
        self.tell(f"{reason}; play goes on, but nothing new is kept after a restart")
        self._retry_at = self._clock() + RETRY_SECONDS if seeded or not self.path.exists() else None
        self._seeded = seeded
        self.on_state()
        return memory

    def _retry_disk(self) -> None:
        """In memory for a failing disk: every RETRY_SECONDS, try the disk again and, once it
        takes writes, put everything from memory back on it. An index that cannot be used is moved
        aside first, as at the start (:meth:`_heal_index`): one that could not be moved then (a
        directory that could not be written) kept the kiosk in memory after the directory was
        fixed, until a restart."""
        if not self.in_memory or self._retry_at is None or self._clock() < self._retry_at:
            return
        self._retry_at = self._clock() + RETRY_SECONDS
        if not self._seeded and self._holds_schema():
            # there was none when play went to memory (a directory not there yet, a drive mounted
            # late): going back would replace its tables with the memory's, which never read them
            self._retry_at = None
            self.tell(f"a database appeared at {self.path} while play went on in memory: it is left as it is "
                      f"(restart the kiosk to use it)")
            return
        with exclusive(self.path.parent):  # as at the start: an index left in the way kept the disk shut for good
            still = self._heal_index()
            if still is not None:
                log.info("%s", still)
                return
            try:
                db = self._open_file()
            except (Unusable, OSError, sqlite3.Error) as exc:
                log.info("the database %s still cannot be used: %s", self.path, exc)
                return
        self._seeded = True  # what the disk holds now is this file, made or checked just now
        try:
            copy_rows(self._db, db, replace_all=True)
        except sqlite3.Error as exc:
            db.close()
            log.info("the database %s still cannot take writes: %s", self.path, exc)
            return
        memory, self._db = self._db, db
        memory.close()
        self.in_memory, self.memory_reason, self._retry_at = False, "", None
        self.tell(f"the database {self.path} takes writes again; games are kept again")
        self.on_state()

    def _holds_schema(self) -> bool:
        """Whether the file holds a database with the kiosk's schema (any version)."""
        try:
            probe = _connect(self.path.resolve().as_uri() + "?mode=ro", uri=True)
            try:
                return int(probe.execute("PRAGMA user_version").fetchone()[0]) > 0
            finally:
                probe.close()
        except sqlite3.Error:
            return False

    def _write(self, change: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            if self._batch is not None:
                self._batch.append(change)
                try:
                    return change(self._db)
                except sqlite3.DatabaseError as exc:
                    if _code(exc) not in _STORAGE_FAILURES and _code(exc) not in _DAMAGED:
                        raise
                    return self._resume_batch(exc)
            self._retry_disk()
            return self._run([change])

    def _resume_batch(self, exc: sqlite3.DatabaseError) -> Any:
        """A write of the open batch failed: recover at once (prune, or go on in memory) and make
        the batch's writes so far again there in a new transaction, the failed one last (its
        result returned). So the batch carries on with real results, such as the number of the
        record a finished game's rating refers to, never with none."""
        assert self._batch is not None
        while True:
            _rollback(self._db)
            self._recover(exc)  # re-raises what is not a storage failure
            try:
                self._db.execute("BEGIN IMMEDIATE")
                result = None
                for change in self._batch:
                    result = change(self._db)
                return result
            except sqlite3.DatabaseError as again:
                exc = again

    def _run(self, changes: list[Callable[[sqlite3.Connection], Any]]) -> Any:
        """``changes`` in one transaction (the last one's result); on a storage failure, prune or
        go to memory, and apply them there."""
        while True:
            try:
                return self._transaction(changes)
            except sqlite3.DatabaseError as exc:
                self._recover(exc)

    def _recover(self, exc: sqlite3.DatabaseError) -> None:
        """After a failed write: prune old records if the database is full, else go on in memory;
        re-raise what is not a storage problem (or one in memory already)."""
        failure = _STORAGE_FAILURES.get(_code(exc)) or _DAMAGED.get(_code(exc))
        if self.in_memory or failure is None:
            raise exc
        if _code(exc) == 13 and self._prune():
            return
        failed = self._db
        self._db = self._memory(f"the database {self.path} failed: {failure} ({exc})", copy_from=failed)
        failed.close()

    def _prune(self) -> bool:
        """Drop the oldest quarter of the records (the counters keep counting) to make room."""
        try:
            kept = self._db.execute("SELECT count(*) FROM records").fetchone()[0]
            if not kept:
                return False
            dropped = max(1, kept // 4)
            self._transaction([lambda db: db.execute(
                "DELETE FROM records WHERE id IN (SELECT id FROM records ORDER BY id LIMIT ?)", (dropped,))])
        except sqlite3.Error as exc:
            log.error("cannot prune the records of %s: %s", self.path, exc)
            return False
        self.tell(f"the database {self.path} reached its size limit (storage.max_mb): the {dropped} oldest "
                   f"finished games were dropped (the statistics keep counting them)")
        return True

    def _transaction(self, changes: list[Callable[[sqlite3.Connection], Any]]) -> Any:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            result = None
            for change in changes:
                result = change(db)
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return result

    def _read(self, sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, parameters).fetchall()
            except sqlite3.ProgrammingError:
                raise
            except sqlite3.Error as exc:
                if self._exporting:
                    self.tell(f"the database {self.path} cannot be read ({exc}); the export is not written")
                    raise StoreUnreadable(f"the database {self.path} cannot be read ({exc})") from exc
                self.tell(f"the database {self.path} cannot be read ({exc}); nothing shown from it")
                return []

    def tell(self, message: str) -> None:
        """Damage found and worked around: logged, and shown to staff (the start-up report)."""
        log.error("%s", message)
        self._report(message)
