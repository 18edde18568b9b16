"""Which board are we on? Decides the ``auto`` backends and guards the ones that only run on a Pi.

rpi-ws281x drives the PWM/DMA hardware of the Pi 1-4 and must never be constructed elsewhere
(off a Pi it crashes; on a Pi 5 it fails); the Pi 5 drives the LEDs through SPI instead.
"""

from __future__ import annotations

import enum
import re
from pathlib import Path

MODEL_PATH = Path("/proc/device-tree/model")


class Board(enum.Enum):
    OTHER = "other"
    PI = "pi"
    """A Raspberry Pi 1-4, Zero, 400 or Compute Module 1-4: rpi-ws281x runs here."""
    PI5 = "pi5"
    """A Raspberry Pi 5, 500 or Compute Module 5 (RP1 chip): no rpi-ws281x, LEDs through SPI."""


def board_model(path: Path = MODEL_PATH) -> str | None:
    """The device-tree model string ("Raspberry Pi 4 Model B Rev 1.4"), or None if there is none."""
    try:
        return path.read_bytes().rstrip(b"\0\n").decode("ascii", "replace") or None
    except OSError:
        return None


def classify(model: str | None) -> Board:
    if model is None or not model.startswith("Raspberry Pi"):
        return Board.OTHER
    if re.match(r"Raspberry Pi (5|500|Compute Module 5)\b", model):
        return Board.PI5
    return Board.PI


def detect_board(path: Path = MODEL_PATH) -> Board:
    return classify(board_model(path))
