"""Solution counts against an independent brute force written here: every polyhex shape, every way to
lay the tiles on it, checked by the reference rules. Small Discovery sets only (it is slow)."""

from __future__ import annotations

import pytest

import tantrix_reference as ref
from engine.solver import Goal, Outcome, count
from solver_check import assert_reaches_goal, enclosed_cells


def shapes(n: int) -> set[frozenset]:
    """Every connected set of n cells, up to shifting."""
    found = {frozenset({(0, 0)})}
    for _ in range(n - 1):
        grown = set()
        for shape in found:
            for cell in shape:
                for d in range(6):
                    more = shape | {ref.nbr(cell, d)}
                    if len(more) > len(shape):
                        q0 = min(q for q, _ in more)
                        r0 = min(r for q, r in more if q == q0)
                        grown.add(frozenset((q - q0, r - r0) for q, r in more))
        found = grown
    return found


def turned(cell, k):
    q, r = cell
    for _ in range(k):
        q, r = -r, q + r
    return q, r


def canonical(position: ref.Position) -> tuple:
    forms = []
    for k in range(6):
        items = [(t, turned(c, k), (rot + k) % 6) for c, (t, rot) in position.items()]
        q0 = min(c[0] for _, c, _ in items)
        r0 = min(c[1] for _, c, _ in items if c[0] == q0)
        forms.append(tuple(sorted((t, c[0] - q0, c[1] - r0, rot) for t, c, rot in items)))
    return min(forms)


def brute_force_count(tiles: list[int], colour: str) -> int:
    """Hole-free arrangements with one loop of ``colour`` through all ``tiles``."""
    n = len(tiles)
    solutions = set()
    for shape in shapes(n):
        if enclosed_cells(set(shape)):
            continue  # all tiles are on the loop, so a hole in the shape stays a hole
        cells = sorted(shape)
        position: ref.Position = {}

        def lay(i: int, unused: frozenset) -> None:
            if i == n:
                if ref.chains(position, colour) == [(n, True)]:
                    solutions.add(canonical(position))
                return
            cell = cells[i]
            for t in unused:
                for rot in range(6):
                    # the loop's colour must lead to other cells of the shape on both sides
                    if any(ref.shows(t, rot, d) == colour and ref.nbr(cell, d) not in shape for d in range(6)):
                        continue
                    if ref.golden_ok(position, cell, t, rot):
                        position[cell] = (t, rot)
                        lay(i + 1, unused - {t})
                        del position[cell]

        lay(0, frozenset(tiles))
    return len(solutions)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("colour", ["R", "Y", "B"])
def test_hole_free_counts_match_brute_force(n, colour):
    tiles = list(range(1, n + 1))
    result = count(Goal(tuple(tiles), (colour,), True))
    assert result.outcome is Outcome.COUNTED
    assert result.count == brute_force_count(tiles, colour)
    if result.count:
        assert_reaches_goal(result.solution, tiles, (colour,), True)
        assert not enclosed_cells({(p.q, p.r) for p in result.solution})


def test_seven_tiles_blue():
    # the largest set checked here (about a second of brute force)
    tiles = list(range(1, 8))
    assert count(Goal(tuple(tiles), ("B",), True)).count == brute_force_count(tiles, "B")


def test_counting_with_holes_finds_more():
    # Ten tiles make blue loops round empty cells too; the hole-free count leaves those out.
    goal = Goal(tuple(range(1, 11)), ("B",), True)
    assert count(goal, hole_free=False).count > count(goal).count > 0
