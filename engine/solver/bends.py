"""How chains of one colour can turn: the geometric bounds that let the search give up early.

Following a colour through a tile, a chain goes straight on (a straight link), turns by 60 degrees
(a curve) or by 120 degrees (a corner), to the left or to the right: in sixths of a turn a tile
contributes 0, +-1 or +-2. A loop turns by exactly one full turn (+-6) in total, so the tiles still
to come must be able to make up the difference (:func:`can_turn`): this alone shows, for example,
that a loop needs an even number of curves. :func:`reach` goes further for the last few tiles: the
cells and headings a chain of given bends can end at (self-crossing ignored, so it never rejects a
real solution).
"""

from __future__ import annotations

from functools import lru_cache

from ..geometry import DIRECTIONS, Cell, rotate_cell
from ..tiles import tile

REACH_LIMIT = 9
""":func:`reach` is tabulated for up to this many tiles; beyond, nearly everything is reachable."""


def bend(number: int, colour: str) -> int | None:
    """How sharply tile ``number``'s link of ``colour`` turns a chain (2, 1 or 0); None without one."""
    link = tile(number).link(colour)
    if link is None:
        return None
    gap = (link.b - link.a) % 6
    return 3 - min(gap, 6 - gap)


def turn(heading_in: int, heading_out: int) -> int:
    """The signed turn, in sixths (-2..2; positive is clockwise), from one heading to the next."""
    return (heading_out - heading_in + 3) % 6 - 3


def can_turn(total: int, corners: int, curves: int) -> bool:
    """Whether ``corners`` turns of +-2 and ``curves`` turns of +-1 can add up to ``total``."""
    if abs(total) > 2 * corners + curves or (total - curves) % 2:
        return False
    return curves > 0 or (total - 2 * corners) % 4 == 0


def can_close(turned: int, corners: int, curves: int, clockwise: bool | None = None) -> bool:
    """Whether a loop that has turned ``turned`` sixths so far can still total one full turn
    (clockwise +6, anticlockwise -6, or either when ``clockwise`` is None)."""
    targets = (6, -6) if clockwise is None else ((6,) if clockwise else (-6,))
    return any(can_turn(t - turned, corners, curves) for t in targets)


@lru_cache(maxsize=None)
def reach(corners: int, curves: int, straights: int) -> frozenset[tuple[int, int, int]]:
    """Where a chain of exactly these links can lead: ``(dq, dr, heading)`` of the cell after its
    last tile and the heading it is entered with, for a chain whose first tile is on (0, 0) and is
    entered heading east (0). Any order of the links and any side of each turn."""
    if corners == curves == straights == 0:
        return frozenset({(0, 0, 0)})
    found: set[tuple[int, int, int]] = set()
    for left, size in ((corners, 2), (curves, 1), (straights, 0)):
        if not left:
            continue
        rest = reach(corners - (size == 2), curves - (size == 1), straights - (size == 0))
        for h in {size % 6, -size % 6}:
            dq, dr = DIRECTIONS[h]
            for q, r, heading in rest:
                q2, r2 = rotate_cell((q, r), h)
                found.add((dq + q2, dr + r2, (heading + h) % 6))
    return frozenset(found)


def can_reach(cell: Cell, heading: int, target: Cell, target_heading: int, counts: tuple[int, int, int]) -> bool:
    """Whether a chain entering ``cell`` with ``heading`` and using exactly the links ``counts``
    (corners, curves, straights) can end by entering ``target`` with ``target_heading``. Exact up
    to self-crossing for up to :data:`REACH_LIMIT` tiles, always True beyond."""
    if sum(counts) > REACH_LIMIT:
        return True
    q, r = rotate_cell((target[0] - cell[0], target[1] - cell[1]), -heading)
    return (q, r, (target_heading - heading) % 6) in reach(*counts)
