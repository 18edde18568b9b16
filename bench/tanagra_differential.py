"""Tanagra engine against the naive reference (tests/tanagra_reference.py), many games, JSON on stdout.

    .venv/bin/python bench/tanagra_differential.py [--games N] [--made-up N] [--first SEED]

Plays ``--games`` random games from the empty table and ``--made-up`` random games from made-up
positions (crowded tables, pieces standing apart, 4-player standoffs), 2, 3 and 4 players in turn,
and compares at every position the engine's legal actions, turn, phase, pieces, pawns, isolated
pieces, holders and result with the reference's (tests/tanagra_differential.py). The suite runs a
few of these games (tests/test_tanagra_reference.py); this runs as many as asked. Exit status 1
when any disagreement is found; each is listed with its seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import tanagra_differential as differential  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--made-up", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    args = parser.parse_args()
    out = {}
    for name, count, made_up in (("from_empty", args.games, False), ("made_up", args.made_up, True)):
        started = time.perf_counter()
        report = differential.run(range(args.first, args.first + count), made_up=made_up)
        out[name] = {
            "games": report.games, "positions": report.positions, "actions": report.actions,
            "ends": report.ends, "played": report.played, "disagreements": report.disagreements,
            "seconds": round(time.perf_counter() - started, 1),
        }
    print(json.dumps(out, indent=1, sort_keys=True))
    return 1 if any(part["disagreements"] for part in out.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
