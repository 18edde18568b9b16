"""Tanagra's engine against an independent reference written from the rule sheet.

``tanagra_reference`` is a slow, obvious implementation of the sheet (plane geometry, whole-table
rescans); ``tanagra_differential`` plays random games through the engine's public API and the
reference side by side and compares, at every position, the full set of legal actions, the
engine's refusals of a sample of others, whose turn and which phase it is, the table, the isolated
pieces, the holders and the result. ``bench/tanagra_differential.py`` runs thousands of games.
"""

from __future__ import annotations

import tanagra_differential as differential
import tanagra_reference as ref


def test_games_from_the_empty_table_agree_at_every_position() -> None:
    """2, 3 and 4 players, x from 4 to 6, building then moving with board changes."""
    report = differential.run(range(9))
    assert report.disagreements == []
    assert report.games == 9
    # The games went through every kind of action the comparison is meant to cover.
    for kind in ("place", "step", "step and take", "jump", "leave", "relocate", "remove"):
        assert report.played.get(kind, 0) > 0, kind
    assert report.ends.get("isolated", 0) > 0
    assert report.positions > 1000


def test_games_from_made_up_positions_agree_at_every_position() -> None:
    """Crowded tables reach what built games rarely do: long jumps, jumps that take, every end."""
    report = differential.run(range(60), made_up=True)
    assert report.disagreements == []
    for kind in ("jump", "jump and take", "pass", "remove"):
        assert report.played.get(kind, 0) > 0, kind
    for end in ("left-taken", "size-taken", "isolated", "last-holder", "blocked", "quiet"):
        assert report.ends.get(end, 0) > 0, end


def strip(length: int) -> set[ref.RPiece]:
    """``length`` pieces side by side along a row, alternately pointing one way and the other."""
    h, u = ref.UNIT[0], ref.UNIT[1]
    o = (0, 0, 0)
    pieces = set()
    for m in range(0, length, 2):  # a pair: the piece standing on the base line, then the other
        left, right = ref.add(o, h, m), ref.add(o, h, m + 2)
        pieces.add(frozenset({left, right, ref.add(left, u, 2)}))
        if m + 1 < length:
            pieces.add(frozenset({right, ref.add(left, u, 2), ref.add(right, u, 2)}))
    return pieces


def test_the_reference_reads_the_sheet() -> None:
    """The reference itself, on the sheet's words: a chain of identical pawns is jumped over; a
    mixed one is not; only the left neighbour's pawns are taken."""
    model = ref.Reference(3, 4)
    model.reserve = {k: 0 for k in model.reserve}
    model.phase = "move"
    model.pieces = strip(4)
    assert model.isolated() == set()
    # The row of cells along the strip's base, left to right: each touches the next.
    row = sorted((c for c in model.cells() if all(p[2] in (0, -1) for p in c)), key=lambda c: sum(p[0] - p[1] for p in c))
    assert len(row) == 8 and all(ref.touch(a, b) for a, b in zip(row, row[1:]))
    model.pawns = {row[0]: (0, None), row[1]: (1, None), row[2]: (1, None)}
    # "sautant par-dessus un ou plusieurs pions identiques situés sur des cases contiguës": seat
    # 0 jumps seat 1's two pawns to the cell past them, and may take either (its left).
    targets = model.destinations(row[0])
    assert {row[1], row[2], row[3]} <= targets
    # A pawn of another player breaks the chain: "identiques".
    model.pawns[row[2]] = (2, None)
    targets = model.destinations(row[0])
    assert row[3] not in targets
    # "On ne peut être pris que par les pions du joueur se trouvant sur sa droite": seat 0 does
    # not take seat 2.
    assert row[1] in targets and row[2] not in targets
