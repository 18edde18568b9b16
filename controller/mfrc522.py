"""An MFRC522 (NXP 13.56 MHz reader, the cheap "RC522" boards) on a shared SPI bus, for MicroPython.

Each reader has its own chip-select pin; they share SCK, MOSI, MISO and RST. The reader is a
``tiles_controller`` reader: ``init()`` resets it and switches its antenna on, ``uid()`` returns
the UID of the ISO 14443A tag in its field (4 or 7 bytes; NTAG21x stickers have 7) or None.
Both raise ``OSError`` when the chip does not answer (unplugged, a loose wire), which the chip's
version register tells: it reads 00 or FF when nobody drives MISO.

Every poll wakes the tag with WUPA (so a tag halted by the previous poll answers again), runs
the anticollision loop with its cascade levels, and halts the tag (HLTA). Register names and
values are the MFRC522 data sheet's (NXP, rev. 3.9, section 9).
"""

try:
    from time import sleep_ms, ticks_diff, ticks_ms  # MicroPython
except ImportError:  # CPython, where the tests drive it through a simulated chip
    from time import sleep

    from tiles_controller import ticks_diff, ticks_ms

    def sleep_ms(ms):
        sleep(ms / 1000)

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, TX_ASK = 0x11, 0x14, 0x15
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37
IDLE, CALC_CRC, TRANSCEIVE, SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
WUPA, HLTA = 0x52, 0x50
CASCADE = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)
"""1.0, 2.0 and the clones' version bytes; 00 and FF mean that no chip answers."""
TIMEOUT_MS = 30


class Mfrc522:
    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)

    def init(self):
        self._write(COMMAND, SOFT_RESET)
        sleep_ms(50)
        self._check()
        self._write(T_MODE, 0x80)  # the timer starts after each transmission...
        self._write(T_PRESCALER, 0xA9)  # ...at 40 kHz...
        self._write(T_RELOAD_H, 0x03)
        self._write(T_RELOAD_L, 0xE8)  # ...and times out after 25 ms without an answer
        self._write(TX_ASK, 0x40)  # 100 % ASK modulation
        self._write(MODE, 0x3D)  # CRC preset 6363h (ISO 14443A)
        self._write(TX_CONTROL, self._read(TX_CONTROL) | 0x03)  # antenna on

    def uid(self):
        self._check()
        self._write(COLL, 0x80)  # bits received after a collision are cleared
        if self._transceive(bytes([WUPA]), 7) is None:  # a short frame: 7 bits
            return None
        uid = b""
        for level in CASCADE:
            answer = self._transceive(bytes([level, 0x20]))  # anticollision: the UID part and its BCC
            if answer is None or len(answer) != 5 or answer[0] ^ answer[1] ^ answer[2] ^ answer[3] != answer[4]:
                return None  # two tags at once, or a tag leaving: no read this time
            sak = self._transceive(self._with_crc(bytes([level, 0x70]) + answer))  # select
            if sak is None or len(sak) != 3:
                return None
            if answer[0] == CASCADE_TAG:
                uid += answer[1:4]
                continue
            uid += answer[0:4]
            self._transceive(self._with_crc(bytes([HLTA, 0x00])))  # no answer expected
            return uid
        return None

    def _check(self):
        version = self._read(VERSION)
        if version not in KNOWN_VERSIONS:
            raise OSError("no MFRC522 answers (version register %02X)" % version)

    def _transceive(self, data, last_bits=0):
        """Send ``data`` (its last byte ``last_bits`` long, 0: whole) and return the answer, or
        None on a timeout or an error."""
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)  # clear every interrupt flag
        self._write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._write(BIT_FRAMING, 0x80 | last_bits)  # StartSend
        start = ticks_ms()
        while True:
            irq = self._read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                break
            if irq & 0x01 or ticks_diff(ticks_ms(), start) > TIMEOUT_MS:  # TimerIRq: no answer
                return None
        self._write(BIT_FRAMING, 0)
        if self._read(ERROR) & 0x1B:  # BufferOvfl, CollErr, ParityErr, ProtocolErr
            return None
        return bytes(self._read(FIFO_DATA) for _ in range(self._read(FIFO_LEVEL)))

    def _with_crc(self, data):
        self._write(COMMAND, IDLE)
        self._write(DIV_IRQ, 0x04)
        self._write(FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(COMMAND, CALC_CRC)
        start = ticks_ms()
        while not self._read(DIV_IRQ) & 0x04:
            if ticks_diff(ticks_ms(), start) > TIMEOUT_MS:
                raise OSError("the MFRC522 did not compute a CRC")
        return data + bytes([self._read(CRC_RESULT_L), self._read(CRC_RESULT_H)])

    def _write(self, register, value):
        self.cs.value(0)
        self.spi.write(bytes([(register << 1) & 0x7E, value]))
        self.cs.value(1)

    def _read(self, register):
        self.cs.value(0)
        self.spi.write(bytes([((register << 1) & 0x7E) | 0x80]))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value
