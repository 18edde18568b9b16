"""The SQLite store: what the UI journals and keeps, and how it survives crashes and bad disks."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.modes import register, restore, save
from engine.ratings import Outcome
from firmware.players import Players
from firmware.store import DATABASE, MIGRATIONS, SCHEMA_VERSION, TABLES, SqliteStore, copy_rows, migrate
from ui.services import Store


@register
@dataclass
class Journey:
    """A test-only mode: a walk whose every step must survive."""

    KIND = "test-firmware-journey"
    steps: list[int]

    @property
    def finished(self) -> bool:
        return len(self.steps) >= 10

    def to_json(self) -> dict[str, Any]:
        return {"steps": list(self.steps)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Journey:
        if not isinstance(data.get("steps"), list):
            raise ValueError("steps must be a list")
        return cls(list(data["steps"]))


def open_store(directory: Path, **options: Any) -> tuple[SqliteStore, list[str]]:
    reports: list[str] = []
    return SqliteStore(directory, report=reports.append, **options), reports


def test_the_journal_round_trips_a_mode_across_restarts(tmp_path):
    store, reports = open_store(tmp_path)
    methods = {name for name in vars(Store) if not name.startswith("_")}
    assert len(methods) == 13 and all(callable(getattr(store, name)) for name in methods)
    assert store.load_current() is None
    mode = Journey([])
    for step in range(4):
        mode.steps.append(step * step)
        store.save_current(save(mode))
    store.close()
    again, _ = open_store(tmp_path)
    resumed = restore(again.load_current())
    assert resumed == Journey([0, 1, 4, 9]) and not resumed.finished
    again.clear_current()
    assert again.load_current() is None
    again.close()
    assert reports == []


def test_writes_are_durable_wal_with_synchronous_full(tmp_path):
    store, _ = open_store(tmp_path)
    assert store.journal_mode == "wal" and not store.in_memory
    probe = sqlite3.connect(tmp_path / DATABASE)
    assert probe.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    assert probe.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    probe.close()
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, on the store's connection
    store.close()


def test_records_progress_scores_and_statistics(tmp_path):
    store, _ = open_store(tmp_path, keep_records=10)
    ids = [store.add_record("strategy", {"moves": i, "robots": {"Ada": "won" if i % 3 else "lost"}})
           for i in range(12)]
    store.add_record("solitaire", {"score": 7, "robots": {"Ada": "cheated"}})  # unknown result: not counted
    assert ids == sorted(ids)
    recent = store.records("strategy", limit=3)
    assert [(kind, record["moves"]) for _, kind, record in recent] == [("strategy", 11), ("strategy", 10),
                                                                        ("strategy", 9)]
    assert [kind for _, kind, _ in store.records(limit=2)] == ["solitaire", "strategy"]
    stats = store.statistics()
    assert stats["games"] == {"strategy": 12, "solitaire": 1}  # counts outlive pruned records
    assert stats["robots"] == {"Ada": {"won": 8, "lost": 4, "drawn": 0}}
    assert stats["records"] == 10 and stats["storage"] == str(tmp_path / DATABASE)
    today = datetime.date.today().isoformat()
    assert stats["days"] == {today: {"strategy": 9, "solitaire": 1}}  # the days come from the records kept
    with sqlite3.connect(tmp_path / DATABASE) as db:  # two games of long ago, one of five days ago
        db.execute("UPDATE records SET created = created - 40 * 86400 WHERE id IN (?, ?)", (ids[-1], ids[-2]))
        db.execute("UPDATE records SET created = created - 5 * 86400 WHERE id = ?", (ids[-3],))
    db.close()
    five_days_ago = (datetime.date.today() - datetime.timedelta(days=5)).isoformat()
    assert SqliteStore(tmp_path).statistics()["days"] == {five_days_ago: {"strategy": 1},
                                                         today: {"strategy": 6, "solitaire": 1}}

    assert store.progress("puzzles") == {}
    store.set_progress("puzzles", {"solved": [1, 2]})
    store.set_progress("puzzles", {"solved": [1, 2, 3]})
    assert store.progress("puzzles") == {"solved": [1, 2, 3]}

    for name, score in [("Bo", 12), ("Al", 30), ("Cy", 12), ("Di", 5)]:
        store.add_score("discovery", name, score)
    store.add_score("solitaire", "Ed", 99)
    assert store.high_scores("discovery", limit=3) == [("Al", 30), ("Bo", 12), ("Cy", 12)]
    assert store.high_scores("gobbles") == []
    store.close()


def test_the_tag_registry_table_is_there_for_the_hardware_registry(tmp_path):
    store, _ = open_store(tmp_path)
    store.close()
    db = sqlite3.connect(tmp_path / DATABASE)
    with db:
        db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('5A00000011', 17)")
    with pytest.raises(sqlite3.IntegrityError):
        with db:
            db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('5A00000012', 17)")  # one tag per tile
    db.close()


def test_migrating_a_version_1_database_keeps_its_data(tmp_path):
    old = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    migrate(old, MIGRATIONS[:1])
    old.execute("INSERT INTO current (id, saved, updated) VALUES (1, ?, 0)", (json.dumps(save(Journey([5, 6]))),))
    for kind in ("strategy", "strategy", "tanagra"):
        old.execute("INSERT INTO records (kind, created, record) VALUES (?, 0, '{}')", (kind,))
    assert old.execute("PRAGMA user_version").fetchone()[0] == 1
    old.close()

    store, reports = open_store(tmp_path)
    assert reports == [] and store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
    assert restore(store.load_current()) == Journey([5, 6])
    assert store.statistics()["games"] == {"strategy": 2, "tanagra": 1}  # counters seeded from the records
    store.add_score("discovery", "Al", 3)  # a table from version 2
    assert store.high_scores("discovery") == [("Al", 3)]
    store.close()


def test_a_failing_migration_leaves_the_old_version(tmp_path):
    db = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    migrate(db, MIGRATIONS[:1])

    def broken(connection: sqlite3.Connection) -> None:
        connection.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("power cut")

    with pytest.raises(RuntimeError):
        migrate(db, (*MIGRATIONS[:1], broken))
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").fetchone()[0] == 0
    db.close()


def aside_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if ".unusable-" in p.name and not p.name.endswith(("-wal", "-shm")))


def test_a_garbage_file_is_moved_aside_and_replaced(tmp_path):
    garbage = os.urandom(10_000)
    (tmp_path / DATABASE).write_bytes(garbage)
    store, reports = open_store(tmp_path)
    (aside,) = aside_files(tmp_path)
    assert aside.read_bytes() == garbage  # kept, never deleted
    assert len(reports) == 1 and "unusable" in reports[0] and aside.name in reports[0]
    assert not store.in_memory and store.load_current() is None
    store.save_current(save(Journey([1])))
    store.close()


def test_a_damaged_page_is_found_at_start(tmp_path):
    store, _ = open_store(tmp_path)
    for i in range(40):
        store.add_record("strategy", {"moves": list(range(300 + i))})
    store.close()
    path = tmp_path / DATABASE
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    data[3 * page:5 * page] = b"\xa5" * (2 * page)  # two b-tree pages scribbled over
    path.write_bytes(bytes(data))

    store, reports = open_store(tmp_path)
    assert len(aside_files(tmp_path)) == 1 and len(reports) == 1 and "unusable" in reports[0]
    # the counters and every record the damaged file still gives came back (the rest from the copy)
    assert not store.in_memory and store.statistics()["games"] == {"strategy": 40}
    assert "salvaged from the damaged file" in reports[0] and "counters 1" in reports[0]
    assert 0 < len(store.records(limit=100)) <= 40
    store.close()


def test_a_database_from_a_newer_firmware_is_set_aside_not_overwritten(tmp_path):
    db = sqlite3.connect(tmp_path / DATABASE)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    store, reports = open_store(tmp_path)
    assert len(aside_files(tmp_path)) == 1 and "newer than this firmware" in reports[0]
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.close()


@pytest.mark.parametrize("version", [3, -1])
def test_a_schema_version_damaged_in_the_header_is_healed_not_a_disk_left_in_memory(tmp_path, version):
    # the header's user_version (bytes 60-63) is outside SQLite's check: a flipped bit there made a
    # migration step meet its own tables, and the kiosk ran in memory at every start, keeping nothing
    store, _ = open_store(tmp_path)
    players = Players(store)
    alice = players.create("Alice")
    store.add_record("strategy", {"n": 1})
    store.save_current(save(Journey([4])))
    store.close()
    path = tmp_path / DATABASE
    data = bytearray(path.read_bytes())
    data[60:64] = version.to_bytes(4, "big", signed=True)
    path.write_bytes(bytes(data))
    store, reports = open_store(tmp_path)
    assert not store.in_memory and len(aside_files(tmp_path)) == 1
    assert "does not match its tables" in reports[0] or "is no version" in reports[0]
    assert store.statistics()["games"] == {"strategy": 1} and restore(store.load_current()) == Journey([4])
    assert [player.id for player in Players(store).all()] == [alice.id]
    store.close()


def test_reaching_max_bytes_prunes_old_records_before_anything_is_given_up(tmp_path):
    store, reports = open_store(tmp_path, max_bytes=160 * 1024, keep_records=10_000)
    for step in range(200):
        store.save_current(save(Journey([step])))
        store.add_record("strategy", {"padding": "x" * 1500, "step": step})
    assert not store.in_memory  # still on disk: the oldest records made room
    assert any("size limit" in report for report in reports)
    assert store.statistics()["games"] == {"strategy": 200}  # the counters kept counting
    newest = store.records("strategy", 1)[0][2]
    assert newest["step"] == 199 and store.statistics()["records"] < 200
    assert restore(store.load_current()) == Journey([199])
    store.close()


def test_a_full_disk_is_reported_and_play_goes_on_in_memory(tmp_path):
    # max_bytes makes SQLite answer SQLITE_FULL ("database or disk is full") exactly as a full card
    # does; the store reacts to the error code, not to how it came about. With no records to prune,
    # a game bigger than the limit cannot be kept on disk.
    store, reports = open_store(tmp_path, max_bytes=160 * 1024)
    assert not store.in_memory
    mode = Journey([])
    step = 0
    while not store.in_memory:
        step += 1
        assert step < 500, "the database never filled up"
        mode.steps.extend(range(step * 200, step * 200 + 200))
        store.save_current(save(mode))
    assert any("full" in report for report in reports) and "in memory" in store.statistics()["storage"]
    # nothing was lost: the step that failed was applied in memory
    assert restore(store.load_current()) == mode
    mode.steps.append(-1)
    store.save_current(save(mode))
    assert restore(store.load_current()) == mode
    store.close()


def test_a_store_in_memory_goes_back_to_the_disk_once_it_takes_writes(tmp_path):
    now = [0.0]
    store, reports = open_store(tmp_path, busy_seconds=0.05, clock=lambda: now[0])
    states: list[bool] = []
    store.on_state = lambda: states.append(store.in_memory)
    store.add_record("strategy", {"n": 1})
    blocker = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    store.save_current(save(Journey([1])))
    assert store.in_memory and "locked" in store.memory_reason and states == [True]
    blocker.execute("ROLLBACK")
    blocker.close()
    store.save_current(save(Journey([2])))
    assert store.in_memory  # not yet time to try again
    now[0] += 31
    store.save_current(save(Journey([3])))
    assert not store.in_memory and states == [True, False]
    assert any("takes writes again" in report for report in reports)
    store.close()
    store, _ = open_store(tmp_path)  # everything made in memory is on the disk
    assert restore(store.load_current()) == Journey([3])
    assert store.statistics()["games"] == {"strategy": 1}
    store.close()


def test_a_database_that_appears_while_in_memory_is_never_replaced_by_the_memory(tmp_path):
    # the state directory could not be made at start (a drive not mounted yet): play went on in
    # memory from nothing, and once the directory was there with its database, the memory's
    # empty tables replaced every game in it
    with SqliteStore(tmp_path / "drive" / "state") as store:
        store.add_record("strategy", {"n": 1})
    shutil.move(tmp_path / "drive", tmp_path / "away")
    (tmp_path / "drive").write_text("not mounted yet")
    now = [0.0]
    store, reports = open_store(tmp_path / "drive" / "state", clock=lambda: now[0])
    assert store.in_memory
    (tmp_path / "drive").unlink()
    shutil.move(tmp_path / "away", tmp_path / "drive")  # mounted now
    now[0] += 31
    store.save_current(save(Journey([1])))
    assert store.in_memory and "a database appeared" in reports[-1]
    store.close()
    with SqliteStore(tmp_path / "drive" / "state") as store:
        assert store.statistics()["games"] == {"strategy": 1}


def test_a_store_in_memory_from_nothing_goes_back_to_a_directory_that_can_be_made_later(tmp_path):
    now = [0.0]
    (tmp_path / "drive").write_text("not mounted yet")
    store, _ = open_store(tmp_path / "drive" / "state", clock=lambda: now[0])
    store.add_record("strategy", {"n": 1})
    (tmp_path / "drive").unlink()
    now[0] += 31
    store.save_current(save(Journey([1])))
    assert not store.in_memory
    store.close()
    with SqliteStore(tmp_path / "drive" / "state") as store:
        assert store.statistics()["games"] == {"strategy": 1}


def test_a_disk_whose_tables_the_memory_copy_could_not_all_read_is_never_replaced_by_it(tmp_path):
    now = [0.0]
    store, _ = open_store(tmp_path, busy_seconds=0.05, clock=lambda: now[0])
    store.add_record("strategy", {"n": 1})
    store.add_record("strategy", {"n": 2})

    def records_unreadable(action: int, table: str | None, *_: object) -> int:
        """The records' pages past a failing sector: reading them fails, the rest reads."""
        return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_READ and table == "records" else sqlite3.SQLITE_OK

    store._db.set_authorizer(records_unreadable)
    blocker = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    store.save_current(save(Journey([1])))
    assert store.in_memory and store.records() == []  # what the copy to memory could not read
    blocker.execute("ROLLBACK")
    blocker.close()
    now[0] += 31
    store.add_record("strategy", {"n": 3})  # the disk takes writes again, but memory lacks its records
    assert store.in_memory
    store.close()
    store, _ = open_store(tmp_path)
    assert [record["n"] for _, _, record in store.records()] == [2, 1]
    store.close()


def test_a_batch_is_one_transaction(tmp_path):
    store, _ = open_store(tmp_path)
    store.save_current(save(Journey([5])))
    with pytest.raises(RuntimeError):
        with store.batch():
            store.add_record("strategy", {"n": 1})
            store.clear_current()
            raise RuntimeError("the power went")
    assert store.statistics()["games"] == {} and store.load_current() is not None
    with store.batch():
        store.add_record("strategy", {"n": 1})
        store.clear_current()
    assert store.statistics()["games"] == {"strategy": 1} and store.load_current() is None
    store.close()


def test_a_batch_that_meets_a_locked_disk_is_replayed_whole_in_memory(tmp_path):
    store, _ = open_store(tmp_path, busy_seconds=0.05)
    store.save_current(save(Journey([5])))
    blocker = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    with store.batch():
        store.add_record("strategy", {"n": 1})
        store.clear_current()
    blocker.execute("ROLLBACK")
    blocker.close()
    assert store.in_memory
    assert store.statistics()["games"] == {"strategy": 1} and store.load_current() is None
    store.close()


@pytest.mark.parametrize("failure", ["locked before the batch", "I/O error within it"])
def test_a_game_ending_on_a_failing_disk_keeps_its_rating_tied_to_its_record(tmp_path, failure):
    store, _ = open_store(tmp_path, busy_seconds=0.05)
    players = Players(store)
    ana, bo = players.create("Ana"), players.create("Bo")
    blocker = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    if failure.startswith("locked"):
        blocker.execute("BEGIN IMMEDIATE")
    record_game = players.record_game

    def record_game_on_a_failing_card(*args: Any) -> Any:
        if failure.startswith("I/O"):
            def fails(db: sqlite3.Connection) -> None:
                if store.in_memory:
                    return  # made again in memory, where it succeeds
                error = sqlite3.OperationalError("disk I/O error")
                error.sqlite_errorcode = 10  # type: ignore[attr-defined]  # as SQLite sets it
                raise error
            store.transaction(fails)
        return record_game(*args)

    with store.batch():  # what the strategy screen's finish() does
        record_id = store.add_record("strategy", {"n": 1})
        steps = record_game_on_a_failing_card("strategy", Outcome("g1", ((ana.id,), (bo.id,)), (1, 2)), record_id)
        store.clear_current()
    if blocker.in_transaction:
        blocker.execute("ROLLBACK")
    blocker.close()
    assert store.in_memory and [step.game for step in steps] == ["g1", "g1"]
    [(number, _, record)] = store.records()
    assert record == {"n": 1} and number == record_id > 0
    assert store.query("SELECT record_id, record FROM games") == [(record_id, '{"n":1}')]
    store.close()


def test_a_record_whose_text_is_not_utf8_any_more_is_skipped_alone(tmp_path):
    store, reports = open_store(tmp_path)
    for n in range(3):
        store.add_record("strategy", {"n": n, "who": "x"})
    # a flipped bit makes one byte invalid UTF-8, inside a string of the JSON (SQLite does not check)
    store._db.execute("UPDATE records SET record = CAST(replace(CAST(record AS BLOB), X'78', X'F8') AS TEXT)"
                      " WHERE id = 2")
    assert [record["n"] for _, _, record in store.records()] == [2, 0]  # not: nothing at all
    assert len(reports) == 1 and "record 2" in reports[0] and "not UTF-8" in reports[0]
    assert store.statistics()["records"] == 3
    store.close()


def test_salvage_never_replaces_a_good_row_with_one_whose_bytes_are_not_text(tmp_path):
    good, damaged = SqliteStore(tmp_path / "good"), SqliteStore(tmp_path / "damaged")
    for store in (good, damaged):
        store.add_record("strategy", {"n": 1, "who": "x"})
    damaged.add_record("strategy", {"n": 2, "who": "x"})  # newer than the good copy
    damaged._db.execute("UPDATE records SET record = CAST(replace(CAST(record AS BLOB), X'78', X'F8') AS TEXT)")
    copy_rows(damaged._db, good._db)
    assert [record for _, _, record in good.records()] == [{"n": 1, "who": "x"}]  # kept, not replaced
    assert good.query("SELECT count(*) FROM records") == [(2,)]  # the damaged one kept where none was
    good.close()
    damaged.close()


def flip_in_current(path: Path) -> None:
    """Flip one bit inside the saved game's JSON (the page checks stay fine: SQLite has no checksums)."""
    data = bytearray(path.read_bytes())
    at = data.index(b'"steps":[') + 9
    data[at] ^= 0x40  # '1' -> 'q'
    path.write_bytes(bytes(data))


def test_a_flipped_bit_in_the_saved_game_is_a_value_error_never_a_crash(tmp_path):
    store, _ = open_store(tmp_path)
    store.save_current(save(Journey([1, 2, 3])))
    store.close()
    flip_in_current(tmp_path / DATABASE)
    store, _ = open_store(tmp_path)
    assert not store.in_memory
    with pytest.raises(ValueError, match="damaged JSON"):
        store.load_current()
    store.clear_current()  # what the UI's Discard does
    assert store.load_current() is None
    store.close()


def test_damaged_records_and_progress_are_skipped_and_reported(tmp_path):
    store, reports = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store.add_record("strategy", {"n": 2})
    store.set_progress("learn", {"solitaire": True})
    store._db.execute("UPDATE records SET record = '{\"n\": 2' WHERE id = 2")
    store._db.execute("UPDATE progress SET value = '[[[' WHERE key = 'learn'")
    assert [r[2] for r in store.records()] == [{"n": 1}]
    assert store.progress("learn") == {}
    assert len(reports) == 2
    store.close()


def test_a_damaged_progress_row_read_every_second_is_reported_once(tmp_path):
    # the settings' poll and the restart watch read their keys about once a second: a damaged row
    # was an error line in the log every second, for as long as the kiosk ran
    store, reports = open_store(tmp_path)
    store.set_progress("kiosk-settings", {"language": "fr"})
    store._db.execute("UPDATE progress SET value = '[[[' WHERE key = 'kiosk-settings'")
    for _ in range(3):
        assert store.progress("kiosk-settings") == {}
    assert len(reports) == 1 and "'kiosk-settings'" in reports[0]
    store._db.execute("UPDATE progress SET value = '{{' WHERE key = 'kiosk-settings'")  # damaged anew
    assert store.progress("kiosk-settings") == {} and len(reports) == 2
    store.close()


def test_a_missing_table_is_made_again_at_start(tmp_path):
    store, _ = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store._db.execute("DROP TABLE current")
    store.close()
    store, reports = open_store(tmp_path)
    assert store.load_current() is None and "current" in reports[0]
    store.save_current(save(Journey([1])))
    assert store.statistics()["games"] == {"strategy": 1}
    store.close()


def test_a_damaged_file_is_rebuilt_from_the_good_copy_and_what_it_still_gives(tmp_path):
    store, _ = open_store(tmp_path)
    for n in range(56):
        store._db.execute("INSERT INTO tile_tags (uid, tile) VALUES (?, ?)", (f"{n:010X}", n + 1))
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    assert store.backup() and (tmp_path / "kiosk.db.good").exists()
    store.save_current(save(Journey([4])))  # newer than the copy
    store.close()
    (tmp_path / DATABASE).write_bytes(os.urandom(4096) + (tmp_path / DATABASE).read_bytes()[4096:])  # header gone
    store, reports = open_store(tmp_path)
    assert not store.in_memory and len(store.tags()) == 56  # no tile to rescan
    assert store.statistics()["games"] == {"strategy": 1}
    assert "restored from the last-known-good copy" in reports[0]
    store.close()


def test_a_table_that_lost_its_columns_is_damage_healed_at_start_not_a_crash_at_the_first_save(tmp_path):
    store, _ = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store._db.execute("DROP TABLE current")
    store._db.execute("CREATE TABLE current (id INTEGER)")  # what a damaged schema text can leave
    store.close()
    store, reports = open_store(tmp_path)
    assert "current lost their columns" in reports[0] and "restored from the last-known-good copy" in reports[0]
    store.save_current(save(Journey([4])))  # the first step of a game: refused before the repair
    assert store.load_current() is not None and store.statistics()["games"] == {"strategy": 1}
    store.close()


def test_a_backup_asked_for_while_one_is_made_is_made_after_it(tmp_path, monkeypatch):
    store, _ = open_store(tmp_path)
    store.wait_for_backup()
    started, release, made = threading.Event(), threading.Event(), []
    backup = store.backup

    def slow_backup() -> bool:
        started.set()
        release.wait()
        made.append(backup())
        return made[-1]

    monkeypatch.setattr(store, "backup", slow_backup)
    store.add_record("strategy", {"n": 1})  # a game ends: a backup starts...
    started.wait()
    store.add_record("strategy", {"n": 2})  # ...and two more end while it is being made
    store.add_record("strategy", {"n": 3})
    release.set()
    store.wait_for_backup()
    assert made == [True, True]  # one more, not one per request, and not none
    store.close()
    with sqlite3.connect(tmp_path / "kiosk.db.good") as copy:
        assert copy.execute("SELECT count(*) FROM records").fetchone()[0] == 3


def test_every_table_of_the_schema_is_known_to_salvage_with_its_columns():
    db = sqlite3.connect(":memory:", isolation_level=None)
    migrate(db)
    made = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                             " AND name NOT LIKE 'sqlite_%'")}
    assert made == set(TABLES)
    fresh = sqlite3.connect(":memory:", isolation_level=None)
    for statements in TABLES.values():
        for statement in statements:
            fresh.execute(statement)
    for table in TABLES:
        columns = "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)"
        assert db.execute(columns, (table,)).fetchall() == fresh.execute(columns, (table,)).fetchall(), table


def test_a_damaged_file_healed_from_the_good_copy_keeps_the_players_and_their_ratings(tmp_path):
    store, _ = open_store(tmp_path)
    players = Players(store)
    alice, bob = players.create("Alice"), players.create("Bob")
    with store.batch():
        record_id = store.add_record("strategy", {"n": 1})
        players.record_game("strategy", Outcome("game-1", ((alice.id,), (bob.id,)), (1, 2)), record_id)
    store.wait_for_backup()
    ladder = [(row.player.name, row.rating) for row in players.ladder()]
    store.close()
    (tmp_path / DATABASE).write_bytes(bytes(100) + (tmp_path / DATABASE).read_bytes()[100:])  # header gone
    store, reports = open_store(tmp_path)
    players = Players(store)
    assert "restored from the last-known-good copy" in reports[0]
    assert sorted(player.name for player in players.all()) == ["Alice", "Bob"]
    assert [(row.player.name, row.rating) for row in players.ladder()] == ladder
    assert [result.game for result in players.results(alice.id)] == ["game-1"]
    store.close()


@pytest.mark.parametrize("loss", ["emptied", "missing"])
def test_an_emptied_or_missing_file_beside_the_good_copy_is_restored_not_started_afresh(tmp_path, loss):
    store, _ = open_store(tmp_path)
    store._db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('00AB', 7)")
    with store.batch():
        store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.close()
    database = tmp_path / DATABASE
    if loss == "emptied":
        database.write_bytes(b"")
    else:
        database.unlink()
    store, reports = open_store(tmp_path)
    assert store.tags() == {"00AB": 7} and store.statistics()["games"] == {"strategy": 1}
    assert "empty or missing" in reports[0] and "restored from the last-known-good copy" in reports[0]
    store.close()
    store, reports = open_store(tmp_path)  # and the good copy still holds it all
    assert store.statistics()["games"] == {"strategy": 1} and not reports
    store.close()


@pytest.mark.parametrize("where", [DATABASE, DATABASE + "-wal"])
def test_a_directory_where_the_database_or_its_wal_should_be_is_damage_healed(tmp_path, where):
    # SQLite cannot open either: taken for a disk refusing writes, the kiosk ran in memory on
    # nothing (not even the good copy), at every start
    store, _ = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.save_current(save(Journey([2])))  # after the good copy: only the file itself has it
    store.close()
    if where == DATABASE:
        (tmp_path / DATABASE).unlink()
    (tmp_path / where).mkdir()
    store, reports = open_store(tmp_path)
    assert not store.in_memory and "is a directory" in reports[0] and len(aside_files(tmp_path)) == 1
    assert store.statistics()["games"] == {"strategy": 1}
    if where != DATABASE:  # the file itself is salvaged, its game in progress with it
        assert restore(store.load_current()) == Journey([2])
    store.close()


def test_a_second_store_opening_while_the_first_heals_waits_for_it(tmp_path, monkeypatch):
    # two kiosks started at once on one directory healed one damage together: each moved aside the
    # database the other had made, and an empty one ended up copied over the good copy
    import fcntl

    store, _ = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.close()
    (tmp_path / DATABASE).unlink()  # missing beside the good copy: the first start heals
    healing, carry_on = threading.Event(), threading.Event()
    heal = SqliteStore._heal

    def paused(self: SqliteStore, reason: str) -> sqlite3.Connection:
        healing.set()
        carry_on.wait()
        return heal(self, reason)

    monkeypatch.setattr(SqliteStore, "_heal", paused)
    first: list[SqliteStore] = []
    opening = threading.Thread(target=lambda: first.append(SqliteStore(tmp_path)))
    opening.start()
    healing.wait()
    second: list[SqliteStore] = []
    try:
        with open(tmp_path / (DATABASE + ".lock"), "ab") as lock:  # what a second kiosk's start waits for
            with pytest.raises(BlockingIOError):
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        waiting = threading.Thread(target=lambda: second.append(SqliteStore(tmp_path)))
        waiting.start()
    finally:
        carry_on.set()
        opening.join()
    waiting.join()
    for store in (*first, *second):
        assert not store.in_memory and store.statistics()["games"] == {"strategy": 1}
    second[0].add_record("strategy", {"n": 2})
    for store in (*first, *second):
        store.close()
    store, reports = open_store(tmp_path)  # nothing was written to a file set aside
    assert store.statistics()["games"] == {"strategy": 2} and not reports
    store.close()


@pytest.mark.parametrize("cut", [1, 2])
def test_a_power_cut_while_a_damaged_file_heals_never_leaves_an_empty_database(tmp_path, cut):
    # the heal made its new database in place: cut after its schema and before its rows (the good
    # copy's: cut 1, the damaged file's: cut 2), the next start found an empty healthy-looking
    # database and copied it over the good copy
    import firmware.store as store_module

    store, _ = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.close()
    (tmp_path / DATABASE).write_bytes(bytes(100) + (tmp_path / DATABASE).read_bytes()[100:])  # header gone
    child = os.fork()
    if child == 0:  # pragma: no cover - the child never returns
        calls = []
        real = store_module.copy_rows

        def power_cut(*args: Any, **options: Any) -> Any:
            calls.append(1)
            if len(calls) == cut:
                os._exit(17)
            return real(*args, **options)

        store_module.copy_rows = power_cut  # type: ignore[assignment]
        SqliteStore(tmp_path)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.WEXITSTATUS(status) == 17
    for _ in range(2):  # the start after the cut, and the next one (after its good copy)
        store, reports = open_store(tmp_path)
        assert store.statistics()["games"] == {"strategy": 1}
        store.close()


def test_a_power_cut_before_a_missing_file_is_healed_never_leaves_an_empty_database(tmp_path):
    # the start made the missing file's whole schema before finding it missing beside the good
    # copy: cut before the heal, the next start found an empty healthy-looking database
    store, _ = open_store(tmp_path)
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.close()
    (tmp_path / DATABASE).unlink()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child never returns
        SqliteStore._heal = lambda self, reason: os._exit(17)  # type: ignore[method-assign]
        SqliteStore(tmp_path)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.WEXITSTATUS(status) == 17
    store, reports = open_store(tmp_path)
    assert store.statistics()["games"] == {"strategy": 1} and "empty or missing" in reports[0]
    store.close()


def test_the_tags_survive_a_store_in_memory(tmp_path):
    store, _ = open_store(tmp_path, busy_seconds=0.05)
    store._db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('00AB', 7)")
    blocker = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    store.save_current(save(Journey([1])))
    blocker.execute("ROLLBACK")
    blocker.close()
    assert store.in_memory and store.tags() == {"00AB": 7}
    store.close()


def test_an_unusable_state_directory_means_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store, reports = open_store(blocker / "state")
    assert store.in_memory and len(reports) == 1 and "cannot be used" in reports[0]
    store.save_current(save(Journey([3])))
    assert restore(store.load_current()) == Journey([3])
    store.close()
