"""The staff PIN's lockout on the web page (``web.lockout``, ``web.auth.PinGuard``), kept in a real
SQLite file: it outlasts a restart, counts a PIN before checking it, and fails closed when its
record is damaged or cannot be written. (The restart of the real server: tests/test_web.py.)"""

from __future__ import annotations

import json
import sqlite3

import pytest

import web.auth
from firmware.pin import hash_pin
from firmware.store import SqliteStore
from web.auth import PinGuard
from firmware.pin import FIRST_LOCK_SECONDS, LONGEST_LOCK_SECONDS
from web.lockout import DATABASE, PIN_TRIES, Unrecorded
from web_support import STAFF_PIN, request, web_server, write_config

PIN_HASH = hash_pin(STAFF_PIN, rounds=1000)


class Clock:
    """The wall clock as a test sets it."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def lock_out(guard: PinGuard) -> None:
    for _ in range(PIN_TRIES - 1):
        assert guard.check("1111") == (False, 0.0)
    assert guard.check("1111") == (False, FIRST_LOCK_SECONDS)


def test_the_lockout_is_kept_on_disk_and_ends_on_time(tmp_path):
    clock = Clock()
    lock_out(PinGuard(lambda: PIN_HASH, tmp_path, clock))
    clock.now += 10
    restarted = PinGuard(lambda: PIN_HASH, tmp_path, clock)
    assert restarted.check(STAFF_PIN) == (False, FIRST_LOCK_SECONDS - 10)  # not even checked
    clock.now += 20
    assert restarted.check("1111") == (False, 2 * FIRST_LOCK_SECONDS)  # the next wrong one doubles it
    clock.now += 2 * FIRST_LOCK_SECONDS
    assert restarted.check(STAFF_PIN) == (True, 0.0)
    lock_out(PinGuard(lambda: PIN_HASH, tmp_path, clock))  # the right PIN took the count back: 5 tries again


def test_a_pin_is_counted_before_it_is_checked_so_a_crash_in_the_check_forgets_nothing(tmp_path, monkeypatch):
    clock = Clock()
    guard = PinGuard(lambda: PIN_HASH, tmp_path, clock)
    for _ in range(PIN_TRIES - 1):
        guard.check("1111")

    def killed(pin: str, pin_hash: str) -> bool:
        raise SystemExit("the process ends in the middle of the check")

    monkeypatch.setattr(web.auth, "verify_pin", killed)
    with pytest.raises(SystemExit):
        guard.check("1112")
    monkeypatch.undo()
    assert PinGuard(lambda: PIN_HASH, tmp_path, clock).check(STAFF_PIN) == (False, FIRST_LOCK_SECONDS)


def test_a_clock_set_back_never_makes_the_lock_longer_than_it_was(tmp_path):
    clock = Clock()
    lock_out(PinGuard(lambda: PIN_HASH, tmp_path, clock))
    clock.now -= 86_400.0  # a Pi without a battery clock, booted before the network gives the time
    assert PinGuard(lambda: PIN_HASH, tmp_path, clock).check(STAFF_PIN) == (False, FIRST_LOCK_SECONDS)


def test_a_lock_seen_after_the_clock_was_set_back_still_runs_out(tmp_path):
    clock = Clock()
    guard = PinGuard(lambda: PIN_HASH, tmp_path, clock)
    lock_out(guard)
    clock.now -= 30 * 86_400.0  # the network's time a month behind the one the lock was taken on
    assert guard.check(STAFF_PIN) == (False, FIRST_LOCK_SECONDS)
    clock.now += FIRST_LOCK_SECONDS / 2
    assert PinGuard(lambda: PIN_HASH, tmp_path, clock).check(STAFF_PIN) == (False, FIRST_LOCK_SECONDS / 2)
    clock.now += FIRST_LOCK_SECONDS / 2  # not a month: the lock, from when the clock was seen set back
    assert guard.check(STAFF_PIN) == (True, 0.0)


def _drop_row(db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM lockout")


def _garble_row(db: sqlite3.Connection) -> None:
    db.execute("UPDATE lockout SET wrong = 'x', until = X'ff00'")


def _drop_table(db: sqlite3.Connection) -> None:
    db.execute("DROP TABLE lockout")


def _newer_schema(db: sqlite3.Connection) -> None:
    db.execute("PRAGMA user_version = 99")


@pytest.mark.parametrize("damage", [_drop_row, _garble_row, _drop_table, _newer_schema])
def test_a_damaged_or_missing_record_is_a_full_lock_kept_until_it_ends(tmp_path, damage):
    clock = Clock()
    assert PinGuard(lambda: PIN_HASH, tmp_path, clock).check("1111") == (False, 0.0)  # the file is made
    with sqlite3.connect(tmp_path / DATABASE, isolation_level=None) as db:
        damage(db)
    db.close()
    _locked_for_the_full_period(tmp_path, clock)


@pytest.mark.parametrize("content", [b"", b"not a database, a flipped sector" * 100])
def test_a_file_emptied_or_garbled_is_a_full_lock_and_is_rebuilt(tmp_path, content):
    clock = Clock()
    (tmp_path / DATABASE).write_bytes(content)
    _locked_for_the_full_period(tmp_path, clock)


def _locked_for_the_full_period(directory, clock: Clock) -> None:
    """The right PIN refused for the full lockout from when the damage was found (and not from
    each restart after it), then taken."""
    assert PinGuard(lambda: PIN_HASH, directory, clock).check(STAFF_PIN) == (False, LONGEST_LOCK_SECONDS)
    clock.now += 600.0
    assert PinGuard(lambda: PIN_HASH, directory, clock).check(STAFF_PIN) == (False, LONGEST_LOCK_SECONDS - 600.0)
    clock.now += LONGEST_LOCK_SECONDS
    assert PinGuard(lambda: PIN_HASH, directory, clock).check(STAFF_PIN) == (True, 0.0)


def test_while_the_count_cannot_be_kept_no_pin_is_checked(tmp_path):
    SqliteStore(tmp_path / "state").close()
    (tmp_path / "state" / DATABASE).mkdir()  # where the file should be, something SQLite cannot open
    with pytest.raises(Unrecorded, match=DATABASE):
        PinGuard(lambda: PIN_HASH, tmp_path / "state").check(STAFF_PIN)
    with web_server(write_config(tmp_path)) as base:
        status, _, body = request(base + "/api/login", json.dumps({"pin": STAFF_PIN}).encode(),
                                  {"content-type": "application/json"})
        assert status == 503 and "cannot be counted" in json.loads(body)["error"]
