"""Property-based: every malformed input to ``python -m engine`` is answered in one clear line
(``error: ...`` on stderr, exit status 2), never a traceback, never a silent acceptance of a value
that means nothing (a negative budget, a NaN time, minus three games)."""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.game import StrategyGame
from engine.match import play_game
from engine.robots import make_robot

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exit_:  # argparse refusing an argument
            status = exit_.code if isinstance(exit_.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def answered(status: int, out: str, err: str) -> None:
    """Accepted with one JSON document, or refused with one line saying why."""
    assert "Traceback" not in err
    if status == 0:
        json.loads(out)
    else:
        lines = err.strip().splitlines()
        assert status == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
        assert len(lines[0]) < 1000  # never the whole input echoed back


@pytest.fixture(scope="module")
def record() -> dict:
    game = StrategyGame.new(2, seed=3)
    play_game(game, [make_robot("beginner"), make_robot("beginner")])
    return game.record()


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=4),
                           max_leaves=12)
nasty_bytes = st.sampled_from([
    b"\xff\xfe\x00garbage", b"[" * 5000 + b"]" * 5000, b"9" * 5000, b'{"tiles": [' + b"1," * 3 + b"]}",
    b"", b"null", b'"text"', b'{"tiles": "all"}', b'{"tiles": [{"tile": "x", "q": 0, "r": 0, "rot": 0}]}',
]) | st.binary(max_size=64)


@FAST
@given(content=nasty_bytes | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_position_file_is_answered(tmp_path, content):
    path = tmp_path / "position.json"
    path.write_bytes(content)
    answered(*call("analyse", str(path)))
    answered(*call("moves", str(path), "--hand", "1,2"))


@FAST
@given(hand=st.text(max_size=12) | st.sampled_from(["2²", "٣", "1,1", "0", "57", "9" * 5000, "1,,2", "-1"]))
def test_any_hand_is_answered(tmp_path, hand):
    path = tmp_path / "position.json"
    path.write_text('{"tiles": []}')
    answered(*call("moves", str(path), f"--hand={hand}"))


@FAST
@given(where=st.integers(0, 10_000), key=st.sampled_from(["seat", "robot", "place", "tile", "q", "draw"]),
       value=json_values)
def test_any_damaged_record_is_answered(tmp_path, record, where, key, value):
    damaged = json.loads(json.dumps(record))
    events = damaged["events"]
    event = events[where % len(events)]
    if key in ("seat", "robot"):
        event = {"seat": 0, "robot": "club"}
        events.insert(where % len(events), event)
    event[key] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(damaged))
    status, out, err = call("replay", str(path))
    answered(status, out, err)


def test_a_seat_change_naming_a_number_or_a_program_is_refused(tmp_path, record):
    for change in ({"seat": 0, "robot": 7}, {"seat": "0", "robot": "club"}, {"seat": 0, "robot": "cmd:true"}):
        damaged = json.loads(json.dumps(record))
        damaged["events"].insert(3, change)
        path = tmp_path / "record.json"
        path.write_text(json.dumps(damaged))
        status, _, err = call("replay", str(path))
        assert status == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1


numbers = st.text(max_size=8) | st.floats().map(repr) | st.integers(-10**6, 10**6).map(str) | st.sampled_from(
    ["nan", "-inf", "inf", "0", "-3", "1e999", "٣", "²"])


def meaningful(text: str, kind: type) -> bool:
    try:
        value = kind(text)
    except ValueError:
        return False
    return 0 < value < math.inf


@FAST
@given(value=numbers)
def test_budgets_times_and_game_counts_must_mean_something(value):
    assume(not meaningful(value, float))
    for option in ("--budget", "--timeout"):
        status, _, err = call("play", "--robots", "beginner,beginner", f"{option}={value}")
        assert status == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1
    status, _, err = call("solve", "junior", f"--timeout={value}")
    assert status == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1
    if not meaningful(value, int):
        status, _, err = call("match", "--robots", "beginner,beginner", f"--games={value}")
        assert status == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1
