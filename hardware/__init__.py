"""Device drivers of the kiosk, each behind a small interface with a real and a simulated backend.

The bag button (gpiozero), the RFID tile reader (pyserial: an RDM6300, a PN532 that also writes
tile numbers on NTAG stickers, or a controller with one reader per seat) and the WS281x LED rings
(SPI, the Pi 5's PIO driver, or rpi-ws281x) turn into typed events and accept simple cues. This package knows nothing of
Tantrix rules or of the UI: it only reports what the devices did and shows what it is told to show.

    button = open_button(ButtonConfig())           # GpioButton, or SimulatedButton off a Pi
    reader = open_reader(ReaderConfig(port=...), TagRegistry(SqliteTagStore(db)))
    rings = Rings(RingsConfig())
    inbox = EventQueue(); button.subscribe(inbox); reader.subscribe(inbox); rings.subscribe(inbox)

Modules: ``events`` (event types, EventQueue), ``config`` (frozen configs), ``bootconfig`` (the Pi
5's LED overlay in the boot configuration), ``button``,
``reader`` (with ``protocols``, ``pn532``, ``ntag``, ``tracker``, ``registry``), ``rings`` (with ``strips``),
``selftest``. The serial protocols are specified in ``hardware/PROTOCOL.md``.
"""

from .bootconfig import read_pio_overlays
from .button import GpioButton, SimulatedButton, open_button
from .config import (ButtonConfig, ConfigError, PioOverlay, ReaderConfig, RingsConfig, RingSpec, check_pins,
                     check_pio_leds)
from .events import (ButtonHeld, ButtonPressed, DeviceStatus, Event, EventQueue, ReaderConnected, ReaderLost,
                     StripFailed, StripRecovered, TagNotWritten, TagRead, TagRemoved, TagWritten, UnknownTag)
from .reader import SerialTileReader, SimulatedReader, open_reader
from .registry import Enrolment, MemoryTagStore, RegistryError, SqliteTagStore, TagRegistry
from .rings import Attract, Lamp, Off, Play, Rings, Winner
from .strips import SimulatedStrip

__all__ = [
    "Attract", "ButtonConfig", "ButtonHeld", "ButtonPressed", "ConfigError", "DeviceStatus", "Enrolment", "Event",
    "EventQueue", "GpioButton", "Lamp", "MemoryTagStore", "Off", "PioOverlay", "Play", "ReaderConfig", "ReaderConnected",
    "ReaderLost", "RegistryError", "RingSpec", "Rings", "RingsConfig", "SerialTileReader", "SimulatedButton",
    "SimulatedReader", "SimulatedStrip", "SqliteTagStore", "StripFailed", "StripRecovered", "TagNotWritten", "TagRead", "TagRegistry", "TagRemoved",
    "TagWritten", "UnknownTag",
    "Winner", "check_pins", "check_pio_leds", "open_button", "open_reader", "read_pio_overlays",
]
