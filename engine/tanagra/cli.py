"""``python -m engine.tanagra``: robot games and record checks on the command line, JSON out.

``play`` plays a robots-only game and prints its record; ``replay`` replays a record through the
referee and prints the final position. Bad input (an option out of range, a record that is not
UTF-8, not JSON, nested too deep or refused by the referee) exits with status 2 and one line on
stderr naming the argument or the record's problem, as every engine program does (engine.cli).
"""

from __future__ import annotations

import argparse
from typing import Any, Sequence

from .. import commandline as cli
from ..commandline import CliError
from .game import Game, RecordError
from .robots import LEVELS, Expert, Robot, make_robot
from .rules import DEFAULT_QUIET_ROUNDS, X_CHOICES, Options, PositionError


def play_game(
    options: Options,
    levels: Sequence[str],
    seed: int = 0,
    time_limit: float | None = None,
    max_depth: int | None = None,
) -> Game:
    """A robots-only game; seat ``i`` plays ``levels[i]``, seeded from ``seed``."""
    settings: dict[str, float] = {}
    if time_limit is not None:
        settings["time_limit"] = time_limit
    if max_depth is not None:
        settings["max_depth"] = max_depth
    robots: list[Robot] = [
        make_robot(level, seed=seed * 1000 + seat, **(settings if LEVELS[level] is Expert else {}))
        for seat, level in enumerate(levels)
    ]
    game = Game(options, [f"robot:{level}" for level in levels])
    while game.result is None:
        game.apply(robots[game.turn].choose(game.state))
    return game


def _play(args: argparse.Namespace) -> Any:
    levels = [level.strip() for level in args.robots.split(",")]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise CliError(f"argument --robots: unknown robot level {unknown[0][:40]!r} (choose from {', '.join(LEVELS)})")
    if len(levels) != args.players:
        raise CliError(f"argument --robots: {len(levels)} robots named for {args.players} players (one per seat)")
    try:
        options = Options(players=args.players, x=args.x, quiet_rounds=args.quiet_rounds)
    except PositionError as exc:
        raise CliError(str(exc)) from None
    return play_game(options, levels, args.seed, args.time, args.depth).to_json()


def _replay(args: argparse.Namespace) -> Any:
    record = cli.load_json(args.record)
    try:
        game = Game.from_json(record)
    except RecordError as exc:
        raise CliError(f"{args.record}: {exc}") from None
    return {"actions": len(game.actions), "final": game.state.to_json()}


def build_parser() -> argparse.ArgumentParser:
    parser = cli.OneLineParser(prog="python -m engine.tanagra", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("play", help="a robots-only game; prints its JSON record")
    p.set_defaults(run=_play)
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    p.add_argument("--robots", required=True, help=f"one level per seat, comma-separated ({', '.join(LEVELS)})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--x", type=int, default=4, choices=X_CHOICES, help="pawns per player (per size with 2 players)")
    p.add_argument("--quiet-rounds", type=cli.positive(int), default=DEFAULT_QUIET_ROUNDS)
    p.add_argument("--time", type=cli.positive(float), default=None, help="expert seconds per move")
    p.add_argument("--depth", type=cli.positive(int), default=None, help="expert search depth cap, in turns")
    p = sub.add_parser("replay", help="replay a record through the referee; prints the final position")
    p.set_defaults(run=_replay)
    p.add_argument("record", help="record JSON file (as printed by play)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(build_parser(), argv)
