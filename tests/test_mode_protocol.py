"""Every mode through the one protocol (engine.modes.Mode): ``check(action)`` is None exactly when
``apply(action)`` succeeds, ``apply`` of a refused action raises that same refusal and leaves the
saved state unchanged, and asking ``check`` changes nothing.

The actions come from each mode's own move generator (``legal_actions``), nothing written per mode:
the legal ones of the moment; stale ones, legal some moves ago (a tile since placed, a space since
filled, a turn since passed); the same actions with a placement or a cell nudged (another
rotation, the next space, another tile); and :class:`~engine.actions.Undo`. A walk of random
steps, legal actions and undos, visits each mode's states.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from engine.actions import Undo
from engine.board import Refused
from engine.four import FourLines, FourLoops
from engine.gobble.gobbles import Gobbles
from engine.gobble.solo import GobbleSolo
from engine.modes import MODES, Mode, restore, save
from engine.solo.puzzle import PuzzlePlay
from engine.solo.rotation import RotationPuzzle
from engine.solo.solitaire import Solitaire
from engine.strategy.game import StrategyGame
from engine.tanagra.game import Game as Tanagra
from engine.tanagra.rules import Options as TanagraOptions

STARTS = {
    "strategy": lambda seed: StrategyGame.new(2, seed=seed),
    "strategy-physical-bag": lambda seed: StrategyGame.new(3, seed=seed, physical_bag=True),
    "puzzle": lambda seed: PuzzlePlay.start("discovery-6"),
    "puzzle-pyramid": lambda seed: PuzzlePlay.start("rainbow-blue"),
    "solitaire": lambda seed: Solitaire.start(seed=seed),
    "solitaire-hand": lambda seed: Solitaire.start("hand", "loop", seed=seed),
    "rotation": lambda seed: RotationPuzzle.start(3, seed=seed),
    "four-lines": lambda seed: FourLines(),
    "four-loops": lambda seed: FourLoops(),
    "gobble-solo": lambda seed: GobbleSolo.start(seed=seed),
    "gobbles": lambda seed: Gobbles.deal(["Ann", "Bob", "Cy"], seed=seed, per_player=6),
    "tanagra": lambda seed: Tanagra(TanagraOptions(players=2, x=4)),
}


def test_every_registered_mode_is_walked_here():
    kinds = {start(1).KIND for start in STARTS.values()}
    assert kinds == {cls.KIND for cls in MODES}


def nudged(value: Any, rng: random.Random) -> Any:
    """``value`` (an action, or part of one) with one number of a placement, turn or cell moved a
    little; a seat stays as it is (a seat that is not at the table is the caller's bug, not a
    player's move)."""
    if isinstance(value, tuple) and hasattr(value, "_replace"):  # Placement, Turn, Gift...
        fields = [f for f in value._fields if isinstance(getattr(value, f), int)]
        if fields:
            name = rng.choice(fields)
            return value._replace(**{name: getattr(value, name) + rng.choice((-2, -1, 1, 2))})
        return value
    if isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):  # a cell
        i = rng.randrange(len(value))
        return value[:i] + (value[i] + rng.choice((-1, 1)),) + value[i + 1:]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [f.name for f in dataclasses.fields(value) if isinstance(getattr(value, f.name), tuple)]
        if parts:
            name = rng.choice(parts)
            return dataclasses.replace(value, **{name: nudged(getattr(value, name), rng)})
    return value


def state(mode: Mode[Any]) -> str:
    return json.dumps(save(mode), sort_keys=True)


def same_refusal(raised: Refused, said: Refused) -> bool:
    return (raised.rule, raised.message, tuple(raised.cells)) == (said.rule, said.message, tuple(said.cells))


def judge(mode: Mode[Any], action: object) -> bool:
    """Assert the protocol for ``action`` on ``mode`` (applied, when allowed, to a restored copy:
    ``mode`` itself does not move). True if it was allowed."""
    before = state(mode)
    verdict = mode.check(action)
    assert state(mode) == before, f"check({action!r}) changed the state"
    if verdict is None:
        copy = restore(json.loads(before))
        copy.apply(action)  # must not raise
        assert state(copy) != before or type(action).__name__ in {"Placement", "Place", "Turn"}, action
        return True
    assert isinstance(verdict, Refused) and verdict.rule
    with pytest.raises(Refused) as raised:
        mode.apply(action)
    assert same_refusal(raised.value, verdict), (action, raised.value, verdict)
    assert state(mode) == before, f"a refused {action!r} changed the state"
    return False


@pytest.mark.parametrize("name", sorted(STARTS))
def test_check_is_none_exactly_when_apply_succeeds(name):
    rng = random.Random(f"protocol:{name}")
    mode = STARTS[name](rng.randrange(1000))
    seen: list[object] = []
    allowed = refused = 0
    for _step in range(30):
        if mode.finished:
            break
        legal = list(mode.legal_actions())
        assert isinstance(mode, Mode)
        candidates = rng.sample(legal, min(3, len(legal)))
        candidates += rng.sample(seen, min(4, len(seen)))
        candidates += [nudged(a, rng) for a in rng.sample(legal, min(3, len(legal)))]
        candidates.append(Undo())
        for action in candidates:
            if judge(mode, action):
                allowed += 1
            else:
                refused += 1
        for action in rng.sample(legal, min(4, len(legal))):
            assert mode.check(action) is None, f"listed as legal but refused: {action!r}"
        seen += legal[:20]
        if not legal:
            break
        if rng.random() < 0.15 and mode.check(Undo()) is None:
            mode.apply(Undo())
        else:
            mode.apply(rng.choice(legal))
    assert allowed > 5 and refused > 5, (allowed, refused)  # the walk tried both sides
