"""Benchmark: what Gobbles costs the kiosk's UI thread, which runs robots and timeouts in
``GobblesTable.tick()`` under the table lock.

Plays 20 six-seat robot games (2 experts, 2 casual, 2 beginners; seeds 0..19) on a simulated
clock ticked every 100 ms, timing every tick; then times each robot look in isolation, and the
replay of each record (what a restore after a power cut costs). Prints JSON: median and worst
tick, median and p95 look, median and worst replay, and game statistics.

    .venv/bin/python bench/gobbles_robots.py
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.gobble.gobbles import Gobbles, Level, Player  # noqa: E402
from engine.gobble.robots import GobbleRobot  # noqa: E402
from engine.gobble.table import GobblesTable, ManualClock  # noqa: E402

LEVELS = [Level.EXPERT, Level.CASUAL, Level.BEGINNER] * 2


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def main(games: int = 20) -> dict[str, object]:
    ticks, busy_ticks, looks, replays, lengths, placed, wins = [], [], [], [], [], [], {}
    for seed in range(games):
        clock = ManualClock()
        game = Gobbles.deal([Player(f"R{i}", lv) for i, lv in enumerate(LEVELS)], seed=seed)
        table = GobblesTable(game, clock, seed=seed)
        while not game.finished:
            clock.advance(100)
            t0 = time.perf_counter()
            events = table.tick()
            dt = time.perf_counter() - t0
            ticks.append(dt)
            if events:
                busy_ticks.append(dt)
            if game.now_ms > 3_600_000:
                raise RuntimeError(f"seed {seed}: no end after a simulated hour")
        lengths.append(game.now_ms / 1000)
        placed.append(len(game.board))
        winner = game.standings()[0].player
        wins[str(LEVELS[winner])] = wins.get(str(LEVELS[winner]), 0) + 1
        record = game.to_json()
        t0 = time.perf_counter()
        Gobbles.from_json(record)
        replays.append(time.perf_counter() - t0)
        # robot looks on the position halfway through this game
        rng = random.Random(seed)
        half = {k: v for k, v in record.items() if k not in ("ending", "standings")}
        partial = Gobbles.from_json({**half, "events": record["events"][: len(record["events"]) // 2]})
        for seat, level in enumerate(LEVELS):
            if partial.playing(seat):
                robot = GobbleRobot(seat, level, rng)
                t0 = time.perf_counter()
                robot.reaction_ms(partial)  # planning the look (its search) ...
                robot.seen = True
                robot.look(partial)  # ... and choosing the placement
                looks.append(time.perf_counter() - t0)
    looks.sort()
    return {
        "games": games,
        "tick_ms": {"median": ms(statistics.median(ticks)), "median_with_events": ms(statistics.median(busy_ticks)),
                    "worst": ms(max(ticks))},
        "look_ms": {"median": ms(statistics.median(looks)), "p95": ms(looks[int(0.95 * len(looks))])},
        "replay_ms": {"median": ms(statistics.median(replays)), "worst": ms(max(replays))},
        "game": {"median_simulated_s": round(statistics.median(lengths), 1),
                 "median_tiles_placed": statistics.median(placed), "wins_by_level": wins},
    }


if __name__ == "__main__":
    print(json.dumps(main()))
