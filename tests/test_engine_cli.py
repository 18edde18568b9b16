"""``python -m engine``: the machine-readable command line, run as a real subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import tantrix_reference as ref
from engine.strategy.playout import playout

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True)


def test_tiles_lists_the_56_tiles():
    out = run("tiles")
    assert out.returncode == 0
    tiles = json.loads(out.stdout)
    assert len(tiles) == 56
    assert tiles[16] == {"number": 17, "back": "yellow", "edges": "YYGRGR"}


@pytest.fixture
def position(tmp_path: Path) -> tuple[Path, dict]:
    board = playout(random.Random(11), stop_after=28)
    board.bag = 20
    path = tmp_path / "position.json"
    path.write_text(json.dumps(board.to_json()))
    return path, board.to_json()


def test_analyse(position):
    path, data = position
    out = run("analyse", str(path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    pos = {(t["q"], t["r"]): (t["tile"], t["rot"]) for t in data["tiles"]}
    counts = ref.neighbour_counts(set(pos))
    assert sorted((f["q"], f["r"]) for f in result["forced"]) == sorted(c for c, v in counts.items() if v >= 3)
    for f in result["forced"]:
        assert len(f["pattern"]) == counts[(f["q"], f["r"])]
        assert 0 <= f["fits_now"] <= f["fits_endgame"]
    for colour in "RYGB":
        assert sorted((x["length"], x["loop"]) for x in result["lines"][colour]) == sorted(ref.chains(pos, colour))
        assert result["scores"][colour] == ref.score(pos, colour)
    assert isinstance(result["holes"], list)


def test_moves(position):
    path, data = position
    placed = {t["tile"] for t in data["tiles"]}
    hand = [t for t in range(1, 57) if t not in placed][:3]
    out = run("moves", str(path), "--hand", ",".join(map(str, hand)))
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)["placements"]
    pos = {(t["q"], t["r"]): (t["tile"], t["rot"]) for t in data["tiles"]}
    assert {(p["tile"], p["q"], p["r"], p["rot"]) for p in listed} == ref.legal_placements(pos, hand, True)
    counts = ref.neighbour_counts(set(pos))
    assert all(p["forced"] == (counts.get((p["q"], p["r"]), 0) >= 3) for p in listed)


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", "bad JSON at line 1"),
        ('{"tiles": [{"tile": 70, "q": 0, "r": 0, "rot": 0}], "bag": 0}', "unknown tile 70"),
        ('{"tiles": [{"tile": 4, "q": 0, "r": 0, "rot": 0}, {"tile": 4, "q": 1, "r": 0, "rot": 1}], "bag": 0}', "appears twice"),
        ('{"tiles": [{"tile": 4, "q": 0, "r": 0, "rot": 0}, {"tile": 5, "q": 0, "r": 0, "rot": 1}], "bag": 0}', "holds two tiles"),
        ('{"tiles": [{"tile": 1, "q": 0, "r": 0, "rot": 0}, {"tile": 2, "q": 1, "r": 0, "rot": 0}], "bag": 0}', "golden rule"),
        ('{"tiles": [{"tile": 4, "q": 0, "r": 0, "rot": 0}]}', '"bag" is missing'),
    ],
)
def test_malformed_positions_exit_nonzero_with_one_line(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    for command in (["analyse", str(path)], ["moves", str(path), "--hand", "9"]):
        out = run(*command)
        assert out.returncode != 0
        assert out.stdout == ""
        assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr


def test_bad_hands_and_missing_files(position, tmp_path):
    path, data = position
    on_board = data["tiles"][0]["tile"]
    for hand, words in [("5,x", "unknown tile"), ("99", "unknown tile"), ("3,3", "listed twice"), (str(on_board), "already on the board")]:
        out = run("moves", str(path), "--hand", hand)
        assert out.returncode != 0 and words in out.stderr
    out = run("analyse", str(tmp_path / "missing.json"))
    assert out.returncode != 0 and "cannot read" in out.stderr
