"""Run the touchscreen UI alone, with in-memory services and simulated devices.

    python -m ui [--size 1280x800] [--rotation 90] [--language fr] [--pin 1234] [--idle 90] [--upright] [--kiosk]

``--size`` takes any size; the supported panels are 800x480, 1024x600, 1280x800, 1920x1080 and
720x1280 (portrait); ``--rotation`` turns the picture and the touches as ``[display] rotation`` does.

The space bar is the bag button (hold it for the staff menu); the panel at the bottom right scans a
tile and shows the LED rings.
"""

from __future__ import annotations

import argparse
import sys

from .services import PIN_DIGITS, valid_pin
from .window import prepare_window


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x800, not {text!r}") from None
    if width < 320 or height < 240:
        raise argparse.ArgumentTypeError(f"size {text} is too small (at least 320x240)")
    if width > 10000 or height > 10000:
        raise argparse.ArgumentTypeError(f"size {text} is too large (at most 10000x10000)")
    return width, height


def idle_seconds(text: str) -> float:
    """An argparse type: seconds before the attract screen, 1 to a day (NaN or an endless wait mean nothing)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 1 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"expected seconds from 1 to 86400, got {text[:40]!r}")
    return value


def staff_pin(text: str) -> str:
    """An argparse type: a PIN the keypad can type (:func:`ui.services.valid_pin`)."""
    if not valid_pin(text):
        raise argparse.ArgumentTypeError(f"expected {PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits, got {text[:40]!r}")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(1280, 800),
                        help="window size: a supported panel (800x480, 1024x600, 1280x800, 1920x1080, 720x1280) or any")
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help="degrees the picture and the touches are turned")
    parser.add_argument("--language", choices=["en", "fr", "nl", "pl"], default="en")
    parser.add_argument("--pin", type=staff_pin, default="1234", help="staff PIN, 4 to 12 digits (default 1234)")
    parser.add_argument("--idle", type=idle_seconds, default=90.0, help="seconds before the attract screen")
    parser.add_argument("--upright", action="store_true", help="all hands at the bottom")
    parser.add_argument("--kiosk", action="store_true", help="refuse to close the window (as on the table)")
    args = parser.parse_args(argv)

    prepare_window(args.size, rotation=args.rotation)
    from .app import KioskApp
    from .memory import MemorySettings, SimulatedDevices, memory_services

    settings = MemorySettings(language=args.language, pin=args.pin, idle_seconds=args.idle,
                              orientation="upright" if args.upright else "flat")
    app: KioskApp | None = None

    def quit_to_system() -> None:
        if app is not None:
            app.stop()

    devices = SimulatedDevices(settings)
    services = memory_services(settings, quit_to_system=quit_to_system, devices=devices)
    app = KioskApp(services, kiosk=args.kiosk)
    devices.listener = app.post
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
