"""The real bag when no reader says what was drawn, driven by simulated touches and reads: with the
reader gone, or a tag the table has not learnt, the player picks the tile they drew on screen (the
tiles still in the bag, fingertip-sized, a page at a time); the draw is judged, journaled and
recorded exactly as a scanned one, and a game resumed after a power cut goes on with it. A tile
read while the staff menu is open is kept, and counts once the game is back on screen."""

from __future__ import annotations

import math

import pytest

from test_ui_tantrix import told
from ui_harness import run_scenario, tap, until


def _bag_game(app, players=2):
    """People at every seat, the real bag, at the opening draw."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(players, "RYGB"[:players], [None] * players, physical_bag=True)
    return game, strategy_play.open_game(app, game)


def _faces(screen, widget):
    """The seat ``widget`` (a bar or a card) faces: of the hands turned as it is, the nearest,
    and near it (the gap between their boxes on the screen under two touch units)."""
    from ui import theme
    from ui.audit import window_box

    x0, y0, x1, y1 = window_box(widget)

    def gap(seat):
        hx0, hy0, hx1, hy1 = window_box(screen.hands[seat])
        return math.hypot(max(hx0 - x1, x0 - hx1, 0), max(hy0 - y1, y0 - hy1, 0))

    turned = [i for i, box in enumerate(screen.layout.boxes) if round(widget.rotation - box.angle) % 360 == 0]
    seat = min(turned, key=gap)
    assert gap(seat) < theme.unit() * 2, (seat, gap(seat))
    return seat


def _shown(picker, tile):
    """The choice showing ``tile`` on the picker's page (None: not on this page)."""
    return next((c for c in picker.choices if c.parent is not None and c.tile == tile), None)


def _pick(screen, tile):
    """Page through the open picker to ``tile``, touch it, then Take."""
    picker = screen.picker
    while _shown(picker, tile) is None:
        assert not picker.next_button.disabled, f"tile {tile} is on no page"
        yield from tap(picker.next_button)
    yield from tap(_shown(picker, tile))
    assert picker.chosen == tile and _shown(picker, tile).chosen
    yield from tap(picker.take_button)


def scenario_picked_by_touch(app):
    from kivy.core.window import Window

    from engine.modes import restore
    from engine.strategy.game import StrategyGame
    from ui import theme
    from ui.audit import audit
    from ui.i18n import _
    from ui.services import UnknownTag

    game, screen = _bag_game(app)
    devices, store = app.services.devices, app.services.store
    devices.set_status("reader", False, "unplugged")  # no reader: nothing will ever be scanned
    yield until(lambda: screen.pick_bar.shown)
    assert game.awaiting_draw == 0 and _faces(screen, screen.pick_bar) == 0
    yield from tap(screen.pick_bar.buttons[0])
    picker = screen.picker
    assert picker is not None and screen.picker_seat == 0 and not screen.pick_bar.shown
    assert picker.shown == game.unseen() == list(range(1, 57))
    assert _faces(screen, picker) == 0
    # every tile a fingertip target, nothing cut off or too small on the 7" panel
    problems = audit(picker, Window.size, theme.min_target())
    assert not problems, problems
    assert picker.per_page < 56 and picker.pages > 1
    # touching a tile only chooses it; Take draws it
    yield from _pick(screen, 30)
    assert game.hands[0] == [30] and screen.picker is None and game.awaiting_draw == 1
    assert told(screen, _("Tile {tile} is in your hand.", tile=30))
    # journaled and recorded exactly as a scan of the same tile
    twin = StrategyGame.new(2, "RY", [None, None], physical_bag=True)
    twin.report_draw(30)
    assert game.record()["events"] == twin.record()["events"]
    assert restore(store.load_current()).to_json() == game.to_json()
    # Yellow's tag is one the table does not know: the picker opens facing Yellow, without tile 30
    assert _faces(screen, screen.pick_bar) == 1
    app.post(UnknownTag("0A1B2C3D4E", 1))
    yield until(lambda: screen.picker is not None)
    picker = screen.picker
    assert screen.picker_seat == 1 and _faces(screen, picker) == 1
    assert picker.title.text == _("Unknown tag: pick your tile")
    assert 30 not in picker.shown and picker.shown == game.unseen()
    # the game, not the picker, decides what may be drawn: a tile gone meanwhile is refused
    picker.choose(12)
    picker.chosen = 30
    yield from tap(picker.take_button)
    assert game.hands[1] == [] and told(screen, _("Tile {tile} is not in the bag: draw another one.", tile=30))
    assert screen.picker is None and screen.pick_bar.shown
    yield from tap(screen.pick_bar.buttons[0])
    yield from _pick(screen, 12)
    twin.report_draw(12)
    assert game.hands[1] == [12] and game.record()["events"] == twin.record()["events"]
    # an unknown tag at a seat that owes no draw opens nothing there
    due = game.awaiting_draw
    app.post(UnknownTag("0A1B2C3D4E", 1 - due))
    yield until(lambda: told(screen, _("The table does not know this tile's tag: ask staff to teach it "
                                       "(staff menu, Tag enrolment).")))
    assert screen.picker is None
    # a power cut: the game resumes with the tiles picked, and the next draw is picked as well
    saved = store.load_current()
    app.offer_resume(saved)
    yield 0.2
    app.resume()
    again = app.manager.current_screen
    yield until(lambda: again.pick_bar.shown)
    assert again is not screen and again.game.to_json() == game.to_json() == restore(saved).to_json()
    assert again.game.hands == [[30], [12]] and again.game.awaiting_draw == due
    yield from tap(again.pick_bar.buttons[0])
    tile = again.picker.shown[-1]
    yield from _pick(again, tile)
    assert again.game.hands[due] == ([30] if due == 0 else [12]) + [tile]
    assert restore(store.load_current()).hands[due][-1] == tile
    return {}


def test_a_tile_is_picked_by_touch_without_a_reader_or_after_an_unknown_tag():
    run_scenario("test_ui_tantrix_bag", "scenario_picked_by_touch", size=(800, 480))


def scenario_side_seat_picker(app):
    """At a side seat the picker faces that player, covers no other hand and no plate, lies whole
    on the screen, and every target is a fingertip."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import audit, window_box
    from ui.table import overlaps

    game, screen = _bag_game(app, players=4)
    game.report_draw(30)
    screen.after_step()
    yield until(lambda: screen.pick_bar.shown)
    seat = game.awaiting_draw
    assert screen.layout.boxes[seat].across
    yield from tap(screen.pick_bar.buttons[0])
    picker = screen.picker
    assert picker is not None and _faces(screen, picker) == seat
    x0, y0, x1, y1 = window_box(picker)
    assert x0 >= -1 and y0 >= -1 and x1 <= Window.width + 1 and y1 <= Window.height + 1
    card = (x0, y0, x1 - x0, y1 - y0)
    for other, box in enumerate(screen.layout.boxes):
        if other != seat:
            assert not overlaps(card, box.rect(screen.layout.x, screen.layout.y)), other
    for plate in screen.plates:
        (px, py), (pw, ph) = plate.bbox
        assert not overlaps(card, (px + 1, py + 1, pw - 2, ph - 2))
    problems = audit(picker, Window.size, theme.min_target())
    assert not problems, problems
    return {"per_page": picker.per_page}


def test_a_side_seats_picker_covers_no_other_hand_at_800x480():
    assert run_scenario("test_ui_tantrix_bag", "scenario_side_seat_picker", size=(800, 480))["per_page"] >= 12


def test_a_side_seats_picker_covers_no_other_hand_on_the_portrait_panel():
    assert run_scenario("test_ui_tantrix_bag", "scenario_side_seat_picker", size=(720, 1280))["per_page"] >= 12


def scenario_scan_during_staff_menu(app):
    from ui.i18n import _

    game, screen = _bag_game(app)
    devices, store = app.services.devices, app.services.store
    yield 0.3

    def staff_menu():
        app.open_staff()
        yield 0.2
        for key in ["1", "2", "3", "4", "OK"]:
            yield from tap(next(w for w in app.pin.keypad.children if getattr(w, "msg", None) == key))
        assert app.manager.current == "staff"

    def close_menu():
        yield from tap(next(w for w in app.staff.children[0].walk() if getattr(w, "msg", None) == "Close"))

    # Red scans while staff type their PIN, and the reader reads the tile again in the menu
    app.open_staff()
    yield 0.2
    devices.scan(30, 0)
    yield 0.2
    assert game.hands[0] == []  # the game waits behind the menu, as its clocks and robots do
    for key in ["1", "2", "3", "4", "OK"]:
        yield from tap(next(w for w in app.pin.keypad.children if getattr(w, "msg", None) == key))
    assert app.manager.current == "staff"
    devices.scan(30, 0)
    yield 0.2
    assert game.hands[0] == []
    yield from close_menu()
    yield until(lambda: game.hands[0] == [30])
    yield until(lambda: told(screen, _("Tile {tile} is in your hand.", tile=30)))
    assert not told(screen, _("Tile {tile} is not in the bag: draw another one.", tile=30))
    assert store.load_current()["state"]["hands"][0] == [30] and game.awaiting_draw == 1
    # what a kept read brings is what the player sees on return, not covered by the game's
    # reminder to draw (Yellow's tile 30 is Red's: refused)
    yield from staff_menu()
    devices.scan(30, 1)
    yield from close_menu()
    refused = _("Tile {tile} is not in the bag: draw another one.", tile=30)
    yield until(lambda: screen.layout._banners[1].label.text == refused)
    yield 0.3
    assert screen.layout._banners[1].label.text == refused and game.hands[1] == []
    # staff walk away from the menu: it gives way to the attract screen; the next touch there goes
    # back to the game itself, and Yellow's tile read meanwhile counts (it was once dropped)
    yield from staff_menu()
    devices.scan(12, 1)
    settings = app.services.settings
    idle, settings.idle_seconds = settings.idle_seconds, 1.0
    yield until(lambda: app.manager.current == "attract")
    settings.idle_seconds = idle
    yield from tap((app.root.width / 2, app.root.height / 2))
    yield until(lambda: game.hands[1] == [12])
    assert app.manager.current_screen is screen and store.load_current()["state"]["hands"][1] == [12]
    # a read kept for a game staff then clear goes nowhere: the game is not journaled again
    yield from staff_menu()
    devices.scan(14, 0)
    yield from tap(app.staff.nav["system"])
    yield from tap(next(w for w in app.staff.walk() if getattr(w, "msg", None) == "Clear the current game"))
    assert store.load_current() is None
    yield from close_menu()
    yield until(lambda: app.manager.current == "home")
    yield 0.3
    assert game.hands[0] == [30] and store.load_current() is None
    return {}


def test_a_tile_scanned_while_the_staff_menu_is_open_counts_when_the_game_is_back():
    run_scenario("test_ui_tantrix_bag", "scenario_scan_during_staff_menu", size=(800, 480))


def scenario_zoom_put_away_takes_no_touch(app):
    """While the picker is up the zoom is put away, and where it stood (beside the picker) the
    board takes a finger as anywhere else: it pans under it. Once the picker closes the zoom is
    back and zooms."""
    from ui.audit import window_box
    from ui_harness import drag

    game, screen = _bag_game(app)
    yield until(lambda: screen.pick_bar.shown)
    zoom = screen.view_controls
    x0, y0, x1, y1 = window_box(zoom.zoom_out)
    yield from tap(screen.pick_bar.buttons[0])
    assert screen.picker is not None
    px0, py0, px1, py1 = window_box(screen.picker)
    # the part of the minus button's place the picker leaves bare
    spots = [(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * j / 8) for i in range(1, 8) for j in range(1, 8)]
    bare = [(x, y) for x, y in spots if not (px0 <= x <= px1 and py0 <= y <= py1)]
    assert bare, "the picker covers the whole of the minus button's place: nothing to touch there"
    start = bare[len(bare) // 2]
    origin = tuple(screen.board.origin)
    yield from drag(start, (start[0] + 40, start[1]))
    assert tuple(screen.board.origin) != origin  # the board took the finger
    size = screen.board.size_px
    screen.close_picker()
    yield
    yield from tap(zoom.zoom_out)
    yield until(lambda: screen.board.size_px < size)
    return {}


def test_the_zoom_put_away_under_the_picker_takes_no_touch():
    run_scenario("test_ui_tantrix_bag", "scenario_zoom_put_away_takes_no_touch", size=(1280, 800))


def scenario_leave_waits_for_the_picker(app):
    """While the picker is up Leave is put away (beside the card it stood a few pixels off its
    Close): where it stood a finger asks nothing. The picker's Close gives it back, and Leave asks
    whether to leave, as ever."""
    from ui.widgets import Confirm

    game, screen = _bag_game(app)
    yield until(lambda: screen.pick_bar.shown)
    leave = screen.leave_button
    where = leave.to_window(*leave.center)
    yield from tap(screen.pick_bar.buttons[0])
    assert screen.picker is not None and leave.get_root_window() is None
    yield from tap(where)
    assert not any(isinstance(child, Confirm) for child in screen.overlay.children)
    yield from tap(screen.picker.close_button)
    assert screen.picker is None and leave.get_root_window() is not None
    yield from tap(leave)
    assert any(isinstance(child, Confirm) for child in screen.overlay.children)
    return {}


@pytest.mark.parametrize("size", [(1024, 600), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_leave_waits_while_the_picker_is_up_and_comes_back_with_its_close(size):
    run_scenario("test_ui_tantrix_bag", "scenario_leave_waits_for_the_picker", size=size)


def scenario_bag_count_clear_of_the_picker(app):
    """Four people and the real bag, a tag the table does not know: the picker opens facing the
    side seat that drew. The bag count is never drawn under it: off its edge where the table has
    room, else put away until the picker closes, then back where it is read."""
    from kivy.core.window import Window

    from engine.strategy.game import StrategyGame
    from ui.audit import window_box
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(4, "RYGB", [None] * 4, physical_bag=True, seed=4)
    game.report_draw(30)
    screen = strategy_play.open_game(app, game)
    yield 0.2
    screen.open_picker(game.awaiting_draw, unknown=True)
    yield 0.3
    picker, bag = screen.picker, screen.bag_label
    assert picker is not None and screen.picker_seat == game.awaiting_draw
    px0, py0, px1, py1 = window_box(picker)
    shown = bag.parent is not None
    if shown:
        x0, y0, x1, y1 = window_box(bag)
        assert x1 <= px0 or px1 <= x0 or y1 <= py0 or py1 <= y0, \
            f"the bag count {(x0, y0, x1, y1)} lies under the picker {(px0, py0, px1, py1)}"
    screen.close_picker()
    yield 0.2
    assert bag.parent is not None and bag.opacity > 0
    return {"size": list(Window.size), "shown": shown}


@pytest.mark.parametrize("size, rotation", [((800, 480), 90), ((1280, 800), 0)])
def test_the_bag_count_is_never_under_the_picker(size, rotation):
    found = run_scenario("test_ui_tantrix_bag", "scenario_bag_count_clear_of_the_picker", size=size,
                         rotation=rotation)
    # the turned panel: the picker fills the table, so the count waits; a wide one keeps it in sight
    assert found == {"size": [size[1], size[0]] if rotation else list(size), "shown": not rotation}
