"""engine.lifeline: a worker tells when the process it serves has ended, whether the kernel gives
it a pidfd (ended, even before anyone reaped it) or it has to look (ended and reaped). The master
robot's workers ending with a killed kiosk: tests/test_game_master.py."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.lifeline import wait_for_end


def _state(pid: int) -> str | None:
    """The process's state letter in /proc (Z: ended, not yet reaped), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _waiting(pid: int, poll: float = 1.0) -> tuple[threading.Thread, list[str | None]]:
    """A thread in wait_for_end(pid), and the state the process had when it returned."""
    seen: list[str | None] = []

    def wait() -> None:
        wait_for_end(pid, poll)
        seen.append(_state(pid))

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    return thread, seen


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)


def _no_pidfd(monkeypatch: pytest.MonkeyPatch) -> None:
    """As under a kernel before 5.3 (or a seccomp filter without pidfd_open)."""
    def refused(pid: int, flags: int = 0) -> int:
        raise OSError(errno.ENOSYS, "pidfd_open")
    monkeypatch.setattr(os, "pidfd_open", refused, raising=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pidfds and /proc are Linux's")
def test_a_pidfd_sees_the_end_before_anyone_reaps_the_process():
    child = _sleeper()
    try:
        thread, seen = _waiting(child.pid)
        child.kill()  # not reaped: only a pidfd can tell it has ended
        thread.join(60)
        assert not thread.is_alive() and seen == ["Z"]
    finally:
        child.kill()
        child.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_without_a_pidfd_it_looks_until_the_process_is_gone(monkeypatch):
    _no_pidfd(monkeypatch)
    child = _sleeper()
    try:
        thread, seen = _waiting(child.pid, poll=0.01)
        child.kill()
        child.wait()
        thread.join(60)
        assert not thread.is_alive() and seen == [None]
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "looking"])
def test_a_process_already_gone_has_ended(monkeypatch, pidfd):
    if not pidfd:
        _no_pidfd(monkeypatch)
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    thread, _ = _waiting(child.pid, poll=0.01)
    thread.join(60)
    assert not thread.is_alive()
