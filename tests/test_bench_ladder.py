"""The robot ladder (bench/robot_ladder.py) pools the 2-player games of its own runs, of
bench/match_probe.py and of bench/master_tune.py: a pair is counted from either side, a table of 3
players is left out, a master variant is not the master, and the Elo order follows the shares."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.master_tune import played  # noqa: E402
from bench.robot_ladder import summary  # noqa: E402
from engine.strategy.robots.master import Master  # noqa: E402


def stats(games: int, wins: int, score: float) -> dict[str, object]:
    return {"games": games, "wins": wins, "draws": 0, "losses": games - wins, "mean_score": score}


def test_the_ladder_pools_its_own_match_probes_and_master_tunes_lines(tmp_path):
    sparring = "cmd:python bench/sparring_robot.py"
    lines = [
        # this script: club beats the sparring robot twice, then the sparring robot (listed first) once
        {"group": ["club", sparring], "result": {"robots": {"club": stats(2, 2, 20.0), sparring: stats(2, 0, 14.0)}}},
        {"group": [sparring, "club"], "result": {"robots": {sparring: stats(2, 1, 18.0), "club": stats(2, 1, 18.0)}}},
        # bench/match_probe.py: 2 players counts, 3 players does not
        {"players": 2, "doubles": False, "robots": {"master": stats(2, 2, 25.0), "club": stats(2, 0, 15.0)}},
        {"players": 3, "doubles": False,
         "robots": {"master": stats(3, 0, 10.0), "club#2": stats(3, 3, 30.0), "club#3": stats(3, 0, 9.0)}},
        # bench/master_tune.py: the defaults are the master, another setting a variant of it
        {"variant": "", "partner": "expert", "points": [1.0, 0.5], "margins": [4, 0]},
        {"variant": "iterations=48", "partner": "expert", "points": [0.0, 0.0], "margins": [-3, -5]},
        # a line says what played: the defaults of an earlier day are a variant of today's
        {"variant": "", "played": {**played(Master()), "iterations": 48}, "partner": "expert",
         "points": [0.0, 1.0], "margins": [-2, 2]},
    ]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    result = summary([path])

    pairs = result["pairs"]
    assert set(pairs) == {"club vs sparring", "club vs master", "expert vs master", "expert vs master(iterations=48)"}
    assert pairs["club vs sparring"]["games"] == 4 and pairs["club vs sparring"]["share"] == 0.75
    assert pairs["club vs sparring"]["margin"] == 3.0  # +6 and 0, the second block seen from club's side
    assert pairs["club vs master"] == {"games": 2, "share": 0.0, "ci95": pairs["club vs master"]["ci95"],
                                       "margin": -10.0}
    assert pairs["expert vs master"]["share"] == 0.25
    assert pairs["expert vs master(iterations=48)"]["games"] == 4 and pairs["expert vs master(iterations=48)"]["share"] == 0.75
    low, high = pairs["club vs sparring"]["ci95"]
    assert 0.0 < low < 0.75 < high <= 1.0
    elo = result["elo"]
    assert elo["club"] == 1500
    assert elo["master"] > elo["club"] > elo["sparring"]
    assert elo["master"] > elo["expert"] > elo["master(iterations=48)"]
