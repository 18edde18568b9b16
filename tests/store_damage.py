"""Damage to a real kiosk database while a store has it open: one page of the file overwritten,
as a failing card returns garbage, found by the next read that needs that page."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path


def damage_page_holding(database: Path, marker: bytes) -> None:
    """Overwrite the b-tree header of the page of ``database`` that holds ``marker`` (the whole
    database checkpointed into the file first), then commit a write from another connection, so
    that a connection already open drops its cached pages and reads the damaged one from the file."""
    with contextlib.closing(sqlite3.connect(database, isolation_level=None)) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = other.execute("PRAGMA page_size").fetchone()[0]
        data = database.read_bytes()
        offset = data.index(marker)
        with open(database, "r+b") as file:
            file.seek(offset - offset % page_size)
            file.write(b"\xff" * 12)  # no b-tree page type: "database disk image is malformed"
        other.execute("INSERT OR REPLACE INTO progress (key, value) VALUES ('touched', '{}')")
