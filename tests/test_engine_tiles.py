"""The tile data against every count the rule booklets state."""

from collections import Counter
from itertools import combinations, product

from engine.board import fits
from engine.tiles import COLOURS, TILES, Shape, tile


def test_56_unique_tiles_each_with_three_colours_on_two_edges():
    assert [t.number for t in TILES] == list(range(1, 57))
    faces = set()
    for t in TILES:
        assert len(t.colours) == 3
        assert all(t.edges.count(c) == 2 for c in t.colours)
        # a tile is the same tile in every rotation: compare canonical rotations
        faces.add(min(t.face(rot) for rot in range(6)))
    assert len(faces) == 56


def test_each_colour_on_42_tiles_18_corners_18_curves_6_straights():
    for colour in COLOURS:
        shapes = Counter(t.link(colour).shape for t in TILES if t.link(colour))
        assert sum(shapes.values()) == 42
        assert shapes == {Shape.CORNER: 18, Shape.CURVE: 18, Shape.STRAIGHT: 6}


def test_any_two_colours_cross_on_8_tiles():
    def crosses(a, b):
        inside = lambda e: a.a < e < a.b  # noqa: E731
        return inside(b.a) != inside(b.b)

    counts = Counter()
    for t in TILES:
        for a, b in combinations(t.links, 2):
            if crosses(a, b):
                counts[frozenset((a.colour, b.colour))] += 1
    assert counts == {frozenset(pair): 8 for pair in combinations(COLOURS, 2)}


def test_back_colours():
    assert Counter(t.back for t in TILES) == {"red": 15, "yellow": 12, "blue": 10, "green": 10, "white": 9}


def test_forced_spaces_on_three_consecutive_sides_fit_as_the_booklets_say():
    expected = {"ABC": 5, "ABA": 6, "AAB": 6, "ABB": 6, "AAA": 0}
    for a, b, c in product(COLOURS, repeat=3):
        kind = {3: "ABC", 1: "AAA"}.get(len({a, b, c})) or ("ABA" if a == c else "AAB" if a == b else "ABB")
        for start in range(6):  # the same count whichever three consecutive sides they are
            need = ["."] * 6
            need[start], need[(start + 1) % 6], need[(start + 2) % 6] = a, b, c
            n = sum(1 for t in TILES if fits(t.number, "".join(need)))
            assert n == expected[kind], (a, b, c, start)


def test_rotation_convention_of_rules_md():
    t = tile(17)  # YYGRGR
    assert t.shows(0, 0) == "Y" and t.shows(2, 0) == "G"
    # rotation k puts edge i towards direction (i + k) % 6
    for k in range(6):
        for i in range(6):
            assert t.shows((i + k) % 6, k) == t.edges[i]
    assert [str(link) for link in t.links] == ["Y:0-1(corner)", "G:2-4(curve)", "R:3-5(curve)"]
