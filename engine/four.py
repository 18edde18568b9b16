"""The Four lines and Four loops puzzles (rules.md section 6): what counts, and the kiosk mode.

All 56 tiles go into one arrangement in which every touching edge matches (the golden rule; holes
are allowed). **Four lines** scores, for each colour, the tiles of its longest *line*; **Four loops**
the tiles of its longest *loop*; the puzzle score is the sum over the four colours. The booklets
(French section 6 "Le puzzle 4 lignes", Polish "Układanka czterech linii") keep the strategy game's
distinction between a line (*ligne*, *linia*) and a loop (*boucle*, *pętla*), and rules.md defines a
line as an open chain, so a closed loop does not count as a line in Four lines. Booklet records:
Four lines 146 computed, 139 by hand; Four loops 129, believed maximum 136.

:class:`FourLines` and :class:`FourLoops` are the kiosk modes: the player lays out all 56 tiles
freely (no bag, no restrictions: ``Board.check(..., restricted=False)`` decides every placement), moves,
turns and takes back tiles, watches the score live and keeps their best complete arrangement; the
device's best known arrangement (found by :mod:`engine.optimise`, stored in ``engine/data``) can be
shown beside it. The arrangement is always *one* arrangement: a tile must touch the others when
placed (the board's contact rule) and a tile whose removal would split the arrangement cannot be
picked up, so what the player builds is always a candidate answer.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from enum import StrEnum
from typing import Any, ClassVar, Literal, Self

from .board import Board, Placement, PositionError
from .geometry import Cell, neighbours
from .actions import PickUp, Place, Play, Refused, Undo, placing
from .tiles import ALL_NUMBERS, COLOURS

Goal = Literal["lines", "loops"]
GOALS: tuple[Goal, ...] = ("lines", "loops")


class FourRule(StrEnum):
    """Four lines' and Four loops' own rule codes (with :class:`engine.modes.Play`'s and the board's)."""

    ONE_ARRANGEMENT = "one-arrangement"
    """The tiles must stay one arrangement: the move or removal would split it."""
    EMPTY_CELL = "empty-cell"


RECORDS: dict[Goal, dict[str, int]] = {
    "lines": {"booklet_computed": 146, "booklet_by_hand": 139},
    "loops": {"booklet_best": 129, "booklet_believed_maximum": 136},
}
"""The figures the booklets give, for the UI to show next to the player's and the device's best."""


def colour_scores(board: Board, goal: Goal) -> dict[str, int]:
    """Each colour's contribution: its longest open line (``"lines"``) or longest loop (``"loops"``)."""
    index = GOALS.index(goal)  # Board.longest gives (line, loop)
    return {colour: board.longest(colour)[index] for colour in COLOURS}


def puzzle_score(board: Board, goal: Goal) -> int:
    """The puzzle's score of an arrangement (complete or not): the sum of :func:`colour_scores`."""
    return sum(colour_scores(board, goal).values())


def groups(board: Board) -> list[set[Cell]]:
    """The arrangement's separate pieces (cells of tiles that touch, directly or through others)."""
    left = {p.cell for p in board.placements()}
    found: list[set[Cell]] = []
    while left:
        group = {left.pop()}
        todo = list(group)
        while todo:
            for n in neighbours(todo.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    todo.append(n)
        found.append(group)
    return found


def incomplete(board: Board) -> str | None:
    """Why ``board`` is not yet an answer to the puzzle (None when it is): every one of the 56 tiles
    must be on it, in one arrangement. (The golden rule is the board's own: a Board never breaks it.)"""
    if len(board) != len(ALL_NUMBERS):
        return f"{len(ALL_NUMBERS) - len(board)} of the 56 tiles are not placed yet"
    if len(groups(board)) > 1:
        return "the tiles do not form one arrangement"
    return None


def _board_of(placements: list[Placement] | tuple[Placement, ...]) -> Board:
    """Rebuild the arrangement from its placements (already known to keep the golden rule)."""
    board = Board()
    for p in placements:
        board.push(p)
    return board


def _data_name(goal: Goal) -> str:
    return f"data/four-{goal}.json"


@cache
def _stored(goal: Goal) -> tuple[int, tuple[Placement, ...]]:
    data = json.loads(files(__package__).joinpath(_data_name(goal)).read_text(encoding="utf-8"))
    board = Board.from_json(data["position"])
    return data["score"], tuple(board.placements())


def best_known(goal: Goal) -> tuple[int, Board]:
    """The best arrangement this device knows for ``goal`` (package data) and its stored score."""
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {GOALS}, not {goal!r}")
    score, placements = _stored(goal)
    return score, _board_of(placements)


class FourPuzzle:
    """State of one Four lines / Four loops session (see the module docstring for the rules).

    Actions (:meth:`check` and :meth:`apply`; each refused with :class:`~engine.actions.Refused`
    naming the rule, changing nothing): ``Place`` a tile from the hand, or a tile down moved or
    turned (put back exactly where it lay, it is no step), ``PickUp`` a tile, ``Undo``; and the
    same as :meth:`place`, :meth:`pick_up`, :meth:`move`, :meth:`rotate`, :meth:`undo`.
    """

    KIND: ClassVar[str]
    GOAL: ClassVar[Goal]
    UNDO_LIMIT: ClassVar[int] = 200
    """Actions kept for undo (older ones are forgotten so the journalled state stays small)."""

    def __init__(self) -> None:
        self._board = Board()
        self._undo: list[list[Any]] = []  # actions as saved: ["place", tile], ["pick"|"move", *old placement, index]
        self.best_score: int | None = None
        """The player's best score with all 56 tiles in one arrangement (None before the first)."""
        self.best: tuple[Placement, ...] = ()
        """The arrangement that scored :attr:`best_score`."""

    # ------------------------------------------------------------------------ reading

    @property
    def board(self) -> Board:
        """The arrangement (a copy: change it only through the actions)."""
        return self._board.copy()

    @property
    def hand(self) -> list[int]:
        """Tiles not yet placed, in number order."""
        placed = self._board.placed_tiles()
        return [t for t in ALL_NUMBERS if t not in placed]

    @property
    def score(self) -> int:
        """The live score of the arrangement as it stands."""
        return puzzle_score(self._board, self.GOAL)

    def colour_scores(self) -> dict[str, int]:
        """Each colour's share of the live score (its longest line or loop)."""
        return colour_scores(self._board, self.GOAL)

    @property
    def complete(self) -> bool:
        """All 56 tiles are placed in one arrangement: the position is an answer to the puzzle."""
        return incomplete(self._board) is None

    @property
    def finished(self) -> bool:
        """Same as :attr:`complete`: a full answer stands (the player may still go on improving it)."""
        return self.complete

    def fitting_rotations(self, tile: int, cell: Cell) -> list[int]:
        """Rotations in which ``tile`` (from the hand) may go on ``cell`` now."""
        return [rot for rot in range(6) if self._board.is_legal(Placement(tile, *cell, rot), restricted=False)]

    def fitting_places(self, tile: int) -> list[Placement]:
        """Every placement of ``tile`` (from the hand) allowed now: where a screen may let it drop."""
        return self._board.legal_placements((tile,), restricted=False)

    def best_board(self) -> Board | None:
        """The player's best complete arrangement, or None before the first."""
        return _board_of(self.best) if self.best else None

    def device_best(self) -> tuple[int, Board]:
        """The device's best known arrangement for this puzzle and its score, to show the player."""
        return best_known(self.GOAL)

    # ------------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Placement | PickUp]:
        """Every placement of a hand tile allowed now, and picking up each tile that may be taken
        away (moving tiles down is allowed too, but not listed)."""
        actions: list[Placement | PickUp] = list(self._board.legal_placements(self.hand, restricted=False))
        actions += [PickUp(p.tile) for p in self._board.placements() if self.check(PickUp(p.tile)) is None]
        return actions

    def check(self, action: Placement | Place | PickUp | Undo) -> Refused | None:
        """None when ``action`` can be done now, otherwise why not: what :meth:`apply` obeys, and
        the kiosk asks while a finger hovers; it changes nothing. A placement puts its tile down
        from the hand, or moves (or turns) it there from where it lies."""
        if isinstance(action, PickUp):
            return self._pick_up_refusal(action.tile)
        if isinstance(action, Undo):
            return None if self._undo else Refused(Play.NOTHING_TO_UNDO, "there is nothing to take back")
        place = placing(action)
        if place is None:
            raise TypeError(f"not a {self.KIND} action: {action!r}")
        placement = Placement(*place.placement)
        source = self._board.cell_of(placement.tile)
        if source is None:
            return self._board.check(placement, restricted=False)
        rest = _board_of([p for p in self._board.placements() if p.tile != placement.tile])
        refusal = rest.check(placement, restricted=False)
        if refusal is None:
            rest.push(placement)
            if len(groups(rest)) > 1:
                return Refused(FourRule.ONE_ARRANGEMENT, "that move would leave the arrangement in two pieces",
                               (source, placement.cell))
        return refusal

    def _pick_up_refusal(self, tile: int) -> Refused | None:
        cell = self._board.cell_of(tile)
        if cell is None:
            return Refused(FourRule.EMPTY_CELL, f"tile {tile} is not on the table")
        rest = _board_of([p for p in self._board.placements() if p.tile != tile])
        if len(groups(rest)) > 1:
            return Refused(FourRule.ONE_ARRANGEMENT, "taking this tile away would split the arrangement in two", (cell,))
        return None

    def apply(self, action: Placement | Place | PickUp | Undo) -> None:
        """Do ``action``, or raise the :class:`Refused` of :meth:`check` and change nothing."""
        refusal = self.check(action)
        if refusal is not None:
            raise refusal
        if isinstance(action, PickUp):
            old, index = self._take(self._cell_of(action.tile))
            self._record(["pick", *old, index])
            return
        if isinstance(action, Undo):
            self._take_back()
            return
        place = placing(action)
        assert place is not None
        placement = Placement(*place.placement)
        source = self._board.cell_of(placement.tile)
        if source is None:
            self._board.push(placement)
            self._record(["place", placement.tile])
        elif self._board.at(source) != placement:
            old, index = self._take(source)
            self._board.push(placement)
            self._record(["move", *old, index])
        self._note_best()

    def place(self, tile: int, cell: Cell, rot: int) -> None:
        """Put ``tile`` from the hand on the empty ``cell`` with rotation ``rot``."""
        placement = Placement(tile, cell[0], cell[1], rot)
        if self._board.cell_of(tile) is not None:  # from the hand only: the board refuses a tile down
            refusal = self._board.check(placement, restricted=False)
            assert refusal is not None
            raise refusal
        self.apply(placement)

    def pick_up(self, cell: Cell) -> int:
        """Take the tile on ``cell`` back into the hand and return its number."""
        lying = self._lying(cell)
        self.apply(PickUp(lying.tile))
        return lying.tile

    def move(self, source: Cell, target: Cell, rot: int) -> None:
        """Move the tile on ``source`` to ``target`` (the same cell to turn it) with rotation ``rot``."""
        lying = self._lying(source)
        self.apply(Placement(lying.tile, target[0], target[1], rot))

    def rotate(self, cell: Cell, rot: int) -> None:
        """Turn the tile on ``cell`` to rotation ``rot``."""
        self.move(cell, cell, rot)

    def undo(self) -> None:
        """Take back the last action."""
        self.apply(Undo())

    def _take_back(self) -> None:
        action = self._undo.pop()
        kind = action[0]
        if kind == "place":
            self._take(self._cell_of(action[1]))
        elif kind == "pick":
            self._put_back(Placement(*action[1:5]), action[5])
        else:  # move: the tile now sits wherever it went; put it back where it was
            self._take(self._cell_of(action[1]))
            self._put_back(Placement(*action[1:5]), action[5])

    def _lying(self, cell: Cell) -> Placement:
        lying = self._board.at(cell)
        if lying is None:
            raise Refused(FourRule.EMPTY_CELL, "there is no tile on that space", (cell,))
        return lying

    # ------------------------------------------------------------------------ helpers

    def _cell_of(self, tile: int) -> Cell:
        cell = self._board.cell_of(tile)
        if cell is None:  # only a corrupt saved history can get here (from_json replays it to check)
            raise ValueError(f"the undo history names tile {tile}, which is not on the board")
        return cell

    def _take(self, cell: Cell) -> tuple[Placement, int]:
        """Remove the tile on ``cell``: its placement and where it was in the board's order."""
        placements = self._board.placements()
        index = next(i for i, p in enumerate(placements) if p.cell == cell)
        self._board = _board_of(placements[:index] + placements[index + 1 :])
        return placements[index], index

    def _put_back(self, placement: Placement, index: int) -> None:
        if placement.tile in self._board.placed_tiles() or placement.cell in self._board:
            raise ValueError(f"the undo history puts tile {placement.tile} back where it cannot go")
        placements = self._board.placements()
        placements.insert(index, placement)
        self._board = _board_of(placements)

    def _record(self, action: list[Any]) -> None:
        self._undo.append(action)
        del self._undo[: -self.UNDO_LIMIT]

    def _note_best(self) -> None:
        if self.complete:
            score = self.score
            if self.best_score is None or score > self.best_score:
                self.best_score = score
                self.best = tuple(self._board.placements())

    def _check_history(self) -> None:
        """Take back every saved action on a copy: a saved history that does not lead back to a
        valid arrangement at each step is refused at restore, not at the player's next undo."""
        probe = type(self)()
        probe._board, probe._undo = self._board.copy(), list(self._undo)
        while probe._undo:
            probe._take_back()
            if probe._board.golden_rule_breaks():
                raise ValueError("the undo history leads to an arrangement that breaks the golden rule")

    # ------------------------------------------------------------------------ saving

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self._board.to_json(),
            "undo": [list(a) for a in self._undo],
            "best_score": self.best_score,
            "best": [p.to_json() for p in self.best],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        mode = cls()
        try:
            mode._board = Board.from_json(data.get("position"))
            if mode._board.bag:
                raise ValueError("a Four puzzle position has no bag (\"bag\" must be 0)")
            if mode._board and len(groups(mode._board)) > 1:
                raise ValueError("the saved arrangement is in more than one piece")
            best = data.get("best", [])
            mode.best = tuple(Board.from_json({"tiles": best, "bag": 0}).placements())
            best_score = data.get("best_score")
            if mode.best:
                if incomplete(_board_of(mode.best)) is not None:
                    raise ValueError("the saved best arrangement is not a complete answer")
                if best_score != puzzle_score(_board_of(mode.best), cls.GOAL):
                    raise ValueError("the saved best score does not match the saved best arrangement")
            elif best_score is not None:
                raise ValueError("a best score is saved without its arrangement")
            mode.best_score = best_score
            mode._undo = _checked_undo(data.get("undo", []))
            mode._check_history()
        except PositionError as exc:
            raise ValueError(f"saved {cls.KIND} state: {exc}") from None
        return mode

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_json() == self.to_json()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self._board)} tiles placed, score {self.score})"


def _checked_undo(actions: object) -> list[list[Any]]:
    if not isinstance(actions, list):
        raise ValueError("\"undo\" must be a list of actions")
    shapes = {"place": 2, "pick": 6, "move": 6}
    for action in actions:
        if (
            not isinstance(action, list)
            or not action
            or shapes.get(action[0]) != len(action)
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in action[1:])
        ):
            raise ValueError(f"bad undo action {action!r}")
    return [list(a) for a in actions]


class FourLines(FourPuzzle):
    """Four lines: the sum of each colour's longest line."""

    KIND = "four-lines"
    GOAL: ClassVar[Goal] = "lines"


class FourLoops(FourPuzzle):
    """Four loops: the sum of each colour's longest loop."""

    KIND = "four-loops"
    GOAL: ClassVar[Goal] = "loops"
