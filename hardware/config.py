"""Typed, frozen configuration of the three devices, with documented defaults.

The firmware loads its TOML file into these directly, one table per device::

    ButtonConfig(**toml["button"])
    ReaderConfig(**toml["reader"])
    RingsConfig(**toml["rings"])        # rings = [{leds = 24}, ...], centre = {leds = 16}

Every value is checked on construction; a bad one raises ``ConfigError`` naming the field, the
expected value and the value found (``rings.brightness: expected a number from 0 to 1, got 3``),
so the firmware only has to prefix the file name. Unknown keys are refused by the dataclass
constructor itself (a TypeError naming the key).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

BUTTON_BACKENDS = ("auto", "gpio", "simulated")
READER_PROTOCOLS = ("rdm6300", "pn532", "lines")
PROTOCOL_BAUDRATES = {"rdm6300": 9600, "pn532": 115200, "lines": 115200}
LINES_REPEAT_S = 0.25
"""The longest a reader controller (``lines``) waits before it repeats a tag still in the field."""
LINES_HEARTBEAT_S = 1.0
"""The longest a reader controller waits between two heartbeats."""
PN532_POLL_S = 0.05
"""The reader's pause between two polls of a PN532 (each answered within a few milliseconds)."""
PN532_ACK_TIMEOUT_S = 0.1
"""How long a PN532 command waits for its ACK: a poll left unanswered lasts this long."""
PN532_LOOK_S = round(PN532_POLL_S + PN532_ACK_TIMEOUT_S, 3)  # 0.15, not 0.15000000000000002
"""The longest from one look at a PN532's field to the next: the pause, then a poll left unanswered."""
PN532_SILENCE_MIN_S = 2 * PN532_LOOK_S
"""The shortest ``removal_silence_s`` with a PN532: a tag missed by one poll, even an unanswered
one, is seen again by the next within this, so it is never removed and placed again."""
RINGS_BACKENDS = ("auto", "spi", "pio", "ws281x", "simulated")
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
WS281X_PINS = (10, 12, 13, 18, 19, 21)
"""GPIOs rpi-ws281x can drive: 12/18 (PWM0), 13/19 (PWM1), 21 (PCM), 10 (SPI MOSI)."""
SPI_MOSI = {"/dev/spidev0.": 10, "/dev/spidev1.": 20}
"""The MOSI GPIO of each SPI bus (by its devices' name), the LED data with ``spi``."""
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
"""The Pi's UART on the header: TXD on GPIO 14, RXD on GPIO 15."""
PIO_OVERLAY = "ws2812-pio"
"""The boot configuration's overlay that sets up the Pi 5's kernel WS2812 driver (ws2812-pio-rp1)."""


class ConfigError(ValueError):
    """A configuration value is out of range; the message names the field and what was expected."""

    def __init__(self, field: str, expected: str, got: Any) -> None:
        super().__init__(f"{field}: expected {expected}, got {got!r}")
        self.field = field


def _number(field: str, value: Any, low: float, high: float, integer: bool = False) -> None:
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
        kind = "an integer" if integer else "a number"
        raise ConfigError(field, f"{kind} from {_show(low)} to {_show(high)}", value)


def _show(bound: float) -> str:
    return str(bound) if isinstance(bound, int) else f"{bound:g}"


def _choice(field: str, value: Any, choices: tuple[Any, ...]) -> None:
    if value not in choices:
        raise ConfigError(field, "one of " + ", ".join(map(repr, choices)), value)


def _flag(field: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ConfigError(field, "true or false", value)


def check_brightness(value: Any) -> None:
    """``rings.brightness`` (also what ``Rings.set_brightness`` accepts)."""
    _number("rings.brightness", value, 0.0, 1.0)


@dataclass(frozen=True)
class ButtonConfig:
    """The bag button: a momentary switch between a GPIO and ground (or 3V3 with ``pull_up=False``)."""

    backend: str = "auto"
    """``gpio`` (gpiozero), ``simulated`` (keyboard), ``auto``: gpio on a Raspberry Pi, else simulated."""
    pin: int = 17
    """BCM GPIO number."""
    pull_up: bool = True
    """Use the internal pull-up (button to ground); False: pull-down (button to 3V3)."""
    bounce_s: float = 0.05
    """The pin must stay at a level this long before it counts (our debounce, not gpiozero's)."""
    hold_s: float = 3.0
    """Held this long, the button opens the staff menu instead of drawing a tile."""
    rearm_s: float = 0.5
    """A press starting this soon after the previous press is ignored: a double press draws once."""

    def __post_init__(self) -> None:
        _choice("button.backend", self.backend, BUTTON_BACKENDS)
        _number("button.pin", self.pin, 0, 27, integer=True)
        _flag("button.pull_up", self.pull_up)
        _number("button.bounce_s", self.bounce_s, 0.001, 1.0)
        _number("button.hold_s", self.hold_s, 0.1, 60.0)
        _number("button.rearm_s", self.rearm_s, 0.0, 10.0)
        if self.hold_s <= self.bounce_s:
            raise ConfigError("button.hold_s", f"more than bounce_s ({self.bounce_s})", self.hold_s)


@dataclass(frozen=True)
class ReaderConfig:
    """The RFID tile reader on a serial port (protocols: see ``hardware/PROTOCOL.md``)."""

    port: str | None = None
    """A device path (``/dev/serial/by-id/...``, ``/dev/ttyUSB0``) or any pyserial URL
    (``socket://host:port``, ``loop://``); ``auto``: the per-seat reader controller, found by its
    USB identity (``lines`` only); None: no reader, use the simulated one."""
    protocol: str = "rdm6300"
    """``rdm6300``: 125 kHz reader frames; ``pn532``: a PN532 NFC reader in HSU mode (reads and
    writes tile numbers on NTAG stickers); ``lines``: the multi-reader controller's text lines."""
    baudrate: int = 0
    """0: the protocol's own speed (9600 for rdm6300, 115200 for pn532 and lines)."""
    confirm_reads: int = 2
    """Identical reads needed before a tag counts (ghost-read guard)."""
    removal_silence_s: float = 0.8
    """A tag not reported again for this long has been removed (at least two of the reader's
    repeats or polls: ``LINES_REPEAT_S``, ``PN532_SILENCE_MIN_S``)."""
    reconnect_s: float = 0.5
    """Pause between attempts to (re)open a missing port."""
    heartbeat_s: float = 3.0
    """``lines`` only: a controller silent this long is reported lost (0 disables)."""

    def __post_init__(self) -> None:
        if self.port is not None and (not isinstance(self.port, str) or not self.port.strip()):
            raise ConfigError("reader.port", "a device path or pyserial URL (or no key at all)", self.port)
        _choice("reader.protocol", self.protocol, READER_PROTOCOLS)
        if self.port == "auto" and self.protocol != "lines":
            raise ConfigError("reader.port", 'a device path: "auto" finds only the controller (protocol = "lines")',
                              self.port)
        if isinstance(self.baudrate, bool) or not isinstance(self.baudrate, int) \
                or not (self.baudrate == 0 or 300 <= self.baudrate <= 4_000_000):
            # 0 is named too: "from 300" alone sent an owner who wrote -1 away from the default
            raise ConfigError("reader.baudrate", "0 (the protocol's own speed) or an integer from 300 to 4000000",
                              self.baudrate)
        _number("reader.confirm_reads", self.confirm_reads, 1, 10, integer=True)
        _number("reader.removal_silence_s", self.removal_silence_s, 0.05, 30.0)
        _number("reader.reconnect_s", self.reconnect_s, 0.05, 1.5)
        _number("reader.heartbeat_s", self.heartbeat_s, 0.0, 600.0)
        if self.protocol == "lines":
            self._fits_the_controller()
        if self.protocol == "pn532" and self.removal_silence_s < PN532_SILENCE_MIN_S:
            raise ConfigError("reader.removal_silence_s", f"at least {PN532_SILENCE_MIN_S:g} with protocol "
                              f'"pn532" (the kiosk polls it every {PN532_POLL_S:g} s and waits up to '
                              f"{PN532_ACK_TIMEOUT_S:g} s for an answer: a shorter silence removes a tile lying "
                              "there whenever one poll misses it)", self.removal_silence_s)

    def _fits_the_controller(self) -> None:
        """The controller repeats a tag every 250 ms and sends a heartbeat every second
        (PROTOCOL.md): a shorter silence would remove tiles still lying there, a shorter heartbeat
        would report a working controller lost and found again and again."""
        if self.removal_silence_s < LINES_REPEAT_S * 2:
            raise ConfigError("reader.removal_silence_s", f"at least {LINES_REPEAT_S * 2:g} with protocol "
                              f'"lines" (the controller repeats a tag every {LINES_REPEAT_S:g} s)',
                              self.removal_silence_s)
        if 0 < self.heartbeat_s < LINES_HEARTBEAT_S * 2:
            raise ConfigError("reader.heartbeat_s", f"0 (off) or at least {LINES_HEARTBEAT_S * 2:g} with protocol "
                              f'"lines" (the controller sends a heartbeat every {LINES_HEARTBEAT_S:g} s)',
                              self.heartbeat_s)


    @property
    def speed(self) -> int:
        """The baud rate to open the port at."""
        return self.baudrate or PROTOCOL_BAUDRATES[self.protocol]


@dataclass(frozen=True)
class RingSpec:
    """One LED ring, chained on the strip after the previous one."""

    leds: int = 24
    rotate: int = 0
    """Which of the ring's LEDs (counted along the strip) faces its player; animations start there."""

    def validate(self, field: str) -> None:
        _number(f"{field}.leds", self.leds, 1, 300, integer=True)
        _number(f"{field}.rotate", self.rotate, 0, self.leds - 1, integer=True)


def _ring(field: str, value: Any) -> RingSpec:
    if isinstance(value, Mapping):
        try:
            value = RingSpec(**value)
        except TypeError as exc:
            raise ConfigError(field, "a table with keys leds, rotate", dict(value)) from exc
    if not isinstance(value, RingSpec):
        raise ConfigError(field, "a ring table such as {leds = 24}", value)
    value.validate(field)
    return value


@dataclass(frozen=True)
class RingsConfig:
    """WS281x LED rings: one per seat, in seat order, then optionally a centre ring, on one strip."""

    backend: str = "auto"
    """``spi`` (any Pi, /dev/spidev, no root), ``pio`` (Pi 5 kernel driver, /dev/leds0),
    ``ws281x`` (rpi-ws281x PWM/PCM on a Pi 1-4, as root), ``simulated`` (on screen),
    ``auto``: ``pio`` on a Pi 5 whose ``pio_device`` exists, else ``spi`` on any Pi, else simulated."""
    rings: tuple[RingSpec, ...] = (RingSpec(), RingSpec(), RingSpec(), RingSpec())
    centre: RingSpec | None = None
    brightness: float = 0.4
    """0..1 of the perceived brightness, applied to every colour through the rings' gamma (also
    what the simulated rings show)."""
    colour_order: str = "GRB"
    """The order the LEDs expect the colour bytes on the wire (WS2812: GRB)."""
    fps: int = 30
    """Upper bound of the animation frame rate."""
    pin: int = 18
    """ws281x: the data GPIO."""
    dma: int = 10
    """ws281x: the DMA channel."""
    spi_device: str = "/dev/spidev0.0"
    """spi: the SPI device whose MOSI (GPIO 10 for spidev0.0) drives the strip."""
    pio_device: str = "/dev/leds0"
    """pio: the device of the Pi 5's kernel WS2812 driver (``dtoverlay=ws2812-pio``)."""
    boot_config: str = "/boot/firmware/config.txt"
    """The Pi's boot configuration, read for its ``dtoverlay=ws2812-pio`` lines (their pin and
    number of LEDs are set there, not here); no such file: no overlay."""
    spi_hz: int = 2_400_000
    """spi: the SPI clock; three SPI bits make one WS2812 bit (2.4 MHz: 1.25 us per bit; the
    WS2812 timings hold from 2.0 to 3.0 MHz)."""

    def __post_init__(self) -> None:
        _choice("rings.backend", self.backend, RINGS_BACKENDS)
        if isinstance(self.rings, (str, bytes, Mapping)) or not hasattr(self.rings, "__iter__"):
            raise ConfigError("rings.rings", "a list of ring tables, one per seat", self.rings)
        rings = tuple(_ring(f"rings.rings[{i}]", ring) for i, ring in enumerate(self.rings))
        if not 1 <= len(rings) <= 8:
            raise ConfigError("rings.rings", "1 to 8 seat rings", len(rings))
        object.__setattr__(self, "rings", rings)
        if self.centre is not None:
            object.__setattr__(self, "centre", _ring("rings.centre", self.centre))
        check_brightness(self.brightness)
        _choice("rings.colour_order", self.colour_order, COLOUR_ORDERS)
        _number("rings.fps", self.fps, 1, 120, integer=True)
        _choice("rings.pin", self.pin, WS281X_PINS)
        _number("rings.dma", self.dma, 0, 14, integer=True)
        if not isinstance(self.spi_device, str) or not self.spi_device:
            raise ConfigError("rings.spi_device", "a device path such as /dev/spidev0.0", self.spi_device)
        if not isinstance(self.pio_device, str) or not self.pio_device:
            raise ConfigError("rings.pio_device", "a device path such as /dev/leds0", self.pio_device)
        if not isinstance(self.boot_config, str) or not self.boot_config:
            raise ConfigError("rings.boot_config", "a file path such as /boot/firmware/config.txt", self.boot_config)
        _number("rings.spi_hz", self.spi_hz, 2_000_000, 3_000_000, integer=True)

    @property
    def all_rings(self) -> tuple[RingSpec, ...]:
        """Every ring in strip order: the seats, then the centre ring if any."""
        return self.rings + ((self.centre,) if self.centre is not None else ())

    @property
    def led_count(self) -> int:
        return sum(ring.leds for ring in self.all_rings)


@dataclass(frozen=True)
class PioOverlay:
    """One ``dtoverlay=ws2812-pio`` line of the boot configuration (``hardware.bootconfig`` reads
    them): the kernel driver it sets up at boot, whatever our configuration says."""

    file: str
    line: int
    """Where the line is (counted from 1), to name it in an error."""
    instance: int
    """Which of the file's ws2812-pio lines it is (0 for the first): the ``%d`` of its device."""
    gpio: int = 4
    num_leds: int = 60
    dev_name: str = "leds%d"
    """The overlay's own defaults (its .dts) for the keys a line leaves out."""

    @property
    def device(self) -> str:
        return "/dev/" + self.dev_name.replace("%d", str(self.instance))

    def key(self, key: str) -> str:
        """A key of this line as an error names it."""
        return f"{self.file} line {self.line}: dtoverlay={PIO_OVERLAY} {key}"


def _used_pins(reader: ReaderConfig, rings: RingsConfig, overlays: Sequence[PioOverlay]) -> dict[int, str]:
    """The GPIOs the reader and the rings drive, each with what it is ("carries the LED rings'
    data"). ``auto`` rings are taken to be on SPI; a PIO overlay's pin is the driver's from boot,
    whichever backend the rings use; a reader on a USB port uses no GPIO."""
    pins = {overlay.gpio: f"carries LED data ({overlay.key(f'gpio={overlay.gpio}')})" for overlay in overlays}
    if rings.backend == "ws281x":
        pins[rings.pin] = "carries the LED rings' data (rings.pin)"
    elif rings.backend in ("auto", "spi"):
        mosi = next((pin for prefix, pin in SPI_MOSI.items() if rings.spi_device.startswith(prefix)), None)
        if mosi is not None:
            pins[mosi] = f"carries the LED rings' data (SPI MOSI of {rings.spi_device})"
    if reader.port in UART_PORTS:
        pins[14] = f"is the tile reader's UART (TXD of {reader.port})"
        pins[15] = f"is the tile reader's UART (RXD of {reader.port})"
    return pins


def check_pins(button: ButtonConfig, reader: ReaderConfig, rings: RingsConfig,
               overlays: Sequence[PioOverlay] = ()) -> None:
    """Refuse a button on a GPIO the reader or the rings drive (``overlays``: the boot
    configuration's PIO LED drivers): the pin controller lets gpiozero take the pin from the SPI,
    PWM, PIO or UART block without a word, and the LEDs or the reader would die while the button
    seemed fine. The button is the one refused: the others' pins are fixed by the Pi's hardware or
    its boot configuration."""
    use = _used_pins(reader, rings, overlays).get(button.pin)
    if use is not None:
        raise ConfigError("button.pin", f"a GPIO no other device uses: GPIO {button.pin} {use}", button.pin)


def check_pio_leds(rings: RingsConfig, overlays: Sequence[PioOverlay]) -> None:
    """Refuse rings the Pi 5's driver cannot drive as its overlay set it up: fewer LEDs than the
    rings' (the driver shows the first ones and refuses every frame), or with ``backend = "pio"``
    no overlay making ``rings.pio_device`` (the rings stay dark). Checked when the file has a
    ws2812-pio line: without one the rings are on SPI, or the missing device is reported when
    opened."""
    if not overlays or rings.backend not in ("auto", "pio"):
        return
    ours = next((overlay for overlay in overlays if overlay.device == rings.pio_device), None)
    if ours is None:
        if rings.backend == "pio":
            raise ConfigError("rings.pio_device", f"a device a dtoverlay={PIO_OVERLAY} line of {overlays[0].file} "
                              f"makes ({', '.join(overlay.device for overlay in overlays)})", rings.pio_device)
        return
    if ours.num_leds < rings.led_count:
        raise ConfigError(ours.key("num_leds"), f"at least the rings' {rings.led_count} LEDs ([rings] rings and "
                          f"centre; set num_leds={rings.led_count} there and reboot)", ours.num_leds)

