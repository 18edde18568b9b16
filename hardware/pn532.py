"""The PN532 NFC reader on a serial port (its HSU mode), and NTAG21x stickers read and written.

Frames, as the PN532 User Manual (NXP UM0701-02, section 6.2) defines them::

    information frame   00 00 FF LEN LCS TFI PD0 .. PDn DCS 00
    ACK                 00 00 FF 00 FF 00
    NACK                00 00 FF FF 00 00
    error frame         00 00 FF 01 FF 7F 81 00       (the command could not be understood)

``LEN`` counts TFI and the data; ``LEN + LCS`` and ``TFI + PD0 + .. + PDn + DCS`` are 0 modulo
256; ``TFI`` is D4 from the host, D5 from the PN532, whose response code is the command's + 1.
The host sends a command, the PN532 answers with an ACK, then with the response.

``Pn532FrameDecoder`` is fed whatever bytes the port returned and yields complete frames; junk
between frames is counted (``junk_bytes``), frames failing a checksum or cut short by the next
start code are dropped and counted (``garbled``), never raised; after a bad checksum the search
for the next start code resumes inside the dropped frame, so a frame cut short by the next one
costs only itself. ``Pn532`` runs the commands the
kiosk needs over a pyserial port: wake-up and SAMConfiguration, InListPassiveTarget (one ISO
14443A tag at 106 kbps, one try, so a poll returns at once when the field is empty) and
InDataExchange with the NTAG READ (30h, 16 bytes) and WRITE (A2h, one 4-byte page) commands.
"""

from __future__ import annotations

import termios
import time
from dataclasses import dataclass
from typing import Union

import serial

from .config import PN532_ACK_TIMEOUT_S
from .ntag import CC_PAGE, FIRST_DATA_PAGE, MAX_READ, PAGE_SIZE, check_writable, ndef_span, tile_of, tile_tlv

HOST_TO_PN532, PN532_TO_HOST = 0xD4, 0xD5
START = b"\x00\xff"
WAKE_UP = b"\x55\x55" + bytes(14)
"""HSU wake-up: the PN532 sleeps until it sees 55 55 and a long preamble (User Manual 7.2.11)."""

GET_FIRMWARE_VERSION, SAM_CONFIGURATION, RF_CONFIGURATION = 0x02, 0x14, 0x32
IN_LIST_PASSIVE_TARGET, IN_DATA_EXCHANGE = 0x4A, 0x40
NTAG_READ, NTAG_WRITE = 0x30, 0xA2
ISO14443A_106 = 0x00
UID_LENGTHS = (4, 7, 10)
"""The lengths of an ISO 14443A UID (single, double, triple size): anything else is not a tag's."""

RESPONSE_TIMEOUT_S = 0.5


class Ack:
    """The PN532 took the command."""


class Nack:
    """The PN532 asks for the last frame again."""


@dataclass(frozen=True)
class ErrorFrame:
    """The PN532 could not understand the command (a syntax error in our frame)."""


@dataclass(frozen=True)
class Response:
    """An information frame from the PN532: ``data`` without TFI (PD0 is the response code)."""

    data: bytes


Frame = Union[Ack, Nack, ErrorFrame, Response]
ACK, NACK = Ack(), Nack()


def information_frame(data: bytes, tfi: int = HOST_TO_PN532) -> bytes:
    """The normal information frame carrying ``data`` (the command code and its parameters)."""
    if not 1 <= len(data) <= 254:
        raise ValueError(f"a normal frame carries 1 to 254 bytes, got {len(data)}")
    length = len(data) + 1
    return (b"\x00\x00\xff" + bytes([length, -length & 0xFF, tfi]) + data
            + bytes([-(tfi + sum(data)) & 0xFF, 0x00]))


class Pn532FrameDecoder:
    """Bytes in, frames out (see the module's docstring); malformed input dropped and counted."""

    def __init__(self) -> None:
        self.frames = 0
        self.garbled = 0
        self.junk_bytes = 0
        self._buffer = bytearray()

    def reset(self) -> None:
        self._buffer.clear()

    def feed(self, data: bytes) -> list[Frame]:
        self._buffer += data
        frames: list[Frame] = []
        while True:
            start = self._buffer.find(START)
            if start < 0:  # keep a trailing 00: it may begin a start code
                keep = 1 if self._buffer.endswith(b"\x00") else 0
                self._count_junk(self._buffer[:len(self._buffer) - keep])
                del self._buffer[:len(self._buffer) - keep]
                return frames
            self._count_junk(self._buffer[:start])
            del self._buffer[:start]
            frame, used = self._frame()
            if used == 0:
                return frames  # incomplete: wait for more bytes
            del self._buffer[:used]
            if frame is None:
                self.garbled += 1
            else:
                self.frames += 1
                frames.append(frame)

    def _count_junk(self, skipped: bytes | bytearray) -> None:
        self.junk_bytes += sum(1 for byte in skipped if byte != 0x00)  # 00s are pre- and postambles

    def _frame(self) -> tuple[Frame | None, int]:
        """The frame at the start of the buffer (which begins 00 FF) and the bytes it used;
        (None, n) for a garbled one (skip n bytes), (None, 0) while incomplete."""
        buffer = self._buffer
        if len(buffer) < 4:
            return None, 0
        length, lcs = buffer[2], buffer[3]
        if (length, lcs) == (0x00, 0xFF):
            return ACK, 4
        if (length, lcs) == (0xFF, 0x00):
            return NACK, 4
        if (length + lcs) & 0xFF or length == 0:
            return None, 2  # not a length after all (or an extended frame, which we never ask for)
        end = 4 + length + 1
        if len(buffer) < end:
            return None, 0
        body = bytes(buffer[4:end - 1])
        if (sum(body) + buffer[end - 1]) & 0xFF:
            return None, 2  # a frame cut short by the next one fails here too: look for that one inside
        if body == b"\x7f":
            return ErrorFrame(), end
        if body[0] != PN532_TO_HOST:
            return None, end
        return Response(body[1:]), end


class Pn532Error(Exception):
    """A command went unanswered, was refused, or the tag did not do what was asked."""


@dataclass(frozen=True)
class Target:
    """A tag in the field: its UID (4, 7 or 10 bytes) and its SAK (00 for NTAG21x)."""

    uid: bytes
    sak: int


class Pn532:
    """The commands the kiosk uses, over an open pyserial port (115200 8N1 in HSU mode, with a
    read timeout of about 0.1 s: the answers' timeouts are counted in those reads).

    Every method raises ``Pn532Error`` when the reader or the tag fails; the port's own
    ``serial.SerialException`` (unplugged) passes through.
    """

    def __init__(self, port: serial.SerialBase, decoder: Pn532FrameDecoder | None = None) -> None:
        self.port = port
        self.decoder = decoder if decoder is not None else Pn532FrameDecoder()
        self._pending: list[Frame] = []

    def begin(self) -> str:
        """Wake the PN532, put it in normal mode, make a poll try once; returns its firmware."""
        self.port.write(WAKE_UP)
        self.command(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, 1 s timeout, use IRQ
        firmware = self.command(GET_FIRMWARE_VERSION)
        if len(firmware) < 4:
            raise Pn532Error(f"GetFirmwareVersion: a short answer {firmware.hex(' ')}")
        ic, version, revision, _support = firmware[:4]
        self.command(RF_CONFIGURATION, b"\x05\xff\x01\x00")  # MaxRetries: ATR, PSL, one passive try
        return f"PN5{ic:02X} v{version}.{revision}"

    def command(self, code: int, params: bytes = b"") -> bytes:
        """Send a command; returns the response's data after its code."""
        try:
            self.port.reset_input_buffer()
        except termios.error as exc:  # a port that hung up (unplugged): pyserial lets tcflush's error through
            raise serial.SerialException(f"the port failed: {exc.args[-1]}") from exc
        self.decoder.reset()
        self._pending.clear()
        self.port.write(information_frame(bytes([code]) + params))
        frame = self._next(PN532_ACK_TIMEOUT_S)
        if isinstance(frame, Nack):  # the PN532 asks again once: send it again
            self.port.write(information_frame(bytes([code]) + params))
            frame = self._next(PN532_ACK_TIMEOUT_S)
        if not isinstance(frame, Ack):
            raise Pn532Error(f"command {code:02X}h: {self._what(frame)} instead of an ACK")
        frame = self._next(RESPONSE_TIMEOUT_S)
        if not isinstance(frame, Response) or frame.data[:1] != bytes([code + 1]):
            raise Pn532Error(f"command {code:02X}h: {self._what(frame)} instead of its response")
        return frame.data[1:]

    def poll(self) -> Target | None:
        """The ISO 14443A tag in the field, if any (one activation try)."""
        data = self.command(IN_LIST_PASSIVE_TARGET, bytes([1, ISO14443A_106]))
        if not data or data[0] == 0:
            return None
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1
        if len(data) < 6 or len(data) < 6 + data[5] or data[5] not in UID_LENGTHS:
            raise Pn532Error(f"InListPassiveTarget: a short or impossible target description {data.hex(' ')}")
        return Target(bytes(data[6:6 + data[5]]), data[4])

    def read(self, page: int) -> bytes:
        """16 bytes (4 pages) of the tag's memory from ``page``."""
        data = self._exchange(bytes([NTAG_READ, page]))
        if len(data) != 16:
            raise Pn532Error(f"READ {page}: {len(data)} bytes instead of 16")
        return data

    def write(self, page: int, data: bytes) -> None:
        """One page (4 bytes) of the tag's memory."""
        if len(data) != PAGE_SIZE:
            raise ValueError("NTAG WRITE takes exactly one 4-byte page")
        self._exchange(bytes([NTAG_WRITE, page]) + data)

    def read_tile(self) -> int | None:
        """The tile number written on the tag in the field (None: none written)."""
        memory = self.read(CC_PAGE)
        if memory[0] != 0xE1:
            return None  # not NDEF-formatted: nothing written
        data = memory[PAGE_SIZE:]
        while True:
            span = ndef_span(data)
            if span is None or span[1] <= len(data) or len(data) >= MAX_READ:
                return tile_of(data)
            data += self.read(FIRST_DATA_PAGE + len(data) // PAGE_SIZE)

    def write_tile(self, tile: int) -> None:
        """Write ``tile`` on the tag in the field and read it back."""
        data = tile_tlv(tile)
        check_writable(self.read(CC_PAGE)[:PAGE_SIZE], len(data))
        # the first page last: until it is written, the old message (or none) stays readable whole
        pages = list(range(0, len(data), PAGE_SIZE))
        for offset in pages[1:] + pages[:1]:
            self.write(FIRST_DATA_PAGE + offset // PAGE_SIZE, data[offset:offset + PAGE_SIZE])
        if self.read_tile() != tile:
            raise Pn532Error(f"tile {tile} did not read back from the sticker")

    def _exchange(self, data_out: bytes) -> bytes:
        data = self.command(IN_DATA_EXCHANGE, b"\x01" + data_out)
        if not data or data[0] & 0x3F:
            status = f"{data[0] & 0x3F:02X}h" if data else "none"
            raise Pn532Error(f"the tag did not answer {data_out[0]:02X}h (status {status}); keep it on the reader")
        return bytes(data[1:])

    def _next(self, timeout: float) -> Frame | None:
        """The next frame within ``timeout`` seconds (None: nothing complete came)."""
        deadline = time.monotonic() + timeout
        while not self._pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            data = self.port.read(self.port.in_waiting or 1)  # waits up to the port's timeout
            if data:
                self._pending += self.decoder.feed(data)
        return self._pending.pop(0)

    @staticmethod
    def _what(frame: Frame | None) -> str:
        if frame is None:
            return "no answer"
        if isinstance(frame, Response):
            return f"an unexpected frame {frame.data[:4].hex(' ')}"
        return {Ack: "an ACK", Nack: "a NACK", ErrorFrame: "an error frame"}[type(frame)]
