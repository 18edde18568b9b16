"""``python -m hardware selftest``: a JSON report that never crashes, with or without devices."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hardware.config import ButtonConfig, ReaderConfig, RingsConfig
from hardware.selftest import selftest


def test_report_off_a_pi_with_a_reader_on_a_pty():
    master, slave = os.openpty()
    try:
        report = selftest(ButtonConfig(), ReaderConfig(port=os.ttyname(slave)), RingsConfig(), listen_s=0.3)
    finally:
        os.close(master)
        os.close(slave)
    json.dumps(report)
    assert report["button"]["backend"] == "simulated" and not report["button"]["found"]
    assert report["reader"]["found"] and report["reader"]["backend"] == "serial/rdm6300"
    assert report["rings"]["backend"] == "simulated" and not report["rings"]["found"]
    assert report["rings"]["details"]["why"].startswith("not a Raspberry Pi")  # which backend, and why
    assert [event["event"] for event in report["events"]] == ["ReaderConnected"]


def test_command_line():
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    done = subprocess.run([sys.executable, "-m", "hardware", "selftest", "--listen", "0", "--port", "/nonexistent/tty"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"board", "button", "reader", "rings", "events"}
    assert not report["reader"]["found"] and "/nonexistent/tty" in report["reader"]["last_error"]

    bad = subprocess.run([sys.executable, "-m", "hardware", "selftest", "--protocol", "wiegand"],
                         capture_output=True, text=True, timeout=60, env=env)
    assert bad.returncode == 2 and "argument --protocol: expected one of 'rdm6300', 'pn532', 'lines'" in bad.stderr

    taken = subprocess.run([sys.executable, "-m", "hardware", "selftest", "--button-pin", "10"],
                           capture_output=True, text=True, timeout=60, env=env)
    assert taken.returncode == 2
    assert "argument --button-pin: expected a GPIO no other device uses: GPIO 10 carries" in taken.stderr
