"""Benchmark: the issue's check (`python -m engine match`) in blocks that survive a time limit, with
the master's placements timed in CPU seconds and checked for the ends they kill.

Each block is one call of engine.strategy.match.match (the function the command runs) with as many
games as robots, so one bag goes round every seat; blocks use seeds ``seed * 1000 + b`` (b from
``--first``, 0 by default, so two runs of one seed can split its blocks between the cores) and are
appended to ``--out`` as they end, so a run stopped by ``timeout`` keeps its games and runs pool.
For every master placement with a choice it records the CPU seconds (``time.process_time``: a
busy machine does not inflate them) and whether it left an end of its own side's colour dead (no
unplaced tile fits the end's cell, or three ends meet there: in Doubles its partner's line is its
own colour), an end of its side's longest line, or an opponent's end; and whether another legal
placement would have killed none of its side's ends.

    nice -n 19 timeout 3600 .venv/bin/python bench/match_probe.py --robots master,expert --doubles \\
        --blocks 40 --seed 1 --budget 30 --out /tmp/doubles.jsonl
    .venv/bin/python bench/match_probe.py --summary /tmp/doubles.jsonl [more runs to pool...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine.strategy.match as matches  # noqa: E402
from engine.intervals import wilson  # noqa: E402
from engine.board import Board, Placement  # noqa: E402
from engine.strategy.game import StrategyGame  # noqa: E402
from engine.strategy.robots import Robot  # noqa: E402
from engine.strategy.robots.club import perspective  # noqa: E402
from engine.strategy.robots.evaluation import ColourAnalysis, Evaluator  # noqa: E402

COUNTS = ("choices", "own_kills", "own_kills_avoidable", "own_longest_kills", "opponent_kills")


def dead_ends(board: Board, colour: str, longest: bool = False) -> int:
    """How many ends of ``colour``'s lines (only its longest ones if ``longest``) point into a
    cell no unplaced tile fits, or where three of its ends meet."""
    placed = board.placed_tiles()
    judge = Evaluator([t for t in range(1, 57) if t not in placed], 1)
    analysis = ColourAnalysis(judge, board, colour)
    keep = set(range(len(analysis.lengths)))
    if longest and analysis.lengths:
        top = max(analysis.lengths)
        keep = {i for i, n in enumerate(analysis.lengths) if n == top}
    return sum(sum(1 for i in chains if i in keep) for cell, chains in analysis.ends_at.items()
               if len(chains) > 2 or judge.fitting(board.requirement(cell)) == 0)


def kills(board: Board, placement: Placement, colour: str, longest: bool = False) -> int:
    """The ends of ``colour`` that ``placement`` leaves dead (negative: it opened some)."""
    before = dead_ends(board, colour, longest)
    board.push(placement)
    try:
        return dead_ends(board, colour, longest) - before
    finally:
        board.undo()


class Probe:
    """The master, timed and checked at every placement with a choice (see the module)."""

    def __init__(self, robot: Robot, found: dict[str, Any]) -> None:
        self.robot, self.name, self.found = robot, robot.name, found

    def choose(self, view: StrategyGame, rng: Any) -> Placement:
        start = time.process_time()
        choice = self.robot.choose(view, rng)
        legal = view.legal()
        if len(legal) > 1:
            self.found["cpu"].append(time.process_time() - start)
            mine, others = perspective(view)
            board = view.board.copy()
            found = self.found
            found["choices"] += 1
            if kills(board, choice, mine) > 0:
                found["own_kills"] += 1
                found["own_kills_avoidable"] += any(kills(board, p, mine) <= 0 for p in legal)
            found["own_longest_kills"] += kills(board, choice, mine, longest=True) > 0
            found["opponent_kills"] += any(kills(board, choice, c) > 0 for c in others)
        return choice

    def close(self) -> None:
        close = getattr(self.robot, "close", None)
        if close is not None:
            close()


def fresh() -> dict[str, Any]:
    return {"cpu": [], **{name: 0 for name in COUNTS}}


def run(args: argparse.Namespace) -> None:
    found = fresh()
    make = matches.make_robot

    def probed(spec: str, budget: float | None = None, timeout: float | None = None) -> Robot:
        robot = make(spec, budget, timeout)
        return Probe(robot, found) if spec == "master" else robot

    matches.make_robot = probed  # the match builds its robots by this name
    robots = args.robots.split(",")
    for b in range(args.first, args.first + args.blocks):
        result = matches.match(robots, len(robots), args.seed * 1000 + b, doubles=args.doubles, budget=args.budget)
        result["probe"] = dict(found)
        found.update(fresh())
        with args.out.open("a") as f:
            f.write(json.dumps(result) + "\n")
        print(f"block {b}:", {k: (v["wins"], v["draws"], v["losses"]) for k, v in result["robots"].items()},
              file=sys.stderr, flush=True)


def summary(paths: list[Path]) -> dict[str, Any]:
    """The runs in ``paths`` pooled: each robot's games, win rate (95 % Wilson interval), share of
    the points (a draw is half a win) and mean score; the master's CPU times and the ends it killed."""
    rows = [json.loads(line) for path in paths for line in path.read_text().splitlines()]
    robots: dict[str, dict[str, Any]] = {}
    for row in rows:
        for label, tally in row["robots"].items():
            total = robots.setdefault(label, dict.fromkeys(("games", "wins", "draws", "losses", "forfeits", "score"), 0))
            for key in total:
                total[key] += tally["mean_score"] * tally["games"] if key == "score" else tally[key]
    for total in robots.values():
        games = total["games"]
        total["win_rate"], total["ci95"] = round(total["wins"] / games, 3), wilson(total["wins"], games)
        total["points_share"] = round((total["wins"] + total["draws"] / 2) / games, 3)
        total["mean_score"] = round(total.pop("score") / games, 2)
    cpu = sorted(t for row in rows for t in row["probe"]["cpu"])
    return {"players": rows[0]["players"], "doubles": rows[0]["doubles"], "blocks": len(rows), "robots": robots,
            "master_cpu_s": {"placements": len(cpu), "median": round(statistics.median(cpu), 3),
                             "p90": round(cpu[int(0.9 * len(cpu))], 3), "max": round(cpu[-1], 3)} if cpu else None,
            "master_ends": {name: sum(row["probe"][name] for row in rows) for name in COUNTS}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--robots", default="master,expert", help="one per seat (per team in Doubles)")
    parser.add_argument("--doubles", action="store_true")
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--first", type=int, default=0,
                        help="the first block's number: runs of other blocks of one seed can share the cores")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="the master's and expert's wall-clock cap, s")
    parser.add_argument("--out", type=Path, default=Path("bench/match_probe.jsonl"))
    parser.add_argument("--summary", type=Path, nargs="+", default=None, help="pool these runs' files")
    args = parser.parse_args()
    if args.summary is None:
        run(args)
    print(json.dumps(summary(args.summary or [args.out]), indent=2))


if __name__ == "__main__":
    main()
