"""How small the strategy board's tiles get while a person must act, in whole games at a panel size.

    .venv/bin/python bench/ui_board_size.py [--size 800x480] [--players 2,4] [--seed 1]

Every seat is a person (the screen asks each of them to act) whose moves a club robot chooses; each
move goes through the screen as a finger's would end (put down provisionally, then Confirm). Before
every placement the view is where the play put it, and the tile width across (pixels) is recorded.
Prints JSON: per game, the smallest and the median tile width while a person acts, and how many
placements were made. The bar (issue 27): never below 45 px at 800x480.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import people_games, people_games_kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)


def main() -> int:
    args, app = people_games_kiosk()
    results: list[dict[str, Any]] = []
    widths: list[float] = []

    def place(game: Any, screen: Any, choice: Any) -> Iterator[float]:
        screen.board.refit()
        widths.append(screen.board.size_px * math.sqrt(3))
        screen.put(game.turn, choice)
        screen.confirm()
        yield 0

    def ended(game: Any) -> None:
        results.append({"players": len(game.seats), "size": args.size, "placements": len(game.board),
                        "smallest_px": round(min(widths), 1), "median_px": round(statistics.median(widths), 1)})
        widths.clear()

    run_steps(app, people_games(app, args.players, args.seed, place, ended))
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
