"""Solo Gobble (engine.gobble.solo): drawing, discards, the gobble reward, the goal, saving."""

from __future__ import annotations

import random

import pytest

from engine.board import Placement
from engine.gobble import rules
from engine.gobble.rules import Gobble
from engine.gobble.solo import Discard, GobbleSolo, Place, ReturnDiscard
from engine.modes import Refused, restore, save
from engine.tiles import ALL_NUMBERS
from gobble_scenarios import board_of, scenario


def misfit(board, tiles) -> int:
    """A tile of ``tiles`` with no legal place on ``board``."""
    return next(t for t in tiles if not rules.legal_placements(board, [t]))


def reward_game(neighbours: int) -> tuple[GobbleSolo, Placement, int, int]:
    """A game whose drawn tile fills a space with ``neighbours`` neighbours, with two discards
    (the top one fits after the fill) and one tile left in the bag."""
    s = scenario(neighbours)
    after = board_of(s.placements + (s.fill,))
    top = next(t for t in s.unused if rules.legal_placements(after, [t]))
    under = next(t for t in s.unused if t != top)
    last = next(t for t in s.unused if t not in (top, under))
    game = GobbleSolo([last], seed=4, board=board_of(s.placements), hand=[s.fill.tile], discards=[under, top])
    return game, s.fill, top, under


def test_start_draws_two_then_one_at_a_time():
    game = GobbleSolo.start(seed=8)
    assert GobbleSolo.start(seed=8).to_json() == game.to_json()
    assert len(game.hand) == 2 and len(game.bag) == 54 and game.progress == (0, 56)
    assert {a.placement.cell for a in game.legal_actions()} == {(0, 0)}
    game.place(Placement(game.hand[0], 0, 0, 0))
    assert len(game.hand) == 1  # the second opening tile is still to place: no draw yet
    second = game.legal_placements()
    assert second and all(game.board.neighbour_count(p.cell) == 1 for p in second)
    game.place(second[0])
    assert len(game.hand) == 1 and len(game.bag) == 53
    with pytest.raises(Refused) as refused:
        game.place(Placement(game.bag[0], 5, 5, 0))
    assert refused.value.rule == "not-drawn"


def test_a_tile_that_fits_nowhere_is_discarded_and_one_that_fits_must_be_placed():
    s = scenario(3)
    board = board_of(s.placements)
    lost = misfit(board, s.unused)
    nxt = next(t for t in s.unused if t != lost and rules.legal_placements(board, [t]))
    game = GobbleSolo([nxt], board=board, hand=[lost])
    assert game.legal_actions() == [Discard()]
    game.apply(Discard())
    assert game.discards == [lost] and game.hand == [nxt] and game.bag == []
    with pytest.raises(Refused) as refused:
        game.discard()
    assert refused.value.rule == "must-place" and refused.value.cells


@pytest.mark.parametrize("neighbours, earned", [(3, Gobble.GOBBLE), (4, Gobble.DOUBLE)])
def test_a_gobble_earns_the_top_discard_to_play(neighbours, earned):
    game, fill, top, under = reward_game(neighbours)
    assert game.place(fill) is earned
    assert game.reward and game.playable == (top,) and game.hand == []
    actions = game.legal_actions()
    assert ReturnDiscard() in actions and Discard() not in actions
    assert {a.placement.tile for a in actions if isinstance(a, Place)} == {top}
    with pytest.raises(Refused) as refused:
        game.discard()
    assert refused.value.rule == "reward-pending"
    play = next(a for a in actions if isinstance(a, Place) and rules.gobble_of(game.board, a.placement.cell) == 0)
    game.apply(play)
    assert not game.reward and game.discards == [under] and len(game.hand) == 1 and game.bag == []


def test_the_reward_can_go_back_into_the_bag():
    game, fill, top, under = reward_game(3)
    game.place(fill)
    game.apply(ReturnDiscard())
    assert not game.reward and game.discards == [under]
    assert top in game.hand + game.bag and len(game.hand) == 1 and len(game.bag) == 1
    with pytest.raises(Refused) as refused:
        game.return_discard()
    assert refused.value.rule == "no-reward"


def test_no_discards_no_reward():
    s = scenario(3)
    game = GobbleSolo([s.unused[0]], board=board_of(s.placements), hand=[s.fill.tile])
    assert game.place(s.fill) is Gobble.GOBBLE
    assert not game.reward and game.hand == [s.unused[0]]


def test_the_goal_is_to_place_every_tile():
    s = scenario(4)
    order = [p.tile for p in s.placements] + [s.fill.tile]
    game = GobbleSolo.start(seed=1, order=order)
    for p in s.placements + (s.fill,):
        assert not game.finished
        game.apply(Place(p))
    assert game.finished and game.goal_reached and game.score == len(order) == game.progress[0]
    assert game.legal_actions() == []
    with pytest.raises(Refused) as refused:
        game.discard()
    assert refused.value.rule == "game-over" and game.check(s.fill).rule == "game-over"

    board = board_of(s.placements)
    lost = misfit(board, s.unused)
    game = GobbleSolo([], board=board, hand=[lost])
    game.discard()
    assert game.finished and not game.goal_reached and game.score == len(s.placements)


def test_a_whole_random_game_ends_and_counts_every_tile():
    game = GobbleSolo.start(seed=21)
    rng = random.Random(2)
    while not game.finished:
        game.apply(rng.choice(game.legal_actions()))
    assert game.score + len(game.discards) == 56 and not game.hand and not game.bag
    assert game.goal_reached == (not game.discards)
    rebuilt = board_of(())
    for p in game.board.placements():  # every tile went where the Gobble rule allowed
        assert rules.refusal(rebuilt, p) is None
        rebuilt.push(p)


def test_undo_is_refused_with_a_reason():
    game = GobbleSolo.start(seed=3)
    game.place(Placement(game.hand[0], 0, 0, 2))
    with pytest.raises(Refused) as refused:
        game.undo()
    assert refused.value.rule == "no-undo" and len(game.board) == 1


def test_save_and_restore_mid_reward_continue_identically():
    game, fill, top, under = reward_game(3)
    game.place(fill)
    saved = save(game)
    again = restore(saved)
    assert isinstance(again, GobbleSolo) and again.to_json() == game.to_json() == saved["state"]
    for g in (game, again):
        g.return_discard()
    assert again.to_json() == game.to_json()  # the same random place in the bag


def test_restore_names_bad_state():
    game = GobbleSolo.start(seed=5)
    data = game.to_json()
    with pytest.raises(ValueError, match="appears twice"):
        GobbleSolo.from_json({**data, "bag": data["bag"] + [data["hand"][0]]})
    with pytest.raises(ValueError, match="'reward' must be a bool"):
        GobbleSolo.from_json({**data, "reward": "yes"})
    s = scenario(3)
    lonely = {"tiles": [p.to_json() for p in s.placements[:2]] + [{"tile": s.unused[0], "q": 9, "r": 9, "rot": 0}]}
    with pytest.raises(ValueError, match="position"):
        GobbleSolo.from_json({**data, "position": lonely, "bag": [], "hand": []})
    assert sorted(ALL_NUMBERS) == sorted(data["bag"] + data["hand"])
