"""The 56 Tantrix tiles, loaded from the package's own copy of the maker's tile list.

A tile's face is six edge colours listed clockwise; every colour it carries sits on exactly two
edges, joined by one link. Everything else (links, shapes, what a rotated tile shows) is derived
from that string here, once, so the rest of the engine works with small precomputed tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from importlib.resources import files

COLOURS = "RYGB"
"""The four link colours: red, yellow, green, blue."""

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


class Shape(StrEnum):
    """How far apart the two edges of a link are: adjacent, two apart, or opposite."""

    CORNER = "corner"
    CURVE = "curve"
    STRAIGHT = "straight"


_SHAPE_BY_GAP = {1: Shape.CORNER, 2: Shape.CURVE, 3: Shape.STRAIGHT}


@dataclass(frozen=True, slots=True)
class Link:
    """One coloured band of a tile joining edges ``a`` < ``b`` (edge indices of the unrotated tile)."""

    colour: str
    a: int
    b: int

    @property
    def shape(self) -> Shape:
        gap = self.b - self.a
        return _SHAPE_BY_GAP[min(gap, 6 - gap)]

    def __str__(self) -> str:
        return f"{self.colour}:{self.a}-{self.b}({self.shape})"


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile: its number and back colour, and its face as six edge colours listed clockwise."""

    number: int
    back: str
    edges: str

    @property
    def colours(self) -> str:
        """The three colours on the face, in R Y G B order."""
        return "".join(c for c in COLOURS if c in self.edges)

    @property
    def links(self) -> tuple[Link, ...]:
        """The three links, ordered by their first edge (as in tiles.tsv)."""
        found: list[Link] = []
        for colour in dict.fromkeys(self.edges):
            a = self.edges.index(colour)
            found.append(Link(colour, a, self.edges.index(colour, a + 1)))
        return tuple(found)

    def link(self, colour: str) -> Link | None:
        """The link of ``colour``, or None when the tile does not carry it."""
        return next((link for link in self.links if link.colour == colour), None)

    def shows(self, direction: int, rot: int) -> str:
        """The colour this tile, placed with rotation ``rot``, shows towards ``direction``."""
        return self.edges[(direction - rot) % 6]

    def face(self, rot: int) -> str:
        """The six colours the tile shows towards directions 0..5 when placed with ``rot``."""
        return "".join(self.edges[(d - rot) % 6] for d in range(6))


def _load() -> tuple[Tile, ...]:
    text = files(__package__).joinpath("data/tiles.tsv").read_text(encoding="utf-8")
    tiles: list[Tile] = []
    for line in text.splitlines():
        if not line or line.startswith("#") or line.startswith("number"):
            continue
        number, back, edges, links = line.split("\t")
        tile = Tile(int(number), back, edges)
        if ";".join(map(str, tile.links)) != links:  # the data file must agree with its own face
            raise ValueError(f"tiles.tsv: tile {number}: links {links} do not match edges {edges}")
        tiles.append(tile)
    if [t.number for t in tiles] != list(range(1, 57)):
        raise ValueError("tiles.tsv must list tiles 1..56 in order")
    return tuple(tiles)


TILES: tuple[Tile, ...] = _load()
"""All 56 tiles; ``TILES[n - 1]`` is tile ``n``."""

ALL_NUMBERS: tuple[int, ...] = tuple(range(1, 57))


def tile(number: int) -> Tile:
    """Tile ``number`` (1..56); a KeyError names a number that is not a tile."""
    if not 1 <= number <= 56:
        raise KeyError(f"no tile number {number} (tiles are 1..56)")
    return TILES[number - 1]


# Precomputed tables indexed [number][rot], for the hot paths of the board.
FACES: tuple[tuple[str, ...], ...] = ((),) + tuple(
    tuple(t.face(rot) for rot in range(6)) for t in TILES
)
"""``FACES[n][rot][d]``: colour tile n with rotation rot shows towards direction d."""

OTHER_END: tuple[tuple[tuple[int, ...], ...], ...] = ((),) + tuple(
    tuple(
        tuple(next(e for e in range(6) if e != d and face[e] == face[d]) for d in range(6))
        for face in FACES[t.number]
    )
    for t in TILES
)
"""``OTHER_END[n][rot][d]``: the direction where the link entering at direction d leaves the tile."""
