"""The tag registry (UID <-> tile), its SQLite and memory stores, and the enrolment flow."""

from __future__ import annotations

import sqlite3

import pytest

from hardware.registry import (Enrolment, MemoryTagStore, RegistryError, SqliteTagStore, TagRegistry,
                               normalise_uid, synthetic_uid)


def test_enrol_and_look_up_both_ways():
    registry = TagRegistry()
    registry.enrol("0a1b2c3d4e", 17)
    assert registry.tile("0A1B2C3D4E") == 17 and registry.uid(17) == "0A1B2C3D4E"
    assert registry.tile("FFFFFFFFFF") is None and registry.uid(18) is None
    assert list(registry) == [("0A1B2C3D4E", 17)] and len(registry) == 1


def test_a_uid_enrolled_twice_or_a_tile_given_two_uids_is_refused():
    registry = TagRegistry()
    registry.enrol("0A1B2C3D4E", 17)
    with pytest.raises(RegistryError, match="tag 0A1B2C3D4E is already enrolled as tile 17"):
        registry.enrol("0a1b2c3d4e", 18)
    with pytest.raises(RegistryError, match="tile 17 already has tag 0A1B2C3D4E; forget that tag first"):
        registry.enrol("1122334455", 17)
    assert list(registry) == [("0A1B2C3D4E", 17)]
    registry.forget("0A1B2C3D4E")
    registry.enrol("1122334455", 17)
    assert registry.uid(17) == "1122334455"


@pytest.mark.parametrize("uid, tile, message", [
    ("0A1B2C3D4E", 0, "tiles are numbered 1 to 56, got 0"),
    ("0A1B2C3D4E", 57, "tiles are numbered 1 to 56, got 57"),
    ("0A1B2C3D4E", True, "tiles are numbered 1 to 56"),
    ("XYZ", 3, "a tag UID is 4 to 32 hex digits, got 'XYZ'"),
    ("", 3, "a tag UID is 4 to 32 hex digits"),
])
def test_bad_enrolments_are_refused(uid, tile, message):
    with pytest.raises(RegistryError, match=message):
        TagRegistry().enrol(uid, tile)


def test_sqlite_store_persists_across_restarts(tmp_path):
    path = tmp_path / "kiosk.db"
    store = SqliteTagStore(path)
    TagRegistry(store).enrol("0A1B2C3D4E", 5)
    store.close()
    again = TagRegistry(SqliteTagStore(path))
    assert again.tile("0A1B2C3D4E") == 5
    again.forget("0A1B2C3D4E")
    assert TagRegistry(SqliteTagStore(path)).tile("0A1B2C3D4E") is None


def test_sqlite_store_on_the_firmwares_connection(tmp_path):
    db = sqlite3.connect(tmp_path / "firmware.db")
    db.execute("CREATE TABLE settings (key TEXT)")
    store = SqliteTagStore(db, table="tags")
    TagRegistry(store).enrol("0A1B2C3D4E", 9)
    store.close()  # not ours: stays open
    assert db.execute("SELECT uid, tile FROM tags").fetchall() == [("0A1B2C3D4E", 9)]
    # Committed: another connection sees it.
    assert sqlite3.connect(tmp_path / "firmware.db").execute("SELECT tile FROM tags").fetchone() == (9,)


def test_a_write_the_store_refuses_leaves_the_registry_as_it_was(tmp_path):
    path = tmp_path / "kiosk.db"
    registry = TagRegistry(SqliteTagStore(path))
    registry.enrol("0A1B2C3D4E", 5)
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TRIGGER no_insert BEFORE INSERT ON tile_tags BEGIN SELECT RAISE(ABORT, 'disk is full'); END;
        CREATE TRIGGER no_delete BEFORE DELETE ON tile_tags BEGIN SELECT RAISE(ABORT, 'disk is full'); END;
    """)
    with pytest.raises(sqlite3.Error, match="disk is full"):
        registry.enrol("1122334455", 6)
    with pytest.raises(sqlite3.Error, match="disk is full"):
        registry.forget("0A1B2C3D4E")
    assert (registry.tile("1122334455"), registry.uid(6), registry.tile("0A1B2C3D4E")) == (None, None, 5)
    db.executescript("DROP TRIGGER no_insert; DROP TRIGGER no_delete;")
    registry.enrol("1122334455", 6)  # once the disk takes it, nothing is "already enrolled"
    assert dict(TagRegistry(SqliteTagStore(path))) == {"0A1B2C3D4E": 5, "1122334455": 6}
    db.close()


def test_a_damaged_store_is_refused_loudly():
    with pytest.raises(RegistryError, match="tile 3 already has tag"):
        TagRegistry(MemoryTagStore({"0A1B2C3D4E": 3, "1122334455": 3}))


def test_simulated_registry_knows_every_tile():
    registry = TagRegistry.simulated()
    assert len(registry) == 56 and registry.tile(synthetic_uid(56)) == 56
    assert normalise_uid(synthetic_uid(1)) == synthetic_uid(1)


def test_enrolment_in_order_with_repeat_skip_and_conflict():
    registry = TagRegistry()
    enrolment = Enrolment(registry, order=[3, 1, 2, 4])
    assert enrolment.expected == 3 and enrolment.remaining == 4
    assert enrolment.scan("AAAAAAAA01") == 3
    assert enrolment.scan("aaaaaaaa01") is None  # the same tile put down again: harmless
    assert enrolment.expected == 1
    assert enrolment.skip() == 1
    assert enrolment.scan("AAAAAAAA02") == 2
    with pytest.raises(RegistryError, match="already enrolled as tile 3"):
        enrolment.scan("AAAAAAAA01")  # tile 3 again, where tile 4 is expected
    assert enrolment.expected == 4
    assert enrolment.scan("AAAAAAAA04") == 4
    assert enrolment.done and enrolment.expected is None
    with pytest.raises(RegistryError, match="enrolment is complete"):
        enrolment.scan("AAAAAAAA05")
    assert dict(registry) == {"AAAAAAAA01": 3, "AAAAAAAA02": 2, "AAAAAAAA04": 4}


def test_enrolment_refuses_a_tile_already_enrolled_and_bad_orders():
    registry = TagRegistry()
    registry.enrol("AAAAAAAA01", 1)
    enrolment = Enrolment(registry)
    with pytest.raises(RegistryError, match="tile 1 already has tag AAAAAAAA01"):
        enrolment.scan("BBBBBBBB01")
    assert enrolment.expected == 1
    with pytest.raises(RegistryError, match="names a tile twice"):
        Enrolment(registry, order=[1, 1])
    with pytest.raises(RegistryError, match="got 99"):
        Enrolment(registry, order=[99])
