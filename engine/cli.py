"""The engine's command line: JSON in, JSON out, so other programs and checks can rely on it.

Every command prints one JSON document on stdout. Bad input (unreadable file, bad JSON, an unknown
or repeated tile, overlapping cells, a broken golden rule) exits with status 2 and one line on
stderr naming the problem; so does input too deep or too large for Python to take (JSON nested
thousands deep, a number of thousands of digits), and input the engine refuses in a way no rule
names (a value of the wrong type deep inside a record): never a traceback. Other parts of the engine
add their commands (:func:`build_parser` asks them): each such module has
``add_commands(subparsers)`` and its parsers set ``run`` to a function taking the parsed arguments
and returning the JSON-able result.
"""

from __future__ import annotations

import argparse
import random
from typing import Any, Callable, Sequence

from . import solve_cli
from .board import Board, PositionError
from .commandline import CliError, OneLineParser, load_json, run
from .gobble import cli as gobble_cli
from .strategy import cli as game_cli
from .strategy.playout import playout
from .tiles import ALL_NUMBERS, COLOURS, TILES


def load_position(path: str) -> Board:
    """A position file in the rules.md format. Its ``"bag"`` must be there: left out, it would
    read as an empty bag, the endgame, where the restrictions no longer apply."""
    try:
        data = load_json(path)
        if isinstance(data, dict) and "bag" not in data:
            raise PositionError('"bag" is missing: the number of tiles still in the bag (0: the endgame)')
        return Board.from_json(data)
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
    for module in (game_cli, gobble_cli, solve_cli):
        module.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command of the engine's command line (see :func:`engine.commandline.run`)."""
    return run(build_parser(), argv)
