"""What a puzzle asks for, and the one check that decides whether an arrangement does it.

Every free-form and shaped puzzle of the booklets is a :class:`Goal`: a set of tiles, all of them
placed (inside a fixed shape when there is one), every touching edge matching, and for each goal
colour ONE chain (a loop, or an open line) that passes through every tile carrying that colour.
With one goal colour that is "a loop through all the tiles" (so every tile must carry it); with two
(Professor, Genius) each colour's chain takes the tiles carrying it, and every tile must be on at
least one of them. :func:`status` is what the puzzle modes show as progress and what the solver
accepts a solution by; the solver's own pruning never replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..board import Board, Placement
from ..geometry import Cell
from ..tiles import COLOURS, tile
from .bends import bend


@dataclass(frozen=True, slots=True)
class Goal:
    """Tiles to place, the colours whose chains must each pass through all their tiles, whether
    those chains are loops (``closed``) or lines, and the fixed cells when the shape is given."""

    tiles: tuple[int, ...]
    colours: tuple[str, ...]
    closed: bool
    shape: frozenset[Cell] | None = None

    def __post_init__(self) -> None:
        if not self.tiles or len(set(self.tiles)) != len(self.tiles):
            raise ValueError(f"a goal needs distinct tiles, not {self.tiles}")
        if not self.colours or any(c not in COLOURS for c in self.colours) or len(set(self.colours)) != len(self.colours):
            raise ValueError(f"goal colours must be distinct letters of {COLOURS}, not {self.colours}")
        if self.shape is not None and len(self.shape) < len(self.tiles):
            raise ValueError(f"a shape of {len(self.shape)} cells cannot hold {len(self.tiles)} tiles")

    def carriers(self, colour: str) -> tuple[int, ...]:
        """The goal's tiles that carry ``colour``: the tiles its chain must pass through."""
        return tuple(t for t in self.tiles if colour in tile(t).edges)

    def possible(self) -> bool:
        """The quick necessary conditions: every tile carries a goal colour, and a loop colour has
        an even number of curves (a loop turns by exactly one full turn; see :mod:`.bends`)."""
        if any(not any(c in tile(t).edges for c in self.colours) for t in self.tiles):
            return False
        if self.closed:
            for c in self.colours:
                bends = [bend(t, c) for t in self.carriers(c)]
                if len(bends) < 3 or bends.count(1) % 2:
                    return False
        return True

    def can_hold(self, placements: Sequence[Placement]) -> bool:
        """Whether ``placements`` could all be part of one solution's arrangement: goal tiles on
        distinct cells (inside the shape), keeping the golden rule among themselves."""
        board = Board()
        for p in placements:
            if p.tile not in self.tiles or p.cell in board or p.tile in board.placed_tiles():
                return False
            if self.shape is not None and p.cell not in self.shape:
                return False
            board.push(p)
        return not board.golden_rule_breaks()


@dataclass(frozen=True, slots=True)
class ChainProgress:
    """The longest chain of one goal colour: its length, whether it closes, and how many tiles
    that colour's chain must pass through."""

    colour: str
    length: int
    loop: bool
    needed: int

    @property
    def done(self) -> bool:
        return self.length == self.needed


@dataclass(frozen=True, slots=True)
class Status:
    """How far an arrangement is from the goal, and whether it reaches it."""

    placed: int
    total: int
    chains: tuple[ChainProgress, ...]
    outside: tuple[Cell, ...]
    holes: int
    solved: bool


def status(board: Board, goal: Goal) -> Status:
    """Check ``board`` against ``goal``: solved when exactly the goal's tiles are placed (inside
    the shape, if any), every touching edge matches, and each goal colour has one chain of the right
    kind through all the tiles that carry it. Holes are allowed (they are only counted)."""
    placed = board.placed_tiles()
    outside = tuple(
        p.cell for p in board.placements() if goal.shape is not None and p.cell not in goal.shape
    )
    chains = []
    for colour in goal.colours:
        needed = len(goal.carriers(colour))
        best = max(
            board.lines(colour),
            key=lambda line: (line.loop == goal.closed and line.length == needed, line.length),
            default=None,
        )
        chains.append(
            ChainProgress(colour, 0 if best is None else best.length, best is not None and best.loop, needed)
        )
    solved = (
        placed == set(goal.tiles)
        and not outside
        and goal.possible()
        and all(c.done and c.loop == goal.closed for c in chains)
        and not board.golden_rule_breaks()
    )
    return Status(len(placed & set(goal.tiles)), len(goal.tiles), tuple(chains), outside, len(board.holes()), solved)
