"""Arrangements up to moving the whole thing: rotating it about a cell and sliding it.

Two solutions are the same when one is the other turned and shifted (tiles are not mirrored: half
of them are chiral). :func:`canonical` picks one representative, so solutions can be counted as a
set; :func:`moved` applies a motion, e.g. to lay a found solution over the player's tiles.
"""

from __future__ import annotations

from typing import Iterable

from ..board import Placement
from ..geometry import rotate_cell

Form = tuple[tuple[int, int, int, int], ...]
"""A canonical arrangement: sorted (tile, q, r, rot) with its smallest cell at (0, 0)."""


def moved(placements: Iterable[Placement], turns: int, dq: int = 0, dr: int = 0) -> list[Placement]:
    """``placements`` turned ``turns`` sixths clockwise about (0, 0), then shifted by (dq, dr)."""
    out = []
    for t, q, r, rot in placements:
        q2, r2 = rotate_cell((q, r), turns)
        out.append(Placement(t, q2 + dq, r2 + dr, (rot + turns) % 6))
    return out


def canonical(placements: Iterable[Placement]) -> Form:
    """The same form for every turned and shifted copy of an arrangement."""
    placements = list(placements)
    best: Form | None = None
    for turns in range(6):
        turned = moved(placements, turns)
        q0, r0 = min((p.q, p.r) for p in turned)
        form = tuple(sorted((p.tile, p.q - q0, p.r - r0, p.rot) for p in turned))
        if best is None or form < best:
            best = form
    assert best is not None
    return best
