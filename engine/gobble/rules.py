"""The one rule both Gobble modes add to the board: where a tile may go, and what filling pays.

rules.md sections 6 and 7 (English booklet, the only one describing Gobble/Gobbles): after the two
opening tiles, a tile must touch **at least two** tiles and match all of them (golden rule). The
three restrictions of the strategy game never apply. Filling a space with three neighbours is a
*gobble*, with four a *double gobble*. A space with five or six neighbours (only in a hole) is not
named by the booklet; it counts as a double gobble, the largest reward the booklet names.

The board (``engine.board``) still decides contact, the golden rule and occupancy; this module only
adds the neighbour count, so solo Gobble and multiplayer Gobbles cannot disagree about it.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Iterable

from ..board import Board, Placement, Rule
from ..actions import Refused


class GobbleRule(StrEnum):
    """Gobble's own rule codes (with :class:`engine.modes.Play`'s and the board's)."""

    TWO_NEIGHBOURS = "two-neighbours"
    """A tile touching fewer than two tiles once the opening pair is down."""
    TAKEN = "taken"
    OUT = "out"
    GIFT_PENDING = "gift-pending"
    NO_GIFT = "no-gift"
    GIFT_RECIPIENT = "gift-recipient"
    GIFT_COUNT = "gift-count"
    NOT_DRAWN = "not-drawn"
    REWARD_PENDING = "reward-pending"
    MUST_PLACE = "must-place"
    NO_REWARD = "no-reward"

_BEFORE_COUNT = {Rule.NO_SUCH_TILE, Rule.TILE_ALREADY_PLACED, Rule.OCCUPIED}


class Gobble(IntEnum):
    """What filling a space earns; the value is how many tiles a Gobbles player gives away."""

    NONE = 0
    GOBBLE = 1  # three neighbours (a forced space)
    DOUBLE = 2  # four or more neighbours


def needed_neighbours(board: Board) -> int:
    """Tiles a new tile must touch: none for the first, one for the second, then two."""
    return min(len(board), 2)


def gobble_of(board: Board, cell: tuple[int, int]) -> Gobble:
    """What filling the empty ``cell`` earns, from its number of neighbours."""
    n = board.neighbour_count(cell)
    return Gobble.NONE if n < 3 else Gobble.GOBBLE if n == 3 else Gobble.DOUBLE


def refusal(board: Board, placement: Placement) -> Refused | None:
    """None when ``placement`` is legal in Gobble(s), else the refusal naming the rule it breaks.

    A bad tile or an occupied space is reported first; then too few neighbours (the rule the
    player most needs to learn); then the board's contact and golden-rule verdicts.
    """
    violation = board.check(placement, restricted=False)
    if violation is not None and violation.rule in _BEFORE_COUNT:
        return violation
    needed = needed_neighbours(board)
    if needed == 2 and board.neighbour_count(placement.cell) < 2:
        return Refused(GobbleRule.TWO_NEIGHBOURS, "in Gobble a tile must touch at least two tiles", (placement.cell,))
    if violation is not None:
        return violation
    return None


def legal_placements(board: Board, tiles: Iterable[int]) -> list[Placement]:
    """Every legal Gobble placement of ``tiles`` (the board's deterministic order)."""
    if needed_neighbours(board) < 2:
        return board.legal_placements(tiles, restricted=False)
    cells = [c for c in board.frontier() if board.neighbour_count(c) >= 2]
    return board.legal_placements(tiles, cells, restricted=False) if cells else []

