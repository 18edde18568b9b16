"""Benchmark: 2-player matches between every pair of robots, with 95 % confidence intervals and
an Elo-like ladder, measured with the match command's own code (engine.strategy.match).

Games come in blocks of one bag played both ways (duplicate play); every block is appended to a
JSON-lines file as soon as it ends, so a long run can be stopped and resumed, and several runs
pool. The summary gives, per pair, the games, the first robot's share of points (a win 1, a draw
1/2) with its Wilson 95 % interval and the mean score margin; then a Bradley-Terry fit of all
pairs as Elo points (club = 1500). It also reads the 2-player lines of bench/match_probe.py and
bench/master_tune.py (the master at its defaults), so games those runs played count without being
played again. Robots are levels or ``cmd:`` programs, e.g. the sparring robots written apart
from the project's (named by their scripts in the summary):

    nice -n 19 .venv/bin/python bench/robot_ladder.py --robots beginner,club,expert,master \\
        --blocks 10 --seed 1 --out bench/ladder.jsonl
    nice -n 19 .venv/bin/python bench/robot_ladder.py --robots master,"cmd:.venv/bin/python bench/sparring_robot.py" ...
    .venv/bin/python bench/robot_ladder.py --summary bench/ladder.jsonl other-runs.jsonl

The expert's and master's time caps are set high (``--budget``), so that their work (samples,
iterations), not the machine's load, decides their play; time per placement is
bench/robot_times.py's. Use several seeds: tuning to one bag order or one opponent proves nothing.
3 and 4 players and Doubles: bench/match_probe.py.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.intervals import wilson  # noqa: E402
from engine.strategy.match import match  # noqa: E402
from engine.strategy.robots.master import Master  # noqa: E402

from bench.master_tune import master, parse, played  # noqa: E402


def play(robots: list[str], blocks: int, seed: int, out: Path, budget: float) -> None:
    for pair in itertools.combinations(robots, 2):
        for block in range(blocks):
            result = match(list(pair), 2, seed=seed * 1000 + block, budget=budget, timeout=budget)
            with out.open("a") as f:
                f.write(json.dumps({"group": list(pair), "seed": seed, "block": block, "result": result}) + "\n")
            print(f"{pair} block {block}: " + ", ".join(
                f"{k} {v['wins']}W {v['draws']}D" for k, v in result["robots"].items()), file=sys.stderr, flush=True)


def outcome(entry: dict[str, Any]) -> tuple[str, str, list[float], float | None] | None:
    """One logged block as (first robot, second, the first's points per game, the mean score margin
    first minus second), from a line of this script, of bench/match_probe.py or of
    bench/master_tune.py, so that the games those runs played count in the ladder without being
    played again; None for a table of 3 or 4 players or Doubles (the ladder is one against one)."""
    if "variant" in entry:  # bench/master_tune.py: the master's points and margins against a partner
        return master_name(entry), entry["partner"], entry["points"], statistics.fmean(entry["margins"])
    result = entry.get("result", entry)  # this script wraps the match's result; match_probe does not
    if result.get("players", len(result["robots"])) != 2 or result.get("doubles"):
        return None
    (a, first), (b, second) = result["robots"].items()
    games = first["games"]
    # a win is a point, a game neither won half a point
    share = first["wins"] + 0.5 * (games - first["wins"] - second["wins"])
    margin = None if first["mean_score"] is None or second["mean_score"] is None else (
        first["mean_score"] - second["mean_score"])
    return short(a), short(b), [share / games] * games, margin


def short(name: str) -> str:
    """A robot's name in the ladder: a ``cmd:`` program of bench/ by its script (``sparring`` for
    bench/sparring_robot.py, ``sparring-indirect`` for bench/sparring_indirect.py), followed by
    its arguments' last parts (``robot-from-commit:v_f57921b:expert`` for an earlier version's
    expert, never mistaken for today's)."""
    if not name.startswith("cmd:"):
        return name
    words = name.split()
    script = next((i for i, w in enumerate(words) if w.endswith(".py")), len(words) - 1)
    stem = Path(words[script]).stem
    stem = "sparring" if stem == "sparring_robot" else stem.replace("_", "-")
    return ":".join([stem] + [Path(w).name for w in words[script + 1:]])


def master_name(entry: dict[str, Any]) -> str:
    """A line of bench/master_tune.py's master: ``master`` when it played today's defaults (the
    number of workers and the batch size change no choice), else ``master(...)`` with the settings
    that differ. A line says what played; one written before it did (2026-11-27) is read by its
    variant, against today's defaults (its ``""`` may then have been the 96 iterations of its day)."""
    settings = entry["played"] if "played" in entry else played(master(parse(entry["variant"])))
    default = played(Master())
    weights = {f"w.{k}": v for k, v in settings["weights"].items() if default["weights"][k] != v}
    changed = {k: v for k, v in settings.items() if k != "weights" and default[k] != v} | weights
    return "master(" + ",".join(f"{k}={v}" for k, v in changed.items()) + ")" if changed else "master"


def summary(paths: list[Path]) -> dict[str, Any]:
    pairs: dict[tuple[str, str], list[float]] = {}
    margins: dict[tuple[str, str], list[float]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            found = outcome(json.loads(line))
            if found is None:
                continue
            a, b, shares, margin = found
            if a > b:
                a, b, shares = b, a, [1.0 - s for s in shares]
                margin = None if margin is None else -margin
            pairs.setdefault((a, b), []).extend(shares)
            if margin is not None:
                margins.setdefault((a, b), []).append(margin)
    table = {}
    for key, shares in sorted(pairs.items()):
        n = len(shares)
        lo, hi = wilson(sum(shares), n)
        table[f"{key[0]} vs {key[1]}"] = {"games": n, "share": round(statistics.fmean(shares), 3),
                                          "ci95": [lo, hi],
                                          "margin": round(statistics.fmean(margins.get(key, [0.0])), 2)}
    return {"pairs": table, "elo": ladder(pairs)}


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
    parser.add_argument("--budget", type=float, default=1000.0,
                        help="safety cap of expert and master per placement (and an external robot's answer time), s:"
                             " high, so that work decides")
    parser.add_argument("--out", type=Path, default=Path("bench/ladder.jsonl"))
    parser.add_argument("--summary", type=Path, nargs="+", default=None,
                        help="only summarise these JSON-lines files (also bench/match_probe.py's and"
                             " bench/master_tune.py's)")
    args = parser.parse_args()
    if args.summary is None:
        robots = [r.strip() for r in args.robots.split(",")]  # cmd: programs may not contain commas here
        play(robots, args.blocks, args.seed, args.out, args.budget)
    print(json.dumps(summary(args.summary or [args.out]), indent=2))


if __name__ == "__main__":
    main()
