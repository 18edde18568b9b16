"""What tells the strategy game's seats apart without their hue: each hand's colour band carries
its colour's marking, as the links of that colour do on the tiles (red dots, blue dashes...), so a
player who confuses red and green still finds their own hand among four."""

from __future__ import annotations

import pytest

from engine.strategy.robots import robot_move
from ui_harness import Pixels, near


def _band(hand):
    """(rows, far pixels) of the hand's colour band: the rows along its lower edge where the hand's
    colour covers a third of the middle of the edge, and, between the first and last of them, how
    many pixels of that middle are far from the colour (a marking; none in a bar of one flat colour)."""
    from ui import theme

    pixels = Pixels(hand)
    x0, y0 = hand.to_window(*hand.pos)
    link = theme.LINK[hand.colour]
    xs = [x0 + hand.width * (0.15 + 0.7 * i / 200) for i in range(201)]
    rows = [y for y in range(int(y0), int(y0 + hand.tile_radius() * 0.6))
            if sum(near(pixels.at(x, y), link) for x in xs) > len(xs) / 3]
    if not rows:
        return [], 0
    far = sum(1 for y in range(rows[0], rows[-1] + 1) for x in xs
              if not near(pixels.at(x, y), link, tolerance=90))
    return rows, far


def _four_people(app, seed: int, tiles: int):
    """A game of four people, its first ``tiles`` played by robots, open at the table and settled."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(4, "RYGB", ["club"] * 4, seed=seed)
    while len(game.board) < tiles:
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    yield
    yield 0.6
    return game, screen


def scenario_hands_carry_their_marking(app):
    """Four people, the screen upright: the four hands side by side along the bottom."""
    _, screen = yield from _four_people(app, seed=4, tiles=12)
    return {hand.colour: _band(hand) for hand in screen.hands}


def test_each_hand_shows_its_colours_marking_not_only_its_hue():
    from ui_harness import run_scenario

    bands = run_scenario("test_ui_tantrix_seat_marks", "scenario_hands_carry_their_marking", size=(800, 480),
                         settings={"orientation": "upright"})
    assert set(bands) == {"R", "Y", "G", "B"}
    for colour, (rows, far) in bands.items():
        assert rows, f"{colour}: no colour band along the hand"
        assert far >= 20, f"{colour}: its band is one flat colour ({far} pixels of a marking)"


def scenario_controls_keep_apart(app):
    """Four people, a tile waiting for Confirm (the controls make way for its bars): Leave and the
    view's - and + are placed where they cover nothing; no two of them touch (at 1280x800 Leave
    came to lie against the - button, one finger's width from the wrong one)."""
    from ui import theme

    game, screen = yield from _four_people(app, seed=14, tiles=24)
    screen.put(game.turn, game.legal()[0])
    yield 0.5
    controls = [screen.leave_button, *screen.view_controls.parts]
    boxes = [(*c.to_window(*c.pos), *c.size) for c in controls]
    gaps = []
    for i, (ax, ay, aw, ah) in enumerate(boxes):
        for bx, by, bw, bh in boxes[i + 1:]:
            gaps.append(max(bx - (ax + aw), ax - (bx + bw), by - (ay + ah), ay - (by + bh)))
    return {"least": min(gaps), "unit": theme.unit()}


@pytest.mark.parametrize("size", [(1280, 800), (800, 480)])
def test_leave_and_the_zoom_buttons_never_touch(size):
    from ui_harness import run_scenario

    found = run_scenario("test_ui_tantrix_seat_marks", "scenario_controls_keep_apart", size=size)
    assert found["least"] >= found["unit"] * 0.1, found
