"""The kiosk's pacing of its own starts (firmware.backoff): its decisions as a function of the
starts it noted, a crash loop lived on a simulated clock, a damaged or unwritable record, and the
real kiosk process under a state directory that says its last starts failed."""

from __future__ import annotations

import logging
import time

from firmware.backoff import (FIRST, KEPT, LONGEST, QUICK, STARTS, Start, back_off, failed_starts, pace_start, pause,
                              read_starts)
from firmware.version import installed_version
from kiosk_process import kiosk_process

NOW = 1_800_000_000.0
RELEASE = "0.1.0 (git 94359e8, installed 2026-11-25)"


def runs(*lengths: float, release: str = RELEASE) -> list[Start]:
    """Starts whose runs lasted ``lengths`` seconds each (plus systemd's 3 s), the last ending now."""
    starts, at = [], NOW
    for length in reversed(lengths):
        at -= length + 3
        starts.append(Start(at, release))
    return starts[::-1]


def test_no_start_noted_and_one_crash_come_back_at_once():
    assert failed_starts([], NOW, RELEASE) == 0 and pause(0) == 0
    assert failed_starts(runs(10), NOW, RELEASE) == 1 and pause(1) == 0


def test_each_further_failed_start_doubles_the_wait_up_to_a_minute():
    waits = [pause(failed_starts(runs(*[10] * n), NOW, RELEASE)) for n in range(2, 10)]
    assert waits == [FIRST, 2 * FIRST, 4 * FIRST, 8 * FIRST, LONGEST, LONGEST, LONGEST, LONGEST]
    assert LONGEST == 60 and FIRST < 8 * FIRST < LONGEST


def test_a_run_that_lasted_wipes_the_slate():
    assert failed_starts(runs(10, 10, 10, QUICK, 10), NOW, RELEASE) == 1
    assert failed_starts(runs(10, 10, 10, 10, QUICK), NOW, RELEASE) == 0


def test_a_new_or_rolled_back_release_starts_at_once():
    """install.sh switches releases only after a self-test, and --rollback goes back to the one
    before: either deserves a prompt try, whatever the other one did."""
    assert failed_starts(runs(10, 10, 10, 10, release="the broken one"), NOW, RELEASE) == 0
    mixed = runs(10, 10, release="the broken one") + runs(10)
    assert failed_starts(mixed, NOW, RELEASE) == 1


def test_a_clock_set_back_never_lengthens_a_wait():
    """A Pi without a real-time clock can start with its clock behind the starts it noted."""
    future = [Start(NOW + 3600 + k, RELEASE) for k in range(5)]
    assert failed_starts(future, NOW, RELEASE) == 0
    assert failed_starts([*runs(10, 10, 10), *future], NOW, RELEASE) == 0


def test_a_crash_loop_slows_to_one_start_a_minute_and_a_good_start_ends_it(tmp_path):
    """Starts noted in the real file, on a simulated clock: a release that crashes 10 s after every
    start, then a run that lasts an hour, then one crash."""
    clock = [NOW]
    waits: list[float] = []
    statuses: list[str] = []

    def sleep(seconds: float) -> None:
        clock[0] += seconds

    def start_and_run(length: float) -> None:
        waits.append(back_off(tmp_path, RELEASE, statuses.append, lambda: clock[0], sleep))
        clock[0] += length + 3  # the run, then systemd's RestartSec=3

    for _ in range(12):
        start_and_run(10)
    assert waits == [0, 0, 5, 10, 20, 40, 60, 60, 60, 60, 60, 60]
    assert statuses[0] == "Waiting 5 s: the last 2 starts failed" and len(statuses) == 10
    start_and_run(3600)
    start_and_run(10)
    assert waits[-2:] == [60, 0]
    assert len(read_starts(tmp_path / STARTS)) == KEPT


def test_a_damaged_record_loses_only_its_bad_lines(tmp_path):
    good = runs(10, 10, 10)
    lines = [f"{s.at!r} {s.release}".encode() for s in good]
    (tmp_path / STARTS).write_bytes(b"\n".join([b"garbage", lines[0], b"nan x", b"1e999 x", b"12.5", lines[1],
                                                b"\xff\xfe 1", lines[2], b"17"]))  # the last line cut short
    assert read_starts(tmp_path / STARTS) == good


def test_a_state_directory_it_cannot_write_means_no_waits_and_says_so(tmp_path, caplog):
    state = tmp_path / "gone"  # as unwritable as it gets, whoever runs the test
    caplog.set_level(logging.WARNING, "firmware.backoff")
    for _ in range(5):
        assert back_off(state, RELEASE, lambda text: None, lambda: NOW) == 0
    assert ["cannot note this start" in r.getMessage() for r in caplog.records] == [True] * 5


def test_the_kiosk_waits_and_says_why_before_starting_after_failed_starts(tmp_path):
    """The real kiosk under systemd's environment: its state directory says the two runs before
    this start ended within seconds, so systemd hears why before the first frame, 5 s later."""
    state = tmp_path / "state"
    state.mkdir()
    now = time.time()
    release = installed_version()
    (state / STARTS).write_text(f"{now - 30!r} {release}\n{now - 15!r} {release}\n")
    config = tmp_path / "config.toml"
    config.write_text("")
    with kiosk_process(tmp_path, config, STATE_DIRECTORY=str(state)) as kiosk:
        heard = kiosk.said("READY=1")
    waiting = [m for m in heard if m.startswith("STATUS=Waiting")]
    assert waiting == ["STATUS=Waiting 5 s: the last 2 starts failed"], heard
    assert "READY=1" in heard[-1] and "READY=1" not in waiting[0]  # said before the first frame
    assert "the last 2 starts each ended within 120 s: waiting 5 s" in kiosk.stderr
    noted = read_starts(state / STARTS)
    assert len(noted) == 3 and noted[-1].release == release and noted[-1].at >= now + 5
    assert (state / "kiosk.db").exists()  # the store followed the unit's state directory too


def test_desktop_runs_never_wait(tmp_path):
    """Without $STATE_DIRECTORY (./dev run) nothing restarts the kiosk, so nothing is noted."""
    pace_start({"XDG_STATE_HOME": str(tmp_path)})
    assert list(tmp_path.iterdir()) == []
