"""``python -m engine solve``, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.board import Placement
from solver_check import assert_reaches_goal

ROOT = Path(__file__).resolve().parent.parent


def solve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "solve", *args], cwd=ROOT, capture_output=True, text=True)


def answer(*args: str) -> dict:
    out = solve(*args)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def placements(position: dict) -> list[Placement]:
    assert position["bag"] == 0
    return [Placement(t["tile"], t["q"], t["r"], t["rot"]) for t in position["tiles"]]


def test_discovery_with_a_count():
    found = answer("discovery-5", "--count")
    assert found["puzzle"] == "discovery-5" and found["solved"] is True and found["colour"] == "R"
    assert found["count"] >= 1 and found["seconds"] >= 0
    assert_reaches_goal(placements(found["position"]), range(1, 6), ("R",), True)


def test_which_colours_work_when_the_player_chooses():
    found = answer("junior")
    assert found["colours"] == ["B"] and found["colour"] == "B"
    assert_reaches_goal(placements(found["position"]), (3, 5, 8, 12, 14, 43, 46, 50, 52, 54), ("B",), True)


def test_a_given_colour_choice():
    found = answer("professor", "--colour", "yellow,blue")
    assert found["solved"] is True and "colours" not in found
    tiles = (2, 11, 15, 17, 20, 30, 38, 39, 44, 45, 51, 56)
    assert_reaches_goal(placements(found["position"]), tiles, ("Y", "B"), True)
    assert answer("junior", "--colour", "Y")["solved"] is False


def test_the_great_pyramid():
    found = answer("pyramid", "--seed", "2")
    tiles = placements(found["position"])
    assert found["solved"] is True and len(tiles) == 45


def test_a_time_limit_gives_an_unknown_answer():
    found = answer("genius-b", "--timeout", "0.2")
    assert found["solved"] is None and found["stopped"] == "timeout"


def test_bad_input_exits_2_with_one_line():
    for args in (["discovery-31"], ["junior", "--colour", "purple"], ["master", "--timeout", "-1"]):
        out = solve(*args)
        assert out.returncode == 2 and out.stdout == ""
        assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("error: ")
