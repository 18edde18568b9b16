"""The controller's scenarios under MicroPython, for ``bench/controller_micropython.py``: the firmware's
own ``Controller`` and ``Mfrc522`` on the simulated chips of the stub ``machine`` (wired as
``main.py`` wires them), a fake clock that wraps as the Pico's ``time.ticks_ms`` does.

Prints ``<scenario>|<step>|<line>`` for every line the controller sends; the bench decodes them
with the kiosk's ``LineDecoder`` on CPython and checks them there. MicroPython code only.
"""

import sys
import time

from machine import CHIPS, SPI, Pin, SimulatedChip
from mfrc522 import Mfrc522
from tiles_controller import MISSES, POLL_MS, RETRY_MS, Controller

CHIP_SELECTS = (17, 20, 21, 22, 26)  # main.py's
NTAG_A = b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"
NTAG_B = b"\x04\x11\x22\x33\x44\x55\x66"
MIFARE_4 = b"\xde\xad\xbe\xef"
TICKS_PERIOD = time.ticks_add(0, -1) + 1


class Bench:
    """Five readers on the bus, the controller started; ``run(ms, step)`` steps it every POLL_MS."""

    def __init__(self, name, start=0, unplugged=()):
        self.name = name
        self.step = "start"
        self.now = start
        CHIPS.clear()
        self.chips = []
        for number, select in enumerate(CHIP_SELECTS):
            chip = SimulatedChip()
            chip.plugged = number not in unplugged
            CHIPS[select] = chip
            self.chips.append(chip)
        Pin(15, Pin.OUT, value=1)
        spi = SPI(0, baudrate=4000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19), miso=Pin(16))
        readers = [Mfrc522(spi, Pin(select, Pin.OUT, value=1)) for select in CHIP_SELECTS]
        self.controller = Controller(readers, self.write, ticks=lambda: self.now)
        self.controller.start()

    def write(self, line):
        print("%s|%s|%s" % (self.name, self.step, line))

    def run(self, ms, step):
        self.step = step
        for _ in range(ms // POLL_MS):
            self.now = time.ticks_add(self.now, POLL_MS)
            self.controller.step()


def quiet():
    Bench("quiet").run(3000, "nothing")


def tag_on_off():
    bench = Bench("tag_on_off")
    bench.chips[2].uid = NTAG_A
    bench.run(1000, "on")
    bench.chips[2].uid = None
    bench.run(POLL_MS * MISSES, "off")
    bench.run(500, "after")


def flaky():
    bench = Bench("flaky")
    bench.chips[0].flaky = True
    bench.chips[0].uid = NTAG_A
    bench.run(2000, "on")


def two_seats():
    bench = Bench("two_seats")
    bench.chips[0].uid, bench.chips[3].uid = NTAG_A, NTAG_B
    bench.run(100, "both")
    bench.chips[3].uid = NTAG_A
    bench.run(POLL_MS, "swapped")
    bench.chips[0].uid = None
    bench.run(300, "lifted")
    bench.chips[4].uid = MIFARE_4
    bench.run(100, "four_bytes")


def unplugged():
    bench = Bench("unplugged")
    bench.chips[1].uid, bench.chips[4].uid = NTAG_A, NTAG_B
    bench.run(100, "both")
    bench.chips[1].plugged = False
    bench.run(500, "pulled")
    bench.chips[1].plugged = True
    bench.run(RETRY_MS + 100, "back")


def missing_at_start():
    bench = Bench("missing_at_start", unplugged=(1,))
    bench.chips[1].uid = NTAG_B
    bench.run(500, "missing")
    bench.chips[1].plugged = True
    bench.run(RETRY_MS, "plugged")


def across_the_wrap():
    """The Pico's ticks wrap every 2**30 ms (12.4 days): a reader that fails in the last second
    before the wrap is retried on time, and tags are repeated across it."""
    bench = Bench("across_the_wrap", start=TICKS_PERIOD - 1500)
    bench.chips[0].uid = NTAG_A
    bench.chips[1].uid = NTAG_B
    bench.run(1000, "before")
    bench.chips[1].plugged = False
    bench.run(POLL_MS, "pulled")
    bench.chips[1].plugged = True
    bench.run(RETRY_MS + 200, "back")


SCENARIOS = (quiet, tag_on_off, flaky, two_seats, unplugged, missing_at_start, across_the_wrap)


def run():
    for scenario in SCENARIOS:
        try:
            scenario()
        except Exception as error:  # reported to the bench, which fails the scenario
            print("%s|#error|%r" % (scenario.__name__, error))
            sys.print_exception(error)
    print("#done")
