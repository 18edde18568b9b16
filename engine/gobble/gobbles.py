"""Gobbles, the real-time race for 2 to 6 players (rules.md section 7, English booklet).

Two tiles start on the table, touching and matching; the other tiles are dealt face up in equal
numbers (the rest are put away). There are no turns: anyone places whenever they see a spot, and a
tile must touch at least two tiles and match all of them (:mod:`engine.gobble.rules`). Filling a
forced space (three neighbours) is a *gobble*: the filler gives one of their tiles to an opponent
of their choice; filling a space with four or more neighbours (a double gobble) gives away two.
The first player with no tiles wins; the others play on for places.

This module is the pure, deterministic core: every action carries the time it arrived (ms since
the start) and actions are applied strictly in arrival order, so a game's record (its events)
replays to the identical result. Real time, threads and robots live in :mod:`engine.gobble.table`.

Choices made here (the booklet leaves them open):

* A claim on a space that already holds a tile is refused as ``"taken"``: a player only aims at
  empty spaces, so such a claim lost the race to whoever arrived first.
* The gobbler chooses the recipient and which of their own tiles to give. Until they have, they
  may not place (``"gift-pending"``); everyone else plays on. A gobble that empties the gobbler's
  hand gives nothing; if fewer tiles than owed remain, all of them go. Tiles go only to an opponent
  still playing. :meth:`Gobbles.suggest_gift` is the default (and the expert robots' choice): the
  tiles that fit the fewest places now, to the opponent with the fewest tiles.
* The game ends when one player is left with tiles (``"last-player"``), when nobody still playing
  can place any tile and no gift is pending (``"deadlock"``), or, with ``play_on=False``, as soon
  as the first player is out (``"first-out"``). Players out are placed in the order they went out;
  the others by fewest tiles left, equal counts sharing a place (1, 2, 2, 4).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple, Sequence

from ..actions import Place, Play, Refused, Undo, placing
from ..board import Board, Placement
from ..geometry import Cell
from ..tiles import ALL_NUMBERS
from . import rules
from .rules import Gobble, GobbleRule

MIN_PLAYERS, MAX_PLAYERS = 2, 6


class Level(StrEnum):
    """How good (and how quick) a robot seat is; see :mod:`engine.gobble.robots`."""

    BEGINNER = "beginner"
    CASUAL = "casual"
    EXPERT = "expert"


class Player(NamedTuple):
    """A seat at the table: a name, and the robot level for a computer player (None for a person)."""

    name: str
    robot: Level | None = None


class Ending(StrEnum):
    LAST_PLAYER = "last-player"
    FIRST_OUT = "first-out"
    DEADLOCK = "deadlock"


class Gift(NamedTuple):
    """The gobbler's choice: which opponent receives which of the gobbler's tiles."""

    to: int
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Give:
    """``seat`` settles their pending gobble with ``gift``."""

    seat: int
    gift: Gift


Action = Place | Give | Undo
"""Claim a space (``Place`` with the claiming seat), give a gobble's tiles away;
:class:`~engine.actions.Undo` is always refused (a race is not taken back)."""


class PendingGift(NamedTuple):
    """A gobble whose gift is still to be chosen: ``count`` tiles owed since ``since`` ms."""

    player: int
    count: int  # type: ignore[assignment]  # shadows tuple.count; the name is in saved games
    since: int


@dataclass(frozen=True, slots=True)
class Claimed:
    """An accepted claim: its place in the arrival order and what it earned."""

    seq: int
    at: int
    player: int
    placement: Placement
    gobble: Gobble
    owes: int  # tiles the player must now give away (0 when none, or when the hand is empty)


class Standing(NamedTuple):
    player: int
    place: int
    tiles: int


class Gobbles:
    """The state of one Gobbles game. Not thread-safe: :class:`engine.gobble.table.GobblesTable`
    serialises concurrent callers."""

    KIND: ClassVar[str] = "gobbles"

    def __init__(
        self,
        players: Sequence[Player | str],
        start: Sequence[Placement],
        hands: Sequence[Sequence[int]],
        play_on: bool = True,
    ) -> None:
        """A game about to begin: ``start`` is the opening pair (first on (0, 0)), ``hands`` the
        equal deal. :meth:`deal` makes both at random; ValueError names what is wrong."""
        self.players = tuple(_player(p) for p in players)
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise ValueError(f"Gobbles is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(self.players)}")
        if len(hands) != len(self.players):
            raise ValueError(f"{len(hands)} hands for {len(self.players)} players")
        if len(start) != 2:
            raise ValueError("Gobbles starts with exactly two tiles on the table")
        self.play_on = play_on
        self.start = tuple(Placement(*p) for p in start)
        self.board = Board()
        for p in self.start:
            refused = rules.refusal(self.board, p)
            if refused is not None:
                raise ValueError(f"opening tile {p.tile} at {p.cell}: {refused}")
            self.board.push(p)
        seen = self.board.placed_tiles()
        for hand in hands:
            for t in hand:
                if not isinstance(t, int) or not 1 <= t <= 56 or t in seen:
                    raise ValueError(f"tile {t!r} is unknown or dealt twice")
                seen.add(t)
        if len({len(h) for h in hands}) != 1 or not hands[0]:
            raise ValueError("every player is dealt the same number of tiles, at least one")
        self.dealt = tuple(tuple(sorted(h)) for h in hands)
        self.hands = [sorted(h) for h in hands]
        self.events: list[dict[str, Any]] = []
        self.now_ms = 0
        self.pending: dict[int, PendingGift] = {}
        self.out: list[int] = []
        self.ending: Ending | None = None
        self._owner: dict[Cell, int] = {}
        self._settle()  # a deal where nobody can place is over before it starts

    @classmethod
    def deal(
        cls,
        players: Sequence[Player | str],
        seed: int | None = None,
        per_player: int | None = None,
        play_on: bool = True,
    ) -> Gobbles:
        """Shuffle the 56 tiles (by ``seed``), lay the first two touching and matching, and deal
        the rest equally (``per_player`` each, default as many as go round); the rest are put away."""
        rng = random.Random(seed)
        tiles = list(ALL_NUMBERS)
        rng.shuffle(tiles)
        board = Board()
        first = Placement(tiles[0], 0, 0, rng.randrange(6))
        board.push(first)
        second = rng.choice(rules.legal_placements(board, [tiles[1]]))
        rest = tiles[2:]
        most = len(rest) // len(players)
        n = most if per_player is None else per_player
        if not 1 <= n <= most:
            raise ValueError(f"with {len(players)} players each can be dealt 1 to {most} tiles, not {n}")
        return cls(players, (first, second), [rest[i * n:(i + 1) * n] for i in range(len(players))], play_on)

    # ------------------------------------------------------------------------ reading

    @property
    def finished(self) -> bool:
        return self.ending is not None

    def playing(self, player: int) -> bool:
        """Whether ``player`` still holds tiles (and so can place, and receive gifts)."""
        return bool(self.hands[player])

    def legal_placements(self, player: int) -> list[Placement]:
        """Where ``player``'s tiles may go now (the board's deterministic order)."""
        return rules.legal_placements(self.board, self.hands[player])

    def owner(self, cell: Cell) -> int | None:
        """Who placed the tile on ``cell`` (None for the opening pair or an empty cell)."""
        return self._owner.get(cell)

    def standings(self) -> list[Standing]:
        """Places so far (final once :attr:`finished`): players out in the order they went out,
        then by fewest tiles left, equal counts sharing a place."""
        rows = [Standing(p, i + 1, 0) for i, p in enumerate(self.out)]
        rest = sorted((p for p in range(len(self.players)) if p not in self.out), key=lambda p: (len(self.hands[p]), p))
        place, previous = 0, -1
        for i, p in enumerate(rest):
            if len(self.hands[p]) != previous:
                place, previous = len(self.out) + i + 1, len(self.hands[p])
            rows.append(Standing(p, place, len(self.hands[p])))
        return rows

    def suggest_gift(self, player: int) -> Gift:
        """The default gift for ``player``'s pending gobble: the tiles of theirs that fit the fewest
        places now (higher number first on a tie), to the opponent still playing with the fewest
        tiles (the nearest seat clockwise on a tie)."""
        owed = self.pending.get(player)
        if owed is None:
            raise ValueError(f"{self.players[player].name} owes no gift")
        n = len(self.players)
        opponents = [p for p in range(n) if p != player and self.playing(p)]
        to = min(opponents, key=lambda p: (len(self.hands[p]), (p - player) % n))
        fits = {t: len(rules.legal_placements(self.board, [t])) for t in self.hands[player]}
        tiles = sorted(self.hands[player], key=lambda t: (fits[t], -t))[: owed.count]
        return Gift(to, tuple(tiles))

    # ------------------------------------------------------------------------ acting

    def legal_actions(self) -> list[Place | Give]:
        """Every claim any player may make now, and the suggested gift of each gobbler."""
        if self.finished:
            return []
        claims = [Place(p, seat) for seat in range(len(self.players))
                  if self.playing(seat) and seat not in self.pending for p in self.legal_placements(seat)]
        return [*claims, *(Give(seat, self.suggest_gift(seat)) for seat in sorted(self.pending))]

    def check(self, action: Action) -> Refused | None:
        """None when ``action`` may be done now, otherwise why not (``taken`` when the space is
        filled): what :meth:`apply`, :meth:`claim` and :meth:`give` obey and the kiosk asks while a
        finger hovers; it changes nothing. ValueError for a seat that is not at this table."""
        if isinstance(action, Undo):
            return Refused(Play.NO_UNDO, "in Gobbles a placed tile stays where it is: there is no undo")
        if isinstance(action, Give):
            return self._gift_refusal(self._seat(action.seat), action.gift)
        place = placing(action)
        if place is None:
            raise TypeError(f"not a Gobbles action: {action!r}")
        player, placement = self._seat(place.seat), Placement(*place.placement)
        if self.finished:
            return Refused(Play.GAME_OVER, "the game is over")
        if not self.playing(player):
            return Refused(GobbleRule.OUT, "you have no tiles left")
        if player in self.pending:
            return Refused(GobbleRule.GIFT_PENDING, "first choose who gets your gobble tiles")
        if placement.tile not in self.hands[player]:
            return Refused(Play.NOT_IN_HAND, f"tile {placement.tile} is not in your hand")
        if placement.cell in self.board:
            who = self._owner.get(placement.cell)
            by = "" if who is None else f": {self.players[who].name} got there first"
            return Refused(GobbleRule.TAKEN, f"that space is taken{by}", (placement.cell,))
        return rules.refusal(self.board, placement)

    def _gift_refusal(self, player: int, gift: Gift) -> Refused | None:
        to, tiles = gift.to, tuple(gift.tiles)
        if self.finished:
            return Refused(Play.GAME_OVER, "the game is over")
        owed = self.pending.get(player)
        if owed is None:
            return Refused(GobbleRule.NO_GIFT, "only filling a forced or gobble space gives tiles away")
        if not (isinstance(to, int) and 0 <= to < len(self.players)) or to == player:
            return Refused(GobbleRule.GIFT_RECIPIENT, "the tiles go to one of your opponents")
        if not self.playing(to):
            return Refused(GobbleRule.GIFT_RECIPIENT, f"{self.players[to].name} has already finished")
        if len(set(tiles)) != len(tiles) or len(tiles) != owed.count:
            return Refused(GobbleRule.GIFT_COUNT, f"give exactly {owed.count} of your tiles")
        missing = [t for t in tiles if t not in self.hands[player]]
        if missing:
            return Refused(Play.NOT_IN_HAND, f"tile {missing[0]} is not in your hand")
        return None

    def apply(self, action: Action) -> Claimed | None:
        """Do ``action`` now (at :attr:`now_ms`: no time passes), or raise the :class:`Refused` of
        :meth:`check` and change nothing (a refused claim is not recorded either: the table's
        :meth:`claim` records races). Returns what a claim made."""
        refused = self.check(action)
        if refused is not None:
            raise refused
        if isinstance(action, Give):
            self._give(action.seat, action.gift, self.now_ms, False)
            return None
        place = placing(action)
        assert place is not None and place.seat is not None
        return self._claim(place.seat, Placement(*place.placement), self.now_ms)

    def claim(self, player: int, placement: Placement, at: int) -> Claimed:
        """``player`` places a tile, arriving at ``at`` ms. Every claim is recorded; a refused one
        raises :class:`Refused` (``"taken"`` when someone got the space first)."""
        self._arrive(player, at)
        placement = Placement(*placement)
        refused = self.check(Place(placement, player))
        if refused is not None:
            self.events.append({"seq": len(self.events) + 1, "at": at, "player": player,
                                "claim": placement.to_json(), "result": refused.rule})
            raise refused
        return self._claim(player, placement, at)

    def _claim(self, player: int, placement: Placement, at: int) -> Claimed:
        event: dict[str, Any] = {
            "seq": len(self.events) + 1, "at": at, "player": player, "claim": placement.to_json(),
        }
        self.events.append(event)
        gobble = rules.gobble_of(self.board, placement.cell)
        self.board.push(placement)
        self._owner[placement.cell] = player
        hand = self.hands[player]
        hand.remove(placement.tile)
        owes = min(int(gobble), len(hand))
        if owes:
            self.pending[player] = PendingGift(player, owes, at)
        event["result"] = "placed"
        event["gobble"] = int(gobble)
        self._settle()
        return Claimed(event["seq"], at, player, placement, gobble, owes)

    def give(self, player: int, gift: Gift, at: int, auto: bool = False) -> None:
        """``player`` settles their pending gobble with ``gift`` (``auto``: the kiosk chose it after
        the player's time ran out). Refused gifts are not recorded."""
        self._arrive(player, at)
        refused = self.check(Give(player, gift))
        if refused is not None:
            raise refused
        self._give(player, gift, at, auto)

    def _give(self, player: int, gift: Gift, at: int, auto: bool) -> None:
        to, tiles = gift.to, tuple(gift.tiles)
        for t in tiles:
            self.hands[player].remove(t)
        self.hands[to] = sorted(self.hands[to] + list(tiles))
        del self.pending[player]
        self.events.append({
            "seq": len(self.events) + 1, "at": at, "player": player,
            "gift": {"to": to, "tiles": list(tiles)}, "auto": auto,
        })
        self._settle()

    def _seat(self, player: int | None) -> int:
        if not (isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(self.players)):
            raise ValueError(f"no player {player!r} at this table")
        return player

    def _arrive(self, player: int, at: int) -> None:
        """Arrival order is time order: the caller (the table) stamps actions under its lock."""
        self._seat(player)
        if at < self.now_ms:
            raise ValueError(f"actions must arrive in time order: {at} ms after {self.now_ms} ms")
        self.now_ms = at

    def _settle(self) -> None:
        """Note who went out and whether the game is over."""
        for p, hand in enumerate(self.hands):
            if not hand and p not in self.out:
                self.out.append(p)
        still = [p for p in range(len(self.players)) if self.playing(p)]
        if self.out and not self.play_on:
            self._end(Ending.FIRST_OUT)
        elif len(still) <= 1:
            self._end(Ending.LAST_PLAYER)
        elif not self.pending and not any(self.legal_placements(p) for p in still):
            self._end(Ending.DEADLOCK)

    def _end(self, ending: Ending) -> None:
        self.ending = ending
        self.pending.clear()

    def copy(self) -> Gobbles:
        """An independent copy (for a UI thread to read while play goes on)."""
        other = object.__new__(Gobbles)
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        other.hands = [list(h) for h in self.hands]
        other.events = [dict(e) for e in self.events]
        other.pending = dict(self.pending)
        other.out = list(self.out)
        other._owner = dict(self._owner)
        return other

    # ------------------------------------------------------------------------ records

    def to_json(self) -> dict[str, Any]:
        """The record: seats, opening, deal, every event in arrival order, and the standings. It is
        the complete state: :meth:`from_json` replays it."""
        return {
            "players": [{"name": p.name, "robot": p.robot and str(p.robot)} for p in self.players],
            "play_on": self.play_on,
            "start": [p.to_json() for p in self.start],
            "hands": [list(h) for h in self.dealt],
            "events": [dict(e) for e in self.events],
            "ending": self.ending and str(self.ending),
            "standings": [s._asdict() for s in self.standings()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Gobbles:
        """Replay a record; ValueError if it is malformed or does not replay to what it records."""
        try:
            players = [Player(p["name"], None if p["robot"] is None else Level(p["robot"])) for p in data["players"]]
            start = [Placement(e["tile"], e["q"], e["r"], e["rot"]) for e in data["start"]]
            game = cls(players, start, data["hands"], bool(data.get("play_on", True)))
            events = data["events"]
            if not isinstance(events, list):
                raise TypeError("events must be a list")
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"gobbles: bad record: {exc}") from None
        for i, event in enumerate(events, 1):
            game._replay(i, event)
        for name in ("ending", "standings"):
            if name in data and data[name] != game.to_json()[name]:
                raise ValueError(f"gobbles: the record says {name} {data[name]!r}, its replay gives {game.to_json()[name]!r}")
        return game

    def _replay(self, i: int, event: Any) -> None:
        try:
            if event["seq"] != i:
                raise ValueError(f"seq {event['seq']} out of order")
            player, at = event["player"], event["at"]
            if "claim" in event:
                c = event["claim"]
                try:
                    self.claim(player, Placement(c["tile"], c["q"], c["r"], c["rot"]), at)
                except Refused:
                    pass
                result = self.events[-1]
                if result.get("result") != event.get("result") or result.get("gobble") != event.get("gobble"):
                    raise ValueError(f"recorded {event.get('result')!r}, replay gives {result['result']!r}")
            else:
                g = event["gift"]
                self.give(player, Gift(g["to"], tuple(g["tiles"])), at, bool(event.get("auto", False)))
        except Refused as exc:
            raise ValueError(f"gobbles: event {i}: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"gobbles: event {i}: {exc}") from None


def _player(p: Player | str) -> Player:
    player = Player(p) if isinstance(p, str) else Player(*p)
    if not isinstance(player.name, str) or not player.name.strip():
        raise ValueError(f"a player needs a name, not {player.name!r}")
    if player.robot is not None:
        player = player._replace(robot=Level(player.robot))
    return player
