"""Tanagra's rules on positions built by hand: building, moves, captures, board changes, ends,
refusals, undo and JSON.

Most positions lie on a *strip*: pieces 0, 1, 2... side by side along the x axis, even ones
pointing up, odd ones down. It has two rows of cells, named by the x of their middles in half
units: ``B(x)`` in the bottom row, ``T(x)`` in the top row. Piece 2m covers B(2m-0.5), B(2m),
B(2m+0.5), T(2m); piece 2m+1 covers T(2m+0.5), T(2m+1), T(2m+1.5), B(2m+1). Neighbouring cells of
a row touch, and B(k) touches T(k) for whole k.
"""

from __future__ import annotations

import math

import pytest

from engine.actions import Refused
from engine.tanagra.game import Game
from engine.tanagra.lattice import FIRST_CENTRES, cell_at, neighbours, piece_cells
from engine.tanagra.rules import (
    EndReason,
    IllegalAction,
    Leave,
    Move,
    Options,
    Pass,
    Pawn,
    Phase,
    Place,
    PositionError,
    Reason,
    Relocate,
    Remove,
    Size,
    State,
    action_from_json,
    action_to_json,
)

R3 = math.sqrt(3)


def B(x: float):
    return cell_at(x, -R3 / 3 if x == int(x) else -R3 / 6)


def T(x: float):
    return cell_at(x, -2 * R3 / 3 if x == int(x) else -5 * R3 / 6)


def piece(k: int):
    """The centre of strip piece ``k``."""
    return B(k) if k % 2 == 0 else T(k)


def strip(n: int, start: int = 0) -> list:
    return [piece(k) for k in range(start, start + n)]


FAR = piece(40)  # a piece far from any short strip: isolated


def position(pieces, pawns, players=3, turn=0, **options) -> State:
    return State.position(Options(players=players, **options), pieces, pawns, turn)


def P(owner: int, size: str | None = None) -> Pawn:
    return Pawn(owner, None if size is None else Size(size))


def refusal(state: State, action) -> Reason | None:
    found = state.check(action)
    return None if found is None else found.rule


def test_the_strip_helpers_describe_the_strip():
    assert set(piece_cells(piece(0))) == {B(-0.5), B(0), B(0.5), T(0)}
    assert set(piece_cells(piece(1))) == {T(0.5), T(1), T(1.5), B(1)}
    assert set(neighbours(B(0))) == {B(-0.5), B(0.5), T(0)}
    assert set(neighbours(T(1))) == {T(0.5), T(1.5), B(1)}
    assert piece(0) == FIRST_CENTRES[0]


# ---------------------------------------------------------------------------------- building


def test_building_three_players_takes_turns_and_puts_a_pawn_on_each_centre():
    state = State(Options(players=3, x=4))
    assert state.phase is Phase.BUILD and state.turn == 0
    assert sorted(a.centre for a in state.legal_actions()) == sorted(FIRST_CENTRES)
    order = []
    while state.phase is Phase.BUILD:
        order.append(state.turn)
        action = state.legal_actions()[0]
        state.apply(action)
        assert state.pawns[action.centre] == Pawn(order[-1])
    assert order == [0, 1, 2] * 4
    assert state.phase is Phase.MOVE and state.turn == 0
    assert len(state.pieces()) == 12 and all(state.pawn_count(s) == 4 for s in range(3))


def test_placement_rules_first_in_middle_contact_by_a_side_and_no_overlap():
    state = State(Options(players=3, x=4))
    assert refusal(state, Place(piece(2))) is Reason.FIRST_IN_MIDDLE
    state.apply(Place(piece(0)))
    assert refusal(state, Place(piece(0))) is Reason.OVERLAP
    assert refusal(state, Place(B(0.5))) is Reason.OVERLAP  # shares a cell
    assert refusal(state, Place(piece(2))) is Reason.NO_CONTACT  # touches piece 0 at a corner only
    assert refusal(state, Place(FAR)) is Reason.NO_CONTACT
    assert refusal(state, Place((0, 0, 0))) is Reason.BAD_CELL
    assert refusal(state, Place(piece(1), Size.BIG)) is Reason.BAD_SIZE
    assert refusal(state, Place(piece(1))) is None
    assert refusal(state, Move(piece(0), B(0.5))) is Reason.WRONG_PHASE
    legal = state.legal_actions()
    assert Place(piece(1)) in legal and Place(piece(2)) not in legal
    for action in legal:
        assert state.check(action) is None


def test_two_players_place_a_triangle_per_pawn_choosing_its_size():
    state = State(Options(players=2, x=4))
    assert refusal(state, Place(piece(0))) is Reason.BAD_SIZE
    assert {a.size for a in state.legal_actions()} == {Size.SMALL, Size.BIG}
    k = 0
    state.apply(Place(piece(k), Size.SMALL))
    assert state.pawns[piece(0)] == P(0, "small")
    for _ in range(3):  # seat 0 puts all four small pawns down
        k += 1
        state.apply(Place(piece(k), Size.BIG))  # seat 1
        k += 1
        state.apply(Place(piece(k), Size.SMALL))  # seat 0
    k += 1
    state.apply(Place(piece(k), Size.BIG))
    assert state.turn == 0
    assert refusal(state, Place(piece(k + 1), Size.SMALL)) is Reason.NO_PAWN_LEFT
    assert {a.size for a in state.legal_actions()} == {Size.BIG}
    while state.phase is Phase.BUILD:
        state.apply(state.legal_actions()[0])
    assert len(state.pieces()) == 16 and state.phase is Phase.MOVE and state.turn == 0


# ------------------------------------------------------------------------------------ moves


def test_a_step_goes_to_any_touching_cell_of_the_table():
    state = position(strip(2) + [FAR], {B(0): P(0), FAR: P(1), T(1): P(2)})
    assert {m.target for m in state.moves_from(B(0))} == {B(-0.5), B(0.5), T(0)}
    assert all(m.is_step for m in state.moves_from(B(0)))


def test_a_step_crosses_from_one_piece_to_the_next_but_not_off_the_table():
    state = position(strip(2) + [FAR], {B(0.5): P(0), FAR: P(1), T(1): P(2)})
    assert {m.target for m in state.moves_from(B(0.5))} == {B(0), B(1)}
    assert state.piece_at(B(1)) == piece(1)
    assert refusal(state, Move(B(0.5), (1, 0, 0))) is Reason.OFF_BOARD  # the cell below B(0.5)


def test_a_jump_over_one_pawn_lands_on_a_cell_touching_it():
    state = position(strip(2) + [FAR], {B(0): P(0), B(0.5): P(2), FAR: P(1)})
    targets = {m.target for m in state.moves_from(B(0))}
    assert targets == {B(-0.5), T(0), B(1)}
    assert not Move(B(0), B(1)).is_step
    assert refusal(state, Move(B(0), B(0.5))) is Reason.CANNOT_TAKE


def test_a_jump_over_a_chain_of_identical_pawns_lands_next_to_any_of_them():
    pawns = {B(0): P(0), B(0.5): P(2), B(1): P(2), B(1.5): P(2), FAR: P(1)}
    state = position(strip(3) + [FAR], pawns)
    # the chain B(0.5)-B(1)-B(1.5) touches B(0) (the mover), T(1) and B(2)
    assert {m.target for m in state.moves_from(B(0))} == {B(-0.5), T(0), T(1), B(2)}
    state.apply(Move(B(0), B(2)))
    assert state.pawns[B(2)] == P(0) and B(0) not in state.pawns


def test_a_chain_stops_at_a_different_pawn():
    pawns = {B(0): P(0), B(0.5): P(2), B(1): P(1), B(1.5): P(2), T(1.5): P(1)}
    state = position(strip(3), pawns)
    targets = {m.target for m in state.moves_from(B(0))}
    assert B(1) in targets  # the pawn of seat 1 past the chain is taken by a jump
    assert B(2) not in targets and T(1) not in targets  # B(1.5) is not in the chain of B(0.5)


def test_own_pawns_form_chains_too_but_the_mover_is_not_part_of_one():
    state = position(strip(3) + [FAR], {B(0.5): P(0), B(0): P(0), B(1): P(0), FAR: P(1), T(2): P(2)})
    # from B(0.5): over B(0) to B(-0.5) or T(0); over B(1) to T(1) or B(1.5)
    assert {m.target for m in state.moves_from(B(0.5))} == {B(-0.5), T(0), T(1), B(1.5)}
    # from B(0): over the chain B(0.5)-B(1) to T(1) or B(1.5)
    assert {m.target for m in state.moves_from(B(0))} == {B(-0.5), T(0), T(1), B(1.5)}


def test_a_jump_never_lands_on_an_own_pawn_nor_off_the_table():
    state = position(strip(2) + [FAR], {B(0): P(0), B(0.5): P(2), B(1): P(0), FAR: P(1)})
    assert {m.target for m in state.moves_from(B(0))} == {B(-0.5), T(0)}
    assert refusal(state, Move(B(0), B(1))) is Reason.OCCUPIED


# --------------------------------------------------------------------------------- captures


def test_three_players_take_only_the_pawns_of_the_player_on_their_left():
    state = position(strip(3), {B(0): P(0), B(0.5): P(1), B(-0.5): P(2), T(1): P(1), T(2): P(2)})
    assert refusal(state, Move(B(0), B(0.5))) is None
    assert refusal(state, Move(B(0), B(-0.5))) is Reason.CANNOT_TAKE
    assert "left" in state.check(Move(B(0), B(-0.5))).message
    state.apply(Move(B(0), B(0.5)))
    assert state.pawns[B(0.5)] == P(0) and state.pawn_count(1) == 1 and state.result is None
    assert state.turn == 1


def test_four_players_capture_table_runs_around_the_table():
    state = position(strip(1), {B(0): P(0)}, players=4)
    assert [s for s in range(4) if state.takes(P(0), P(s))] == [1]
    assert [s for s in range(4) if state.takes(P(3), P(s))] == [0]
    assert not state.takes(P(0), P(2)) and not state.takes(P(2), P(0))


def test_two_players_black_takes_same_size_yellow_takes_the_other_size():
    state = position(strip(1), {B(0): P(0, "small"), T(0): P(1, "big")}, players=2)
    expected = {
        ("small", "small"): (True, False),  # (black small takes yellow small, yellow small takes black small)
        ("big", "big"): (True, False),
        ("small", "big"): (False, True),  # black small vs yellow big: only yellow big takes it
        ("big", "small"): (False, True),
    }
    for (black, yellow), (black_takes, yellow_takes) in expected.items():
        assert state.takes(P(0, black), P(1, yellow)) is black_takes
        assert state.takes(P(1, yellow), P(0, black)) is yellow_takes
    assert refusal(state, Move(B(0), T(0))) is Reason.CANNOT_TAKE
    assert "small yellow" in state.check(Move(B(0), T(0))).message


def test_two_player_capture_by_move_and_by_jump():
    pawns = {
        B(0): P(0, "big"), B(0.5): P(1, "big"), B(1): P(1, "small"), T(1): P(1, "small"),
        T(0): P(1, "small"), B(-0.5): P(0, "small"),
    }
    state = position(strip(2), pawns, players=2)
    targets = {m.target for m in state.moves_from(B(0))}
    assert B(0.5) in targets  # big black takes big yellow
    assert B(1) not in targets  # small yellow, jumped over big yellow: not takeable by a big black
    state.apply(Move(B(-0.5), T(0)))  # small black takes small yellow
    assert state.pawns[T(0)] == P(0, "small") and state.turn == 1
    # a small yellow takes a big black: B(1) reaches B(0) by jumping over the big yellow on B(0.5)
    assert Move(B(1), B(0)) in state.moves_from(B(1))


# ------------------------------------------------------------------------- board changes


def leave_piece_zero() -> State:
    """Seat 0's only pawn on piece 0 steps onto piece 1, emptying piece 0."""
    state = position(strip(4), {B(0.5): P(0), T(2): P(1), B(3): P(2), T(1.5): P(0)})
    state.apply(Move(B(0.5), B(1)))
    return state


def test_emptying_a_piece_asks_the_mover_what_to_do_with_it():
    state = leave_piece_zero()
    assert state.phase is Phase.CHANGE and state.pending == piece(0) and state.turn == 0
    legal = state.legal_actions()
    assert legal[:2] == [Leave(), Remove()]
    relocations = {a.centre for a in legal[2:]}
    assert relocations and piece(0) not in relocations
    assert all(state.check(Relocate(c)) is None for c in relocations)
    assert refusal(state, Move(B(1), B(1.5))) is Reason.WRONG_PHASE
    assert refusal(state, Pass()) is Reason.WRONG_PHASE


def test_leave_keeps_the_piece():
    state = leave_piece_zero()
    state.apply(Leave())
    assert state.phase is Phase.MOVE and state.turn == 1 and piece(0) in state.pieces()


def test_remove_takes_the_piece_out_for_good():
    state = leave_piece_zero()
    state.apply(Remove())
    assert piece(0) not in state.pieces() and len(state.pieces()) == 3 and state.turn == 1
    assert state.piece_at(B(0)) is None


def test_relocate_puts_the_piece_elsewhere_touching_another_piece():
    state = leave_piece_zero()
    assert refusal(state, Relocate(piece(0))) is Reason.SAME_PLACE
    assert refusal(state, Relocate(piece(3))) is Reason.OVERLAP
    assert refusal(state, Relocate(FAR)) is Reason.NO_CONTACT
    # touching only the piece being moved does not count: piece -1 touched piece 0 alone
    assert refusal(state, Relocate(piece(-1))) is Reason.NO_CONTACT
    state.apply(Relocate(piece(4)))
    assert state.pieces() == sorted(strip(4, start=1)) and state.turn == 1


def test_relocating_may_overlap_where_the_piece_itself_lay():
    state = leave_piece_zero()
    overlapping = [c for c in state.placements(lifted=piece(0))
                   if set(piece_cells(c)) & set(piece_cells(piece(0)))]
    assert overlapping
    state.apply(Relocate(overlapping[0]))
    assert state.piece_at(overlapping[0]) == overlapping[0]


def test_no_board_change_inside_a_piece_or_when_the_piece_keeps_a_pawn():
    state = position(strip(2) + [FAR], {B(0): P(0), T(0): P(0), FAR: P(1), T(1.5): P(2)})
    state.apply(Move(B(0), B(0.5)))  # same piece
    assert state.phase is Phase.MOVE and state.turn == 1
    state = position(strip(2) + [FAR], {B(0.5): P(0), T(0): P(0), FAR: P(1), T(1.5): P(2)})
    state.apply(Move(B(0.5), B(1)))  # onto piece 1, but T(0) still stands on piece 0
    assert state.phase is Phase.MOVE and state.turn == 1


def test_a_capture_that_empties_a_piece_also_asks_for_a_board_change():
    state = position(strip(2), {B(0.5): P(0), B(1): P(1), T(1.5): P(1), T(0.5): P(2)})
    state.apply(Move(B(0.5), B(1)))
    assert state.phase is Phase.CHANGE and state.pawn_count(1) == 1


# ---------------------------------------------------------------------------------- ends


def test_taking_the_last_pawn_of_the_left_neighbour_wins_at_once():
    state = position(strip(2), {B(0.5): P(0), B(1): P(1), T(1.5): P(2)})
    state.apply(Move(B(0.5), B(1)))  # empties piece 0, but the game is over: no board change
    assert state.phase is Phase.OVER and state.pending is None
    assert state.result == (0, EndReason.LEFT_TAKEN)
    assert state.legal_actions() == []
    assert refusal(state, Move(B(1), B(1.5))) is Reason.GAME_OVER


def test_two_players_taking_every_opponent_pawn_of_one_size_wins():
    pawns = {B(0): P(0, "small"), B(0.5): P(1, "small"), T(1): P(1, "big"), T(0): P(0, "big")}
    state = position(strip(2), pawns, players=2)
    state.apply(Move(B(0), B(0.5)))
    assert state.result == (0, EndReason.SIZE_TAKEN)
    pawns = {B(0): P(0, "big"), B(0.5): P(1, "small"), B(-0.5): P(1, "small"), T(1): P(0, "small")}
    state = position(strip(2), pawns, players=2, turn=1)
    state.apply(Move(B(0.5), B(0)))  # small yellow takes the last big black
    assert state.result == (1, EndReason.SIZE_TAKEN)


def isolation_position(**kw) -> State:
    """Seat 0 on piece 1 (the bridge to piece 2, where seat 2 stands); seat 1 stands far away."""
    return position(strip(3) + [FAR], {B(1): P(0), B(2): P(2), FAR: P(1)}, **kw)


def test_isolating_every_other_players_pawns_wins():
    state = isolation_position()
    state.apply(Move(B(1), B(0.5)))
    state.apply(Leave())
    assert state.result is None  # piece 2 still touches piece 1
    state = isolation_position()
    state.apply(Move(B(1), B(0.5)))
    state.apply(Remove())
    assert state.result == (0, EndReason.ISOLATED)


def test_isolation_can_make_another_player_win():
    # seat 0 isolates seat 2 and, with it, its own pawn; seat 1 stands on a pair of pieces far
    # away, so seat 1 is the player whose opponents are all isolated, and it wins
    pieces = strip(3) + strip(2, start=10)
    state = position(pieces, {B(1): P(0), B(2): P(2), B(10): P(1)})
    state.apply(Move(B(1), B(1.5)))  # seat 0 joins seat 2 on piece 2 and empties piece 1
    state.apply(Remove())
    assert state.result == (1, EndReason.ISOLATED)


def test_isolation_goal_applies_with_two_players():
    state = position(strip(3) + [FAR], {B(1): P(0, "small"), B(2): P(1, "big"), FAR: P(1, "small"),
                                T(0): P(0, "big")}, players=2)
    state.apply(Move(B(1), B(0.5)))
    state.apply(Remove())
    assert state.result == (0, EndReason.ISOLATED)


def test_the_last_player_holding_a_piece_of_their_own_wins():
    pawns = {
        B(0): P(1), T(0): P(2),  # piece 0 shared by seats 1 and 2
        T(1): P(2),  # piece 1: seat 2's own
        B(1.5): P(0),  # piece 2: seat 0's, about to move onto piece 1
        B(3): P(0),  # piece 3: seat 0's own
    }
    state = position(strip(4), pawns)
    assert state.holders() == {0, 2}
    state.apply(Move(B(1.5), B(1)))  # onto piece 1 beside seat 2's pawn; piece 2 is emptied
    assert state.phase is Phase.CHANGE
    state.apply(Leave())
    assert state.holders() == {0}
    assert state.result == (0, EndReason.LAST_HOLDER)


def test_holding_rule_is_for_three_and_four_players_only():
    pawns = {
        B(0): P(0, "small"), T(0): P(1, "small"),  # piece 0 shared
        T(1): P(1, "big"),  # piece 1: yellow's own
        B(1.5): P(0, "big"),  # piece 2: black's, about to move onto piece 1
        B(3): P(0, "small"),  # piece 3: black's own
    }
    state = position(strip(4), pawns, players=2)
    state.apply(Move(B(1.5), B(1)))
    state.apply(Leave())
    assert state.holders() == {0} and state.result is None


def test_quiet_rounds_without_capture_or_removal_draw():
    pawns = {B(-0.5): P(0), B(2.5): P(1), T(1): P(2)}
    state = position(strip(3), pawns, quiet_rounds=1)
    for origin, target in ((B(-0.5), B(0)), (B(2.5), B(2))):
        state.apply(Move(origin, target))
        assert state.result is None
    state.apply(Move(T(1), T(1.5)))
    assert state.result == (None, EndReason.QUIET)


def test_a_capture_or_a_removal_resets_the_quiet_count():
    pawns = {B(-0.5): P(0), B(3): P(0), T(1.5): P(1), B(2.5): P(1), T(0): P(2)}
    state = position(strip(4), pawns, quiet_rounds=1)
    state.apply(Move(B(-0.5), B(0)))
    state.apply(Move(B(2.5), B(2)))
    assert state.quiet == 2
    state.apply(Move(T(0), B(0)))  # seat 2 takes seat 0's pawn: the third move is not quiet
    assert state.quiet == 0 and state.result is None
    state.apply(Move(B(3), T(3)))
    assert state.quiet == 1
    state = leave_piece_zero()
    assert state.quiet == 1
    state.apply(Remove())
    assert state.quiet == 0


def blocked_position(extra: dict | None = None) -> State:
    """Four players, two full clusters: seats 0 and 2 (who never take each other) jam pieces 0-1,
    seats 1 and 3 jam pieces 10-11. Nobody can move."""
    left = [B(-0.5), B(0), B(0.5), T(0), T(0.5), T(1), T(1.5), B(1)]
    right = [B(9.5), B(10), B(10.5), T(10), T(10.5), T(11), T(11.5), B(11)]
    pawns = {cell: P(0 if i % 2 == 0 else 2) for i, cell in enumerate(left)}
    pawns |= {cell: P(1 if i % 2 == 0 else 3) for i, cell in enumerate(right)}
    return position(strip(2) + strip(2, start=10), pawns | (extra or {}), players=4)


def test_a_player_who_cannot_move_passes_and_everyone_passing_is_a_draw():
    state = blocked_position()
    assert state.holders() == set()
    for seat in range(3):
        assert state.turn == seat and state.legal_actions() == [Pass()] and state.moves() == []
        state.apply(Pass())
        assert state.result is None
    state.apply(Pass())
    assert state.result == (None, EndReason.BLOCKED)


def test_passing_is_refused_while_a_move_exists():
    state = position(strip(2) + [FAR], {B(0): P(0), FAR: P(1), T(1): P(2)})
    assert refusal(state, Pass()) is Reason.MUST_MOVE
    assert Pass() not in state.legal_actions()


# ------------------------------------------------------------------------------ refusals


def test_move_refusals_name_the_rule():
    state = position(strip(2), {B(0): P(0), T(0): P(0), B(1): P(1), T(1.5): P(2)})
    cases = {
        Move(B(0.5), B(1)): Reason.NO_PAWN,
        Move(B(1), B(0.5)): Reason.NOT_YOUR_PAWN,
        Move(B(0), (1, 0, 0)): Reason.OFF_BOARD,
        Move(B(0), T(0)): Reason.OCCUPIED,
        Move(T(0), T(1.5)): Reason.CANNOT_TAKE,
        Move(B(0), T(1)): Reason.NOT_REACHABLE,
        Move(B(0), (0, 0, 0)): Reason.BAD_CELL,
        Leave(): Reason.WRONG_PHASE,
        Place(FAR): Reason.WRONG_PHASE,
    }
    for action, code in cases.items():
        found = state.check(action)
        assert found is not None and found.rule is code, action
        assert found.message and str(found).startswith(code.value)
        before = state.to_json()
        with pytest.raises(IllegalAction) as info:
            state.apply(action)
        assert (info.value.rule, info.value.message) == (found.rule, found.message) and state.to_json() == before


# ----------------------------------------------------------------------- undo and JSON


def test_undo_restores_every_position_exactly():
    game = Game(Options(players=3, x=4), ["Ann", "Bob", "robot:expert"])
    snapshots = [game.state.to_json()]
    while game.phase is Phase.BUILD:
        game.apply(game.legal_actions()[-1])
        snapshots.append(game.state.to_json())
    for _ in range(12):
        actions = game.legal_actions()
        game.apply(next((a for a in actions if isinstance(a, Remove)), actions[len(actions) // 2]))
        snapshots.append(game.state.to_json())
        if game.result is not None:
            break
    assert any(a for a in game.actions if isinstance(a, (Leave, Remove, Relocate)))
    while game.can_undo:
        snapshots.pop()
        game.undo()
        assert game.state.to_json() == snapshots[-1]
    assert len(snapshots) == 1
    with pytest.raises(Refused) as refused:
        game.undo()
    assert refused.value.rule == "nothing-to-undo" and len(snapshots) == 1


def test_state_json_round_trips_in_every_phase():
    states = [State(Options(players=2, x=5)), leave_piece_zero()]
    building = State(Options(players=4, x=4))
    for _ in range(5):
        building.apply(building.legal_actions()[0])
    states.append(building)
    over = position(strip(2), {B(0.5): P(0), B(1): P(1), T(1.5): P(2)})
    over.apply(Move(B(0.5), B(1)))
    states.append(over)
    for state in states:
        data = state.to_json()
        again = State.from_json(data)
        assert again == state and again.to_json() == data
        assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["pieces"].append(d["pieces"][0]), "overlaps"),
        (lambda d: d["pawns"].append({"cell": [40, 40, -79], "owner": 0, "size": None}), "off the board"),
        (lambda d: d["pawns"].append(dict(d["pawns"][0])), "two pawns"),
        (lambda d: d["pawns"][0].update(owner=7), "owner"),
        (lambda d: d["pawns"][0].update(size="big"), "no size"),
        (lambda d: d.update(turn=3), "turn"),
        (lambda d: d.update(phase="dance"), "phase"),
        (lambda d: d.update(pending=[0, 0, 1]), "pending"),
        (lambda d: d["options"].update(players=5), "players"),
        (lambda d: d["options"].update(x=9), "x must"),
        (lambda d: d["pieces"].append([0, 0, 0]), "not a cell"),
        (lambda d: d.update(result={"winner": 0, "reason": "left-taken"}), "result"),
    ],
)
def test_broken_positions_are_refused_with_the_problem_named(change, message):
    data = position(strip(2), {B(0): P(0), B(1): P(1), T(1.5): P(2)}).to_json()
    change(data)
    with pytest.raises(PositionError, match=message):
        State.from_json(data)


def test_options_are_checked_against_the_box():
    with pytest.raises(PositionError, match="x must"):
        Options(players=2, x=7)
    with pytest.raises(PositionError, match="quiet_rounds"):
        Options(players=2, x=4, quiet_rounds=0)
    assert Options(players=4, x=6).pieces_per_player == 6
    assert Options(players=2, x=6).pieces_per_player == 12
    with pytest.raises(PositionError):
        Options(players=3, x=3)


def test_actions_round_trip_through_json():
    actions = [Place(piece(0)), Place(piece(1), Size.BIG), Move(B(0), B(1)), Pass(), Leave(),
               Remove(), Relocate(piece(5))]
    for action in actions:
        assert action_from_json(action_to_json(action)) == action
    with pytest.raises(PositionError):
        action_from_json({"type": "fly"})
    with pytest.raises(PositionError):
        action_from_json({"type": "move", "from": [0, 0], "to": [0, 0, 1]})


def test_a_jump_may_take_a_pawn_of_the_chain_it_jumps_along():
    # seat 0 jumps over seat 1's pawn on B(0.5) and takes the next one of that chain on B(1)
    state = position(strip(3), {B(0): P(0), B(0.5): P(1), B(1): P(1), T(1.5): P(2), T(2): P(1)})
    assert {B(0.5), B(1)} <= {m.target for m in state.moves_from(B(0))}
    state.apply(Move(B(0), B(1)))
    assert state.pawns[B(1)] == P(0) and state.pawns[B(0.5)] == P(1)


# ------------------------------------------------------- move generation against a reference


def reference_destinations(state: State, origin) -> set:
    """The move rule read literally: a step to a touching cell, or a jump over a *path* of
    identical pawns (tried path by path) to a cell touching one of them; the landing cell empty or
    holding a pawn the mover may take."""
    mover = state.pawns[origin]

    def may_land(cell) -> bool:
        there = state.pawns.get(cell)
        return cell in state.cover and cell != origin and (there is None or state.takes(mover, there))

    found = {n for n in neighbours(origin) if may_land(n)}

    def extend(path: list) -> None:
        for pawn_cell in path:
            found.update(n for n in neighbours(pawn_cell) if n not in path and may_land(n))
        for n in neighbours(path[-1]):
            if n != origin and n not in path and state.pawns.get(n) == state.pawns[path[0]]:
                extend(path + [n])

    for n in neighbours(origin):
        if n in state.pawns:
            extend([n])
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_move_generation_matches_the_literal_rule_on_random_positions(players):
    import random

    rng = random.Random(players)
    checked = 0
    for game in range(3):
        state = State(Options(players=players, x=6 if players < 4 else 5))
        while not state.over and checked < 400 * (game + 1):
            if state.phase is Phase.MOVE:
                for origin, pawn in list(state.pawns.items()):
                    if pawn.owner == state.turn:
                        assert state.destinations(origin) == reference_destinations(state, origin)
                        checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 300


def test_a_game_from_a_hand_built_position_records_and_replays_it():
    start = leave_piece_zero()
    game = Game(start=start, seats=["a", "b", "c"])
    game.apply(Relocate(piece(4)))
    game.apply(Move(T(2), T(2.5)))
    record = game.to_json()
    assert record["start"] == start.to_json()
    again = Game.from_json(record)
    assert again.state == game.state and again.undo() == Move(T(2), T(2.5))
    with pytest.raises(PositionError, match="other options"):
        Game(Options(players=2), start=start)
    with pytest.raises(PositionError, match="seat names"):
        Game(Options(players=3), seats=["a", "b"])
