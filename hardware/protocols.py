"""Byte-stream decoders of the two reader protocols (specified in ``hardware/PROTOCOL.md``).

A decoder is fed whatever bytes the port returned (frames may arrive split or glued together)
and returns the messages completed so far. Anything malformed is dropped and counted, never
raised: a garbled frame must neither stop the reader nor become a tile.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from typing import Callable, Union

from .registry import normalise_uid

log = logging.getLogger(__name__)

SUMMARY_SECONDS = 60.0
"""A noisy controller's malformed lines are logged one by one only until this much time has passed
since the last log line about them; then at most one summary a minute (an SD card wears out)."""


class QuietCount:
    """Counts a recurring problem and logs it sparingly: the first occurrence at once, then at most
    one line per :data:`SUMMARY_SECONDS` saying how many came meanwhile and the latest one. A
    controller sending garbage 92 times a second writes one log line a minute, not 92 a second."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self._clock = clock
        self._last_log: float | None = None
        self._unlogged = 0

    def __call__(self, example: object) -> None:
        now = self._clock()
        self._unlogged += 1
        if self._last_log is not None and now - self._last_log < SUMMARY_SECONDS:
            return
        if self._last_log is None or self._unlogged == 1:
            log.warning("%s: %r", self.what, example)
        else:
            log.warning("%s: %d in the last %.0f s, the latest %r", self.what, self._unlogged,
                        now - self._last_log, example)
        self._last_log, self._unlogged = now, 0

STX, ETX = 0x02, 0x03
HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")
MAX_LINE = 96
MAX_READERS = 16


@dataclass(frozen=True)
class Seen:
    """A reader reports the tag ``uid`` in its field now."""

    reader: int
    uid: str


@dataclass(frozen=True)
class Gone:
    """A reader reports its tag went away (``lines`` only)."""

    reader: int


@dataclass(frozen=True)
class Hello:
    """The controller (re)started; it has forgotten every tag and reports them afresh."""

    version: str
    readers: int


@dataclass(frozen=True)
class Heartbeat:
    seq: int


Message = Union[Seen, Gone, Hello, Heartbeat]


class Rdm6300Decoder:
    """RDM6300-style frames: STX, 10 hex digits, 2 hex digits of checksum, ETX.

    The checksum is the XOR of the five bytes the 10 data digits spell. Every STX starts a new
    frame (so junk never hides the next valid frame); bytes outside frames are counted as junk,
    frames that fail any check as garbled.
    """

    FRAME_BODY = 12  # hex digits between STX and ETX

    def __init__(self) -> None:
        self.frames = 0
        self.garbled = 0
        self.junk_bytes = 0
        self._body: bytearray | None = None  # None: waiting for STX

    def reset(self) -> None:
        """Forget a partial frame (the port was reopened)."""
        self._body = None

    def feed(self, data: bytes) -> list[Message]:
        messages: list[Message] = []
        for byte in data:
            if byte == STX:
                if self._body is not None:
                    self.garbled += 1  # a frame cut short by the next one
                self._body = bytearray()
            elif self._body is None:
                self.junk_bytes += 1
            elif byte == ETX:
                seen = self._check(bytes(self._body))
                self._body = None
                if seen is None:
                    self.garbled += 1
                else:
                    self.frames += 1
                    messages.append(seen)
            elif byte in HEX_DIGITS and len(self._body) < self.FRAME_BODY:
                self._body.append(byte)
            else:
                self.garbled += 1
                self._body = None
        return messages

    @classmethod
    def _check(cls, body: bytes) -> Seen | None:
        if len(body) != cls.FRAME_BODY:
            return None
        data = bytes.fromhex(body[:10].decode("ascii"))
        checksum = 0
        for byte in data:
            checksum ^= byte
        if checksum != int(body[10:], 16):
            return None
        return Seen(0, body[:10].decode("ascii").upper())


def rdm6300_frame(uid: str) -> bytes:
    """The frame an RDM6300 sends for the 10-hex-digit ``uid`` (for simulators and tests)."""
    uid = normalise_uid(uid)
    if len(uid) != 10:
        raise ValueError(f"an RDM6300 tag id has 10 hex digits, got {uid!r}")
    checksum = 0
    for byte in bytes.fromhex(uid):
        checksum ^= byte
    return bytes([STX]) + f"{uid}{checksum:02X}".encode("ascii") + bytes([ETX])


_LINE = re.compile(
    rb"(?P<cmd>HELLO) (?P<version>[!-~]{1,32}) (?P<readers>\d{1,2})"
    rb"|(?P<tag>TAG) (?P<reader>\d{1,2}) (?P<uid>[0-9A-Fa-f]{8,20})"
    rb"|(?P<gone>GONE) (?P<gone_reader>\d{1,2})"
    rb"|(?P<hb>HB) (?P<seq>\d{1,10})"
)


class LineDecoder:
    """The aggregating controller's ASCII lines: HELLO, TAG, GONE, HB (see PROTOCOL.md).

    A line that does not match the grammar exactly is counted in ``malformed`` and logged sparingly
    (:class:`QuietCount`).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.lines = 0
        self.malformed = 0
        self.readers = MAX_READERS  # until a HELLO says how many there are
        self._report = QuietCount("tile reader: malformed lines dropped", clock)
        self._line = bytearray()
        self._overflow = False

    def reset(self) -> None:
        self._line.clear()
        self._overflow = False

    def feed(self, data: bytes) -> list[Message]:
        messages: list[Message] = []
        *ended, rest = data.split(b"\n")  # only \n ends a line: a stray \r inside one garbles it whole,
        for piece in ended:                 # it never cuts it into a shorter line that may still parse
            self._take(piece)
            line = bytes(self._line).removesuffix(b"\r")
            if self._overflow or len(line) > MAX_LINE:
                self._bad(b"<line longer than %d bytes>" % MAX_LINE)
            elif line:  # blank lines are ignored
                message = self._parse(line)
                if message is None:
                    self._bad(line)
                else:
                    self.lines += 1
                    messages.append(message)
            self._line.clear()
            self._overflow = False
        self._take(rest)
        return messages

    def _take(self, piece: bytes) -> None:
        """Add ``piece`` to the line so far; past the longest line (and its \r), keep nothing more."""
        if not self._overflow:
            self._line += piece
            if len(self._line) > MAX_LINE + 1:
                self._overflow = True
                self._line.clear()

    def _parse(self, line: bytes) -> Message | None:
        """The message ``line`` spells, or None if it breaks the grammar."""
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        if match["cmd"]:
            readers = int(match["readers"])
            if not 1 <= readers <= MAX_READERS:
                return None
            self.readers = readers
            return Hello(match["version"].decode("ascii"), readers)
        if match["tag"]:
            reader, uid = int(match["reader"]), match["uid"].decode("ascii")
            return Seen(reader, uid.upper()) if reader < self.readers and len(uid) % 2 == 0 else None
        if match["gone"]:
            reader = int(match["gone_reader"])
            return Gone(reader) if reader < self.readers else None
        return Heartbeat(int(match["seq"]))

    def _bad(self, line: bytes) -> None:
        self.malformed += 1
        self._report(line)


Decoder = Union[Rdm6300Decoder, LineDecoder]


def decoder_for(protocol: str) -> Decoder:
    return Rdm6300Decoder() if protocol == "rdm6300" else LineDecoder()
