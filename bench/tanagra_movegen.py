"""Tanagra move generation speed on positions from random games, JSON on stdout.

    .venv/bin/python bench/tanagra_movegen.py [--games N] [--seed S]

Plays random games (2, 3 and 4 players, x = 6: the fullest tables the box allows) and
times ``State.legal_actions()`` in the move phase (every move of the player to move, sorted) and
in the board-change phase (leave, remove and every relocation), plus ``State.copy()`` + ``play``,
the step a robot's search repeats.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tanagra.rules import Options, Phase, State  # noqa: E402


def micros(samples: list[float]) -> dict[str, float]:
    return {
        "median_us": round(statistics.median(samples) * 1e6, 1),
        "p90_us": round(statistics.quantiles(samples, n=10)[-1] * 1e6, 1),
        "max_us": round(max(samples) * 1e6, 1),
        "samples": len(samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    timings: dict[str, list[float]] = {"move_phase": [], "change_phase": [], "copy_and_play": []}
    moves_per_position: list[int] = []
    for game in range(args.games):
        players = (2, 3, 4)[game % 3]
        state = State(Options(players=players, x=6))
        while not state.over:
            started = time.perf_counter()
            actions = state.legal_actions()
            elapsed = time.perf_counter() - started
            if state.phase is Phase.MOVE:
                timings["move_phase"].append(elapsed)
                moves_per_position.append(len(actions))
            elif state.phase is Phase.CHANGE:
                timings["change_phase"].append(elapsed)
            action = rng.choice(actions)
            started = time.perf_counter()
            after = state.copy()
            after.play(action)
            timings["copy_and_play"].append(time.perf_counter() - started)
            state = after
    report = {name: micros(samples) for name, samples in timings.items()}
    report["moves_per_position"] = {
        "median": statistics.median(moves_per_position), "max": max(moves_per_position)
    }
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
