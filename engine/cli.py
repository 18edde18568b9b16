"""The engine's command line: JSON in, JSON out, so other programs and checks can rely on it.

Every command prints one JSON document on stdout. Bad input (unreadable file, bad JSON, an unknown
or repeated tile, overlapping cells, a broken golden rule) exits with status 2 and one line on
stderr naming the problem; so does input too deep or too large for Python to take (JSON nested
thousands deep, a number of thousands of digits), and input the engine refuses in a way no rule
names (a value of the wrong type deep inside a record): never a traceback. Other parts of the engine
add their commands (:func:`build_parser` imports them): each such module has
``add_commands(subparsers)`` and its parsers set ``run`` to a function taking the parsed arguments
and returning the JSON-able result.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

from .board import Board, PositionError
from .strategy.playout import playout
from .tiles import ALL_NUMBERS, COLOURS, TILES

class CliError(Exception):
    """A problem with the command's input, reported as one line and exit status 2."""


def load_json(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: bad JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise CliError(f"{path}: JSON nested too deep") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4300 digits)
        raise CliError(f"{path}: bad JSON: {str(exc)[:100]}") from None


def load_position(path: str) -> Board:
    try:
        return Board.from_json(load_json(path))
    except (PositionError, ValueError, TypeError) as exc:
        raise CliError(f"{path}: {exc}") from None


def parse_tiles(text: str) -> list[int]:
    """``"5,17,33"`` -> [5, 17, 33]; unknown or repeated numbers are refused."""
    tiles: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit() and len(part) <= 2 and 1 <= int(part) <= 56):
            shown = part if len(part) <= 20 else part[:17] + "..."
            raise CliError(f"unknown tile {shown!r} (tiles are 1..56)")
        if int(part) in tiles:
            raise CliError(f"tile {part} is listed twice")
        tiles.append(int(part))
    return tiles


def positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a finite number above zero of ``kind`` (int or float)."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}") from None
        if not (0 < value < float("inf")):  # NaN fails this too
            raise argparse.ArgumentTypeError(f"expected a number above 0, got {text[:40]!r}")
        return value

    parse.__name__ = f"positive {kind.__name__}"
    return parse


def _tiles(args: argparse.Namespace) -> Any:
    return [{"number": t.number, "back": t.back, "edges": t.edges} for t in TILES]


def analyse(board: Board) -> dict[str, Any]:
    """The position's status (the restrictions it already breaks while the bag holds tiles: a
    position no game reaches; empty for every real one), forced spaces (with how many unplaced
    tiles fit them now and in the endgame), holes, every line and loop per colour, and the scores."""
    unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
    return {
        "tiles": len(board),
        "bag": board.bag,
        "status": [{"rule": str(v.rule), "cells": [list(c) for c in v.cells], "why": v.message}
                   for v in board.problems()],
        "forced": [
            {
                "q": s.q,
                "r": s.r,
                "pattern": s.pattern,
                "fits_now": len(board.fitting_tiles(s.cell, unplaced)),
                "fits_endgame": len(board.fitting_tiles(s.cell, unplaced, restricted=False)),
            }
            for s in board.forced_spaces()
        ],
        "holes": [{"q": q, "r": r} for group in board.holes() for q, r in group],
        "lines": {
            c: [{"length": line.length, "loop": line.loop, "cells": [list(x) for x in line.cells]}
                for line in board.lines(c)]
            for c in COLOURS
        },
        "scores": board.scores(),
    }


def _analyse(args: argparse.Namespace) -> Any:
    return analyse(load_position(args.position))


def _moves(args: argparse.Namespace) -> Any:
    board = load_position(args.position)
    hand = parse_tiles(args.hand)
    for t in hand:
        if t in board.placed_tiles():
            raise CliError(f"tile {t} is in the hand but already on the board")
    return {
        "placements": [
            {**p.to_json(), "forced": board.is_forced(p.cell)}
            for p in board.legal_placements(hand)
        ]
    }


def _demo(args: argparse.Namespace) -> Any:
    board = playout(random.Random(args.seed))
    return {"position": board.to_json(), "analysis": analyse(board)}


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line like every other error of the command line
    (argparse's own print the usage first); its subcommands' parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {one_line(message)} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m engine", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, run: Callable[[argparse.Namespace], Any], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(run=run)
        return p

    add("tiles", _tiles, "the 56 tiles: number, back colour, edges")
    add("analyse", _analyse, "forced spaces, holes, lines and scores of a position").add_argument(
        "position", help="position JSON file (rules.md section 2)"
    )
    p = add("moves", _moves, "every legal placement of the hand's tiles")
    p.add_argument("position", help="position JSON file")
    p.add_argument("--hand", required=True, help="comma-separated tile numbers, e.g. 5,17,33")
    add("demo", _demo, "one random legal game of all 56 tiles, its position and analysis").add_argument(
        "--seed", type=int, default=None
    )
    from . import solve_cli
    from .strategy import cli as game_cli  # they import this module's CliError: imported here, not above
    from .gobble import cli as gobble_cli

    for module in (game_cli, gobble_cli, solve_cli):
        module.add_commands(sub)
    return parser


def one_line(message: str) -> str:
    """``message`` with what the input smuggled in (newlines, control characters) made visible,
    so an answer is always one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def main(argv: Sequence[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run one command of ``parser`` (default: the engine's): its JSON answer on stdout, or, for bad
    input (:class:`CliError`), one line on stderr and exit status 2. Every engine program uses it."""
    args = (parser or build_parser()).parse_args(argv)
    try:
        result = args.run(args)
    except CliError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except (RecursionError, ValueError, TypeError, KeyError) as exc:  # input no check above foresaw
        print(f"error: the input cannot be used ({type(exc).__name__}: {one_line(str(exc))[:160]})",
              file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0
