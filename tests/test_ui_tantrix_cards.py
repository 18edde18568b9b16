"""The cards that open facing one seat of a strategy game (who plays for it; the coach's
suggestion): their own buttons, and the table's controls round them, stand a finger's gap apart (the
rule is :func:`ui.audit.crowded`'s: a tap meant for one lands on the other)."""

from __future__ import annotations

import pytest

from ui_harness import run_scenario

import ui_matrix


def _table_of_four(app, moves: int, seed: int):
    """Four people mid-game (as ``bench/ui_screenshots.py`` shows them), the robots' pause long."""
    from ui.modes.strategy import play as strategy_play

    game = ui_matrix._strategy_game(4, moves, seed=seed)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 600.0
    return game, screen


def _crowded(widget):
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import audit

    return [str(p) for p in audit(widget, tuple(Window.size), theme.min_target()) if p.kind == "crowded"]


def scenario_seat_cards(app):
    """Each seat's card (who plays for it) in turn: what the audit finds crowded on it."""
    _game, screen = _table_of_four(app, 16, seed=8)
    yield 0.3
    found = {}
    for seat in range(4):
        screen.open_card(seat)
        yield
        found[f"card {seat}"] = _crowded(screen.card)
        screen.card.close()
    return found


def test_a_seats_card_keeps_close_a_finger_off_its_choices_on_the_7_inch_panel():
    found = run_scenario("test_ui_tantrix_cards", "scenario_seat_cards", size=(800, 480))
    assert len(found) == 4 and not any(found.values()), found


def scenario_cards_clear_of_controls(app):
    """Each seat's card in turn, then the coach's card for the player to move (its search short,
    given to the screen as its job would): what the audit finds crowded on the whole screen."""
    from engine.strategy.robots.coach import advise
    from engine.strategy.robots.master import Master
    from ui.jobs import Outcome

    found = {}
    _game, screen = _table_of_four(app, 16, seed=8)
    yield 0.3
    for seat in range(4):
        screen.open_card(seat)
        yield
        found[f"card {seat}"] = _crowded(app.root)
        screen.card.close()
    game, screen = _table_of_four(app, 20, seed=6)
    yield 0.3
    advice = advise(game, Master(iterations=6))
    screen._advised(game.turn, (len(game.board), game.turn, game.step), Outcome(advice, None, False, 0.0, 0))
    yield
    assert screen.coach_card is not None
    found["coach"] = _crowded(app.root)
    return found


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_seats_card_and_the_coachs_lie_clear_of_leave_and_the_zoom(size):
    found = run_scenario("test_ui_tantrix_cards", "scenario_cards_clear_of_controls", size=size)
    assert len(found) == 5 and not any(found.values()), found
