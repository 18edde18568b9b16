"""Gobble, the solo mode (rules.md section 6, English booklet "Tantrix Gobble").

Draw two tiles and place them touching and matching. Then draw one tile at a time and place it
touching at least two tiles, matching all (:mod:`engine.gobble.rules`). A drawn tile that fits
nowhere goes face up on the discard pile. Filling a forced space (three neighbours) or a gobble
space (four or more) earns a *reward*: the top discard may be played, or returned to the bag. The
goal is to place every tile; the score is the number of tiles placed.

Choices made here (the booklet leaves them open):

* A drawn tile that fits somewhere must be placed ("you must always try to connect the drawn
  tile"): discarding it is refused.
* The reward has two outcomes, as rules.md words it: play the top discard (when it fits) or return
  it to the bag, at a random place among the tiles still to draw. It cannot be declined.
* A placed tile is never moved (French booklet: "une fois qu'une tuile est posée, on ne peut plus
  l'enlever"), so undo is refused.
* The game ends when the bag is empty and nothing is left to place; discards left are lost tiles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from ..actions import Place, Play, Refused, Undo, placing
from ..board import Board, Placement, PositionError
from ..tiles import ALL_NUMBERS
from . import rules
from .rules import Gobble, GobbleRule


@dataclass(frozen=True, slots=True)
class Discard:
    """Set the drawn tile aside on the discard pile (only when it fits nowhere)."""


@dataclass(frozen=True, slots=True)
class ReturnDiscard:
    """Reward option: put the top discard back into the bag instead of playing it."""


Action = Place | Placement | Discard | ReturnDiscard | Undo
"""Put a playable tile on the board (:class:`~engine.actions.Place`), discard the drawn tile,
return the reward discard; :class:`~engine.actions.Undo` is always refused."""


class GobbleSolo:
    """The state of one solo Gobble game; refuses bad actions with :class:`Refused`."""

    KIND: ClassVar[str] = "gobble-solo"

    def __init__(
        self,
        bag: Sequence[int],
        seed: int = 0,
        board: Board | None = None,
        hand: Sequence[int] = (),
        discards: Sequence[int] = (),
        reward: bool = False,
        returned: int = 0,
    ) -> None:
        """Low-level constructor (``start`` and ``from_json`` are the usual ways in). ``bag`` is in
        drawing order; ``hand`` holds the drawn tiles still to place; ``discards`` ends with the top."""
        self.board = board if board is not None else Board()
        self.bag = list(bag)
        self.hand = list(hand)
        self.discards = list(discards)
        self.reward = reward
        self.seed = seed
        self.returned = returned
        seen = self.board.placed_tiles()
        for t in self.bag + self.hand + self.discards:
            if not 1 <= t <= 56:
                raise ValueError(f"unknown tile {t} (tiles are 1..56)")
            if t in seen:
                raise ValueError(f"tile {t} appears twice")
            seen.add(t)
        if len(seen) < 2:
            raise ValueError("Gobble needs at least two tiles")
        if reward and (not self.discards or self.hand):
            raise ValueError("a reward needs a discard pile and an empty hand")
        if len(self.hand) > _draw_size(self.board):
            raise ValueError(f"{len(self.hand)} drawn tiles is too many at this point")
        self._draw()

    @classmethod
    def start(cls, seed: int | None = None, order: Sequence[int] | None = None) -> GobbleSolo:
        """A new game: ``order`` is the drawing order (default: all 56 shuffled by ``seed``). The
        seed also decides where returned discards go in the bag."""
        if seed is None:
            seed = random.randrange(1 << 32)
        if order is None:
            order = list(ALL_NUMBERS)
            random.Random(seed).shuffle(order)
        return cls(order, seed)

    # ------------------------------------------------------------------------ reading

    @property
    def playable(self) -> tuple[int, ...]:
        """Tiles that may be placed now: the opening pair, the drawn tile, or the reward discard."""
        return (self.discards[-1],) if self.reward else tuple(self.hand)

    @property
    def total(self) -> int:
        return len(self.board) + len(self.bag) + len(self.hand) + len(self.discards)

    @property
    def score(self) -> int:
        """Tiles placed."""
        return len(self.board)

    @property
    def progress(self) -> tuple[int, int]:
        """(tiles placed, tiles in the game)."""
        return len(self.board), self.total

    @property
    def goal_reached(self) -> bool:
        """Every tile is on the board."""
        return len(self.board) == self.total

    @property
    def finished(self) -> bool:
        return not self.hand and not self.reward and not self.bag

    def legal_placements(self) -> list[Placement]:
        return rules.legal_placements(self.board, self.playable)

    def legal_actions(self) -> list[Place | Discard | ReturnDiscard]:
        """Everything the player may do now (empty once finished)."""
        actions: list[Place | Discard | ReturnDiscard] = [Place(p) for p in self.legal_placements()]
        if self.reward:
            actions.append(ReturnDiscard())
        elif self.hand and not actions:
            actions.append(Discard())
        return actions

    # ------------------------------------------------------------------------ acting

    def check(self, action: Action) -> Refused | None:
        """None when ``action`` may be done now, otherwise why not: what :meth:`apply` obeys and
        the kiosk asks while a finger hovers. A placement: a playable tile, by Gobble's rule; a
        discard: only of a drawn tile that fits nowhere; a return: only of a reward."""
        if isinstance(action, Undo):
            return Refused(Play.NO_UNDO, "in Gobble a placed tile stays where it is: there is no undo")
        if self.finished:
            return Refused(Play.GAME_OVER, "the game is over")
        place = placing(action)
        if place is not None:
            placement = Placement(*place.placement)
            if placement.tile not in self.playable:
                return Refused(GobbleRule.NOT_DRAWN, self._what_to_play())
            return rules.refusal(self.board, placement)
        if isinstance(action, Discard):
            if self.reward:
                return Refused(GobbleRule.REWARD_PENDING, "play the top discard or return it to the bag")
            fits = rules.legal_placements(self.board, self.hand)
            if fits:
                cells = tuple(sorted({p.cell for p in fits}))
                return Refused(GobbleRule.MUST_PLACE, f"tile {fits[0].tile} fits on the board: it must be placed", cells)
            return None
        if isinstance(action, ReturnDiscard):
            if not self.reward:
                return Refused(GobbleRule.NO_REWARD, "only filling a forced or gobble space earns the top discard")
            return None
        raise TypeError(f"not a Gobble action: {action!r}")

    def apply(self, action: Action) -> Gobble | None:
        """Do ``action``, or raise the :class:`Refused` of :meth:`check` and change nothing;
        returns what a placement earned (None for the other actions)."""
        refused = self.check(action)
        if refused is not None:
            raise refused
        place = placing(action)
        if place is not None:
            placement = Placement(*place.placement)
            gobble = rules.gobble_of(self.board, placement.cell)
            self.board.push(placement)
            if self.reward:
                self.discards.pop()
            else:
                self.hand.remove(placement.tile)
            self.reward = gobble is not Gobble.NONE and bool(self.discards)
            self._draw()
            return gobble
        if isinstance(action, Discard):
            self.discards.extend(self.hand)
            self.hand.clear()
        else:  # ReturnDiscard: the top discard goes back into the bag, at a random place
            tile = self.discards.pop()
            where = random.Random(f"{self.seed}:{self.returned}").randrange(len(self.bag) + 1)
            self.bag.insert(where, tile)
            self.returned += 1
            self.reward = False
        self._draw()
        return None

    def place(self, placement: Placement) -> Gobble:
        """Place a playable tile; a gobble earns the top discard (if any) as a reward."""
        gobble = self.apply(Place(placement))
        assert gobble is not None
        return gobble

    def discard(self) -> None:
        """Put the drawn tile on the discard pile; refused while it fits somewhere."""
        self.apply(Discard())

    def return_discard(self) -> None:
        """Reward option: the top discard goes back into the bag, at a random place."""
        self.apply(ReturnDiscard())

    def undo(self) -> None:
        """Always refused: a placed tile stays where it is."""
        self.apply(Undo())

    def _draw(self) -> None:
        """Draw the next tile(s) when nothing is left to place: two for the opening, then one."""
        if self.hand or self.reward:
            return
        while len(self.hand) < _draw_size(self.board) and self.bag:
            self.hand.append(self.bag.pop(0))

    def _what_to_play(self) -> str:
        if self.reward:
            return f"the reward is the top discard, tile {self.discards[-1]}: play it or return it to the bag"
        return "the tile to place now is " + " or ".join(str(t) for t in self.hand)

    # ------------------------------------------------------------------------ saving

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "position": self.board.to_json(),
            "bag": list(self.bag),
            "hand": list(self.hand),
            "discards": list(self.discards),
            "reward": self.reward,
            "returned": self.returned,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GobbleSolo:
        """Rebuild a saved game; every placement is re-checked against the Gobble rule."""
        def ints(name: str) -> list[int]:
            value = data.get(name)
            if not isinstance(value, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in value):
                raise ValueError(f"gobble-solo: {name!r} must be a list of tile numbers")
            return value

        for name, kind in (("seed", int), ("returned", int), ("reward", bool)):
            if not isinstance(data.get(name), kind):
                raise ValueError(f"gobble-solo: {name!r} must be a {kind.__name__}")
        try:
            recorded = Board.from_json(data.get("position"))
        except PositionError as exc:
            raise ValueError(f"gobble-solo: position: {exc}") from None
        board = Board()
        for p in recorded.placements():
            refused = rules.refusal(board, p)
            if refused is not None:
                raise ValueError(f"gobble-solo: position: tile {p.tile} at {p.cell}: {refused}")
            board.push(p)
        return cls(ints("bag"), data["seed"], board, ints("hand"), ints("discards"), data["reward"], data["returned"])


def _draw_size(board: Board) -> int:
    """How many tiles are drawn at once: the two opening tiles together, then one at a time."""
    return 2 if len(board) == 0 else 1
