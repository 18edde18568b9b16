"""In-memory services: the UI's own Store, Devices and Settings, for tests and ``python -m ui``.

They keep the same promises as the firmware's (SQLite, real devices, the configuration file) as
far as a process that never restarts can: the store keeps everything in dicts, the devices are
simulated and answer through the same events the real ones send.
"""

from __future__ import annotations

import contextlib
import copy
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Literal

from engine.compact import REPLAY_URL
from engine.tiles import COLOURS

from .services import (
    BagButtonHeld,
    BagButtonPressed,
    Cue,
    DeviceStatus,
    EnrolmentProgress,
    Event,
    RingFrames,
    Services,
    StickerProgress,
    TileScanned,
    games_per_day,
)


class MemoryStore:
    """A Store that forgets everything when the process ends."""

    def __init__(self) -> None:
        self._current: dict[str, Any] | None = None
        self._records: list[tuple[int, str, dict[str, Any]]] = []
        self._finished: list[float] = []
        """When each record was added (seconds since the epoch), in the same order."""
        self._progress: dict[str, dict[str, Any]] = {}
        self._scores: dict[str, list[tuple[str, int]]] = {}

    def save_current(self, saved: dict[str, Any]) -> None:
        self._current = copy.deepcopy(saved)

    def load_current(self) -> dict[str, Any] | None:
        return copy.deepcopy(self._current)

    def clear_current(self) -> None:
        self._current = None

    def add_record(self, kind: str, record: dict[str, Any]) -> int:
        number = len(self._records) + 1
        self._records.append((number, kind, copy.deepcopy(record)))
        self._finished.append(time.time())
        return number

    def records(self, kind: str | None = None, limit: int = 50) -> list[tuple[int, str, dict[str, Any]]]:
        found = [r for r in reversed(self._records) if kind is None or r[1] == kind]
        return copy.deepcopy(found[:limit])

    def progress(self, key: str) -> dict[str, Any]:
        return self.saved_progress(key) or {}

    def saved_progress(self, key: str) -> dict[str, Any] | None:
        return copy.deepcopy(self._progress.get(key))

    def set_progress(self, key: str, value: dict[str, Any]) -> None:
        self._progress[key] = copy.deepcopy(value)

    def add_score(self, mode: str, name: str, score: int) -> None:
        self._scores.setdefault(mode, []).append((name, score))

    def high_scores(self, mode: str, limit: int = 10) -> list[tuple[str, int]]:
        return sorted(self._scores.get(mode, []), key=lambda s: -s[1])[:limit]

    def statistics(self) -> dict[str, Any]:
        """As the SQLite store's: games per kind, robots' results per level, records kept, storage."""
        played = Counter(kind for _, kind, _ in self._records)
        robots: dict[str, dict[str, int]] = {}
        for _, _, record in self._records:
            for level, result in (record.get("robots") or {}).items():
                if result in ("won", "lost", "drawn"):
                    counts = robots.setdefault(level, {"won": 0, "lost": 0, "drawn": 0})
                    counts[result] += 1
        days = games_per_day((when, kind) for when, (_, kind, _) in zip(self._finished, self._records))
        return {"games": dict(sorted(played.items())), "robots": robots, "days": days,
                "newest": max(self._finished, default=None), "records": len(self._records), "storage": "in memory"}

    def exporting(self) -> contextlib.AbstractContextManager[None]:
        """As the firmware's; reads from memory never fail."""
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """All or nothing, as the firmware's: what the block wrote is undone if it raises."""
        kept = copy.deepcopy((self._current, self._records, self._finished, self._progress, self._scores))
        try:
            yield
        except BaseException:
            self._current, self._records, self._finished, self._progress, self._scores = kept
            raise


@dataclass
class MemorySettings:
    """Settings held in memory; ``pin`` is the staff PIN."""

    language: str = "en"
    brightness: float = 0.6
    idle_seconds: float = 90.0
    orientation: Literal["flat", "upright"] = "flat"
    physical_bag: bool = False
    end_rule: Literal["all-placed", "first-out"] = "all-placed"
    confirm_moves: bool = True
    coach: bool = True
    clock_minutes: int = 0
    time_out: Literal["penalty", "loss"] = "penalty"
    replay_url: str = REPLAY_URL
    warnings: tuple[str, ...] = ()
    pin: str = "1234"
    staff_pin_set: bool = True
    version: str = "in-memory"
    web_address: str = ""
    wait: float = 0.0
    """Seconds the keypad stays locked (tests set it)."""

    def check_pin(self, pin: str) -> bool:
        return self.wait <= 0 and pin == self.pin

    def pin_wait(self) -> float:
        return self.wait

    def set_language(self, language: str) -> None:
        self.language = language

    def set_brightness(self, brightness: float) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness must be between 0 and 1, not {brightness}")
        self.brightness = brightness

    def set_coach(self, coach: bool) -> None:
        self.coach = coach


RING_LEDS = 12
_CUE_RGB = {"R": (255, 30, 30), "Y": (255, 200, 0), "G": (30, 200, 60), "B": (40, 90, 255), "": (0, 0, 0)}


def ring_frames(cue: Cue, seats: int = 4, brightness: float = 1.0) -> RingFrames:
    """A still picture of ``cue`` on ``seats`` rings and a centre ring (the real firmware animates;
    this is enough to see what the UI asked for)."""

    def scaled(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
        r, g, b = colour
        return int(r * factor * brightness), int(g * factor * brightness), int(b * factor * brightness)

    rings = []
    for seat in range(seats):
        if cue.attract:
            ring = tuple(scaled(_CUE_RGB[COLOURS[(seat + i // 3) % 4]], 0.8) for i in range(RING_LEDS))
        else:
            colour = _CUE_RGB[cue.colours[seat]] if seat < len(cue.colours) else (0, 0, 0)
            lit = 1.0 if seat == cue.turn or seat in cue.winners else 0.15
            ring = tuple(scaled(colour, lit) for _ in range(RING_LEDS))
        rings.append(ring)
    centre = (255, 140, 0) if cue.forced else (0, 0, 0)
    rings.append(tuple(scaled(centre, 1.0) for _ in range(RING_LEDS)))
    return RingFrames(tuple(rings))


class SimulatedDevices:
    """Devices that exist only in this process: the keyboard and on-screen controls act as the
    bag button and the tile reader, and the rings are drawn on screen from :class:`RingFrames`.

    Events go to ``listener`` (the app's ``post``), from whatever thread calls in, as real ones do.
    """

    def __init__(self, settings: MemorySettings | None = None, seats: int = 4) -> None:
        self.listener: Callable[[Event], None] = lambda event: None
        self.settings = settings
        self.seats = seats
        self.cues: list[Cue] = []
        self._status = {
            name: DeviceStatus(name, True, "simulated") for name in ("button", "reader", "rings")
        }
        self._enrolling: list[int] = []
        self._learned = 0
        self._writing: StickerProgress | None = None
        self._lock = threading.Lock()

    def status(self) -> list[DeviceStatus]:
        return list(self._status.values())

    def set_status(self, name: Literal["button", "reader", "rings"], ok: bool, detail: str = "") -> None:
        """Simulate a device going away or coming back."""
        status = DeviceStatus(name, ok, "simulated", detail)
        self._status[name] = status
        self.listener(status)

    def cue(self, cue: Cue) -> None:
        self.cues.append(cue)
        brightness = self.settings.brightness if self.settings else 1.0
        self.listener(ring_frames(cue, self.seats, brightness))

    def start_enrolment(self, tiles: list[int]) -> None:
        with self._lock:
            self._enrolling, self._learned = list(tiles), 0
        self.listener(EnrolmentProgress(0, tiles[0] if tiles else None))

    def cancel_enrolment(self) -> None:
        with self._lock:
            self._enrolling = []

    def start_writing(self, first_tile: int) -> None:
        with self._lock:
            self._writing = StickerProgress(0, first_tile)
        self.listener(self._writing)

    def cancel_writing(self) -> None:
        with self._lock:
            self._writing = None

    def simulated(self) -> bool:
        return True

    def press_button(self, held: bool = False) -> None:
        self.listener(BagButtonHeld() if held else BagButtonPressed())

    def scan(self, tile: int, reader: int | None) -> None:
        """Put ``tile`` on ``reader``; while writing stickers, a blank sticker instead."""
        with self._lock:
            sticker, writing = None, self._writing
            if writing is not None and writing.next_tile is not None:
                number = writing.next_tile
                sticker = StickerProgress(writing.written + 1, number + 1 if number < 56 else None, number)
                self._writing = sticker
        if sticker is not None:
            self.listener(sticker)
            return
        with self._lock:
            enrolling = bool(self._enrolling)
            if enrolling:
                expected = self._enrolling[0]
                if tile == expected:
                    self._enrolling.pop(0)
                    self._learned += 1
                progress = EnrolmentProgress(
                    self._learned,
                    self._enrolling[0] if self._enrolling else None,
                    "" if tile == expected else f"expected tile {expected}, read tile {tile}",
                )
        self.listener(progress if enrolling else TileScanned(tile, reader))


def memory_services(
    settings: MemorySettings | None = None,
    store: MemoryStore | None = None,
    quit_to_system: Callable[[], None] = lambda: None,
    devices: SimulatedDevices | None = None,
) -> Services:
    """A Services bundle of in-memory parts (simulated devices); connect the app with
    ``devices.listener = app.post``."""
    settings = settings or MemorySettings()
    return Services(store=store or MemoryStore(), devices=devices or SimulatedDevices(settings), settings=settings,
                    quit_to_system=quit_to_system)
