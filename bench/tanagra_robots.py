"""Tanagra robot strength and speed: the expert against beginners, JSON on stdout.

    .venv/bin/python bench/tanagra_robots.py [--games N] [--players 2,3,4] [--time 0.3] [--seed S]

For each player count, N games with one expert and beginners in the other seats (the expert's
seat rotates), counting the expert's wins, the beginners' wins and draws, with the expert's move
times (decisions other than board changes, which it planned with the move) and search depths.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tanagra.robots import Beginner, Expert  # noqa: E402
from engine.tanagra.rules import Options, Phase, State  # noqa: E402


def play(players: int, expert_seat: int, seed: int, time_limit: float) -> tuple[State, list[float], Counter]:
    robots = [
        Expert(seed=seed, time_limit=time_limit) if seat == expert_seat else Beginner(seed=seed * 10 + seat)
        for seat in range(players)
    ]
    state = State(Options(players=players, x=4))
    times: list[float] = []
    depths: Counter = Counter()
    while not state.over:
        robot = robots[state.turn]
        started = time.perf_counter()
        action = robot.choose(state)
        elapsed = time.perf_counter() - started
        if isinstance(robot, Expert) and state.phase is not Phase.CHANGE:
            times.append(elapsed)
            if state.phase is Phase.MOVE:
                depths[robot.last_depth] += 1
        state.apply(action)
    return state, times, depths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--time", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report = {"time_limit": args.time, "games_per_player_count": args.games, "results": {}}
    for players in (int(p) for p in args.players.split(",")):
        outcome: Counter = Counter()
        reasons: Counter = Counter()
        times: list[float] = []
        depths: Counter = Counter()
        for game in range(args.games):
            seat = game % players
            state, moves, used = play(players, seat, args.seed * 100 + game, args.time)
            winner = state.result.winner
            outcome["draw" if winner is None else "expert" if winner == seat else "beginner"] += 1
            reasons[state.result.reason.value] += 1
            times += moves
            depths += used
        report["results"][f"{players}p"] = {
            "expert_wins": outcome["expert"],
            "beginner_wins": outcome["beginner"],
            "draws": outcome["draw"],
            "end_reasons": dict(reasons),
            "expert_move_seconds": {
                "median": round(statistics.median(times), 4),
                "p90": round(statistics.quantiles(times, n=10)[-1], 4),
                "max": round(max(times), 4),
                "decisions": len(times),
            },
            "search_depths": dict(sorted(depths.items())),
        }
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
