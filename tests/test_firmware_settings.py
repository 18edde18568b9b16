"""The Settings the UI reads: configuration values, staff changes that persist, the staff PIN."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from firmware.config import Config, KioskConfig, load_config
from firmware.runtime import Launch, Runtime
from firmware.pin import LONGEST_LOCK_SECONDS, hash_pin, is_pin_hash, lock_seconds, verify_pin
from firmware.settings import (
    DEFAULT_PIN,
    FREE_TRIES,
    OVERRIDES,
    PIN_STATE,
    KioskSettings,
    Reports,
)
from firmware.store import SqliteStore
from ui.memory import MemoryStore
from ui.services import Settings


def test_pin_hashes_are_salted_pbkdf2_and_verify():
    one, two = hash_pin("482916"), hash_pin("482916")
    assert one != two and is_pin_hash(one) and one.startswith("pbkdf2-sha256$100000$")
    assert verify_pin("482916", one) and verify_pin("482916", two)
    assert not verify_pin("482917", one) and not verify_pin("482916", "pbkdf2-sha256$1$00$00")
    assert not verify_pin("\ud800", one)  # what JSON's "\ud800" decodes to: wrong, not an error
    with pytest.raises(ValueError):
        hash_pin("12a4")
    with pytest.raises(ValueError):
        hash_pin("123")


def protocol_members(protocol: type) -> set[str]:
    """What a ``ui.services`` protocol names (attributes and methods)."""
    return set(protocol.__annotations__) | {name for name in vars(protocol) if not name.startswith("_")}


def make(tmp_path: Path, config_text: str = "") -> tuple[KioskSettings, SqliteStore, Reports]:
    path = tmp_path / "config.toml"
    path.write_text(config_text)
    config = load_config(path, environ={})
    reports = Reports(config.warnings)
    store = SqliteStore(tmp_path / "state", report=reports)
    return KioskSettings(config, store, reports), store, reports


def test_settings_come_from_the_configuration(tmp_path):
    pin = hash_pin("2580", rounds=1000)
    settings, store, _ = make(tmp_path, f"""
        [kiosk]
        language = "nl"
        idle_seconds = 300
        staff_pin = "{pin}"
        [display]
        orientation = "upright"
        [rules]
        end_rule = "first-out"
        physical_bag = true
        [rings]
        brightness = 0.7
    """)
    assert protocol_members(Settings) and all(hasattr(settings, name) for name in protocol_members(Settings))
    assert (settings.language, settings.idle_seconds, settings.orientation) == ("nl", 300.0, "upright")
    assert (settings.end_rule, settings.physical_bag, settings.brightness) == ("first-out", True, 0.7)
    assert settings.warnings == ()
    assert settings.check_pin("2580") and not settings.check_pin(DEFAULT_PIN)
    store.close()


def test_staff_changes_persist_and_win_over_the_file(tmp_path):
    settings, store, _ = make(tmp_path, '[kiosk]\nlanguage = "en"\n')
    settings.set_language("pl")
    settings.set_brightness(0.1)
    with pytest.raises(ValueError, match="unknown language"):
        settings.set_language("de")
    with pytest.raises(ValueError, match="0 to 1"):
        settings.set_brightness(1.5)
    assert (settings.language, settings.brightness) == ("pl", 0.1)
    store.close()

    again, store, _ = make(tmp_path, '[kiosk]\nlanguage = "en"\n')
    assert (again.language, again.brightness) == ("pl", 0.1)
    store.close()


def test_a_stale_staff_change_is_reported_not_applied_and_the_others_still_are(tmp_path):
    with SqliteStore(tmp_path / "state") as store:
        store.set_progress(OVERRIDES, {"language": "xx", "brightness": 0.2, "coach": "no"})
    settings, store, reports = make(tmp_path)
    assert (settings.language, settings.brightness, settings.coach) == ("en", 0.2, True)
    stale = [warning for warning in settings.warnings if "no longer valid" in warning]
    assert len(stale) == 2 and "'xx'" in stale[0] and "'no'" in stale[1], stale
    store.close()


def test_staff_may_turn_the_coach_off_and_only_what_they_changed_outlives_the_file(tmp_path):
    settings, store, _ = make(tmp_path, "[rules]\ncoach = true\n[rings]\nbrightness = 0.5\n")
    settings.set_coach(False)
    with pytest.raises(ValueError, match="true or false"):
        settings.set_coach("off")  # type: ignore[arg-type]
    assert settings.coach is False
    store.close()

    # the owner edits the file's brightness later: staff never changed it, so the file's wins
    again, store, _ = make(tmp_path, "[rules]\ncoach = true\n[rings]\nbrightness = 0.8\n")
    assert (again.coach, again.brightness) == (False, 0.8)
    store.set_progress(OVERRIDES, {**store.progress(OVERRIDES), "coach": True})  # the staff web page
    again.poll()
    assert again.coach is True
    store.close()


def test_without_a_pin_the_default_opens_only_a_desktop_run_and_is_warned_about(tmp_path):
    settings, store, _ = make(tmp_path)
    assert settings.check_pin(DEFAULT_PIN) and not settings.check_pin("1234")
    assert any("staff_pin is not set" in warning and DEFAULT_PIN in warning for warning in settings.warnings)
    store.close()


def test_an_installed_kiosk_never_accepts_a_built_in_pin(tmp_path):
    config = load_config(tmp_path / "none.toml", environ={})
    with SqliteStore(tmp_path / "state") as store:
        settings = KioskSettings(config, store, Reports(), installed=True)
        assert not settings.staff_pin_set
        for pin in (DEFAULT_PIN, "1234", "", "00000000"):
            assert not settings.check_pin(pin)
        assert any("cannot be opened" in warning for warning in settings.warnings)


def set_pin_as_install_sh_does(config: Path, line: str) -> None:
    """``install.sh --set-pin``: the ``staff_pin`` line rewritten in place with ``sed -i``."""
    subprocess.run(["sed", "-i", f"s|^[[:space:]]*staff_pin[[:space:]]*=.*|{line}|", str(config)], check=True)


def test_a_new_staff_pin_opens_the_keypad_at_once_and_the_old_one_never_again(tmp_path):
    """The table's keypad read the staff PIN only when the kiosk started: after the owner set a new
    one (install.sh --set-pin) the old PIN still opened the staff menu until a restart. It takes
    the file's PIN as the web page does (firmware.staff_pin): the new one at once; a PIN damaged
    there opens nothing, not even a desktop run's default."""
    settings, store, _ = make(tmp_path, f'[kiosk]\nstaff_pin = "{hash_pin("2580", rounds=1000)}"\n')
    assert settings.check_pin("2580")
    set_pin_as_install_sh_does(tmp_path / "config.toml", f'staff_pin = "{hash_pin("97531", rounds=1000)}"')
    assert not settings.check_pin("2580") and settings.check_pin("97531") and settings.staff_pin_set
    set_pin_as_install_sh_does(tmp_path / "config.toml", 'staff_pin = "pbkdf2-sha256$1000$damaged"')
    assert not settings.staff_pin_set
    assert [settings.check_pin(pin) for pin in ("97531", DEFAULT_PIN)] == [False, False]
    store.close()


def test_an_installed_kiosk_takes_a_new_pin_and_keeps_it_through_a_damaged_file(tmp_path):
    """The kiosk as systemd starts it: a PIN set while it runs opens the keypad at once and becomes
    the last good one, which a file damaged afterwards falls back on, as a restart would."""
    state = tmp_path / "state"
    environ = {"STATE_DIRECTORY": str(state), "INVOCATION_ID": "test"}
    config = tmp_path / "config.toml"
    config.write_text(f'[kiosk]\nstaff_pin = "{hash_pin("2580", rounds=1000)}"\n[storage]\ndirectory = "{state}"\n')
    with Runtime(Launch(config=str(config), simulate=True), environ=environ) as runtime:
        settings = runtime.settings
        assert settings.check_pin("2580")
        set_pin_as_install_sh_does(config, f'staff_pin = "{hash_pin("97531", rounds=1000)}"')
        assert not settings.check_pin("2580") and settings.check_pin("97531")
        set_pin_as_install_sh_does(config, 'staff_pin = "1234"')  # a plain PIN: refused
        assert not settings.check_pin("1234") and settings.check_pin("97531")
        assert not settings.check_pin(DEFAULT_PIN)
    with Runtime(Launch(config=str(config), simulate=True), environ=environ) as restarted:
        assert restarted.settings.check_pin("97531")


def test_warnings_gather_the_configuration_and_what_happens_later(tmp_path):
    settings, store, reports = make(tmp_path, "[kiosk]\nidle_seconds = 1\n")
    assert len(settings.warnings) == 2  # idle_seconds out of range, no staff PIN
    reports("the database failed: full")
    reports("the database failed: full")
    assert settings.warnings[-1] == "the database failed: full" and len(settings.warnings) == 3
    store.close()


def test_wrong_pins_back_off_growing_persisted_and_shown(tmp_path):
    now = [1_000_000.0]
    config = Config(kiosk=KioskConfig(staff_pin=hash_pin("1357", rounds=1000)))
    store = SqliteStore(tmp_path)
    settings = KioskSettings(config, store, Reports(), clock=lambda: now[0])
    for _ in range(FREE_TRIES - 1):
        assert not settings.check_pin("0000")
    assert settings.check_pin("1357") and settings.pin_wait() == 0  # a right PIN resets the count
    locks = []
    for _ in range(FREE_TRIES + 3):
        assert not settings.check_pin("0000")
        locks.append(settings.pin_wait())
        if locks[-1]:
            assert not settings.check_pin("1357")  # locked: even the right PIN is refused unchecked
            now[0] += locks[-1]
    assert locks[:FREE_TRIES - 1] == [0.0] * (FREE_TRIES - 1)
    growing = locks[FREE_TRIES - 1:]
    assert growing[0] > 0 and all(b == 2 * a for a, b in zip(growing, growing[1:]))
    assert not settings.check_pin("0000")
    wait = settings.pin_wait()
    store.close()
    store = SqliteStore(tmp_path)  # a power cycle resets nothing
    again = KioskSettings(config, store, Reports(), clock=lambda: now[0])
    assert again.pin_wait() == wait and not again.check_pin("1357")
    now[0] -= 10 * 365 * 86400  # the clock set back by years: the wait is never longer than the lock
    assert again.pin_wait() == wait
    now[0] += 10 * 365 * 86400 + wait
    assert again.check_pin("1357")
    store.close()


def test_a_keypad_lock_seen_after_the_clock_was_set_back_still_runs_out(tmp_path):
    config = Config(kiosk=KioskConfig(staff_pin=hash_pin("1357", rounds=1000)))
    now = [2_000_000_000.0]
    store = SqliteStore(tmp_path)
    settings = KioskSettings(config, store, Reports(), clock=lambda: now[0])
    while not settings.pin_wait():
        assert not settings.check_pin("0000")
    lock = settings.pin_wait()
    now[0] -= 30 * 86400  # booted on a month-old time: the network is not there yet
    assert settings.pin_wait() == lock and not settings.check_pin("1357")
    now[0] += lock / 2
    store.close()
    store = SqliteStore(tmp_path)  # a power cycle in between: the lock goes on from where it was
    again = KioskSettings(config, store, Reports(), clock=lambda: now[0])
    assert again.pin_wait() == lock / 2
    now[0] += lock / 2  # the lock's length, not the month the clock is behind
    assert again.pin_wait() == 0 and again.check_pin("1357")
    store.close()


@pytest.mark.parametrize("damaged", [
    '{"wrong": 9, "until": 1000',  # cut short: not JSON
    '[9, 1000.0, 30.0]',  # JSON, not an object
    '{}',
    '{"wrong": "9", "until": 1000.0, "lock": 30.0}',
    '{"wrong": true, "until": 1000.0, "lock": 30.0}',
    '{"wrong": -9, "until": 1000.0, "lock": 30.0}',
    '{"wrong": 9, "until": NaN, "lock": 30.0}',
    '{"wrong": 9, "until": 1000.0, "lock": -30.0}',
])
def test_a_damaged_pin_record_locks_the_keypad_fully_from_when_it_is_found(tmp_path, damaged):
    # a damaged record read as no wrong PINs: damaging it unlocked the keypad for a guesser
    now = [1_000_000.0]
    config = Config(kiosk=KioskConfig(staff_pin=hash_pin("1357", rounds=1000)))
    store = SqliteStore(tmp_path)
    store.transaction(lambda db: db.execute("INSERT INTO progress (key, value) VALUES (?, ?)", (PIN_STATE, damaged)))
    reports = Reports()
    settings = KioskSettings(config, store, reports, clock=lambda: now[0])
    assert settings.pin_wait() == LONGEST_LOCK_SECONDS and not settings.check_pin("1357")
    assert len(reports.all()) == 1 and "was damaged" in reports.all()[0]
    now[0] += LONGEST_LOCK_SECONDS - 10
    assert settings.pin_wait() == 10  # from when it was found, not from each look
    store.close()
    store = SqliteStore(tmp_path)  # a power cycle resets nothing
    again = KioskSettings(config, store, Reports(), clock=lambda: now[0])
    assert again.pin_wait() == 10 and not again.check_pin("1357")
    now[0] += 10
    assert not again.check_pin("0000") and again.pin_wait() == LONGEST_LOCK_SECONDS  # counted as the most wrong
    now[0] += LONGEST_LOCK_SECONDS
    assert again.check_pin("1357") and again.pin_wait() == 0
    store.close()


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_store_without_a_pin_record_has_no_wrong_pins(tmp_path, kind):
    config = Config(kiosk=KioskConfig(staff_pin=hash_pin("1357", rounds=1000)))
    store = SqliteStore(tmp_path) if kind == "sqlite" else MemoryStore()
    reports = Reports()
    settings = KioskSettings(config, store, reports)
    assert store.saved_progress(PIN_STATE) is None and store.progress(PIN_STATE) == {}
    assert settings.pin_wait() == 0 and not settings.check_pin("0000") and settings.pin_wait() == 0
    assert store.saved_progress(PIN_STATE)["wrong"] == 1 and not reports.all()
    assert settings.check_pin("1357") and store.saved_progress(PIN_STATE)["wrong"] == 0
    if isinstance(store, SqliteStore):
        store.close()


def test_the_lock_grows_to_a_ceiling_that_makes_guessing_hopeless():
    assert lock_seconds(FREE_TRIES - 1, FREE_TRIES) == 0 and lock_seconds(FREE_TRIES, FREE_TRIES) > 0
    assert lock_seconds(1000, FREE_TRIES) == LONGEST_LOCK_SECONDS
    hours = sum(lock_seconds(n, FREE_TRIES) for n in range(10_000)) / 3600  # every 4-digit PIN tried
    assert hours > 365 * 24
