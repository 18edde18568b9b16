"""A tile's number written on its NTAG21x sticker, so a prepared set plays on every table.

The number is an NDEF message of one Text record (language ``en``, UTF-8) whose text is
``tantrix-tile:<n>`` with ``n`` from 1 to 56, e.g. ``tantrix-tile:17``; any NFC phone app shows
it, and any tag whose text does not match is simply not a written tile (its UID is then looked up
in the registry). The message sits where the NFC Forum Type 2 Tag specification puts it: an NDEF
TLV (``03 <length> <message>``, then the terminator ``FE``) from page 4 of the tag's memory,
announced by the capability container in page 3 (``E1 <version> <size> <access>``).

NDEF records are encoded and decoded by ``ndeflib`` (the ``ndef`` module of the nfcpy project);
this module only knows the Type 2 layout and the text's form.
"""

from __future__ import annotations

import re

import ndef

from .registry import TILES

PAGE_SIZE = 4
CC_PAGE = 3
"""The capability container: E1 (NDEF magic), version, data area size / 8, write access."""
FIRST_DATA_PAGE = 4
NDEF_MAGIC = 0xE1
TEXT_PREFIX = "tantrix-tile:"
_TEXT = re.compile(r"tantrix-tile:([1-9][0-9]?)")
NULL_TLV, NDEF_TLV, TERMINATOR_TLV = 0x00, 0x03, 0xFE
MAX_READ = 96
"""How much of the data area is read looking for the tile (our message needs 28 bytes)."""


class TagFormatError(ValueError):
    """The sticker cannot take a tile number (not NDEF-formatted, write-protected, too small)."""


def tile_text(tile: int) -> str:
    if tile not in TILES:
        raise ValueError(f"tiles are numbered 1 to 56, got {tile!r}")
    return f"{TEXT_PREFIX}{tile}"


def tile_tlv(tile: int) -> bytes:
    """The bytes to write from page 4 on: the NDEF TLV with the tile's Text record, the
    terminator, padded with zeros to whole pages."""
    message = b"".join(ndef.message_encoder([ndef.TextRecord(tile_text(tile), "en")]))
    data = bytes([NDEF_TLV, len(message)]) + message + bytes([TERMINATOR_TLV])
    return data + bytes(-len(data) % PAGE_SIZE)


def check_writable(cc: bytes, size: int) -> None:
    """Refuse a sticker whose capability container (page 3) does not allow ``size`` bytes."""
    if len(cc) < 4 or cc[0] != NDEF_MAGIC:
        raise TagFormatError(f"not an NDEF-formatted NTAG sticker (page 3 is {cc[:4].hex(' ')})")
    if cc[3] & 0x0F:  # the low nibble is the write access: 0 = granted
        raise TagFormatError("the sticker is write-protected")
    if cc[2] * 8 < size:
        raise TagFormatError(f"the sticker holds {cc[2] * 8} bytes, the tile number needs {size}")


def ndef_span(data: bytes) -> tuple[int, int] | None:
    """Where the NDEF message lies in ``data`` (the data area from page 4): (start, end), or
    None when there is none; ``end`` beyond ``data`` means: read more. Lock and memory control
    TLVs before it are skipped."""
    i = 0
    while i < len(data):
        kind = data[i]
        if kind == NULL_TLV:
            i += 1
            continue
        if kind == TERMINATOR_TLV:
            return None
        if i + 3 >= len(data):  # the longest header (03 FF hi lo) may not be all here yet
            return i, len(data) + 1
        length, start = data[i + 1], i + 2
        if length == 0xFF:  # the three-byte length form
            length, start = int.from_bytes(data[i + 2:i + 4], "big"), i + 4
        if kind == NDEF_TLV:
            return start, start + length
        i = start + length
    return None


def tile_of(data: bytes) -> int | None:
    """The tile number written in ``data`` (the data area from page 4), None if there is none."""
    span = ndef_span(data)
    if span is None or span[1] > len(data):
        return None
    return _tile_in_message(data[span[0]:span[1]])


def _tile_in_message(message: bytes) -> int | None:
    try:
        records = list(ndef.message_decoder(message))
    except (ndef.DecodeError, ValueError):  # ndeflib raises ValueError too (a non-ASCII language code)
        return None
    for record in records:
        if isinstance(record, ndef.TextRecord):
            match = _TEXT.fullmatch(record.text)
            if match and int(match[1]) in TILES:
                return int(match[1])
    return None
