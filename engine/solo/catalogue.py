"""The puzzles of the four booklets, by name: their tiles, what they ask and which colours they allow.

The booklets teach Tantrix in four steps; these are the puzzles of the first two (Discovery, Rainbow)
and the booklet puzzles that follow the game (Junior to Genius). Names are stable: the solve command,
saved games and the UI use them. Where a puzzle lets the player choose the colour ("only one colour
works, but which?"), ``colours`` is None and ``choices`` lists what may be chosen; the solver says
which choices work.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..geometry import Cell, pyramid
from ..tiles import COLOURS, COLOUR_NAMES, TILES, tile
from ..solver.goal import Goal

DISCOVERY_SIZES = range(3, 31)
"""Discovery runs from tiles 1..3 to tiles 1..30 (with tile 31 no loop exists in any colour)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A named puzzle: ``tiles`` to use, ``closed`` loops or open lines, an optional fixed
    ``shape``, the goal ``colours`` (None: the player chooses) and the allowed ``choices``."""

    name: str
    title: str
    tiles: tuple[int, ...]
    closed: bool
    colours: tuple[str, ...] | None
    choices: tuple[tuple[str, ...], ...]
    shape: frozenset[Cell] | None = None

    def goal(self, colours: tuple[str, ...] | None = None) -> Goal:
        """The goal for ``colours`` (default: the puzzle's own); ValueError for a colour choice
        the puzzle does not offer."""
        chosen = colours if colours is not None else self.colours
        if chosen is None:
            raise ValueError(f"{self.name}: choose the colour first ({_describe(self.choices)})")
        chosen = tuple(chosen)
        if not any(sorted(chosen) == sorted(c) for c in self.choices):
            raise ValueError(f"{self.name}: {'+'.join(chosen)} is not one of {_describe(self.choices)}")
        return Goal(self.tiles, chosen, self.closed, self.shape)

    @property
    def discovery_size(self) -> int | None:
        """N for the Discovery puzzle with tiles 1..N, else None."""
        return len(self.tiles) if self.name.startswith("discovery-") else None


def _describe(choices: tuple[tuple[str, ...], ...]) -> str:
    return ", ".join("+".join(c) for c in choices)


ANY_COLOUR: tuple[tuple[str, ...], ...] = tuple((c,) for c in COLOURS)
"""The choices of a "which colour?" puzzle: any of the four (finding the one that works is the
puzzle; the solver tells at once that a colour some tile lacks cannot make a loop through all)."""


def _discovery(n: int) -> Puzzle:
    tiles = tuple(range(1, n + 1))
    colour = tile(n).back[0].upper()  # the back of the newest tile gives the loop's colour
    # With ten tiles the booklets set three loops, one in each colour the tiles share.
    shared = tuple((c,) for c in COLOURS if c != colour and all(c in tile(t).edges for t in tiles))
    choices = ((colour,),) + shared if n == 10 else ((colour,),)
    return Puzzle(f"discovery-{n}", f"Discovery {n}", tiles, True, (colour,), choices)


def _by_back(back: str) -> tuple[int, ...]:
    return tuple(t.number for t in TILES if t.back == back)


def _catalogue() -> dict[str, Puzzle]:
    puzzles = [_discovery(n) for n in DISCOVERY_SIZES]
    green, yellow, white, blue, red = (_by_back(b) for b in ("green", "yellow", "white", "blue", "red"))
    puzzles += [
        Puzzle("rainbow-green", "Rainbow: green", green, True, ("G",), (("G",),)),
        Puzzle("rainbow-yellow", "Rainbow: yellow", yellow, True, ("Y",), (("Y",),)),
        Puzzle("rainbow-white", "Rainbow: white", white, True, None, ANY_COLOUR),
        Puzzle("rainbow-blue", "Rainbow: blue pyramid", blue, False, ("B",), (("B",),), frozenset(pyramid(4))),
        Puzzle("rainbow-red", "Rainbow: red pyramid", red, False, ("R",), (("R",),), frozenset(pyramid(5))),
    ]
    junior = (3, 5, 8, 12, 14, 43, 46, 50, 52, 54)
    student = (19, 21, 24, 25, 29, 31, 32, 40, 41, 42)
    professor = (2, 11, 15, 17, 20, 30, 38, 39, 44, 45, 51, 56)
    master = (18, 22, 23, 26, 27, 33, 34, 35, 36, 47, 53, 55)
    genius = (1, 4, 6, 7, 9, 10, 13, 16, 28, 37, 48, 49)
    puzzles += [
        Puzzle("junior", "Junior", junior, True, None, ANY_COLOUR),
        Puzzle("student", "Student", student, True, None, ANY_COLOUR),
        # Two loops at once; no colour is on all twelve tiles, so each loop takes the tiles that
        # carry its colour (as in Genius), and every tile must be on one of them.
        Puzzle("professor", "Professor", professor, True, None, tuple(combinations(COLOURS, 2))),
        Puzzle("master", "Master", master, True, None, ANY_COLOUR),
        Puzzle("genius-a", "Genius A", genius, False, ("R", "Y"), (("R", "Y"),)),
        Puzzle("genius-b", "Genius B", genius, False, ("R", "B"), (("R", "B"),)),
    ]
    return {p.name: p for p in puzzles}


PUZZLES: dict[str, Puzzle] = _catalogue()
"""Every free-form and shaped puzzle, by name."""


def puzzle(name: str) -> Puzzle:
    """The puzzle called ``name``; KeyError lists the names there are."""
    try:
        return PUZZLES[name]
    except KeyError:
        raise KeyError(f"no puzzle {name!r}; puzzles are discovery-3..discovery-30, "
                       + ", ".join(n for n in PUZZLES if not n.startswith("discovery-"))) from None


def parse_colours(text: str) -> tuple[str, ...]:
    """``"R"``, ``"ry"``, ``"R,Y"``, ``"red+yellow"`` -> ("R", "Y"); ValueError names bad input."""
    names = {v: k for k, v in COLOUR_NAMES.items()}
    parts = [p for p in text.replace("+", ",").replace(" ", ",").split(",") if p]
    if len(parts) == 1 and parts[0].lower() not in names and all(ch.upper() in COLOURS for ch in parts[0]):
        parts = list(parts[0])  # "RY": one letter per colour
    colours = []
    for part in parts:
        colour = part.upper() if part.upper() in COLOURS else names.get(part.lower())
        if colour is None:
            raise ValueError(f"unknown colour {part!r} (use R, Y, G, B or red, yellow, green, blue)")
        if colour in colours:
            raise ValueError(f"colour {part!r} given twice")
        colours.append(colour)
    if not colours:
        raise ValueError("no colour given")
    return tuple(colours)
