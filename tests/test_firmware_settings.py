"""The Settings the UI reads: configuration values, staff changes that persist, the staff PIN."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.config import Config, KioskConfig, load_config
from firmware.pin import hash_pin, is_pin_hash, verify_pin
from firmware.settings import DEFAULT_PIN, OVERRIDES, PIN_LOCKOUT_SECONDS, PIN_TRIES, KioskSettings, Reports
from firmware.store import SqliteStore
from ui.services import Settings


def test_pin_hashes_are_salted_pbkdf2_and_verify():
    one, two = hash_pin("482916"), hash_pin("482916")
    assert one != two and is_pin_hash(one) and one.startswith("pbkdf2-sha256$100000$")
    assert verify_pin("482916", one) and verify_pin("482916", two)
    assert not verify_pin("482917", one) and not verify_pin("482916", "pbkdf2-sha256$1$00$00")
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


def test_a_stale_staff_change_is_reported_not_applied(tmp_path):
    with SqliteStore(tmp_path / "state") as store:
        store.set_progress(OVERRIDES, {"language": "xx", "brightness": 0.2})
    settings, store, reports = make(tmp_path)
    assert settings.language == "en" and settings.brightness == 0.4
    assert any("no longer valid" in warning for warning in settings.warnings)
    store.close()


def test_without_a_pin_the_default_is_warned_about(tmp_path):
    settings, store, _ = make(tmp_path)
    assert settings.check_pin(DEFAULT_PIN) and not settings.check_pin("1234")
    assert any("staff_pin is not set" in warning and DEFAULT_PIN in warning for warning in settings.warnings)
    store.close()


def test_warnings_gather_the_configuration_and_what_happens_later(tmp_path):
    settings, store, reports = make(tmp_path, "[kiosk]\nidle_seconds = 1\n")
    assert len(settings.warnings) == 2  # idle_seconds out of range, no staff PIN
    reports("the database failed: full")
    reports("the database failed: full")
    assert settings.warnings[-1] == "the database failed: full" and len(settings.warnings) == 3
    store.close()


def test_wrong_pins_lock_the_staff_menu_for_a_while(tmp_path):
    now = [0.0]
    config = Config(kiosk=KioskConfig(staff_pin=hash_pin("1357", rounds=1000)))
    with SqliteStore(tmp_path) as store:
        settings = KioskSettings(config, store, Reports(), clock=lambda: now[0])
        for _ in range(PIN_TRIES - 1):
            assert not settings.check_pin("0000")
        assert settings.check_pin("1357")  # a right PIN resets the count
        for _ in range(PIN_TRIES):
            assert not settings.check_pin("0000")
        assert not settings.check_pin("1357")  # locked, even the right one
        now[0] += PIN_LOCKOUT_SECONDS + 1
        assert settings.check_pin("1357")
