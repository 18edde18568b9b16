"""Which tag is in which tile: tag UID -> tile number 1..56, persisted, learnt by enrolment.

The registry keeps the whole mapping in memory (lookups from the reader thread are dict reads)
and writes every change through to a small ``TagStore``: ``SqliteTagStore`` (give it the
firmware's sqlite3 connection, or a path) or ``MemoryTagStore``. A UID enrolled twice, or a tile
given a second UID, is refused with a ``RegistryError`` saying which tile already has it.

Enrolment, the staff flow that teaches the registry a box of tiles::

    enrolment = Enrolment(registry)           # tiles 1..56 in order (or any order given)
    enrolment.expected                        # 1: "place tile 1 on the reader"
    enrolment.scan(event.uid)                 # on UnknownTag/TagRead: enrols, returns the tile
    enrolment.skip()                          # a tile missing from the box
"""

from __future__ import annotations

import os
import sqlite3
import string
import threading
from typing import Iterable, Iterator, Protocol

TILES = range(1, 57)
_HEX = frozenset(string.hexdigits)


class RegistryError(ValueError):
    """An enrolment the registry refuses (the message says what conflicts)."""


def normalise_uid(uid: str) -> str:
    """A tag UID as the registry keys it: upper-case hex, 4 to 32 digits."""
    text = uid.strip().upper()
    if not 4 <= len(text) <= 32 or not _HEX.issuperset(text):
        raise RegistryError(f"a tag UID is 4 to 32 hex digits, got {uid!r}")
    return text


def check_tile(tile: int) -> None:
    """Raise ``RegistryError`` unless ``tile`` is a tile number (1 to 56)."""
    if isinstance(tile, bool) or not isinstance(tile, int) or tile not in TILES:
        raise RegistryError(f"tiles are numbered 1 to 56, got {tile!r}")


class TagStore(Protocol):
    """Where the mapping survives a power cut. ``put`` and ``delete`` must be durable on return."""

    def load(self) -> dict[str, int]: ...

    def put(self, uid: str, tile: int) -> None: ...

    def delete(self, uid: str) -> None: ...


class MemoryTagStore:
    """A store that lives as long as the process (tests, the simulated reader)."""

    def __init__(self, mapping: dict[str, int] | None = None) -> None:
        self._mapping = dict(mapping or {})

    def load(self) -> dict[str, int]:
        return dict(self._mapping)

    def put(self, uid: str, tile: int) -> None:
        self._mapping[uid] = tile

    def delete(self, uid: str) -> None:
        self._mapping.pop(uid, None)


class SqliteTagStore:
    """The mapping in an SQLite table (created if missing), committed on every change.

    ``db`` is an open ``sqlite3.Connection`` (the firmware's; it stays open on ``close()``) or a
    path to open. Writes happen on the thread that enrols, so hand over a connection usable there.
    """

    def __init__(self, db: sqlite3.Connection | str | os.PathLike[str], table: str = "tile_tags") -> None:
        if not table.isidentifier():
            raise ValueError(f"table name must be an identifier, got {table!r}")
        self._owned = not isinstance(db, sqlite3.Connection)
        self._db: sqlite3.Connection = db if isinstance(db, sqlite3.Connection) else sqlite3.connect(db)
        self._table = table
        with self._db:
            self._db.execute(
                f"CREATE TABLE IF NOT EXISTS {table} ("
                " uid TEXT PRIMARY KEY,"
                " tile INTEGER NOT NULL UNIQUE CHECK (tile BETWEEN 1 AND 56))"
            )

    def load(self) -> dict[str, int]:
        return dict(self._db.execute(f"SELECT uid, tile FROM {self._table}"))

    def put(self, uid: str, tile: int) -> None:
        with self._db:
            self._db.execute(f"INSERT INTO {self._table} (uid, tile) VALUES (?, ?)", (uid, tile))

    def delete(self, uid: str) -> None:
        with self._db:
            self._db.execute(f"DELETE FROM {self._table} WHERE uid = ?", (uid,))

    def close(self) -> None:
        if self._owned:
            self._db.close()


class TagRegistry:
    """UID <-> tile, one to one. Thread-safe: the reader looks up while the UI enrols."""

    def __init__(self, store: TagStore | None = None) -> None:
        self._store: TagStore = store if store is not None else MemoryTagStore()
        self._lock = threading.Lock()
        self._tiles: dict[str, int] = {}
        for uid, tile in self._store.load().items():  # a damaged row is refused here, loudly
            self._add(normalise_uid(uid), tile)

    @classmethod
    def simulated(cls) -> TagRegistry:
        """A registry that knows all 56 tiles under ``synthetic_uid(tile)`` (desktop runs)."""
        return cls(MemoryTagStore({synthetic_uid(tile): tile for tile in TILES}))

    def tile(self, uid: str) -> int | None:
        """The tile of a (normalised) UID, None if unknown."""
        with self._lock:
            return self._tiles.get(uid)

    def uid(self, tile: int) -> str | None:
        with self._lock:
            return next((uid for uid, known in self._tiles.items() if known == tile), None)

    def enrol(self, uid: str, tile: int) -> None:
        """Learn ``uid`` as ``tile``. The store is written first: a write that fails (a full or
        locked disk) raises the store's own error and leaves the registry as it was, so it never
        claims a tag that a restart would not find."""
        uid = normalise_uid(uid)
        check_tile(tile)
        with self._lock:
            self._refuse_conflicts(uid, tile)
            self._store.put(uid, tile)
            self._tiles[uid] = tile

    def forget(self, uid: str) -> None:
        """Forget ``uid`` (store first, as :meth:`enrol`: a failed delete keeps it known)."""
        uid = normalise_uid(uid)
        with self._lock:
            if uid in self._tiles:
                self._store.delete(uid)
                del self._tiles[uid]

    def __len__(self) -> int:
        return len(self._tiles)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        """(uid, tile) pairs, by tile."""
        with self._lock:
            return iter(sorted(self._tiles.items(), key=lambda item: item[1]))

    def _add(self, uid: str, tile: int) -> None:
        self._refuse_conflicts(uid, tile)
        self._tiles[uid] = tile

    def _refuse_conflicts(self, uid: str, tile: int) -> None:
        check_tile(tile)
        if uid in self._tiles:
            raise RegistryError(f"tag {uid} is already enrolled as tile {self._tiles[uid]}")
        owner = next((known for known, t in self._tiles.items() if t == tile), None)
        if owner is not None:
            raise RegistryError(f"tile {tile} already has tag {owner}; forget that tag first")


def synthetic_uid(tile: int) -> str:
    """The made-up 10-digit UID the simulators use for ``tile`` (RDM6300-shaped)."""
    check_tile(tile)
    return f"5A000000{tile:02X}"


class Enrolment:
    """Teach the registry a box of tiles by scanning them in ``order``.

    Scanning the tag just enrolled again (the reader reports each placement once, but staff
    may put a tile down twice) is harmless; any other conflict raises ``RegistryError`` and
    leaves the expected tile unchanged, so staff can simply try the right tile again.
    """

    def __init__(self, registry: TagRegistry, order: Iterable[int] = TILES) -> None:
        self._registry = registry
        self._order = list(order)
        for tile in self._order:
            check_tile(tile)
        if len(set(self._order)) != len(self._order):
            raise RegistryError("the enrolment order names a tile twice")
        self._next = 0
        self._last_uid: str | None = None

    @property
    def expected(self) -> int | None:
        """The tile to place next, None when done."""
        return self._order[self._next] if self._next < len(self._order) else None

    @property
    def done(self) -> bool:
        return self.expected is None

    @property
    def remaining(self) -> int:
        return len(self._order) - self._next

    def scan(self, uid: str) -> int | None:
        """Enrol ``uid`` as the expected tile and return it; None for a repeat of the last scan."""
        uid = normalise_uid(uid)
        if uid == self._last_uid:
            return None
        tile = self.expected
        if tile is None:
            raise RegistryError("enrolment is complete; no tile is expected")
        self._registry.enrol(uid, tile)
        self._last_uid = uid
        self._next += 1
        return tile

    def skip(self) -> int | None:
        """Pass over the expected tile (missing from the box); returns it."""
        tile = self.expected
        if tile is not None:
            self._next += 1
        return tile
