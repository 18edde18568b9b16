"""Logging: syslog priority prefixes when stderr is the journal, plain lines otherwise, no files."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from firmware.logs import JournalFormatter, priority

ROOT = Path(__file__).resolve().parent.parent

LOG_SOME = """
import logging, warnings
from firmware.logs import setup_logging
setup_logging("info")
log = logging.getLogger("firmware.test")
log.debug("not shown")
log.info("started")
log.warning("disk full")
try:
    1 / 0
except ZeroDivisionError:
    log.error("it broke", exc_info=True)
warnings.warn("a library complains")
"""


def run_logging(tmp_path: Path, journal: bool) -> list[str]:
    err = tmp_path / "stderr"
    with err.open("w") as stream:
        st = os.fstat(stream.fileno())
        env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
        if journal:
            env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        subprocess.run([sys.executable, "-c", LOG_SOME], cwd=tmp_path, env=env, stderr=stream, check=True)
    return err.read_text().splitlines()


def test_the_journal_gets_priority_prefixes_on_every_line(tmp_path):
    lines = run_logging(tmp_path, journal=True)
    assert lines[0] == "<6>firmware.test: started"
    assert lines[1] == "<4>firmware.test: disk full"
    assert lines[2] == "<3>firmware.test: it broke"
    traceback = [line for line in lines if line.startswith("<3>")]
    assert traceback[-1] == "<3>ZeroDivisionError: division by zero" and len(traceback) >= 4
    assert any(line.startswith("<4>py.warnings: ") and "a library complains" in line for line in lines)
    assert all(line[:3] in ("<6>", "<4>", "<3>") for line in lines)
    assert not any("not shown" in line for line in lines)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stderr"]  # no log file written


def test_a_terminal_gets_plain_timestamped_lines(tmp_path):
    lines = run_logging(tmp_path, journal=False)
    assert "INFO    firmware.test: started" in lines[0] and not lines[0].startswith("<")
    assert lines[0][:4].isdigit()  # the date


def test_levels_map_to_syslog_priorities():
    assert [priority(level) for level in (50, 40, 30, 20, 10, 5)] == [2, 3, 4, 6, 7, 7]
    assert priority(35) == 4  # between WARNING and ERROR: rounds down
    record = logging.LogRecord("x", logging.CRITICAL, __file__, 1, "a\nb", None, None)
    assert JournalFormatter().format(record) == "<2>x: a\n<2>b"
