"""Strategy-game commands of ``python -m engine``: play a robots-only game, replay a record, play a
robot match. Each prints one JSON document (engine.cli)."""

from __future__ import annotations

import argparse
from typing import Any

from ..commandline import CliError, load_json, positive
from .game import EndRule, StrategyGame
from .match import RobotFailure, match, play_game
from .record import RecordError, replay, summary
from .robots import LEVELS, make_robot


def _robot_list(text: str, players: int, doubles: bool) -> list[str]:
    """One robot per seat from ``a,b[,c,d]``; in Doubles one per team is enough (partners alike)."""
    specs = _split(text)
    if doubles and len(specs) == 2:
        specs = specs * 2
    if len(specs) != players:
        raise CliError(f"--robots needs {players} robots (one per seat{', or one per team' if doubles else ''}), "
                       f"not {len(specs)}")
    return specs


def _play(args: argparse.Namespace) -> Any:
    if args.doubles and args.players not in (None, 4):
        raise CliError(f"Doubles is played by 4 players (two teams of two), not --players {args.players}")
    players = 4 if args.doubles else args.players or 2
    specs = _robot_list(args.robots, players, args.doubles)
    try:
        robots = [make_robot(s, args.budget, args.timeout) for s in specs]
        game = StrategyGame.new(players, args.colours, specs, doubles=args.doubles, end=args.end,
                                seed=args.seed)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        play_game(game, robots)
    except RobotFailure as failure:
        raise CliError(str(failure)) from None
    finally:
        for robot in robots:
            close = getattr(robot, "close", None)
            if close is not None:
                close()
    return game.record()


def _replay(args: argparse.Namespace) -> Any:
    try:
        game = replay(load_json(args.record))
    except RecordError as exc:
        raise CliError(f"{args.record}: {exc}") from None
    return {"valid": True, **summary(game)}


def _match(args: argparse.Namespace) -> Any:
    specs = _split(args.robots)
    seed = 0 if args.seed is None else args.seed
    try:
        return match(specs, args.games, seed, doubles=args.doubles, end=args.end, budget=args.budget,
                     timeout=args.timeout)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _split(text: str) -> list[str]:
    """Robots separated by commas, where a ``cmd:`` robot takes the rest of its item up to the next
    ``,name`` or ``,cmd:`` (command lines may not contain a comma followed by a robot name)."""
    parts = text.split(",")
    specs: list[str] = []
    for part in parts:
        if specs and specs[-1].startswith("cmd:") and not (part.strip() in LEVELS or part.strip().startswith("cmd:")):
            specs[-1] += "," + part
        else:
            specs.append(part.strip())
    return specs


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--robots", required=True,
                       help="comma-separated robots: beginner, club, expert, master or cmd:<command line>")
        p.add_argument("--seed", type=int, default=None, help="seed of the bag (and of the robots)")
        p.add_argument("--doubles", action="store_true", help="4 players in two teams, partners opposite")
        p.add_argument("--end", choices=[e.value for e in EndRule], default=EndRule.ALL_PLACED.value,
                       help="all tiles placed (default) or the first player out (English booklet)")
        p.add_argument("--budget", type=positive(float), default=None, help="safety cap on the expert's and master's thinking time per placement, s")
        p.add_argument("--timeout", type=positive(float), default=None, help="external robot's answer time limit, s")

    p = sub.add_parser("play", help="play a robots-only strategy game and print its record",
                       description="Play a robots-only strategy game and print its record.")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None, help="2 (default), 3 or 4; Doubles: 4")
    p.add_argument("--colours", default=None, help="one colour per player (per team in Doubles), e.g. RB")
    common(p)
    p.set_defaults(run=_play)

    p = sub.add_parser("replay", help="validate a game record and print the final position and scores",
                       description="Validate a game record step by step; print the final position and scores.")
    p.add_argument("record", help="record JSON file (from 'play' or the kiosk)")
    p.set_defaults(run=_replay)

    p = sub.add_parser("match", help="play a robot match and print wins, draws, scores and move times",
                       description="Play many robot games (seats rotate over shared bags) and print the results.")
    p.add_argument("--games", type=positive(int), default=100)
    common(p)
    p.set_defaults(run=_match)
