"""Four lines and Four loops: scoring (cross-checked with the naive reference), the kiosk mode's
actions, refusals, undo and saved state, the stored best arrangements, and the anytime optimiser."""

from __future__ import annotations

import json
import multiprocessing
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, TypeVar

import pytest

import tantrix_reference as ref
from engine.board import Board, Placement
from engine.geometry import DIRECTIONS, opposite
from engine.four import FourLines, FourLoops, best_known, colour_scores, groups, incomplete, puzzle_score
from engine.modes import Refused, restore, save
from engine import optimise as optimise_module
from engine.optimise import _SCANS, _clean, _decisions, _fitted, beam_search, greedy_arrangement, optimise
from engine.polish import polish
from engine.strategy.playout import playout
from engine.tiles import ALL_NUMBERS, COLOURS, FACES

ROOT = Path(__file__).resolve().parent.parent

T = TypeVar("T")


def ended_by_cancel(search: Callable[[], T]) -> T:
    """``search()``'s answer, for a search given an hour so that only its cancel can end it in a
    test; run on a thread whose 15-minute guard fails the test, rather than hanging it, if the cancel
    is ignored (the guard is far beyond any machine's speed: no time is asserted)."""
    found: list[T] = []
    worker = threading.Thread(target=lambda: found.append(search()), daemon=True)
    worker.start()
    worker.join(timeout=900)
    assert found, "the cancel did not end the search"
    return found[0]


def reference_scores(board: Board, goal: str) -> dict[str, int]:
    """Each colour's longest line (open chain) or loop, from the naive reference's chains."""
    pos = {p.cell: (p.tile, p.rot) for p in board.placements()}
    want_loop = goal == "loops"
    return {
        c: max((n for n, loop in ref.chains(pos, c) if loop == want_loop), default=0) for c in COLOURS
    }


def shifted(board: Board) -> list[Placement]:
    """The arrangement's placements in an order a player can lay them (each touching an earlier
    one, outwards from the first), moved so that the first lies on (0, 0), where it must go."""
    first = board.placements()[0]
    order, seen = [first], {first.cell}
    for p in order:
        for d in range(6):
            n = board.at((p.q + DIRECTIONS[d][0], p.r + DIRECTIONS[d][1]))
            if n is not None and n.cell not in seen:
                seen.add(n.cell)
                order.append(n)
    return [Placement(p.tile, p.q - first.q, p.r - first.r, p.rot) for p in order]


def build(mode, placements: list[Placement]) -> None:
    for p in placements:
        mode.place(p.tile, p.cell, p.rot)


# ---------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("goal", ["lines", "loops"])
def test_the_stored_best_arrangements_are_complete_answers_with_their_score(goal):
    score, board = best_known(goal)
    assert incomplete(board) is None and len(board) == 56 and not board.golden_rule_breaks()
    assert puzzle_score(board, goal) == score == sum(reference_scores(board, goal).values())
    assert score >= {"lines": 139, "loops": 111}[goal]


def test_scores_agree_with_the_reference_on_random_arrangements():
    rng = random.Random(4)
    for board in [greedy_arrangement(rng), greedy_arrangement(rng), playout(rng, stop_after=30)]:
        for goal in ("lines", "loops"):
            assert colour_scores(board, goal) == reference_scores(board, goal)


def test_a_loop_is_not_a_line():
    # tiles 43, 45, 49 close a yellow loop (the Great Pyramid hint); find the turns by search
    board = Board()
    found = _three_tile_loop(board, (43, 45, 49), "Y")
    assert found, "tiles 43, 45 and 49 close a yellow loop"
    assert colour_scores(found, "loops")["Y"] == 3
    assert colour_scores(found, "lines")["Y"] == 0


def _three_tile_loop(board: Board, tiles: tuple[int, ...], colour: str) -> Board | None:
    if len(board) == len(tiles):
        return board if board.longest(colour)[1] == 3 else None
    tile = tiles[len(board)]
    cells = [(0, 0)] if not board else [(1, 0), (0, 1)][len(board) - 1 : len(board)]
    for p in board.legal_placements((tile,), cells, restricted=False):
        board.push(p)
        found = _three_tile_loop(board, tiles, colour)
        if found is not None:
            return found
        board.undo()
    return None


def test_incomplete_says_what_is_missing():
    board = Board()
    assert incomplete(board) == "56 of the 56 tiles are not placed yet"
    _, best = best_known("lines")
    assert incomplete(best) is None
    placements = best.placements()
    split = Board()
    for p in placements:  # the same tiles, one of them carried far away: still legal, two pieces
        split.push(p if p is not placements[-1] else Placement(p.tile, p.q + 20, p.r, p.rot))
    assert incomplete(split) == "the tiles do not form one arrangement" and len(groups(split)) == 2


# ---------------------------------------------------------------------------- the kiosk mode


def three_in_a_row() -> FourLines:
    """Three tiles in a row on (0,0), (1,0), (2,0), found through the mode's own rotation helper."""
    mode = FourLines()
    mode.place(1, (0, 0), 0)
    for tile, cell in ((2, (1, 0)), (3, (2, 0))):
        rots = mode.fitting_rotations(tile, cell)
        assert rots
        mode.place(tile, cell, rots[0])
    return mode


def test_place_refuses_with_the_rule_and_changes_nothing():
    mode = three_in_a_row()
    before = mode.to_json()
    with pytest.raises(Refused) as refused:
        mode.place(4, (5, 5), 0)
    assert refused.value.rule == "contact" and refused.value.cells == ((5, 5),)
    with pytest.raises(Refused) as refused:
        mode.place(2, (3, 0), 0)
    assert refused.value.rule == "tile-already-placed"
    bad = next(rot for rot in range(6) if rot not in mode.fitting_rotations(4, (3, 0)))
    with pytest.raises(Refused) as refused:
        mode.place(4, (3, 0), bad)
    assert refused.value.rule == "golden-rule" and (3, 0) in refused.value.cells
    assert mode.to_json() == before


def test_picking_up_or_moving_may_not_split_the_arrangement():
    mode = three_in_a_row()
    before = mode.to_json()
    with pytest.raises(Refused) as refused:
        mode.pick_up((1, 0))
    assert refused.value.rule == "one-arrangement"
    # the middle tile moved below the first: it touches (0, 0) but leaves (2, 0) alone
    rot = next((r for r in range(6) if Board.from_json({"tiles": [{"tile": 1, "q": 0, "r": 0, "rot": 0}], "bag": 0})
               .is_legal(Placement(2, 0, 1, r), restricted=False)), None)
    assert rot is not None
    judged = mode.check(Placement(2, 0, 1, rot))  # what the kiosk asks while the finger hovers
    assert judged is not None and judged.rule == "one-arrangement" and judged.cells == ((1, 0), (0, 1))
    with pytest.raises(Refused) as refused:
        mode.move((1, 0), (0, 1), rot)
    assert refused.value.rule == "one-arrangement"
    assert mode.check(Placement(4, 5, 5, 0)).rule == "contact"  # from the hand
    with pytest.raises(Refused) as refused:
        mode.move((7, 7), (0, 1), 0)
    assert refused.value.rule == "empty-cell"
    with pytest.raises(Refused) as refused:
        mode.pick_up((7, 7))
    assert refused.value.rule == "empty-cell"
    assert mode.to_json() == before
    assert {p.rot for p in mode.fitting_places(4) if p.cell == (3, 0)} == set(mode.fitting_rotations(4, (3, 0)))
    assert all(p.tile == 4 and p.cell not in mode.board for p in mode.fitting_places(4))
    assert mode.pick_up((2, 0)) == 3 and 3 in mode.hand and len(mode.board) == 2


def test_move_rotate_and_undo_each_action():
    mode = three_in_a_row()
    states = [mode.to_json()["position"]]
    end = mode.board.at((2, 0))
    assert end is not None
    target = next(
        (cell, rot) for cell in ((1, 1), (2, -1), (1, -1), (0, 1)) for rot in range(6)
        if _legal_after_lifting(mode.board, (2, 0), Placement(end.tile, *cell, rot))
    )
    mode.move((2, 0), target[0], target[1])
    assert mode.board.at(target[0]) == Placement(end.tile, *target[0], target[1]) and (2, 0) not in mode.board
    states.append(mode.to_json()["position"])
    first = mode.board.at((0, 0))
    assert first is not None
    turns = [rot for rot in range(6) if rot != first.rot and _legal_after_lifting(mode.board, (0, 0), first._replace(rot=rot))]
    if turns:
        mode.rotate((0, 0), turns[0])
        assert mode.board.at((0, 0)).rot == turns[0]
        states.append(mode.to_json()["position"])
    tile = mode.pick_up(target[0])
    assert tile == end.tile
    states.append(mode.to_json()["position"])
    while len(states) > 1:
        states.pop()
        mode.undo()
        assert mode.to_json()["position"] == states[-1]
    for _ in range(3):  # the three placements
        mode.undo()
    assert len(mode.board) == 0
    with pytest.raises(Refused) as refused:
        mode.undo()
    assert refused.value.rule == "nothing-to-undo"


def _legal_after_lifting(board: Board, cell: tuple[int, int], placement: Placement) -> bool:
    rest = Board()
    for p in board.placements():
        if p.cell != cell:
            rest.push(p)
    return placement.cell not in rest and rest.is_legal(placement, restricted=False) and len(groups(_with(rest, placement))) == 1


def _with(board: Board, placement: Placement) -> Board:
    board = board.copy()
    board.push(placement)
    return board


@pytest.mark.parametrize("cls", [FourLines, FourLoops])
def test_a_complete_arrangement_is_scored_live_and_kept_as_the_best(cls):
    goal = cls.GOAL
    stored, board = best_known(goal)
    mode = cls()
    placements = shifted(board)
    build(mode, placements[:-1])
    assert not mode.finished and mode.best_score is None and len(mode.hand) == 1
    assert mode.score == puzzle_score(mode.board, goal)
    build(mode, placements[-1:])
    assert mode.finished and mode.score == stored and mode.best_score == stored
    assert mode.device_best()[0] == stored
    # take a corner tile back: the live score may drop, the best stays
    corner = next(p for p in mode.board.placements() if mode.board.neighbour_count(p.cell) <= 2)
    mode.pick_up(corner.cell)
    assert not mode.finished and mode.best_score == stored
    best = mode.best_board()
    assert best is not None and puzzle_score(best, goal) == stored and incomplete(best) is None
    again = restore(save(mode))
    assert type(again) is cls and again == mode and again.best_score == stored
    again.undo()
    assert again.finished and again.score == stored


def test_a_saved_state_that_does_not_add_up_is_refused():
    mode = three_in_a_row()
    good = save(mode)
    assert restore(json.loads(json.dumps(good))) == mode

    def broken(**change) -> dict:
        state = {**json.loads(json.dumps(good["state"])), **change}
        return {"kind": "four-lines", "state": state}

    with pytest.raises(ValueError, match="golden rule|tile"):
        restore(broken(position={"tiles": [{"tile": 1, "q": 0, "r": 0, "rot": 0}, {"tile": 1, "q": 1, "r": 0, "rot": 0}], "bag": 0}))
    with pytest.raises(ValueError, match="no bag"):
        restore(broken(position={**good["state"]["position"], "bag": 3}))
    with pytest.raises(ValueError, match="more than one piece"):
        far = {"tile": 9, "q": 9, "r": 0, "rot": 0}
        restore(broken(position={"tiles": [*good["state"]["position"]["tiles"], far], "bag": 0}))
    with pytest.raises(ValueError, match="without its arrangement"):
        restore(broken(best_score=140))
    _, best = best_known("lines")
    with pytest.raises(ValueError, match="does not match"):
        restore(broken(best=[p.to_json() for p in best.placements()], best_score=1))
    with pytest.raises(ValueError, match="undo"):
        restore(broken(undo=[["place", 40]]))
    with pytest.raises(ValueError, match="undo"):
        restore(broken(undo=[["jump", 1]]))


# ---------------------------------------------------------------------------- the optimiser


@pytest.mark.parametrize("goal", ["lines", "loops"])
def test_progress_reports_rising_scores_of_valid_answers(goal):
    reports: list[tuple[int, Board]] = []
    enough = threading.Event()

    def progress(score: int, board: Board) -> None:
        reports.append((score, board))
        if len(reports) == 2:
            enough.set()

    score, board = optimise(goal, seconds=60.0, seed=5, cancel=enough, progress=progress)
    assert incomplete(board) is None and score == puzzle_score(board, goal)
    scores = [s for s, _ in reports]
    assert len(scores) == 2 and scores == sorted(set(scores)) and scores[-1] == score
    assert all(puzzle_score(b, goal) == s and incomplete(b) is None for s, b in reports)


def test_a_very_short_search_still_answers():
    score, board = optimise("lines", seconds=0.05, seed=1)
    assert incomplete(board) is None and score == puzzle_score(board, "lines")


def test_cancel_ends_the_search_soon_with_its_best_answer():
    cancel = threading.Event()
    reports: list[int] = []

    def progress(score: int, board: Board) -> None:
        reports.append(score)
        cancel.set()

    score, board = ended_by_cancel(lambda: optimise("loops", seconds=3600.0, seed=2, cancel=cancel, progress=progress))
    assert reports == [score] and incomplete(board) is None


def test_a_search_from_the_stored_best_never_gets_worse():
    stored, board = best_known("loops")
    score, found = optimise("loops", seconds=1.0, seed=3, start=board)
    assert score >= stored and incomplete(found) is None and puzzle_score(found, "loops") == score


def _holed(board: Board) -> Board:
    """``board`` (in the Four loops region) with its first rim tile in the scan that matches a free
    cell beside a side moved there, leaving a hole in the triangle."""
    scan = _SCANS["loops"]
    free = [side for side in scan.cells[scan.skip_from:] if board.at(side) is None]
    for i in sorted(scan.rim):
        moved = board.at(scan.cells[i])
        if moved is None:
            continue
        for side in free:
            for rot in range(6):
                holed = Board()
                for placement in board.placements():
                    if placement.cell != moved.cell:
                        holed.push(placement)
                holed.push(Placement(moved.tile, *side, rot))
                if incomplete(holed) is None and not holed.golden_rule_breaks():
                    return holed
    raise AssertionError("no rim tile of the stored best fits a free cell beside the triangle")


def test_a_start_with_a_hole_in_the_triangle_is_rebuilt_too():
    # The polish may leave a triangle cell empty and use two of the cells beside it; a rebuild from
    # such an arrangement meets a rim cell whose decided neighbour holds no tile.
    board = _fitted(best_known("loops")[1], _SCANS["loops"].cells)
    assert board is not None
    holed = _holed(board)
    assert any(holed.at(cell) is None for cell in _SCANS["loops"].cells[:_SCANS["loops"].skip_from])
    start = puzzle_score(holed, "loops")
    gained = threading.Event()  # wait for the gain, not for a time: the machine may be busy
    score, found = optimise("loops", seconds=120.0, seed=1, start=holed, cancel=gained,
                            progress=lambda s, b: s > start and gained.set())
    assert score > start and incomplete(found) is None and puzzle_score(found, "loops") == score


def test_rebuilding_improves_a_weak_start_and_reports_each_gain():
    weak = beam_search("loops", 30, random.Random(9))  # a narrow beam: a poor answer (34)
    assert weak is not None
    reports: list[int] = []
    two_gains = threading.Event()

    def progress(score: int, board: Board) -> None:
        reports.append(score)
        if len(reports) >= 3:
            two_gains.set()

    score, board = optimise("loops", seconds=120.0, seed=1, start=weak[1], cancel=two_gains, progress=progress)
    assert reports[0] == weak[0] and len(reports) >= 2 and reports == sorted(set(reports))
    assert score == reports[-1] == puzzle_score(board, "loops") > weak[0] and incomplete(board) is None


def test_workers_search_in_parallel_and_a_cancel_stops_them_all():
    reports: list[int] = []
    heard = threading.Event()

    def progress(score: int, board: Board) -> None:
        reports.append(score)
        if len(reports) >= 2:
            heard.set()  # a worker's answer reached us: enough

    score, board = optimise("lines", seconds=120.0, seed=1, workers=2, cancel=heard, progress=progress)
    assert incomplete(board) is None and score == puzzle_score(board, "lines") == reports[-1]
    assert reports == sorted(set(reports)) and len(reports) >= 2  # the workers' answers reached us
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    score, board = ended_by_cancel(lambda: optimise("loops", seconds=3600.0, seed=2, workers=2, cancel=cancel))
    assert incomplete(board) is None
    assert not multiprocessing.active_children()


def test_a_stalled_search_starts_a_fresh_round_and_reports_only_the_best(monkeypatch):
    monkeypatch.setitem(optimise_module._STALL, "loops", (0.5, 0.5))  # a round stalls within seconds
    monkeypatch.setattr(optimise_module, "_FRESH_MIN", 1.0)
    rounds: list[tuple[int | None, int, float]] = []
    real = optimise_module._round

    def spy(goal, seconds, seed, *rest):  # noqa: ANN001, ANN202
        began = time.monotonic()
        found = real(goal, seconds, seed, *rest)
        rounds.append((seed, found[0], time.monotonic() - began))
        return found

    monkeypatch.setattr(optimise_module, "_round", spy)
    reports: list[int] = []
    score, board = optimise("loops", seconds=8.0, seed=1, progress=lambda s, b: reports.append(s))
    seeds = [seed for seed, _, _ in rounds]
    assert len(rounds) >= 2 and seeds[0] == 1 and len(set(seeds)) == len(seeds)  # round 0 is the one-round search
    assert all(spent < 7.0 for _, _, spent in rounds[:-1])  # each ended when it stalled, not at the deadline
    assert score == max(found for _, found, _ in rounds) == reports[-1] == puzzle_score(board, "loops")
    assert reports == sorted(set(reports)) and incomplete(board) is None  # a later round's start is not reported


def test_polish_stops_once_it_stalls():
    region = _SCANS["loops"].cells
    _, start = best_known("loops")
    started = time.monotonic()
    score, board = polish("loops", _fitted(start, region), region, seconds=600.0, seed=1, stall=2.0)
    assert time.monotonic() - started < 600  # the stall, not the deadline, ended it
    assert score >= best_known("loops")[0] and incomplete(board) is None


def test_a_failing_progress_callback_leaves_no_worker_behind():
    reports: list[int] = []

    def progress(score: int, board: Board) -> None:
        reports.append(score)
        if len(reports) == 2:  # the first report comes before the workers start; this one from them
            raise KeyError("the caller's own bug")

    with pytest.raises(KeyError):
        optimise("lines", seconds=30.0, seed=1, workers=2, progress=progress)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("goal", ["lines", "loops"])
def test_polish_improves_a_beam_answer_and_stops_when_cancelled(goal):
    start_score, start = beam_search(goal, 30, random.Random(4))
    reports: list[tuple[int, Board]] = []
    cancel = threading.Event()

    def progress(score: int, board: Board) -> None:
        reports.append((score, board))
        cancel.set()

    region = _SCANS[goal].cells
    seed = 2**32 + 1  # any int: what the solver gets (a 32-bit seed) is the same as for 1
    score, board = ended_by_cancel(lambda: polish(
        goal, _fitted(start, region), region, seconds=3600.0, workers=2, seed=seed, cancel=cancel, progress=progress))
    assert score > start_score and [s for s, _ in reports][-1] == score
    assert incomplete(board) is None and sum(reference_scores(board, goal).values()) == score
    pos = {p.cell: (p.tile, p.rot) for p in board.placements()}
    assert all(ref.golden_ok(pos, cell, tile, rot) for cell, (tile, rot) in pos.items())


def test_polish_refuses_what_is_not_a_complete_arrangement_in_its_region():
    score, board = beam_search("lines", 30, random.Random(4))
    with pytest.raises(ValueError, match="outside the region"):
        polish("lines", board, _SCANS["lines"].cells[:40], seconds=1.0)
    short = Board()
    for p in _fitted(board, _SCANS["lines"].cells).placements()[:-1]:
        short.push(p)
    with pytest.raises(ValueError, match="not placed"):
        polish("lines", short, _SCANS["lines"].cells, seconds=1.0)


def test_each_tile_links_three_colours_so_the_beam_may_work_out_each_link_alone():
    # The beam search ranks a placement from the effect of each of its links on that link's
    # colour, worked out once per parent: right only if no tile links one colour twice.
    for tile in ALL_NUMBERS:
        for face in FACES[tile]:
            assert sorted(face.count(c) for c in set(face)) == [2, 2, 2], (tile, face)


def test_one_beam_builds_a_complete_arrangement():
    found = beam_search("lines", 60, random.Random(1))
    assert found is not None
    score, board = found
    assert incomplete(board) is None and score == sum(reference_scores(board, "lines").values())


def test_four_loops_builds_a_triangle_with_one_tile_beside_it_that_turns_onto_itself():
    found = beam_search("loops", 300, random.Random(1))  # an exact fill: a narrow beam may dead-end
    assert found is not None
    score, board = found
    assert incomplete(board) is None and score == sum(reference_scores(board, "loops").values())
    cells = {p.cell for p in board.placements()}
    facing_out = sum(1 for q, r in cells for dq, dr in DIRECTIONS if (q + dq, r + dr) not in cells)
    assert facing_out == 62  # a triangle of side 10 has 60; the 56th tile beside a side adds 2
    region = _SCANS["loops"]
    assert cells <= set(region.cells)
    for turn in region.turns:  # a rebuild may keep any side: the arrangement turned still fits
        decisions = _decisions(board, turn, region)
        assert decisions is not None and sum(d is not None for d in decisions) == 56


def test_the_loops_beam_sees_each_rim_cell_ahead_from_its_first_decided_neighbour():
    region = _SCANS["loops"]
    for j in region.rim:
        decided = sorted(region.nb[j][d] for d in region.earlier[j])
        for i in range(len(region.cells)):
            seen = [dirs for cell, dirs, *_ in region.ahead[i] if cell == j]
            if not decided or not decided[0] <= i < j:
                assert seen == []
            else:  # exactly the directions from the rim cell to its neighbours decided by then
                assert seen == [tuple(d for d in region.earlier[j] if region.nb[j][d] <= i)]


def test_clean_names_the_tiles_that_can_still_turn_a_rim_cells_chains_back():
    region = _SCANS["loops"]
    decisions = _decisions(best_known("loops")[1], 0, region)
    assert decisions is not None
    for j, pair in region.rim.items():
        dirs = region.earlier[j]
        held = [decisions[region.nb[j][d]] for d in dirs]  # (tile, rot), or None for a hole
        shown = tuple(-2 if h is None else COLOURS.index(FACES[h[0]][h[1]][opposite(d)]) for d, h in zip(dirs, held))
        mask = _clean(dirs, shown, pair)
        for other in ALL_NUMBERS:  # exactly the tiles with a turn that fits there and links the pair
            fits = any(all(c < 0 or FACES[other][r][d] == COLOURS[c] for d, c in zip(dirs, shown))
                       and FACES[other][r][pair[0]] == FACES[other][r][pair[1]] for r in range(6))
            assert bool(mask >> other & 1) == fits, (region.cells[j], other)


def test_the_solve_command():
    out = subprocess.run(
        [sys.executable, "-m", "engine", "solve", "four-loops", "--timeout", "2", "--seed", "4"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["puzzle"] == "four-loops" and found["solved"] is True and found["seconds"] > 0
    board = Board.from_json(found["position"])
    assert incomplete(board) is None and found["score"] == puzzle_score(board, "loops")
    assert found["scores"] == reference_scores(board, "loops") and found["best_known"] == best_known("loops")[0]
