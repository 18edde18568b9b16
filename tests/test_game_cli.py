"""``python -m engine play | replay | match``, run as real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True)


def test_play_prints_a_record_that_replay_validates(tmp_path):
    out = run("play", "--players", "2", "--robots", "beginner,club", "--seed", "7")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["seed"] == 7 and [s["robot"] for s in record["seats"]] == ["beginner", "club"]
    assert record["result"]["reason"] in ("all-placed", "deadlock")
    assert run("play", "--players", "2", "--robots", "beginner,club", "--seed", "7").stdout == out.stdout
    path = tmp_path / "game.json"
    path.write_text(out.stdout)
    replayed = run("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    summary = json.loads(replayed.stdout)
    assert summary["valid"] is True and summary["scores"] == record["result"]["scores"]
    assert len(summary["position"]["tiles"]) == sum(1 for e in record["events"] if "place" in e)


def test_play_with_the_expert_and_a_short_budget():
    out = run("play", "--players", "2", "--robots", "beginner,expert", "--seed", "7", "--budget", "0.03")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["seats"][1]["robot"] == "expert" and record["result"] is not None


def test_replay_names_the_step_and_rule_of_a_tampered_record(tmp_path):
    record = json.loads(run("play", "--players", "3", "--robots", "club,club,beginner", "--seed", "2").stdout)
    step = [i for i, e in enumerate(record["events"], 1) if "place" in e and not e["forced"]][5]
    record["events"][step - 1]["q"] += 30
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    out = run("replay", str(path))
    assert out.returncode == 2 and out.stdout == ""
    assert f"step {step}: contact:" in out.stderr and out.stderr.count("\n") == 1


def test_match_prints_results_per_robot():
    out = run("match", "--robots", "beginner,club", "--games", "4", "--seed", "1")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["games"] == 4 and set(result["robots"]) == {"beginner", "club"}
    for tally in result["robots"].values():
        assert tally["wins"] + tally["draws"] + tally["losses"] == 4
        assert tally["moves"] > 0 and 0 <= tally["median_move_ms"] <= tally["max_move_ms"]
        low, high = tally["win_rate_ci95"]
        assert 0 <= low <= tally["win_rate"] <= high <= 1 and high - low > 0.3  # 4 games say little
        assert tally["points_share"] == (tally["wins"] + tally["draws"] / 2) / 4
    doubles = json.loads(run("match", "--robots", "club,beginner", "--doubles", "--games", "2").stdout)
    assert doubles["players"] == 4 and doubles["robots"]["club"]["games"] == 2


def test_match_and_play_accept_an_external_program_as_a_robot():
    robot = f"cmd:{sys.executable} examples/random_robot.py 5"
    out = run("play", "--players", "3", "--robots", f"club,{robot},beginner", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["seats"][1]["robot"] == robot
    result = json.loads(run("match", "--robots", f"{robot},beginner", "--games", "2").stdout)
    assert result["failures"] == [] and result["robots"][robot]["games"] == 2


def test_bad_arguments_exit_2_with_one_line():
    for args in (("play", "--robots", "grandmaster,club"), ("play", "--players", "3", "--robots", "club,club"),
                 ("match", "--robots", "club", "--games", "2"), ("replay", "no-such-file.json"),
                 ("play", "--players", "3", "--doubles", "--robots", "club,club")):
        out = run(*args)
        assert out.returncode == 2 and out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr


def test_doubles_is_four_players_and_says_so_when_asked_for_three():
    out = run("play", "--players", "3", "--doubles", "--robots", "club,beginner", "--seed", "1")
    assert "Doubles is played by 4 players" in out.stderr
    record = json.loads(run("play", "--doubles", "--robots", "club,beginner", "--seed", "1").stdout)
    assert record["options"]["players"] == 4 and record["options"]["doubles"]


def test_the_wilson_interval_matches_the_textbook_values_and_stays_within_0_and_1():
    from engine.intervals import wilson

    assert wilson(5, 10) == (0.237, 0.763)
    assert wilson(0, 10) == (0.0, 0.278) and wilson(10, 10) == (0.722, 1.0)
    assert wilson(150, 200)[0] > 0.68 and wilson(0, 0) == (0.0, 1.0)
