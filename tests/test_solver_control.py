"""The solver never keeps the UI waiting (time limit, cancel flag, progress reports), and its hints
lead to solutions or name the tile to take back."""

from __future__ import annotations

import threading

from engine.board import Board, Placement
from engine.solo.catalogue import PUZZLES
from engine.solver import Control, Goal, HintKind, Outcome, Progress, count, hint, solve, status
from engine.solver.control import Patience
from solver_check import assert_reaches_goal

BIG = PUZZLES["discovery-10"].goal(("R",))  # counting all its red loops takes many seconds


def test_a_time_limit_stops_a_search():
    result = count(BIG, hole_free=False, control=Control(timeout=0.2))
    assert result.outcome is Outcome.TIMEOUT and result.solved is None
    assert result.count > 0  # what it had counted so far


def test_a_cancel_flag_set_from_another_thread_stops_it():
    cancel, reported = threading.Event(), threading.Event()
    reports: list[Progress] = []

    def report(progress: Progress) -> None:
        reports.append(progress)
        if len(reports) == 3:
            reported.set()

    canceller = threading.Thread(target=lambda: reported.wait() and cancel.set(), daemon=True)
    canceller.start()
    result = count(BIG, hole_free=False, control=Control(cancel=cancel, progress=report, every=256))
    reported.set()  # (were the search to end by itself, the canceller must not wait for ever)
    canceller.join()
    assert result.outcome is Outcome.CANCELLED
    assert reports and reports[-1].nodes >= reports[0].nodes > 0
    assert all(b.nodes > a.nodes for a, b in zip(reports, reports[1:]))


def test_patience_ends_an_anytime_search_at_its_deadline_on_cancel_or_once_it_stalls():
    assert not Patience(60.0).over() and Patience(0.0).over()
    now = [100.0]
    clock = lambda: now[0]  # noqa: E731
    cancel = threading.Event()
    patience = Patience(60.0, cancel, stall=0.2, clock=clock)
    now[0] += 0.1
    patience.improved()  # a better answer restarts the stall clock
    now[0] += 0.15
    assert not patience.over()
    now[0] += 0.1
    assert patience.over()  # 0.25 s without a better answer
    late = Patience(1.0, clock=clock)
    now[0] += 0.99
    assert not late.over()
    now[0] += 0.02
    assert late.over()  # its deadline
    waiting = Patience(60.0, cancel)
    assert not waiting.over()
    cancel.set()
    assert waiting.over()


def test_hint_on_an_empty_table_starts_a_solution():
    goal = PUZZLES["discovery-6"].goal()
    given = hint(goal, [])
    assert given.kind is HintKind.PLACE and given.colours == ("B",)
    assert given.placement in given.solution
    assert_reaches_goal(given.solution, goal.tiles, goal.colours, True)


def follow_hints(goal: Goal, placements: list[Placement]) -> list[Placement]:
    """Play hints until solved: each one must keep a solution within reach."""
    for _ in range(2 * len(goal.tiles)):
        given = hint(goal, placements)
        if given.kind is HintKind.SOLVED:
            return placements
        assert given.kind is HintKind.PLACE, given
        assert all(p in given.solution for p in placements)  # the player's tiles stay put
        placements = placements + [given.placement]
    raise AssertionError("hints did not lead to a solution")


def test_following_hints_solves_from_a_tile_put_anywhere():
    goal = PUZZLES["discovery-9"].goal()
    start = [Placement(5, 7, -3, 4)]  # not the middle, not rotation 0: the solution must move
    solved = follow_hints(goal, start)
    assert start[0] in solved
    assert_reaches_goal(solved, goal.tiles, goal.colours, True)


def test_following_hints_solves_a_two_colour_puzzle():
    goal = PUZZLES["professor"].goal(("Y", "B"))
    solved = follow_hints(goal, [Placement(30, 0, 0, 2)])
    assert_reaches_goal(solved, goal.tiles, goal.colours, True)


def test_a_dead_end_gets_a_take_back_hint_for_the_tile_that_spoils_it():
    goal = PUZZLES["discovery-4"].goal()  # a red loop of tiles 1..4
    yellow_loop = solve(PUZZLES["discovery-3"].goal()).solution  # tiles 1..3 in a yellow loop
    assert yellow_loop is not None
    given = hint(goal, yellow_loop)
    assert given.kind is HintKind.TAKE_BACK
    # The earliest tile that no solution keeping the ones before it allows:
    before = yellow_loop[: [p.tile for p in yellow_loop].index(given.tile)]
    assert solve(goal, before).solved is True
    assert solve(goal, before + [next(p for p in yellow_loop if p.tile == given.tile)]).solved is False


def test_hint_says_solved_and_impossible():
    goal = PUZZLES["discovery-5"].goal()
    solution = solve(goal).solution
    assert hint(goal, solution).kind is HintKind.SOLVED
    assert hint(PUZZLES["junior"].goal(("Y",)), []).kind is HintKind.IMPOSSIBLE


def test_hint_gives_up_with_unknown_when_time_is_up():
    goal = PUZZLES["genius-b"].goal()
    assert hint(goal, [], control=Control(timeout=0.05)).kind is HintKind.UNKNOWN


def test_status_reports_progress_until_solved():
    goal = PUZZLES["discovery-5"].goal()
    solution = solve(goal).solution
    board = Board()
    for p in solution[:3]:
        board.push(p)
    partial = status(board, goal)
    assert (partial.placed, partial.total, partial.solved) == (3, 5, False)
    assert partial.chains[0].length == 3 and not partial.chains[0].done
    for p in solution[3:]:
        board.push(p)
    assert status(board, goal).solved
