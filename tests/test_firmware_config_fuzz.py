"""Configuration fuzz: every kind of broken file a café, a club or a text editor produces. None may
stop the kiosk, and none may change the staff PIN or the storage directory of the last good file."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.config import LAST_GOOD, load_config
from firmware.pin import hash_pin
from firmware.runtime import Launch, Runtime

PIN = hash_pin("48151623", rounds=1000)
GOOD = f'[kiosk]\nstaff_pin = "{PIN}"\nlanguage = "fr"\n[storage]\ndirectory = "{{state}}"\n'

BROKEN: dict[str, bytes] = {
    "syntax slip": b'[kiosk\nlanguage = "en"\n',
    "duplicated table": b'[kiosk]\nlanguage = "en"\n[kiosk]\nidle_seconds = 60\n',
    "duplicated key": b'[kiosk]\nlanguage = "en"\nlanguage = "fr"\n',
    "plain PIN instead of its hash": b'[kiosk]\nstaff_pin = "1234"\n',
    "PIN as a number": b"[kiosk]\nstaff_pin = 1234\n",
    "PIN as a list": b'[kiosk]\nstaff_pin = ["1234"]\n',
    "PIN as a table": b'[kiosk.staff_pin]\nvalue = "1234"\n',
    "hash with too few rounds": b'[kiosk]\nstaff_pin = "pbkdf2-sha256$1$00$00"\n',
    "PIN line deleted": b'[kiosk]\nlanguage = "en"\n',
    "empty file": b"",
    "only a comment": b"# emptied by someone\n",
    "only a byte order mark": b"\xef\xbb\xbf",
    "kiosk is a string": b'kiosk = "on"\n',
    "kiosk is an array of tables": b'[[kiosk]]\nlanguage = "en"\n',
    "storage is a list": b"storage = [1, 2]\n",
    "directory as a number": b"[storage]\ndirectory = 5\n",
    "directory as a boolean": b"[storage]\ndirectory = true\n",
    "value nested 5,000 deep": b"[kiosk]\nlanguage = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "inline tables nested deep": b"x = " + b"{a = " * 3000 + b"1" + b"}" * 3000 + b"\n",
    "a 10,000-digit number": b"[kiosk]\nidle_seconds = " + b"9" * 10_000 + b"\n",
    "invalid UTF-8": b'[kiosk]\nlanguage = "\xff\xfe"\n',
    "Latin-1 text": '[kiosk]\nlanguage = "français"\n'.encode("latin-1"),
    "UTF-16 from Notepad": '[kiosk]\nlanguage = "en"\n'.encode("utf-16"),
    "NUL bytes": b"[kiosk]\x00\x00\nlanguage = \x00\n",
    "binary garbage": bytes(range(256)) * 8,
    "truncated mid-line": f'[kiosk]\nstaff_pin = "{PIN[:20]}'.encode(),
    "truncated hash": f'[kiosk]\nstaff_pin = "{PIN[:-3]}"\n'.encode(),
    "dotted key then its table": b'kiosk.language = "en"\n[kiosk]\nidle_seconds = 60\n',
    "unclosed string": b'[kiosk]\nlanguage = "en\n',
    "unclosed array": b"[rings]\nrings = [{leds = 12},\n",
    "a huge line": b"[kiosk]\n" + b"a" * 1_000_000 + b" = 1\n",
    "a key with no value": b"[kiosk]\nstaff_pin =\n",
    "tabs and junk after a value": b'[kiosk]\nlanguage = "en" junk\n',
    "broken device table": b'[rings]\nrings = "twelve"\nbrightness = 7\n',
    "negative sizes": b"[storage]\nmax_mb = -1\nkeep_records = 0\n",
    "a markdown file": b"# Config\n\n* kiosk: on\n",
}


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A state directory as systemd gives it, holding a last good copy of a good configuration."""
    state = tmp_path / "state"
    state.mkdir()
    environ = {"STATE_DIRECTORY": str(state)}
    good = load_config(write(tmp_path, "good.toml", GOOD.format(state=state).encode()), environ,
                       last_good=state / LAST_GOOD)
    assert good.warnings == () and good.kiosk.staff_pin == PIN and (state / LAST_GOOD).exists()
    return state, environ


def test_there_are_at_least_32_kinds():
    assert len(BROKEN) >= 32


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_no_broken_file_changes_the_pin_or_the_storage(tmp_path, installed, kind):
    state, environ = installed
    config = load_config(write(tmp_path, "config.toml", BROKEN[kind]), environ, last_good=state / LAST_GOOD)
    assert config.kiosk.staff_pin == PIN and config.storage.directory == str(state)
    assert config.warnings, "a broken file is always reported"
    assert all(str(tmp_path / "config.toml") in warning for warning in config.warnings)


def test_a_byte_order_mark_and_windows_line_ends_are_fine(tmp_path, installed):
    state, environ = installed
    text = GOOD.format(state=state).replace("\n", "\r\n").encode("utf-8-sig")
    config = load_config(write(tmp_path, "config.toml", text), environ, last_good=state / LAST_GOOD)
    assert config.warnings == () and config.kiosk.language == "fr" and config.kiosk.staff_pin == PIN


def test_a_new_good_file_becomes_the_last_good_one(tmp_path, installed):
    state, environ = installed
    other = hash_pin("2718281828", rounds=1000)  # 10 digits: the keypad takes it too
    good = write(tmp_path, "config.toml", f'[kiosk]\nstaff_pin = "{other}"\n[storage]\ndirectory = "{state}"\n'
                 .encode())
    assert load_config(good, environ, last_good=state / LAST_GOOD).kiosk.staff_pin == other
    broken = write(tmp_path, "config.toml", BROKEN["syntax slip"])
    assert load_config(broken, environ, last_good=state / LAST_GOOD).kiosk.staff_pin == other


def test_a_refused_pin_kept_from_the_last_good_copy_is_not_said_to_be_the_default(tmp_path, installed):
    """Staff read the warnings: the refused PIN's said "using the default \"\"" (no PIN at all),
    though the kiosk kept the PIN it had."""
    state, environ = installed
    config = load_config(write(tmp_path, "config.toml", BROKEN["plain PIN instead of its hash"]), environ,
                         last_good=state / LAST_GOOD)
    assert config.kiosk.staff_pin == PIN
    (said,) = [warning for warning in config.warnings if "kiosk.staff_pin = " in warning]
    assert said.startswith(f'{tmp_path / "config.toml"}: kiosk.staff_pin = "1234": expected a hash')
    assert "using the default" not in said and said.endswith("keeping the last good configuration's value")


def test_without_a_last_good_copy_a_refused_pin_stays_unset(tmp_path):
    config = load_config(write(tmp_path, "config.toml", BROKEN["plain PIN instead of its hash"]), {},
                         last_good=tmp_path / "state" / LAST_GOOD)
    assert config.kiosk.staff_pin == "" and not (tmp_path / "state" / LAST_GOOD).exists()


def test_the_kiosk_starts_on_every_broken_file_with_the_pin_it_had(tmp_path, installed):
    """The runtime as systemd starts it (state directory in the environment), once per kind."""
    state, environ = installed
    for kind, data in BROKEN.items():
        path = write(tmp_path, "config.toml", data)
        with Runtime(Launch(config=str(path), simulate=True), environ=environ) as runtime:
            assert runtime.store.path.parent == state, kind
            assert runtime.settings.staff_pin_set and not runtime.settings.check_pin("0000"), kind
            assert runtime.settings.check_pin("48151623"), kind


def test_a_club_tables_tls_and_password_lines_deleted_by_mistake_are_kept(tmp_path):
    """With the club link on, a file that no longer says ``tls`` or ``password_file`` keeps them
    from the last good file (a deleted line must not mean a table talking to the broker in clear
    or without its password); saying ``tls = false`` turns TLS off, and so does a link turned off."""
    state = tmp_path / "state"
    environ, last_good = {"STATE_DIRECTORY": str(state)}, state / LAST_GOOD
    club = '[club]\nenabled = true\nbroker = "club.example"\nport = 8883\ntable = "t1"\n'
    secret = '\npassword_file = "/etc/tantrix-kiosk/broker-password"\ntls = true\n'
    good = load_config(write(tmp_path, "config.toml", (GOOD.format(state=state) + club + secret).encode()), environ,
                       last_good=last_good)
    assert good.warnings == () and good.club.tls and last_good.exists()

    deleted = load_config(write(tmp_path, "config.toml", (GOOD.format(state=state) + club).encode()), environ,
                          last_good=last_good)
    assert deleted.club.enabled and deleted.club.tls
    assert deleted.club.password_file == "/etc/tantrix-kiosk/broker-password"
    assert len(deleted.warnings) == 1 and "club.tls and club.password_file kept" in deleted.warnings[0]
    assert str(tmp_path / "config.toml") in deleted.warnings[0] and "give a new value" in deleted.warnings[0]

    meant = load_config(write(tmp_path, "config.toml", (GOOD.format(state=state) + club + 'tls = false\n'
                                                        'password_file = ""\n').encode()), environ,
                        last_good=last_good)
    assert meant.warnings == () and not meant.club.tls and meant.club.password_file == ""

    off = load_config(write(tmp_path, "config.toml", GOOD.format(state=state).encode()), environ,
                      last_good=last_good)
    assert off.warnings == () and not off.club.enabled
