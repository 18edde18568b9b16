"""The board's rules: hand-built positions for each rule, and properties against the naive reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tantrix_reference as ref
from engine.board import Board, IllegalPlacement, Placement, PositionError, Rule
from engine.strategy.playout import playout
from engine.tiles import ALL_NUMBERS, COLOURS, FACES


def put(board: Board, cell: tuple[int, int], demands: dict[int, str] | None = None) -> Placement:
    """Push the lowest-numbered unused tile that keeps the golden rule on ``cell`` and shows the
    ``demands`` (direction -> colour); builds positions without the restrictions."""
    need = list(board.requirement(cell))
    for d, colour in (demands or {}).items():
        need[d] = colour
    for t in ALL_NUMBERS:
        if t in board.placed_tiles():
            continue
        for rot in range(6):
            face = FACES[t][rot]
            if all(n in (".", f) for n, f in zip(need, face)):
                p = Placement(t, cell[0], cell[1], rot)
                board.push(p)
                return p
    raise AssertionError(f"no tile fits {cell} with {need}")


def as_reference(board: Board) -> ref.Position:
    return {(p.q, p.r): (p.tile, p.rot) for p in board.placements()}


# ---------------------------------------------------------------- hand-built positions


def test_first_tile_goes_in_the_middle_then_contact_is_needed():
    board = Board(bag=49)
    assert board.check(Placement(5, 2, 0, 0)).rule is Rule.CONTACT
    board.place(Placement(5, 0, 0, 0))
    violation = board.check(Placement(6, 3, 0, 0))
    assert violation.rule is Rule.CONTACT and violation.cells == ((3, 0),)
    assert board.check(Placement(5, 1, 0, 0)).rule is Rule.TILE_ALREADY_PLACED
    assert board.check(Placement(6, 0, 0, 0)).rule is Rule.OCCUPIED


def test_golden_rule_names_the_mismatching_neighbour():
    board = Board(bag=40)
    board.place(Placement(17, 0, 0, 0))  # YYGRGR: shows G towards direction 2 (SW)
    wrong = next(
        rot for rot in range(6) if FACES[3][rot][5] != "G"  # tile 3 at (-1, 1) looks back NE
    )
    refusal = board.check(Placement(3, -1, 1, wrong))
    assert refusal.rule is Rule.GOLDEN_RULE
    assert refusal.cells == ((-1, 1), (0, 0))
    with pytest.raises(IllegalPlacement) as refused:
        board.place(Placement(3, -1, 1, wrong))
    assert (refused.value.rule, refused.value.cells, refused.value.message) == (refusal.rule, refusal.cells, refusal.message)
    assert refused.value.placement == Placement(3, -1, 1, wrong)
    assert len(board) == 1  # nothing changed


def _two_red_sides() -> Board:
    """An empty cell X = (0, 0) whose neighbours at E and SE both show it red."""
    board = Board(bag=30)
    put(board, (1, 0), {3: "R"})
    put(board, (0, 1), {4: "R"})
    return board


def test_restriction_1_a_forced_space_of_one_colour():
    board = _two_red_sides()
    # a third neighbour of X, at SW, showing red towards X (its direction 5) kills X
    candidates = [
        Placement(t, -1, 1, rot)
        for t in ALL_NUMBERS if t not in board.placed_tiles()
        for rot in board.fits(t, (-1, 1))
    ]
    red = [p for p in candidates if FACES[p.tile][p.rot][5] == "R"]
    other = [p for p in candidates if FACES[p.tile][p.rot][5] != "R"]
    assert red and other
    violation = board.check(red[0])
    assert violation.rule is Rule.DEAD_FORCED_SPACE
    assert violation.cells[0] == (0, 0) and set(violation.cells[1:]) == {(1, 0), (0, 1), (-1, 1)}
    assert board.check(other[0]) is None
    board.bag = 0  # the endgame: restrictions are gone
    assert board.check(red[0]) is None


def test_restriction_2_a_space_with_four_neighbours():
    board = Board(bag=30)
    put(board, (1, 0))
    put(board, (0, 1))
    put(board, (-1, 1))  # (0, 0) is now a forced space with three neighbours
    assert [s.cell for s in board.forced_spaces()] == [(0, 0)]
    fourth = next(p for p in board.legal_placements(ALL_NUMBERS, [(-1, 0)], restricted=False))
    violation = board.check(fourth)
    assert violation.rule is Rule.FOUR_NEIGHBOURS and violation.cells == ((0, 0),)
    assert board.legal_placements(ALL_NUMBERS, [(-1, 0)]) == []
    board.bag = 0
    assert board.check(fourth) is None


def _row_with_far_tile() -> Board:
    """Tiles along row r = 0 from q = 0 to 3, and one at (4, -1): the cells (1..3, -1) above the
    row form a controlled side three cells long once (0, -1) is played."""
    board = Board(bag=30)
    for q in range(4):
        put(board, (q, 0))
    put(board, (4, -1))
    return board


def test_restriction_3_a_controlled_side_three_cells_long():
    board = _row_with_far_tile()
    assert [s.cell for s in board.forced_spaces()] == [(3, -1)]
    along = board.legal_placements(ALL_NUMBERS, [(0, -1)], restricted=False)
    assert along
    violation = board.check(along[0])
    assert violation.rule is Rule.CONTROLLED_SIDE
    assert violation.cells[0] == (2, -1)  # it would get four neighbours
    assert set(violation.cells[1:]) == {(1, -1), (3, -1)}  # the spaces filled first
    assert board.legal_placements(ALL_NUMBERS, [(0, -1)]) == []
    # filling the forced spaces from the far end first is the legal way along the side
    fill = board.legal_placements(ALL_NUMBERS, [(3, -1)])
    assert fill and all(board.is_forced(p.cell) for p in fill)
    board.bag = 0
    assert board.check(along[0]) is None


def test_restriction_3_two_forced_spaces_filled_in_the_same_step_touch():
    board = Board(bag=30)
    for q in range(4):
        put(board, (q, 0))
    put(board, (3, -1))  # (2, -1) is a forced space; playing (0, -1) makes (1, -1) one too
    along = board.legal_placements(ALL_NUMBERS, [(0, -1)], restricted=False)
    violation = board.check(along[0])
    assert violation.rule is Rule.CONTROLLED_SIDE
    assert set(violation.cells) == {(1, -1), (2, -1)}


def test_restrictions_bind_forced_fills_too():
    board = _two_red_sides()
    put(board, (-1, 1), {5: "B"})  # X = (0, 0) is forced with R R B
    assert board.is_forced((0, 0))
    fills = board.legal_placements(ALL_NUMBERS, [(0, 0)], restricted=False)
    assert fills
    for fill in fills:  # same verdict as the naive reference, whatever the tile
        expected = ref.legal(as_reference(board), fill.tile, (0, 0), fill.rot, restricted=True)
        assert board.is_legal(fill) == expected


def test_holes_are_enclosed_empty_cells():
    board = Board()
    ring = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    for cell in ring[:5]:
        put(board, cell)
    assert board.holes() == []
    put(board, ring[5])
    assert board.holes() == [[(0, 0)]]
    assert board.forced_spaces()[0].cell == (0, 0) and len(board.forced_spaces()[0].pattern) == 6


def test_a_loop_scores_double():
    # tiles 1, 2, 3 close a yellow loop (the first Discovery puzzle); find it by brute force
    for rots in [(a, b, c) for a in range(6) for b in range(6) for c in range(6)]:
        board = Board()
        cells = [(0, 0), (1, 0), (0, 1)]
        try:
            for t, cell, rot in zip((1, 2, 3), cells, rots):
                board.place(Placement(t, *cell, rot), restricted=False)
        except IllegalPlacement:
            continue
        if board.longest("Y")[1] == 3:
            break
    else:
        raise AssertionError("no yellow loop with tiles 1, 2, 3")
    assert board.lines("Y")[0].loop and board.score("Y") == 6


# ---------------------------------------------------------------------------- JSON


def test_position_json_round_trip_and_errors():
    board = playout(random.Random(3), stop_after=20)
    board.bag = 17
    data = board.to_json()
    again = Board.from_json(data)
    assert again.to_json() == data and again.scores() == board.scores()
    bad = [
        ({"tiles": [{"tile": 57, "q": 0, "r": 0, "rot": 0}], "bag": 3}, "unknown tile 57"),
        ({"tiles": [{"tile": 5, "q": 0, "r": 0, "rot": 0}, {"tile": 5, "q": 1, "r": 0, "rot": 0}]}, "appears twice"),
        ({"tiles": [{"tile": 5, "q": 0, "r": 0, "rot": 0}, {"tile": 6, "q": 0, "r": 0, "rot": 0}]}, "holds two tiles"),
        ({"tiles": [{"tile": 5, "q": 0, "r": 0, "rot": 9}]}, "rot must be 0..5"),
        ({"tiles": "x"}, "\"tiles\" must be a list"),
        ({"tiles": [], "bag": -1}, "\"bag\""),
        ([1, 2], "JSON object"),
    ]
    for data, words in bad:
        with pytest.raises(PositionError, match=words):
            Board.from_json(data)
    # two tiles touching with different colours: the golden rule is named
    rot6 = next(r for r in range(6) if FACES[6][r][3] != FACES[5][0][0])
    with pytest.raises(PositionError, match="golden rule"):
        Board.from_json({"tiles": [{"tile": 5, "q": 0, "r": 0, "rot": 0}, {"tile": 6, "q": 1, "r": 0, "rot": rot6}]})


# --------------------------------------------------------- properties against the reference

positions = st.builds(
    lambda seed, size, bag: (seed, size, bag),
    st.integers(0, 10**9),
    st.integers(0, 56),
    st.sampled_from([0, 1, 12]),
)


def _position(seed: int, size: int, bag: int) -> tuple[Board, random.Random]:
    rng = random.Random(seed)
    board = playout(rng, stop_after=size)
    board.bag = bag if len(board) + bag <= 56 else 0
    return board, rng


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(1, 6))
def test_legal_placements_equal_brute_force(case, hand_size):
    board, rng = _position(*case)
    unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
    hand = rng.sample(unplaced, min(hand_size, len(unplaced)))
    listed = board.legal_placements(hand)
    expected = ref.legal_placements(as_reference(board), hand, board.restricted)
    assert set(listed) == expected
    assert len(listed) == len(set(listed))
    for p in listed:  # and each one really keeps the golden rule
        assert ref.golden_ok(as_reference(board), p.cell, p.tile, p.rot)
        assert board.check(p) is None


@settings(max_examples=60, deadline=None)
@given(positions)
def test_check_agrees_with_the_reference_on_every_golden_candidate(case):
    board, _ = _position(*case)
    unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
    pos = as_reference(board)
    for p in board.legal_placements(unplaced, restricted=False)[:400]:
        expected = ref.legal(pos, p.tile, p.cell, p.rot, restricted=board.restricted)
        violation = board.check(p)
        assert (violation is None) == expected, (p, violation)
        if violation is not None:
            assert violation.rule in (Rule.DEAD_FORCED_SPACE, Rule.FOUR_NEIGHBOURS, Rule.CONTROLLED_SIDE)
            assert violation.cells and violation.message


@settings(max_examples=60, deadline=None)
@given(positions)
def test_scores_and_lines_equal_a_brute_force_walk(case):
    board, _ = _position(*case)
    pos = as_reference(board)
    for colour in COLOURS:
        assert board.score(colour) == ref.score(pos, colour)
        ours = sorted((line.length, line.loop) for line in board.lines(colour))
        assert ours == sorted(ref.chains(pos, colour))
        for line in board.lines(colour):  # consecutive cells of a chain touch
            assert all(
                abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1]) == 2
                for a, b in zip(line.cells, line.cells[1:])
            )


def _state(board: Board) -> tuple:
    return (
        board.to_json(),
        sorted(board.frontier()),
        board.forced_spaces(),
        {c: board.requirement(c) for c in board.frontier()},
        board.scores(),
    )


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(1, 8))
def test_undo_restores_the_exact_previous_state(case, steps):
    board, rng = _position(*case)
    before = _state(board)
    internals = (dict(board._count), dict(board._need), set(board._forced), dict(board._tile_at))
    board.legal_placements(ALL_NUMBERS)  # warm the caches: undo must not keep stale ones
    pushed = 0
    for _ in range(steps):
        remaining = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
        legal = board.legal_placements(remaining[:6])
        if not legal:
            break
        board.push(rng.choice(legal))
        pushed += 1
    for _ in range(pushed):
        board.undo()
    assert _state(board) == before
    assert (board._count, board._need, board._forced, board._tile_at) == internals
    fresh = Board.from_json(board.to_json())
    unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()][:6]
    assert board.legal_placements(unplaced) == fresh.legal_placements(unplaced)


def test_forced_spaces_list_patterns_clockwise_from_east():
    board = Board(bag=10)
    east = put(board, (1, 0))
    south_east = put(board, (0, 1))
    west = put(board, (-1, 0))
    (space,) = board.forced_spaces()
    assert space.cell == (0, 0)
    assert space.pattern == FACES[east.tile][east.rot][3] + FACES[south_east.tile][south_east.rot][4] + FACES[west.tile][west.rot][0]


def test_the_fits_table_stays_bounded(monkeypatch):
    """A kiosk meets new (tile, requirement) pairs game after game: the table of answers is capped."""
    import engine.board as board_module

    monkeypatch.setattr(board_module, "FITS_KEPT", 100)
    needs = [a + b + "...." for a in ".RYGB" for b in ".RYGB"]
    for tile in range(1, 57):
        for need in needs:
            board_module.fits(tile, need)
    assert 0 < len(board_module._FITS) <= 100
    assert board_module.fits(1, "......") == (0, 1, 2, 3, 4, 5)  # answers stay right after a fresh start
