"""The RFID tile reader: serial bytes in, ``TagRead``/``UnknownTag``/``TagRemoved`` events out.

Use ``open_reader(config, registry, listener)``: a ``SerialTileReader`` when ``config.port`` is
set, else a ``SimulatedReader``. Both have ``subscribe(listener)``, ``present()``, ``status()`` and
``close()`` (and are context managers).

``SerialTileReader`` owns a background thread that opens the port (a path or any pyserial URL),
decodes it (``protocols``) or, for a PN532, polls it (``pn532``), turns reads into placements
(``tracker``) and names the tiles: by the number written on the tag (``ntag``), else through the
``registry``. ``write_tile(n)`` (PN532 and simulator) writes ``n`` on the next sticker put down.
When the port fails or vanishes it reports ``ReaderLost``, drops the tags it can
no longer vouch for, and retries every ``reconnect_s`` until the port is back (``ReaderConnected``).
With the ``lines`` protocol a controller silent for ``heartbeat_s`` is reported lost too.

Simulator (desktop run, tests)::

    reader = SimulatedReader()              # knows all 56 tiles under synthetic UIDs
    reader.scan(tile=17)                    # TagRead(reader=0, tile=17, ...)
    reader.scan("0A1B2C3D4E", reader=2)     # by UID: TagRead, or UnknownTag if not enrolled
    reader.remove(reader=2)                 # TagRemoved
    reader.write_tile(5); reader.scan("04A1B2C3D4E5F6")  # a blank sticker becomes tile 5: TagWritten
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import serial

from .config import PN532_LOOK_S, PN532_POLL_S, ReaderConfig
from .events import (DeviceStatus, Event, EventSource, Listener, ReaderConnected, ReaderLost, TagNotWritten, TagRead,
                     TagRemoved, TagWritten, UnknownTag)
from .ntag import TagFormatError
from .pn532 import Pn532, Pn532Error, Pn532FrameDecoder
from .protocols import Decoder, Gone, Hello, LineDecoder, Message, Seen, decoder_for
from .registry import RegistryError, TagRegistry, check_tile, normalise_uid
from .tracker import Change, TagTracker

log = logging.getLogger(__name__)

READ_TIMEOUT_S = 0.1
"""The serial thread wakes at least this often to notice removals, silence and close()."""
GARBAGE_S = 2.0
"""Without heartbeats (an RDM6300 speaks only while a tag lies on it): bytes that keep arriving this
long, none making a valid frame, report the reader lost: a wrong speed or another device on the
port, which would otherwise look fine while no tile is ever read."""
GARBAGE_GAP_S = 0.5
"""A pause this long in the bytes ends a run of garbage (a glitch now and then is not a wrong speed)."""
PN532_FAILURES = 5
"""Consecutive failed PN532 commands after which the reader counts as lost and is woken again."""
CONTROLLER_USB = (0x2E8A, 0x0005)
"""USB vendor and product id of the per-seat reader controller (``controller/``): a Raspberry Pi
Pico running MicroPython. ``reader.port = "auto"`` finds it by these."""


def find_controller() -> str | None:
    """The serial device of the first plugged-in reader controller, None if there is none."""
    from serial.tools import list_ports

    for port in sorted(list_ports.comports(), key=lambda port: port.device):
        if (port.vid, port.pid) == CONTROLLER_USB:
            return str(port.device)
    return None


class _Reader(EventSource):
    """What both readers share: listeners, the tracker, naming tiles through the registry."""

    def __init__(self, registry: TagRegistry, tracker: TagTracker, listener: Listener | None) -> None:
        super().__init__()
        self.registry = registry
        self._tracker = tracker
        if listener is not None:
            self._listeners.add(listener)
        self._lock = threading.Lock()
        self._written: dict[str, int] = {}
        """UID -> the tile number read from (or just written on) that tag."""
        self._to_write: int | None = None

    def write_tile(self, tile: int | None) -> None:
        """Write ``tile`` on the next sticker put on the reader (None: write nothing more).
        ``TagWritten`` reports success and disarms; ``TagNotWritten`` says why a sticker refused,
        and the next sticker put down is tried. A sticker that already carries another tile
        number is refused, never overwritten."""
        if tile is not None:
            check_tile(tile)
        with self._lock:
            self._to_write = tile

    def present(self) -> dict[int, str]:
        """reader number -> UID of the tag lying on it now."""
        with self._lock:
            return self._tracker.present()

    def _events(self, changes: list[Change]) -> list[Event]:
        events: list[Event] = []
        for change in changes:
            tile = self._written.get(change.uid) or self.registry.tile(change.uid)
            if not change.placed:
                events.append(TagRemoved(change.reader, change.uid, tile, change.at))
            elif tile is None:
                events.append(UnknownTag(change.reader, change.uid, change.at))
            else:
                events.append(TagRead(change.reader, change.uid, tile, change.at))
        return events

    def _write_placed(self, changes: list[Change], write: Callable[[int], None]) -> list[Event]:
        """Write the armed tile on the tag just placed, if any (``write`` does it to the tag in
        the field); the outcome as events."""
        with self._lock:
            tile = self._to_write
        for change in changes:
            if tile is None or not change.placed:
                continue
            old = self._written.get(change.uid)
            try:
                if old not in (None, tile):
                    raise TagFormatError(f"this sticker is already tile {old}; put a blank one")
                write(tile)
            except (Pn532Error, TagFormatError) as exc:
                return [TagNotWritten(change.reader, change.uid, tile, str(exc), change.at)]
            with self._lock:
                self._written[change.uid] = tile
                if self._to_write == tile:
                    self._to_write = None
            return [TagWritten(change.reader, change.uid, tile, change.at)]
        return []


class SimulatedReader(_Reader):
    """Tags placed and removed from code; events are delivered on the caller's thread."""

    def __init__(self, registry: TagRegistry | None = None, listener: Listener | None = None) -> None:
        super().__init__(registry if registry is not None else TagRegistry.simulated(),
                         TagTracker(confirm_reads=1, removal_silence_s=None), listener)

    def scan(self, uid: str | None = None, *, tile: int | None = None, reader: int = 0) -> None:
        """Place the tag ``uid``, or the tag enrolled for ``tile``, on ``reader``."""
        if (uid is None) == (tile is None):
            raise ValueError("scan() takes a uid or a tile=, not both")
        if tile is not None:
            uid = self.registry.uid(tile)
            if uid is None:
                raise RegistryError(f"tile {tile} has no enrolled tag")
        assert uid is not None
        with self._lock:
            changes = self._tracker.seen(reader, normalise_uid(uid), time.monotonic())
        written = self._write_placed(changes, lambda tile: None)  # a simulated sticker takes any number
        self._emit(self._events(changes) + written)

    def remove(self, reader: int = 0) -> None:
        with self._lock:
            changes = self._tracker.gone(reader, time.monotonic())
        self._emit(self._events(changes))

    def status(self) -> DeviceStatus:
        return DeviceStatus("reader", found=False, backend="simulated",
                            details={"present": self.present(), "tiles_known": len(self.registry)})


class SerialTileReader(_Reader):
    """The real reader on ``config.port``; runs until ``close()``, surviving unplug and replug."""

    def __init__(self, config: ReaderConfig, registry: TagRegistry, listener: Listener | None = None) -> None:
        if config.port is None:
            raise ValueError("SerialTileReader needs reader.port")
        super().__init__(registry, TagTracker(config.confirm_reads, config.removal_silence_s), listener)
        self.config = config
        self.port: str = config.port
        self._decoder = Pn532FrameDecoder() if config.protocol == "pn532" else decoder_for(config.protocol)
        self._connected: bool | None = None  # None: not tried yet
        self._last_error: str | None = None
        self._controller: str | None = None
        self._reconnects = 0
        self._failures = 0
        self._serial: serial.SerialBase | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tile-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self.config.port == "auto":  # looked for at every (re)open: another USB serial
                    found = find_controller()     # device may have taken the unplugged Pico's name
                    if found is None:
                        raise serial.SerialException("no reader controller (USB %04X:%04X, a Pico running "
                                                     "controller/) is plugged in" % CONTROLLER_USB)
                    self.port = found
                port = serial.serial_for_url(self.port, baudrate=self.config.speed,
                                             timeout=READ_TIMEOUT_S, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                error = str(exc)  # pyserial's names the port, but for one that is not a tty
                if self.config.port != "auto" and self.port not in error:
                    error = f"{self.port}: {error}"
                self._set_connected(False, error)
                self._stop.wait(self.config.reconnect_s)
                continue
            with self._lock:
                self._serial = port
                if self._connected is False:
                    self._reconnects += 1
            try:
                if isinstance(self._decoder, Pn532FrameDecoder):
                    self._poll(port, self._decoder)
                else:
                    self._set_connected(True)
                    self._pump(port, self._decoder)
            except (serial.SerialException, OSError) as exc:
                self._set_connected(False, f"{self.port}: {exc}")
            except Exception as exc:  # an answer or a bug nobody foresaw: a dead thread would look connected
                log.exception("tile reader on %s failed", self.port)
                self._set_connected(False, f"{self.port}: {type(exc).__name__}: {exc}")
            finally:
                with self._lock:
                    self._serial = None
                port.close()
            self._stop.wait(self.config.reconnect_s)
        with self._lock:
            self._connected = False

    def _pump(self, port: serial.SerialBase, decoder: Decoder) -> None:
        decoder.reset()
        heartbeat = self.config.heartbeat_s if isinstance(decoder, LineDecoder) else 0.0
        last_message = last_byte = time.monotonic()
        noise = 0  # bytes heard since the last valid message
        garbage_since: float | None = None  # when the bytes arriving without a pause, none valid, began
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            now = time.monotonic()
            changes: list[Change] = []
            messages = decoder.feed(data) if data else []
            noise += len(data)
            if messages:
                last_message, noise, garbage_since = now, 0, None
                self._set_connected(True)  # reported only if the silence or the garbage had lost it
            elif data and not heartbeat and (garbage_since is None or now - last_byte > GARBAGE_GAP_S):
                garbage_since, noise = now, len(data)  # a new run of garbage: count its bytes only
            last_byte = now if data else last_byte
            for message in messages:
                changes += self._handle(message, now)
            with self._lock:
                changes += self._tracker.poll(now)
            self._emit(self._events(changes))
            if heartbeat and now - last_message > heartbeat:
                self._set_connected(False, self._silence(heartbeat, noise))
            elif garbage_since is not None and last_byte - garbage_since >= GARBAGE_S:
                self._set_connected(False, f"{self.port}: {noise} bytes for {GARBAGE_S:g} s but no valid frame "
                                           f"{self._speed_hint()}")

    def _silence(self, heartbeat: float, noise: int) -> str:
        """Why the controller counts as lost: silent, or talking but never a valid line (what a wrong
        speed or another device on the port looks like: "silent" would send a maker to the wires)."""
        if not noise:
            return f"controller on {self.port} silent for {heartbeat:g} s"
        return f"controller on {self.port}: {noise} bytes but no valid line for {heartbeat:g} s {self._speed_hint()}"

    def _speed_hint(self) -> str:
        return (f"(is reader.baudrate = {self.config.speed} its speed, and reader.protocol = "
                f"\"{self.config.protocol}\" what it speaks?)")

    def _poll(self, port: serial.SerialBase, decoder: Pn532FrameDecoder) -> None:
        """A PN532 speaks only when asked: wake it, then ask for the tag in the field over and
        over, reading the tile number written on each tag newly in the field."""
        pn532 = Pn532(port, decoder)
        heard = decoder.junk_bytes
        try:
            self._controller = pn532.begin()
        except Pn532Error as exc:
            noise = decoder.junk_bytes - heard  # bytes, none a frame: a wrong speed, not a silent PN532
            why = f"{noise} bytes but no valid PN532 frame {self._speed_hint()}" if noise else f"no PN532 answers ({exc})"
            raise serial.SerialException(why) from exc
        self._set_connected(True)
        last_uid: str | None = None
        failures = 0
        looked = time.monotonic()
        while not self._stop.is_set():
            changes: list[Change] = []
            written: list[Event] = []
            try:
                target = pn532.poll()
                now = time.monotonic()
                self._held_up(now - looked)
                if target is not None:
                    uid = target.uid.hex().upper()
                    if uid != last_uid:
                        tile = pn532.read_tile()
                        with self._lock:
                            if tile is None:
                                self._written.pop(uid, None)
                            else:
                                self._written[uid] = tile
                    last_uid = uid
                    with self._lock:
                        changes = self._tracker.seen(0, uid, now)
                    written = self._write_placed(changes, pn532.write_tile)
                else:
                    last_uid = None
                failures = 0
            except Pn532Error as exc:
                now, last_uid, failures = time.monotonic(), None, failures + 1
                self._held_up(now - looked)
                with self._lock:
                    self._last_error = f"{self.port}: {exc}"
                    self._failures += 1
                if failures >= PN532_FAILURES:
                    raise serial.SerialException(f"the PN532 stopped answering ({exc})") from exc
            with self._lock:
                changes += self._tracker.poll(now)
            self._emit(self._events(changes) + written)
            looked = now
            self._stop.wait(PN532_POLL_S)

    def _held_up(self, gap: float) -> None:
        """``gap`` between two looks at the PN532's field: beyond the longest a look takes
        (``PN532_LOOK_S``), the thread was held up (a busy Pi, the lock), not looking, so that time
        is no silence. The serial protocols need no such care: their reports wait in the port."""
        with self._lock:
            self._tracker.unwatched(max(0.0, gap - PN532_LOOK_S))

    def _handle(self, message: Message, now: float) -> list[Change]:
        with self._lock:
            if isinstance(message, Seen):
                return self._tracker.seen(message.reader, message.uid, now)
            if isinstance(message, Gone):
                return self._tracker.gone(message.reader, now)
            if isinstance(message, Hello):
                self._controller = f"version {message.version}, {message.readers} readers"
                return self._tracker.forget_all(now)
            return []  # a heartbeat: proof of life only

    def _set_connected(self, connected: bool, error: str | None = None) -> None:
        """Record the state; report transitions only (and the first failure at start-up)."""
        with self._lock:
            if error is not None:
                self._last_error = error
            if connected is self._connected:
                return
            self._connected = connected
            now = time.monotonic()
            changes = [] if connected else self._tracker.forget_all(now)
        event: Event = ReaderConnected(self.port, now) if connected else ReaderLost(self.port, error or "", now)
        self._emit([event, *self._events(changes)])

    def status(self) -> DeviceStatus:
        decoder = self._decoder
        counts = ({"frames": decoder.lines, "malformed": decoder.malformed} if isinstance(decoder, LineDecoder)
                  else {"frames": decoder.frames, "garbled": decoder.garbled, "junk_bytes": decoder.junk_bytes})
        if isinstance(decoder, Pn532FrameDecoder):
            counts["failed_commands"] = self._failures
        with self._lock:
            return DeviceStatus(
                "reader", found=bool(self._connected), backend=f"serial/{self.config.protocol}", port=self.port,
                last_error=self._last_error,
                details={"connected": bool(self._connected), **counts, "reconnects": self._reconnects,
                         "controller": self._controller, "present": self._tracker.present()})

    def write_tile(self, tile: int | None) -> None:
        if not isinstance(self._decoder, Pn532FrameDecoder) and tile is not None:
            raise ValueError(f"the {self.config.protocol} reader cannot write tags; a PN532 reader can")
        super().write_tile(tile)

    def close(self) -> None:
        """Stop the thread and close the port (no events: the kiosk is shutting the reader down)."""
        self._stop.set()
        with self._lock:
            port = self._serial
        if port is not None and hasattr(port, "cancel_read"):
            try:
                port.cancel_read()
            except (serial.SerialException, OSError, NotImplementedError):
                pass  # the read times out within READ_TIMEOUT_S anyway
        self._thread.join()


Reader = SerialTileReader | SimulatedReader


def open_reader(config: ReaderConfig, registry: TagRegistry | None = None, listener: Listener | None = None) -> Reader:
    """The configured reader; without ``registry`` an empty one (serial) or the simulated one.

    ``listener`` is subscribed before the reader starts, so it also hears the start-up state
    (the first ``ReaderConnected`` or ``ReaderLost``), which ``subscribe()`` may come too late for.
    """
    if config.port is None:
        return SimulatedReader(registry, listener)
    return SerialTileReader(config, registry if registry is not None else TagRegistry(), listener)
