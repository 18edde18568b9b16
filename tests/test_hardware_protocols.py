"""Byte-stream decoders (RDM6300 frames, controller lines) and the placement tracker."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.protocols import Gone, Heartbeat, Hello, LineDecoder, Rdm6300Decoder, Seen, rdm6300_frame
from hardware.tracker import Change, TagTracker

UID = "0A1B2C3D4E"


def test_frame_layout_and_checksum():
    frame = rdm6300_frame(UID)
    assert frame[0] == 0x02 and frame[-1] == 0x03 and len(frame) == 14
    assert frame[1:11] == UID.encode() and frame[11:13] == b"%02X" % (0x0A ^ 0x1B ^ 0x2C ^ 0x3D ^ 0x4E)


def test_valid_frames_decode_even_lower_case():
    decoder = Rdm6300Decoder()
    lower = rdm6300_frame(UID).lower()  # STX/ETX are unaffected by lower()
    assert decoder.feed(rdm6300_frame(UID) + lower) == [Seen(0, UID), Seen(0, UID)]
    assert (decoder.frames, decoder.garbled, decoder.junk_bytes) == (2, 0, 0)


def test_bad_checksum_and_bad_shapes_are_counted_not_read():
    good = rdm6300_frame(UID)
    bad_sum = good[:11] + b"00" + good[13:]
    short = b"\x020A1B2C3D\x03"
    non_hex = b"\x020A1B2C3D4Z00\x03"
    too_long = b"\x02" + b"0" * 20 + b"\x03"
    decoder = Rdm6300Decoder()
    assert decoder.feed(bad_sum + short + non_hex + too_long) == []
    assert decoder.garbled == 4 and decoder.frames == 0


def test_junk_between_frames_and_a_frame_cut_short():
    decoder = Rdm6300Decoder()
    stream = b"noise\x03\xff" + rdm6300_frame(UID) + b"\x00\x01" + b"\x020A1B" + rdm6300_frame("1122334455")
    assert decoder.feed(stream) == [Seen(0, UID), Seen(0, "1122334455")]
    assert decoder.junk_bytes == 9 and decoder.garbled == 1


def test_frames_split_at_every_byte():
    decoder = Rdm6300Decoder()
    stream = rdm6300_frame(UID) * 3
    seen = [message for byte in stream for message in decoder.feed(bytes([byte]))]
    assert seen == [Seen(0, UID)] * 3


@settings(max_examples=60, deadline=None)
@given(junk=st.lists(st.binary(max_size=40), min_size=4, max_size=4), cuts=st.lists(st.integers(1, 30), max_size=8))
def test_valid_frames_survive_any_junk_and_any_split(junk, cuts):
    uids = ["0000000001", "ABCDEF0123", "0A1B2C3D4E"]
    stream = junk[0] + b"".join(rdm6300_frame(uid) + part for uid, part in zip(uids, junk[1:]))
    decoder, seen, at = Rdm6300Decoder(), [], 0
    for cut in cuts + [len(stream)]:
        seen += decoder.feed(stream[at:at + cut])
        at += cut
    seen += decoder.feed(stream[at:])
    assert [message.uid for message in seen] == uids


def test_random_bytes_never_become_tags():
    rng = random.Random(5)
    decoder = Rdm6300Decoder()
    assert decoder.feed(rng.randbytes(100_000)) == []
    assert decoder.garbled > 0 and decoder.junk_bytes > 0


def test_controller_lines():
    decoder = LineDecoder()
    stream = b"HELLO 1.2.0 5\r\nHB 7\nTAG 2 04a1b2c3d4e5f6\nGONE 2\n"
    assert decoder.feed(stream) == [Hello("1.2.0", 5), Heartbeat(7), Seen(2, "04A1B2C3D4E5F6"), Gone(2)]
    assert decoder.readers == 5 and decoder.malformed == 0


def test_malformed_lines_are_counted_and_reading_goes_on():
    decoder = LineDecoder()
    bad = [b"FOO", b"TAG 2", b"TAG 2 0A1B2C3", b"TAG 2 XYZXYZXYZ", b"tag 2 0A1B2C3D", b"TAG  2 0A1B2C3D",
           b"HELLO 1.0 0", b"HELLO 1.0 17", b"HB -1", b"GONE x", b"TAG 2 0A1B2C3D\xff", b"X" * 200]
    stream = b"HELLO 1.0 3\n" + b"\n".join(bad) + b"\nTAG 5 0A1B2C3D\nTAG 2 0A1B2C3D\n"
    assert decoder.feed(stream) == [Hello("1.0", 3), Seen(2, "0A1B2C3D")]
    assert decoder.malformed == len(bad) + 1  # + reader 5 of a 3-reader controller


def test_a_line_split_across_reads():
    decoder = LineDecoder()
    assert decoder.feed(b"TAG 1 0A1B") == []
    assert decoder.feed(b"2C3D\r") == []  # a line ends at its \n
    assert decoder.feed(b"\nHB 1\n") == [Seen(1, "0A1B2C3D"), Heartbeat(1)]


def test_a_stray_carriage_return_garbles_its_line_and_never_cuts_it_into_a_tag():
    decoder = LineDecoder()
    stream = b"TAG 0 04A1B2C3\rD4E5F6\nTAG 1 04A1B2C3D4E5F6\r\r\nHB 3\r\n\r\n" + b"HB 1" * 24 + b"\r\n"
    assert decoder.feed(stream) == [Heartbeat(3)]
    assert decoder.malformed == 3
    assert decoder.feed(b"X" * 97 + b"\r") == []
    assert decoder.feed(b"\nTAG 2 " + b"A" * 20 + b"\r\n") == [Seen(2, "A" * 20)]
    assert decoder.malformed == 4


def test_random_bytes_never_become_controller_tags():
    decoder = LineDecoder()
    assert decoder.feed(random.Random(9).randbytes(100_000)) == []
    assert decoder.malformed > 0


# The tracker: confirmation, repeat suppression, removal.

def test_two_identical_reads_confirm_and_repeats_are_suppressed():
    tracker = TagTracker(confirm_reads=2, removal_silence_s=0.5)
    assert tracker.seen(0, UID, 1.0) == []
    assert tracker.seen(0, UID, 1.1) == [Change(True, 0, UID, 1.1)]
    assert [tracker.seen(0, UID, 1.1 + 0.1 * i) for i in range(1, 20)] == [[]] * 19
    assert tracker.present() == {0: UID}


def test_a_ghost_read_is_ignored():
    tracker = TagTracker(confirm_reads=2, removal_silence_s=0.5)
    assert tracker.seen(0, "FFFFFFFF01", 1.0) == []
    assert tracker.seen(0, UID, 1.1) == [] and tracker.seen(0, "FFFFFFFF01", 1.2) == []
    assert tracker.seen(0, "FFFFFFFF01", 2.0) == []  # a second read, but too long after: not confirmed
    assert tracker.present() == {}


def test_removal_after_silence_and_deadline():
    tracker = TagTracker(confirm_reads=2, removal_silence_s=0.5)
    tracker.seen(3, UID, 1.0)
    tracker.seen(3, UID, 1.1)
    assert tracker.deadline() == 1.6
    assert tracker.poll(1.6) == []
    assert tracker.poll(1.61) == [Change(False, 3, UID, 1.61)]
    assert tracker.deadline() is None and tracker.present() == {}
    # Put back: a new placement, reported again.
    tracker.seen(3, UID, 2.0)
    assert tracker.seen(3, UID, 2.1) == [Change(True, 3, UID, 2.1)]


def test_swap_gone_and_forget_all():
    tracker = TagTracker(confirm_reads=1, removal_silence_s=None)
    assert tracker.seen(0, "AAAAAAAA", 1) == [Change(True, 0, "AAAAAAAA", 1)]
    assert tracker.seen(0, "BBBBBBBB", 2) == [Change(False, 0, "AAAAAAAA", 2), Change(True, 0, "BBBBBBBB", 2)]
    assert tracker.poll(100) == [] and tracker.deadline() is None  # no silence rule here
    assert tracker.gone(0, 3) == [Change(False, 0, "BBBBBBBB", 3)] and tracker.gone(0, 4) == []
    tracker.seen(1, "CCCCCCCC", 5)
    tracker.seen(2, "DDDDDDDD", 5)
    assert tracker.forget_all(6) == [Change(False, 1, "CCCCCCCC", 6), Change(False, 2, "DDDDDDDD", 6)]


def test_a_noisy_controller_logs_one_summary_a_minute_not_a_line_each(caplog):
    import logging

    from hardware.protocols import LineDecoder, SUMMARY_SECONDS

    now = [0.0]
    decoder = LineDecoder(clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="hardware.protocols"):
        for second in range(120):  # two minutes of 92 garbage lines a second
            now[0] = float(second)
            decoder.feed(b"garbage!\n" * 92)
    assert decoder.malformed == 120 * 92  # every one counted
    lines = [r.getMessage() for r in caplog.records]
    assert 2 <= len(lines) <= 3  # the first at once, then a summary a minute
    assert "b'garbage!'" in lines[0]
    assert f"in the last {SUMMARY_SECONDS:.0f} s" in lines[1] and "92" not in lines[0]
    assert str(int(SUMMARY_SECONDS) * 92) in lines[1]
