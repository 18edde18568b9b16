"""Command line for Gobbles records: check that a record replays, and show how it ended."""

from __future__ import annotations

import argparse
from typing import Any

from ..commandline import CliError, load_json
from .gobbles import Gobbles


def _replay(args: argparse.Namespace) -> Any:
    data = load_json(args.record)
    if isinstance(data, dict) and data.get("kind") == Gobbles.KIND:
        data = data.get("state")  # a saved mode: {"kind": ..., "state": record}
    if not isinstance(data, dict):
        raise CliError(f"{args.record}: a Gobbles record must be a JSON object")
    try:
        game = Gobbles.from_json(data)
    except ValueError as exc:
        raise CliError(f"{args.record}: {exc}") from None
    return {
        "events": len(game.events),
        "tiles_placed": len(game.board),
        "ending": game.ending and str(game.ending),
        "standings": [{**s._asdict(), "name": game.players[s.player].name} for s in game.standings()],
        "position": game.board.to_json(),
    }


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "gobbles-replay",
        help="replay a Gobbles record and show its standings",
        description="Replay a Gobbles record (or a saved Gobbles mode) and show how it ended; "
        "exits 2 if it does not replay to what it records.",
    )
    p.add_argument("record", help="record JSON file (Gobbles.to_json or engine.modes.save)")
    p.set_defaults(run=_replay)
