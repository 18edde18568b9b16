"""Benchmark: matches between every pair of robots, with 95 % confidence intervals and an
Elo-like ladder, measured with the match command's own code (engine.strategy.match).

Games come in blocks of one bag played both ways (duplicate play); every block is appended to a
JSON-lines file as soon as it ends, so a long run can be stopped and resumed, and several runs
pool. The summary gives, per pair, the games, the first robot's share of points (a win 1, a draw
1/2) with its 95 % interval (normal approximation, at least 1/n wide), the mean score margin, and
per robot its median and slowest placement; then a Bradley-Terry fit of all pairs as Elo points
(club = 1500). Robots are levels or ``cmd:`` programs, e.g. the independent sparring robot:

    nice -n 19 .venv/bin/python bench/robot_ladder.py --robots beginner,club,expert,master \\
        --blocks 10 --seed 1 --out bench/ladder.jsonl
    nice -n 19 .venv/bin/python bench/robot_ladder.py --robots master,"cmd:.venv/bin/python bench/sparring_robot.py" ...
    .venv/bin/python bench/robot_ladder.py --summary bench/ladder.jsonl

``--players 3`` (or 4) plays the robots three (four) at a time over every combination; ``--doubles``
pits two teams. The expert's and master's time caps are set high (``--budget``), so that their
work (samples, iterations), not the machine's load, decides their play. Use several seeds: tuning to one bag order or one opponent proves nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.strategy.match import match  # noqa: E402


def play(robots: list[str], blocks: int, seed: int, out: Path, players: int, doubles: bool, budget: float) -> None:
    for group in itertools.combinations(robots, 2 if doubles else players):
        for block in range(blocks):
            result = match(list(group), len(group), seed=seed * 1000 + block, doubles=doubles, budget=budget,
                           timeout=budget)
            with out.open("a") as f:
                f.write(json.dumps({"group": list(group), "seed": seed, "block": block, "doubles": doubles,
                                    "result": result}) + "\n")
            print(f"{group} block {block}: " + ", ".join(
                f"{k} {v['wins']}W {v['draws']}D" for k, v in result["robots"].items()), file=sys.stderr, flush=True)


def summary(path: Path) -> dict:
    pairs: dict[tuple[str, str], list[float]] = {}
    margins: dict[tuple[str, str], list[float]] = {}
    times: dict[str, list[float]] = {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        stats = entry["result"]["robots"]
        names = list(stats)
        for name in names:
            t = stats[name]
            times.setdefault(name, []).append(t["median_move_ms"] or 0.0)
            times.setdefault(name + " max", []).append(t["max_move_ms"] or 0.0)
        for a, b in itertools.combinations(names, 2):
            key = (a, b) if a < b else (b, a)
            first, second = stats[key[0]], stats[key[1]]
            games = first["games"]
            # a win is a point, a game neither won half a point (in 3 or 4 players: a third won it)
            points = first["wins"] + 0.5 * (games - first["wins"] - second["wins"])
            pairs.setdefault(key, []).extend([points / games] * games)
            if first["mean_score"] is not None and second["mean_score"] is not None:
                margins.setdefault(key, []).append(first["mean_score"] - second["mean_score"])
    table = {}
    for key, shares in sorted(pairs.items()):
        n = len(shares)
        p = statistics.fmean(shares)
        half = max(1.96 * math.sqrt(max(p * (1 - p), 0.25 / n) / n), 1 / n)
        table[f"{key[0]} vs {key[1]}"] = {"games": n, "share": round(p, 3),
                                          "ci95": [round(max(0.0, p - half), 3), round(min(1.0, p + half), 3)],
                                          "margin": round(statistics.fmean(margins.get(key, [0.0])), 2)}
    return {"pairs": table, "elo": ladder(pairs),
            "median_move_ms": {k: round(statistics.median(v), 1) for k, v in times.items() if not k.endswith(" max")},
            "max_move_ms": {k[:-4]: round(max(v), 1) for k, v in times.items() if k.endswith(" max")}}


def ladder(pairs: dict[tuple[str, str], list[float]]) -> dict[str, int]:
    """Bradley-Terry strengths by minorization-maximization, as Elo points with club (or the first
    robot) at 1500; a share of 0 or 1 is pulled in by half a game so the fit stays finite."""
    names = sorted({n for key in pairs for n in key})
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for (a, b), shares in pairs.items():
        n = len(shares)
        s = min(max(sum(shares), 0.5), n - 0.5)
        wins[a] += s
        wins[b] += n - s
        games[(a, b)] = games[(b, a)] = n
    strength = {n: 1.0 for n in names}
    for _ in range(500):
        new = {}
        for i in names:
            denom = sum(g / (strength[i] + strength[j]) for (a, j), g in games.items() if a == i)
            new[i] = wins[i] / denom if denom else strength[i]
        strength = new
    anchor = "club" if "club" in strength else names[0]
    return {n: round(1500 + 400 * math.log10(strength[n] / strength[anchor])) for n in
            sorted(names, key=lambda n: -strength[n])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--robots", default="beginner,club,expert,master")
    parser.add_argument("--blocks", type=int, default=5, help="bags per pair (each played both ways)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--doubles", action="store_true")
    parser.add_argument("--budget", type=float, default=1000.0,
                        help="safety cap of expert and master per placement (and an external robot's answer time), s:"
                             " high, so that work decides")
    parser.add_argument("--out", type=Path, default=Path("bench/ladder.jsonl"))
    parser.add_argument("--summary", type=Path, default=None, help="only summarise this JSON-lines file")
    args = parser.parse_args()
    if args.summary is None:
        robots = [r.strip() for r in args.robots.split(",")]  # cmd: programs may not contain commas here
        play(robots, args.blocks, args.seed, args.out, args.players, args.doubles, args.budget)
    print(json.dumps(summary(args.summary or args.out), indent=2))


if __name__ == "__main__":
    main()
