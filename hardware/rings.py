"""The LED rings: the caller says what to show (a cue), the rings animate it.

    rings = Rings(RingsConfig())                       # backend chosen from config and board
    rings.show(Play(colours=(RED, YELLOW, None, BLUE), turn=0, pulse=True, forced=2))
    rings.show(Winner(seat=3, colour=BLUE)); rings.show(Attract()); rings.show(Off()); rings.show(Lamp(ring=2))
    rings.set_error(True)                               # a device failed: blink red on top
    rings.strip.frame / rings.strip.on_change(cb)      # simulated backend: draw it on screen

Cues (colours are (r, g, b) 0..255; this module knows seats and colours, not the game):

* ``Play``: each seat ring glows dimly in its player's colour; the seat whose turn it is is lit
  fully, and breathes (``pulse``) while that player must fill a forced space. A seat's ring may
  be lit in ``arcs`` (a colour's shape, for colour-blind players). The centre ring
  shows one pip per open forced space, on a dim red ground once the bag is empty.
* ``Winner``: the winner's ring (and those of the seats that share the win) breathes in their
  colour, comets in the first winner's colour circle the other rings.
* ``Attract``: a slow rainbow turning on every ring, for an idle kiosk.
* ``Lamp``: one ring lit steadily (wiring check).
* ``set_error``: the centre ring (or, without one, each seat ring's first LED) blinks red.

Levels are perceived brightness: ``dim`` and the brightness go through ``GAMMA`` before they
reach the LEDs (whose light grows with the duty cycle, which the eye does not), so a breath fades
evenly and a low brightness looks low; a colour that is lit never rounds down to dark.

Frames are computed from the cue and the time only, at most ``fps`` times a second and only while
something moves; a static cue is drawn once and the thread sleeps. The strip is written only
when the frame differs from the last one.

A strip that refuses a frame (SPI or ``/dev/leds0`` answering EIO, a loose connector) is written
again, still picture or not, after ``retry_delay``: 0.1 s, doubling up to 5 s while it keeps
failing, so a dead strip costs little. Listeners hear ``StripFailed`` when a strip starts failing
and ``StripRecovered`` once it takes a frame again (the current picture).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Union

from .board import Board
from .config import RingsConfig, check_brightness
from .events import DeviceStatus, EventSource, Listener, StripFailed, StripRecovered
from .strips import RGB, Frame, Strip, open_strip

GAMMA = 2.2
"""Perceived level -> LED duty cycle: ``duty = level ** GAMMA`` (the eye's response to light)."""
PULSE_PERIOD_S = 1.2
PULSE_FLOOR = 0.3
"""A pulse breathes between this perceived fraction of the colour and the full colour."""
OTHER_SEAT_LEVEL = 0.38
BAG_EMPTY_GROUND: RGB = (64, 0, 0)
ERROR_COLOUR: RGB = (255, 0, 0)
ERROR_BLINK_HZ = 2.0
COMET_TURNS_PER_S = 0.75
COMET_TAIL = (1.0, 0.73, 0.53, 0.38, 0.26)
ATTRACT_TURNS_PER_S = 0.1
WHITE: RGB = (255, 255, 255)
RETRY_FIRST_S = 0.1
"""The wait before writing again a frame the strip refused."""
RETRY_LONGEST_S = 5.0
"""The longest wait between two writes to a strip that keeps refusing them."""


@dataclass(frozen=True)
class Off:
    pass


@dataclass(frozen=True)
class Play:
    colours: tuple[RGB | None, ...] = ()
    """Each seat's player colour, in seat order; None (or missing) for an empty seat."""
    turn: int | None = None
    pulse: bool = False
    forced: int = 0
    bag_empty: bool = False
    arcs: tuple[int, ...] = ()
    """Each seat's ring lit in this many arcs, one dark LED between two (1, or missing: the whole
    ring): a player colour told by its shape as well as its hue, for colour-blind players."""


@dataclass(frozen=True)
class Winner:
    seat: int
    colour: RGB
    shared: tuple[tuple[int, RGB], ...] = ()
    """Further seats that won as well, each ``(seat, colour)``: a tie for first, or a team's other
    players. Each breathes in its colour like ``seat``: lighting one of them would name a sole winner."""


@dataclass(frozen=True)
class Attract:
    pass


@dataclass(frozen=True)
class Lamp:
    """One ring lit steadily (seat rings 0..n-1, then the centre): the self-test's wiring check."""

    ring: int
    colour: RGB = WHITE


Cue = Union[Off, Play, Winner, Attract, Lamp]


def pulse_level(t: float) -> float:
    """The breathing curve: PULSE_FLOOR at t = 0, full at half a period, smooth (raised cosine)."""
    return PULSE_FLOOR + (1 - PULSE_FLOOR) * (0.5 - 0.5 * math.cos(2 * math.pi * t / PULSE_PERIOD_S))


def _gamma(value: int, level: float) -> int:
    """``value`` at the perceived ``level``; at least 1 while both are above 0 (lit stays lit)."""
    scaled = round(value * level ** GAMMA)
    return scaled if scaled or not value or level <= 0 else 1


def dim(colour: RGB, level: float) -> RGB:
    """``colour`` at the perceived ``level`` (0..1): its hue kept, its light gamma-corrected."""
    r, g, b = colour
    return (_gamma(r, level), _gamma(g, level), _gamma(b, level))


def arc_gaps(n: int, arcs: int) -> frozenset[int]:
    """The dark LEDs that split a ring of ``n`` into ``arcs`` arcs, the first at LED 0 (none for
    one arc, or when the ring is too small for the arcs to show: each needs two LEDs or more)."""
    if arcs <= 1 or n < 3 * arcs:
        return frozenset()
    return frozenset(round(k * n / arcs) for k in range(arcs))


def _wheel(position: float) -> RGB:
    """A fully saturated hue for ``position`` in [0, 1)."""
    sector, f = divmod(position * 6, 1)
    rise, fall = round(255 * f), round(255 * (1 - f))
    return ((255, rise, 0), (fall, 255, 0), (0, 255, rise), (0, fall, 255), (rise, 0, 255), (255, 0, fall))[int(sector) % 6]


_WHEEL = tuple(_wheel(i / 256) for i in range(256))


class Renderer:
    """Cue + time -> frame at full brightness. Pure; ``animated`` says whether time matters."""

    def __init__(self, config: RingsConfig) -> None:
        self.seats = [ring.leds for ring in config.rings]
        self.centre = config.centre.leds if config.centre is not None else None

    @staticmethod
    def animated(cue: Cue, error: bool) -> bool:
        return error or isinstance(cue, (Winner, Attract)) or (isinstance(cue, Play) and cue.pulse)

    def frame(self, cue: Cue, error: bool, t: float) -> Frame:
        seats: list[tuple[RGB, ...]]
        centre: tuple[RGB, ...] = ((0, 0, 0),) * (self.centre or 0)
        if isinstance(cue, Play):
            seats = [self._seat(cue, seat, n, t) for seat, n in enumerate(self.seats)]
            centre = self._centre(cue)
        elif isinstance(cue, Winner):
            won = {cue.seat: cue.colour, **dict(cue.shared)}
            seats = [((dim(won[seat], pulse_level(t)),) * n if seat in won else self._comet(cue.colour, n, t))
                     for seat, n in enumerate(self.seats)]
            centre = self._comet(cue.colour, len(centre), t)
        elif isinstance(cue, Attract):
            seats = [self._rainbow(n, t, seat / len(self.seats)) for seat, n in enumerate(self.seats)]
            centre = self._rainbow(len(centre), t, 0.5)
        elif isinstance(cue, Lamp):
            seats = [(cue.colour if seat == cue.ring else (0, 0, 0),) * n for seat, n in enumerate(self.seats)]
            centre = (cue.colour if cue.ring == len(self.seats) else (0, 0, 0),) * len(centre)
        else:
            seats = [((0, 0, 0),) * n for n in self.seats]
        if error and int(t * 2 * ERROR_BLINK_HZ) % 2 == 0:
            if self.centre:
                centre = (ERROR_COLOUR,) * self.centre
            else:
                seats = [(ERROR_COLOUR,) + ring[1:] for ring in seats]
        return tuple(seats) + ((centre,) if self.centre else ())

    @staticmethod
    def _seat(cue: Play, seat: int, n: int, t: float) -> tuple[RGB, ...]:
        colour = cue.colours[seat] if seat < len(cue.colours) else None
        if colour is None:
            return ((0, 0, 0),) * n
        if seat != cue.turn:
            lit = dim(colour, OTHER_SEAT_LEVEL)
        else:
            lit = dim(colour, pulse_level(t)) if cue.pulse else colour
        gaps = arc_gaps(n, cue.arcs[seat] if seat < len(cue.arcs) else 1)
        return tuple((0, 0, 0) if k in gaps else lit for k in range(n))

    def _centre(self, cue: Play) -> tuple[RGB, ...]:
        n = self.centre or 0
        leds = [BAG_EMPTY_GROUND if cue.bag_empty else (0, 0, 0)] * n
        turn_colour = cue.colours[cue.turn] if cue.turn is not None and cue.turn < len(cue.colours) else None
        pips = min(max(cue.forced, 0), n)
        for k in range(pips):
            leds[k * n // pips] = turn_colour or WHITE
        return tuple(leds)

    @staticmethod
    def _comet(colour: RGB, n: int, t: float) -> tuple[RGB, ...]:
        leds: list[RGB] = [(0, 0, 0)] * n
        head = int(t * COMET_TURNS_PER_S * n)
        for back, level in enumerate(COMET_TAIL[:n]):
            leds[(head - back) % n] = dim(colour, level)
        return tuple(leds)

    @staticmethod
    def _rainbow(n: int, t: float, offset: float) -> tuple[RGB, ...]:
        start = (t * ATTRACT_TURNS_PER_S + offset) * 256
        return tuple(_WHEEL[int(start + 256 * i / n) % 256] for i in range(n))


def _scale(brightness: float) -> tuple[int, ...]:
    """Each 0..255 colour value at the perceived ``brightness``."""
    return tuple(_gamma(value, brightness) for value in range(256))


def retry_delay(failures: int) -> float:
    """Seconds before the next write to a strip that refused the last ``failures`` (1 or more)
    in a row: :data:`RETRY_FIRST_S`, doubling, at most :data:`RETRY_LONGEST_S`."""
    return min(RETRY_LONGEST_S, RETRY_FIRST_S * 2.0 ** min(failures - 1, 32))


class Rings(EventSource):
    """The rings and their animation thread. ``show(cue)``, ``set_error()`` and ``set_brightness()``
    from any thread; ``listener`` (subscribed before the thread starts) and ``subscribe()`` hear
    the strip fail and recover, on the animation thread."""

    def __init__(self, config: RingsConfig, strip: Strip | None = None, board: Board | None = None,
                 listener: Listener | None = None) -> None:
        super().__init__()
        if listener is not None:
            self._listeners.add(listener)
        self.config = config
        self.error: str | None = None
        """Why the rings are not fine: the chosen strip could not be opened (the simulated one
        stands in), or the strip is refusing frames now."""
        self.why = "given by the caller"
        """Why this backend: the choice's reason, or why the chosen one failed."""
        if strip is None:
            strip, self.why, self.error = open_strip(config, board)
        self._opened_error = self.error
        self.strip = strip
        self.writes = 0
        self.failures = 0
        """Writes refused in a row (0: the strip shows the picture)."""
        self._renderer = Renderer(config)
        self._scale = _scale(config.brightness)
        self._cue: Cue = Off()
        self._error_on = False
        self._dirty = True
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="led-rings", daemon=True)
        self._thread.start()

    @property
    def cue(self) -> Cue:
        return self._cue

    def show(self, cue: Cue) -> None:
        with self._cond:
            if cue != self._cue:
                self._cue, self._dirty = cue, True
                self._cond.notify()

    def set_error(self, on: bool) -> None:
        with self._cond:
            if on != self._error_on:
                self._error_on, self._dirty = on, True
                self._cond.notify()

    def set_brightness(self, brightness: float) -> None:
        """Change the brightness while running (staff turn it down in a dim café); checked like
        ``rings.brightness``. ``config.brightness`` stays the value the rings started with."""
        check_brightness(brightness)
        with self._cond:
            self._scale, self._dirty = _scale(brightness), True
            self._cond.notify()

    def scaled(self, frame: Frame) -> Frame:
        """``frame`` at the current brightness."""
        s = self._scale
        return tuple(tuple((s[r], s[g], s[b]) for r, g, b in ring) for ring in frame)

    def _run(self) -> None:
        period = 1 / self.config.fps
        start = next_at = time.monotonic()
        last: Frame | None = None  # what the LEDs show; None: not known (a write failed)
        while True:
            with self._cond:
                while True:
                    if self._closed:
                        return
                    now = time.monotonic()
                    due = (self._dirty or self.failures > 0
                           or self._renderer.animated(self._cue, self._error_on))
                    if due and now >= next_at:
                        break
                    self._cond.wait(next_at - now if due else None)
                cue, error, self._dirty = self._cue, self._error_on, False
            next_at = now + period
            frame = self.scaled(self._renderer.frame(cue, error, now - start))
            if frame == last:
                continue
            if self._write(frame):
                last = frame
            else:
                last, next_at = None, now + retry_delay(self.failures)

    def _write(self, frame: Frame) -> bool:
        """Show ``frame``; False when the strip refused it (a dying strip must not take the kiosk
        with it). Listeners hear the first refusal of a run and the write that ends it."""
        try:
            self.strip.show(frame)
        except Exception as exc:
            self.failures += 1
            if self.failures == 1:
                self.error = self._refused(exc)
                self._emit([StripFailed(self.strip.name, self.error, time.monotonic())])
            return False
        self.writes += 1
        if self.failures:
            self.failures, self.error = 0, self._opened_error
            self._emit([StripRecovered(self.strip.name, time.monotonic())])
        return True

    def _refused(self, exc: Exception) -> str:
        return f"{self.strip.name}: {type(exc).__name__}: {exc}"

    def status(self) -> DeviceStatus:
        real = self.strip.name != "simulated"
        port = {"ws281x": f"GPIO{self.config.pin}", "spi": self.config.spi_device,
                "pio": self.config.pio_device}.get(self.strip.name)
        return DeviceStatus("rings", found=real, backend=self.strip.name, port=port, last_error=self.error,
                            details={"why": self.why, "rings": [ring.leds for ring in self.config.rings],
                                     "centre": self.config.centre.leds if self.config.centre else None,
                                     "writes": self.writes, "failures": self.failures})

    def close(self) -> None:
        """Stop animating, darken the LEDs and release the strip. A dying strip does not stop the
        shutdown either: the kiosk's store still closes, and staff's "quit" stays a quit."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify()
        self._thread.join()
        try:
            self.strip.close()
        except Exception as exc:
            self.error = self.error or self._refused(exc)
