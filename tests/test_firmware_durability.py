"""The store under real crashes and a real read-only disk, in separate processes.

A child process journals steps in a loop and prints each step only after ``save_current`` has
returned (as the UI shows a step only then). The parent SIGKILLs it at random moments, including
while it is still starting and creating the database, and checks that every restart resumes exactly
the last step printed, or the one after it (committed, but killed before it could print).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.players import Players
from firmware.store import SqliteStore

ROOT = Path(__file__).resolve().parent.parent
KILLS = 60

JOURNAL_LOOP = """
import sys
from firmware.players import Players
from firmware.store import SqliteStore
store = SqliteStore(sys.argv[1], report=lambda message: print("REPORT", message, flush=True))
saved = store.load_current()
step = saved["state"]["step"] if saved else 0
if saved and saved["state"]["payload"] != [step] * (step % 97):
    print("TORN", step, flush=True)
print("RESUMED", step, flush=True)
while True:
    step += 1
    store.save_current({"kind": "test-journey", "state": {"step": step, "payload": [step] * (step % 97)}})
    print(step, flush=True)
"""


def spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_sigkill_at_random_moments_never_loses_or_tears_a_step(tmp_path):
    rng = random.Random(20261122)
    last_printed = 0
    resumes = 0
    for kill in range(KILLS):
        child = spawn(JOURNAL_LOOP, str(tmp_path))
        assert child.stdout is not None
        seen: list[str] = []
        if kill % 5 == 0:
            time.sleep(rng.uniform(0, 0.15))  # often while importing, opening or creating the schema
        else:
            for _ in range(1 + rng.randrange(0, 12)):  # RESUMED, then some steps
                seen.append(child.stdout.readline())
            time.sleep(rng.uniform(0, 0.004))
        child.send_signal(signal.SIGKILL)
        child.wait()
        # through the same buffered file readline used: communicate() would skip what it buffered
        output, errors = child.stdout.read(), child.stderr.read()
        child.stdout.close()
        child.stderr.close()
        assert child.returncode == -signal.SIGKILL
        # a line the kill cut short (output is unbuffered) is not a message
        lines = [line.split() for line in "".join(seen + [output]).split("\n")[:-1]]
        assert all(words[0] not in ("REPORT", "TORN") for words in lines), (lines, errors)
        if lines:
            assert lines[0][0] == "RESUMED", (lines, errors)
            resumed = int(lines[0][1])
            assert resumed in (last_printed, last_printed + 1), (kill, resumed, last_printed)
            resumes += 1
            steps = [int(words[0]) for words in lines[1:]]
            assert steps == list(range(resumed + 1, resumed + 1 + len(steps)))
            last_printed = steps[-1] if steps else resumed
    assert resumes >= KILLS * 3 // 4 and last_printed > KILLS
    with SqliteStore(tmp_path) as store:
        assert store.load_current()["state"]["step"] in (last_printed, last_printed + 1)


READ_ONLY_CHECK = """
import json, sys, tempfile
from firmware.players import Players
from firmware.store import SqliteStore
tempfile.tempdir = sys.argv[2] if len(sys.argv) > 2 else None
reports = []
store = SqliteStore(sys.argv[1], report=reports.append)
before = store.load_current()
store.save_current({"kind": "test-journey", "state": {"step": 99}})
print(json.dumps({"in_memory": store.in_memory, "reports": reports, "before": before,
                  "after": store.load_current(), "storage": store.statistics()["storage"],
                  "tags": store.tags(), "games": store.statistics()["games"],
                  "players": [name for (name,) in store.query("SELECT name FROM players ORDER BY name")]}))
"""


def run_on_read_only(directory: Path, state: Path | None = None, temporary: Path | None = None) -> dict:
    """Run READ_ONLY_CHECK on ``state`` (default ``directory``), with ``directory`` read-only for
    real: a read-only bind mount in a private mount namespace when we are root (root ignores
    permission bits), else chmod; ``temporary``: the temporary directory it is given."""
    extra = [str(state or directory)] + ([str(temporary)] if temporary is not None else [])
    if os.geteuid() == 0:
        unshare = shutil.which("unshare")
        assert unshare, "util-linux's unshare is needed to make a read-only directory as root"
        script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
        command = [unshare, "--mount", "sh", "-c", script, "sh", str(directory), sys.executable, "-c",
                   READ_ONLY_CHECK, *extra]
    else:
        for path in [directory, *directory.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        command = [sys.executable, "-c", READ_ONLY_CHECK, *extra]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_read_only_directory_keeps_what_it_holds_and_plays_on_in_memory(tmp_path):
    state = tmp_path / "state"
    with SqliteStore(state) as store:
        store.save_current({"kind": "test-journey", "state": {"step": 7}})
    result = run_on_read_only(state)
    assert result["in_memory"] is True and len(result["reports"]) == 1
    assert "cannot be written" in result["reports"][0] and "in memory" in result["storage"]
    assert result["before"] == {"kind": "test-journey", "state": {"step": 7}}  # read before going on
    assert result["after"] == {"kind": "test-journey", "state": {"step": 99}}
    with SqliteStore(state) as store:  # writable again: the disk copy is as it was
        assert store.load_current() == {"kind": "test-journey", "state": {"step": 7}}


def test_an_empty_read_only_directory_starts_in_memory(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    result = run_on_read_only(state)
    assert result["in_memory"] is True and result["before"] is None and len(result["reports"]) == 1
    assert result["after"] == {"kind": "test-journey", "state": {"step": 99}}
    assert not (state / "kiosk.db").exists()


def test_a_read_only_directory_still_gives_the_steps_in_its_wal(tmp_path):
    state, copy = tmp_path / "state", tmp_path / "copy"
    copy.mkdir()
    store = SqliteStore(state)
    store.save_current({"kind": "test-journey", "state": {"step": 8}})
    for name in ("kiosk.db", "kiosk.db-wal"):  # as a power cut leaves them: the last step only in the WAL
        shutil.copyfile(state / name, copy / name)
    store.close()
    assert (copy / "kiosk.db-wal").stat().st_size > 0
    result = run_on_read_only(copy)
    assert result["in_memory"] is True
    assert result["before"] == {"kind": "test-journey", "state": {"step": 8}}


def test_a_card_read_only_with_its_tmp_still_gives_what_it_holds(tmp_path):
    # the kernel remounts a failing card read-only, and /tmp on it (Raspberry Pi OS; the unit's
    # PrivateTmp) with it: the copy made to read the database could not be made, and the store
    # raised at start, so the kiosk stopped at every start
    card = tmp_path / "card"
    state, temporary = card / "state", card / "tmp"
    temporary.mkdir(parents=True)
    with SqliteStore(state) as store:
        store.save_current({"kind": "test-journey", "state": {"step": 5}})
    result = run_on_read_only(card, state, temporary)
    assert result["in_memory"] is True and result["before"] == {"kind": "test-journey", "state": {"step": 5}}


def run_without_reading_rights(state: Path, script: str = READ_ONLY_CHECK) -> dict:
    """Run ``script`` on ``state`` in a process that obeys file permissions: as root, one without
    the capabilities that let root read and write past them (a kiosk runs as a user)."""
    prefix = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "util-linux's setpriv is needed to obey file permissions as root"
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    done = subprocess.run([*prefix, sys.executable, "-c", script, str(state)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def unreadable_beside_its_good_copy(state: Path) -> None:
    """A database with one finished game in its good copy, then made unreadable (permissions 000)."""
    with SqliteStore(state) as store:
        store.add_record("strategy", {"n": 1})
        store.wait_for_backup()
    (state / "kiosk.db").chmod(0)


def test_an_unreadable_database_is_healed_from_its_good_copy_not_played_in_memory(tmp_path):
    # the kiosk ran in memory, on nothing (no tags, no players, no games), at every start, beside
    # a good copy it could read
    state = tmp_path / "state"
    unreadable_beside_its_good_copy(state)
    result = run_without_reading_rights(state)
    assert result["in_memory"] is False and result["storage"] == str(state / "kiosk.db")
    assert len(result["reports"]) == 1 and "cannot be read" in result["reports"][0]
    assert "restored from the last-known-good copy: counters 1, records 1" in result["reports"][0]
    aside = list(state.glob("kiosk.db.unusable-*"))
    assert len(aside) == 1 and aside[0].stat().st_mode & 0o777 == 0  # kept as it was, never deleted
    assert result["after"] == {"kind": "test-journey", "state": {"step": 99}}
    with SqliteStore(state) as store:  # the next start: the healed file, the step played after the heal
        assert store.statistics()["games"] == {"strategy": 1}
        assert store.load_current() == {"kind": "test-journey", "state": {"step": 99}}


def test_an_unreadable_database_in_a_directory_that_cannot_be_written_says_why_play_is_in_memory(tmp_path):
    state = tmp_path / "state"
    unreadable_beside_its_good_copy(state)
    state.chmod(0o555)
    try:
        result = run_without_reading_rights(state)
    finally:
        state.chmod(0o755)
    assert result["in_memory"] is True and len(result["reports"]) == 1
    assert "cannot be read" in result["reports"][0] and "cannot be replaced" in result["reports"][0]
    assert result["storage"].startswith("in memory only: ") and "cannot be replaced" in result["storage"]
    assert result["after"] == {"kind": "test-journey", "state": {"step": 99}}
    assert sorted(path.name for path in state.iterdir()) == ["kiosk.db", "kiosk.db.good", "kiosk.db.lock"]


def test_a_write_ahead_log_that_cannot_be_read_is_healed_from_the_good_copy_and_the_file(tmp_path):
    # a readable kiosk.db beside a kiosk.db-wal it could not read (permissions 000) sent the kiosk
    # to memory with nothing in it: no tags, no players, no games, at every start
    live, state = tmp_path / "live", tmp_path / "state"
    store = SqliteStore(live)
    store.transaction(lambda db: db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('00AB', 7)"))
    Players(store).create("Alice")
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.save_current({"kind": "test-journey", "state": {"step": 4}})  # newer than the good copy...
    store.query("PRAGMA wal_checkpoint(TRUNCATE)")  # ...and in the file itself
    store.save_current({"kind": "test-journey", "state": {"step": 5}})  # only in the log
    state.mkdir()
    for name in ("kiosk.db", "kiosk.db-wal", "kiosk.db.good"):  # as a power cut leaves them
        shutil.copyfile(live / name, state / name)
    store.close()
    assert (state / "kiosk.db-wal").stat().st_size > 0
    (state / "kiosk.db-wal").chmod(0)
    result = run_without_reading_rights(state)
    assert result["in_memory"] is False and result["storage"] == str(state / "kiosk.db")
    assert len(result["reports"]) == 1, result["reports"]
    assert "kiosk.db-wal cannot be read" in result["reports"][0]
    assert "what was committed only there is lost" in result["reports"][0]
    assert result["tags"] == {"00AB": 7} and result["players"] == ["Alice"] and result["games"] == {"strategy": 1}
    assert result["before"] == {"kind": "test-journey", "state": {"step": 4}}  # the file's own, salvaged
    aside = sorted(path.name for path in state.glob("kiosk.db.unusable-*"))
    assert len(aside) == 2 and aside[1] == aside[0] + "-wal"  # both kept as they were, never deleted
    assert (state / aside[1]).stat().st_mode & 0o777 == 0
    with SqliteStore(state) as store:  # the next start: the healed file
        assert store.load_current() == {"kind": "test-journey", "state": {"step": 99}}
        assert store.tags() == {"00AB": 7}


def tags_players_and_a_game_in_the_good_copy(state: Path) -> None:
    """A database whose good copy (and the file itself) holds an enrolled tag, a player and a
    finished game, left as a power cut leaves it: a step journalled since, in the write-ahead log."""
    live = state.with_name(state.name + "-live")
    store = SqliteStore(live)
    store.transaction(lambda db: db.execute("INSERT INTO tile_tags (uid, tile) VALUES ('00AB', 7)"))
    Players(store).create("Alice")
    store.add_record("strategy", {"n": 1})
    store.wait_for_backup()
    store.query("PRAGMA wal_checkpoint(TRUNCATE)")
    store.save_current({"kind": "test-journey", "state": {"step": 6}})
    state.mkdir()
    for name in ("kiosk.db", "kiosk.db-wal", "kiosk.db.good"):
        shutil.copyfile(live / name, state / name)
    store.close()


@pytest.mark.parametrize("damage", ["file unreadable", "log unreadable", "not a database", "missing", "emptied"])
def test_damage_in_a_directory_that_cannot_be_written_plays_in_memory_from_the_good_copy(tmp_path, damage):
    # the heal could not be written, and play went to memory with nothing in it: no enrolled tag
    # (the kiosk could not read a real tile), no player, no game
    state = tmp_path / "state"
    tags_players_and_a_game_in_the_good_copy(state)
    database = state / "kiosk.db"
    if damage in ("file unreadable", "log unreadable"):
        (database if damage == "file unreadable" else state / "kiosk.db-wal").chmod(0)
    else:
        (state / "kiosk.db-wal").unlink()  # (a log holding the first page would hide a damaged header)
        if damage == "not a database":
            database.write_bytes(bytes(100) + database.read_bytes()[100:])  # the header gone
        else:
            database.unlink() if damage == "missing" else database.write_bytes(b"")
    files = sorted(path.name for path in state.iterdir())
    if damage.endswith("unreadable"):  # only a process that obeys permissions finds them
        state.chmod(0o555)
        try:
            result = run_without_reading_rights(state)
        finally:
            state.chmod(0o755)
    else:
        result = run_on_read_only(state)
    assert result["in_memory"] is True and len(result["reports"]) == 1, result["reports"]
    report = result["reports"][0]
    assert "cannot be replaced" in report and "nothing new is kept after a restart" in report
    assert "in memory, restored from the last-known-good copy: tile_tags 1," in report
    assert result["storage"].startswith("in memory only: ") and "from the last-known-good copy" in result["storage"]
    assert result["tags"] == {"00AB": 7} and result["players"] == ["Alice"] and result["games"] == {"strategy": 1}
    if damage == "log unreadable":  # the file itself is still salvaged on top, as its last checkpoint left it
        assert "kiosk.db-wal cannot be read" in report and "salvaged from the damaged file: tile_tags 1" in report
    assert result["after"] == {"kind": "test-journey", "state": {"step": 99}}
    assert sorted(path.name for path in state.iterdir()) == files  # left as it was, for the next start to heal


@pytest.mark.parametrize("index", ["unreadable", "a directory", "unreadable in a directory that cannot be written"])
def test_an_index_that_cannot_be_used_is_made_again_and_play_stays_on_disk(tmp_path, index):
    # a kiosk.db-shm the kiosk could not open (permissions 000, a directory in its place) sent
    # play to memory at every start, from a copy of the whole file, though it is only SQLite's
    # index of the write-ahead log, which SQLite makes again from the log
    state = tmp_path / "state"
    tags_players_and_a_game_in_the_good_copy(state)
    shm = state / "kiosk.db-shm"
    if index == "a directory":
        shm.mkdir()
        (shm / "left-there").write_text("kept")
    else:
        shm.write_bytes(bytes(32768))
        shm.chmod(0)
    if index.endswith("cannot be written"):
        files = sorted(path.name for path in state.iterdir())
        state.chmod(0o555)
        try:
            result = run_without_reading_rights(state)
        finally:
            state.chmod(0o755)
        assert result["in_memory"] is True and len(result["reports"]) == 1, result["reports"]
        assert "its index kiosk.db-shm cannot be opened (Permission denied)" in result["reports"][0]
        assert "cannot be moved aside (Permission denied)" in result["storage"]
        assert result["before"] == {"kind": "test-journey", "state": {"step": 6}}  # the log's last step, in memory
        assert sorted(path.name for path in state.iterdir()) == files  # left as it was
        return
    result = run_without_reading_rights(state)
    assert result["in_memory"] is False and result["storage"] == str(state / "kiosk.db")
    assert len(result["reports"]) == 1, result["reports"]
    why = "is a directory, not a file" if index == "a directory" else "cannot be opened (Permission denied)"
    assert f"the index kiosk.db-shm beside {state / 'kiosk.db'} {why}: it was moved to kiosk.db-shm.unusable-" \
        in result["reports"][0] and "play goes on on disk" in result["reports"][0]
    assert result["before"] == {"kind": "test-journey", "state": {"step": 6}}  # the log's last step: nothing lost
    assert result["tags"] == {"00AB": 7} and result["players"] == ["Alice"] and result["games"] == {"strategy": 1}
    aside = list(state.glob("kiosk.db-shm.unusable-*"))
    assert len(aside) == 1 and (aside[0] / "left-there" if index == "a directory" else aside[0]).exists()
    assert not list(state.glob("kiosk.db.unusable-*"))  # the database itself was never set aside
    with SqliteStore(state) as store:  # the next start: the step played after the heal is on disk
        assert store.load_current() == {"kind": "test-journey", "state": {"step": 99}} and not store.in_memory


INDEX_FIXED_CHECK = """
import json, os, sys
from firmware.store import RETRY_SECONDS, SqliteStore
now = [0.0]
reports = []
store = SqliteStore(sys.argv[1], report=reports.append, clock=lambda: now[0])
started_in_memory = store.in_memory
store.save_current({"kind": "test-journey", "state": {"step": 99}})
os.chmod(sys.argv[1], 0o755)  # the owner makes the directory writable again
now[0] += RETRY_SECONDS
store.save_current({"kind": "test-journey", "state": {"step": 100}})  # a write once the retry is due
print(json.dumps({"started_in_memory": started_in_memory, "in_memory": store.in_memory, "reports": reports}))
store.close()
"""


def test_an_index_that_could_not_be_moved_is_moved_at_the_retry_once_the_directory_is_fixed(tmp_path):
    # play went to memory because kiosk.db-shm could not be opened nor moved aside (a directory that
    # cannot be written); the retry every 30 s tried only to open the database, which the index
    # still kept shut, so after the owner fixed the directory the kiosk stayed in memory until restarted
    state = tmp_path / "state"
    tags_players_and_a_game_in_the_good_copy(state)
    shm = state / "kiosk.db-shm"
    shm.write_bytes(bytes(32768))
    shm.chmod(0)
    state.chmod(0o555)
    try:
        result = run_without_reading_rights(state, INDEX_FIXED_CHECK)
    finally:
        state.chmod(0o755)
    assert result["started_in_memory"] is True and result["in_memory"] is False, result
    moved = [report for report in result["reports"] if "it was moved to kiosk.db-shm.unusable-" in report]
    assert len(moved) == 1 and "takes writes again" in result["reports"][-1], result["reports"]
    assert len(list(state.glob("kiosk.db-shm.unusable-*"))) == 1 and not list(state.glob("kiosk.db.unusable-*"))
    with SqliteStore(state) as store:  # the next start: what was played in memory went to the disk
        assert store.load_current() == {"kind": "test-journey", "state": {"step": 100}} and not store.in_memory
        assert store.tags() == {"00AB": 7} and store.statistics()["games"] == {"strategy": 1}
