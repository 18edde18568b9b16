"""Tanagra robots and records: whole robot games end and replay; the expert sees what matters;
the command line plays and replays."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from engine.tanagra.cli import main, play_game
from engine.tanagra.game import Game, RecordError
from engine.tanagra.lattice import cell_at
from engine.tanagra.robots import Beginner, Expert, evaluate, make_robot
from engine.tanagra.rules import Move, Options, Pass, Pawn, Phase, Reason, Size, State

R3 = math.sqrt(3)


def B(x: float):
    return cell_at(x, -R3 / 3 if x == int(x) else -R3 / 6)


def T(x: float):
    return cell_at(x, -2 * R3 / 3 if x == int(x) else -5 * R3 / 6)


def strip(n: int) -> list:
    return [B(k) if k % 2 == 0 else T(k) for k in range(n)]


FAR = B(40)


@pytest.mark.parametrize(
    "players, levels, seed",
    [
        (2, ["beginner", "beginner"], 1),
        (3, ["beginner", "beginner", "beginner"], 2),
        (4, ["beginner", "beginner", "beginner", "beginner"], 3),
        (2, ["expert", "beginner"], 4),
        (3, ["beginner", "expert", "beginner"], 5),
        (4, ["beginner", "beginner", "beginner", "expert"], 6),
    ],
)
def test_robot_games_end_and_their_records_replay_to_the_same_state(players, levels, seed):
    options = Options(players=players, x=4, quiet_rounds=8)
    game = play_game(options, levels, seed=seed, max_depth=1)
    assert game.result is not None and game.phase is Phase.OVER
    pieces_placed = options.pieces_per_player * players
    # a game ends: quiet stretches are bounded and captures and removals are finite
    assert len(game.actions) <= pieces_placed + 2 * (8 * players + 1) * (4 * players + 24)
    record = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(record)
    assert again.state == game.state and again.actions == game.actions
    assert again.seats == [f"robot:{level}" for level in levels]


def test_a_record_with_an_illegal_action_is_refused_with_its_step():
    game = play_game(Options(players=3, x=4, quiet_rounds=3), ["beginner"] * 3, seed=7)
    record = game.to_json()
    record["actions"][13] = {"type": "move", "from": list(B(0)), "to": list(B(40))}
    with pytest.raises(RecordError) as info:
        Game.from_json(record)
    assert info.value.step == 14 and "step 14" in str(info.value)
    record = game.to_json()
    record["actions"][0] = {"type": "place", "centre": list(B(2))}
    with pytest.raises(RecordError) as info:
        Game.from_json(record)
    assert info.value.step == 1 and info.value.refusal.rule is Reason.FIRST_IN_MIDDLE
    record = game.to_json()
    record["final"]["turn"] = (record["final"]["turn"] + 1) % 3
    with pytest.raises(RecordError, match="differs"):
        Game.from_json(record)
    with pytest.raises(RecordError, match="not a tanagra-record"):
        Game.from_json({"actions": []})


def test_a_restored_game_keeps_its_undo_history():
    game = play_game(Options(players=2, x=4, quiet_rounds=3), ["beginner"] * 2, seed=8)
    again = Game.from_json(game.to_json())
    last = again.undo()
    assert last == game.actions[-1] and again.result is None
    again.apply(last)
    assert again.state == game.state


def test_expert_takes_the_winning_capture():
    state = State.position(
        Options(players=3), strip(4), {B(0): Pawn(0), T(1.5): Pawn(0), B(0.5): Pawn(1), B(3): Pawn(2)}
    )  # taking B(0.5) is the only winning move
    assert Expert(seed=1, max_depth=1).choose(state) == Move(B(0), B(0.5))


def test_expert_plans_a_move_and_its_board_change_to_isolate_everyone():
    state = State.position(Options(players=3), strip(3) + [FAR], {B(1): Pawn(0), B(2): Pawn(2), FAR: Pawn(1)})
    robot = Expert(seed=1, max_depth=2)
    state.apply(robot.choose(state))
    assert state.phase is Phase.CHANGE
    state.apply(robot.choose(state))
    assert state.result is not None and state.result.winner == 0


def test_expert_saves_its_last_small_pawn():
    black_small, black_big = Pawn(0, Size.SMALL), Pawn(0, Size.BIG)
    yellow_small, yellow_big = Pawn(1, Size.SMALL), Pawn(1, Size.BIG)
    pawns = {B(0): black_small, T(3): black_big, B(0.5): yellow_big, T(2): yellow_small, B(3.5): yellow_small}
    state = State.position(Options(players=2), strip(5), pawns)
    robot = Expert(seed=2, max_depth=2)
    while state.turn == 0:
        state.apply(robot.choose(state))
    assert state.pawn_count(0, Size.SMALL) == 1
    assert not any(wins_at_once(state, m) for m in state.moves()), "yellow can win at once"


def wins_at_once(state: State, move: Move) -> bool:
    after = state.copy()
    after.play(move)
    return after.result is not None and after.result.winner == state.turn


def test_evaluation_prefers_material_and_knows_decided_games():
    base = {B(0): Pawn(0), T(2): Pawn(1), B(3): Pawn(2), T(1): Pawn(1)}
    state = State.position(Options(players=3), strip(4), base)
    fewer_prey = State.position(Options(players=3), strip(4), {k: v for k, v in base.items() if k != T(1)})
    assert evaluate(fewer_prey, 0) > evaluate(state, 0)
    won = state.copy()
    won.apply(Move(B(0), B(0.5)))  # nothing special: not over
    assert abs(evaluate(won, 0)) < 1000
    over = State.position(Options(players=3), strip(2), {B(0.5): Pawn(0), B(1): Pawn(1), T(1.5): Pawn(2)})
    over.apply(Move(B(0.5), B(1)))
    assert evaluate(over, 0) > 1000 > -1000 > evaluate(over, 1)


def test_beginner_takes_a_winning_capture_and_answers_every_phase():
    state = State.position(
        Options(players=3), strip(4), {B(0): Pawn(0), T(1.5): Pawn(0), B(0.5): Pawn(1), B(3): Pawn(2)}
    )  # taking B(0.5) is the only winning move
    assert Beginner(seed=3).choose(state) == Move(B(0), B(0.5))
    for seed in range(5):
        building = State(Options(players=2))
        assert building.check(Beginner(seed=seed).choose(building)) is None


def test_unknown_robot_levels_are_refused():
    with pytest.raises(ValueError, match="beginner, expert"):
        make_robot("grandmaster")
    assert make_robot("expert", seed=1, time_limit=0.05).time_limit == 0.05


# ---------------------------------------------------------------------------- command line


def test_cli_plays_and_replays(tmp_path, capsys):
    assert main(["play", "--players", "2", "--robots", "beginner,expert", "--seed", "3",
                 "--quiet-rounds", "4", "--depth", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["seats"] == ["robot:beginner", "robot:expert"] and record["final"]["result"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed == {"actions": len(record["actions"]), "final": record["final"]}
    record["actions"][3]["centre"] = [90, 90, -179]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    assert "step 4: no-contact" in capsys.readouterr().err


def test_cli_refuses_bad_arguments(tmp_path, capsys):
    assert main(["play", "--players", "3", "--robots", "beginner,expert"]) == 2
    assert "argument --robots: 2 robots named for 3 players" in capsys.readouterr().err
    assert main(["play", "--players", "2", "--robots", "beginner,wizard"]) == 2
    assert "unknown robot level 'wizard'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse refuses it, in one line
        main(["play", "--players", "2", "--robots", "beginner,beginner", "--x", "9"])
    assert refused.value.code == 2
    assert "argument --x: invalid choice: 9 (choose from 4, 5, 6)" in capsys.readouterr().err
    path = tmp_path / "broken.json"
    path.write_text("{nope")
    assert main(["replay", str(path)]) == 2
    assert "bad JSON" in capsys.readouterr().err


def test_python_dash_m_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "engine.tanagra", "play", "--players", "3", "--robots",
         "beginner,beginner,beginner", "--seed", "2", "--quiet-rounds", "3"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(done.stdout)["format"] == "tanagra-record"


def test_a_tanagra_game_is_a_kiosk_mode_that_resumes_after_a_power_cut():
    from engine.modes import Refused, restore, save
    from engine.tanagra.robots import make_robot

    game = Game(Options(players=3, x=4))
    robot = make_robot("beginner", seed=5)
    for _ in range(10):
        game.apply(robot.choose(game.state))
    again = restore(save(game))
    assert isinstance(again, Game) and again.to_json() == game.to_json()
    assert again.finished is False
    wrong = Pass()  # nobody may pass while triangles are still being placed
    assert game.check(wrong) is not None
    with pytest.raises(Refused) as refused:
        again.apply(wrong)
    assert refused.value.rule == game.check(wrong).rule
