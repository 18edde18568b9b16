"""Scripted play of the arrangement puzzles (Discovery, Rainbow, booklet puzzles)."""

from __future__ import annotations

import json

import pytest

from engine.board import Placement
from engine.modes import Mode, Refused, restore, save
from engine.solo.puzzle import PickUp, PuzzlePlay
from engine.solver import Control, HintKind, solve
from solver_check import assert_reaches_goal


def solution_of(name: str, colours=None) -> list[Placement]:
    game = PuzzlePlay.start(name, colours)
    found = solve(game.puzzle.goal(game.goal_colours()))
    assert found.solution is not None
    return found.solution


def test_discovery_three_played_to_the_end():
    game = PuzzlePlay.start("discovery-3")
    assert isinstance(game, Mode) and game.tray == [1, 2, 3] and not game.finished
    for p in solution_of("discovery-3"):
        assert p in game.legal_actions() or game.placements == []  # first tile: any cell
        game.apply(p)
    assert game.finished and game.tray == [] and game.score == 3 and game.moves == 3
    assert game.status().chains[0].loop


def test_refusals_name_the_rule_and_change_nothing():
    game = PuzzlePlay.start("discovery-4")
    game.apply(Placement(1, 0, 0, 0))
    before = game.to_json()
    with pytest.raises(Refused) as refused:
        game.apply(Placement(9, 1, 0, 0))
    assert refused.value.rule == "no-such-tile"
    with pytest.raises(Refused) as refused:
        game.apply(Placement(2, 0, 0, 0))
    assert refused.value.rule == "occupied" and refused.value.cells == ((0, 0),)
    bad = next(Placement(2, 1, 0, rot) for rot in range(6) if rot not in game.board.fits(2, (1, 0)))
    with pytest.raises(Refused) as refused:
        game.apply(bad)
    assert refused.value.rule == "golden-rule" and (0, 0) in refused.value.cells
    assert "same colour" in refused.value.message
    assert game.to_json() == before


def test_tiles_may_lie_apart_be_moved_turned_and_picked_up_with_undo():
    game = PuzzlePlay.start("discovery-5")
    game.apply(Placement(1, 0, 0, 0))
    game.apply(Placement(2, 6, -2, 3))  # far away: puzzles may be built in pieces
    game.apply(Placement(2, 6, -2, 4))  # turned where it lies
    game.apply(Placement(1, -3, 3, 1))  # moved
    game.apply(PickUp(2))
    assert game.placements == [Placement(1, -3, 3, 1)] and game.tray == [2, 3, 4, 5]
    assert game.undo() == PickUp(2)
    assert game.placements == [Placement(1, -3, 3, 1), Placement(2, 6, -2, 4)]
    game.undo()
    assert set(game.placements) == {Placement(1, 0, 0, 0), Placement(2, 6, -2, 4)}
    game.undo()
    game.undo()
    assert game.placements == [Placement(1, 0, 0, 0)]
    game.undo()
    assert game.placements == []
    with pytest.raises(Refused) as refused:
        game.undo()
    assert refused.value.rule == "nothing-to-undo"
    with pytest.raises(Refused) as refused:
        game.apply(PickUp(3))
    assert refused.value.rule == "not-placed"


def test_save_and_restore_mid_play_loses_nothing():
    game = PuzzlePlay.start("discovery-6")
    solution = solution_of("discovery-6")
    for p in solution[:4]:
        game.apply(p)
    game.apply(PickUp(solution[1].tile))
    saved = json.loads(json.dumps(save(game)))  # as the firmware journals it
    again = restore(saved)
    assert isinstance(again, PuzzlePlay) and again.to_json() == game.to_json()
    again.undo()  # the history came along
    assert solution[1] in again.placements
    for p in solution[4:] + [solution[1]]:
        game.apply(p)
    assert game.finished


def test_bad_saves_are_refused_with_the_reason():
    good = PuzzlePlay.start("junior").to_json()
    with pytest.raises(ValueError, match="no puzzle"):
        PuzzlePlay.from_json({**good, "puzzle": "nonsense"})
    with pytest.raises(ValueError, match="tile 99"):
        PuzzlePlay.from_json({**good, "placements": [{"tile": 99, "q": 0, "r": 0, "rot": 0}]})
    with pytest.raises(ValueError, match="whole numbers"):
        PuzzlePlay.from_json({**good, "moves": -1})


def test_discovery_goes_on_keeping_the_loop():
    game = PuzzlePlay.start("discovery-4")
    with pytest.raises(Refused) as refused:
        game.advance()
    assert refused.value.rule == "not-solved"
    for p in solution_of("discovery-4"):
        game.apply(p)
    kept = game.advance(keep=True)
    assert kept.puzzle.name == "discovery-5" and kept.tray == [5]
    assert kept.placements == game.placements and not kept.finished
    fresh = game.advance(keep=False)
    assert fresh.placements == [] and fresh.tray == [1, 2, 3, 4, 5]
    with pytest.raises(Refused) as refused:
        PuzzlePlay.start("discovery-30").advance()
    assert refused.value.rule == "no-next-puzzle"


def test_a_kept_loop_can_be_finished_with_hints():
    game = PuzzlePlay.start("discovery-4")
    for p in solution_of("discovery-4"):
        game.apply(p)
    game = game.advance(keep=True)  # tile 5 is red-backed: a red loop of five
    for _ in range(12):
        given = game.hint(Control(timeout=10))
        if given.kind is HintKind.SOLVED:
            break
        if given.kind is HintKind.TAKE_BACK:
            game.apply(PickUp(given.tile))
        else:
            assert given.kind is HintKind.PLACE
            game.apply(given.placement)
    assert game.finished and game.hints >= 1
    assert_reaches_goal(game.placements, range(1, 6), ("R",), True)


def test_shaped_puzzles_keep_tiles_inside_the_pyramid():
    game = PuzzlePlay.start("rainbow-blue")
    with pytest.raises(Refused) as refused:
        game.apply(Placement(6, 1, 0, 0))
    assert refused.value.rule == "outside-shape"
    game.apply(Placement(6, -2, 3, 0))  # any cell of the pyramid, even alone
    assert all(p.cell in game.puzzle.shape for p in game.legal_actions() if isinstance(p, Placement))
    for p in solution_of("rainbow-blue"):
        game.apply(p)
    assert game.finished


def test_which_colour_puzzles_are_solved_in_whichever_colour_works():
    game = PuzzlePlay.start("rainbow-white")
    assert game.goal_colours() is None and game.choices() == (("R",), ("Y",), ("G",), ("B",))
    with pytest.raises(Refused) as refused:
        game.choose(("R", "Y"))
    assert refused.value.rule == "no-such-choice"
    for p in solution_of("rainbow-white", ("B",)):
        game.apply(p)
    assert game.finished  # blue works, without having chosen it
    game.choose(("Y",))
    assert game.finished and game.status().chains[0].colour == "B"  # aimed at yellow, found in blue: solved
    assert game.hint().kind is HintKind.IMPOSSIBLE  # the hint still aims at yellow
    game.apply(PickUp(game.placements[-1].tile))
    assert not game.finished and [c.colour for c in game.status().chains] == ["Y"]  # unsolved: the aim's progress
    assert restore(save(game)).goal_colours() == ("Y",)


def test_legal_actions_are_all_accepted():
    game = PuzzlePlay.start("student")
    game.apply(Placement(19, 0, 0, 0))
    actions = game.legal_actions()
    assert PickUp(19) in actions
    for action in actions[:: max(1, len(actions) // 25)]:
        assert game.check(action) is None
