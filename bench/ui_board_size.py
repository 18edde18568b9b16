"""How small the strategy board's tiles get while a person must act, in whole games at a panel size.

    .venv/bin/python bench/ui_board_size.py [--size 800x480] [--players 2,4] [--seed 1]

Every seat is a person (the screen asks each of them to act) whose moves a club robot chooses; each
move goes through the screen as a finger's would end (put down provisionally, then Confirm). Before
every placement the view is where the play put it, and the tile width across (pixels) is recorded.
Prints JSON: per game, the smallest and the median tile width while a person acts, and how many
placements were made. The bar (issue 27): never below 45 px at 800x480.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    app, _services = kiosk((width, height))
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot, robot_choice
    from ui.modes.strategy import play as strategy_play

    results: list[dict[str, Any]] = []

    def games() -> Iterator[float]:
        yield 0.3
        for players in (int(p) for p in args.players.split(",")):
            game = StrategyGame.new(players, "RYGB"[:players], [None] * players, seed=args.seed)
            screen = strategy_play.open_game(app, game)
            yield 0.3
            robot = make_robot("club")
            widths: list[float] = []
            while not game.finished:
                screen.board.refit()
                widths.append(screen.board.size_px * math.sqrt(3))
                seat = game.turn
                choice = robot_choice(game, robot)
                screen.put(seat, choice)
                screen.confirm()
                yield 0
            results.append({"players": players, "size": args.size, "placements": len(game.board),
                            "smallest_px": round(min(widths), 1), "median_px": round(statistics.median(widths), 1)})
            screen.leave()
            yield 0.2

    run_steps(app, games())
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
