"""sd_notify to a real datagram socket standing in for systemd: readiness and the UI-driven watchdog."""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest

from firmware.notify import Notifier


@pytest.fixture
def systemd(tmp_path):
    """A bound AF_UNIX datagram socket, as systemd listens on $NOTIFY_SOCKET."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    listener.bind(str(path))
    listener.settimeout(0.05)
    yield listener, str(path)
    listener.close()


def received(listener: socket.socket, within: float) -> list[str]:
    messages = []
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            messages.append(listener.recv(4096).decode())
        except TimeoutError:
            continue
    return messages


def test_ready_is_sent_once_on_the_first_frame(systemd):
    listener, path = systemd
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled and notifier.watchdog_interval is None
    assert received(listener, 0.1) == []  # nothing before the first frame
    notifier.ready()
    notifier.ready()  # later frames: no second READY
    messages = received(listener, 0.2)
    assert len(messages) == 1 and "READY=1" in messages[0].split("\n")
    notifier.close()


def test_the_watchdog_follows_the_ui_clock_and_stops_with_it(systemd):
    listener, path = systemd
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": str(os.getpid())})
    assert notifier.watchdog_interval == 0.2
    running = threading.Event()
    running.set()

    def ui_clock() -> None:  # the UI ticks far more often than the watchdog needs
        while running.is_set():
            notifier.tick()
            time.sleep(0.01)

    clock = threading.Thread(target=ui_clock)
    clock.start()
    try:
        while_ticking = received(listener, 0.6)
    finally:
        running.clear()
        clock.join()
    after_the_stall = received(listener, 0.5)
    assert set(while_ticking) == {"WATCHDOG=1"}
    assert 2 <= len(while_ticking) <= 8, while_ticking  # about every half interval (0.1 s), not every tick
    assert after_the_stall == []  # a frozen UI sends nothing, so systemd restarts it
    notifier.close()


def test_the_watchdog_pings_at_half_the_interval(systemd):
    listener, path = systemd
    now = [100.0]
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"}, clock=lambda: now[0])
    for _ in range(60):  # one minute of ticks, once a second
        notifier.tick()
        now[0] += 1.0
    assert received(listener, 0.2) == ["WATCHDOG=1"] * 4  # at 0, 15, 30 and 45 s
    notifier.close()


def test_an_abstract_socket_address_works():
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"tantrix-test-{os.getpid()}"
    listener.bind("\0" + name)
    listener.settimeout(1)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": "@" + name})
        notifier.status("storage in memory")
        assert listener.recv(4096) == b"STATUS=storage in memory"
        notifier.close()
    finally:
        listener.close()


def test_without_notify_socket_nothing_is_sent(systemd, monkeypatch):
    listener, _ = systemd
    sockets_made = []
    monkeypatch.setattr(socket, "socket", lambda *a: sockets_made.append(a))
    notifier = Notifier({"WATCHDOG_USEC": "200000"})
    notifier.ready()
    notifier.tick()
    notifier.stopping()
    assert not notifier.enabled and sockets_made == [] and received(listener, 0.1) == []


def test_a_watchdog_meant_for_another_process_is_ignored(systemd):
    _, path = systemd
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"})
    assert notifier.watchdog_interval is None


def test_a_vanished_socket_is_survived(tmp_path, caplog):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "1000000"})
    assert notifier.send("WATCHDOG=1") is False and notifier.send("WATCHDOG=1") is False
    assert len([r for r in caplog.records if "cannot notify systemd" in r.getMessage()]) == 1  # said once
    notifier.close()
