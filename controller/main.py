"""The Pico's entry point (MicroPython runs main.py at boot): one MFRC522 per seat, lines on USB.

Wiring (controller/README.md): the readers share SPI0 (SCK GP18, MOSI GP19, MISO GP16) and RST
(GP15); each has its own chip select, in seat order, the centre pad last. Remove a pin from
CHIP_SELECTS for a table with fewer readers.
"""

import sys
import time

from machine import SPI, Pin

from mfrc522 import Mfrc522
from tiles_controller import Controller

CHIP_SELECTS = (17, 20, 21, 22, 26)
"""Seat 0, 1, 2, 3, then the centre pad."""

Pin(15, Pin.OUT, value=1)  # RST high: the readers run
spi = SPI(0, baudrate=4000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19), miso=Pin(16))
readers = [Mfrc522(spi, Pin(number, Pin.OUT, value=1)) for number in CHIP_SELECTS]


def write(line):
    sys.stdout.write(line + "\n")


Controller(readers, write).run(time.sleep_ms)
