"""No score on a strategy seat's plate is drawn cut short ("loop 7 ..."), nor the acting player's
instruction, nor either shrunk under the legible size (2.5 mm, :func:`ui.theme.min_text`: "Fill the
forced space" was 10.6 px on the 7" panel, where 2.5 mm is 12.5 px; "boucle 28 = 56" on the waiting
plates of four players was 15.2 px on the 7" portrait one, where it is 19.7 px): on every panel,
flat and upright, with 2, 3 or 4 players and Doubles, with clocks and without, in every language,
each plate shows its seat's score whole even when it is the widest the game can give (a loop of 28
counted double), whichever seat is to act and at the end of the game. And the acting seat's plate,
whatever it says to do, names its seat (its instruction on two lines, or its name over its score,
rather than its score alone: in Polish Doubles, "linia 0" beside "Zapełnij miejsce przymusu" did
not say whose turn it was).

All of it takes minutes, too long for every run of the suite: by default the 7" portrait panel and the
1280x800 one (where a score was cut: the bar widest for four plates) in French and Polish (the
longest words); ``FIT_FULL=1`` checks every panel of :data:`test_ui_fit.PANELS` in every language."""

from __future__ import annotations

import functools
import json
import os

import pytest

from engine.strategy.robots import robot_move
from test_ui_fit import FULL, LANGUAGES, PANELS
from ui_harness import run_scenario

TABLES = [(2, False), (3, False), (4, False), (4, True)]
"""(players, doubles) of the tables checked."""


@functools.cache
def _played(players: int, doubles: bool, acting: int | None) -> str:
    """A game of people a few tiles in, ``acting`` (a seat) to move; None: finished (as JSON: played
    once per table, not again for each language)."""
    from engine.strategy.game import StrategyGame

    game = StrategyGame.new(players, "RYGB"[: 2 if doubles else players], ["club"] * players, seed=5,
                            doubles=doubles)
    while not game.finished and (len(game.board) < 8 or game.turn != acting) if acting is not None \
            else not game.finished:
        robot_move(game)
    for seat in range(players):
        game.set_robot(seat, None if seat % 2 == 0 else "club")  # a robot's plate says so: longer
    return json.dumps(game.to_json())


def _game(players: int, doubles: bool, acting: int | None):
    """A fresh copy of :func:`_played`'s game."""
    from engine.strategy.game import StrategyGame

    return StrategyGame.from_json(json.loads(_played(players, doubles, acting)))


def scenario_scores_whole(app):
    """Every plate of every table (see the module docstring), with the widest score in its
    language, and the acting seat's plate again with each thing it may say to do: the scores and
    instructions cut short or spilling out of their box, and the texts too small to read, as
    "table/seat: text"; and the acting seats' plates that do not name their seat (Doubles' "Drużyna
    czerwona" gave way to the score alone beside a long instruction)."""
    from ui import theme
    from ui.audit import shortened, smallest_size
    from ui.modes.strategy import clock as strategy_clock, play as strategy_play
    from ui.modes.strategy.board import widest_score_words
    from ui.words import seat_name

    strategy_play.score_words = lambda _board, _colour: widest_score_words()  # every score at its widest
    steps = (*strategy_play.STEP_WORDS.values(), *strategy_play.FIRST_STEP_WORDS.values(),
             *strategy_play.SEVERAL_WORDS, "Draw a tile and scan it", "Thinking...")
    natural = strategy_play.StrategyScreen._step_message
    cut, missing = [], []

    def check(where, screen, seat):
        plate = screen.plates[seat]
        label, step = plate.name_label, plate.step_label
        label.texture_update()
        step.texture_update()
        if shortened(label) or label.texture_size[0] > label.width + 1 or widest_score_words() not in label.text:
            cut.append(f"{where}: {label.text!r} in {label.width:.0f} px")
        if seat == screen.actor() and seat_name(screen.game, seat, robot_mark=False) not in label.text:
            missing.append(f"{where}: {label.text!r} beside {step.text!r}")
        if smallest_size(label) + 0.05 < theme.min_text():
            cut.append(f"{where}: {label.text!r} at {smallest_size(label):.1f} px")
        if step.text and (step.texture_size[0] > step.width + 1 or step.texture_size[1] > step.height + 1):
            cut.append(f"{where}: {step.text!r} in {step.width:.0f}x{step.height:.0f} px")
        if step.text and smallest_size(step) + 0.05 < theme.min_text():
            cut.append(f"{where}: {step.text!r} at {smallest_size(step):.1f} px")

    for language in json.loads(os.environ["PLATES_LANGUAGES"]):
        app.set_language(language)
        for players, doubles in TABLES:
            for orientation in ("flat", "upright"):
                for acting in (0, 1, None):
                    app.services.settings.orientation = orientation
                    game = _game(players, doubles, acting)
                    strategy_clock.set_clocks(app, game, 15 if orientation == "upright" else 0)
                    screen = strategy_play.open_game(app, game)
                    screen.robot_pause = 600.0
                    screen._ended = True  # a finished game stays on the table
                    yield
                    yield
                    table = f"{language} {players}{'d' if doubles else ''} {orientation} acting {acting}"
                    for seat in range(len(screen.plates)):
                        check(f"{table} / seat {seat}", screen, seat)
                    actor = screen.actor()
                    for words in steps if actor is not None else ():
                        strategy_play.StrategyScreen._step_message = lambda _screen, _seat, words=words: words
                        screen._show_plates()
                        check(f"{table} / seat {actor} told {words!r}", screen, actor)
                    strategy_play.StrategyScreen._step_message = natural
    app.services.settings.orientation = "flat"
    return {"cut": cut, "missing": missing}


CHECKED = PANELS if FULL else [((1280, 800), 0), ((720, 1280), 0)]


@pytest.mark.parametrize("size, rotation", CHECKED, ids=[f"{w}x{h}-{r}" for (w, h), r in CHECKED])
def test_no_score_on_a_plate_is_cut(size, rotation, monkeypatch):
    monkeypatch.setenv("PLATES_LANGUAGES", json.dumps(LANGUAGES if FULL else ("fr", "pl")))
    found = run_scenario("test_ui_tantrix_plates", "scenario_scores_whole", size=size, rotation=rotation,
                         timeout=900, settings={"idle_seconds": 1e6})
    assert found["cut"] == [], "\n".join(found["cut"])
    assert found["missing"] == [], "\n".join(found["missing"])
