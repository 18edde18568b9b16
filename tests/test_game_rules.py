"""The strategy game's procedure, rule by rule, in scripted situations (rules.md section 5).

Positions were found by random legal play and frozen here as [tile, q, r, rot] lists; every claim
about them (this tile fits that forced space, that one breaks a restriction) is asserted against
the board before the game is asked anything, so a test cannot pass on a wrong premise.
"""

from __future__ import annotations

import random

import pytest

import tantrix_reference as ref
from engine.board import Board, Placement
from engine.strategy.game import EndRule, Phase, Step, StrategyGame
from engine.modes import Refused, restore, save
from engine.tiles import ALL_NUMBERS

# 12 tiles, one forced space (1, -1) "GYY" that tile 18 fills in exactly one way.
ONE_FORCED = [[33, 0, 0, 3], [38, 1, 0, 1], [2, 0, 1, 3], [44, 0, -1, 4], [46, 0, -2, 3], [55, 0, -3, 5],
              [41, 2, 0, 2], [36, 1, 1, 5], [10, 0, 2, 2], [27, 0, 3, 0], [21, 1, 2, 1], [22, 2, 1, 1]]
# 24 tiles: tile 4 fills (-3, 2), which makes (-4, 2) a forced space that tile 3 fills.
CASCADE = [[13, 0, 0, 4], [34, 1, 0, 0], [30, -1, 1, 0], [37, -2, 2, 2], [44, -3, 3, 5], [42, -4, 3, 0],
           [47, -5, 3, 0], [6, 2, -1, 4], [8, -6, 4, 0], [50, 1, -1, 0], [55, 3, -1, 4], [25, 4, -1, 3],
           [24, 5, -1, 5], [28, -7, 5, 0], [29, 2, 0, 1], [54, -8, 5, 4], [1, -9, 6, 3], [2, -10, 7, 1],
           [41, 6, -2, 1], [39, 7, -3, 1], [15, -11, 8, 1], [16, 8, -4, 4], [51, 9, -4, 0], [46, 3, 0, 1]]
# CASCADE and 3 more: tile 18 keeps the golden rule on the forced space (8, -3) "GRG", but placing
# it there would leave a forced space surrounded by one colour (restriction 1).
RESTRICTED = CASCADE + [[21, 10, -5, 2], [36, -12, 9, 5], [11, -3, 2, 2]]
# 32 tiles where tiles 7 and 10 have no legal placement at all while the bag holds tiles.
STUCK = [[22, 0, 0, 3], [32, 0, 1, 0], [41, 1, 1, 0], [54, -1, 2, 2], [27, 1, 0, 3], [52, 0, 2, 0],
         [23, -2, 3, 4], [44, 2, -1, 2], [28, 1, 2, 3], [25, 3, -2, 1], [1, 4, -3, 4], [43, 5, -4, 3],
         [9, 6, -5, 1], [42, 1, -1, 5], [49, 7, -6, 1], [16, -3, 4, 2], [45, -4, 5, 4], [30, -5, 6, 2],
         [8, 2, -2, 2], [33, -6, 7, 5], [13, 3, -3, 3], [11, 0, -1, 2], [56, -1, 3, 1], [3, 8, -7, 0],
         [38, -7, 8, 1], [40, -8, 9, 3], [21, 0, 3, 3], [29, -9, 10, 2], [51, -1, 1, 3], [50, 9, -8, 2],
         [37, -10, 11, 0], [39, -11, 12, 3]]


def board(rows: list[list[int]], bag: int = 20) -> Board:
    return Board.from_json({"tiles": [dict(zip(("tile", "q", "r", "rot"), row)) for row in rows], "bag": bag})


def spare(position: Board, *exclude: int) -> list[int]:
    """Unplaced tiles that fit none of the position's forced spaces, even without restrictions."""
    forced = [s.cell for s in position.forced_spaces()]
    return [t for t in ALL_NUMBERS if t not in position.placed_tiles() and t not in exclude
            and not position.legal_placements([t], forced, restricted=False)]


def rest(position: Board, *used: int) -> list[int]:
    """Unplaced tiles other than ``used``."""
    return [t for t in ALL_NUMBERS if t not in position.placed_tiles() and t not in used]


def test_opening_draw_highest_number_starts_and_keeps_it_in_a_hand_of_six():
    bag = [5, 40, 12, *[t for t in ALL_NUMBERS if t not in (5, 40, 12)]]
    game = StrategyGame.new(3, "RGB", bag=bag)
    assert game.starter == 1 and game.turn == 1 and game.phase is Phase.PLAY and game.step is Step.FREE
    assert [h[0] for h in game.hands] == [5, 40, 12]
    assert all(len(h) == 6 for h in game.hands) and game.bag_count == 56 - 18
    # only the middle cell is open for the first tile
    assert {p.cell for p in game.legal()} == {(0, 0)}
    events = game.record()["events"]
    assert [e["draw"] for e in events[:3]] == [0, 1, 2] and events[3] == {"draw": 1, "tile": bag[3]}
    first = game.legal()[0]
    game.place(first)
    assert game.turn == 2 and game.hands[1][-1] == bag[18]  # replacement drawn at once; clockwise


def test_an_obligatory_fill_comes_before_the_free_move_then_the_turn_passes():
    position = board(ONE_FORCED)
    fill = Placement(18, 1, -1, 2)
    assert position.legal_placements([18], [(1, -1)]) == [fill]
    after = position.copy()
    after.push(fill)
    others = [t for t in spare(position, 18) if t in spare(after)]  # nothing else to fill, before or after
    game = StrategyGame.from_position(position, [[18, *others[:5]], others[5:11]], others[11:16], turn=0)
    assert game.step is Step.FILL and game.legal() == game.obligatory() == [fill]
    elsewhere = Board.legal_placements(position, others[:5])[0]
    before = save(game)
    judged = game.check(elsewhere, seat=0)  # the predicate place() asks, changing nothing
    assert judged is not None and judged.rule == "must-fill-forced" and save(game) == before
    assert game.check(fill, seat=0) is None and game.check(fill, seat=1).rule == "not-your-turn"
    with pytest.raises(Refused) as refused:
        game.place(elsewhere)
    assert refused.value.rule == "must-fill-forced" and refused.value.cells == ((1, -1),)
    game.place(fill)
    assert game.record()["events"][-2]["forced"] is True
    assert game.step is Step.FREE and game.obligatory() == [] and game.turn == 0
    free = next(p for p in game.legal() if not game.board.is_forced(p.cell))
    game.place(free)
    assert game.record()["events"][-2] == {"place": 0, **free.to_json(), "forced": False}
    assert game.turn == 1 and game.step in (Step.FILL, Step.FREE)  # step 3 had nothing to fill


def test_a_fill_that_creates_another_forced_space_must_be_followed_by_filling_it():
    position = board(CASCADE)
    first, second = Placement(4, -3, 2, 1), Placement(3, -4, 2, 4)
    assert not position.is_forced((-4, 2))
    others = spare(position, 3, 4)
    game = StrategyGame.from_position(position, [[4, 3, *others[:4]], others[4:10]], others[10:14], turn=0)
    assert game.legal() == [first]
    game.place(first)
    assert game.board.is_forced((-4, 2)) and game.step is Step.FILL
    assert game.legal() == [second]
    game.place(second)
    assert game.step is Step.FREE


def test_a_fill_a_restriction_forbids_is_not_obligatory_and_is_refused_with_the_rule():
    position = board(RESTRICTED)
    fill = Placement(18, 8, -3, 0)
    assert position.legal_placements([18], [(8, -3)], restricted=False) == [fill]
    others = spare(position, 18)
    hands = [[18, *others[:5]], others[5:11]]
    game = StrategyGame.from_position(position, hands, rest(position, 18, *others[:11]), turn=0)
    assert game.step is Step.FREE and fill not in game.legal()
    before = game.to_json()
    with pytest.raises(Refused) as refused:
        game.place(fill)
    assert refused.value.rule == "restriction-1" and (8, -3) in refused.value.cells
    assert game.to_json() == before


def test_restrictions_lift_the_moment_the_last_tile_is_drawn_even_for_the_player_who_drew_it():
    position = board(RESTRICTED)
    fill = Placement(18, 8, -3, 0)
    others = spare(position, 18)
    game = StrategyGame.from_position(position, [[18, *others[:5]], others[6:11]], [others[5]], turn=0)
    assert game.step is Step.FREE and game.board.restricted
    free = next(p for p in game.legal() if p.tile != 18 and (p.q, p.r) == (-13, 9))
    game.place(free)  # draws the last tile
    assert game.bag_count == 0 and not game.board.restricted
    assert game.turn == 0 and game.step is Step.FILL_AGAIN and game.obligatory() == [fill]


def test_a_player_with_an_empty_hand_is_skipped_and_the_game_ends_when_all_are_placed():
    position = board(RESTRICTED, bag=0)
    others = spare(position, 18)
    game = StrategyGame.from_position(position, [[others[0]], others[1:3], others[3:5]], [], turn=0)
    assert game.step is Step.FREE
    game.place(game.legal()[0])
    assert game.turn == 1
    while not game.finished:
        game.place(game.legal()[0])
    events = game.record()["events"]
    assert "place" in events[1] and events[1]["place"] != 0  # running out ends the turn, it is no skip
    assert {"skip": 0} in events  # but next time round the empty hand is passed over
    assert game.result is not None and game.result.reason == "all-placed"
    assert not any(game.hands) and game.result.scores == game.scores()


def test_first_player_out_ends_the_game_at_once():
    position = board(RESTRICTED, bag=0)
    others = spare(position, 18)
    game = StrategyGame.from_position(position, [[others[0]], others[1:3]], [], turn=0, end=EndRule.FIRST_OUT)
    game.place(game.legal()[0])
    assert game.finished and game.result is not None and game.result.reason == "first-out"
    assert game.hands[1] == others[1:3]  # the other player never moved
    with pytest.raises(Refused) as refused:
        game.place(Placement(others[1], 0, 0, 0))
    assert refused.value.rule == "game-over"


def test_no_legal_free_move_is_a_deadlock_and_a_drawn_game():
    position = board(STUCK, bag=5)
    assert position.legal_placements([7, 10]) == []
    rest = [t for t in ALL_NUMBERS if t not in position.placed_tiles() and t not in (7, 10)]
    game = StrategyGame.from_position(position, [[7, 10], rest[:6]], rest[6:11], turn=0)
    assert game.finished and game.result is not None
    assert game.result.reason == "deadlock" and game.result.winner is None
    assert game.result.scores == {"R": position.score("R"), "Y": position.score("Y")}


def test_equal_top_scores_are_a_draw_and_otherwise_the_highest_wins():
    position = board(RESTRICTED, bag=0)  # scores R 3, Y 4, G 5, B 4
    assert position.scores() == {"R": 3, "Y": 4, "G": 5, "B": 4}
    for colours, winner in (("YB", None), ("RG", "G"), ("YGB", "G"), ("RYB", None)):
        game = StrategyGame.from_position(position, [[]] * len(colours), [], colours=colours, end="first-out")
        assert game.finished and game.result is not None and game.result.reason == "first-out"
        assert game.result.winner == winner
        assert game.result.scores == {c: position.score(c) for c in colours}


def test_refusals_name_the_rule_and_change_nothing():
    game = StrategyGame.new(2, seed=3)
    mover = game.turn
    assert mover is not None
    other = 1 - mover
    before = game.to_json()
    with pytest.raises(Refused) as refused:
        game.place(game.legal()[0], seat=other)
    assert refused.value.rule == "not-your-turn"
    with pytest.raises(Refused) as refused:
        game.place(Placement(game.hands[other][0], 0, 0, 0))
    assert refused.value.rule == "not-in-hand"
    game.place(Placement(game.hands[mover][0], 0, 0, 0))
    taken = set(game.board.placed_tiles())
    bad = next(Placement(t, 5, 5, 0) for t in game.hands[other])
    before = game.to_json()
    with pytest.raises(Refused) as refused:
        game.place(bad)
    assert refused.value.rule == "contact" and refused.value.cells == ((5, 5),)
    golden = next(Placement(t, 1, 0, rot) for t in game.hands[other] for rot in range(6)
                  if game.board.check(Placement(t, 1, 0, rot)) is not None
                  and game.board.check(Placement(t, 1, 0, rot)).rule.value == "golden-rule")
    with pytest.raises(Refused) as refused:
        game.place(golden)
    assert refused.value.rule == "golden-rule" and (1, 0) in refused.value.cells
    assert game.to_json() == before and game.board.placed_tiles() == taken


def test_a_physical_bag_waits_for_each_reported_draw_and_refuses_tiles_not_in_it():
    game = StrategyGame.new(2, physical_bag=True)
    assert game.awaiting_draw == 0 and game.legal() == []
    game.report_draw(20)
    before = game.to_json()
    for tile, words in ((20, "hand of seat 0"), (57, "1 to 56"), ("x", "1 to 56")):
        with pytest.raises(Refused) as refused:
            game.report_draw(tile)  # type: ignore[arg-type]
        assert refused.value.rule == "not-in-bag" and words in refused.value.message
    with pytest.raises(Refused) as refused:
        game.report_draw(21, seat=0)
    assert refused.value.rule == "not-your-draw"
    assert game.to_json() == before
    game.report_draw(44)  # seat 1 draws the higher number: it starts and draws its five first
    assert game.starter == 1 and game.awaiting_draw == 1
    for tile in (1, 2, 3, 4, 5):
        game.report_draw(tile)
    assert game.awaiting_draw == 0
    for tile in (6, 7, 8, 9, 10):
        game.report_draw(tile)
    assert game.awaiting_draw is None and game.turn == 1 and game.hands[1] == [44, 1, 2, 3, 4, 5]
    first = game.legal()[0]
    game.place(first)
    assert game.awaiting_draw == 1 and game.turn == 1  # the draw is pending before seat 0 may play
    with pytest.raises(Refused) as refused:
        game.place(game.legal()[0] if game.legal() else Placement(6, 1, 0, 0), seat=0)
    assert refused.value.rule == "draw-pending"
    with pytest.raises(Refused):
        game.report_draw(first.tile)  # on the board now
    game.report_draw(30)
    assert game.turn == 0 and 30 in game.hands[1] and game.awaiting_draw is None


def test_doubles_partners_sit_opposite_and_share_a_colour_and_a_score():
    game = StrategyGame.new(4, "GB", ["club"] * 4, doubles=True, seed=12)
    assert [s.colour for s in game.seats] == ["G", "B", "G", "B"]
    while not game.finished:
        game.robot_move()
    assert game.result is not None and set(game.result.scores) == {"G", "B"}
    assert game.result.scores == {"G": game.board.score("G"), "B": game.board.score("B")}
    assert game.result.winner == max(game.result.scores, key=game.result.scores.__getitem__) or (
        game.result.winner is None and len(set(game.result.scores.values())) == 1)
    with pytest.raises(ValueError, match="different colours"):
        StrategyGame.new(4, "GG", doubles=True)


def test_robots_can_take_a_seat_over_and_give_it_back():
    game = StrategyGame.new(2, seed=5)
    assert game.turn is not None
    with pytest.raises(Refused) as refused:
        game.robot_move()
    assert refused.value.rule == "not-a-robot"
    game.set_robot(game.turn, "beginner")
    seat = game.turn
    choice = game.robot_choice()
    assert choice in game.legal() and len(game.board) == 0  # chosen, not yet placed
    assert game.robot_move() == choice
    game.set_robot(seat, None)
    with pytest.raises(ValueError, match="unknown robot"):
        game.set_robot(seat, "grandmaster")
    assert {"seat": seat, "robot": "beginner"} in game.record()["events"]
    assert game.seats[seat].robot is None


def test_review_counts_unseen_tiles_that_fit_each_forced_space_now_and_in_the_endgame():
    position = board(RESTRICTED)
    others = spare(position, 18)
    bag = [t for t in ALL_NUMBERS if t not in position.placed_tiles() and t not in others[:12]]
    game = StrategyGame.from_position(position, [others[:6], others[6:12]], bag, turn=0)
    placed = {(p.q, p.r): (p.tile, p.rot) for p in position.placements()}
    review = game.review()
    assert [r.cell for r in review] == [s.cell for s in position.forced_spaces()]
    for item in review:
        now = {t for t in bag if any(ref.legal(placed, t, item.cell, rot, True) for rot in range(6))}
        later = {t for t in bag if any(ref.legal(placed, t, item.cell, rot, False) for rot in range(6))}
        assert set(item.fits_now) == now and set(item.fits_endgame) == later
    assert any(len(r.fits_endgame) > len(r.fits_now) for r in review)


def test_legal_placements_agree_with_the_reference_rules_through_a_game():
    game = StrategyGame.new(2, robots=["club", "beginner"], seed=21)
    rng = random.Random(2)
    checked = 0
    while not game.finished:
        if rng.random() < 0.25:
            assert game.turn is not None
            placed = {(p.q, p.r): (p.tile, p.rot) for p in game.board.placements()}
            hand = game.hands[game.turn]
            everything = ref.legal_placements(placed, hand, game.bag_count > 0)
            forced = {c for c, n in ref.neighbour_counts(set(placed)).items() if n >= 3}
            fills = {p for p in everything if (p[1], p[2]) in forced}
            expected = fills if game.step is not Step.FREE else everything
            assert {tuple(p) for p in game.legal()} == expected
            assert (game.step is Step.FREE) == (not fills)
            checked += 1
        game.robot_move()
    assert checked > 5


def test_a_saved_game_restores_through_the_mode_registry():
    game = StrategyGame.new(3, "RYB", ["beginner", None, "club"], physical_bag=True, end="first-out")
    game.report_draw(9)
    again = restore(save(game))
    assert isinstance(again, StrategyGame) and again.to_json() == game.to_json()
    assert again.awaiting_draw == 1
    with pytest.raises(ValueError, match="two places"):
        broken = save(game)
        broken["state"]["bag"].append(9)
        restore(broken)
    with pytest.raises(ValueError, match="every hand holds some"):
        StrategyGame.from_position(Board(), [[1], []], [2, 3])
    with pytest.raises(ValueError, match="must not share a tile"):
        StrategyGame.from_position(Board(), [[1], [1]], [2, 3])
    with pytest.raises(ValueError, match="incomplete"):
        restore({"kind": "strategy", "state": {"options": {"players": 2}}})


def test_no_saved_game_or_record_ever_starts_a_program(tmp_path):
    from engine.modes import restore, save
    from engine.strategy.record import replay

    planted = tmp_path / "planted"
    command = f"cmd:touch {planted}"
    game = StrategyGame.new(2, seed=5)
    with pytest.raises(ValueError, match="command line only"):
        game.set_robot(0, command)
    with pytest.raises(Refused):
        game.set_robot("0", "beginner")  # type: ignore[arg-type]
    saved = save(game)
    saved["state"]["seats"][game.turn]["robot"] = command
    with pytest.raises(ValueError, match="command line only"):
        restore(saved)
    record = game.record()
    record["events"].append({"seat": 0, "robot": command})
    with pytest.raises(ValueError, match="command line only"):
        replay(record)
    assert not planted.exists()
