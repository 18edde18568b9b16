"""The board and hand widgets end to end: drag from a hand, turn with a tap or a twist, drop on a
legal space (placed and drawn) and on an illegal one (refused with the rule in words, cells
highlighted, nothing placed), forced-space hints, pan and pinch. Rendered headless for real.

The rules come from a test-only placement target on engine.board.Board (no mode is needed)."""

from __future__ import annotations

import math
import random

import pytest

from engine.board import Board, Placement
from engine.modes import Refused
from engine.strategy.playout import playout
from engine.tiles import FACES
from ui_harness import Pixels, drag, labels, near, run_scenario, tap, until


class BoardRules:
    """Test-only placement target: engine.board.Board's rules as they stand, nothing more."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.placed: list[Placement] = []

    def check(self, placement: Placement) -> Refused | None:
        return self.board.check(placement)

    def place(self, placement: Placement) -> None:
        refusal = self.check(placement)
        if refusal is not None:
            raise refusal
        self.board.push(placement)
        self.placed.append(placement)


def _table(app, board: Board, hands: list[list[int]]):
    """A screen with a table: ``board`` and the given hands, wired to a BoardRules target."""
    from kivy.uix.screenmanager import Screen

    from ui.board import HandView
    from ui.table import TableLayout

    screen = Screen(name="board-test")
    table = TableLayout()
    rules = BoardRules(board)
    table.board.target = rules
    table.board.show(board)
    views = [HandView(tiles=list(h)) for h in hands]
    table.seat(views)
    table.bag = board.bag
    screen.add_widget(table)
    app.show(screen)

    def refresh(view, placement):
        table.board.show(board)
        table.bag = board.bag
        table.refresh_hints()

    for view in views:
        view.bind(on_played=refresh)
    return table, rules, views


def _start_position(seed: int, tiles: int) -> tuple[Board, list[int]]:
    rng = random.Random(seed)
    board = playout(rng, stop_after=tiles)
    board.bag = 56 - tiles - 12
    rest = [t for t in range(1, 57) if t not in board.placed_tiles()]
    rng.shuffle(rest)
    return board, rest


def _finger_for(hand, board_view, cell):
    """Where a finger must be for the lifted tile to hover over ``cell`` (window coordinates)."""
    x, y = board_view.window_cell_centre(cell)
    lift = hand.tile_radius() * 1.3
    a = math.radians(hand.seat_angle)
    return x + math.sin(a) * lift, y - math.cos(a) * lift


def _link_colour_at(pixels: Pixels, board_view, cell, direction: int) -> str:
    """Which link colour (or "face") is drawn near the side of ``cell`` facing ``direction``."""
    from ui import theme

    cx, cy = board_view.window_cell_centre(cell)
    size = board_view.size_px
    a = math.radians(-60 * direction)
    inward = 0.86 * math.sqrt(3) / 2 * size
    side = 0.055 * size  # off the centre line, clear of green's stripe and blue's dashes
    x = cx + inward * math.cos(a) - side * math.sin(a)
    y = cy + inward * math.sin(a) + side * math.cos(a)
    colour = pixels.at(x, y)
    choices = dict(theme.LINK, face=theme.TILE_FACE)
    return min(choices, key=lambda k: sum((c - v * 255) ** 2 for c, v in zip(colour, choices[k][:3])))


def scenario_drag_rotate_drop(app):
    from ui.i18n import _ as tr
    from ui.refusals import RULE_MESSAGES

    board, rest = _start_position(seed=4, tiles=3)
    tiles_before = len(board)
    hand_tiles = rest[:6]
    # a legal placement for a hand tile, and a frontier space where some other tile fits in no rotation
    legal = next(p for p in board.legal_placements(hand_tiles) if not board.is_forced(p.cell))
    tile, cell, rot = legal.tile, legal.cell, legal.rot
    table, rules, (hand, other) = _table(app, board, [hand_tiles, rest[6:12]])
    board_view = table.board
    board_view.snap_rotation = False  # the player turns the tile themselves here
    yield 0.5
    # tap the tile `rot` times: each tap turns it a sixth clockwise
    index = hand.tiles.index(tile)
    slot = hand.to_window(*hand.slot_centre(index))
    for _ in range(rot):
        yield from tap(slot)
    assert hand.rotation(tile) == rot, (hand.rotation(tile), rot)
    # drag it over the legal space: the board shows at once that it fits
    hovered = {}
    yield from drag(slot, _finger_for(hand, board_view, cell),
                    before_release=lambda: hovered.update(verdict=board_view.verdict))
    assert hovered["verdict"] is not None and hovered["verdict"][1] is None, hovered
    assert rules.placed == [Placement(tile, cell[0], cell[1], rot)], rules.placed
    assert board.at(cell) == Placement(tile, cell[0], cell[1], rot)
    assert tile not in hand.tiles
    yield 0.6  # let the recentring finish
    pixels = Pixels(app.root)
    drawn = [_link_colour_at(pixels, board_view, cell, d) for d in range(6)]
    assert drawn == list(FACES[tile][rot]), (drawn, FACES[tile][rot])

    # an illegal drop: a frontier space where the tile fits in no rotation (golden rule)
    bad_tile, bad_cell = next(
        (t, c) for t in hand.tiles for c in board.frontier() if not board.fits(t, c) and not board.is_forced(c)
    )
    board_view.snap_rotation = True  # even turned, it cannot fit
    index = hand.tiles.index(bad_tile)
    slot = hand.to_window(*hand.slot_centre(index))
    placed_before = len(board)
    yield from drag(slot, _finger_for(hand, board_view, bad_cell))
    yield 0.2
    assert len(board) == placed_before and bad_tile in hand.tiles
    assert bad_cell in board_view.highlighted and len(board_view.highlighted) >= 2
    expected_text = tr(RULE_MESSAGES["golden-rule"])
    assert expected_text in labels(table), labels(table)
    pixels = Pixels(app.root)
    bx, by = board_view.window_cell_centre(bad_cell)
    outline = [pixels.at(bx + 0.9 * board_view.size_px * math.cos(math.radians(90 - 60 * i + 30)) * 0.9,
                         by + 0.9 * board_view.size_px * math.sin(math.radians(90 - 60 * i + 30)) * 0.9)
               for i in range(6)]
    from ui import theme

    assert sum(near(c, theme.MARK_REFUSED, 70) for c in outline) >= 4, outline
    # the same drop in French: the refusal is worded in French
    app.set_language("fr")
    yield from drag(slot, _finger_for(hand, board_view, bad_cell))
    yield 0.2
    french = tr(RULE_MESSAGES["golden-rule"])
    assert french.startswith("La règle d'or") and french in labels(table), labels(table)
    return {"placed": [tile, cell[0], cell[1], rot], "tiles": len(board) - tiles_before}


def test_drag_rotate_and_drop_legal_and_illegal():
    result = run_scenario("test_ui_board", "scenario_drag_rotate_drop", size=(1280, 800))
    assert result["tiles"] == 1


def scenario_twist_pan_pinch(app):
    from ui_harness import touch_at

    board, rest = _start_position(seed=9, tiles=5)
    table, rules, (hand,) = _table(app, board, [rest[:6]])
    board_view = table.board
    yield 0.5
    tile = hand.tiles[2]
    cx, cy = hand.to_window(*hand.slot_centre(2))
    radius = hand.tile_radius()
    first = touch_at(cx, cy)
    first.touch_down()
    yield
    # second finger to the right, then swung clockwise a quarter turn around the first
    second = touch_at(cx + radius * 2, cy)
    second.touch_down()
    yield
    for step in range(1, 7):
        a = math.radians(-90 * step / 6)
        second.touch_move(cx + radius * 2 * math.cos(a), cy + radius * 2 * math.sin(a))
    yield
    second.touch_up()
    first.touch_up()
    yield
    twisted = hand.rotation(tile)
    assert twisted in (1, 2), twisted  # a clockwise twist turned it clockwise (no extra tap turn)
    # one finger on the free table pans, two pinch
    fx, fy, fw, fh = board_view.fit_area
    origin = list(board_view.origin)
    yield from drag((fx + fw * 0.2, fy + fh * 0.5), (fx + fw * 0.2 + 100, fy + fh * 0.5 + 40))
    assert abs(board_view.origin[0] - origin[0] - 100) < 2 and abs(board_view.origin[1] - origin[1] - 40) < 2
    size = board_view.size_px
    a, b = touch_at(fx + fw * 0.4, fy + fh * 0.5), touch_at(fx + fw * 0.6, fy + fh * 0.5)
    a.touch_down()
    b.touch_down()
    yield
    b.touch_move(fx + fw * 0.7, fy + fh * 0.5)
    a.touch_move(fx + fw * 0.3, fy + fh * 0.5)
    yield
    a.touch_up()
    b.touch_up()
    yield
    assert board_view.size_px > size * 1.3, (board_view.size_px, size)
    return {"twisted": twisted}


def test_twist_turns_a_tile_and_the_board_pans_and_zooms():
    run_scenario("test_ui_board", "scenario_twist_pan_pinch", size=(800, 480))


def scenario_forced_hints(app):
    # find a position with a forced space that some of the remaining tiles fit
    for seed in range(200):
        board, rest = _start_position(seed, tiles=14)
        spaces = [s.cell for s in board.forced_spaces()]
        if not spaces:
            continue
        hand = rest[:6]
        expected = sorted({p.tile for p in board.legal_placements(hand, spaces)})
        if expected and len(expected) < len(hand):
            break
    else:
        raise AssertionError("no position with a partly fitting forced space")
    table, rules, (view, other) = _table(app, board, [hand, rest[6:12]])
    table.refresh_hints()
    yield 0.5
    assert view.marked == expected, (view.marked, expected)
    # the forced space is drawn in amber on the board
    from ui import theme

    pixels = Pixels(app.root)
    x, y = table.board.window_cell_centre(spaces[0])
    s = table.board.size_px * 0.88
    ring = [pixels.at(x + s * math.cos(math.radians(90 - 60 * i)), y + s * math.sin(math.radians(90 - 60 * i)))
            for i in range(6)]
    assert sum(near(c, theme.ACCENT, 60) for c in ring) >= 4, ring
    # the top hand faces the far player: turned half a turn, tiles still shown as they land
    assert other.seat_angle == 180.0 and view.seat_angle == 0.0
    return {"marked": view.marked}


def test_hand_marks_tiles_that_fit_a_forced_space():
    run_scenario("test_ui_board", "scenario_forced_hints", size=(1280, 800))


def scenario_messages_leave_the_bag_in_sight(app):
    """A message to any of four players leaves the table's "Bag: n" badge in sight (on the portrait
    panel the top player's lay over it)."""
    from ui.table import overlaps

    board, rest = _start_position(5, 12)
    table, _rules, _views = _table(app, board, [rest[k * 6:k * 6 + 6] for k in range(4)])
    yield until(lambda: len(table.boxes) == 4 and table.board.fit_area)
    yield 0.2
    badge = table.bag_badge
    assert badge.opacity == 1
    covered = []
    for seat in range(4):
        table.tell(seat, lambda: "The golden rule: where two tiles touch, their edges must show the same colour.")
        (x, y), (w, h) = table._banners[seat].bbox
        if overlaps((x, y, w, h), (badge.x, badge.y, badge.width, badge.height)):
            covered.append(seat)
        table.hush(seat)
    return covered


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_message_leaves_the_bag_count_in_sight(size):
    assert run_scenario("test_ui_board", "scenario_messages_leave_the_bag_in_sight", size=size) == []
