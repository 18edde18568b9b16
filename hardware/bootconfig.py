"""The Pi's boot configuration (``config.txt``), read for the Pi 5's kernel LED driver.

A Pi 5 may drive the rings through the kernel's PIO driver, which one line of the boot
configuration sets up: ``dtoverlay=ws2812-pio,gpio=10,num_leds=96`` (the overlay's keys may also
follow on ``dtparam=`` lines, until the next ``dtoverlay=``). Its pin and its number of LEDs are
fixed there at boot, not in our configuration: the checks that the bag button's pin is free and
that the driver takes every LED of the rings (``check_pins``, ``check_pio_leds``) need them.

Read as the firmware reads it, near enough (Raspberry Pi's "config.txt" documentation): ``#``
starts a comment line; a line counts up to its 98th character; numbers may be written in hex
(``0x0a``); ``include other.txt`` reads that file (beside ``config.txt``) in its place; a model
filter (``[pi5]``, ``[cm5]``, ``[pi4]``...) keeps the lines after it for the boards it names,
until the next model filter or ``[all]``, and ``[none]`` drops every line until ``[all]``. The
Raspberry Pi OS image ends its own file with ``[cm5]`` then ``[all]``: a line added after
``[cm5]`` does nothing on a Pi 5, and the checks must not count it. Filters this program cannot
evaluate (a monitor's ``[EDID=...]``, a pin's ``[gpio4=1]``, a serial number) are taken to apply:
a check then names the line, which may not apply, rather than miss one that does.
"""

from __future__ import annotations

import re
from pathlib import Path

from .config import PIO_OVERLAY, ConfigError, PioOverlay

NUMBERS = {"gpio": (0, 27), "num_leds": (1, 65535)}
"""The overlay's numeric keys we use, with their range (gpio: RP1's bank 0, as its README says)."""
_WHOLE = re.compile(r"[1-9][0-9]*|0|0[xX][0-9a-fA-F]+")
"""A whole number as a line may write it: decimal or hex."""
LINE_LIMIT = 98
"""The firmware reads a line up to this many characters and ignores the rest."""
INCLUDE_DEPTH = 16
"""How many files deep includes are followed: a chain of them made by mistake ends, and never
takes the kiosk's start with it."""
MODELS = {"pi5": {"pi5", "cm5", "pi500"}, "cm5": {"cm5"}, "pi500": {"pi500"},
          "pi4": {"pi4", "pi400", "cm4", "cm4s"}, "pi400": {"pi400"}, "cm4": {"cm4"}, "cm4s": {"cm4s"},
          "pi3": {"pi3", "pi3+"}, "pi3+": {"pi3+"}, "pi2": {"pi2"}, "pi1": {"pi1"},
          "pi0": {"pi0", "pi0w", "pi02"}, "pi0w": {"pi0w", "pi02"}, "pi02": {"pi02"}, "cm0": {"cm0"}}
"""Each model filter and the boards that read the lines under it (a Compute Module 5 reads the
``[pi5]`` lines and the ``[cm5]`` ones)."""
BOARDS = (("Compute Module 5", "cm5"), ("Raspberry Pi 500", "pi500"), ("Raspberry Pi 5", "pi5"),
          ("Compute Module 4S", "cm4s"), ("Compute Module 4", "cm4"), ("Raspberry Pi 400", "pi400"),
          ("Raspberry Pi 4", "pi4"), ("Raspberry Pi 3 Model B Plus", "pi3+"),
          ("Raspberry Pi 3 Model A Plus", "pi3+"), ("Raspberry Pi 3", "pi3"), ("Compute Module 3", "pi3"),
          ("Raspberry Pi 2", "pi2"), ("Zero 2 W", "pi02"), ("Zero W", "pi0w"), ("Compute Module 0", "cm0"),
          ("Zero", "pi0"), ("Raspberry Pi Model", "pi1"), ("Raspberry Pi Compute Module Rev", "pi1"))
"""The board a device tree's model names (``hardware.board.board_model``: "Raspberry Pi 5 Model
B Rev 1.0"), the first that matches, as :data:`MODELS` names it."""


def filter_board(model: str | None) -> str | None:
    """The board a device tree's ``model`` names, as :data:`MODELS` does ("pi5"); None off a Pi,
    or for a board this program does not know (every model filter is then taken to hold)."""
    return next((board for words, board in BOARDS if words in model), None) if model else None


def read_pio_overlays(path: str | Path, model: str | None = None) -> tuple[PioOverlay, ...]:
    """Every ``dtoverlay=ws2812-pio`` line the firmware applies on the board whose device tree's
    model is ``model`` (``hardware.board.board_model()``; None: whatever the model filters say),
    in the order it applies them, read from the boot configuration at ``path`` and the files it
    includes; none when the file does not exist. A key we use with a value the overlay cannot
    take raises ``ConfigError`` naming the file, the line and the key."""
    lines: list[tuple[str, int, dict[str, str]]] = []  # each ws2812-pio line: where, and its keys
    _read(Path(path), filter_board(model), lines, _Filters(), set())
    return tuple(_overlay(file, number, instance, params) for instance, (file, number, params) in enumerate(lines))


class _Filters:
    """Where the reading stands: which model filter holds, whether ``[none]`` does, and whether
    ``dtparam=`` lines now set the keys of a ws2812-pio line (they go on across an include)."""

    def __init__(self) -> None:
        self.model: str | None = None
        self.none = False
        self.ours = False

    def section(self, name: str) -> None:
        if name == "all":
            self.model, self.none = None, False
        elif name == "none":
            self.none = True
        elif name in MODELS:
            self.model = name

    def apply(self, board: str | None) -> bool:
        return not self.none and (self.model is None or board is None or board in MODELS[self.model])


def _read(path: Path, board: str | None, lines: list[tuple[str, int, dict[str, str]]], filters: _Filters,
          reading: set[Path]) -> None:
    """Add the ws2812-pio lines of the file at ``path`` that apply to ``lines``, following its
    includes (a file that includes itself, directly or not, is read once; at most
    :data:`INCLUDE_DEPTH` files deep)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, NotADirectoryError):
        return  # as the firmware does: a file that is not there sets nothing
    except OSError as exc:
        raise ConfigError("rings.boot_config", "a boot configuration the kiosk can read",
                          f"{path} ({exc.strerror})") from exc
    reading = reading | {path.resolve()}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw[:LINE_LIMIT].strip()
        if line.startswith("[") and line.endswith("]"):
            filters.section(line[1:-1].strip().lower())
            continue
        if line.startswith("#") or not filters.apply(board):
            continue
        command, _, argument = line.partition(" ")
        if command == "include" and argument.strip():
            included = path.parent / argument.strip()
            if included.resolve() not in reading and len(reading) < INCLUDE_DEPTH:
                _read(included, board, lines, filters, reading)
            continue
        name, equals, value = line.partition("=")
        if not equals:
            continue
        if name.strip() == "dtoverlay":
            overlay, *params = value.split(",")
            filters.ours = overlay.strip() == PIO_OVERLAY
            if filters.ours:
                lines.append((str(path), number, _params(params)))
        elif name.strip() == "dtparam" and filters.ours:
            lines[-1][2].update(_params(value.split(",")))


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
