"""The entry point and the runtime: command line, start-up with good and bad configurations."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from firmware.__main__ import window_size
from firmware.pin import verify_pin
from firmware.runtime import Launch, Runtime
from kiosk_process import kiosk_process

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "systemd" / "config.example.toml"


def kiosk(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM")}
    return subprocess.run([sys.executable, "-m", "firmware", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, env={**environ, **(env or {})}, timeout=60)


def test_the_kiosk_starts_on_a_broken_configuration_draws_and_keeps_the_watchdog_fed(tmp_path):
    """The whole kiosk as systemd runs it: a real process, the real UI rendering headless, a real
    datagram socket standing in for systemd's notify socket."""
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{tmp_path / "state"}"\n[kiosk]\nidle_seconds = -1\n')
    with kiosk_process(tmp_path, config, WATCHDOG_USEC="2000000") as kiosk:
        messages = kiosk.said("READY=1")
        while "WATCHDOG=1" not in messages[-1]:
            messages += kiosk.said("WATCHDOG=1")
        assert sum("READY=1" in m for m in messages) == 1
    process, stderr = kiosk.process, kiosk.stderr  # stopped as systemctl stop does
    assert process.returncode == 0, stderr
    assert f"{config}: kiosk.idle_seconds = -1: expected a number from 10 to 3600" in stderr
    assert (tmp_path / "state" / "kiosk.db").exists()


def test_bad_arguments_are_refused():
    assert window_size("800x480") == (800, 480)
    done = kiosk("--size", "big")
    assert done.returncode == 2 and "expected WIDTHxHEIGHT" in done.stderr


def test_check_config_lists_problems(tmp_path):
    fine = kiosk("check-config", str(EXAMPLE))
    assert fine.returncode == 0 and fine.stdout.strip() == f"{EXAMPLE}: fine"
    broken = tmp_path / "broken.toml"
    broken.write_text('[rules]\nend_rule = "never"\n[kiosk]\nlanguag = "fr"\n')
    done = kiosk("check-config", str(broken))
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 2 and all(line.startswith(f"{broken}: ") for line in lines)
    assert 'rules.end_rule = "never": expected one of "all-placed", "first-out"' in lines[0]
    assert "unknown key kiosk.languag (did you mean language?)" in lines[1]


def test_hash_pin_prints_a_line_for_the_configuration():
    done = kiosk("hash-pin", stdin="73519\n")
    assert done.returncode == 0, done.stderr
    key, _, value = done.stdout.strip().partition(" = ")
    assert key == "staff_pin" and verify_pin("73519", json.loads(value))
    refused = kiosk("hash-pin", stdin="12\n")
    assert refused.returncode == 2 and "4 to 12 digits" in refused.stderr and refused.stdout == ""


def test_storage_problems_reach_staff_and_systemd(tmp_path):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(1)
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{blocker / "state"}"\n')
    try:
        with Runtime(Launch(config=str(config)), environ={"NOTIFY_SOCKET": str(tmp_path / "notify")}) as runtime:
            assert runtime.store.in_memory
            (problem,) = [w for w in runtime.settings.warnings if "cannot be used" in w]
            assert listener.recv(4096).decode() == "STATUS=" + problem
        assert listener.recv(4096) == b"STOPPING=1"
    finally:
        listener.close()


def test_the_runtime_uses_the_configured_storage(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{tmp_path}"\nkeep_records = 10\n')
    with Runtime(Launch(config=str(config)), environ={}) as runtime:
        assert runtime.store.path == tmp_path / "kiosk.db" and runtime.store.journal_mode == "wal"
        for i in range(12):
            runtime.store.add_record("strategy", {"i": i})
        assert runtime.store.statistics()["records"] == 10
    with pytest.raises(sqlite3.ProgrammingError):
        runtime.store.load_current()  # closed


def test_self_test_opens_a_copy_of_the_database_and_writes_nothing_there(tmp_path):
    from firmware.store import SqliteStore

    state = tmp_path / "state"
    with SqliteStore(state) as store:
        store.add_record("strategy", {"n": 1})
        store.add_record("gobbles", {"n": 2})
        store.wait_for_backup()
    before = {p.name: p.stat().st_mtime_ns for p in state.iterdir()}
    done = kiosk("--config", str(tmp_path / "none.toml"), "self-test", "--state", str(state),
                 env={"KIVY_WINDOW": "", "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("self-test: ") and "2 games counted" in done.stdout
    assert {p.name: p.stat().st_mtime_ns for p in state.iterdir()} == before


def test_self_test_says_which_file_of_the_database_it_cannot_read_and_checks_the_rest(tmp_path):
    """A write-ahead log the kiosk's user cannot read (permissions 000) stopped the self-test on a bare
    PermissionError, with none of the other checks run. That check fails now, naming the file and
    the reason; the others still run, and the exit status says it failed."""
    import shutil

    from firmware.store import SqliteStore

    live, state = tmp_path / "live", tmp_path / "state"
    store = SqliteStore(live)
    store.add_record("strategy", {"n": 1})
    state.mkdir()
    for name in ("kiosk.db", "kiosk.db-wal"):  # as a power cut leaves them
        shutil.copyfile(live / name, state / name)
    store.close()
    (state / "kiosk.db-wal").chmod(0)
    prefix = []
    if os.geteuid() == 0:  # root reads past permissions; a kiosk's user does not
        setpriv = shutil.which("setpriv")
        assert setpriv, "util-linux's setpriv is needed to obey file permissions as root"
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    environ = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM")}
    done = subprocess.run([*prefix, sys.executable, "-m", "firmware", "--config", str(tmp_path / "none.toml"),
                           "self-test", "--state", str(state)], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**environ, "KIVY_WINDOW": "", "KIVY_HOME": str(tmp_path / "kivy"),
                               "KIVY_NO_CONSOLELOG": "1"})
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    lines = done.stdout.splitlines()  # on stdout: Kivy's logger holds stderr, and keeps it off the console here
    assert [line for line in lines if line.startswith("self-test: FAILED: ")] == [
        f"self-test: FAILED: the database opens: {state / 'kiosk.db-wal'} cannot be read (Permission denied)"]
    assert "self-test: passed: every module imports" in lines and "self-test: passed: the configuration loads" in lines
    assert lines[-1].startswith("self-test: 1 of 3 checks failed")


def test_self_test_says_whether_the_robots_engine_is_compiled(tmp_path):
    """install.sh once compiled the checkout's engine instead of the release's, and every self-test
    passed: the robots thought at source speed and nothing said so. Now the self-test says it."""
    from engine.compiled import summary

    env = {"KIVY_WINDOW": "", "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1"}
    done = kiosk("--config", str(tmp_path / "none.toml"), "self-test", env=env)
    assert done.returncode == 0, done.stderr
    assert f"fine (engine {summary()}, " in done.stdout
    pure = kiosk("--config", str(tmp_path / "none.toml"), "self-test", env={**env, "TANTRIX_PURE_PYTHON": "1"})
    assert pure.returncode == 0, pure.stderr
    assert "fine (engine from source (" in pure.stdout


def test_self_test_passes_without_the_optimisers_solver(tmp_path):
    """A Pi installs no OR-Tools (the extra "optimise", which ./dev test installs here): the
    release's self-test must pass without it, or install.sh never switches to any release."""
    missing = tmp_path / "missing" / "ortools"
    missing.mkdir(parents=True)  # on the path first: any import of ortools fails as if not installed
    (missing / "__init__.py").write_text('raise ModuleNotFoundError("No module named \'ortools\'", name="ortools")\n')
    done = kiosk("--config", str(tmp_path / "none.toml"), "self-test",
                 env={"KIVY_WINDOW": "", "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1",
                      "PYTHONPATH": str(missing.parent)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("self-test: ") and "fine" in done.stdout


def test_self_test_run_by_hand_with_a_configuration_is_not_parsed_by_kivy():
    """As staff type it on the Pi: ``--config`` is ours even once self-test has imported Kivy. The
    paths must not contain "pytest" (as ``tmp_path``'s do): Kivy then skips its parsing, hiding this."""
    with tempfile.TemporaryDirectory(prefix="tantrix-by-hand-") as scratch:
        place = Path(scratch)
        (place / "config.toml").write_text(f'[storage]\ndirectory = "{place / "state"}"\n')
        done = kiosk("--config", str(place / "config.toml"), "self-test", "--state", str(place / "state"),
                     env={"KIVY_WINDOW": "", "KIVY_HOME": str(place / "kivy"), "KIVY_NO_CONSOLELOG": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("self-test: ") and "fine" in done.stdout


def test_a_tty_hang_up_stops_the_kiosk_cleanly(tmp_path):
    """SIGHUP (tty1 hung up) unwinds as systemctl stop does: the store closes, systemd hears
    STOPPING=1, and the exit status (0) is one the unit restarts."""
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\ndirectory = "{tmp_path / "state"}"\n')
    with kiosk_process(tmp_path, config) as kiosk:
        kiosk.said("READY=1")
        kiosk.process.send_signal(signal.SIGHUP)
        kiosk.said("STOPPING=1")
        kiosk.process.wait(timeout=30)  # by itself: not the end of the block's stop
    process, stderr = kiosk.process, kiosk.stderr
    assert process.returncode == 0, stderr
