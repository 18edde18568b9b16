"""Benchmark: how high the anytime optimiser gets on Four lines / Four loops from scratch.

    nice -n 10 .venv/bin/python bench/four_optimise.py                    # both, 10 minutes each
    nice -n 10 .venv/bin/python bench/four_optimise.py --goal loops --seconds 120 --seed 3
    ... --workers 1  # one search process (default: one per core)
    ... --store      # also keep an answer better than the stored one in engine/data/four-GOAL.json

The bar (issue 4): within 10 minutes on the kiosk's 2-core machine, Four lines reaches at least the
booklet's 139 found by hand (146 was computed) and Four loops at least the booklet's best 129.
Prints one JSON object: per goal the final score, when each improvement came (seconds, score), the
booklet's figures and the stored best; the search is never seeded with the stored answer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Board  # noqa: E402
from engine.four import RECORDS, GOALS, best_known, colour_scores, incomplete, puzzle_score  # noqa: E402
from engine.optimise import optimise  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "engine" / "data"


def run(goal: str, seconds: float, seed: int, store: bool, workers: int | None) -> dict[str, object]:
    started = time.monotonic()
    timeline: list[tuple[float, int]] = []

    def progress(score: int, board: Board) -> None:
        timeline.append((round(time.monotonic() - started, 1), score))
        print(f"{goal}: {score} after {timeline[-1][0]} s", file=sys.stderr, flush=True)

    score, board = optimise(goal, seconds=seconds, seed=seed, progress=progress, workers=workers)  # type: ignore[arg-type]
    assert incomplete(board) is None and puzzle_score(board, goal) == score  # type: ignore[arg-type]
    stored = best_known(goal)[0]  # type: ignore[arg-type]
    result: dict[str, object] = {
        "seed": seed,
        "workers": workers or os.cpu_count(),
        "seconds": seconds,
        "score": score,
        "colours": colour_scores(board, goal),  # type: ignore[arg-type]
        "improvements": timeline,
        "booklet": RECORDS[goal],  # type: ignore[index]
        "stored_best": stored,
    }
    if store and score > stored:
        path = DATA / f"four-{goal}.json"
        path.write_text(json.dumps({"score": score, "position": board.to_json()}) + "\n", encoding="utf-8")
        result["stored"] = str(path)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--goal", choices=GOALS, action="append", help="lines or loops (default both)")
    parser.add_argument("--seconds", type=float, default=600.0, help="search time per goal (default 600)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="search processes (default: one per core)")
    parser.add_argument("--store", action="store_true", help="keep a better answer in engine/data")
    args = parser.parse_args()
    print(json.dumps({goal: run(goal, args.seconds, args.seed, args.store, args.workers) for goal in args.goal or GOALS}, indent=1))


if __name__ == "__main__":
    main()
