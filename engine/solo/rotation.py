"""Rotation puzzles: every tile already lies on its cell, the player only turns tiles.

The booklet's Great Pyramid puts 45 tiles in a 9-row pyramid and asks to turn them until every
touching edge matches (its hint: start with the yellow loop of tiles 43, 45 and 49). Its layout
figure is not available, so the device builds its own layouts: it fills the pyramid with tiles
whose edges all match (:func:`engine.solver.fill`), which is the proof that the puzzle can be
solved, and then turns every tile at random. Smaller pyramids (3 to 8 rows) make gentler puzzles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self, Sequence

from ..board import Board, Placement, Rule
from ..geometry import Cell, neighbour, pyramid
from ..actions import Play, Refused, Undo
from ..solver import Control, Goal, Hint, HintKind, Interrupted, fill, solve
from ..solver.canonical import moved
from ..tiles import ALL_NUMBERS
from .rules import SoloRule

GREAT_PYRAMID_ROWS = 9
ROWS = range(3, 10)
HINT_LOOP = (43, 45, 49)
"""The booklet's hint for the Great Pyramid: these three tiles make a yellow loop."""


def build_layout(rows: int, rng: random.Random, control: Control | None = None) -> list[Placement]:
    """A solved pyramid of ``rows`` rows: tiles chosen and turned so that every touching edge
    matches. The Great Pyramid (9 rows) holds the booklet's yellow loop of tiles 43, 45, 49."""
    if rows not in ROWS:
        raise ValueError(f"rotation puzzles are pyramids of {ROWS.start} to {ROWS.stop - 1} rows, not {rows}")
    cells = pyramid(rows)
    inside = set(cells)
    fixed: list[Placement] = []
    if rows == GREAT_PYRAMID_ROWS:
        loop = solve(Goal(HINT_LOOP, ("Y",), True), control=control).solution
        assert loop is not None, "tiles 43, 45 and 49 always make a yellow loop"
        motions = [(turns, cell) for turns in range(6) for cell in cells]
        rng.shuffle(motions)
        for turns, cell in motions:
            turned = moved(loop, turns)
            shifted = moved(turned, 0, cell[0] - turned[0].q, cell[1] - turned[0].r)
            if all(p.cell in inside for p in shifted):
                fixed = shifted
                break
    pool = [t for t in ALL_NUMBERS if t not in {p.tile for p in fixed}]
    found = fill(cells, pool=pool, fixed=fixed, rng=rng, control=control)
    if not found:
        raise ValueError(f"no layout of {rows} rows could be built")
    return found[0]


class Turn(NamedTuple):
    """Turn ``tile`` by ``steps`` sixths of a full turn, clockwise (negative: anticlockwise)."""

    tile: int
    steps: int = 1

    def to_json(self) -> dict[str, int]:
        return {"tile": self.tile, "steps": self.steps}


@dataclass(frozen=True, slots=True)
class RotationStatus:
    contacts: int  # touching edge pairs in the layout
    mismatches: tuple[tuple[Cell, Cell], ...]  # touching pairs whose edges differ
    solved: bool


class RotationPuzzle:
    """A rotation puzzle: which tile lies where (fixed), how each is turned now, and the
    solution the layout was built from (the proof that it can be solved)."""

    KIND: ClassVar[str] = "rotation"

    def __init__(
        self,
        rows: int,
        solution: Sequence[Placement],
        rotations: dict[int, int],
        seed: int | None = None,
        history: Sequence[Turn] = (),
        moves: int = 0,
        hints: int = 0,
    ) -> None:
        self.rows = rows
        self.solution = list(solution)
        self.cells = {p.tile: p.cell for p in self.solution}
        self.seed = seed
        self.rotations = dict(rotations)
        self.history = list(history)
        self.moves = moves
        self.hints = hints
        board = Board()
        for p in self.solution:
            board.push(p)
        if rows not in ROWS or sorted(self.cells.values()) != sorted(pyramid(rows)):
            raise ValueError(f"a rotation puzzle fills a pyramid of {ROWS.start} to {ROWS.stop - 1} rows")
        if board.golden_rule_breaks():
            raise ValueError("the layout's solution breaks the golden rule")
        if set(self.rotations) != set(self.cells) or any(type(r) is not int or not 0 <= r <= 5
                                                         for r in self.rotations.values()):
            raise ValueError("every tile of the layout needs a rotation 0..5")
        if any(turn.tile not in self.cells for turn in self.history):
            raise ValueError("the history turns a tile that is not in the layout")

    @classmethod
    def start(cls, rows: int = GREAT_PYRAMID_ROWS, seed: int | None = None, control: Control | None = None) -> Self:
        """Build a layout of ``rows`` rows (repeatable with ``seed``) and turn its tiles at random."""
        rng = random.Random(seed)
        try:
            solution = build_layout(rows, rng, control)
        except ValueError as exc:
            raise Refused(Play.NO_SUCH_OPTION, str(exc)) from None
        while True:
            rotations = {p.tile: rng.randrange(6) for p in solution}
            puzzle = cls(rows, solution, rotations, seed)
            if not puzzle.status().solved:
                return puzzle

    # ------------------------------------------------------------------------- reading

    def placements(self) -> list[Placement]:
        """The tiles as they lie now."""
        return [Placement(t, cell[0], cell[1], self.rotations[t]) for t, cell in self.cells.items()]

    @property
    def board(self) -> Board:
        board = Board()
        for p in self.placements():
            board.push(p)
        return board

    def status(self) -> RotationStatus:
        board = self.board
        contacts = sum(1 for cell in self.cells.values() for d in range(3) if neighbour(cell, d) in board)
        mismatches = tuple(board.golden_rule_breaks())
        return RotationStatus(contacts, mismatches, not mismatches)

    @property
    def finished(self) -> bool:
        return self.status().solved

    @property
    def score(self) -> int:
        """Touching edge pairs that match (all of them once solved)."""
        status = self.status()
        return status.contacts - len(status.mismatches)

    # ------------------------------------------------------------------------- actions

    def legal_actions(self) -> list[Turn]:
        """Any tile may be turned at any time; one sixth clockwise per tap."""
        return [Turn(t, 1) for t in sorted(self.cells)]

    def check(self, action: Turn | Undo) -> Refused | None:
        """None if ``action`` may be done now, else the refusal naming the rule it breaks."""
        if isinstance(action, Undo):
            return None if self.history else Refused(Play.NOTHING_TO_UNDO, "there is nothing to take back")
        if action.tile not in self.cells:
            return Refused(Rule.NO_SUCH_TILE, f"tile {action.tile} is not in this puzzle")
        if action.steps % 6 == 0:
            return Refused(SoloRule.NO_TURN, "a turn must turn the tile")
        return None

    def apply(self, action: Turn | Undo) -> None:
        """Do ``action``, or raise :class:`Refused` and change nothing."""
        refusal = self.check(action)
        if refusal is not None:
            raise refusal
        if isinstance(action, Undo):
            self._take_back()
            return
        self.rotations[action.tile] = (self.rotations[action.tile] + action.steps) % 6
        self.history.append(action)
        self.moves += 1

    def undo(self) -> Turn:
        """Take back the last turn; returns it."""
        refusal = self.check(Undo())
        if refusal is not None:
            raise refusal
        return self._take_back()

    def _take_back(self) -> Turn:
        turn = self.history.pop()
        self.rotations[turn.tile] = (self.rotations[turn.tile] - turn.steps) % 6
        return turn

    def hint(self, control: Control | None = None) -> Hint:
        """A tile to turn, and to which rotation, towards the solution closest to the tiles as
        they lie (the search tries their current rotations first)."""
        self.hints += 1
        if self.status().solved:
            return Hint(HintKind.SOLVED)
        control = control if control is not None else Control()
        try:
            found = fill(self.cells.values(), tiles={c: t for t, c in self.cells.items()}, prefer=self.rotations, control=control)
        except Interrupted:
            return Hint(HintKind.UNKNOWN)
        solution = found[0]  # the layout was built from a solution, so there is one
        clashes: dict[Cell, int] = {}
        for a, b in self.status().mismatches:
            clashes[a] = clashes.get(a, 0) + 1
            clashes[b] = clashes.get(b, 0) + 1
        wrong = [p for p in solution if p.rot != self.rotations[p.tile]]
        best = max(wrong, key=lambda p: (clashes.get(p.cell, 0), -p.tile))  # the worst clash first
        return Hint(HintKind.PLACE, best, solution=solution)

    # ---------------------------------------------------------------------------- saving

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "seed": self.seed,
            "solution": [p.to_json() for p in self.solution],
            "rotations": {str(t): r for t, r in sorted(self.rotations.items())},
            "history": [t.to_json() for t in self.history],
            "moves": self.moves,
            "hints": self.hints,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        rows, seed = data.get("rows"), data.get("seed")
        if not isinstance(rows, int) or (seed is not None and not isinstance(seed, int)):
            raise ValueError("saved rotation puzzle: \"rows\" and \"seed\" must be whole numbers")
        try:
            solution = Board.from_json({"tiles": data.get("solution")}).placements()
            rotations = {int(t): r for t, r in dict(data.get("rotations", {})).items()}
            history = [Turn(int(h["tile"]), int(h["steps"])) for h in data.get("history", [])]
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"saved rotation puzzle: {exc}") from None
        counters = [data.get("moves", 0), data.get("hints", 0)]
        if not all(isinstance(n, int) and n >= 0 for n in counters):
            raise ValueError("saved rotation puzzle: \"moves\" and \"hints\" must be whole numbers")
        return cls(rows, solution, rotations, seed, history, *counters)
