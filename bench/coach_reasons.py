"""Benchmark: what the coach says, over the positions of club games: how often each reason comes,
at the free move and at the fills, and how long the coach takes.

A learner who asks "what would the master play?" should be told why in words about the lines
(engine.strategy.robots.coach); "came out best over N tries" (``outlook``) only says the search
preferred it. This counts, for every ``--every``-th position with a choice in ``--games`` club
games of 2, 3 and 4 players in turn, the reason the coach gives, with the master at
``--iterations`` (fewer than the kiosk's 96: the reason is read from the position and the move,
and the move changes little with the work).

    nice -n 19 .venv/bin/python bench/coach_reasons.py --games 30 --seed 20 --iterations 4
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.robots import robot_move  # noqa: E402
from engine.strategy.robots.coach import advise  # noqa: E402
from engine.strategy.robots.master import Master  # noqa: E402


def survey(games: int, seed: int, iterations: int, every: int) -> dict[str, object]:
    master = Master(iterations=iterations)
    free: collections.Counter[str] = collections.Counter()
    fills: collections.Counter[str] = collections.Counter()
    took: list[float] = []
    for number in range(seed, seed + games):
        players = 2 + number % 3
        game = StrategyGame.new(players, "RYGB"[:players], ["club"] * players, seed=number)
        position = 0
        while not game.finished:
            if len(game.legal()) > 1:
                if position % every == 0:
                    start = time.process_time()
                    reason = advise(game, master).reason.code
                    took.append(time.process_time() - start)
                    (free if game.step.name == "FREE" else fills)[reason] += 1
                position += 1
            robot_move(game)
    total = sum(free.values())
    return {"games": games, "seed": seed, "iterations": iterations, "every": every,
            "free_moves": dict(free.most_common()), "fills": dict(fills.most_common()),
            "free_moves_outlook_share": round(free["outlook"] / total, 3) if total else None,
            "cpu_seconds_median": round(sorted(took)[len(took) // 2], 3) if took else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--every", type=int, default=1, help="ask the coach at every n-th position with a choice")
    args = parser.parse_args()
    print(json.dumps(survey(args.games, args.seed, args.iterations, args.every), indent=1))


if __name__ == "__main__":
    main()
