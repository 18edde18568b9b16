"""Records replay to the identical game, tampering is caught at its step, and a game saved at any
moment resumes exactly (what the firmware's power-cut journal relies on)."""

from __future__ import annotations

import copy
import json

import pytest

from engine.board import Board, Placement
from engine.strategy.game import StrategyGame
from engine.strategy.record import RecordError, replay


def finish(game: StrategyGame, order: list[int] | None = None) -> StrategyGame:
    """Play to the end with the seats' robots; a physical bag is 'drawn' in ``order``."""
    while not game.finished:
        if game.awaiting_draw is not None:
            assert order is not None
            unseen = set(game.unseen())
            game.report_draw(next(t for t in order if t in unseen))
        else:
            game.robot_move()
    return game


GAMES = [
    *[dict(players=2, robots=["beginner", "club"], seed=s) for s in range(12)],
    *[dict(players=3, robots=["club", "beginner", "club"], seed=s) for s in range(6)],
    *[dict(players=4, robots=["beginner", "club", "beginner", "club"], seed=s) for s in range(5)],
    *[dict(players=4, robots=["club", "beginner"] * 2, doubles=True, colours="BG", seed=s) for s in range(5)],
    *[dict(players=2, robots=["club", "club"], end="first-out", seed=s) for s in range(4)],
    *[dict(players=3, robots=["beginner"] * 3, end="first-out", seed=s) for s in range(4)],
]


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: "-".join(f"{k}={v}" for k, v in s.items() if k != "robots"))
def test_robot_games_replay_to_the_same_game(setup):
    game = finish(StrategyGame.new(**setup))
    record = json.loads(json.dumps(game.record()))
    again = replay(record)
    assert again.record() == record
    assert again.board.to_json() == game.board.to_json() and again.result == game.result
    assert record["result"]["scores"] == game.scores()
    places = [e for e in record["events"] if "place" in e]
    assert len(places) == len(game.board)
    assert len(record["hands"]) == setup["players"] and all(len(h) == 6 for h in record["hands"])


def test_physical_bag_games_replay_from_their_reported_draws():
    order = list(range(56, 0, -1))
    game = finish(StrategyGame.new(3, robots=["club", "beginner", "club"], physical_bag=True, robot_seed=4), order)
    record = game.record()
    assert record["bag"] is None and record["result"] is not None
    assert replay(record).record() == record


@pytest.fixture(scope="module")
def record() -> dict:
    return finish(StrategyGame.new(2, robots=["club", "beginner"], seed=8)).record()


def tampered(record: dict, step: int, **change: object) -> dict:
    bad = copy.deepcopy(record)
    bad["events"][step - 1].update(change)
    return bad


def test_an_illegal_placement_is_rejected_with_its_step_and_rule(record):
    steps = [i for i, e in enumerate(record["events"], 1) if "place" in e and not e["forced"]]  # free moves
    step = steps[10]
    event = record["events"][step - 1]
    with pytest.raises(RecordError) as error:
        replay(tampered(record, step, q=event["q"] + 40))
    assert error.value.step == step and error.value.rule == "contact"
    with pytest.raises(RecordError) as error:
        replay(tampered(record, step, place=1 - event["place"]))
    assert error.value.step == step and error.value.rule == "not-your-turn"
    before = Board()
    for e in record["events"][: step - 1]:
        if "place" in e:
            before.push(Placement(e["tile"], e["q"], e["r"], e["rot"]))
    wrong = [r for r in range(6) if (v := before.check(Placement(event["tile"], event["q"], event["r"], r),
                                                        restricted=False)) and v.rule.value == "golden-rule"]
    with pytest.raises(RecordError) as error:
        replay(tampered(record, step, rot=wrong[0]))
    assert error.value.step == step and error.value.rule == "golden-rule"
    assert "same colour" in str(error.value)


def test_a_wrong_forced_flag_a_changed_draw_or_a_cut_record_is_rejected(record):
    steps = [i for i, e in enumerate(record["events"], 1) if "place" in e]
    step = steps[3]
    with pytest.raises(RecordError) as error:
        replay(tampered(record, step, forced=not record["events"][step - 1]["forced"]))
    assert error.value.step == step and error.value.rule == "mismatch"
    draw = next(i for i, e in enumerate(record["events"], 1) if "draw" in e and i > 20)
    with pytest.raises(RecordError) as error:
        replay(tampered(record, draw, tile=record["events"][draw - 1]["tile"] % 56 + 1))
    assert error.value.step == draw and error.value.rule == "mismatch"
    cut = copy.deepcopy(record)
    del cut["events"][-5:]
    with pytest.raises(RecordError) as error:
        replay(cut)
    assert error.value.rule == "unfinished" and error.value.step == len(cut["events"]) + 1
    wrong = copy.deepcopy(record)
    wrong["result"]["scores"] = {c: s + 1 for c, s in wrong["result"]["scores"].items()}
    with pytest.raises(RecordError, match="wrong-result"):
        replay(wrong)
    with pytest.raises(RecordError, match="bad-record"):
        replay({**record, "options": {"players": 5}})


def test_a_physical_record_refuses_a_draw_of_a_tile_that_is_not_in_the_bag():
    order = list(range(1, 57))
    record = finish(StrategyGame.new(2, robots=["beginner", "beginner"], physical_bag=True, robot_seed=1),
                    order).record()
    draws = [i for i, e in enumerate(record["events"], 1) if "draw" in e]
    step = draws[20]
    placed = next(e["tile"] for e in record["events"][: step - 1] if "place" in e)
    with pytest.raises(RecordError) as error:
        replay(tampered(record, step, tile=placed))
    assert error.value.step == step and error.value.rule == "not-in-bag"


@pytest.mark.parametrize("setup", [
    dict(players=2, robots=["beginner", "club"], seed=31),
    dict(players=3, robots=["beginner"] * 3, physical_bag=True, robot_seed=2, end="first-out"),
])
def test_a_game_saved_at_any_step_resumes_identically(setup):
    order = list(range(1, 57))[::3] + list(range(1, 57))[1::3] + list(range(1, 57))[2::3]
    game = StrategyGame.new(**setup)
    saved = []
    while not game.finished:
        saved.append(json.dumps(game.to_json()))
        if game.awaiting_draw is not None:
            unseen = set(game.unseen())
            game.report_draw(next(t for t in order if t in unseen))
        else:
            game.robot_move()
    final = game.record()
    for number, state in enumerate(saved):
        if number % 2 and not setup.get("physical_bag"):
            continue  # every other step is enough for the engine's bag; all of them for the physical one
        resumed = StrategyGame.from_json(json.loads(state))
        assert json.dumps(resumed.to_json()) == state
        assert finish(resumed, order).record() == final, f"resumed after step {number} went another way"
