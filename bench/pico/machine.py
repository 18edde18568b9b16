"""The Pico's ``machine`` module as ``bench/controller_micropython.py`` gives it to the firmware under
MicroPython: ``Pin`` and ``SPI`` with the rp2 port's signatures and pin checks, and on the SPI bus
one simulated MFRC522 chip per chip-select pin (``CHIPS``), with a tag in its field or none.

MicroPython code only (no annotations, no dataclasses). tests/test_controller.py also loads it under
CPython, to read UIDs through the driver and this chip (one chip simulation for both); there nothing
may reach the ``time.ticks_*`` functions CPython lacks: no ``timer`` chips, no ``interrupt_after``.
"""

import time

CHIPS = {}
"""Chip-select GPIO -> SimulatedChip. A chip select with no chip reads FF, as an unwired MISO does."""
_PINS = {}  # GPIO -> the Pin driving it last
_STOP = [None]  # ticks_ms after which the bus raises KeyboardInterrupt (mpremote's Ctrl-C)

SPI0_PINS = {"sck": (2, 6, 18, 22), "mosi": (3, 7, 19, 23), "miso": (0, 4, 16, 20)}
SPI1_PINS = {"sck": (10, 14, 26), "mosi": (11, 15, 27), "miso": (8, 12, 28)}


def interrupt_after(ms):
    """Stop the firmware's endless loop ``ms`` from now, as Ctrl-C from the USB host would."""
    _STOP[0] = time.ticks_add(time.ticks_ms(), ms)


def crc_a(data):
    """ISO 14443-3 CRC_A (preset 6363h, reflected 8408h), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


class SimulatedChip:
    """An MFRC522 behind its SPI registers with an ISO 14443A tag (``uid``) or none in its field:
    FIFO, Transceive, CalcCRC and the interrupt flags as the data sheet has them. ``plugged =
    False`` is a pulled wire (every register reads 00); ``flaky``: every other WUPA goes unanswered.
    ``timer``: a frame with no answer raises TimerIRq only once the chip's timer (TMode, TPrescaler,
    TReload) has run out in real time, as on the bench's Pico; otherwise at once."""

    def __init__(self, uid=None, timer=False):
        self.uid = uid
        self.plugged = True
        self.flaky = False
        self.timer = timer
        self.timeout_at = None
        self.registers = bytearray(64)
        self.fifo = []
        self.halted = False
        self.address = None
        self.wakes = 0

    def deselect(self):
        self.address = None

    def transfer(self, data):
        """One chip-selected SPI write: an address to read next, or an address and a value."""
        register = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            self.address = register
        elif self.plugged:
            self._store(register, data[1])

    def load(self):
        if not self.plugged:
            return 0x00
        register = self.address
        if register == 0x37:
            return 0x92  # version 2.0
        if register == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if register == 0x0A:
            return len(self.fifo)
        if register == 0x04 and self.timeout_at is not None and time.ticks_diff(time.ticks_ms(), self.timeout_at) >= 0:
            self.registers[0x04] |= 0x01
            self.timeout_at = None
        return self.registers[register]

    def _timer_ms(self):
        """The data sheet's (9.3.3.10): (2 TPrescaler + 1)(TReload + 1) / 13.56 MHz."""
        prescaler = (self.registers[0x2A] & 0x0F) << 8 | self.registers[0x2B]
        reload = self.registers[0x2C] << 8 | self.registers[0x2D]
        return (2 * prescaler + 1) * (reload + 1) // 13560

    def _store(self, register, value):
        if register == 0x09:
            self.fifo.append(value)
        elif register == 0x0A and value & 0x80:
            self.fifo = []
        elif register in (0x04, 0x05) and not value & 0x80:
            self.registers[register] &= ~value & 0x7F  # writing 0 in bit 7 clears the flags marked
        elif register == 0x01 and value == 0x03:  # CalcCRC
            self.registers[0x22], self.registers[0x21] = crc_a(bytes(self.fifo))
            self.fifo = []
            self.registers[0x05] |= 0x04
        elif register == 0x0D and value & 0x80 and self.registers[0x01] == 0x0C:  # StartSend of a Transceive
            answer = self._tag(bytes(self.fifo), value & 0x07)
            self.fifo = list(answer or b"")
            self.timeout_at = None
            if answer:
                self.registers[0x04] |= 0x30
            elif self.timer:
                self.timeout_at = time.ticks_add(time.ticks_ms(), self._timer_ms())
            else:
                self.registers[0x04] |= 0x01
        else:
            self.registers[register] = value

    def _tag(self, frame, last_bits):
        """What the tag answers (None: silence)."""
        uid = self.uid
        if uid is None:
            return None
        if last_bits == 7 and frame == b"\x52":  # WUPA wakes it even when halted
            self.wakes += 1
            if self.flaky and self.wakes % 2:
                return None
            self.halted = False
            return b"\x44\x00"
        if self.halted:
            return None
        parts = [b"\x88" + uid[:3], uid[3:7]] if len(uid) == 7 else [uid]
        for level, part in zip((0x93, 0x95), parts):
            bcc = bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])
            if frame == bytes([level, 0x20]):
                return part + bcc
            if frame == bytes([level, 0x70]) + part + bcc + crc_a(frame[:7]):
                sak = 0x04 if part is not parts[-1] else 0x00
                return bytes([sak]) + crc_a(bytes([sak]))
        if frame == b"\x50\x00" + crc_a(b"\x50\x00"):
            self.halted = True
        return None


def _gpio(pin):
    number = pin.id if isinstance(pin, Pin) else pin
    if not isinstance(number, int) or not 0 <= number <= 29:
        raise ValueError("invalid pin")
    return number


class Pin:
    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = _gpio(id)
        self.mode = mode
        self.level = 0 if value is None else int(bool(value))
        _PINS[self.id] = self
        self._changed()

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = int(bool(level))
        self._changed()
        return None

    def _changed(self):
        chip = CHIPS.get(self.id)
        if chip is not None and self.level:
            chip.deselect()


class SPI:
    MSB, LSB = 0, 1

    def __init__(self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None,
                 miso=None):
        if id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % id)
        allowed = SPI0_PINS if id == 0 else SPI1_PINS
        for name, pin in (("sck", sck), ("mosi", mosi), ("miso", miso)):
            if pin is not None and _gpio(pin) not in allowed[name]:
                raise ValueError("bad %s pin" % name.upper())
        if not 0 < baudrate <= 62500000 or polarity not in (0, 1) or phase not in (0, 1) or bits != 8:
            raise ValueError("bad SPI settings")

    def _selected(self):
        if _STOP[0] is not None and time.ticks_diff(time.ticks_ms(), _STOP[0]) >= 0:
            _STOP[0] = None
            raise KeyboardInterrupt
        chosen = None
        for number, chip in CHIPS.items():
            pin = _PINS.get(number)
            if pin is not None and pin.level == 0:
                if chosen is not None:
                    raise AssertionError("two chip selects low at once: %d and another" % number)
                chosen = chip
        return chosen

    def write(self, buf):
        chip = self._selected()
        if chip is not None:
            chip.transfer(bytes(buf))

    def read(self, nbytes, write=0x00):
        chip = self._selected()
        if chip is None:
            return b"\xff" * nbytes
        return bytes([chip.load() for _ in range(nbytes)])
