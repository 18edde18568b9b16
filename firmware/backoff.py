"""Waiting longer before each start while the kiosk keeps failing soon after starting.

The unit restarts the kiosk 3 s after any exit, forever (``Restart=always``, no start limit:
nobody is at a keyboard in a café). A kiosk that crashes at every start (a release that passed
its self-test but fails on the screen, the devices or the stored data) would start every few
seconds for ever, wearing the SD card and holding a core. systemd 254 grows the delay by itself
(``RestartSteps=``, ``RestartMaxDelaySec=``), but Raspberry Pi OS Bookworm has systemd 252, which
does not know them. So the kiosk paces itself: it notes when each run starts in the unit's state
directory, and when the runs before ended soon after starting it waits before starting again, a
little more each time, never more than :data:`LONGEST`, and says why in the journal and on
``systemctl status``. One crash comes straight back; so does a start of another release (an update
or ``install.sh --rollback`` deserves a prompt try); a run that lasts wipes the slate.

The wall clock dates the starts (they must survive a reboot): a clock set back (a Pi without a
real-time clock before NTP) only ever shortens a wait, never lengthens one.
"""

from __future__ import annotations

import logging
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from ui.files import write_whole

from .config import unit_state_directory
from .notify import Notifier
from .version import installed_version

log = logging.getLogger(__name__)

STARTS = "starts"
"""The file in the unit's state directory: one ``<seconds since the epoch> <release>`` line a start."""
KEPT = 8
"""Starts remembered: enough to reach :data:`LONGEST` and stay there."""
QUICK = 120.0
"""A run that ended within this many seconds of its start (first frame, the watchdog's first 30 s
and systemd's 3 s included) counts as a failed start."""
FIRST = 5.0
"""The wait after two failed starts in a row; it doubles with each further one."""
LONGEST = 60.0
"""The longest wait between starts, however long the kiosk keeps failing."""


@dataclass(frozen=True)
class Start:
    at: float
    """Seconds since the epoch, once any wait before it was over."""
    release: str
    """The installed version (firmware.version), so a new or rolled-back release starts at once."""


def failed_starts(starts: Sequence[Start], now: float, release: str) -> int:
    """How many runs of ``release`` in a row, up to this start at ``now``, each ended within
    :data:`QUICK` seconds of starting (``starts`` oldest first)."""
    failed, end = 0, now
    for start in reversed(starts):
        if start.release != release or not 0 <= end - start.at < QUICK:
            break
        failed, end = failed + 1, start.at
    return failed


def pause(failed: int) -> float:
    """Seconds to wait before starting after ``failed`` failed starts in a row: none after one,
    :data:`FIRST` after two, doubling, at most :data:`LONGEST`."""
    return 0.0 if failed < 2 else min(LONGEST, FIRST * 2 ** (failed - 2))


def read_starts(path: Path) -> list[Start]:
    """The starts noted in ``path``; a line that is not one is skipped (the file only ever
    shortens a wait), a missing or unreadable file is no starts."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    except OSError as exc:
        log.warning("cannot read the recent starts in %s (%s): starting without waiting", path, exc)
        return []
    starts = []
    for line in text.splitlines():
        at, _, release = line.partition(" ")
        try:
            seconds = float(at)
        except ValueError:
            continue
        if release and math.isfinite(seconds):
            starts.append(Start(seconds, release))
    return starts


def write_starts(path: Path, starts: Sequence[Start]) -> None:
    """Keep the last :data:`KEPT` starts in ``path``, replaced whole (never half written)."""
    write_whole(path, "".join(f"{s.at!r} {s.release}\n" for s in starts[-KEPT:]).encode("utf-8"))


def back_off(state: Path, release: str, status: Callable[[str], None], clock: Callable[[], float] = time.time,
             sleep: Callable[[float], None] = time.sleep) -> float:
    """Wait as the recent starts in ``state`` ask, then note this start; returns the wait.

    ``status`` tells systemd why the start is slow (``systemctl status``). Nothing here stops the
    kiosk from starting: a state directory it cannot write means no waits, and the journal says so.
    """
    path = state / STARTS
    starts = read_starts(path)
    failed = failed_starts(starts, clock(), release)
    wait = pause(failed)
    if wait:
        log.warning("the last %d starts each ended within %d s: waiting %d s before starting again "
                    "(up to %d s while it keeps failing; a run that lasts resets this)",
                    failed, QUICK, wait, LONGEST)
        status(f"Waiting {wait:.0f} s: the last {failed} starts failed")
        sleep(wait)
    try:
        write_starts(path, [*starts, Start(clock(), release)])
    except OSError as exc:
        log.warning("cannot note this start in %s (%s): repeated failed starts will not be slowed", path, exc)
    return wait


def pace_start(environ: Mapping[str, str] = os.environ) -> None:
    """The kiosk's first step under systemd (``$STATE_DIRECTORY`` set): :func:`back_off` in the
    unit's state directory. Desktop runs, which nothing restarts, never wait."""
    state = unit_state_directory(environ)
    if state is None:
        return
    notifier = Notifier(environ)
    try:
        back_off(state, installed_version(), notifier.status)
    finally:
        notifier.close()
