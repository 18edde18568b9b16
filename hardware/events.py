"""Typed events the devices report, and the two ways to receive them.

Devices call their listeners on their own background thread (the reader's serial thread, the
button's timer thread, the rings' animation thread) or, for the simulators, on the thread that called ``press()``/``scan()``.
A listener must therefore be quick and thread-agnostic. Two ready-made patterns:

* Kivy: ``device.subscribe(lambda ev: Clock.schedule_once(lambda dt: handle(ev)))``
  (``Clock.schedule_once`` may be called from any thread).
* Polling: ``queue = EventQueue(); device.subscribe(queue)``, then ``queue.drain()`` once per
  frame on the consuming thread.

Every event carries ``at``, the ``time.monotonic()`` instant the device noticed it.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Self, Union

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonPressed:
    """A short, debounced press of the bag button: draw a tile from the bag."""

    at: float


@dataclass(frozen=True)
class ButtonHeld:
    """The bag button was held down for ``hold_s``: open the staff menu (no tile is drawn)."""

    at: float


@dataclass(frozen=True)
class TagRead:
    """A known tile was placed on a reader (reported once per placement)."""

    reader: int
    uid: str
    tile: int
    at: float


@dataclass(frozen=True)
class UnknownTag:
    """A tag that the registry does not know was placed on a reader (enrol it, or show it)."""

    reader: int
    uid: str
    at: float


@dataclass(frozen=True)
class TagRemoved:
    """The tag on a reader went away (``tile`` is None for an unknown tag)."""

    reader: int
    uid: str
    tile: int | None
    at: float


@dataclass(frozen=True)
class TagWritten:
    """A tile number was written on the sticker just put on a reader (and read back)."""

    reader: int
    uid: str
    tile: int
    at: float


@dataclass(frozen=True)
class TagNotWritten:
    """The sticker just put on a reader could not take ``tile``; ``error`` says why. The reader
    still waits to write ``tile`` on the next sticker."""

    reader: int
    uid: str
    tile: int
    error: str
    at: float


@dataclass(frozen=True)
class ReaderConnected:
    """The tile reader's port opened (or its controller started talking again)."""

    port: str
    at: float


@dataclass(frozen=True)
class ReaderLost:
    """The tile reader is unavailable; it keeps retrying on its own. ``error`` says why."""

    port: str
    error: str
    at: float


@dataclass(frozen=True)
class StripFailed:
    """The LED strip refused a frame; the rings write it again on their own, waiting longer after
    each failure, until it takes one (``StripRecovered``). ``error`` says why."""

    strip: str
    error: str
    at: float


@dataclass(frozen=True)
class StripRecovered:
    """The LED strip took a frame again after failing: the rings show the current picture."""

    strip: str
    at: float


Event = Union[ButtonPressed, ButtonHeld, TagRead, UnknownTag, TagRemoved, TagWritten, TagNotWritten, ReaderConnected,
              ReaderLost, StripFailed, StripRecovered]
Listener = Callable[[Event], None]


class Listeners:
    """The listeners of one device. A failing listener is logged and never stops the device."""

    def __init__(self) -> None:
        self._listeners: tuple[Listener, ...] = ()
        self._lock = threading.Lock()

    def add(self, listener: Listener) -> Callable[[], None]:
        """Add ``listener``; returns a function that removes it again."""
        with self._lock:
            self._listeners += (listener,)

        def remove() -> None:
            with self._lock:
                self._listeners = tuple(item for item in self._listeners if item is not listener)

        return remove

    def emit(self, event: Event) -> None:
        for listener in self._listeners:  # a snapshot: the tuple is replaced, never mutated
            try:
                listener(event)
            except Exception:
                log.exception("event listener %r failed on %r", listener, event)


class EventSource:
    """What every input device shares: its listeners, and closing as a context manager. A
    device reports each event it detects through :meth:`_emit`, on whatever thread noticed it."""

    def __init__(self) -> None:
        self._listeners = Listeners()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` for every event; returns a function that unsubscribes."""
        return self._listeners.add(listener)

    def close(self) -> None:
        """Release the device (nothing to release here; real backends override it)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _emit(self, events: list[Event]) -> None:
        for event in events:
            self._listeners.emit(event)


class EventQueue:
    """A thread-safe inbox: subscribe it to devices, then ``get()`` or ``drain()`` elsewhere."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()

    def __call__(self, event: Event) -> None:
        self._queue.put(event)

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, waiting up to ``timeout`` seconds (None: forever); None on timeout."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[Event]:
        """Every event waiting now, oldest first, without blocking."""
        events: list[Event] = []
        while True:
            try:
                events.append(self._queue.get_nowait())
            except queue.Empty:
                return events


@dataclass(frozen=True)
class DeviceStatus:
    """What ``status()`` and the self-test report about one device."""

    device: str
    found: bool
    backend: str
    port: str | None = None
    last_error: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
