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


def _disc_marking(plate):
    """How many pixels of the ring between 62 % and 86 % of the plate's disc's radius are far from
    the disc's colour: the ring the colour's marking runs round (a disc of one flat colour has none
    there; the glyph of who plays lies nearer its centre)."""
    from ui import theme

    pixels = Pixels(plate.parent)
    cx, cy = plate.to_window(*plate.to_parent(*plate.disc_centre))
    r = plate.disc_radius
    link = theme.LINK[plate.colour]
    ring = [(x, y) for x in range(int(cx - r), int(cx + r) + 1) for y in range(int(cy - r), int(cy + r) + 1)
            if r * 0.62 <= ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= r * 0.86]
    return sum(1 for x, y in ring if not near(pixels.at(x, y), link, tolerance=90)), len(ring)


def scenario_waiting_plates_carry_their_marking(app, players: int = 4):
    """The portrait panel upright: the plates of the seats that wait lie in a row along the top,
    each a disc of its colour beside the colour's name and score."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(players, "RYGB"[:players], ["club"] * players, seed=4)
    while len(game.board) < 12:
        robot_move(game)
    for seat in range(players):
        game.set_robot(seat, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    yield
    yield 0.6
    actor = screen.actor()
    return {plate.colour: _disc_marking(plate) for seat, plate in enumerate(screen.plates) if seat != actor}


def scenario_three_waiting_plates_carry_their_marking(app):
    return (yield from scenario_waiting_plates_carry_their_marking(app, players=3))


@pytest.mark.parametrize("scenario, waiting", [("scenario_waiting_plates_carry_their_marking", 3),
                                               ("scenario_three_waiting_plates_carry_their_marking", 2)])
def test_each_waiting_plates_disc_shows_its_colours_marking(scenario, waiting):
    """A colour-blind player tells the waiting seats' plates apart by the marking round their disc
    (the discs were plain colour: only the hue said whose plate was whose)."""
    from ui_harness import run_scenario

    discs = run_scenario("test_ui_tantrix_seat_marks", scenario, size=(720, 1280), settings={"orientation": "upright"})
    assert len(discs) == waiting, discs
    for colour, (far, ring) in discs.items():
        assert ring > 100, f"{colour}: the disc is too small to read ({ring} pixels in its ring)"
        assert far >= ring * 0.15, f"{colour}: its disc is one flat colour ({far} of {ring} pixels marked)"



def _crowded_controls(app, doubles, placed, put):
    """A game of four people on the 7" panel (Doubles or not) played by club robots' choices as
    bench/ui_controls_gap.py plays it (seed 1) up to ``placed`` tiles, then shown; ``put``: the
    next tile put down, waiting for Confirm. The pairs of controls ``ui.audit`` finds closer than
    a finger's gap."""
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot, robot_choice
    from kivy.core.window import Window
    from ui import audit, theme
    from ui.modes.strategy import play as strategy_play

    robot = make_robot("club")
    game = StrategyGame.new(4, "RY" if doubles else "RYGB", [None] * 4, doubles=doubles, seed=1)
    while len(game.board) < placed:
        robot_move(game, robot)
    screen = strategy_play.open_game(app, game)
    yield 0.3
    if put:
        screen.put(game.turn, robot_choice(game, robot))
        yield
    return [str(p) for p in audit.audit(screen, tuple(Window.size), theme.min_target()) if p.kind == "crowded"]


def scenario_leave_by_the_zoom(app):
    """Doubles, 49 tiles down: Leave lay against the zoom's - and + (0 px), the ring kept round
    them weighing less than the tiles it would otherwise cover."""
    return (yield from _crowded_controls(app, True, 49, put=False))


def scenario_confirm_by_the_zoom(app):
    """Four players, 46 tiles down, the 47th waiting for Confirm: the bar came up 4 px from the
    zoom's +, which moved only for a bar lying over it."""
    return (yield from _crowded_controls(app, False, 46, put=True))


def scenario_confirm_over_the_zoom(app):
    """Four players on the turned 7" panel (the hands round it), 31 tiles down, the 32nd waiting for
    Confirm: no place clear of every hand, plate and bar was left for the zoom, and of the places
    covering something it took the one over the Confirm bar (4 px over its +), a bar's gap
    weighing as much as a tile's area did."""
    return (yield from _crowded_controls(app, False, 31, put=True))


@pytest.mark.parametrize(("scenario", "size"), [("scenario_leave_by_the_zoom", (800, 480)),
                                                ("scenario_confirm_by_the_zoom", (800, 480)),
                                                ("scenario_confirm_over_the_zoom", (480, 800))])
def test_no_two_controls_closer_than_a_finger_at_a_crowded_table(scenario, size):
    from ui_harness import run_scenario

    assert run_scenario("test_ui_tantrix_seat_marks", scenario, size=size) == []
