"""What the LED rings draw from their 5 V supply, worked out from the configured rings.

A WS2812B draws up to about 20 mA per colour (60 mA lit full white) and about 1 mA dark. The
budget is for the worst the kiosk can show: every LED white at the highest brightness staff can
set (1.0); the configured brightness gives the usual draw. The supply should carry the worst case
with a quarter to spare; above ``CHAIN_LIMIT_A`` the current is fed to every ring from the supply
(power injection), since a ring's pads and the thin wires of a chain are not made for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .config import RingsConfig
from .rings import GAMMA
from .strips import SPIDEV_DEFAULT_BUFSIZ, spi_encode

LED_FULL_WHITE_A = 0.060
LED_DARK_A = 0.001
MARGIN = 1.25
CHAIN_LIMIT_A = 2.0
"""More than this through a chain of rings: feed 5 V and GND to each ring."""
SUPPLY_SIZES_A = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 40, 60)
"""Common 5 V supply ratings."""


@dataclass(frozen=True)
class PowerBudget:
    leds: int
    worst_a: float
    """Every LED full white at brightness 1."""
    configured_a: float
    """Every LED full white at the configured brightness."""
    dark_a: float
    supply_a: int
    """The 5 V supply to buy for the rings (the Pi keeps its own)."""
    inject: bool
    """Feed 5 V and GND to every ring from the supply, not through the chain."""
    spi_bytes: int
    """Bytes per SPI frame; above spidev's default buffer the kernel command line must raise it
    (:meth:`lines` says how), else the SPI strip refuses to start."""

    def lines(self) -> list[str]:
        """The budget in words (the wiring diagram and the README print these)."""
        supply = f"a 5 V {self.supply_a} A supply for the rings"
        feed = ("feed 5 V and GND from the supply to every ring" if self.inject
                else "5 V and GND may run along the chain with the data")
        words = [f"{self.leds} LEDs: up to {self.worst_a:.2f} A (all white, brightness 100 %)",
                 f"{self.configured_a:.2f} A at the configured brightness, {self.dark_a:.2f} A dark",
                 f"{supply}; {feed}"]
        if self.spi_bytes > SPIDEV_DEFAULT_BUFSIZ:
            words.append(f"{self.spi_bytes}-byte SPI frames: add spidev.bufsiz={self.spi_bytes} "
                         "to /boot/firmware/cmdline.txt")
        return words


def power_budget(config: RingsConfig) -> PowerBudget:
    leds = config.led_count
    worst = leds * LED_FULL_WHITE_A
    supply = next((size for size in SUPPLY_SIZES_A if size >= worst * MARGIN), math.ceil(worst * MARGIN))
    return PowerBudget(leds, round(worst, 2), round(worst * config.brightness ** GAMMA, 2), round(leds * LED_DARK_A, 2),
                       supply, worst > CHAIN_LIMIT_A, len(spi_encode(bytes(3 * leds), config.spi_hz)))
