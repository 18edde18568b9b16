"""Scripted play of rotation puzzles (the Great Pyramid and smaller pyramids)."""

from __future__ import annotations

import json

import pytest

from engine.modes import Mode, Refused, restore, save
from engine.solo.rotation import HINT_LOOP, RotationPuzzle, Turn
from engine.solver import HintKind
from solver_check import assert_all_edges_match


def test_a_new_puzzle_is_scrambled_and_repeatable():
    game = RotationPuzzle.start(rows=4, seed=3)
    assert isinstance(game, Mode) and len(game.cells) == 10
    assert not game.finished and game.status().mismatches
    assert game.to_json() == RotationPuzzle.start(rows=4, seed=3).to_json()
    assert_all_edges_match(game.solution)  # the proof it was built from


def test_the_great_pyramid_has_45_tiles_and_the_booklets_hint():
    game = RotationPuzzle.start(seed=1)
    assert game.rows == 9 and len(game.cells) == 45
    assert set(HINT_LOOP) <= set(game.cells)


def test_turns_undo_and_refusals():
    game = RotationPuzzle.start(rows=3, seed=2)
    tile = sorted(game.cells)[0]
    start = game.rotations[tile]
    assert Turn(tile, 1) in game.legal_actions()
    game.apply(Turn(tile, 1))
    game.apply(Turn(tile, -3))
    assert game.rotations[tile] == (start - 2) % 6 and game.moves == 2
    assert game.undo() == Turn(tile, -3)
    game.undo()
    assert game.rotations[tile] == start
    with pytest.raises(Refused) as refused:
        game.undo()
    assert refused.value.rule == "nothing-to-undo"
    with pytest.raises(Refused) as refused:
        game.apply(Turn(99, 1))
    assert refused.value.rule == "no-such-tile"
    with pytest.raises(Refused) as refused:
        game.apply(Turn(tile, 6))
    assert refused.value.rule == "no-turn"


def test_following_hints_solves_the_puzzle():
    game = RotationPuzzle.start(rows=6, seed=4)
    score = game.score
    for _ in range(len(game.cells) + 1):
        given = game.hint()
        if given.kind is HintKind.SOLVED:
            break
        assert given.kind is HintKind.PLACE and given.placement.rot != game.rotations[given.placement.tile]
        game.apply(Turn(given.placement.tile, given.placement.rot - game.rotations[given.placement.tile]))
    assert game.finished and game.score == game.status().contacts > score
    assert_all_edges_match(game.placements())


def test_save_and_restore_mid_play_loses_nothing():
    game = RotationPuzzle.start(rows=5, seed=9)
    tile = sorted(game.cells)[3]
    game.apply(Turn(tile, 2))
    again = restore(json.loads(json.dumps(save(game))))
    assert isinstance(again, RotationPuzzle) and again.to_json() == game.to_json()
    again.undo()
    game.undo()
    assert again.rotations == game.rotations


def test_a_save_whose_proof_is_broken_is_refused():
    data = RotationPuzzle.start(rows=3, seed=5).to_json()
    first = dict(data["solution"][0])
    first["rot"] = (first["rot"] + 1) % 6
    broken = {**data, "solution": [first] + data["solution"][1:]}
    with pytest.raises(ValueError, match="golden rule"):
        RotationPuzzle.from_json(broken)
    with pytest.raises(ValueError, match="pyramid"):
        RotationPuzzle.from_json({**data, "rows": 4})


def test_a_save_whose_rotation_is_not_a_whole_number_is_refused():
    # 0.5 passed the range check and then stopped the kiosk where the resumed puzzle was drawn
    data = RotationPuzzle.start(rows=3, seed=5).to_json()
    tile = next(iter(data["rotations"]))
    for wrong in (0.5, True, "1"):
        with pytest.raises(ValueError, match="rotation 0..5"):
            RotationPuzzle.from_json({**data, "rotations": {**data["rotations"], tile: wrong}})
