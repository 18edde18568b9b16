"""LED strip backends: where a frame of the rings goes.

A frame is one tuple of RGB triples per ring, in ring order (the seats, then the centre), each
ring starting at the LED that faces its player and already scaled to the configured brightness.

* ``SimulatedStrip``: keeps the frame for the screen and tests (``frame``, ``on_change``).
* ``SpiStrip``: every Raspberry Pi (and any Linux with spidev): the WS2812 bit stream encoded on
  SPI MOSI, three SPI bits per LED bit (1 -> 110, 0 -> 100), written with plain file I/O. Needs
  only the ``spi`` group, so it is the default on every model.
* ``PioStrip``: the Pi 5's kernel PIO driver (``dtoverlay=ws2812-pio``), a character device
  (``/dev/leds0``) that takes 4 bytes per LED; chosen by ``auto`` when that device is writable.
* ``Ws281xStrip``: rpi-ws281x on a Pi 1-4 (imported only here, only when asked for): PWM or PCM
  by DMA through ``/dev/mem``, so it needs root (the unit's ws281x-pwm drop-in).

``open_strip(config)`` picks the backend from the configuration and the board, says why
(``python -m hardware selftest`` prints it), and falls back to the simulated strip, with the
reason, when the real one cannot be used: the kiosk runs on.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import math
import operator
import os
import struct
import threading
from itertools import chain
from pathlib import Path
from typing import BinaryIO, Callable, NamedTuple, Protocol, Sequence

from .board import Board, board_model, classify
from .config import RingsConfig, RingSpec

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]
Frame = tuple[tuple[RGB, ...], ...]


class Strip(Protocol):
    name: str

    def show(self, frame: Frame) -> None: ...

    def close(self) -> None:
        """Darken the LEDs and release the device."""


def dark_frame(rings: Sequence[RingSpec]) -> Frame:
    return tuple(((0, 0, 0),) * ring.leds for ring in rings)


def strip_order(frame: Frame, rings: Sequence[RingSpec]) -> list[RGB]:
    """The frame as the strip's LEDs in wiring order: each ring's LED ``rotate`` shows its LED 0."""
    pixels: list[RGB] = []
    for ring, leds in zip(rings, frame):
        shift = (ring.leds - ring.rotate) % ring.leds  # physical j shows logical (j - rotate)
        pixels += leds[shift:] + leds[:shift]
    return pixels


def wire_bytes(pixels: Sequence[RGB], colour_order: str) -> bytes:
    """The colour bytes in the order the LEDs read them (``colour_order`` such as "GRB")."""
    pick = operator.itemgetter(*("RGB".index(c) for c in colour_order))
    return bytes(chain.from_iterable(map(pick, pixels)))


class SimulatedStrip:
    """Rings drawn on screen. ``frame`` is a plain list (per ring) of lists of (r, g, b).

    ``on_change(callback)`` calls ``callback(frame)`` on the rings' animation thread after each
    new frame (marshal it to the UI thread, e.g. with Kivy's ``Clock.schedule_once``); it
    returns a function that removes the callback.
    """

    name = "simulated"

    def __init__(self, rings: Sequence[RingSpec]) -> None:
        self._rings = tuple(rings)
        self._frame = dark_frame(rings)
        self._callbacks: tuple[Callable[[list[list[RGB]]], None], ...] = ()
        self._lock = threading.Lock()
        self.writes = 0

    @property
    def frame(self) -> list[list[RGB]]:
        return [list(ring) for ring in self._frame]

    def on_change(self, callback: Callable[[list[list[RGB]]], None]) -> Callable[[], None]:
        with self._lock:
            self._callbacks += (callback,)

        def remove() -> None:
            with self._lock:
                self._callbacks = tuple(c for c in self._callbacks if c is not callback)

        return remove

    def show(self, frame: Frame) -> None:
        self._frame = frame
        self.writes += 1
        for callback in self._callbacks:
            try:
                callback(self.frame)
            except Exception:
                log.exception("ring frame callback %r failed", callback)

    def close(self) -> None:
        self.show(dark_frame(self._rings))


class Ws281xStrip:
    """rpi-ws281x (PWM/PCM/SPI through DMA) on a Raspberry Pi 1-4. Needs root for PWM and PCM.

    The library handles the colour order (its strip type) and we hand it full-brightness-255
    pixels already scaled by ``brightness``.
    """

    name = "ws281x"

    def __init__(self, config: RingsConfig) -> None:
        import rpi_ws281x  # only here: the module exists only on ARM Linux, and only works on a Pi

        self._rings = config.all_rings
        self._strip = rpi_ws281x.PixelStrip(
            config.led_count, config.pin, freq_hz=800_000, dma=config.dma, invert=False, brightness=255,
            channel=1 if config.pin in (13, 19) else 0,
            strip_type=getattr(rpi_ws281x.ws, f"WS2811_STRIP_{config.colour_order}"))
        self._strip.begin()

    def show(self, frame: Frame) -> None:
        for index, (r, g, b) in enumerate(strip_order(frame, self._rings)):
            self._strip.setPixelColor(index, (r << 16) | (g << 8) | b)
        self._strip.show()

    def close(self) -> None:
        self.show(dark_frame(self._rings))


_SPI_IOC_WR_MODE = 0x40016B01  # _IOW('k', 1, u8)
_SPI_IOC_WR_BITS_PER_WORD = 0x40016B03  # _IOW('k', 3, u8)
_SPI_IOC_WR_MAX_SPEED_HZ = 0x40046B04  # _IOW('k', 4, u32)
_SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")
SPIDEV_DEFAULT_BUFSIZ = 4096
"""spidev's largest transfer unless ``spidev.bufsiz=`` on the kernel command line raises it."""
RESET_S = 300e-6
"""Low time that latches a frame (WS2812B needs 280 us; older parts 50 us)."""


def _spi_byte(value: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if value >> i & 1 else 0b100)
    return bits.to_bytes(3, "big")


_SPI_TABLE = tuple(_spi_byte(value) for value in range(256))


def spi_encode(data: bytes, hz: int) -> bytes:
    """WS2812 bit stream for ``data`` as SPI bytes at ``hz``, with a latch gap before and after."""
    reset = bytes(math.ceil(RESET_S * hz / 8))
    return reset + b"".join(map(_SPI_TABLE.__getitem__, data)) + reset


class SpiStrip:
    """WS2812 over SPI MOSI (GPIO 10 for /dev/spidev0.0 on every Pi), one write per frame.

    On a Pi 3 or 4 the SPI clock follows the core clock, which the firmware scales with the load:
    fix it (``core_freq=250`` on a Pi 3, ``core_freq=500`` and ``core_freq_min=500`` on a Pi 4,
    in ``/boot/firmware/config.txt``) or the LEDs flicker in wrong colours.

    ``sink``: write there instead of opening ``config.spi_device`` (benchmarks, tests).
    """

    name = "spi"

    def __init__(self, config: RingsConfig, sink: BinaryIO | None = None) -> None:
        self._rings, self._order, self._hz = config.all_rings, config.colour_order, config.spi_hz
        size = len(spi_encode(bytes(3 * config.led_count), self._hz))
        if sink is None:
            limit = int(_SPIDEV_BUFSIZ.read_text()) if _SPIDEV_BUFSIZ.exists() else SPIDEV_DEFAULT_BUFSIZ
            if size > limit:
                raise ValueError(f"{config.led_count} LEDs need {size}-byte SPI transfers, over spidev's "
                                 f"{limit}; raise it with spidev.bufsiz={size} on the kernel command line")
            fd = os.open(config.spi_device, os.O_WRONLY)
            try:
                fcntl.ioctl(fd, _SPI_IOC_WR_MODE, struct.pack("B", 0))
                fcntl.ioctl(fd, _SPI_IOC_WR_BITS_PER_WORD, struct.pack("B", 8))
                fcntl.ioctl(fd, _SPI_IOC_WR_MAX_SPEED_HZ, struct.pack("I", self._hz))
            except OSError:
                os.close(fd)
                raise
            sink = os.fdopen(fd, "wb", buffering=0)
        self._sink = sink

    def show(self, frame: Frame) -> None:
        self._sink.write(spi_encode(wire_bytes(strip_order(frame, self._rings), self._order), self._hz))

    def close(self) -> None:
        self.show(dark_frame(self._rings))
        self._sink.close()


PIO_DRIVER_GAMMA = 1 / 0.45
"""The Pi 5's driver sends each colour byte ``v`` as ``255 * (v / 255) ** PIO_DRIVER_GAMMA``, rounded
down, at its brightness 255 (:data:`PIO_FULL_BRIGHTNESS`): a gamma of its own on top of the rings'."""
PIO_FULL_BRIGHTNESS = b"\xff"
"""One byte written alone at the start of the driver's device sets its brightness (0-255, which it
multiplies each byte by before its gamma; the overlay's ``brightness`` sets it at boot)."""


def _pio_driver_level(value: int) -> int:
    return int(255 * (value / 255) ** PIO_DRIVER_GAMMA)  # positive: int() rounds down


def _pio_inputs() -> bytes:
    """For each level the LEDs should get, the byte the driver turns into the nearest level it can
    send (the lowest such byte; a lit level never becomes dark: level 1 is byte 22)."""
    levels = [_pio_driver_level(value) for value in range(256)]
    return bytes(min(range(256), key=lambda value: abs(levels[value] - level)) for level in range(256))


_PIO_INPUTS = _pio_inputs()


class PioStrip:
    """The Pi 5's kernel WS2812 driver on RP1's PIO (``dtoverlay=ws2812-pio,gpio=...,num_leds=...``).

    Its device (``/dev/leds0``) takes a frame per write, 4 bytes per LED in R, G, B, W order (W
    ignored for RGB LEDs), and sends the colours in GRB order, the WS2812's; for LEDs wanting
    another ``colour_order`` we place the bytes so that the wire carries that order. The driver
    (``drivers/misc/ws2812-pio-rp1.c``) puts the bytes at the file position and refuses those past
    its LEDs (ENOSPC), and it has no seek (``lseek`` fails with ESPIPE): each frame is written to a
    fresh open of the device, at its start, or all but the first would be refused. An open costs
    microseconds; a frame of 112 LEDs takes 3.4 ms on the wire.

    The driver also applies a gamma of its own (``PIO_DRIVER_GAMMA``), which we undo: the rings'
    levels are gamma-corrected already, and twice would turn a dim seat dark and yellow orange. It
    multiplies each byte by its brightness first, so the strip sets that to 255 when it opens
    (whatever the overlay's ``brightness`` says): the undoing is exact, and the staff's brightness
    (``RingsConfig.brightness``) is the one that dims the rings.
    """

    name = "pio"

    def __init__(self, config: RingsConfig) -> None:
        self._rings, self._order = config.all_rings, config.colour_order
        self._device, self._leds, self._boot_config = config.pio_device, config.led_count, config.boot_config
        self._write(PIO_FULL_BRIGHTNESS)

    def show(self, frame: Frame) -> None:
        wire = wire_bytes(strip_order(frame, self._rings), self._order)
        data = bytearray(len(wire) // 3 * 4)
        data[0::4], data[1::4], data[2::4] = wire[1::3], wire[0::3], wire[2::3]  # the driver sends G R B
        try:
            self._write(data.translate(_PIO_INPUTS))
        except OSError as exc:
            if exc.errno != errno.EFBIG:  # the driver shows the LEDs it has, then refuses the rest
                raise
            raise OSError(f"{self._device} drives fewer LEDs than the rings' {self._leds}: set "
                          f"num_leds={self._leds} in the dtoverlay=ws2812-pio line of "
                          f"{self._boot_config} and reboot") from exc

    def _write(self, data: bytes | bytearray) -> None:
        """``data`` at the start of the device, through an open of its own."""
        fd = os.open(self._device, os.O_WRONLY)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def close(self) -> None:
        self.show(dark_frame(self._rings))


class Choice(NamedTuple):
    """The backend to build, and why (for the self-test and the log)."""

    backend: str
    why: str
    refused: bool = False
    """True: the configured backend cannot run here and the simulated one stands in."""


def choose_backend(config: RingsConfig, board: Board, pio_ready: bool | None = None) -> Choice:
    """SPI on every Raspberry Pi unless something else is asked for; the Pi 5's PIO driver when
    its device is there (``pio_ready``: whether ``config.pio_device`` is writable, checked if None);
    rpi-ws281x only when asked for, and only on a Pi 1-4."""
    if config.backend == "auto":
        if board is Board.OTHER:
            return Choice("simulated", "not a Raspberry Pi (no Raspberry Pi model in the device tree)")
        if pio_ready is None:
            pio_ready = os.access(config.pio_device, os.W_OK)
        if board is Board.PI5 and pio_ready:
            return Choice("pio", f"a Raspberry Pi 5 with the kernel PIO LED driver ({config.pio_device}): "
                                 "no root needed")
        return Choice("spi", f"the default on every Raspberry Pi: SPI MOSI (GPIO 10 for {config.spi_device}) "
                             "needs only the spi group, no root; backend = \"ws281x\" asks for PWM (as root)")
    if config.backend == "ws281x" and board is not Board.PI:
        where = "a Raspberry Pi 5" if board is Board.PI5 else "this machine"
        return Choice("simulated", f"rpi-ws281x does not run on {where}; use backend 'spi' (or 'pio' on a Pi 5)",
                      refused=True)
    return Choice(config.backend, "asked for in rings.backend")


class Opened(NamedTuple):
    strip: Strip
    why: str
    """Why this backend (the choice), or why the chosen one could not be used."""
    error: str | None
    """None when the strip is the one chosen; else why it failed (the simulated one stands in)."""


def open_strip(config: RingsConfig, board: Board | None = None) -> Opened:
    """The chosen strip, or the simulated strip and the reason the chosen one failed."""
    choice = choose_backend(config, board if board is not None else classify(board_model()))
    error = choice.why if choice.refused else None
    try:
        if choice.backend == "ws281x":
            return Opened(Ws281xStrip(config), choice.why, None)
        if choice.backend == "spi":
            return Opened(SpiStrip(config), choice.why, None)
        if choice.backend == "pio":
            return Opened(PioStrip(config), choice.why, None)
    except Exception as exc:  # a missing device, no permission, a library error: never fatal
        error = f"{choice.backend}: {type(exc).__name__}: {exc}"
    return Opened(SimulatedStrip(config.all_rings), error or choice.why, error)
