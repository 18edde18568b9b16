"""Checks of solver answers by the independent reference rules (tests/tantrix_reference.py), shared
by the solver and solo tests. Nothing here uses the engine's board or goal check."""

from __future__ import annotations

from typing import Iterable

import tantrix_reference as ref


def arrangement(placements: Iterable) -> ref.Position:
    position: ref.Position = {}
    for p in placements:
        assert (p.q, p.r) not in position, f"two tiles on {(p.q, p.r)}"
        position[(p.q, p.r)] = (p.tile, p.rot)
    return position


def assert_all_edges_match(placements) -> None:
    position = arrangement(placements)
    for cell, (t, rot) in position.items():
        others = {c: v for c, v in position.items() if c != cell}
        assert ref.golden_ok(others, cell, t, rot), f"golden rule broken at {cell}"


def assert_reaches_goal(placements, tiles, colours, closed, shape=None) -> None:
    """Exactly ``tiles`` are placed (inside ``shape``), every touching edge matches, and each colour
    in ``colours`` forms one chain (a loop if ``closed``) through every tile carrying it, with every
    tile on at least one of them."""
    position = arrangement(placements)
    assert sorted(t for t, _ in position.values()) == sorted(tiles)
    if shape is not None:
        assert set(position) <= set(shape)
    assert_all_edges_match(placements)
    for colour in colours:
        carriers = [t for t in tiles if colour in ref.EDGES[t]]
        assert ref.chains(position, colour) == [(len(carriers), closed)], f"{colour} is not one chain"
    assert all(any(c in ref.EDGES[t] for c in colours) for t in tiles)


def enclosed_cells(cells: set) -> set:
    """Empty cells not connected to the outside (holes), by flood fill from a bounding frame."""
    qs = [c[0] for c in cells]
    rs = [c[1] for c in cells]
    box = [(q, r) for q in range(min(qs) - 1, max(qs) + 2) for r in range(min(rs) - 1, max(rs) + 2)]
    inside = set(box)
    start = box[0]
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for d in range(6):
            n = ref.nbr(c, d)
            if n in inside and n not in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return {c for c in box if c not in cells and c not in seen}
