"""A deliberately naive Tantrix rules implementation, written straight from rules.md, for tests.

It shares nothing with ``engine.board`` but the tile faces in ``tiles.tsv``: it rescans the whole
position for every question and runs the fill cascade step by step exactly as rules.md words it.
Tests compare the engine's fast, incremental answers with these slow, obvious ones.
"""

from __future__ import annotations

from pathlib import Path

Cell = tuple[int, int]
DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _edges() -> dict[int, str]:
    path = Path(__file__).resolve().parent.parent / "engine" / "data" / "tiles.tsv"
    edges = {}
    for line in path.read_text().splitlines():
        if line and line[0].isdigit():
            number, _, face, _ = line.split("\t")
            edges[int(number)] = face
    return edges


EDGES = _edges()


def shows(tile: int, rot: int, d: int) -> str:
    return EDGES[tile][(d - rot) % 6]


def nbr(c: Cell, d: int) -> Cell:
    return (c[0] + DIRS[d][0], c[1] + DIRS[d][1])


Position = dict[Cell, tuple[int, int]]  # cell -> (tile, rot)


def neighbour_counts(filled: set[Cell]) -> dict[Cell, int]:
    counts: dict[Cell, int] = {}
    for c in filled:
        for d in range(6):
            n = nbr(c, d)
            if n not in filled:
                counts[n] = counts.get(n, 0) + 1
    return counts


def golden_ok(pos: Position, cell: Cell, tile: int, rot: int) -> bool:
    for d in range(6):
        other = pos.get(nbr(cell, d))
        if other is not None and shows(other[0], other[1], (d + 3) % 6) != shows(tile, rot, d):
            return False
    return True


def cascade_fails(filled: set[Cell]) -> bool:
    """The fill cascade of rules.md section 4 (rule 2 is its first step)."""
    filled = set(filled)
    while True:
        counts = neighbour_counts(filled)
        if any(v >= 4 for v in counts.values()):
            return True
        step = [c for c, v in counts.items() if v == 3]
        if not step:
            return False
        marked = set(step)
        if any(nbr(c, d) in marked for c in step for d in range(6)):
            return True
        filled |= marked


def dead_forced_space(pos: Position) -> bool:
    """Restriction 1: some forced space whose neighbours all show one colour."""
    counts = neighbour_counts(set(pos))
    for cell, v in counts.items():
        if v >= 3:
            colours = set()
            for d in range(6):
                other = pos.get(nbr(cell, d))
                if other is not None:
                    colours.add(shows(other[0], other[1], (d + 3) % 6))
            if len(colours) == 1:
                return True
    return False


def legal(pos: Position, tile: int, cell: Cell, rot: int, restricted: bool) -> bool:
    if cell in pos or any(t == tile for t, _ in pos.values()):
        return False
    if not pos:
        return cell == (0, 0)
    if not any(nbr(cell, d) in pos for d in range(6)):
        return False
    if not golden_ok(pos, cell, tile, rot):
        return False
    if restricted:
        after = dict(pos)
        after[cell] = (tile, rot)
        if dead_forced_space(after) or cascade_fails(set(after)):
            return False
    return True


def legal_placements(pos: Position, hand: list[int], restricted: bool) -> set[tuple[int, int, int, int]]:
    cells = {(0, 0)} if not pos else {nbr(c, d) for c in pos for d in range(6)} - set(pos)
    return {
        (t, c[0], c[1], rot)
        for c in cells for t in hand for rot in range(6)
        if legal(pos, t, c, rot, restricted)
    }


def chains(pos: Position, colour: str) -> list[tuple[int, bool]]:
    """(length, is_loop) of every chain of ``colour``: a graph walk over link ends."""
    # node = cell carrying the colour; edge = two cells whose colour links meet
    adj: dict[Cell, list[Cell]] = {}
    for cell, (tile, rot) in pos.items():
        if colour not in EDGES[tile]:
            continue
        adj.setdefault(cell, [])
        for d in range(6):
            if shows(tile, rot, d) != colour:
                continue
            other = pos.get(nbr(cell, d))
            if other is not None and shows(other[0], other[1], (d + 3) % 6) == colour:
                adj[cell].append(nbr(cell, d))
    seen: set[Cell] = set()
    found = []
    for start in adj:
        if start in seen:
            continue
        component, todo = [], [start]
        seen.add(start)
        while todo:
            c = todo.pop()
            component.append(c)
            for n in adj[c]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        degrees_two = all(len(adj[c]) == 2 for c in component)
        found.append((len(component), degrees_two and len(component) > 2))
    return found


def score(pos: Position, colour: str) -> int:
    found = chains(pos, colour)
    line = max((n for n, loop in found if not loop), default=0)
    loop = max((n for n, loop in found if loop), default=0)
    return max(line, 2 * loop)
