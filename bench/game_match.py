"""Benchmark: the robots' strength bars, measured with the match command's own code.

Plays ``club`` against ``beginner`` and ``expert`` against ``club`` (200 two-player games each by
default, seats rotating over shared bags) and prints both match summaries as JSON with a verdict:
club must win at least 80% against beginner, expert at least 65% against club. The expert part
takes about an hour on one core.

    .venv/bin/python bench/game_match.py [--games 200] [--seed 1] [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.strategy.match import match  # noqa: E402

BARS = (("club", "beginner", 0.80), ("expert", "club", 0.65))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="expert's budget per placement")
    args = parser.parse_args()
    report = {}
    for strong, weak, bar in BARS:
        result = match([weak, strong], args.games, args.seed, budget=args.budget)
        rate = result["robots"][strong]["wins"] / args.games
        report[f"{strong}_vs_{weak}"] = {"win_rate": round(rate, 3), "bar": bar, "passed": rate >= bar,
                                          "match": result}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
