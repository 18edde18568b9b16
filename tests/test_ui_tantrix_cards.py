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



TABLES = ((2, False), (3, False), (4, False), (4, True))
"""The strategy game's tables: 2, 3 and 4 people, and Doubles (4 people, partners opposite)."""


def scenario_coach_card_at_every_seat(app):
    """Every table flat; at every seat in turn a person to place a tile asks the coach (what "Hint"
    does; the master's answer, its longest sentence, given at once). What each card does wrong: it
    must face its player, lie whole on the screen, its near edge on their half of it, and cover
    none of the controls, no other hand, no plate and not the pale tile. In Doubles on the 7"
    portrait panel a side seat's card, as long as that side's table (684 px), lay over Leave, the
    bag count and the zoom, or over the other side's hand."""
    from engine.strategy.game import StrategyGame, Step
    from engine.strategy.robots import robot_move
    from engine.strategy.robots.coach import Advice, Reason
    from kivy.core.window import Window
    from ui.modes.strategy import play as strategy_play
    from ui.table import overlaps
    from ui_harness import until

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    app.services.settings.orientation = "flat"
    found = {}
    for players, doubles in TABLES:
        for seat in range(players):
            game = StrategyGame.new(players, "RYGB"[: 2 if doubles else players], ["beginner"] * players,
                                    doubles=doubles, seed=3)
            while len(game.board) < 14 or game.turn != seat or game.step is not Step.FREE:
                robot_move(game)
            for other in range(players):
                game.set_robot(other, None)
            screen = strategy_play.open_game(app, game)
            screen.robot_pause = 600.0
            move = game.legal()[0]
            strategy_play.advise = lambda view, coach, move=move: Advice(move, Reason("quiet", {"tries": 40}), 1)
            yield 0.3
            assert screen.coached_seat() == seat and screen.coach_bar.shown
            screen.ask_coach()  # what "Hint" does (a tap on the turned panel lands where its picture is not)
            yield until(lambda: screen.coach_card is not None, 30)
            yield 0.3
            layout, card = screen.layout, rect(screen.coach_card)
            box, (x, y, w, h) = layout.boxes[seat], card
            (ux, uy), (cx, cy) = box.up(), (x + w / 2 - layout.x - box.cx, y + h / 2 - layout.y - box.cy)
            middle = abs((layout.width / 2 - box.cx) * ux + (layout.height / 2 - box.cy) * uy)
            wrong = ([] if screen.coach_card.rotation == box.angle % 360 else ["turned away"])
            wrong += [] if x >= -0.5 and y >= -0.5 and x + w <= Window.width + 0.5 and y + h <= Window.height + 0.5 \
                else ["off the screen"]
            wrong += [] if cx * ux + cy * uy - (w if box.across else h) / 2 <= middle else ["past the middle"]
            named = [("Leave", screen.leave_button), ("the bag count", screen.bag_label),
                     *((f"the view control {i}", part) for i, part in enumerate(screen.view_controls.parts)),
                     *((f"plate {i}", plate) for i, plate in enumerate(screen.plates))]
            wrong += [f"over {name}" for name, widget in named
                      if widget.parent is not None and widget.opacity > 0 and overlaps(card, rect(widget))]
            wrong += [f"over hand {other}" for other, b in enumerate(layout.boxes)
                      if other != seat and overlaps(card, b.rect(layout.x, layout.y))]
            wrong += ["over the pale tile"] if overlaps(card, screen._space(move.cell)) else []
            found[f"{players} {'doubles' if doubles else 'people'}, seat {seat}"] = wrong
            screen.close_coach()
            screen.leave()
            yield 0.2
    return found


@pytest.mark.parametrize("size, rotation", [((720, 1280), 0), ((800, 480), 90), ((800, 480), 0), ((1280, 800), 0)],
                         ids=["720x1280", "480x800", "800x480", "1280x800"])
def test_the_coachs_card_faces_its_player_clear_of_controls_hands_and_plates(size, rotation):
    found = run_scenario("test_ui_tantrix_cards", "scenario_coach_card_at_every_seat", size=size, rotation=rotation,
                         timeout=300)
    assert len(found) == 13 and not any(found.values()), {where: wrong for where, wrong in found.items() if wrong}
