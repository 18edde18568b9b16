"""Helpers of the KioskDevices tests: a sink that collects the UI events, a devices factory."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

from firmware.config import load_config
from firmware.devices import KioskDevices
from firmware.store import SqliteStore
from ui import services as ui


def wait_until(condition: Callable[[], object], limit: float = 30.0) -> None:
    """Poll ``condition`` until it holds (the limit only stops a broken test hanging)."""
    end = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < end, "the condition never held"
        time.sleep(0.005)


class Sink:
    """Stands in for the UI's ``app.post``: collects events from any thread, waits for them."""

    def __init__(self) -> None:
        self.events: list[ui.Event] = []
        self._cond = threading.Condition()
        self._seen = 0  # events before this index were matched (or skipped) by next()

    def __call__(self, event: ui.Event) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def next(self, match: type | Callable[[Any], bool], timeout: float = 10.0) -> Any:
        """The next event (after the last one returned) of type ``match``, or satisfying it (as soon
        as it comes: ``timeout`` only stops a broken test hanging)."""
        test = (lambda event: isinstance(event, match)) if isinstance(match, type) else match
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                for index in range(self._seen, len(self.events)):
                    if test(self.events[index]):
                        self._seen = index + 1
                        return self.events[index]
                left = end - time.monotonic()
                assert left > 0, f"no matching event in {timeout} s; got {self.events[self._seen:][-5:]}"
                self._cond.wait(left)

    def since(self, kind: type) -> list[Any]:
        """Events of ``kind`` after the last one ``next()`` returned (without consuming them)."""
        with self._cond:
            return [event for event in self.events[self._seen:] if isinstance(event, kind)]

    def inputs(self) -> list[ui.Event]:
        """Everything but ring frames and statuses, in order."""
        with self._cond:
            return [e for e in self.events if not isinstance(e, (ui.RingFrames, ui.DeviceStatus))]


def open_devices(tmp_path: Path, store: SqliteStore, text: str = "",
                 **options: Any) -> tuple[KioskDevices, Sink, list[str]]:
    """Devices from a configuration ``text``, posting to a Sink; reports are collected in a list."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    reports: list[str] = []
    sink = Sink()
    devices = KioskDevices(load_config(path, environ={}), store, reports.append, post=sink, **options)
    return devices, sink, reports
