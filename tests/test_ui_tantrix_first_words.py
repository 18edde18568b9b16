"""Tantrix's seat plates the first time each step comes to a player: plain words ("Free move: a tile
anywhere it fits") where the booklet's ("Your free move", "Fill again") tell a newcomer nothing,
then the booklet's; read whole on the plates of the 7" and the portrait panels, in every language
and every seating."""

from __future__ import annotations

import functools
import json
import random

import pytest

from test_ui_fit import FULL
from ui_harness import labels, run_scenario


def _reach(players: int, step, several: bool = False, seed: int = 1, doubles: bool = False):
    """A game of people (``players`` seats, Doubles when ``doubles``) played at random until the
    seat to act is at ``step`` (``several``: with more than one forced space to choose from): a
    fresh copy of the one :func:`_reached` plays once."""
    from engine.strategy.game import StrategyGame

    return StrategyGame.from_json(json.loads(_reached(players, step, several, seed, doubles)))


@functools.cache
def _reached(players: int, step, several: bool, seed: int, doubles: bool) -> str:
    from engine.strategy.game import StrategyGame

    for attempt in range(200):
        game = StrategyGame.new(players, "RYGB"[: 2 if doubles else players], [None] * players,
                                seed=seed + attempt, doubles=doubles)
        pick = random.Random(seed + attempt)
        while not game.finished and game.bag_count > 0:
            if len(game.board) > 3 and game.step is step and (len(game.forced_cells()) > 1) == several:
                return json.dumps(game.to_json())
            game.place(pick.choice(game.legal()))
    raise AssertionError(f"no game reached {step} (several: {several})")


def scenario_first_time_plain(app):
    """Two people: each one's first free move is said plainly on their plate, the starter's message
    still told; the next free move of the same seat in the booklet's words."""
    from engine.strategy.game import Step, StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play
    from ui.words import seat_name

    game = StrategyGame.new(2, "RY", [None, None], seed=3)
    screen = strategy_play.open_game(app, game)
    yield
    yield 0.3
    first = game.turn
    assert game.step is Step.FREE
    plate = screen.plates[first]
    assert plate.step_label.text == _(strategy_play.FIRST_STEP_WORDS[Step.FREE]), plate.step_label.text
    starter = _("{name} drew the highest number and starts.", name=seat_name(game, first))
    assert any(starter in t for t in labels(screen.layout, shown=True)), labels(screen.layout)
    seen: dict[int, list[str]] = {0: [], 1: []}
    while len(game.board) < 12:
        actor = screen.actor()
        if game.step is Step.FREE:
            seen[actor].append(screen.plates[actor].step_label.text)
        game.place(game.legal()[0])
        screen.after_step()
        yield
    free, plain = _(strategy_play.STEP_WORDS[Step.FREE]), _(strategy_play.FIRST_STEP_WORDS[Step.FREE])
    for seat, said in seen.items():
        assert said[0] == plain and len(said) > 1 and set(said[1:]) == {free}, (seat, said)
    screen.leave()
    return {}


def test_a_players_first_free_move_is_said_plainly_then_in_the_booklets_words():
    run_scenario("test_ui_tantrix_first_words", "scenario_first_time_plain", size=(800, 480))


def scenario_first_words_fit(app):
    """Every first-time wording on the acting seat's plate, every language, 2 to 4 players and
    Doubles, flat and upright, with clocks: the words show whole (not cut by the plate, nor
    running over the name and score)."""
    from engine.strategy.game import Step
    from ui import theme
    from ui.audit import audit
    from ui.i18n import LANGUAGES, i18n
    from ui.modes.strategy import clock as strategy_clock, play as strategy_play

    cut = []
    steps = ((Step.FREE, False), (Step.FILL, False), (Step.FILL, True), (Step.FILL_AGAIN, False))
    for orientation in ("flat", "upright"):
        app.services.settings.orientation = orientation
        for players, doubles in ((2, False), (3, False), (4, False), (4, True)):
            for step, several in steps:
                game = _reach(players, step, several, doubles=doubles)
                strategy_clock.set_clocks(app, game, 15)
                screen = strategy_play.open_game(app, game)
                screen.robot_pause = 30.0
                yield
                yield
                plate = screen.plates[screen.actor()]
                for language in LANGUAGES:
                    i18n.language = language
                    screen.refresh()
                    yield
                    label = plate.step_label
                    where = f"{orientation} {players}{' doubles' if doubles else ''} {language}: {label.text!r}"
                    if label.texture_size[0] > label.width + 1.5:
                        cut.append(f"{where}: {label.texture_size[0]:.0f} px in {label.width:.0f}")
                    problems = [str(p) for p in audit(plate, app.root.size, theme.min_target())
                                if p.kind in ("overflow", "shortened", "split-word")]
                    cut += [f"{where}: {p}" for p in problems]
                i18n.language = "en"
                screen.leave()
                yield
    return cut


FIRST_WORDS_PANELS = [(800, 480), (720, 1280)] if FULL else [(800, 480)]
"""The 7" panel, the narrowest plates flat; ``FIT_FULL=1`` adds the portrait one (where the plates'
own check, :mod:`test_ui_tantrix_plates`, already runs by default)."""


@pytest.mark.parametrize("size", FIRST_WORDS_PANELS, ids=[f"{w}x{h}" for w, h in FIRST_WORDS_PANELS])
def test_the_first_time_words_show_whole_on_every_plate(size):
    cut = run_scenario("test_ui_tantrix_first_words", "scenario_first_words_fit", size=size, timeout=600)
    assert not cut, "\n".join(cut)
