"""Property-based: every malformed input to ``python -m engine`` and ``python -m engine.tanagra`` is
answered in one clear line (``error: ...`` on stderr, exit status 2), never a traceback, never a
silent acceptance of a value that means nothing (a negative budget, a NaN time, minus three games).
The project's other command lines (kiosk, web, ui, hardware) refuse a table of bad arguments the
same way: exit status 2, the argument named with what it expects."""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.tanagra import cli as tanagra_cli
from engine.strategy.game import StrategyGame
from engine.strategy.match import play_game
from engine.strategy.robots import make_robot

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def call(*argv: str, program=main) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = program(list(argv))
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


# ------------------------------------------------------------------ python -m engine.tanagra


@pytest.fixture(scope="module")
def tanagra_record() -> dict:
    return tanagra_cli.play_game(tanagra_cli.Options(players=2), ["beginner", "beginner"], seed=1,
                                 ).to_json()


@FAST
@given(content=nasty_bytes | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_tanagra_record_file_is_answered(tmp_path, content):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    answered(*call("replay", str(path), program=tanagra_cli.main))


@FAST
@given(where=st.integers(0, 10_000), key=st.sampled_from(["centre", "size", "origin", "target", "kind", "x"]),
       value=json_values, top=st.sampled_from(["options", "seats", "start", "final", "actions", None]))
def test_any_damaged_tanagra_record_is_answered(tmp_path, tanagra_record, where, key, value, top):
    damaged = json.loads(json.dumps(tanagra_record))
    if top is None:
        actions = damaged["actions"]
        actions[where % len(actions)][key] = value
    else:
        damaged[top] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(damaged))
    answered(*call("replay", str(path), program=tanagra_cli.main))


def integer(text: str) -> int | None:
    """``text`` as Python's int() reads it (other scripts' digits and spaces included), or None."""
    try:
        return int(text)
    except ValueError:
        return None


@FAST
@given(option=st.sampled_from(["--time", "--depth", "--quiet-rounds", "--x", "--players", "--seed", "--robots"]),
       value=numbers | st.sampled_from(["wizard", "beginner", "beginner,,", ""]))
def test_tanagra_play_options_are_answered(option, value):
    """A value that cannot be meant is refused naming its option; one that can is never a traceback
    (only the refusals are played out here: a whole robots' game per example would be slow)."""
    argv = ["play", "--players", "2", "--robots", "beginner,beginner", f"{option}={value}"]
    number = integer(value)
    meant = {"--time": meaningful(value, float), "--depth": meaningful(value, int),
             "--quiet-rounds": meaningful(value, int), "--x": number in (4, 5, 6),
             "--players": number in (2, 3, 4), "--seed": number is not None,
             "--robots": value == "beginner,beginner"}[option]
    assume(not meant)
    status, out, err = call(*argv, program=tanagra_cli.main)
    answered(status, out, err)
    assert status == 2 and f"argument {option}" in err, err


# --------------------------------------------------------------- the other command lines


@pytest.mark.parametrize("module, argv, expected", [
    ("firmware.__main__", ["--size", "5x5"], "argument --size: expected WIDTHxHEIGHT"),
    ("firmware.__main__", ["--size", "wide"], "argument --size: expected WIDTHxHEIGHT"),
    ("firmware.__main__", ["repair"], "argument COMMAND: invalid choice: 'repair'"),
    ("firmware.__main__", ["--config"], "argument --config: expected one argument"),
    ("web.__main__", ["--config"], "argument --config: expected one argument"),
    ("web.__main__", ["--port", "80"], "unrecognized arguments: --port 80"),
    ("ui.__main__", ["--size", "1280x800x3"], "argument --size: size must look like 1280x800"),
    ("ui.__main__", ["--size", "99999x480"], "argument --size: size 99999x480 is too large"),
    ("ui.__main__", ["--idle", "nan"], "argument --idle: expected seconds from 1 to 86400"),
    ("ui.__main__", ["--idle", "-5"], "argument --idle: expected seconds from 1 to 86400"),
    ("ui.__main__", ["--pin", "12ab"], "argument --pin: expected 4 to 12 digits, got '12ab'"),
    ("ui.__main__", ["--pin", "123"], "argument --pin: expected 4 to 12 digits, got '123'"),
    ("ui.__main__", ["--pin", "١٢٣٤"], "argument --pin: expected 4 to 12 digits"),
    ("ui.__main__", ["--rotation", "45"], "argument --rotation: invalid choice: 45"),
    ("ui.__main__", ["--language", "de"], "argument --language: invalid choice: 'de'"),
    ("hardware.selftest", ["selftest", "--listen", "inf"], "argument --listen: expected seconds from 0 to 600"),
    ("hardware.selftest", ["selftest", "--listen", "nan"], "argument --listen: expected seconds from 0 to 600"),
    ("hardware.selftest", ["selftest", "--button-pin", "99"], "argument --button-pin: expected an integer from 0 to 27"),
    ("hardware.selftest", ["selftest", "--button-pin", "x"], "argument --button-pin: invalid int value: 'x'"),
    ("hardware.selftest", ["selftest", "--protocol", "morse"], "argument --protocol: expected one of"),
    ("hardware.selftest", ["selftest", "--baudrate", "-5"], "argument --baudrate: expected 0 (the protocol's own speed) or an integer from 300"),
    ("hardware.selftest", ["selftest", "--rings-backend", "neon"], "argument --rings-backend: expected one of"),
])
def test_the_other_command_lines_name_the_argument_and_what_it_expects(module, argv, expected):
    import importlib

    program = importlib.import_module(module).main
    status, out, err = call(*argv, program=program)
    assert status == 2 and "Traceback" not in err and not out, (status, err)
    assert expected in err.strip().splitlines()[-1], err
