"""Arrangement puzzles: Discovery, Rainbow and the booklet puzzles, played with tiles on the table.

The player puts tiles down anywhere (inside the pyramid for the Rainbow pyramids), turns and moves
them, picks them up again: an arrangement may be in pieces while it is being built, but wherever
two tiles touch their edges must match (the board decides: ``Board.check`` with the restrictions
off; only "must touch" is waived). The goal check (:func:`engine.solver.status`) says when it is
solved. Where the puzzle lets the player choose the colour, an arrangement that works in any
allowed colour is solved; choosing a colour only aims the hints.

Discovery goes on the booklet's way: once solved, :meth:`PuzzlePlay.advance` gives the next
puzzle with the arrangement kept (add the new tile to the loop) or cleared (start over).
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, Self, Sequence

from ..actions import PickUp, Place, Play, Refused, Undo, placing
from ..board import Board, Placement, PositionError, Rule
from ..geometry import Cell
from ..solver import Control, Hint, HintKind, Status, hint, status
from .catalogue import DISCOVERY_SIZES, Puzzle, puzzle
from .rules import SoloRule


__all__ = ["PickUp", "PuzzleAction", "PuzzlePlay"]

PuzzleAction = Placement | Place | PickUp | Undo
"""Put a tile down (from the tray, or a placed tile moved or turned), pick one up, or take the last
step back."""


class _Step(NamedTuple):
    """One undoable step: ``placement`` put down (replacing ``before``, the tile's earlier
    placement, if it was moved), or ``before`` picked up (``placement`` None)."""

    placement: Placement | None
    before: Placement | None


class PuzzlePlay:
    """A puzzle of the catalogue being played: the arrangement, its undo history and counters."""

    KIND: ClassVar[str] = "puzzle"

    def __init__(
        self,
        name: str,
        colours: Sequence[str] | None = None,
        placements: Sequence[Placement] = (),
        history: Sequence[_Step] = (),
        moves: int = 0,
        hints: int = 0,
    ) -> None:
        self.puzzle: Puzzle = puzzle(name)
        self.colours: tuple[str, ...] | None = None
        if colours is not None:
            self.choose(colours)
        self._placements: list[Placement] = []
        for p in placements:
            refusal = self.check(p)
            if refusal is not None:
                raise ValueError(f"{name}: tile {p.tile} at ({p.q}, {p.r}): {refusal.message}")
            self._set(p)
        self._history = list(history)
        self.moves = moves
        self.hints = hints

    @classmethod
    def start(cls, name: str, colours: Sequence[str] | None = None) -> Self:
        """A fresh puzzle; ``colours`` as in :meth:`choose` (default: the puzzle's own, if any)."""
        return cls(name, colours)

    # ------------------------------------------------------------------------- reading

    @property
    def placements(self) -> list[Placement]:
        """The tiles down, in the order they were (last) put down."""
        return list(self._placements)

    @property
    def board(self) -> Board:
        """A board holding the arrangement (a copy: changing it changes nothing here)."""
        board = Board()
        for p in self._placements:
            board.push(p)
        return board

    @property
    def tray(self) -> list[int]:
        """The puzzle's tiles not on the table."""
        down = {p.tile for p in self._placements}
        return [t for t in self.puzzle.tiles if t not in down]

    def choices(self) -> tuple[tuple[str, ...], ...]:
        """The colour choices this puzzle offers (one when its colour is given)."""
        return self.puzzle.choices

    def status(self) -> Status:
        """Solved in whichever allowed colours it is solved: a choice only aims the hints, so a
        child who picked red and then found the blue loop has solved it all the same. Unsolved,
        the progress in the chosen colours, or without a choice in the colours that get furthest."""
        board = self.board
        chosen = self.goal_colours()
        options = [chosen] if chosen is not None else list(self.puzzle.choices)
        found = [status(board, self.puzzle.goal(colours)) for colours in options]
        if not found[0].solved:
            found += [status(board, self.puzzle.goal(colours)) for colours in self.puzzle.choices
                      if colours not in options]
        solved = [s for s in found if s.solved]
        if solved or chosen is None:
            return max(solved or found, key=lambda s: sum(c.length for c in s.chains))
        return found[0]

    def goal_colours(self) -> tuple[str, ...] | None:
        """The colours the goal is checked and hinted in: the choice made, or the puzzle's own."""
        return self.colours if self.colours is not None else self.puzzle.colours

    @property
    def finished(self) -> bool:
        return self.status().solved

    @property
    def score(self) -> int:
        """Tiles on the longest chain of each goal colour, added up (all of them once solved)."""
        return sum(c.length for c in self.status().chains)

    # ------------------------------------------------------------------------- actions

    def choose(self, colours: Sequence[str] | None) -> None:
        """Aim at these goal colours (None: back to the puzzle's own, or to any allowed)."""
        if colours is None:
            self.colours = None
            return
        try:
            goal = self.puzzle.goal(tuple(colours))
        except ValueError as exc:
            raise Refused(SoloRule.NO_SUCH_CHOICE, str(exc)) from None
        self.colours = goal.colours

    def legal_actions(self) -> list[Placement | PickUp]:
        """Every tray tile on every cell touching the arrangement (any cell of the shape, for a
        shaped puzzle; the middle when the table is empty) in each rotation that matches, and
        picking up each placed tile. Isolated cells of a free-form puzzle and moving placed
        tiles are allowed too, but not listed (there is no end to them)."""
        board = self.board
        if self.puzzle.shape is not None:
            cells: list[Cell] = sorted((c for c in self.puzzle.shape if c not in board), key=lambda c: (c[1], c[0]))
        else:
            cells = sorted(board.frontier(), key=lambda c: (c[1], c[0])) if len(board) else [(0, 0)]
        actions: list[Placement | PickUp] = [
            Placement(t, cell[0], cell[1], rot) for cell in cells for t in self.tray for rot in board.fits(t, cell)
        ]
        actions += [PickUp(p.tile) for p in self._placements]
        return actions

    def check(self, action: PuzzleAction) -> Refused | None:
        """None if ``action`` may be done now, else the refusal naming the rule it breaks."""
        if isinstance(action, PickUp):
            if not any(p.tile == action.tile for p in self._placements):
                return Refused(SoloRule.NOT_PLACED, f"tile {action.tile} is not on the table")
            return None
        if isinstance(action, Undo):
            return None if self._history else Refused(Play.NOTHING_TO_UNDO, "there is nothing to take back")
        place = placing(action)
        if place is None:
            raise TypeError(f"not a puzzle action: {action!r}")
        p = Placement(*place.placement)
        if p.tile not in self.puzzle.tiles:
            return Refused(Rule.NO_SUCH_TILE, f"tile {p.tile} is not one of this puzzle's tiles")
        if self.puzzle.shape is not None and p.cell not in self.puzzle.shape:
            return Refused(SoloRule.OUTSIDE_SHAPE, "this puzzle's tiles stay inside the pyramid", (p.cell,))
        board = Board()
        for q in self._placements:
            if q.tile != p.tile:
                board.push(q)
        violation = board.check(p, restricted=False)
        if violation is None or violation.rule is Rule.CONTACT:  # puzzles may be built in pieces
            return None
        return violation

    def apply(self, action: PuzzleAction) -> None:
        """Do ``action``, or raise :class:`Refused` and change nothing. A tile put back exactly
        where it lay is no step (nothing to count or take back)."""
        refusal = self.check(action)
        if refusal is not None:
            raise refusal
        if isinstance(action, Undo):
            self._take_back()
            return
        if isinstance(action, PickUp):
            before = next(p for p in self._placements if p.tile == action.tile)
            self._placements.remove(before)
            self._history.append(_Step(None, before))
        else:
            place = placing(action)
            assert place is not None
            p = Placement(*place.placement)
            if p in self._placements:
                return
            replaced = next((q for q in self._placements if q.tile == p.tile), None)
            self._set(p)
            self._history.append(_Step(p, replaced))
        self.moves += 1

    def undo(self) -> Placement | PickUp:
        """Take back the last step (a tile put down, moved or picked up); returns that step."""
        refusal = self.check(Undo())
        if refusal is not None:
            raise refusal
        return self._take_back()

    def _take_back(self) -> Placement | PickUp:
        step = self._history.pop()
        if step.placement is not None:
            self._placements = [p for p in self._placements if p.tile != step.placement.tile]
        if step.before is not None:
            self._set(step.before)
        return step.placement if step.placement is not None else PickUp(step.before.tile)  # type: ignore[union-attr]

    def _set(self, p: Placement) -> None:
        self._placements = [q for q in self._placements if q.tile != p.tile] + [p]

    def hint(self, control: Control | None = None) -> Hint:
        """The next placement of a solution keeping every tile where it is, or the tile to pick
        up when there is none, in the chosen colours (without a choice: the first allowed
        colours that work). Cooperative: pass a :class:`Control` with a time limit or cancel flag."""
        control = control if control is not None else Control()
        self.hints += 1
        chosen = self.goal_colours()
        options = [chosen] if chosen is not None else list(self.puzzle.choices)
        fallback: Hint | None = None
        for colours in options:
            found = hint(self.puzzle.goal(colours), self._placements, control=control)
            if found.kind in (HintKind.PLACE, HintKind.SOLVED, HintKind.UNKNOWN):
                return found
            if found.kind is HintKind.TAKE_BACK and fallback is None:
                fallback = found
        return fallback if fallback is not None else Hint(HintKind.IMPOSSIBLE, colours=chosen or ())

    def advance(self, keep: bool = True) -> PuzzlePlay:
        """Discovery only, once solved: the next puzzle (one tile more), keeping the arrangement
        to add the new tile to it (``keep``), or starting over on an empty table."""
        n = self.puzzle.discovery_size
        if n is None or n + 1 not in DISCOVERY_SIZES:
            raise Refused(SoloRule.NO_NEXT_PUZZLE, "there is no next Discovery puzzle after this one")
        if not self.finished:
            raise Refused(SoloRule.NOT_SOLVED, "solve this puzzle first")
        return PuzzlePlay(f"discovery-{n + 1}", None, self._placements if keep else ())

    # ---------------------------------------------------------------------------- saving

    def to_json(self) -> dict[str, Any]:
        def placement(p: Placement | None) -> dict[str, int] | None:
            return None if p is None else p.to_json()

        return {
            "puzzle": self.puzzle.name,
            "colours": None if self.colours is None else list(self.colours),
            "placements": [p.to_json() for p in self._placements],
            "history": [{"placement": placement(s.placement), "before": placement(s.before)} for s in self._history],
            "moves": self.moves,
            "hints": self.hints,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        def placement(value: object, where: str) -> Placement | None:
            if value is None:
                return None
            try:
                return Board.from_json({"tiles": [value]}).placements()[0]
            except PositionError as exc:
                raise ValueError(f"{where}: {exc}") from None

        name = data.get("puzzle")
        if not isinstance(name, str):
            raise ValueError("a saved puzzle needs its \"puzzle\" name")
        colours = data.get("colours")
        if colours is not None and (not isinstance(colours, list) or not all(isinstance(c, str) for c in colours)):
            raise ValueError("\"colours\" must be null or a list of colour letters")
        entries = data.get("placements", [])
        history = data.get("history", [])
        if not isinstance(entries, list) or not isinstance(history, list):
            raise ValueError("\"placements\" and \"history\" must be lists")
        placements = [placement(e, f"placements[{i}]") for i, e in enumerate(entries)]
        steps = []
        for i, step in enumerate(history):
            if not isinstance(step, dict):
                raise ValueError(f"history[{i}] must be an object")
            put = placement(step.get("placement"), f"history[{i}].placement")
            before = placement(step.get("before"), f"history[{i}].before")
            if put is None and before is None:
                raise ValueError(f"history[{i}] records nothing")
            steps.append(_Step(put, before))
        counters = [data.get("moves", 0), data.get("hints", 0)]
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counters):
            raise ValueError("\"moves\" and \"hints\" must be whole numbers")
        try:
            return cls(name, colours, [p for p in placements if p is not None], steps, *counters)
        except (KeyError, Refused) as exc:
            raise ValueError(str(exc).strip("'\"")) from None
