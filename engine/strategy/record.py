"""Game records: replaying one re-validates every step with the rules.

A strategy game's record (``StrategyGame.record()``) is JSON: the rule options, the seats with their
colours and robot levels, the seed and the bag order (or none, with a physical bag), the initial
hands, and the events in order:

* ``{"draw": seat, "tile": t}``: the seat drew tile t (the opening draw, the deal, replacements);
* ``{"place": seat, "tile": t, "q": q, "r": r, "rot": k, "forced": bool}``: a placement, and
  whether it filled a forced space;
* ``{"skip": seat}``: the seat was passed over, its hand being empty (endgame);
* ``{"seat": seat, "robot": level or null}``: a robot took the seat over, or gave it back;
* ``{"late": seat}``: the seat's clock incurred one time penalty (engine.clock);
* ``{"time": seat}``: the seat's time ran out and it lost on time (the game ends);

and the result (reason, scores per colour, winner or null for a draw). :func:`replay` plays the
events on a fresh game built from the record's header, so it checks them with exactly the rules the
game itself uses: the draws a game makes by itself (engine's bag, skips) must match, every placement
and reported draw must be legal, and the record's end must be the game's.
"""

from __future__ import annotations

from typing import Any

from ..board import Board, Placement, PositionError
from .game import RECORD_FORMAT, Options, StrategyGame
from ..modes import Refused
from ..tiles import ALL_NUMBERS


class RecordError(ValueError):
    """A record that does not replay: ``step`` is the 1-based number of the offending event
    (0 for the header or the end), ``rule`` the rule code it breaks."""

    def __init__(self, step: int, rule: str, message: str) -> None:
        where = f"step {step}" if step else "record"
        super().__init__(f"{where}: {rule}: {message}")
        self.step = step
        self.rule = rule
        self.message = message


def replay(record: Any) -> StrategyGame:
    """The game a record describes, replayed step by step; :class:`RecordError` for the first
    step that breaks a rule or does not match what the game does."""
    game = _start(record)
    events = record.get("events")
    if not isinstance(events, list):
        raise RecordError(0, "bad-record", "\"events\" must be a list")
    for step, event in enumerate(events, 1):
        done = game.record()["events"]
        if len(done) < step:
            _act(game, step, event)
            done = game.record()["events"]
        if len(done) < step or done[step - 1] != event:
            happened = done[step - 1] if len(done) >= step else "nothing (the game waits for a placement)"
            raise RecordError(step, "mismatch", f"the record says {event} but the game did {happened}")
    done = game.record()["events"]
    if len(done) > len(events):
        raise RecordError(len(events) + 1, "unfinished", f"the record stops before the game's {done[len(events)]}")
    expected = record.get("result")
    if expected is not None and not game.finished:
        raise RecordError(len(events) + 1, "unfinished", f"the record has a result but the game goes on: "
                          f"seat {game.turn if game.awaiting_draw is None else game.awaiting_draw} is to act")
    if expected is not None and game.record()["result"] != expected:
        raise RecordError(0, "wrong-result", f"the record says {expected} but the game ends {game.record()['result']}")
    return game


def _act(game: StrategyGame, step: int, event: Any) -> None:
    """Make the action an event describes; the game refuses what the rules do not allow."""
    try:
        if not isinstance(event, dict):
            raise RecordError(step, "bad-event", f"an event must be an object, not {event!r}")
        if "place" in event:
            values = [v for v in (event.get(k) for k in ("tile", "q", "r", "rot"))
                      if isinstance(v, int) and not isinstance(v, bool)]
            if len(values) != 4:
                raise RecordError(step, "bad-event", f"a placement needs whole numbers tile, q, r, rot: {event}")
            game.place(Placement(*values), seat=event["place"])
        elif "draw" in event and game.awaiting_draw is not None:
            game.report_draw(event.get("tile"), seat=event["draw"])  # type: ignore[arg-type]
        elif "seat" in event:
            game.set_robot(event["seat"], event.get("robot"))
        elif "late" in event:
            game.time_penalty(event["late"])
        elif "time" in event:
            game.time_out(event["time"])
        else:
            raise RecordError(step, "mismatch", f"the game did not do {event} by itself")
    except Refused as refused:
        raise RecordError(step, refused.rule, refused.message) from None
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(step, "bad-event", str(exc)) from None


def _start(record: Any) -> StrategyGame:
    """A fresh game from the record's header."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(0, "bad-record", f"a record is an object with \"format\": \"{RECORD_FORMAT}\"")
    try:
        options = Options.from_json(record.get("options"))
        seats = record.get("seats")
        if not isinstance(seats, list):
            raise ValueError("\"seats\" must be a list")
        colours = "".join(s.get("colour", "?") if isinstance(s, dict) else "?" for s in seats)
        if options.doubles:
            if colours[2:] != colours[:2]:
                raise ValueError("in Doubles partners (seats 0 and 2, 1 and 3) share a colour")
            colours = colours[:2]
        robots = [s.get("robot") for s in seats]
        robot_seed = record.get("robot_seed") or 0
        start = record.get("start")
        if start is not None:
            board = Board.from_json(start.get("position"))
            return StrategyGame.from_position(
                board, start.get("hands"), start.get("bag"), start.get("turn"), colours, robots,
                doubles=options.doubles, end=options.end, physical_bag=options.physical_bag,
                robot_seed=robot_seed)
        bag = record.get("bag")
        seed = record.get("seed")
        if options.physical_bag:
            bag = list(ALL_NUMBERS)
        elif bag is None:
            if seed is None:
                raise ValueError("a record of a game with the engine's bag needs its \"bag\" or \"seed\"")
            return StrategyGame.new(options.players, colours, robots, doubles=options.doubles, end=options.end,
                                    seed=seed, robot_seed=robot_seed)
        return StrategyGame.new(options.players, colours, robots, doubles=options.doubles, end=options.end,
                                physical_bag=options.physical_bag, bag=bag, robot_seed=robot_seed,
                                seed=seed)
    except (PositionError, ValueError, TypeError, AttributeError) as exc:
        raise RecordError(0, "bad-record", str(exc)) from None


def summary(game: StrategyGame) -> dict[str, Any]:
    """The final position, scores and result of a (replayed) game, as the CLI prints them."""
    return {
        "position": game.board.to_json(),
        "scores": game.scores(),
        "result": None if game.result is None else game.result.to_json(),
        "seats": [s.to_json() for s in game.seats],
        "placements": len(game.board),
    }
