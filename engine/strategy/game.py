"""The Tantrix strategy game for 2, 3 or 4 players and Doubles (rules.md section 5).

:class:`StrategyGame` runs the whole procedure: the opening draw (the highest number starts and
keeps that tile), hands of six, the opening move, clockwise turns of three steps (fill forced
spaces, one free move, fill again) with a replacement drawn after every placement, the endgame
(restrictions lift the moment the bag empties), skipped players, deadlock and the end of the game.
At every moment it knows whose move it is, which step the turn is in and which placements are legal
and obligatory; anything else is refused with the rule it breaks. Whatever needs no decision
(drawing from the engine's bag, a step with nothing to fill, a player with an empty hand, the end
of a turn or of the game) happens by itself.

The board decides every placement rule (engine.board); this module decides only whose turn it is,
what the turn obliges, and when the game ends. Draws come either from the engine's own bag (a
shuffled order, kept secret from robots) or, with a physical bag, from the caller reporting the tile
each player drew ("seat 2 drew tile 17", as the tag reader says); the game then waits in a
*draw pending* state (:attr:`StrategyGame.awaiting_draw`). Every game keeps a record (engine.strategy.record)
and saves its complete state as JSON (engine.modes), so a power cut loses nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Mapping, Sequence

from ..actions import Place, Play, Refused, Undo, placing
from ..board import Board, Placement, PositionError
from ..clock import penalised_scores
from ..geometry import Cell
from ..tiles import ALL_NUMBERS, COLOURS

RECORD_FORMAT = "tantrix-strategy-record/1"
HAND_SIZE = 6
LEVELS = ("beginner", "club", "expert", "master")
"""The robot levels a seat may name (:mod:`engine.strategy.robots` builds them). Listed here so a
saved game is checked without importing a robot: robots play games, games never run robots."""


class StrategyRule(StrEnum):
    """The strategy game's own rule codes (with :class:`engine.modes.Play`'s and the board's)."""

    DRAW_PENDING = "draw-pending"
    NOT_PLAYING = "not-playing"
    NO_DRAW_DUE = "no-draw-due"
    NOT_YOUR_DRAW = "not-your-draw"
    NOT_IN_BAG = "not-in-bag"
    NO_SUCH_SEAT = "no-such-seat"
    NOT_A_ROBOT = "not-a-robot"
    ROBOT_SEAT = "robot-seat"


@dataclass(frozen=True, slots=True)
class Draw:
    """With a physical bag: the seat owing a draw (``seat``, when given, must be that seat) drew
    ``tile``, as the tag reader reports it."""

    tile: int
    seat: int | None = None


Action = Place | Placement | Draw | Undo
"""What may be done in a strategy game: place a tile (a bare Placement by the seat to move), report
a draw from the physical bag; :class:`~engine.actions.Undo` is always refused."""


class EndRule(StrEnum):
    """When the game ends: all tiles placed (French, Polish, Dutch booklets; the default) or as soon
    as one player has placed their last tile (the English booklet)."""

    ALL_PLACED = "all-placed"
    FIRST_OUT = "first-out"


class Phase(StrEnum):
    OPENING = "opening"  # each player draws one tile; the highest number starts
    DEAL = "deal"  # each player draws five more
    PLAY = "play"
    OVER = "over"


class Step(StrEnum):
    """The three steps of a turn (rules.md 5.4)."""

    FILL = "fill"  # 1: fill forced spaces while a tile in hand legally fits one
    FREE = "free"  # 2: exactly one placement anywhere legal
    FILL_AGAIN = "fill-again"  # 3: fill forced spaces again


FILL_STEPS = (Step.FILL, Step.FILL_AGAIN)


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options fixed when the game is created."""

    players: int = 2
    doubles: bool = False
    end: EndRule = EndRule.ALL_PLACED
    physical_bag: bool = False  # draws are reported by the caller (tag reader) instead of made here

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "doubles": self.doubles, "end": str(self.end),
                "physical_bag": self.physical_bag}

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if not isinstance(data, dict):
            raise ValueError("options must be an object")
        players, doubles = data.get("players", 2), data.get("doubles", False)
        end, physical = data.get("end", "all-placed"), data.get("physical_bag", False)
        if players not in (2, 3, 4) or isinstance(players, bool):
            raise ValueError(f"options.players must be 2, 3 or 4, not {players!r}")
        if not isinstance(doubles, bool) or not isinstance(physical, bool):
            raise ValueError("options.doubles and options.physical_bag must be true or false")
        if doubles and players != 4:
            raise ValueError("Doubles is played by 4 players")
        if end not in {e.value for e in EndRule}:
            raise ValueError(f"options.end must be one of {[e.value for e in EndRule]}, not {end!r}")
        return cls(players, doubles, EndRule(end), physical)


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: its colour (shared by partners in Doubles) and who plays it,
    ``robot=None`` for a person, otherwise a robot level (one of :data:`LEVELS`)."""

    colour: str
    robot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "robot": self.robot}


@dataclass(frozen=True, slots=True)
class Result:
    """How the game ended: ``reason`` is ``"all-placed"``, ``"first-out"`` or ``"deadlock"``;
    ``winner`` is a colour, or None for a draw (equal top scores, or deadlock)."""

    reason: str
    scores: dict[str, int]
    winner: str | None

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "scores": dict(self.scores), "winner": self.winner}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        if not isinstance(data, dict) or not isinstance(data.get("scores"), dict):
            raise ValueError("result must be an object with reason, scores and winner")
        return cls(str(data.get("reason")), {str(k): int(v) for k, v in data["scores"].items()},
                   data.get("winner"))


def places(result: Result, out: str | None = None) -> dict[str, int]:
    """Each colour's place in a finished game, 1 the best: the higher score first, equal scores
    sharing a place, but the winner the rules named (:meth:`StrategyGame._finish`) alone first; a
    deadlock puts every colour first. ``out``, the colour that lost on time (:func:`lost_on_time`),
    is last whatever its score, the others placed among themselves. The one place the results
    screen and the ratings take places from."""
    scores = result.scores
    if result.reason == "deadlock":
        return dict.fromkeys(scores, 1)
    others = {colour: score for colour, score in scores.items() if colour != out}
    ranks = {colour: 1 + sum(1 for other in others.values() if other > score) for colour, score in others.items()}
    if result.winner in ranks:
        ranks = {colour: 1 if colour == result.winner else max(rank, 2) for colour, rank in ranks.items()}
    if out in scores:
        ranks[out] = len(scores)
    return ranks


def lost_on_time(record: Mapping[str, Any]) -> str | None:
    """The colour that lost on time in a game's record (its ``{"time": seat}`` event), if one did."""
    seats = [event["time"] for event in record.get("events", ()) if "time" in event]
    return str(record["seats"][seats[-1]]["colour"]) if seats else None


def robots_at(record: Mapping[str, Any], events: int | None = None) -> list[str | None]:
    """Who played each seat after the first ``events`` events of a game's record (None: all of
    them): the robot level at the seat, None for a person. The seats as set up, changed by each
    ``{"seat": seat, "robot": level}`` event (a person left and a robot played on, or took the seat
    back): a rating counts the seat's last player, a replay names each step's."""
    robots = [seat.get("robot") for seat in record["seats"]]
    for event in list(record.get("events", ()))[:events]:
        if "seat" in event and not any(key in event for key in ("place", "draw", "skip")):
            robots[event["seat"]] = event.get("robot")
    return robots


@dataclass(frozen=True, slots=True)
class ForcedReview:
    """Review of one forced space, as the official online game offers it: the unseen tiles (still in
    the bag) that fit it now, under the restrictions, and those that will fit in the endgame."""

    cell: Cell
    pattern: str
    fits_now: tuple[int, ...]
    fits_endgame: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"q": self.cell[0], "r": self.cell[1], "pattern": self.pattern,
                "fits_now": len(self.fits_now), "fits_endgame": len(self.fits_endgame),
                "tiles_now": list(self.fits_now), "tiles_endgame": list(self.fits_endgame)}


def _table(players: int, colours: str | None, robots: Sequence[str | None] | None, doubles: bool,
           end: EndRule | str, physical_bag: bool) -> tuple[Options, list[Seat]]:
    """Options and seats from the friendly arguments of :meth:`StrategyGame.new`."""
    if str(end) not in {e.value for e in EndRule}:
        raise ValueError(f"the end rule is one of {[e.value for e in EndRule]}, not {end!r}")
    options = Options.from_json({"players": players, "doubles": doubles, "end": str(end),
                                 "physical_bag": physical_bag})
    per_seat = _check_colours(colours or COLOURS[: 2 if doubles else players], players, doubles)
    robots = list(robots) if robots is not None else [None] * players
    if len(robots) != players:
        raise ValueError(f"give one robot level (or None) per seat: {players} seats")
    return options, [Seat(c, r) for c, r in zip(per_seat, robots)]


def _check_colours(colours: str, players: int, doubles: bool) -> tuple[str, ...]:
    """Per-seat colours from one colour per player (or per team in Doubles, partners opposite)."""
    wanted = 2 if doubles else players
    if len(colours) != wanted or len(set(colours)) != wanted or any(c not in COLOURS for c in colours):
        who = "team" if doubles else "player"
        raise ValueError(f"choose {wanted} different colours of {COLOURS}, one per {who}, not {colours!r}")
    return tuple(colours[i % 2] for i in range(4)) if doubles else tuple(colours)


class StrategyGame:
    """One strategy game. Create it with :meth:`new` (a normal game from the opening draw) or
    :meth:`from_position` (a scripted situation); drive it with :meth:`apply` (or :meth:`place`
    and :meth:`report_draw`, physical bag) and :meth:`set_robot`; read :attr:`turn`, :attr:`step`,
    :meth:`legal`, :meth:`obligatory`, :attr:`awaiting_draw`, :attr:`result`, :meth:`record` and
    :meth:`review`. Seats are numbered clockwise from 0. Robots choose from :meth:`view` with
    :meth:`robot_rng` (:func:`engine.strategy.robots.robot_move`); the game never runs one."""

    KIND: ClassVar[str] = "strategy"

    def __init__(self, options: Options, seats: Sequence[Seat], bag: Sequence[int], *,
                 seed: int | None = None, robot_seed: int = 0, start: tuple[Board, list[list[int]], int] | None = None,
                 ) -> None:
        """A game at the opening draw with ``bag`` in draw order (first element drawn first), or,
        with ``start`` = (position, hands, seat to move), at step 1 of that seat's turn.
        Prefer :meth:`new` and :meth:`from_position`."""
        if len(seats) != options.players:
            raise ValueError(f"{options.players} players need {options.players} seats, not {len(seats)}")
        self.options = options
        self.seats: list[Seat] = list(seats)
        self.board = Board(len(bag))
        self.hands: list[list[int]] = [[] for _ in seats]
        self._bag: list[int] = sorted(bag) if options.physical_bag else list(bag)
        self.phase = Phase.OPENING
        self.turn: int | None = None
        self.step: Step | None = None
        self.starter: int | None = None
        self.result: Result | None = None
        self.robot_seed = robot_seed
        self._due: list[int] = list(range(options.players))  # seats owing a draw, in order
        self._hidden = False  # a robot's view: the bag's order is unknown, nothing is drawn
        self._legal: list[Placement] | None = None  # legal placements now (cache)
        self._recording = True
        self._record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "options": options.to_json(),
            "seats": [s.to_json() for s in seats],
            "seed": seed,
            "robot_seed": robot_seed,
            "bag": None if options.physical_bag else list(bag),
            "start": None,
            "hands": None,
            "starter": None,
            "events": [],
            "result": None,
        }
        if start is not None:
            board, hands, turn = start
            self.board = board.copy()
            self.board.bag = len(bag)
            self.hands = [list(h) for h in hands]
            self._due = []
            self.phase, self.turn, self.step, self.starter = Phase.PLAY, turn, Step.FILL, turn
            self._record.update(starter=turn, hands=[list(h) for h in hands],
                                start={"position": board.to_json(), "hands": [list(h) for h in hands],
                                       "bag": list(self._bag), "turn": turn})
        self._advance()

    # ------------------------------------------------------------------------ creating

    @classmethod
    def new(cls, players: int = 2, colours: str | None = None, robots: Sequence[str | None] | None = None,
            *, doubles: bool = False, end: EndRule | str = EndRule.ALL_PLACED, physical_bag: bool = False,
            seed: int | None = None, bag: Sequence[int] | None = None, robot_seed: int | None = None,
            ) -> StrategyGame:
        """A new game from the opening draw.

        ``colours`` has one colour per player, or per team in Doubles (default ``"RYGB"`` cut to
        size); ``robots`` one entry per seat, None for a person. The engine's bag is ``bag`` (draw
        order) or else shuffled from ``seed``; with ``physical_bag`` the caller reports every draw.
        """
        options, seats = _table(players, colours, robots, doubles, end, physical_bag)
        if bag is None:
            order = list(ALL_NUMBERS)
            random.Random(seed).shuffle(order)
        else:
            order = list(bag)
            if sorted(order) != list(ALL_NUMBERS):
                raise ValueError("a bag must hold each of the 56 tiles once")
        if robot_seed is None:
            robot_seed = random.Random(f"robots:{seed}").randrange(1 << 30) if seed is not None else \
                random.randrange(1 << 30)
        return cls(options, seats, order, seed=seed, robot_seed=robot_seed)

    @classmethod
    def from_position(cls, position: Board | dict[str, Any], hands: Sequence[Sequence[int]], bag: Sequence[int],
                      turn: int = 0, colours: str | None = None, robots: Sequence[str | None] | None = None, *,
                      doubles: bool = False, end: EndRule | str = EndRule.ALL_PLACED,
                      physical_bag: bool = False, robot_seed: int = 0) -> StrategyGame:
        """A game that starts in a given situation: a position, the hands, the bag (draw order) and
        the seat to move, at step 1 of its turn. Tiles in none of them are out of the game. For
        tests, puzzles and lessons; its record starts from this situation."""
        board = position if isinstance(position, Board) else Board.from_json(position)
        players = len(hands)
        options, seats = _table(players, colours, robots, doubles, end, physical_bag)
        used = [p.tile for p in board.placements()] + [t for h in hands for t in h] + list(bag)
        if len(used) != len(set(used)) or not set(used) <= set(ALL_NUMBERS):
            raise ValueError("the board, the hands and the bag must not share a tile (tiles are 1..56)")
        if any(len(h) > HAND_SIZE for h in hands):
            raise ValueError(f"a hand holds at most {HAND_SIZE} tiles")
        if bag and not all(hands):
            raise ValueError("while the bag holds tiles every hand holds some (replacements keep it so)")
        if not 0 <= turn < players:
            raise ValueError(f"turn must be a seat 0..{players - 1}")
        return cls(options, seats, bag, robot_seed=robot_seed, start=(board, [list(h) for h in hands], turn))

    # ----------------------------------------------------------------------- reading

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def awaiting_draw(self) -> int | None:
        """The seat that must draw a tile from the physical bag and report it, or None."""
        if self._due and (self.options.physical_bag or self._hidden) and self.phase is not Phase.OVER:
            return self._due[0]
        return None

    @property
    def bag_count(self) -> int:
        return len(self._bag)

    def unseen(self) -> list[int]:
        """The tiles still in the bag, sorted: what every player can work out, never their order."""
        return sorted(self._bag)

    def colour_of(self, seat: int) -> str:
        return self.seats[seat].colour

    def colours(self) -> list[str]:
        """The colours in play, one per player or team, in seat order."""
        return list(dict.fromkeys(s.colour for s in self.seats))

    def legal(self) -> list[Placement]:
        """Every placement the seat to move may make now (in a fill step: exactly the obligatory
        ones). Empty when no placement is awaited (draw pending, game over, opening draw)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def obligatory(self) -> list[Placement]:
        """The placements that must be made now: forced-space fills in step 1 or 3, else none."""
        return self.legal() if self.step in FILL_STEPS else []

    def forced_cells(self) -> list[Cell]:
        """Forced spaces the player to move must fill now (with some tile of their hand)."""
        return sorted({p.cell for p in self.obligatory()}, key=lambda c: (c[1], c[0]))

    def scores(self) -> dict[str, int]:
        """Each colour in play's score now: max(longest line, 2 x longest loop)."""
        return {c: self.board.score(c) for c in self.colours()}

    def review(self) -> list[ForcedReview]:
        """For every forced space: the unseen tiles that fit it now and those that will fit in the
        endgame (the board's own fitting test, under the restrictions while the bag holds tiles, and
        without them)."""
        unseen = self.unseen()
        return [ForcedReview(s.cell, s.pattern, tuple(self.board.fitting_tiles(s.cell, unseen)),
                             tuple(self.board.fitting_tiles(s.cell, unseen, False)))
                for s in self.board.forced_spaces()]

    def record(self) -> dict[str, Any]:
        """The game's record so far (engine.strategy.record replays it): options, seats, seed and bag, the
        initial hands, every draw, placement, skip and seat change, and the result."""
        record = dict(self._record)
        record["events"] = list(self._record["events"])
        return record

    def _compute_legal(self) -> list[Placement]:
        if self.phase is not Phase.PLAY or self._due or self.turn is None:
            return []
        hand = self.hands[self.turn]
        if self.step in FILL_STEPS:
            forced = [s.cell for s in self.board.forced_spaces()]
            return self.board.legal_placements(hand, forced) if forced else []
        return self.board.legal_placements(hand)

    # ----------------------------------------------------------------------- acting

    def legal_actions(self) -> list[Place | Draw]:
        """What may be done now: the seat to move's :meth:`legal` placements, or, when a draw from
        the physical bag is owed, drawing any unseen tile."""
        due = self.awaiting_draw
        if due is not None and not self._hidden:
            return [Draw(t, due) for t in self.unseen()]
        return [Place(p, self.turn) for p in self.legal()]

    def check(self, action: Action) -> Refused | None:
        """None when ``action`` may be done now, otherwise why not. A placement: ``game-over``,
        ``draw-pending``, ``not-playing``, ``not-your-turn`` (``seat``, when given, must be the seat
        to move), ``not-in-hand``, ``must-fill-forced`` or the board's rule; a draw: ``no-draw-due``,
        ``not-your-draw``, ``not-in-bag``. The one predicate :meth:`apply` and the kiosk's hover
        both ask; it changes nothing."""
        place = placing(action)
        if place is not None:
            return self._placement_refusal(Placement(*place.placement), place.seat)
        if isinstance(action, Draw):
            return self._draw_refusal(action)
        if isinstance(action, Undo):
            return Refused(Play.NO_UNDO, "in the strategy game a tile stays where it is put")
        raise TypeError(f"not a strategy game action: {action!r}")

    def apply(self, action: Action) -> None:
        """Do ``action``; raises the :class:`Refused` of :meth:`check`, and then changes nothing."""
        refusal = self.check(action)
        if refusal is not None:
            raise refusal
        place = placing(action)
        if place is not None:
            self._apply(Placement(*place.placement))
        elif isinstance(action, Draw):
            self._draw(action.tile)
            self._changed()

    def place(self, placement: Placement, seat: int | None = None) -> None:
        """Place a tile for the seat to move (``seat``, when given, must be that seat): what
        ``apply(Place(placement, seat))`` does, without building the action (robots' searches
        place thousands of tiles)."""
        placement = Placement(*placement)
        refusal = self._placement_refusal(placement, seat)
        if refusal is not None:
            raise refusal
        self._apply(placement)

    def _placement_refusal(self, placement: Placement, seat: int | None) -> Refused | None:
        refusal = self.turn_refusal(seat)
        if refusal is not None:
            return refusal
        return None if placement in self.legal() else self._refusal(placement)

    def turn_refusal(self, seat: int | None = None) -> Refused | None:
        """Why no placement is awaited now (from ``seat``, when given), or None."""
        if self.phase is Phase.OVER:
            return Refused(Play.GAME_OVER, "the game is over")
        if self._due:
            who = self._due[0]
            return Refused(StrategyRule.DRAW_PENDING, f"seat {who} must first draw a tile from the bag")
        if self.phase is not Phase.PLAY or self.turn is None:
            return Refused(StrategyRule.NOT_PLAYING, "the opening draw is not finished")
        if seat is not None and seat != self.turn:
            return Refused(Play.NOT_YOUR_TURN, f"it is seat {self.turn}'s turn, not seat {seat}'s")
        return None

    def _refusal(self, placement: Placement) -> Refused:
        """Why ``placement`` is not among the legal ones: hand, step or the board's rule."""
        assert self.turn is not None
        if placement.tile not in self.hands[self.turn]:
            return Refused(Play.NOT_IN_HAND, f"tile {placement.tile} is not in the hand of seat {self.turn}")
        if self.step in FILL_STEPS and not self.board.is_forced(placement.cell):
            return Refused(Play.MUST_FILL_FORCED,
                           "a tile in your hand fits a forced space: fill it before anything else",
                           tuple(self.forced_cells()))
        violation = self.board.check(placement)
        if violation is not None:
            return violation
        raise AssertionError(f"{placement} passes every rule but is not legal now")  # pragma: no cover

    def _apply(self, placement: Placement) -> None:
        assert self.turn is not None
        seat = self.turn
        forced = self.board.is_forced(placement.cell)
        self.hands[seat].remove(placement.tile)
        self.board.push(placement)
        self._log({"place": seat, **placement.to_json(), "forced": forced})
        if self.step is Step.FREE:
            self.step = Step.FILL_AGAIN
        if self._bag:
            self._due.append(seat)
        elif not self.hands[seat]:
            self._next_turn()  # the last tile of the hand: nothing is left to do this turn
        self._changed()

    def report_draw(self, tile: int, seat: int | None = None) -> None:
        """The seat owing a draw (:attr:`awaiting_draw`) drew ``tile`` from the physical bag:
        ``apply(Draw(tile, seat))``. A tile that is not in the bag, or a draw nobody owes, is
        refused and changes nothing."""
        self.apply(Draw(tile, seat))

    def _draw_refusal(self, draw: Draw) -> Refused | None:
        if self.awaiting_draw is None or self._hidden:
            return Refused(StrategyRule.NO_DRAW_DUE, "nobody has to draw a tile now")
        if draw.seat is not None and draw.seat != self._due[0]:
            return Refused(StrategyRule.NOT_YOUR_DRAW, f"seat {self._due[0]} must draw now, not seat {draw.seat}")
        tile = draw.tile
        if isinstance(tile, bool) or not isinstance(tile, int) or tile not in self._bag:
            return Refused(StrategyRule.NOT_IN_BAG, f"tile {tile} is not in the bag: {self._where(tile)}")
        return None

    def _where(self, tile: object) -> str:
        if not isinstance(tile, int) or isinstance(tile, bool) or not 1 <= tile <= 56:
            return "tiles are numbered 1 to 56"
        if tile in self.board.placed_tiles():
            return "it is already on the board"
        for seat, hand in enumerate(self.hands):
            if tile in hand:
                return f"it is in the hand of seat {seat}"
        return "it is out of this game"

    def set_robot(self, seat: int, robot: str | None) -> None:
        """Let a robot level take over ``seat`` (or give it back to a person with None), any time.
        Only the built-in levels: an external robot (``cmd:``) runs a program, so it is handed to
        :func:`engine.strategy.robots.robot_move` from the command line and never kept in a game's state or record."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise Refused(StrategyRule.NO_SUCH_SEAT, f"there is no seat {seat!r}")
        if robot is not None:
            _level(robot)
        self.seats[seat] = Seat(self.seats[seat].colour, robot)
        self._log({"seat": seat, "robot": robot})

    def time_penalty(self, seat: int) -> None:
        """``seat`` has incurred one more time penalty (its clock, engine.clock, passed the limit
        or a further full minute): one point off its colour's final score, and in a game of two
        sides one point more for the other side. The game goes on."""
        self._timed(seat)
        self._log({"late": seat})

    def time_out(self, seat: int) -> None:
        """``seat``'s time is up and the table plays "loss on time": the game ends now and the
        seat's colour (its team in Doubles) loses; the best of the others wins (none if tied)."""
        self._timed(seat)
        self._log({"time": seat})
        self._finish("time", out=self.seats[seat].colour)

    def places(self) -> dict[str, int]:
        """The finished game's places per colour (:func:`places`, a loss on time counted);
        ValueError while it goes on."""
        if self.result is None:
            raise ValueError("the game is not over: it has no places yet")
        return places(self.result, lost_on_time(self._record))

    def penalties(self) -> list[int]:
        """Time penalties so far per seat (see :meth:`time_penalty`)."""
        late = [0] * self.players
        for event in self._record["events"]:
            if "late" in event:
                late[event["late"]] += 1
        return late

    def _timed(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise Refused(StrategyRule.NO_SUCH_SEAT, f"there is no seat {seat!r}")
        if self.phase is Phase.OVER:
            raise Refused(Play.GAME_OVER, "the game is over")

    # ---------------------------------------------------------------- what robots see

    def robot_rng(self) -> random.Random:
        """The random source for the robot choosing now: fixed by the robot seed and the moment,
        so a game replays its robots' choices exactly, even after a restore."""
        return random.Random(f"{self.robot_seed}:{len(self.board)}:{self.turn}:{len(self._bag)}")

    def view(self) -> StrategyGame:
        """A copy holding exactly what a player at the table knows: the bag's contents are unseen
        and unordered (placing in it leaves a draw pending), and its record has no seed or bag.
        It records nothing further."""
        other = self._copy()
        other._bag = sorted(self._bag)
        other._hidden = True
        other.robot_seed = 0  # the default robot seed derives from the bag's seed: not for robots
        other._record = {**self._record, "seed": None, "robot_seed": None, "bag": None,
                         "events": list(self._record["events"])}
        return other

    def sample(self, rng: random.Random) -> StrategyGame:
        """A copy that goes on with the unseen tiles drawn in a random order (a determinization):
        how robots try out the future without knowing the real bag."""
        other = self._copy()
        rng.shuffle(other._bag)
        other._hidden = False
        other.options = Options(self.players, self.options.doubles, self.options.end, False)
        other._advance()
        return other

    def _copy(self) -> StrategyGame:
        other = object.__new__(StrategyGame)
        other.options = self.options
        other.seats = list(self.seats)
        other.board = self.board.copy()
        other.hands = [list(h) for h in self.hands]
        other._bag = list(self._bag)
        other.phase, other.turn, other.step, other.starter = self.phase, self.turn, self.step, self.starter
        other.result = self.result
        other.robot_seed = self.robot_seed
        other._due = list(self._due)
        other._hidden = self._hidden
        other._legal = self._legal
        other._recording = False
        other._record = self._record
        return other

    # ------------------------------------------------------------------- the machinery

    def _log(self, event: dict[str, Any]) -> None:
        if self._recording:
            self._record["events"].append(event)

    def _note(self, name: str, value: Any) -> None:
        if self._recording:
            self._record[name] = value

    def _changed(self) -> None:
        self._legal = None
        self._advance()

    def _draw(self, tile: int) -> None:
        seat = self._due.pop(0)
        self._bag.remove(tile)
        self.board.bag = len(self._bag)  # the restrictions lift the moment the bag empties
        self.hands[seat].append(tile)
        self._log({"draw": seat, "tile": tile})

    def _advance(self) -> None:
        """Do everything that needs no decision, until a player must act or the game is over."""
        while self.phase is not Phase.OVER:
            if self._due:
                if self.options.physical_bag or self._hidden:
                    return
                self._draw(self._bag[0])
                continue
            if self.phase is Phase.OPENING:
                self.starter = max(range(self.players), key=lambda s: self.hands[s][0])
                self._due = [(self.starter + i) % self.players
                             for i in range(self.players) for _ in range(HAND_SIZE - 1)]
                self.phase = Phase.DEAL
                self._note("starter", self.starter)
                continue
            if self.phase is Phase.DEAL:
                self.phase, self.turn, self.step = Phase.PLAY, self.starter, Step.FILL
                self._note("hands", [list(h) for h in self.hands])
                continue
            assert self.turn is not None
            if not self._bag:
                if self.options.end is EndRule.FIRST_OUT and not all(self.hands):
                    self._finish(EndRule.FIRST_OUT.value)
                    return
                if not any(self.hands):
                    self._finish(EndRule.ALL_PLACED.value)
                    return
            if not self.hands[self.turn]:  # only ever at the start of a turn (see _apply)
                self._log({"skip": self.turn})
                self._next_turn()
                continue
            if self.legal():
                return
            if self.step is Step.FILL:
                self.step = Step.FREE
                self._legal = None
            elif self.step is Step.FILL_AGAIN:
                self._next_turn()
            else:
                self._finish("deadlock")
                return

    def _next_turn(self) -> None:
        assert self.turn is not None
        self.turn = (self.turn + 1) % self.players
        self.step = Step.FILL
        self._legal = None

    def _finish(self, reason: str, out: str | None = None) -> None:
        """End the game: the scores less time penalties; ``out`` (a colour) lost on time."""
        colours = self.colours()
        late = dict.fromkeys(colours, 0)
        for seat, count in enumerate(self.penalties()):
            late[self.seats[seat].colour] += count
        scores = dict(zip(colours, penalised_scores([self.board.score(c) for c in colours], list(late.values()))))
        best = max(s for c, s in scores.items() if c != out)
        leaders = [c for c, s in scores.items() if s == best and c != out]
        winner = leaders[0] if reason != "deadlock" and len(leaders) == 1 else None
        self.result = Result(reason, scores, winner)
        self.phase, self.turn, self.step = Phase.OVER, None, None
        self._legal = []
        self._note("result", self.result.to_json())

    # ------------------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The complete state: options, seats (with robot levels), the position, hands, the bag in
        its order, draws owed, phase, turn and step, and the record so far."""
        return {
            "options": self.options.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "phase": str(self.phase),
            "turn": self.turn,
            "step": None if self.step is None else str(self.step),
            "starter": self.starter,
            "board": self.board.to_json(),
            "hands": [list(h) for h in self.hands],
            "bag": list(self._bag),
            "due": list(self._due),
            "robot_seed": self.robot_seed,
            "result": None if self.result is None else self.result.to_json(),
            "record": self.record(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StrategyGame:
        """Rebuild a saved game; ValueError names what is wrong with bad data."""
        try:
            return cls._from_json(data)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"saved strategy game is incomplete or malformed: {exc!r}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> StrategyGame:
        options = Options.from_json(data["options"])
        seats = [_seat(s) for s in data["seats"]]
        if len(seats) != options.players:
            raise ValueError(f"{options.players} players need {options.players} seats")
        try:
            board = Board.from_json(data["board"])
        except PositionError as exc:
            raise ValueError(f"saved board: {exc}") from None
        hands = [[_tile(t) for t in h] for h in data["hands"]]
        bag = [_tile(t) for t in data["bag"]]
        used = [p.tile for p in board.placements()] + [t for h in hands for t in h] + bag
        if len(used) != len(set(used)):
            raise ValueError("a tile is in two places (board, hands, bag)")
        if len(hands) != options.players or any(len(h) > HAND_SIZE for h in hands):
            raise ValueError("one hand of at most six tiles per seat")
        if board.bag != len(bag):
            raise ValueError(f"the board counts {board.bag} tiles in the bag but the bag holds {len(bag)}")
        game = object.__new__(cls)
        game.options, game.seats, game.board = options, seats, board
        game.hands, game._bag = hands, bag
        game.phase = Phase(data["phase"])
        game.turn = _seat_number(data["turn"], options.players, allow_none=True)
        game.step = None if data["step"] is None else Step(data["step"])
        game.starter = _seat_number(data["starter"], options.players, allow_none=True)
        game._due = [_seat_number(s, options.players) for s in data["due"]]
        game.robot_seed = int(data["robot_seed"])
        game.result = None if data["result"] is None else Result.from_json(data["result"])
        if (game.phase is Phase.PLAY) != (game.turn is not None and game.step is not None):
            raise ValueError("a game in play needs a turn and a step, and only then")
        if (game.phase is Phase.OVER) != (game.result is not None):
            raise ValueError("a finished game needs a result, and only then")
        record = data["record"]
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise ValueError(f"saved record must be a {RECORD_FORMAT} object")
        game._record = dict(record)
        game._record["events"] = list(record["events"])
        game._hidden, game._legal, game._recording = False, None, True
        return game


def _tile(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 56:
        raise ValueError(f"{value!r} is not a tile number 1..56")
    return value


def _seat_number(value: Any, players: int, allow_none: bool = False) -> Any:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise ValueError(f"{value!r} is not a seat 0..{players - 1}")
    return value


def _seat(data: Any) -> Seat:
    if not isinstance(data, dict) or data.get("colour") not in tuple(COLOURS):
        raise ValueError(f"a seat needs a colour of {COLOURS}: {data!r}")
    robot = data.get("robot")
    return Seat(data["colour"], None if robot is None else _level(robot))


def _level(robot: Any) -> str:
    """``robot`` if it is a built-in robot level; ValueError for anything else, ``cmd:`` robots
    included: a saved game or a record must never start a program (write access to the card would
    become code execution)."""
    if robot not in LEVELS:
        raise ValueError(f"unknown robot {str(robot)[:60]!r}: a seat's robot is one of {', '.join(LEVELS)} or "
                         f"null (external robots are given on the command line only)")
    return str(robot)


def seats_of(game: StrategyGame, colour: str) -> list[int]:
    """The seats playing ``colour`` (two partners in Doubles)."""
    return [i for i, s in enumerate(game.seats) if s.colour == colour]


def opponents(game: StrategyGame, colour: str) -> list[str]:
    return [c for c in game.colours() if c != colour]
