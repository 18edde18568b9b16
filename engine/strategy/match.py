"""Robot matches: many games between robots, with wins, draws, scores and move times.

Games come in blocks that share one bag: within a block the robots rotate through the seats, so
each robot gets every seat's tiles (and so the start) once. Playing the same tiles both ways
("duplicate" play) takes much of Tantrix's luck out of a comparison. A robot that answers badly
or not at all (an external program) loses that game, and the match reports why.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..actions import Refused
from ..board import Placement
from ..intervals import wilson
from .game import StrategyGame
from .robots import Robot, make_robot


class RobotFailure(Exception):
    """A robot broke the game: no answer, a bad answer, or a crash (carries who and why)."""

    def __init__(self, seat: int, name: str, reason: str) -> None:
        super().__init__(f"seat {seat} ({name}): {reason}")
        self.seat, self.name, self.reason = seat, name, reason


@dataclass
class Tally:
    """One robot's results over a match: its win rate with the Wilson 95 % interval (how far
    the true rate may lie from what these games showed) and its share of the points (a draw is
    half a point)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    scores: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "forfeits": self.forfeits,
            "win_rate": round(self.wins / self.games, 3) if self.games else None,
            "win_rate_ci95": wilson(self.wins, self.games) if self.games else None,
            "points_share": round((self.wins + self.draws / 2) / self.games, 3) if self.games else None,
            "mean_score": round(statistics.fmean(self.scores), 2) if self.scores else None,
            "moves": len(self.times),
            "mean_move_ms": round(1000 * statistics.fmean(self.times), 2) if self.times else None,
            "median_move_ms": round(1000 * statistics.median(self.times), 2) if self.times else None,
            "max_move_ms": round(1000 * max(self.times), 2) if self.times else None,
        }


def play_game(game: StrategyGame, robots: Sequence[Robot], times: list[list[float]] | None = None) -> StrategyGame:
    """Play ``game`` to the end with ``robots[seat]`` choosing for each seat; ``times[seat]``
    collects the seconds each choice took. :class:`RobotFailure` when a robot fails."""
    while not game.finished:
        seat = game.turn
        assert seat is not None
        robot = robots[seat]
        view = game.view()
        rng = game.robot_rng()
        start = time.perf_counter()
        try:
            choice = Placement(*robot.choose(view, rng))
        except Exception as exc:  # a robot's own failure must not end the match
            raise RobotFailure(seat, robot.name, f"{type(exc).__name__}: {exc}") from exc
        if times is not None:
            times[seat].append(time.perf_counter() - start)
        try:
            game.place(choice)
        except Refused as refused:
            raise RobotFailure(seat, robot.name, f"illegal placement {tuple(choice)}: {refused}") from None
    return game


def match(specs: Sequence[str], games: int, seed: int = 0, *, doubles: bool = False, end: str = "all-placed",
          budget: float | None = None, timeout: float | None = None) -> dict[str, Any]:
    """Play ``games`` games between the robots named by ``specs`` (one per player; two teams in
    Doubles) and return the JSON summary: per robot wins, draws, losses, mean score, move times."""
    if len(specs) < 2 or len(specs) > 4 or (doubles and len(specs) != 2):
        raise ValueError("a match needs 2 to 4 robots (2 for Doubles, one per team)")
    labels = [s if specs.count(s) == 1 else f"{s}#{i + 1}" for i, s in enumerate(specs)]
    robots = [make_robot(s, budget, timeout) for s in specs]
    seats = 4 if doubles else len(specs)
    tallies = {label: Tally() for label in labels}
    failures: list[dict[str, Any]] = []
    block_seeds = random.Random(seed)
    try:
        for number in range(games):
            rotation = number % len(specs)
            if rotation == 0:
                bag_seed = block_seeds.randrange(1 << 30)
            owner = [(s + rotation) % len(specs) for s in range(seats)]  # robot index per seat
            game = StrategyGame.new(seats, None, [specs[o] for o in owner], doubles=doubles, end=end,
                                    seed=bag_seed, robot_seed=bag_seed + rotation)
            times: list[list[float]] = [[] for _ in range(seats)]
            loser: int | None = None
            try:
                play_game(game, [robots[o] for o in owner], times)
            except RobotFailure as failure:
                loser = owner[failure.seat]
                failures.append({"game": number, "robot": labels[loser], "reason": failure.reason})
            for index, label in enumerate(labels):
                tally = tallies[label]
                tally.games += 1
                for seat in range(seats):
                    if owner[seat] == index:
                        tally.times.extend(times[seat])
                colour = game.colour_of(owner.index(index))
                if loser is not None:
                    if index == loser:
                        tally.losses += 1
                        tally.forfeits += 1
                    else:
                        tally.wins += 1 if len(specs) == 2 else 0
                        tally.draws += 0 if len(specs) == 2 else 1
                    continue
                assert game.result is not None
                tally.scores.append(game.result.scores[colour])
                if game.result.winner == colour:
                    tally.wins += 1
                elif game.result.winner is None and (game.result.reason == "deadlock" or
                                                     game.result.scores[colour] == max(game.result.scores.values())):
                    tally.draws += 1
                else:
                    tally.losses += 1
    finally:
        for robot in robots:
            close = getattr(robot, "close", None)
            if close is not None:
                close()
    return {
        "games": games, "seed": seed, "players": seats, "doubles": doubles, "end": end,
        "robots": {label: tally.to_json() for label, tally in tallies.items()},
        "failures": failures,
    }
