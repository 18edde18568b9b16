"""External robots over the JSON-lines protocol: the conversation exchange by exchange (no program),
then end to end with real programs (subprocesses)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.board import Placement
from engine.strategy.game import StrategyGame
from engine.strategy.match import match
from engine.strategy.protocol import PROTOCOL, ExternalRobot, RobotError, Session, move_message
from engine.strategy.robots import robot_move

ROOT = Path(__file__).resolve().parent.parent
# seeded, so the match replays alike (unseeded, a CI run once saw its two games take only 40 placements)
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_robot.py'} 7"


def program(tmp_path: Path, name: str, on_move: str) -> str:
    """A robot program that says hello properly and then does ``on_move`` (Python statements with
    ``message`` and ``reply``) for every move request."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import json, sys, time\n"
        "def reply(obj):\n"
        "    print(obj if isinstance(obj, str) else json.dumps(obj), flush=True)\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'hello':\n"
        "        reply({'type': 'ready', 'name': '" + name + "'})\n"
        "    elif message['type'] == 'move':\n"
        + "".join(f"        {statement}\n" for statement in on_move.split("\n"))
        + "    elif message['type'] == 'quit':\n"
        "        break\n"
    )
    return f"cmd:{sys.executable} {path}"


def test_a_session_greets_asks_and_reads_placements_exchange_by_exchange():
    game = StrategyGame.new(2, seed=5)
    session = Session()
    with pytest.raises(RobotError, match="greeted"):
        session.ask(game.view())
    assert json.loads(session.hello()) == {"type": "hello", "protocol": PROTOCOL}
    assert session.awaiting == "its ready message"
    with pytest.raises(RobotError, match="cannot say hello while waiting for its ready message"):
        session.hello()
    with pytest.raises(RobotError, match="expected a ready message"):
        session.ready('{"type": "move"}')
    assert session.ready('{"type": "ready", "name": "Ada"}') == "Ada" and session.awaiting is None
    with pytest.raises(RobotError, match="cannot read a placement with nothing asked"):
        session.answer('{"tile": 1, "q": 0, "r": 0, "rot": 0}')
    asked = json.loads(session.ask(game.view()))
    assert asked == move_message(game.view()) and session.awaiting == "a placement"
    with pytest.raises(RobotError, match="cannot ask for a move while waiting for a placement"):
        session.ask(game.view())
    legal = game.legal()[0]
    assert session.answer(json.dumps(legal.to_json())) == legal and session.awaiting is None
    session.ask(game.view())
    for line, reason in [("{not json", "not JSON"), ("[1, 2]", "must be an object"),
                         ('{"tile": true, "q": 0, "r": 0, "rot": 0}', "whole numbers")]:
        with pytest.raises(RobotError, match=reason):
            session.answer(line)
        session.ask(game.view())  # a refused answer ends that question; the next may be asked
    assert session.answer('{"tile": 99, "q": 7, "r": 7, "rot": 0}') == Placement(99, 7, 7, 0)  # the game judges it
    assert json.loads(session.quit()) == {"type": "quit"}


def test_a_robot_that_names_itself_oddly_is_still_greeted():
    session = Session()
    session.hello()
    assert session.ready('{"type": "ready"}') == "unnamed robot"


def test_the_example_robot_plays_a_match_to_the_end():
    result = match([EXAMPLE, "beginner"], games=2, seed=3)
    assert result["failures"] == []
    example = result["robots"][EXAMPLE]
    assert example["games"] == 2 and example["moves"] > 40 and example["forfeits"] == 0
    assert example["wins"] + example["draws"] + example["losses"] == 2


def test_the_robot_is_told_what_a_player_at_the_table_knows_and_nothing_more():
    game = StrategyGame.new(3, seed=4)
    message = move_message(game.view())
    assert message["seat"] == game.turn and message["step"] == "free"
    assert message["hands"] == game.hands and message["hand"] == game.hands[game.turn]
    assert message["unseen"] == sorted(game.unseen()) and "bag" not in message
    assert message["legal"] == [p.to_json() for p in game.legal()]
    assert message["position"] == {"tiles": [], "bag": game.bag_count}


@pytest.mark.parametrize("name, on_move, timeout, reason", [
    ("garbled", "reply('this is not json')", 60.0, "not JSON"),
    ("wrong", "reply({'tile': 'seven', 'q': 0, 'r': 0, 'rot': 0})", 60.0, "whole numbers"),
    ("illegal", "reply({'tile': message['hand'][0], 'q': 7, 'r': 7, 'rot': 0})", 60.0, "illegal placement"),
    ("crash", "sys.exit(3)", 60.0, "exit status 3"),
    ("silent", "time.sleep(30)", 0.5, "no answer within 0.5 s"),
])
def test_a_bad_answer_a_crash_or_silence_loses_the_game_and_is_reported(tmp_path, name, on_move, timeout, reason):
    """Only the silent robot is waited for briefly: the others answer at once, and given as little
    time to start a Python and say hello, a loaded machine made them "silent" too."""
    robot = program(tmp_path, name, on_move)
    result = match([robot, "beginner"], games=2, seed=1, timeout=timeout)
    assert [f["robot"] for f in result["failures"]] == [robot, robot]
    assert all(reason in f["reason"] for f in result["failures"]), result["failures"]
    assert result["robots"][robot]["forfeits"] == 2 and result["robots"]["beginner"]["wins"] == 2


def test_a_program_that_cannot_start_or_never_says_hello_is_an_error(tmp_path):
    game = StrategyGame.new(2, seed=1)
    with pytest.raises(RobotError, match="cannot start"):
        ExternalRobot(str(tmp_path / "no-such-program")).choose(game.view(), None)  # type: ignore[arg-type]
    mute = tmp_path / "mute.py"
    mute.write_text("import time\ntime.sleep(30)\n")
    robot = ExternalRobot(f"{sys.executable} {mute}", timeout=0.3)
    with pytest.raises(RobotError, match="waiting for its ready message"):
        robot.choose(game.view(), None)  # type: ignore[arg-type]
    robot.close()


def test_an_external_robot_can_sit_at_the_kiosk_table():
    game = StrategyGame.new(2, seed=2)
    robot = ExternalRobot(EXAMPLE[4:])
    try:
        for _ in range(6):
            robot_move(game, robot)
    finally:
        robot.close()
    assert len(game.board) == 6
