"""Every booklet puzzle is solved, every solution is re-checked twice (by the engine's own goal check
and by the independent reference rules), and the booklets' claims about colours hold."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.solo.catalogue import DISCOVERY_SIZES, PUZZLES
from engine.solver import Goal, Outcome, solve, status
from solver_check import assert_reaches_goal


def check(goal: Goal, placements) -> None:
    board = Board()
    for p in placements:
        board.push(p)
    assert status(board, goal).solved
    assert_reaches_goal(placements, goal.tiles, goal.colours, goal.closed, goal.shape)


@pytest.mark.parametrize("n", list(DISCOVERY_SIZES))
def test_every_discovery_puzzle_is_solved(n):
    puzzle = PUZZLES[f"discovery-{n}"]
    assert puzzle.tiles == tuple(range(1, n + 1))
    result = solve(puzzle.goal())
    assert result.outcome is Outcome.SOLVED
    check(puzzle.goal(), result.solution)


def test_discovery_colours_follow_the_backs_of_the_newest_tile():
    # The booklets' sequence: yellow with 1-3, then red, red, blue, blue, blue, yellow.
    assert [PUZZLES[f"discovery-{n}"].colours for n in range(3, 10)] == [
        ("Y",), ("R",), ("R",), ("B",), ("B",), ("B",), ("Y",)
    ]


@pytest.mark.parametrize("name", ["rainbow-green", "rainbow-yellow", "rainbow-blue", "rainbow-red", "genius-a", "genius-b"])
def test_puzzles_with_given_colours_are_solved(name):
    goal = PUZZLES[name].goal()
    result = solve(goal)
    assert result.outcome is Outcome.SOLVED
    check(goal, result.solution)


def test_rainbow_pyramids_fill_their_pyramids():
    for name, rows in (("rainbow-blue", 4), ("rainbow-red", 5)):
        shape = PUZZLES[name].shape
        assert shape is not None and len(shape) == rows * (rows + 1) // 2 == len(PUZZLES[name].tiles)


def working(name: str) -> list[tuple[str, ...]]:
    puzzle = PUZZLES[name]
    found = []
    for colours in puzzle.choices:
        result = solve(puzzle.goal(colours))
        assert result.solved is not None
        if result.solved:
            check(puzzle.goal(colours), result.solution)
            found.append(colours)
    return found


def test_ten_tiles_make_loops_in_red_yellow_and_blue():
    assert working("discovery-10") == [("R",), ("Y",), ("B",)]


@pytest.mark.parametrize("name, colour", [
    ("junior", "B"), ("student", "G"), ("master", "G"), ("rainbow-white", "B"),
])
def test_single_colour_puzzles_work_in_exactly_one_colour(name, colour):
    assert PUZZLES[name].choices == (("R",), ("Y",), ("G",), ("B",))
    assert working(name) == [(colour,)]


def test_professor_works_with_yellow_and_blue_loops_only():
    assert working("professor") == [("Y", "B")]


def test_an_impossible_goal_is_proved_impossible():
    # Junior has five yellow curves: a loop needs an even number, so no yellow loop exists.
    assert solve(PUZZLES["junior"].goal(("Y",))).outcome is Outcome.IMPOSSIBLE
    # Student's red loop is not ruled out by counting; the complete search proves it.
    assert solve(PUZZLES["student"].goal(("R",))).outcome is Outcome.IMPOSSIBLE
