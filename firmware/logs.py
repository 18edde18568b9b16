"""Logging to the journal under systemd, to the terminal otherwise; never to a file.

Under systemd, stderr is a stream into journald (it says so in ``$JOURNAL_STREAM``: the device and
inode of that stream). journald reads a ``<N>`` prefix on each line as the syslog priority, so
``journalctl -p warning -u tantrix-kiosk`` finds the problems and the journal's own rotation bounds
the space used; the timestamp and unit are added by journald. Every line of a multi-line message (a
traceback) gets the prefix, so none of it is filed under the wrong priority. Elsewhere the lines
are ordinary timestamped text. The kiosk writes no log file of its own (nothing grows without bound
on the SD card), and Kivy is told not to either (``KIVY_NO_FILELOG``, ``KIVY_LOG_MODE=PYTHON`` in the
unit), so its messages come through here.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Mapping, TextIO

PRIORITIES = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}
"""Python levels -> syslog priorities (crit, err, warning, info, debug)."""


def priority(level: int) -> int:
    """The syslog priority of a Python level (levels between the named ones round down)."""
    for known in sorted(PRIORITIES, reverse=True):
        if level >= known:
            return PRIORITIES[known]
    return 7


class JournalFormatter(logging.Formatter):
    """``<4>firmware.store: message`` with the priority prefix on every line."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def is_journal(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``stream`` is the journal stream systemd connected us to."""
    device, _, inode = environ.get("JOURNAL_STREAM", "").partition(":")
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return f"{st.st_dev}:{st.st_ino}" == f"{device}:{inode}"


def setup_logging(level: str = "info", stream: TextIO | None = None, environ: Mapping[str, str] = os.environ) -> None:
    """Send every logger (ours, Kivy's, the libraries') to ``stream`` (stderr) at ``level``."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    if is_journal(stream, environ):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.captureWarnings(True)  # e.g. gpiozero's PinFactoryFallback goes to the journal too
