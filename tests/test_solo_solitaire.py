"""Scripted play of Solitaire (tiles 1..14), classic and hand rules. Situations a rule is about are
found by random legal play from fixed seeds, then the rule is checked there."""

from __future__ import annotations

import json
import random
from typing import Callable, Iterator

import pytest

from engine.board import Placement
from engine.modes import Mode, Refused, restore, save
from engine.solo.solitaire import TILES, Aim, End, Rules, Solitaire


def games(rules: str, aim: str = "line", seeds: int = 60) -> Iterator[tuple[Solitaire, random.Random]]:
    """Every position of random legal games, one game per seed."""
    for seed in range(seeds):
        game = Solitaire.start(rules, aim, seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            yield game, rng
            if not game.finished:
                game.apply(rng.choice(game.legal_actions()))


def first(rules: str, found: Callable[[Solitaire], object], aim: str = "line"):
    for game, _ in games(rules, aim):
        result = found(game)
        if result:
            return game, result
    raise AssertionError("no such situation in the sample games")


def test_the_draw_depends_on_the_seed_only():
    a, b = Solitaire.start("classic", seed=7), Solitaire.start("classic", seed=7)
    assert a.to_json() == b.to_json() and len(a.hand) == 1 and len(a.bag) == 13
    assert Solitaire.start("classic", seed=8).to_json() != a.to_json()
    hand = Solitaire.start("hand", seed=7)
    assert len(hand.hand) == 2 and sorted(hand.hand + hand.bag) == list(TILES)


def test_first_moves_and_plain_refusals():
    game = Solitaire.start("classic", seed=1)
    assert isinstance(game, Mode)
    tile = game.hand[0]
    assert {(p.q, p.r) for p in game.legal_actions()} == {(0, 0)}
    with pytest.raises(Refused) as refused:
        game.apply(Placement(tile, 2, 0, 0))
    assert refused.value.rule == "contact"
    other = game.bag[0]
    with pytest.raises(Refused) as refused:
        game.apply(Placement(other, 0, 0, 0))
    assert refused.value.rule == "not-in-hand"
    game.apply(Placement(tile, 0, 0, 0))
    assert game.hand == [other] and len(game.bag) == 12
    with pytest.raises(Refused) as refused:
        game.undo()
    assert refused.value.rule == "no-undo"


def test_a_tile_that_fits_a_forced_space_must_go_into_one():
    def elsewhere(game: Solitaire):
        board = game.board
        forced = {s.cell for s in board.forced_spaces()}
        if not any(board.fits(game.hand[0], c) for c in forced):
            return None
        return next((p for p in board.legal_placements(game.hand, restricted=False) if p.cell not in forced), None)

    game, placement = first("classic", elsewhere)
    before = game.to_json()
    with pytest.raises(Refused) as refused:
        game.apply(placement)
    assert refused.value.rule == "must-fill-forced" and refused.value.cells
    assert game.to_json() == before
    assert all(game.board.is_forced(p.cell) for p in game.legal_actions())


def unfillable(game: Solitaire):
    """A placement (no fill due) making a forced space that no other hand tile fits."""
    board = game.board
    if any(board.fits(t, s.cell) for s in board.forced_spaces() for t in game.hand):
        return None
    for p in board.legal_placements(game.hand, restricted=False):
        after = board.copy()
        after.push(p)
        rest = [t for t in game.hand if t != p.tile]
        for space in after.forced_spaces():
            if not board.is_forced(space.cell) and not any(after.fits(t, space.cell) for t in rest):
                return p
    return None


def test_hand_rules_forbid_creating_a_forced_space_the_hand_cannot_fill():
    game, placement = first("hand", lambda g: g.bag and unfillable(g))
    with pytest.raises(Refused) as refused:
        game.apply(placement)
    assert refused.value.rule == "unfillable-forced-space" and len(refused.value.cells) == 1
    assert placement not in game.legal_actions()


def test_hand_rules_allow_it_once_the_bag_is_empty():
    game, placement = first("hand", lambda g: not g.bag and unfillable(g))
    assert game.check(placement) is None
    game.apply(placement)


def test_filling_a_forced_space_draws_a_bonus_tile():
    def fill(game: Solitaire):
        if len(game.bag) < 2:
            return None
        return next((p for p in game.legal_actions() if game.board.is_forced(p.cell)), None)

    game, placement = first("hand", fill)
    size, bag = len(game.hand), len(game.bag)
    game.apply(placement)
    assert len(game.hand) == size + 1 and len(game.bag) == bag - 2


def test_games_end_when_all_tiles_are_down_with_a_score():
    game = Solitaire.start("classic", "line", seed=4)
    rng = random.Random(4)
    while not game.finished:
        game.apply(rng.choice(game.legal_actions()))
    status = game.status()
    assert status.end is End.ALL_PLACED and status.placed == 14 and game.legal_actions() == []
    assert game.score == max(status.line, status.loop) and status.won == (14 in (status.line, status.loop))
    with pytest.raises(Refused) as refused:
        game.apply(Placement(1, 5, 5, 0))
    assert refused.value.rule == "game-over"


def test_hand_rules_with_the_loop_aim_end_when_a_red_loop_closes():
    ended = next(
        g for seed in range(60)
        for g in [Solitaire.start(Rules.HAND, Aim.LOOP, seed=seed)]
        if _play_out(g, random.Random(seed)) is End.LOOP_CLOSED
    )
    status = ended.status()
    assert status.loop >= 3 and ended.score == status.loop
    assert status.won == (status.loop == 14)
    assert ended.legal_actions() == []


def _play_out(game: Solitaire, rng: random.Random) -> End | None:
    while not game.finished:
        game.apply(rng.choice(game.legal_actions()))
    return game.end


def test_save_and_restore_mid_game_loses_nothing():
    game = Solitaire.start("hand", "loop", seed=11)
    rng = random.Random(3)
    for _ in range(5):
        game.apply(rng.choice(game.legal_actions()))
    again = restore(json.loads(json.dumps(save(game))))
    assert isinstance(again, Solitaire) and again.to_json() == game.to_json()
    assert again.legal_actions() == game.legal_actions()
    move = game.legal_actions()[0]
    game.apply(move)
    again.apply(move)
    assert again.to_json() == game.to_json()


def test_bad_saves_are_refused_with_the_reason():
    good = Solitaire.start("classic", seed=2).to_json()
    with pytest.raises(ValueError, match="rules"):
        Solitaire.from_json({**good, "rules": "poker"})
    with pytest.raises(ValueError, match="1..14"):
        Solitaire.from_json({**good, "bag": good["bag"][1:]})
    with pytest.raises(ValueError, match="list of tile numbers"):
        Solitaire.from_json({**good, "hand": "12"})
