"""Robots: legal play at every table size, no peeking at the bag, and an evaluation whose fast
incremental judgement agrees with judging the position from scratch."""

from __future__ import annotations

import json
import random

import pytest

from engine.strategy.game import StrategyGame
from engine.strategy.robots import LEVELS, make_robot, robot_move
from engine.strategy.robots.club import evaluator
from engine.strategy.robots.evaluation import ColourAnalysis, Evaluator
from engine.strategy.robots.expert import Expert
from engine.tiles import FACES


def test_every_level_is_made_by_name_and_unknown_names_are_refused():
    assert [make_robot(level).name for level in LEVELS] == list(LEVELS)
    with pytest.raises(ValueError, match="unknown robot 'grandmaster'"):
        make_robot("grandmaster")


def test_the_incremental_judgement_of_a_placement_equals_judging_the_position_after_it():
    rng = random.Random(5)
    compared = 0
    for seed in (1, 2):
        game = StrategyGame.new(2, robots=["club", "beginner"], seed=seed)
        while not game.finished:
            view = game.view()
            judge = evaluator(view)
            for colour in "RYGB":
                analysis = ColourAnalysis(judge, view.board, colour)
                for placement in rng.sample(view.legal(), min(6, len(view.legal()))):
                    fast = analysis.after(placement.cell, FACES[placement.tile][placement.rot])
                    view.board.push(placement)
                    slow = judge.potential(view.board, colour)
                    view.board.undo()
                    assert fast == pytest.approx(slow, abs=1e-9), (seed, len(view.board), colour, placement)
                    compared += 1
            robot_move(game)
    assert compared > 1000


def test_with_no_tiles_left_to_come_the_potential_is_the_score():
    game = StrategyGame.new(2, robots=["club", "club"], seed=3)
    while not game.finished:
        robot_move(game)
    judge = Evaluator([], 0)
    for colour in "RYGB":
        assert judge.potential(game.board, colour) == game.board.score(colour)


def test_a_view_holds_no_trace_of_the_bag_order():
    game = StrategyGame.new(2, robots=["club", "club"], seed=9)
    for _ in range(5):
        robot_move(game)
    view = game.view()
    assert view.to_json()["bag"] == game.unseen() != game.to_json()["bag"]
    record = view.record()
    assert record["bag"] is None and record["seed"] is None and record["robot_seed"] is None
    assert record["events"] == game.record()["events"] and view.robot_seed != game.robot_seed
    view.place(view.legal()[0])
    assert view.awaiting_draw == view.turn and len(game.board) == 5  # nothing drawn, the game untouched


def shuffled_bag(game: StrategyGame, seed: int) -> StrategyGame:
    """The same game with the tiles still in the bag in another order."""
    state = game.to_json()
    random.Random(seed).shuffle(state["bag"])
    return StrategyGame.from_json(json.loads(json.dumps(state)))


@pytest.mark.parametrize("robot", ["beginner", "club", Expert(budget=60, candidates=3, samples=2)],
                         ids=lambda r: r if isinstance(r, str) else "expert")
def test_robots_choose_the_same_whatever_order_the_bag_is_in(robot):
    robot = make_robot(robot) if isinstance(robot, str) else robot
    game = StrategyGame.new(2, robots=["club", "club"], seed=9)
    for _ in range(14):
        robot_move(game)
    for _ in range(3):
        other = shuffled_bag(game, len(game.board))
        assert other.unseen() == game.unseen() and other.to_json()["bag"] != game.to_json()["bag"]
        choice = robot.choose(game.view(), game.robot_rng())
        assert robot.choose(other.view(), other.robot_rng()) == choice
        game.place(choice)


@pytest.mark.parametrize("setup", [
    dict(players=3, colours="BGR"),
    dict(players=4, colours="GY", doubles=True),
])
def test_the_expert_plays_legally_at_bigger_tables_and_takes_over_a_seat_mid_game(setup):
    game = StrategyGame.new(**setup, robots=["club"] * setup["players"], seed=6)
    for _ in range(20):
        robot_move(game)
    seat = game.turn
    assert seat is not None
    game.set_robot(seat, "expert")
    expert = Expert(budget=0.05)
    moves = 0
    while moves < 8 and not game.finished:
        if game.turn == seat:
            choice = robot_move(game, expert)
            assert game.board.at(choice.cell) == choice
            moves += 1
        else:
            robot_move(game)
    assert moves == 8 and game.seats[seat].robot == "expert"



def test_a_free_move_whose_fills_leave_no_threat_is_judged_without_a_board_analysis_of_its_own(monkeypatch):
    """ranked() skips analysing the board after a forced-space move when no fill follows and no
    own line faces one cell; the skip must never hide a small-loop threat or change a value."""
    from engine.strategy.robots import club

    views = []
    for players, seed in ((2, 4), (2, 5), (3, 6)):
        game = StrategyGame.new(players, robots=["club"] * players, seed=seed)
        while not game.finished:
            views.append(game.view())
            robot_move(game)
    skipping = [club.ranked(view) for view in views]
    real = club._after_fills
    threats: list[float] = []

    def never_skipping(*args):  # the same call, told a threat may always be left
        found = real(*args[:-1], True)
        threats.append(found[2])
        return found

    monkeypatch.setattr(club, "_after_fills", never_skipping)
    assert [club.ranked(view) for view in views] == skipping
    assert len(threats) > 1000 and any(threats)


def plainly_after_fills(view: StrategyGame, placement, small: int = 6) -> tuple[float, int, float]:
    """What ranked() gives a forced-space move, worked out the plain way: every option of every
    fill judged on the whole board after it, everything analysed afresh."""
    from engine.strategy.robots.club import perspective

    mine, others = perspective(view)
    judge = evaluator(view)
    board = view.board
    rest = [t for t in view.hands[view.turn] if t != placement.tile]
    loops_before = {line.cells for line in board.lines(mine) if line.loop}
    board.push(placement)
    pushed = 1
    while rest:
        forced = [s.cell for s in board.forced_spaces()]
        options = board.legal_placements(rest, forced) if forced else []
        if not options:
            break
        judged = []
        for option in options:
            board.push(option)
            judged.append(judge.value(board, mine, others))
            board.undo()
        best = options[judged.index(max(judged))]
        board.push(best)
        pushed += 1
        rest.remove(best.tile)
    value = judge.value(board, mine, others)
    closed = [line.length for line in board.lines(mine) if line.loop and line.cells not in loops_before]
    after = ColourAnalysis(judge, board, mine)
    threat = max((judge.chance(board.requirement(cell), 2) for cell, chains in after.ends_at.items()
                  if len(chains) == 2 and chains[0] == chains[1] and after.lengths[chains[0]] < small
                  and board.is_forced(cell)), default=0.0)
    for _ in range(pushed):
        board.undo()
    return value, min((n for n in closed if n <= small), default=0), threat


def test_a_free_move_is_judged_with_its_fills_as_the_plain_way_judges_it():
    from engine.strategy.game import Step
    from engine.strategy.robots.club import _after_fills, _makes_forced_space, perspective

    compared = filled = 0
    for seed in (7, 8):
        game = StrategyGame.new(2, robots=["club", "club"], seed=seed)
        while not game.finished:
            view = game.view()
            hand = view.hands[view.turn]
            if view.step is Step.FREE and len(hand) > 1 and view.bag_count > 0:
                mine, others = perspective(view)
                judge = evaluator(view)
                own = ColourAnalysis(judge, view.board, mine)
                theirs = [ColourAnalysis(judge, view.board, c) for c in others]
                for placement in view.legal():
                    cell, face = placement.cell, FACES[placement.tile][placement.rot]
                    if not _makes_forced_space(view.board, cell):
                        continue
                    quiet = (own.after(cell, face) - max(t.after(cell, face) for t in theirs),
                             own.closes_loop(cell, face))
                    value, loop, threat = _after_fills(view.board, placement, hand, judge, own, others, 6, quiet,
                                                       True, True)
                    plain = plainly_after_fills(view, placement)
                    assert (value, loop if loop <= 6 else 0, threat) == pytest.approx(plain, abs=1e-9), placement
                    compared += 1
                    filled += value != pytest.approx(quiet[0], abs=1e-9)
            robot_move(game)
    assert compared > 500 and filled > 50
