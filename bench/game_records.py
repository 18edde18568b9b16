"""Long run: thousands of fast robot games of every table kind, each replayed from its record and
each resumed from a save at a random moment; all must come out identical.

Setups cycle through 2, 3 and 4 players, Doubles, the first-out end rule and the physical bag,
with beginner and club robots. Prints JSON: games played, how many replayed and resumed
identically, the failures (seed, setup, error), end reasons, and the time taken.

    .venv/bin/python bench/game_records.py [--games 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.record import replay  # noqa: E402

SETUPS = [
    dict(players=2, robots=["beginner", "club"]),
    dict(players=3, robots=["club", "beginner", "club"]),
    dict(players=4, robots=["beginner", "club", "club", "beginner"]),
    dict(players=4, robots=["club", "beginner", "club", "beginner"], doubles=True),
    dict(players=2, robots=["club", "club"], end="first-out"),
    dict(players=3, robots=["beginner"] * 3, physical_bag=True),
]


def finish(game: StrategyGame, order: list[int], steps: int | None = None) -> StrategyGame:
    """Play on (``steps`` actions, or to the end): robots place, a physical bag gives ``order``."""
    while not game.finished and (steps is None or steps > 0):
        steps = None if steps is None else steps - 1
        if game.awaiting_draw is not None:
            unseen = set(game.unseen())
            game.report_draw(next(t for t in order if t in unseen))
        else:
            game.robot_move()
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    ok = 0
    failures = []
    reasons: collections.Counter[str] = collections.Counter()
    for number in range(args.games):
        setup = SETUPS[number % len(SETUPS)]
        seed = rng.randrange(1 << 30)
        order = random.Random(seed).sample(range(1, 57), 56)
        try:
            game = StrategyGame.new(**setup, seed=seed)
            states = []
            while not game.finished:
                states.append(json.dumps(game.to_json()))
                finish(game, order, steps=1)
            record = game.record()
            assert replay(json.loads(json.dumps(record))).record() == record, "replay differs"
            resumed = finish(StrategyGame.from_json(json.loads(rng.choice(states))), order)
            assert resumed.record() == record, "resumed game differs"
            assert game.result is not None
            reasons[game.result.reason] += 1
            ok += 1
        except Exception as exc:  # report every kind of failure, keep going
            failures.append({"game": number, "seed": seed, "setup": setup, "error": f"{type(exc).__name__}: {exc}"})
    print(json.dumps({
        "games": args.games, "identical": ok, "failures": failures[:20], "failure_count": len(failures),
        "end_reasons": dict(reasons), "seconds": round(time.perf_counter() - start, 1),
    }, indent=2))


if __name__ == "__main__":
    main()
