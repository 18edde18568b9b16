"""The kiosk's health, written to the store for the staff web page.

The web page (``web``, its own process) reads the kiosk's database and never talks to the kiosk, so
the kiosk leaves there what staff would see in its own menu: each device's status, the problems
reported so far, and the language and brightness it applies (so a change made on the web page is
seen to have reached the table), under the progress key :data:`STATUS`. :meth:`StatusSnapshot.tick` runs on the UI's clock
about once a second and writes only when something changed, or every :data:`HEARTBEAT_SECONDS` so
the page can tell a running kiosk from a stopped one (``seen``, in seconds since the epoch) without
wearing the SD card with a write per second; the heartbeat is timed on the monotonic clock, since
the wall clock of a Pi without a battery clock jumps when the network gives the time (set back by a
month, a wall-clock heartbeat was not written for a month, and a stopped kiosk looked alive). With a club link (``firmware.club``) its state is there
too, under ``club``.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict
from typing import Any, Callable, Mapping

from ui.services import Devices, Settings, Store

STATUS = "kiosk-status"
"""The store's progress key of the snapshot:
``{"devices": [...], "reports": [...], "applied": {"language", "brightness", "coach"}, "club": {...} or None,
"seen": t}``."""
HEARTBEAT_SECONDS = 60.0


class StatusSnapshot:
    """Writes the devices' status and the settings' warnings and values to ``store`` when they change
    (and as a heartbeat, every ``heartbeat`` seconds of the ``running`` clock), with ``seen`` from the
    wall ``clock``, the one the web page compares it with."""

    def __init__(self, store: Store, devices: Devices, settings: Settings,
                 clock: Callable[[], float] = time.time, heartbeat: float = HEARTBEAT_SECONDS,
                 club: Callable[[], Mapping[str, Any]] | None = None,
                 running: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._devices = devices
        self._settings = settings
        self._clock = clock
        self._running = running
        self._heartbeat = heartbeat
        self._club = club
        self._last: dict[str, Any] | None = None
        self._written = -math.inf
        """When the snapshot was last written, on the ``running`` clock (never: the first tick writes)."""

    def tick(self) -> None:
        snapshot = {"devices": [asdict(status) for status in self._devices.status()],
                    "reports": list(self._settings.warnings),
                    "applied": {"language": self._settings.language, "brightness": self._settings.brightness,
                                "coach": self._settings.coach},
                    "club": dict(self._club()) if self._club is not None else None}
        now = self._running()
        if snapshot == self._last and now - self._written < self._heartbeat:
            return
        self._store.set_progress(STATUS, {**snapshot, "seen": self._clock()})
        self._last, self._written = snapshot, now
