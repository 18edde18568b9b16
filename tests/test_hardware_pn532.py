"""The PN532 reader: its frames (the data sheet's own), NTAG stickers read and written, through a pty.

A thread plays the PN532 on the pty's master side: it parses the host's frames with its own code
(not the decoder under test), checks their checksums, answers with an ACK and the response, and
holds an NTAG213's memory. Faults are injected into its answers: junk before a frame, a frame in
pieces, a bad checksum.
"""

from __future__ import annotations

import os
import select
import threading
import time

import ndef
import pytest

from hardware.config import PN532_SILENCE_MIN_S, ReaderConfig
from hardware.events import EventQueue, ReaderConnected, ReaderLost, TagNotWritten, TagRead, TagRemoved, TagWritten, \
    UnknownTag
from hardware.ntag import TagFormatError, check_writable, tile_of, tile_tlv
from hardware.pn532 import ACK, NACK, ErrorFrame, Pn532FrameDecoder, Response, information_frame
from hardware.reader import SerialTileReader
from hardware.registry import TagRegistry

# Frames printed in the PN532 User Manual (UM0701-02): the ACK, GetFirmwareVersion (PN532 v1.6)
# and SAMConfiguration, each way, and the application-level error frame.
ACK_BYTES = bytes.fromhex("00 00 FF 00 FF 00")
NACK_BYTES = bytes.fromhex("00 00 FF FF 00 00")
GET_FIRMWARE_VERSION = bytes.fromhex("00 00 FF 02 FE D4 02 2A 00")
FIRMWARE_VERSION = bytes.fromhex("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
SAM_CONFIGURATION = bytes.fromhex("00 00 FF 05 FB D4 14 01 14 01 02 00")
SAM_CONFIGURATION_OK = bytes.fromhex("00 00 FF 02 FE D5 15 16 00")
ERROR_FRAME = bytes.fromhex("00 00 FF 01 FF 7F 81 00")

UID = bytes.fromhex("04 A1 B2 C3 D4 E5 F6")
OTHER_UID = bytes.fromhex("04 11 22 33 44 55 66")


def ntag213(uid: bytes, data: bytes = bytes.fromhex("03 00 FE 00")) -> bytearray:
    """A blank NTAG213 as it ships: 45 pages, the capability container E1 10 12 00 in page 3,
    an empty NDEF TLV from page 4."""
    memory = bytearray(45 * 4)
    memory[0:3], memory[4:8] = uid[:3], uid[3:7]
    memory[12:16] = bytes.fromhex("E1 10 12 00")
    memory[16:16 + len(data)] = data
    return memory


def test_the_data_sheet_frames_are_what_we_send_and_decode():
    assert information_frame(bytes([0x02])) == GET_FIRMWARE_VERSION
    assert information_frame(bytes.fromhex("14 01 14 01")) == SAM_CONFIGURATION
    decoder = Pn532FrameDecoder()
    assert decoder.feed(ACK_BYTES + FIRMWARE_VERSION + SAM_CONFIGURATION_OK + NACK_BYTES + ERROR_FRAME) == [
        ACK, Response(bytes.fromhex("03 32 01 06 07")), Response(bytes.fromhex("15")), NACK, ErrorFrame()]
    assert (decoder.frames, decoder.garbled, decoder.junk_bytes) == (5, 0, 0)


def test_junk_partial_and_bad_checksum_frames():
    decoder = Pn532FrameDecoder()
    stream = ACK_BYTES + FIRMWARE_VERSION
    for cut in range(1, len(stream)):  # every split of the stream into two reads
        assert decoder.feed(stream[:cut]) + decoder.feed(stream[cut:]) == [ACK, Response(bytes.fromhex("03 32 01 06 07"))]
    bad_data = FIRMWARE_VERSION[:-2] + b"\xe9\x00"  # DCS off by one
    bad_length = bytes.fromhex("00 00 FF 06 FB D5 03 32 01 06 07 E8 00")  # LEN + LCS != 0
    decoder = Pn532FrameDecoder()
    frames = decoder.feed(b"\x13\x37junk" + bad_data + b"\x12\x34" + bad_length + FIRMWARE_VERSION[:7])
    frames += decoder.feed(FIRMWARE_VERSION[7:])  # the last frame completes in a second read
    assert frames == [Response(bytes.fromhex("03 32 01 06 07"))]
    assert decoder.garbled == 2 and decoder.frames == 1 and decoder.junk_bytes >= 8
    cut_short = FIRMWARE_VERSION[:8]  # a frame cut off, then a whole one: only the cut one is lost
    assert Pn532FrameDecoder().feed(cut_short + SAM_CONFIGURATION_OK + ACK_BYTES) == [Response(b"\x15"), ACK]


def test_the_tile_format_is_an_ndef_text_record():
    data = tile_tlv(17)
    assert data[0] == 0x03 and data[2 + data[1]] == 0xFE and len(data) % 4 == 0
    records = list(ndef.message_decoder(data[2:2 + data[1]]))  # what any NFC app would read
    assert records == [ndef.TextRecord("tantrix-tile:17", "en")]
    assert tile_of(data) == 17 and tile_of(bytes.fromhex("03 00 FE 00")) is None
    lock_first = bytes.fromhex("01 03 A0 0C 34") + data  # a lock control TLV before the message
    assert tile_of(lock_first) == 17
    other = b"".join(ndef.message_encoder([ndef.TextRecord("tantrix-tile:57", "en")]))
    assert tile_of(bytes([3, len(other)]) + other + b"\xfe") is None  # no such tile
    uri = b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org")]))
    assert tile_of(bytes([3, len(uri)]) + uri + b"\xfe") is None
    assert tile_of(bytes([3, 9, 0xD1, 0x01, 0x40])) is None  # a broken record: not a tile, no crash
    with pytest.raises(TagFormatError, match="not an NDEF-formatted"):
        check_writable(bytes(4), 28)
    with pytest.raises(TagFormatError, match="write-protected"):
        check_writable(bytes.fromhex("E1 10 12 0F"), 28)
    with pytest.raises(TagFormatError, match="holds 16 bytes"):
        check_writable(bytes.fromhex("E1 10 02 00"), 28)


def frame(data: bytes) -> bytes:
    """The test's own PN532-to-host frame (the simulator does not use the code under test)."""
    body = bytes([0xD5]) + data
    return bytes([0, 0, 0xFF, len(body), (-len(body)) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0])


class SimulatedPn532:
    """The PN532 on the other end of a pty, with at most one NTAG213 in its field."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.tag: bytearray | None = None
        self.faults: list[str] = []  # applied to the next responses: "junk", "split", "checksum", "silent"
        self.errors: list[str] = []  # host frames that broke the protocol
        self.commands: list[int] = []
        self.writes: list[int] = []
        self.lock = threading.Lock()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        os.close(self.master)
        os.close(self.slave)

    def _run(self) -> None:
        buffer = bytearray()
        while not self._stop:
            if not select.select([self.master], [], [], 0.02)[0]:
                continue
            buffer += os.read(self.master, 1024)
            while True:
                start = buffer.find(b"\x00\x00\xff")
                if start < 0 or len(buffer) < start + 5:
                    break
                length, lcs = buffer[start + 3], buffer[start + 4]
                end = start + 5 + length + 1
                if len(buffer) < end + 1:
                    break
                body, dcs = bytes(buffer[start + 5:end - 1]), buffer[end - 1]
                del buffer[:end + 1]
                if (length + lcs) & 0xFF or (sum(body) + dcs) & 0xFF or body[0] != 0xD4 or len(body) != length:
                    self.errors.append(body.hex())
                    continue
                self._answer(body[1], body[2:])

    def _answer(self, code: int, params: bytes) -> None:
        with self.lock:
            self.commands.append(code)
            fault = self.faults.pop(0) if self.faults else ""
            if fault == "silent":
                return
            response = self._respond(code, params)
        out = ACK_BYTES + response
        if fault == "junk":
            out = b"\x13\x37\x42" + out
        if fault == "checksum":
            out = out[:-2] + bytes([out[-2] ^ 0x01, 0])
        if fault == "split":
            os.write(self.master, out[:9])
            time.sleep(0.03)
            out = out[9:]
        os.write(self.master, out)

    def _respond(self, code: int, params: bytes) -> bytes:
        if code == 0x02:
            return FIRMWARE_VERSION
        if code == 0x14:
            return SAM_CONFIGURATION_OK
        if code == 0x32:
            return frame(b"\x33")
        if code == 0x4A:
            if self.tag is None:
                return frame(b"\x4b\x00")
            uid = bytes(self.tag[0:3] + self.tag[4:8])
            return frame(b"\x4b\x01\x01\x00\x44\x00" + bytes([len(uid)]) + uid)
        if code == 0x40 and self.tag is not None:
            command, page = params[1], params[2]
            if command == 0x30:
                return frame(b"\x41\x00" + bytes(self.tag[page * 4:page * 4 + 16]))
            if command == 0xA2 and page >= 4:
                self.tag[page * 4:page * 4 + 4] = params[3:7]
                self.writes.append(page)
                return frame(b"\x41\x00")
        if code == 0x40:
            return frame(b"\x41\x01")  # status 01: the target timed out
        return ERROR_FRAME


@pytest.fixture
def pn532():
    device = SimulatedPn532()
    yield device
    device.close()


def start(device: SimulatedPn532, registry: TagRegistry | None = None, **config) -> tuple[SerialTileReader, EventQueue]:
    inbox = EventQueue()
    config = {"removal_silence_s": 0.4, **config}
    reader = SerialTileReader(ReaderConfig(port=device.path, protocol="pn532", **config),
                              registry if registry is not None else TagRegistry(), listener=inbox)
    expect(inbox, ReaderConnected)
    return reader, inbox


def expect(inbox: EventQueue, kind: type, timeout: float = 10.0):
    event = inbox.get(timeout=timeout)
    assert isinstance(event, kind), f"expected {kind.__name__}, got {event!r}"
    return event


def test_a_written_tile_is_read_and_an_unwritten_tag_falls_back_to_the_registry(pn532):
    registry = TagRegistry()
    registry.enrol(OTHER_UID.hex().upper(), 9)
    reader, inbox = start(pn532, registry)
    with reader:
        assert reader.status().details["controller"] == "PN532 v1.6"
        pn532.tag = ntag213(UID, tile_tlv(23))
        read = expect(inbox, TagRead)
        assert (read.reader, read.uid, read.tile) == (0, UID.hex().upper(), 23)  # on any table: no registry
        pn532.tag = None
        assert expect(inbox, TagRemoved).tile == 23
        pn532.tag = ntag213(OTHER_UID)  # nothing written: the registry names it
        assert expect(inbox, TagRead).tile == 9
        pn532.tag = None
        expect(inbox, TagRemoved)
        pn532.tag = ntag213(bytes.fromhex("04 99 99 99 99 99 99"))  # neither
        assert expect(inbox, UnknownTag).uid == "04999999999999"
    assert pn532.errors == []  # every frame we sent was well-formed


def test_faulty_answers_are_dropped_counted_and_survived(pn532):
    reader, inbox = start(pn532)
    with reader:
        with pn532.lock:
            pn532.faults += ["junk", "split", "checksum", "junk", "split"]
        pn532.tag = ntag213(UID, tile_tlv(4))
        assert expect(inbox, TagRead).tile == 4
        details = reader.status().details
        assert details["garbled"] >= 1 and details["junk_bytes"] >= 6 and details["failed_commands"] >= 1
        assert reader.status().found
    assert pn532.errors == []


def test_a_silent_pn532_is_lost_then_found_again(pn532):
    reader, inbox = start(pn532, reconnect_s=0.05)
    with reader:
        with pn532.lock:
            pn532.faults += ["silent"] * 5
        lost = expect(inbox, ReaderLost)
        assert "stopped answering" in lost.error
        expect(inbox, ReaderConnected)  # woken again: SAMConfiguration and the rest answered


class GarbledPn532(SimulatedPn532):
    """A PN532 heard at the wrong speed: each of its answers arrives as garbage (115200 baud read
    at 9600: a few bytes of framing errors per frame)."""

    def _answer(self, code: int, params: bytes) -> None:
        with self.lock:
            self.commands.append(code)
        os.write(self.master, b"\xfe\xf8\x80\xe0\xfc\x00")


def test_a_pn532_heard_at_the_wrong_speed_is_not_called_silent():
    device = GarbledPn532()
    try:
        inbox = EventQueue()
        with SerialTileReader(ReaderConfig(port=device.path, protocol="pn532", baudrate=9600), TagRegistry(),
                              listener=inbox):
            error = expect(inbox, ReaderLost).error
        assert error.startswith(f"{device.path}: ") and "bytes but no valid PN532 frame" in error
        assert error.endswith('(is reader.baudrate = 9600 its speed, and reader.protocol = "pn532" what it speaks?)')
    finally:
        device.close()


def test_a_pn532_unplugged_mid_game_is_lost_as_an_unplug_not_a_bug(caplog):
    device = SimulatedPn532()
    reader, inbox = start(device)
    with reader:
        device.tag = ntag213(UID, tile_tlv(9))
        assert expect(inbox, TagRead).tile == 9
        device.close()  # the USB adapter pulled out: the port hangs up
        lost = expect(inbox, ReaderLost)
        assert expect(inbox, TagRemoved).tile == 9  # it can no longer vouch for the tile
    assert lost.error.startswith(f"{device.path}: ") and "Input/output error" in lost.error
    assert "error: (" not in lost.error  # not the raw termios.error tuple
    assert not [record for record in caplog.records if record.levelname == "ERROR"]  # no traceback of a "bug"


def test_a_sticker_whose_record_ndeflib_refuses_is_not_a_tile_and_reading_goes_on(pn532):
    # our Text record with the language code's first byte damaged: ndeflib raises ValueError,
    # not its DecodeError (a sticker written by some other app can read like this)
    damaged = bytearray(tile_tlv(17))
    damaged[7] = 0xCC
    assert tile_of(bytes(damaged)) is None
    reader, inbox = start(pn532)
    with reader:
        pn532.tag = ntag213(UID, bytes(damaged))
        assert expect(inbox, UnknownTag).uid == UID.hex().upper()
        pn532.tag = None
        expect(inbox, TagRemoved)
        pn532.tag = ntag213(OTHER_UID, tile_tlv(8))  # the reader still reads
        assert expect(inbox, TagRead).tile == 8


class OddPn532(SimulatedPn532):
    """A PN532 whose well-checksummed answers say impossible things: a GetFirmwareVersion too short
    to unpack, a target with a UID of no ISO 14443A length (while ``odd`` is set)."""

    odd = True

    def _respond(self, code: int, params: bytes) -> bytes:
        if self.odd and code == 0x02:
            return frame(b"\x03\x32")
        if self.odd and code == 0x4A and self.tag is not None:
            return frame(b"\x4b\x01\x01\x00\x44\x00\x00")  # NFCIDLength 0
        return super()._respond(code, params)


def test_impossible_answers_with_good_checksums_are_failures_not_a_dead_reader():
    device = OddPn532()
    try:
        inbox = EventQueue()
        with SerialTileReader(ReaderConfig(port=device.path, protocol="pn532", reconnect_s=0.05),
                              TagRegistry(), listener=inbox) as reader:
            assert "short answer" in expect(inbox, ReaderLost).error
            device.tag = ntag213(UID, tile_tlv(21))  # in the field before the reader is up
            device.odd = False  # the firmware answers well from now on...
            expect(inbox, ReaderConnected)
            device.odd = True  # ...and a UID of no length is a failed poll, never a tag
            deadline = time.monotonic() + 30
            while reader.status().details["failed_commands"] == 0:
                assert time.monotonic() < deadline, "the odd target was never polled"
                time.sleep(0.005)
            device.odd = False
            read = expect(inbox, TagRead)
            assert (read.uid, read.tile) == (UID.hex().upper(), 21)
    finally:
        device.close()


class FlickeringPn532(SimulatedPn532):
    """A PN532 that misses the tag lying on it at every other poll (a sticker at the edge of the
    field, or a tag that stays selected after a poll and ignores the next one)."""

    polls_seeing = 0
    _miss = False

    def _respond(self, code: int, params: bytes) -> bytes:
        if code == 0x4A and self.tag is not None:
            self._miss = not self._miss
            if self._miss:
                return frame(b"\x4b\x00")
            self.polls_seeing += 1
        return super()._respond(code, params)


def test_a_tag_missed_by_every_other_poll_stays_placed_at_the_least_silence_allowed():
    device = FlickeringPn532()
    try:
        reader, inbox = start(device, removal_silence_s=PN532_SILENCE_MIN_S, confirm_reads=1)
        with reader:
            device.tag = ntag213(UID, tile_tlv(6))
            assert expect(inbox, TagRead).tile == 6
            deadline = time.monotonic() + 30
            while device.polls_seeing < 20:  # ten polls missed it meanwhile
                assert time.monotonic() < deadline, "the reader stopped polling"
                time.sleep(0.005)
            assert inbox.drain() == []  # never removed and placed again
            device.tag = None
            assert expect(inbox, TagRemoved).tile == 6  # lifted: removed once
    finally:
        device.close()


class OnceBlindPn532(SimulatedPn532):
    """A PN532 that misses the tag lying on it at one poll, when ``blind`` is set."""

    blind = False

    def _respond(self, code: int, params: bytes) -> bytes:
        if code == 0x4A and self.tag is not None and self.blind:
            self.blind = False
            return frame(b"\x4b\x00")
        return super()._respond(code, params)


def test_a_tag_missed_once_after_the_reader_was_held_up_stays_placed():
    """The reading thread held up for longer than the silence (a busy Pi; here its lock, held), then
    one poll missing the tag: the time it could not look is no silence, so the tile lying there all
    along is not removed and placed again."""
    device = OnceBlindPn532()
    try:
        reader, inbox = start(device, removal_silence_s=PN532_SILENCE_MIN_S, confirm_reads=1)
        with reader:
            device.tag = ntag213(UID, tile_tlv(6))
            assert expect(inbox, TagRead).tile == 6
            with reader._lock:
                time.sleep(PN532_SILENCE_MIN_S * 3)  # the thread stands still: the stall itself
                device.blind = True
            polls = device.commands.count(0x4A)
            deadline = time.monotonic() + 30
            while device.blind or device.commands.count(0x4A) < polls + 4:  # missed once, then seen again
                assert time.monotonic() < deadline, "the reader stopped polling"
                time.sleep(0.005)
            assert inbox.drain() == []
            device.tag = None
            assert expect(inbox, TagRemoved).tile == 6  # lifted: removed once
    finally:
        device.close()


def test_writing_tile_numbers_on_blank_stickers(pn532):
    reader, inbox = start(pn532)
    with reader:
        reader.write_tile(12)
        pn532.tag = ntag213(UID)
        assert expect(inbox, TagRead).tile == 12  # the blank sticker arrives, already written...
        written = expect(inbox, TagWritten)
        assert (written.uid, written.tile) == (UID.hex().upper(), 12)  # ...and reported written
        assert tile_of(bytes(pn532.tag[16:])) == 12 and pn532.writes[0] == 5 and pn532.writes[-1] == 4
        assert list(ndef.message_decoder(bytes(pn532.tag[18:18 + pn532.tag[17]]))) == [
            ndef.TextRecord("tantrix-tile:12", "en")]
        reader.write_tile(13)  # the next tile: the sticker still lying there is not overwritten
        asked = pn532.commands.count(0x4A)
        deadline = time.monotonic() + 30
        while pn532.commands.count(0x4A) < asked + 3:  # the reader has looked at the field again and again
            assert time.monotonic() < deadline, "the reader stopped polling"
            time.sleep(0.005)
        assert inbox.drain() == [] and tile_of(bytes(pn532.tag[16:])) == 12
        pn532.tag = None
        assert expect(inbox, TagRemoved).tile == 12
        pn532.tag = ntag213(OTHER_UID, tile_tlv(30))  # a sticker of another tile is refused...
        assert expect(inbox, TagRead).tile == 30
        refused = expect(inbox, TagNotWritten)
        assert refused.tile == 13 and "already tile 30" in refused.error
        pn532.tag = None
        expect(inbox, TagRemoved)
        locked = ntag213(bytes.fromhex("04 01 02 03 04 05 06"))
        locked[15] = 0x0F
        pn532.tag = locked  # ...and so is a write-protected one
        expect(inbox, UnknownTag)
        assert "write-protected" in expect(inbox, TagNotWritten).error
        pn532.tag = None
        expect(inbox, TagRemoved)
        pn532.tag = ntag213(OTHER_UID[::-1])  # the next blank one takes 13
        assert expect(inbox, TagRead).tile == 13
        assert expect(inbox, TagWritten).tile == 13
    assert pn532.errors == []


def test_only_a_pn532_writes():
    from hardware.reader import SimulatedReader

    reader = SerialTileReader(ReaderConfig(port="loop://"), TagRegistry())
    with reader, pytest.raises(ValueError, match="rdm6300 reader cannot write tags"):
        reader.write_tile(3)
    simulated, inbox = SimulatedReader(), EventQueue()
    simulated.subscribe(inbox)
    simulated.write_tile(7)
    simulated.scan("04A1B2C3D4E5F6")
    assert [type(e) for e in inbox.drain()] == [TagRead, TagWritten]
