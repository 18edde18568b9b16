"""The Pi's boot configuration (``config.txt``), read for the Pi 5's kernel LED driver.

A Pi 5 may drive the rings through the kernel's PIO driver, which one line of the boot
configuration sets up: ``dtoverlay=ws2812-pio,gpio=10,num_leds=96`` (the overlay's keys may also
follow on ``dtparam=`` lines, until the next ``dtoverlay=``). Its pin and its number of LEDs are
fixed there at boot, not in our configuration: the checks that the bag button's pin is free and
that the driver takes every LED of the rings (``check_pins``, ``check_pio_leds``) need them.

Read as the firmware reads it, near enough: ``#`` starts a comment line, numbers may be written in
hex (``0x0a``). Conditional sections (``[pi5]``, ``[all]``) and ``include`` are not followed: a
ws2812-pio line anywhere counts (the overlay exists only on a Pi 5).
"""

from __future__ import annotations

import re
from pathlib import Path

from .config import PIO_OVERLAY, ConfigError, PioOverlay

NUMBERS = {"gpio": (0, 27), "num_leds": (1, 65535)}
"""The overlay's numeric keys we use, with their range (gpio: RP1's bank 0, as its README says)."""
_WHOLE = re.compile(r"[1-9][0-9]*|0|0[xX][0-9a-fA-F]+")
"""A whole number as a line may write it: decimal or hex."""


def read_pio_overlays(path: str | Path) -> tuple[PioOverlay, ...]:
    """Every ``dtoverlay=ws2812-pio`` line of the boot configuration at ``path``, in file order;
    none when the file does not exist. A key we use with a value the overlay cannot take raises
    ``ConfigError`` naming the file, the line and the key."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, NotADirectoryError):
        return ()
    except OSError as exc:
        raise ConfigError("rings.boot_config", "a boot configuration the kiosk can read",
                          f"{path} ({exc.strerror})") from exc
    lines: list[tuple[int, dict[str, str]]] = []  # each ws2812-pio line: where, and its keys
    ours = False  # do dtparam= lines now set the keys of a ws2812-pio line?
    for number, raw in enumerate(text.splitlines(), start=1):
        name, equals, value = raw.strip().partition("=")
        if name.startswith("#") or not equals:
            continue
        if name.strip() == "dtoverlay":
            overlay, *params = value.split(",")
            ours = overlay.strip() == PIO_OVERLAY
            if ours:
                lines.append((number, _params(params)))
        elif name.strip() == "dtparam" and ours:
            lines[-1][1].update(_params(value.split(",")))
    return tuple(_overlay(str(path), number, instance, params) for instance, (number, params) in enumerate(lines))


def _params(items: list[str]) -> dict[str, str]:
    return {key.strip(): value.strip() for key, _, value in (item.partition("=") for item in items) if key.strip()}


def _overlay(file: str, line: int, instance: int, params: dict[str, str]) -> PioOverlay:
    values: dict[str, int] = {}
    where = PioOverlay(file, line, instance)
    for key, (low, high) in NUMBERS.items():
        if key not in params:
            continue
        number = int(params[key], 0) if _WHOLE.fullmatch(params[key]) else None
        if number is None or not low <= number <= high:
            raise ConfigError(where.key(key), f"a whole number from {low} to {high}", params[key])
        values[key] = number
    dev_name = params.get("dev_name") or where.dev_name
    return PioOverlay(file, line, instance, dev_name=dev_name, **values)
