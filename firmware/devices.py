"""The kiosk's devices as the UI sees them (``ui.services.Devices``): events in, LED cues out.

:class:`KioskDevices` opens the bag button, the tile reader and the LED rings with the hardware
package's own backend choice (real on a Raspberry Pi, simulated elsewhere, all simulated with
``--simulate``), turns their events into the UI's events for ``post`` (the UI's thread-safe
``app.post``), and turns the UI's :class:`ui.services.Cue` into ring cues. A device that is missing
or fails becomes a :class:`ui.services.DeviceStatus` and a red blink on the rings, never a stop.

Seats and readers: seat *i* has ring *i* of ``rings.rings`` (so there are as many seats as seat
rings) and reader *i* of a multi-reader controller (``reader.protocol = "lines"``) or of the
simulated reader; any reader numbered from the number of seats up is the central pad, and so is a
single RDM6300 or PN532 reader (it has no seat).

Tags: a real reader names tiles through the registry in the kiosk's database (in memory, seeded
with every tag the store could read, when the store is); the simulated reader uses its own in-memory registry that knows every tile, so a
simulated run never writes made-up tags where the real reader will look them up.

Threads: the devices call back on their own threads (the serial thread, the button's thread, the
rings' animation thread) or, for the simulators, on the caller's; ``post`` is called there.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import replace
from typing import Any, Callable

import hardware as hw
from hardware.board import Board, detect_board
from hardware.rings import WHITE
from hardware.rings import Cue as RingCue
from hardware.strips import RGB
from ui import services as ui
from ui.theme import SEAT_ARCS

from .config import Config
from .store import SqliteStore

log = logging.getLogger(__name__)

Post = Callable[[ui.Event], None]

PLAYER_COLOURS: dict[str, RGB] = {"R": (255, 0, 0), "Y": (255, 170, 0), "G": (0, 220, 0), "B": (0, 40, 255)}
"""The UI's player colours on the LEDs (a WS2812 needs less green than a screen to look yellow)."""


class NotSimulated(RuntimeError):
    """A simulator action (``press_button``, ``scan``) was asked of a real device."""


def ring_cue(cue: ui.Cue) -> RingCue:
    """The rings' cue for the UI's ``cue``: attract, else the winners (every seat of a shared win),
    else play, else off."""
    colours = tuple(_colour(letter) for letter in cue.colours)
    if cue.attract:
        return hw.Attract()
    if cue.winners:
        first, *rest = cue.winners
        return hw.Winner(first, _won(colours, first), tuple((seat, _won(colours, seat)) for seat in rest))
    if cue.turn is None and not any(colours):
        return hw.Off()
    arcs = tuple(SEAT_ARCS.get(letter, 1) for letter in cue.colours)
    return hw.Play(colours, cue.turn, cue.pulse, cue.forced, cue.bag_empty, arcs)


def _won(colours: tuple[RGB | None, ...], seat: int) -> RGB:
    """The colour a winning ``seat`` is celebrated in: its player's, else white."""
    return (colours[seat] if seat < len(colours) else None) or WHITE


def _colour(letter: str) -> RGB | None:
    if not letter:
        return None
    try:
        return PLAYER_COLOURS[letter]
    except KeyError:
        raise ValueError(f"unknown player colour {letter!r} in the cue (known: "
                         f"{', '.join(PLAYER_COLOURS)}, or \"\" for an empty seat)") from None


def _asked_for_simulation(backend: str, board: Board) -> bool:
    """Whether a simulated device is what was asked for (``--simulate``, ``backend = "simulated"``,
    ``"auto"`` off a Raspberry Pi) rather than a stand-in for hardware that failed."""
    return backend == "simulated" or (backend == "auto" and board is Board.OTHER)


class KioskDevices:
    """The UI's ``Devices``: the button, the reader and the rings of ``config``, opened at once.

    ``store`` gives the tag registry's database; ``report`` receives problems for staff (a device
    that cannot be used, a tag table that cannot be read); ``simulate`` forces every simulator;
    ``brightness`` is the LED brightness to start with (the settings' value, which may be a staff
    change); ``post`` receives the UI events (see :meth:`attach`). ``board`` and ``pin_factory``
    replace the board detection and gpiozero's pin factory (tests).
    """

    def __init__(self, config: Config, store: SqliteStore, report: Callable[[str], None], *,
                 simulate: bool = False, brightness: float | None = None, post: Post | None = None,
                 board: Board | None = None, pin_factory: Any = None) -> None:
        self._post = post
        self._report = report
        self._lock = threading.Lock()  # the enrolment
        self._status_lock = threading.Lock()  # the reader's state and the error blink, changed together
        self._enrolment: hw.Enrolment | None = None
        self._learned = 0
        self._writing: ui.StickerProgress | None = None
        self._tag_db: sqlite3.Connection | None = None
        self._closed = False
        button, reader, rings = config.button, config.reader, config.rings
        if simulate:
            button, reader = replace(button, backend="simulated"), replace(reader, port=None)
            rings = replace(rings, backend="simulated")
        if brightness is not None:
            rings = replace(rings, brightness=brightness)
        board = board if board is not None else detect_board()
        self._button_simulated_ok = _asked_for_simulation(button.backend, board)
        self._rings_simulated_ok = _asked_for_simulation(rings.backend, board)
        self.seats = len(rings.rings)
        self._single_reader = reader.port is not None and reader.protocol != "lines"  # one reader: the pad
        self._reader_ok = True  # until the reader says otherwise

        self.rings = hw.Rings(rings, board=board)
        if isinstance(self.rings.strip, hw.SimulatedStrip):
            self.rings.strip.on_change(self._on_frame)
        self.button = hw.open_button(button, board, pin_factory)
        self.button.subscribe(self._on_event)
        registry = self._registry(store) if reader.port is not None else None
        self.reader = hw.open_reader(reader, registry, self._on_event)
        self.rings.subscribe(self._on_event)  # now: its failures blink and reach staff, read below until now
        button_status, rings_status = self._button_status(), self._rings_status()
        if not button_status.ok:
            self._tell(f"the bag button cannot be used ({button_status.detail}); a simulated one stands in")
        if not rings_status.ok and self.rings.strip.name == "simulated":
            self._tell(f"the LED rings cannot be used ({rings_status.detail}); simulated ones stand in")
        self._show_error()

    # ---------------------------------------------------------------------- the Devices protocol

    def status(self) -> list[ui.DeviceStatus]:
        """The button, the reader and the rings: backend, whether fine, and where or what failed."""
        return [self._button_status(), self._reader_status(), self._rings_status()]

    def cue(self, cue: ui.Cue) -> None:
        self.rings.show(ring_cue(cue))

    def start_enrolment(self, tiles: list[int]) -> None:
        """Learn tags in the order of ``tiles``: from now on every tag read feeds the enrolment
        (instead of becoming ``TileScanned``) and posts ``EnrolmentProgress``, until the last tile
        or :meth:`cancel_enrolment`. Learning a tile that already has a tag replaces that tag (a
        new box, or the same box again); a tag that belongs to another tile is refused.
        An order naming a tile twice or a tile outside 1..56 raises ``hardware.RegistryError``."""
        with self._lock:
            self._enrolment = hw.Enrolment(self.reader.registry, tiles)
            self._learned = 0
            self._progress()

    def cancel_enrolment(self) -> None:
        """Stop learning (the tags learnt so far stay learnt)."""
        with self._lock:
            self._enrolment = None

    def start_writing(self, first_tile: int) -> None:
        """Write ``first_tile`` on the next blank sticker put on the reader, then the following
        numbers up to 56 (``StickerProgress`` after each); tag reads meanwhile are not game moves.
        A reader that cannot write answers with a ``StickerProgress`` naming why."""
        try:
            self.reader.write_tile(first_tile)
        except (ValueError, hw.RegistryError) as exc:
            self._send(ui.StickerProgress(0, None, None, str(exc)))
            return
        with self._lock:
            self._writing = ui.StickerProgress(0, first_tile)
        self._send(self._writing)

    def cancel_writing(self) -> None:
        """Stop writing (the stickers written so far keep their numbers)."""
        self.reader.write_tile(None)
        with self._lock:
            self._writing = None

    def simulated(self) -> bool:
        """True when both the button and the reader are simulated, so ``press_button`` and
        ``scan`` work (simulated rings are announced by ``RingFrames`` events instead)."""
        return isinstance(self.button, hw.SimulatedButton) and isinstance(self.reader, hw.SimulatedReader)

    def press_button(self, held: bool = False) -> None:
        if not isinstance(self.button, hw.SimulatedButton):
            raise NotSimulated(f"the bag button is real (GPIO{self.button.config.pin}); press it")
        if held:
            self.button.hold()
        else:
            self.button.press()

    def scan(self, tile: int, reader: int | None) -> None:
        """Put ``tile`` on the reader of seat ``reader`` (None: the central pad) and lift it again."""
        if not isinstance(self.reader, hw.SimulatedReader):
            raise NotSimulated(f"the tile reader is real ({self._reader_status().backend}); put the tile on it")
        if reader is not None and not 0 <= reader < self.seats:
            raise ValueError(f"no seat {reader}: the seats are 0 to {self.seats - 1} (None: the central pad)")
        number = self.seats if reader is None else reader
        self.reader.scan(tile=tile, reader=number)
        self.reader.remove(reader=number)

    # ----------------------------------------------------------------------------- the runtime

    def attach(self, post: Post | None) -> None:
        """Send the UI events to ``post`` from now on (None: drop them), starting with the current
        status of each device and, for simulated rings, the current frame. Events before a sink
        is attached are dropped: the UI learns the state from these first events."""
        self._post = post
        if post is not None:
            for status in self.status():
                post(status)
            if isinstance(self.rings.strip, hw.SimulatedStrip):
                self._on_frame(self.rings.strip.frame)

    def set_brightness(self, brightness: float) -> None:
        """The LED brightness, 0..1 (``KioskSettings.on_brightness``)."""
        self.rings.set_brightness(brightness)

    def seat_of(self, reader: int) -> int | None:
        """The seat at reader number ``reader`` (as the reader numbers them); None: the central pad."""
        return None if self._single_reader or reader >= self.seats else reader

    def close(self) -> None:
        """Stop posting, then stop the reader, the button and the rings (which go dark)."""
        if self._closed:
            return
        self._closed, self._post = True, None
        self.reader.close()
        self.button.close()
        self.rings.close()
        if self._tag_db is not None:
            self._tag_db.close()

    def __enter__(self) -> KioskDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------- internals

    def _on_event(self, event: hw.Event) -> None:
        """A device event, on the device's thread."""
        if isinstance(event, hw.ButtonPressed):
            self._send(ui.BagButtonPressed())
        elif isinstance(event, hw.ButtonHeld):
            self._send(ui.BagButtonHeld())
        elif isinstance(event, (hw.TagWritten, hw.TagNotWritten)):
            self._written(event)
        elif isinstance(event, (hw.TagRead, hw.UnknownTag)):
            with self._lock:
                if self._writing is not None:
                    return  # a sticker being written, not a move
                if self._enrolment is not None:
                    self._enrol(event.uid)
                    return
            if isinstance(event, hw.TagRead):
                self._send(ui.TileScanned(event.tile, self.seat_of(event.reader)))
            else:
                self._send(ui.UnknownTag(event.uid, self.seat_of(event.reader)))
        elif isinstance(event, (hw.ReaderConnected, hw.ReaderLost)):
            connected = isinstance(event, hw.ReaderConnected)
            error = event.error if isinstance(event, hw.ReaderLost) else ""
            if error:
                log.warning("tile reader lost: %s", error)
            self._send(ui.DeviceStatus("reader", connected, f"serial:{event.port}", error))
            self._show_error(reader_ok=connected)
        elif isinstance(event, (hw.StripFailed, hw.StripRecovered)):
            if isinstance(event, hw.StripFailed):
                log.warning("LED rings: %s; writing the picture again until the strip takes it", event.error)
            else:
                log.info("LED rings: the strip takes frames again")
            self._send(self._rings_status())
            self._show_error()

    def _on_frame(self, frame: list[list[RGB]]) -> None:
        """A new frame of the simulated rings (at most ``rings.fps`` a second: the rings' own bound)."""
        self._send(ui.RingFrames(tuple(tuple(ring) for ring in frame)))

    def _send(self, event: ui.Event) -> None:
        post = self._post
        if post is not None:
            post(event)

    def _written(self, event: hw.TagWritten | hw.TagNotWritten) -> None:
        """A sticker took its number (arm the next one) or refused it (say why; it stays armed)."""
        with self._lock:
            writing = self._writing
            if writing is None:
                return
            if isinstance(event, hw.TagNotWritten):
                progress = ui.StickerProgress(writing.written, writing.next_tile, None, event.error)
            else:
                following = event.tile + 1 if event.tile < 56 else None
                progress = ui.StickerProgress(writing.written + 1, following, event.tile)
                self.reader.write_tile(following)
            self._writing = progress if progress.next_tile is not None else None
        self._send(progress)

    def _enrol(self, uid: str) -> None:
        """Feed ``uid`` to the enrolment (the lock is held)."""
        assert self._enrolment is not None
        enrolment, registry = self._enrolment, self.reader.registry
        try:
            try:
                tile = enrolment.scan(uid)
            except hw.RegistryError:
                old = registry.uid(enrolment.expected) if enrolment.expected is not None else None
                if old is None or registry.tile(uid) not in (None, enrolment.expected):
                    raise
                registry.forget(old)  # learning the tile again: its new tag replaces the old one
                tile = enrolment.scan(uid)
        except hw.RegistryError as exc:
            self._progress(str(exc))
            return
        except sqlite3.Error as exc:  # a full or locked disk: say so, or staff wait on a silent screen
            log.error("enrolment: tag %s not saved: %s", uid, exc)
            self._progress(f"tag {uid} could not be saved ({exc}); lift the tile and put it down again")
            return
        if tile is not None:  # None: the tag just learnt, put down again
            self._learned += 1
            self._progress()

    def _progress(self, error: str = "") -> None:
        assert self._enrolment is not None
        self._send(ui.EnrolmentProgress(self._learned, self._enrolment.expected, error))
        if self._enrolment.done:
            self._enrolment = None

    def _registry(self, store: SqliteStore) -> hw.TagRegistry:
        """The persistent tag registry (a connection of its own: enrolment writes from the reader's
        thread), or an in-memory one when the store or the tag table cannot be used."""
        if store.in_memory:  # the tags the store could still read come along
            return _memory_registry(store)
        try:
            self._tag_db = sqlite3.connect(store.path, check_same_thread=False, timeout=5.0)
            self._tag_db.execute("PRAGMA synchronous = FULL")  # as durable as the store's own writes
            return hw.TagRegistry(hw.SqliteTagStore(self._tag_db))
        except (sqlite3.Error, hw.RegistryError) as exc:
            if self._tag_db is not None:
                self._tag_db.close()
                self._tag_db = None
            self._tell(f"the tile tags in {store.path} cannot be read ({exc}); tags learnt now are kept "
                       f"in memory only")
            return _memory_registry(store)

    def _tell(self, message: str) -> None:
        log.error("%s", message)
        self._report(message)

    def _show_error(self, reader_ok: bool | None = None) -> None:
        """Blink the rings while any device is not fine (``reader_ok``: the reader's new state)."""
        with self._status_lock:
            if reader_ok is not None:
                self._reader_ok = reader_ok
            fine = self._reader_ok and self._button_status().ok and self._rings_status().ok
            self.rings.set_error(not fine)

    def _button_status(self) -> ui.DeviceStatus:
        status = self.button.status()
        if isinstance(self.button, hw.GpioButton):
            return ui.DeviceStatus("button", True, "gpio", status.port or "")
        return ui.DeviceStatus("button", self._button_simulated_ok, "simulated", status.last_error or "")

    def _reader_status(self) -> ui.DeviceStatus:
        status = self.reader.status()
        if isinstance(self.reader, hw.SerialTileReader):
            detail = "" if status.found else status.last_error or "not opened yet"
            return ui.DeviceStatus("reader", status.found, f"serial:{status.port}", detail)
        return ui.DeviceStatus("reader", True, "simulated", "")

    def _rings_status(self) -> ui.DeviceStatus:
        status = self.rings.status()
        if self.rings.strip.name == "simulated":
            return ui.DeviceStatus("rings", self._rings_simulated_ok, "simulated", status.last_error or self.rings.why)
        return ui.DeviceStatus("rings", status.last_error is None, status.backend,
                               status.last_error or status.port or "")


def _memory_registry(store: SqliteStore) -> hw.TagRegistry:
    """An in-memory registry holding every tag of the store that the registry accepts (a damaged
    row is left out, not the whole set: rescanning 56 tiles is what this avoids)."""
    good = {}
    for uid, tile in store.tags().items():
        try:
            hw.TagRegistry(hw.MemoryTagStore({uid: tile}))
        except hw.RegistryError:
            continue
        good[uid] = tile
    return hw.TagRegistry(hw.MemoryTagStore(good))
