"""Tantrix Solitaire with tiles 1..14 (all carry red), by either booklet's rules.

* Classic (French and English booklets): draw one tile at a time and place it at once, touching the
  tiles down and matching them; a drawn tile that fits a forced space must go into one (any of
  them). Spaces surrounded by one colour are allowed.
* Hand (Polish booklet): hold two tiles, place one, draw again. Fillable forced spaces must be
  filled first; a forced space may only be created while the hand holds a tile that fits it (filling
  one may create others freely, and once the bag is empty anything goes); filling a forced space
  draws the replacement and one bonus tile. With the loop aim the game ends when a red loop closes.

The aim is one red line through all 14 tiles (a loop through all of them counts too), or, harder,
one red loop through all 14. A tile once down stays down: there is no undo.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Self, Sequence, TypeVar

from ..board import Board, Placement, PositionError
from ..actions import Place, Play, Refused, Undo, placing
from .rules import SoloRule

TILES = tuple(range(1, 15))
E = TypeVar("E", bound=StrEnum)


class Rules(StrEnum):
    CLASSIC = "classic"
    HAND = "hand"


class Aim(StrEnum):
    LINE = "line"
    LOOP = "loop"


class End(StrEnum):
    """Why a game ended."""

    ALL_PLACED = "all-placed"
    LOOP_CLOSED = "loop-closed"  # hand rules, loop aim
    STUCK = "stuck"  # tiles in hand but nowhere to put any


def _option(kind: type[E], value: object, name: str) -> E:
    """``value`` as a member of ``kind``; a refusal lists the ones there are."""
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return kind(value)
    except ValueError:
        allowed = " or ".join(m.value for m in kind)
        raise Refused(Play.NO_SUCH_OPTION, f"\"{name}\" must be {allowed}, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class SolitaireStatus:
    placed: int
    line: int  # tiles on the longest red line
    loop: int  # tiles on the longest red loop
    won: bool
    end: End | None


class Solitaire:
    """A game of Solitaire: the rules and aim, the bag (its order drawn from ``seed``), the hand
    and the tiles down."""

    KIND: ClassVar[str] = "solitaire"

    def __init__(
        self,
        rules: Rules,
        aim: Aim,
        bag: Sequence[int],
        hand: Sequence[int],
        board: Board,
        seed: int | None = None,
        end: End | None = None,
    ) -> None:
        self.rules = Rules(rules)
        self.aim = Aim(aim)
        self.bag = list(bag)  # drawn from the front
        self.hand = list(hand)
        self._board = board
        self.seed = seed
        self.end = end
        tiles = sorted(self.bag + self.hand + sorted(board.placed_tiles()))
        if tiles != list(TILES):
            raise ValueError(f"Solitaire uses tiles 1..14 once each, not {tiles}")
        if board.golden_rule_breaks():
            raise ValueError("the tiles down break the golden rule")

    @classmethod
    def start(cls, rules: Rules | str = Rules.CLASSIC, aim: Aim | str = Aim.LINE, seed: int | None = None) -> Self:
        """Shuffle tiles 1..14 (``seed`` makes the order repeatable) and draw the first hand."""
        rules, aim = _option(Rules, rules, "rules"), _option(Aim, aim, "aim")
        bag = list(TILES)
        random.Random(seed).shuffle(bag)
        size = 1 if rules is Rules.CLASSIC else 2
        return cls(rules, aim, bag[size:], bag[:size], Board(), seed)

    # ------------------------------------------------------------------------- reading

    @property
    def board(self) -> Board:
        """The tiles down (a copy)."""
        return self._board.copy()

    @property
    def finished(self) -> bool:
        return self.end is not None

    def status(self) -> SolitaireStatus:
        line, loop = self._board.longest("R")
        everything = len(self._board) == len(TILES)
        won = everything and (loop == len(TILES) if self.aim is Aim.LOOP else len(TILES) in (line, loop))
        return SolitaireStatus(len(self._board), line, loop, won, self.end)

    @property
    def score(self) -> int:
        """Tiles on the best red chain the aim counts: a line or a loop, or only a loop."""
        status = self.status()
        return status.loop if self.aim is Aim.LOOP else max(status.line, status.loop)

    # ------------------------------------------------------------------------- actions

    def legal_actions(self) -> list[Placement]:
        """Every placement of a hand tile the rules allow now."""
        if self.end is not None:
            return []
        return [p for p in self._board.legal_placements(self.hand, restricted=False) if self._rule_refusal(p) is None]

    def check(self, action: Placement | Place | Undo) -> Refused | None:
        """None if ``action`` may be done now, else the refusal naming the rule it breaks."""
        if isinstance(action, Undo):
            return Refused(Play.NO_UNDO, "in Solitaire a tile stays where it is put")
        place = placing(action)
        if place is None:
            raise TypeError(f"not a Solitaire action: {action!r}")
        p = Placement(*place.placement)
        if self.end is not None:
            return Refused(Play.GAME_OVER, "the game is over")
        if p.tile not in self.hand:
            return Refused(Play.NOT_IN_HAND, f"tile {p.tile} is not in your hand")
        violation = self._board.check(p, restricted=False)
        if violation is not None:
            return violation
        return self._rule_refusal(p)

    def _rule_refusal(self, p: Placement) -> Refused | None:
        """The Solitaire rules on top of contact and the golden rule."""
        board = self._board
        fillable = [s.cell for s in board.forced_spaces() if any(board.fits(t, s.cell) for t in self.hand)]
        if fillable and p.cell not in fillable:
            return Refused(Play.MUST_FILL_FORCED, "a tile in your hand fits a forced space: fill one first", tuple(fillable))
        if self.rules is Rules.HAND and not fillable and self.bag:
            after = board.copy()
            after.push(p)
            rest = [t for t in self.hand if t != p.tile]
            for space in after.forced_spaces():
                if not board.is_forced(space.cell) and not any(after.fits(t, space.cell) for t in rest):
                    return Refused(
                        SoloRule.UNFILLABLE_FORCED_SPACE,
                        "that would make a forced space no tile in your hand fits",
                        (space.cell,),
                    )
        return None

    def apply(self, action: Placement | Place | Undo) -> None:
        """Play a tile and draw, or raise :class:`Refused` and change nothing."""
        refusal = self.check(action)
        if refusal is not None:
            raise refusal
        place = placing(action)
        assert place is not None  # Undo is always refused
        p = Placement(*place.placement)
        filled = self._board.is_forced(p.cell)
        self._board.push(p)
        self.hand.remove(p.tile)
        draws = 2 if self.rules is Rules.HAND and filled else 1  # the replacement, and the bonus
        for _ in range(draws):
            if self.bag:
                self.hand.append(self.bag.pop(0))
        if self.rules is Rules.HAND and self.aim is Aim.LOOP and self._board.longest("R")[1]:
            self.end = End.LOOP_CLOSED
        elif not self.hand and not self.bag:
            self.end = End.ALL_PLACED
        elif not self.legal_actions():
            self.end = End.STUCK

    def undo(self) -> None:
        """Never allowed in Solitaire: ``apply(Undo())``, always refused."""
        self.apply(Undo())

    # ---------------------------------------------------------------------------- saving

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.value,
            "aim": self.aim.value,
            "seed": self.seed,
            "bag": list(self.bag),
            "hand": list(self.hand),
            "position": self._board.to_json(),
            "end": None if self.end is None else self.end.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        try:
            rules, aim = _option(Rules, data.get("rules"), "rules"), _option(Aim, data.get("aim"), "aim")
            end = None if data.get("end") is None else _option(End, data.get("end"), "end")
        except Refused as exc:
            raise ValueError(f"saved Solitaire: {exc.message}") from None
        bag, hand, seed = data.get("bag"), data.get("hand"), data.get("seed")
        for name, value in (("bag", bag), ("hand", hand)):
            if not isinstance(value, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in value):
                raise ValueError(f"saved Solitaire: \"{name}\" must be a list of tile numbers")
        if seed is not None and not isinstance(seed, int):
            raise ValueError("saved Solitaire: \"seed\" must be a whole number or null")
        try:
            board = Board.from_json(data.get("position"))
        except PositionError as exc:
            raise ValueError(f"saved Solitaire: {exc}") from None
        return cls(rules, aim, bag, hand, board, seed, end)  # type: ignore[arg-type]
