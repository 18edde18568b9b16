"""A finished game in a few hundred characters: what the QR code at the end of a game holds, and
what the replay page (``replay/index.html``) reads back.

A full record (``engine.strategy.record``) is several kilobytes, far beyond one QR code a phone reads at arm's
length, but to *show* a game a page needs only the seats' colours, the placements in order and the
final scores. Those are packed as bits and written in base64url (RFC 4648, no padding), so the
longest possible game, every one of the 56 tiles placed, stays under 250 characters:

=================  ======  =====================================================
field              bits    meaning
=================  ======  =====================================================
version            4       :data:`VERSION`
players            2       players - 1
doubles            1       partners share a colour
colours            2 each  index in ``RYGB`` of each side's colour (2 in Doubles)
has result         1       then: each side's score (8 bits, two's complement),
                           winner (3 bits: 0 none, else side + 1)
placements         6       how many, then each: seat (2), tile - 1 (6), q + 64
                           (7), r + 64 (7), rotation (3)
=================  ======  =====================================================

The replay page decodes the same table of fields; ``tests`` check the two agree.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Mapping

VERSION = 1
REPLAY_URL = "https://tantrix-table.github.io/replay/"
"""Where the replay page is served unless the table's ``[replay] url`` says otherwise."""
COLOURS = "RYGB"
OFFSET = 64
"""Added to q and r (the board never reaches 64 cells from the first tile: there are 56 tiles)."""


@dataclass(frozen=True, slots=True)
class Compact:
    players: int
    doubles: bool
    colours: tuple[str, ...]
    scores: tuple[int, ...] | None
    winner: int | None  # a side index
    placements: tuple[tuple[int, int, int, int, int], ...]  # (seat, tile, q, r, rot)


class _Bits:
    def __init__(self) -> None:
        self.value, self.length = 0, 0

    def put(self, value: int, bits: int) -> None:
        if not 0 <= value < (1 << bits):
            raise ValueError(f"{value} does not fit in {bits} bits")
        self.value, self.length = (self.value << bits) | value, self.length + bits

    def to_bytes(self) -> bytes:
        pad = -self.length % 8
        return (self.value << pad).to_bytes((self.length + pad) // 8, "big")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.value, self.left = int.from_bytes(data, "big"), len(data) * 8

    def take(self, bits: int) -> int:
        if bits > self.left:
            raise ValueError("the code ends too early")
        self.left -= bits
        return (self.value >> self.left) & ((1 << bits) - 1)


def of_record(record: Mapping[str, Any]) -> Compact:
    """The compact form of a strategy game's record (finished or not)."""
    options = record["options"]
    doubles = bool(options.get("doubles"))
    seats = record["seats"]
    colours = tuple(s["colour"] for s in (seats[:2] if doubles else seats))
    result = record.get("result")
    scores = winner = None
    if result:
        scores = tuple(int(result["scores"].get(c, 0)) for c in colours)
        winner = colours.index(result["winner"]) if result.get("winner") in colours else None
    placements = tuple((e["place"], e["tile"], e["q"], e["r"], e["rot"]) for e in record["events"] if "place" in e)
    return Compact(int(options["players"]), doubles, colours, scores, winner, placements)


def _score_bits(score: int) -> int:
    """A score as 8-bit two's complement: time penalties (engine.clock) can take a score below 0,
    and the replay must show the kiosk's score. A colour is on 42 tiles, so no real score reaches
    128 and every code written before scores could be negative reads the same."""
    return max(-128, min(score, 127)) & 0xFF


def _score_of(bits: int) -> int:
    """The score :func:`_score_bits` wrote."""
    return bits - 256 if bits >= 128 else bits


def encode(game: Compact) -> str:
    bits = _Bits()
    bits.put(VERSION, 4)
    bits.put(game.players - 1, 2)
    bits.put(int(game.doubles), 1)
    for colour in game.colours:
        bits.put(COLOURS.index(colour), 2)
    bits.put(int(game.scores is not None), 1)
    if game.scores is not None:
        for score in game.scores:
            bits.put(_score_bits(score), 8)
        bits.put(0 if game.winner is None else game.winner + 1, 3)
    bits.put(len(game.placements), 6)
    for seat, tile, q, r, rot in game.placements:
        bits.put(seat, 2)
        bits.put(tile - 1, 6)
        bits.put(q + OFFSET, 7)
        bits.put(r + OFFSET, 7)
        bits.put(rot, 3)
    return base64.urlsafe_b64encode(bits.to_bytes()).decode("ascii").rstrip("=")


def decode(code: str) -> Compact:
    """The game a code holds; ValueError for a code that is not one."""
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except ValueError as exc:
        raise ValueError(f"not a game code: {exc}") from None
    reader = _Reader(data)
    if reader.take(4) != VERSION:
        raise ValueError("not a game code of this version")
    players = reader.take(2) + 1
    doubles = bool(reader.take(1))
    colours = tuple(COLOURS[reader.take(2)] for _ in range(2 if doubles else players))
    scores = winner = None
    if reader.take(1):
        scores = tuple(_score_of(reader.take(8)) for _ in colours)
        won = reader.take(3)
        winner = None if won == 0 else won - 1
    placements = tuple((reader.take(2), reader.take(6) + 1, reader.take(7) - OFFSET, reader.take(7) - OFFSET,
                        reader.take(3)) for _ in range(reader.take(6)))
    return Compact(players, doubles, colours, scores, winner, placements)
