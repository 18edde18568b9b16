"""Gobbles at the kiosk, played by simulated touches and rendered headless: two fingers dragging
from two hands at once (both land, or the later one is told "taken"), "taken" only for a space
filled during the drag, a release over a hand that changes nothing, a view that holds still under
a dragging finger and keeps tiles big, thin robot strips, the gift chosen by touches with its
countdown, a robot claiming on the table's (fake) clock, the journal, the end with its places,
wording and replay; and the "how to play" script, checked against the engine's rule."""

from __future__ import annotations

import pytest

from test_ui_fit import FULL
from ui_harness import drag, labels, run_scenario, tap, touch_at, until


def _game(hands, play_on=True, robot=True):
    from engine.gobble.gobbles import Gobbles, Level, Player
    from ui.modes.gobble import common as gc

    players = [Player("Player 1"), Player("Player 2")] + ([Player("Robot 3", Level.EXPERT)] if robot else [])
    return Gobbles(players, gc.OPENING, hands, play_on=play_on)


def _grab(screen, seat, placement):
    """A finger on ``placement.tile`` in ``seat``'s hand (turned to its rotation first), and where it
    must go for the tile to land on its cell: on the cell itself (a Gobbles drop is judged there)."""
    hand = screen.hands[seat]
    hand.rotations[placement.tile] = placement.rot
    start = hand.to_window(*hand.slot_centre(hand.tiles.index(placement.tile)))
    return touch_at(*start), start, screen.layout.board.window_cell_centre(placement.cell)


def _overlap(bbox, area):
    """Whether a widget's bbox ((x, y), (w, h)) and an area [x, y, w, h] overlap."""
    (x, y), (w, h) = bbox
    ax, ay, aw, ah = area
    return x < ax + aw - 1 and ax < x + w - 1 and y < ay + ah - 1 and ay < y + h - 1


def _inside(point, bbox):
    (x, y), (w, h) = bbox
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _two_fingers(screen, one, other):
    """Drag two tiles from two hands at once, the moves interleaved; ``one`` is lifted first.
    Returns how many previews the board showed while both fingers were down."""
    (a, a0, a1), (b, b0, b1) = _grab(screen, *one), _grab(screen, *other)
    a.touch_down()
    b.touch_down()
    yield
    for i in range(1, 9):
        a.touch_move(a0[0] + (a1[0] - a0[0]) * i / 8, a0[1] + (a1[1] - a0[1]) * i / 8)
        b.touch_move(b0[0] + (b1[0] - b0[0]) * i / 8, b0[1] + (b1[1] - b0[1]) * i / 8)
        yield
    previews = len(screen.layout.board._hovers)
    a.touch_up()
    yield
    b.touch_up()
    yield
    return previews


def _one_finger(screen, seat, placement):
    _touch, start, end = _grab(screen, seat, placement)
    yield from drag(start, end)


def scenario_race(app):
    from engine.gobble.gobbles import Gobbles
    from engine.gobble.table import ManualClock
    from engine.modes import restore
    from ui.i18n import _, n_
    from ui.modes.gobble import common as gc, gobbles
    from ui.refusals import RULE_MESSAGES

    robot_tiles = [5, 7, 13, 14, 19]
    game = _game([[36, 37, 16, 56, 3], [40, 2, 18, 8, 51], robot_tiles])
    clock = ManualClock()
    screen = gobbles.GobblesScreen(app, game, clock=clock, robot_seed=2)
    app.show(screen)
    yield 0.3

    def journaled():
        return restore(app.services.store.load_current()).to_json() == game.to_json()

    assert [h.active for h in screen.hands] == [True, True, False]  # the robot's hand is not dragged
    assert screen.hands[1].seat_angle != 0  # the second player sits across the table
    # two fingers from two hands at once: both tiles land
    previews = yield from _two_fingers(screen, (0, gc.BUILD[0]), (1, gc.BUILD[1]))
    assert previews == 2  # each finger had its own preview on the board
    assert game.owner(gc.BUILD[0].cell) == 0 and game.owner(gc.BUILD[1].cell) == 1 and journaled()
    assert 36 not in screen.hands[0].tiles and 40 not in screen.hands[1].tiles
    for seat, placement in ((1, gc.BUILD[2]), (0, gc.BUILD[3])):
        game_before = len(game.board)
        yield from _one_finger(screen, seat, placement)
        assert len(game.board) == game_before + 1
    # two fingers, one space: the first lifted gets it, the other is told "taken"
    yield from _two_fingers(screen, (0, gc.RACE[0]), (1, gc.RACE[1]))
    assert game.owner(gc.RACE[0].cell) == 0 and gc.RACE[1].tile in game.hands[1]
    assert _(RULE_MESSAGES["taken"]) in labels(screen.layout), labels(screen.layout)
    assert journaled()
    # a gobble: the gift card faces the gobbler, with the countdown; the robot plays meanwhile
    yield from _one_finger(screen, 0, gc.GOBBLE)
    assert 0 in game.pending and 0 in screen.gifts
    card = screen.gifts[0]
    assert card.rotation == screen.layout.boxes[0].angle
    # it covers nothing of the board: the board's free area ends where the card begins, and no
    # placed tile is drawn under it
    board = screen.layout.board
    assert not _overlap(card.bbox, board.fit_area), (card.bbox, board.fit_area)
    yield 0.5  # the board refits into the smaller area
    under = [p.cell for p in game.board.placements() if _inside(board.window_cell_centre(p.cell), card.bbox)]
    assert under == [] and "Gobble!" not in labels(screen.layout)
    assert card.clock.text == _("{seconds} s", seconds=10)
    hand = screen.hands[0]
    assert hand.picking and hand.picked == list(game.suggest_gift(0).tiles)
    assert journaled()
    robot_hand = len(game.hands[2])
    assert game.legal_placements(2)  # the robot has somewhere to go
    clock.advance(3000)
    yield 0.35
    assert card.clock.text == _("{seconds} s", seconds=7)
    claims = [e for e in game.events if e["player"] == 2 and e.get("result") == "placed"]
    assert claims and len(game.hands[2]) <= robot_hand - 1 + 2  # placed (and maybe received a gift)
    cell = (claims[0]["claim"]["q"], claims[0]["claim"]["r"])
    assert game.owner(cell) == 2 and screen.layout.board.board is game.board and journaled()
    # choose by touches: unpick the suggestion, Give is refused (wrong count), pick tile 3, give it
    for tile in list(hand.picked):
        yield from tap(hand.to_window(*hand.slot_centre(hand.tiles.index(tile))))
    assert hand.picked == []
    yield from tap(card.give_button)
    assert 0 in game.pending and _(RULE_MESSAGES["gift-count"]) in labels(screen.layout)
    yield from tap(hand.to_window(*hand.slot_centre(hand.tiles.index(3))))
    assert hand.picked == [3]
    yield from tap(card.recipients.chip(1))
    yield from tap(card.give_button)
    assert 0 not in game.pending and 3 in game.hands[1] and 3 not in game.hands[0]
    assert game.events[-1]["gift"] == {"to": 1, "tiles": [3]} and not game.events[-1]["auto"]
    assert 0 not in screen.gifts and card.parent is None and not hand.picking
    assert screen.layout.reserved == {}  # the band is the board's again
    assert 3 in screen.hands[1].tiles and journaled()
    # the receiver is pointed at the tile (ringed in their hand), not told its number
    assert screen.hands[1].received == [3]
    assert n_("{name} gobbled: you get {count} tile, ringed in white.",
              "{name} gobbled: you get {count} tiles, ringed in white.", 1,
              name=_("Player {number}", number=1), count=1) in labels(screen.layout)
    assert not any("3" in text.replace("Player 1", "") for text in labels(screen.layout) if "gobbled" in text)
    # no turns in Gobbles: nothing was cued for a turn
    assert all(c.turn is None for c in app.services.devices.cues)
    # the journal restores the race where it stands
    assert Gobbles.from_json(app.services.store.load_current()["state"]).to_json() == game.to_json()
    return {"events": len(game.events)}


def test_two_fingers_at_once_gift_by_touch_and_a_robot_on_the_clock():
    result = run_scenario("test_ui_gobbles", "scenario_race", size=(1280, 800))
    assert result["events"] >= 8  # 7 claims (one lost race is never claimed) and a gift


def scenario_end(app):
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import common as gc, gobbles

    game = _game([[36], [40]], play_on=False, robot=False)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    yield 0.2
    yield from _one_finger(screen, 0, gc.BUILD[0])
    assert game.finished and game.standings()[0].player == 0
    assert app.services.devices.cues[-1].winners == (0,)
    assert app.services.store.load_current() is None
    assert app.services.store.records("gobbles")[0][2] == game.to_json()
    # table news, once and facing every seat: each seat's tag says who is out, nothing over the board
    news = _("{name}: {place} place!", name=_("Player {number}", number=1), place=_("1st"))
    assert screen.layout.news == news
    assert [tag.label.text for tag in screen.layout._tags] == [news, news]
    assert [tag.rotation for tag in screen.layout._tags] == [box.angle for box in screen.layout.boxes]
    assert not any(b.opacity and b.label.text == news for b in screen.layout._banners)
    yield 2.3
    results = app.manager.current_screen
    assert results.name == "gobbles-results", results.name
    words = labels(results)
    assert _("{name} wins!", name=_("Player {number}", number=1)) + "\n" + _(gobbles.ENDINGS["first-out"], name=_("Player {number}", number=1)) in words
    assert _("all tiles placed") in words and _("tiles left: {count}", count=1) in words
    bar = results.replay_bar
    assert bar.step == 1 == bar.replay.steps
    yield from tap(bar.buttons["back"])
    assert bar.caption.text == _("The deal") and len(bar.replay.view.board) == 2, ([len(b) for b, _ in bar.replay.frames], bar.step, bar.caption.text, len(bar.replay.view.board))
    assert bar.replay.step_mark.cell is None
    yield from tap(bar.buttons["last"])
    # the caption says who, the mark on the board says where (no tile number)
    assert bar.caption.text == _("{name} placed a tile", name=_("Player {number}", number=1))
    assert bar.replay.step_mark.cell == gc.BUILD[0].cell
    # play again: the same seats, a new deal
    yield from tap(results.again_button)
    again = app.manager.current_screen
    assert isinstance(again, gobbles.GobblesScreen) and again.game.players == game.players
    again.leave()
    return {}


def test_the_end_gives_places_and_a_replay():
    run_scenario("test_ui_gobbles", "scenario_end", size=(800, 480))


def scenario_start_news(app):
    """A new race says at every person's seat, facing its player, that there are no turns: nothing
    else on the table does, and a newcomer who skipped How to play waited for their turn (a robot's
    seat keeps its own tag: no one there reads it). At a seat whose
    player touched their hand or the news, it goes (it may lie over the race's first tile). Staff's
    menu and back does not say it again."""
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import gobbles

    app.set_language("fr")
    game = _game([[36, 37, 16, 56, 3], [40, 2, 18, 8, 51], [5, 7, 13, 14, 19]])
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock(), robot_seed=2)
    app.show(screen)
    yield until(lambda: screen.layout.news != "")
    said = _(gobbles.START_NEWS)
    assert said != gobbles.START_NEWS  # in the players' language
    assert screen.layout.news == said
    tags = screen.layout._tags
    assert [tag.label.text for tag in tags[:2]] == [said] * 2 and all(tag.opacity == 1 for tag in tags)
    assert tags[2].label.text == screen._tag(2)  # no one at the robot's seat reads it: its own tag stays
    assert [tag.rotation % 360 for tag in tags] == [box.angle % 360 for box in screen.layout.boxes]  # facing each seat
    # a player who touches their hand has read it: their seat's tag is theirs again at once, the
    # others keep the news; a touch on the news itself does the same
    hand = screen.hands[0]
    yield from tap(hand.to_window(*hand.slot_centre(0)))
    assert tags[0].label.text not in ("", said) and tags[0].opacity == 1
    assert tags[1].label.text == said
    yield from tap(tags[1].parent.to_window(*tags[1].center))
    assert tags[1].label.text not in ("", said)
    app.set_language("en")  # a seat that read the news shows its own words, rewritten at once
    yield 0.1
    assert [tags[seat].label.text for seat in (0, 1, 2)] == [screen._tag(seat) for seat in (0, 1, 2)]
    assert "tiles" in tags[2].label.text
    app.set_language("fr")
    assert all("claim" not in e for e in game.events)  # the taps claimed no space
    screen.layout.news = ""
    screen.on_leave()
    screen.on_enter()
    assert screen.layout.news == ""
    app.set_language("en")
    screen.leave()
    return {}


def test_a_new_race_says_at_every_seat_that_there_are_no_turns():
    run_scenario("test_ui_gobbles", "scenario_start_news", size=(800, 480))


def scenario_robot_tags_legible(app):
    """Six seats round the upright 7" panel, every other one a robot's: each seat's tag ("Robot 4 ·
    tiles: 9") is written whole in a legible font. A robot's hand is a thin strip at the edge, and
    its tag, a share of that short edge, was shrunk to 11 px where the edge had room for it whole."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui import audit, theme
    from ui.modes.gobble import gobbles

    people = [Player(f"Player {i + 1}") if i % 2 == 0 else Player(f"Robot {i + 1}", Level.EXPERT) for i in range(6)]
    screen = gobbles.GobblesScreen(app, Gobbles.deal(people, seed=3), clock=ManualClock())
    app.show(screen)
    layout = screen.layout
    yield until(lambda: len(layout.boxes) == 6 and layout.board.fit_area)
    layout.news = ""  # its time is up
    yield 0.2
    tags = layout._tags
    assert [tag.label.text for tag in tags] == [screen._tag(seat) for seat in range(6)]
    for tag in tags:
        assert tag.opacity == 1 and not audit.shortened(tag.label), tag.label.text
        assert audit.smallest_size(tag.label) >= theme.min_text() - 0.01, (tag.label.text, tag.label.font_size)
    screen.leave()
    return {}


def test_six_seats_tags_are_legible_on_the_upright_7_inch_panel():
    run_scenario("test_ui_gobbles", "scenario_robot_tags_legible", size=(480, 800))


def scenario_tag_under_its_players_message(app):
    """A message told to a seat may lie over that seat's own tag (where it is best read): the tag is
    then out of sight until the message goes, never half read around it ("No" and "once. Go!"
    peeked out either side of a "Taken!" at five seats on the 7" panel), and back after it."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import common as gc, gobbles
    from ui.table import _crossing

    players = [Player("Player 1"), Player("Player 2"), Player("Robot 3", Level.CASUAL), Player("Player 4"),
               Player("Robot 5", Level.BEGINNER)]
    hands = [[36, 37, 16, 56, 3, 9, 10], [40, 2, 18, 8, 51, 52, 53], [20, 21, 22, 23, 24, 25, 26],
             [27, 28, 29, 30, 31, 32, 33], [34, 35, 38, 39, 41, 42, 43]]
    screen = gobbles.GobblesScreen(app, Gobbles(players, gc.OPENING, hands), clock=ManualClock(), robot_seed=1)
    app.show(screen)
    layout = screen.layout
    yield until(lambda: layout.news != "" and len(layout.boxes) == 5)
    covered = 0
    for seat in range(5):
        _tell_for_good(layout, seat, "Taken! Someone else was quicker to that space.")
        yield
        tag, banner = layout._tags[seat], layout._banners[seat]
        if _crossing(banner, tag):
            covered += 1
            assert tag.opacity == 0, seat
        else:
            assert tag.opacity == 1, seat
        layout.hush(seat)
        assert tag.opacity == 1, seat  # the message gone, the tag is back
    assert covered >= 1  # the state this is about: a message over its own seat's tag
    screen.leave()
    return {}


def test_a_seat_tag_under_its_own_players_message_is_out_of_sight_until_it_goes():
    run_scenario("test_ui_gobbles", "scenario_tag_under_its_players_message", size=(800, 480))


def test_the_how_to_play_script_races_legally():
    from engine.board import Board
    from engine.gobble import rules
    from ui.modes.gobble import common as gc

    board = Board()
    for placement in (*gc.OPENING, *gc.BUILD, gc.RACE[0]):
        assert rules.refusal(board, placement) is None
        board.push(placement)
    assert rules.refusal(board, gc.RACE[1]).rule == "occupied"  # the later finger: taken
    assert board.neighbour_count(gc.GOBBLE.cell) == 3 and rules.refusal(board, gc.GOBBLE) is None


def _prepare_resume(services):
    from engine.gobble.table import GobblesTable, ManualClock
    from engine.modes import save
    from ui.modes.gobble import common as gc

    clock = ManualClock()
    table = GobblesTable(_game([[36, 37, 16, 56, 3], [40, 2, 18, 8, 51], [5, 7, 13, 14, 19]]), clock=clock)
    for seat, placement in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2]), (0, gc.BUILD[3])):
        clock.advance(200)
        table.claim(seat, placement)
    clock.advance(300)
    table.claim(0, gc.GOBBLE)  # at 1100 ms: seat 0 owes a tile until 11100 ms
    services.store.save_current(save(table.game))


def scenario_resume(app):
    """A race journaled with a gift pending comes back where it stood: the clock goes on from the
    recorded time, so the countdown is not reset and the robots plan afresh."""
    from ui.i18n import _
    from ui.modes.gobble import gobbles

    yield 0.2
    assert app.manager.current == "resume"
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert isinstance(screen, gobbles.GobblesScreen) and screen.game.now_ms == 1100
    assert screen.table.now_ms() >= 1100 and screen.table.gift_deadline(0) == 11100
    yield 0.3
    assert 0 in screen.gifts and screen.hands[0].picking
    seconds = screen.gifts[0].clock.values["seconds"]
    assert 8 <= seconds <= 10, seconds
    assert _("{name} · tiles: {count}", name=_("Player {number}", number=1), count=2) in labels(screen.layout)
    assert screen.layout.news == ""  # a race under way is not started again
    screen.leave()
    return {}


scenario_resume.prepare = _prepare_resume


def test_a_journaled_race_resumes_with_its_clock_rebased():
    run_scenario("test_ui_gobbles", "scenario_resume", size=(800, 480))


def scenario_fingers(app):
    """Taken only when another player filled the space during the drag; a space filled before the
    drag is refused by its rule; a release over a hand returns the tile without a word; the view
    never moves under a dragging finger and refits once it lifts."""
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import common as gc, gobbles
    from ui.refusals import RULE_MESSAGES

    game = _game([[36, 37, 16, 56, 3], [40, 2, 18, 8, 51], [5, 7, 13, 14, 19]])
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock(), robot_seed=2)
    app.show(screen)
    for seat, placement in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2]), (0, gc.BUILD[3])):
        screen.table.claim(seat, placement)
    screen.refresh()
    board = screen.layout.board
    yield 0.6
    banner = screen.layout._banners[0]
    taken, occupied = _(RULE_MESSAGES["taken"]), _(RULE_MESSAGES["occupied"])
    events = len(game.events)

    # released over its own hand (another slot) and over the opponent's hand: back, silently
    hand = screen.hands[0]
    for over in (hand.to_window(*hand.slot_centre(3)), screen.hands[1].to_window(*screen.hands[1].center)):
        _touch, start, _end = _grab(screen, 0, gc.RACE[0])
        yield from drag(start, over)
        assert len(game.events) == events and gc.RACE[0].tile in game.hands[0] and gc.RACE[0].tile in hand.tiles
        assert banner.opacity == 0 and not board._hovers and screen.layout.drag_layer.showing == 0

    # a space filled before the drag began: the rule, not "taken"
    opening = gc.OPENING[0]
    _touch, start, _end = _grab(screen, 0, gc.RACE[0])
    yield from drag(start, board.window_cell_centre(opening.cell))
    assert banner.opacity == 1 and banner.label.text == occupied != taken
    assert len(game.events) == events and gc.RACE[0].tile in game.hands[0]

    # seat 1 fills the space while seat 0 drags there: "taken"; the view held still meanwhile
    views = []

    def rival_claims():
        views.append((board.size_px, tuple(board.origin)))
        screen.table.claim(1, gc.RACE[1])
        screen.refresh()

    touch, start, end = _grab(screen, 0, gc.RACE[0])
    touch.touch_down()
    yield
    touch.touch_move(*end)
    yield
    rival_claims()
    assert screen._refit_waiting  # the new tile's refit waits for the finger
    yield 0.6
    views.append((board.size_px, tuple(board.origin)))
    touch.touch_up()
    yield
    assert game.owner(gc.RACE[0].cell) == 1 and gc.RACE[0].tile in game.hands[0]
    assert banner.label.text == taken
    (bx, by), (bw, bh) = banner.bbox
    cx, cy = board.window_cell_centre(gc.RACE[0].cell)
    assert gc.RACE[0].cell in board.highlighted and not (bx <= cx <= bx + bw and by <= cy <= by + bh)  # in sight
    assert views[0] == views[1], views  # the space under the finger never moved
    assert [e.get("result") for e in game.events[events:]] == ["placed"]  # the refused drop claimed nothing
    yield until(lambda: (board.size_px, tuple(board.origin)) != views[0], seconds=5)
    assert (board.size_px, tuple(board.origin)) != views[0]  # refitted once the finger lifted
    screen.leave()
    return {}


def test_taken_only_for_a_race_a_release_over_a_hand_returns_and_the_view_holds_under_a_finger():
    run_scenario("test_ui_gobbles", "scenario_fingers", size=(800, 480))


def scenario_room(app):
    """At 800x480 a robot-only edge is a thin strip and the board keeps tiles at least 45 px across
    the flats while the person plays, however big the board grows."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui import theme
    from ui.hexes import SQRT3
    from ui.modes.gobble import gobbles

    game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.EXPERT)], seed=3)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock(), robot_seed=1)
    app.show(screen)
    yield 0.4
    person, robot = screen.layout.boxes
    assert robot.depth == theme.unit() * gobbles.ROBOT_STRIP < person.depth / 2
    assert screen.hands[0].tile_radius() * SQRT3 >= 45
    board = screen.layout.board
    sizes = []
    while len(game.board) < 40 and game.playing(0):  # the robot's moves, then the person's
        for seat in (1, 0):
            options = game.legal_placements(seat)
            if options and seat not in game.pending and not game.finished:
                screen.table.claim(seat, options[len(options) // 2])
            if seat in game.pending:
                gift = game.suggest_gift(seat)
                screen.table.give(seat, gift.to, gift.tiles)
        screen.refresh()
        if len(game.board) % 8 == 0:
            before = -1.0
            while before != board.size_px:  # the refit has settled
                before = board.size_px
                yield 0.4
            sizes.append(board.size_px * SQRT3)
    assert len(game.board) >= 40 and sizes
    assert min(sizes) >= 45, sizes
    screen.leave()
    return {"sizes": sizes}


def test_a_robot_edge_is_thin_and_board_tiles_stay_big_at_800x480():
    result = run_scenario("test_ui_gobbles", "scenario_room", size=(800, 480))
    assert len(result["sizes"]) >= 3


def scenario_hand_tiles_fingertip_wide(app):
    """A person's hand keeps tiles a fingertip wide (9 mm across the flats) whatever it holds, from
    the whole deal down to its last tile: a hand too long for one row at that size wraps into
    another, even where the second row makes the tiles only a little larger."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui import theme
    from ui.audit import window_extent
    from ui.hexes import SQRT3
    from ui.modes.gobble import gobbles

    game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.EXPERT)], seed=3)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock(), robot_seed=1)
    app.show(screen)
    yield 0.4
    hand, dealt = screen.hands[0], [list(h.tiles) for h in screen.hands]
    across = {}
    for count in range(len(dealt[0]), 0, -1):  # both hands as long, as they are in a close race
        for each, tiles in zip(screen.hands, dealt):
            each.tiles = tiles[:count]
        yield
        yield
        across[count] = hand.tile_radius() * SQRT3 * window_extent(hand)[0] / hand.width
    small = {count: round(px) for count, px in across.items() if px < theme.min_target() - 0.5}
    assert not small, (round(theme.min_target()), small)
    screen.leave()
    return {}


@pytest.mark.parametrize("size", [(720, 1280), (800, 480), (1280, 800)])
def test_a_persons_hand_keeps_fingertip_tiles_however_many_it_holds(size):
    run_scenario("test_ui_gobbles", "scenario_hand_tiles_fingertip_wide", size=size)


def test_the_view_focus_keeps_tiles_big_and_shows_where_people_can_play():
    from ui.hexes import centre
    from ui.modes.gobble.gobbles import focus

    cells = [(q, r) for q in range(-6, 7) for r in range(-6, 7) if abs(q + r) <= 6]  # a board 13 cells across
    spaces = [(7, -3), (-7, 3), (0, 7)]
    wanted = [(7, -3)]
    shown = focus(cells, spaces, wanted, (700, 300), 26.0)
    assert (7, -3) in shown and (-7, 3) not in shown
    xs = [centre(c, 1.0)[0] for c in shown]
    ys = [centre(c, 1.0)[1] for c in shown]
    assert (max(xs) - min(xs) + 3 ** 0.5 * 3) * 26 <= 700 and (max(ys) - min(ys) + 5) * 26 <= 300
    small = [(0, 0), (1, -1), (0, 1)]
    assert focus(small, [(1, 0)], [(1, 0)], (700, 300), 26.0) == small  # all of it fits: all of it


def test_the_ending_names_who_it_is_about():
    from engine.gobble.gobbles import Gobbles
    from ui.modes.gobble import common as gc, gobbles

    game = Gobbles(["Player 1", "Player 2"], gc.OPENING, [[36], [40]])
    game.claim(0, gc.BUILD[0], 10)
    assert str(game.ending) == "last-player"
    assert gobbles.ending_line(game) == "Only Player 2 still holds tiles."
    stop = Gobbles(["Player 1", "Player 2", "Player 3"], gc.OPENING, [[36], [40], [2]], play_on=False)
    stop.claim(0, gc.BUILD[0], 10)
    assert gobbles.ending_line(stop) == "Player 1 placed all their tiles first: the game stops."


def _box_rect(layout, box):
    import math

    across = abs(math.sin(math.radians(box.angle))) > 0.5
    w, h = (box.depth, box.length) if across else (box.length, box.depth)
    return (layout.x + box.cx - w / 2, layout.y + box.cy - h / 2, w, h)


def _race_past_the_table(app, leave_forced=False):
    """A person and an expert robot racing (seed 3), played by the table until the board outgrows
    the 800x480 table (``leave_forced``: with forced spaces left open, none filled while another
    space takes the tile)."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import gobbles

    game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.EXPERT)], seed=3)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock(), robot_seed=1)
    app.show(screen)
    for _ in range(60):
        if (len(game.board) >= 36 and (not leave_forced or game.board.forced_spaces())) or game.finished:
            break
        for seat in (1, 0):
            options = game.legal_placements(seat)
            if leave_forced:
                options = [p for p in options if not game.board.is_forced(p.cell)] or options
            if options and seat not in game.pending:
                screen.table.claim(seat, options[len(options) // 2])
            if seat in game.pending:
                gift = game.suggest_gift(seat)
                screen.table.give(seat, gift.to, gift.tiles)
    screen.refresh()
    return game, screen


def scenario_controls(app):
    """The zoom buttons and the overview map: they cover no hand, zoom, look where the map is
    tapped, and do nothing (nor does a pan) while someone drags a tile: the space under that
    finger never moves."""
    from ui import theme

    game, screen = _race_past_the_table(app)
    board, controls = screen.layout.board, screen.view_controls
    yield until(lambda: controls.map.opacity == 1)
    assert controls.map.opacity == 1 and controls.overflowing()
    for box in screen.layout.boxes:  # over no hand
        assert not _overlap((controls.pos, controls.size), _box_rect(screen.layout, box))
    yield 0.5
    size = board.size_px
    yield from tap(controls.zoom_in)
    assert board.size_px > size * 1.2
    yield from tap(controls.zoom_out)
    yield from tap(controls.zoom_out)
    assert board.size_px >= theme.min_tile_radius() - 0.01  # never below 9 mm while a person plays
    origin = tuple(board.origin)
    yield from tap((controls.map.x + 4, controls.map.y + 4))  # a corner of the map: look there
    yield 0.5
    assert tuple(board.origin) != origin
    # a finger drags a tile over the board: + and a pan by another finger change nothing
    hand = screen.hands[0]
    finger = touch_at(*hand.to_window(*hand.slot_centre(0)))
    finger.touch_down()
    yield
    middle = board.to_window(*board.center)
    finger.touch_move(*middle)
    yield
    assert board.held
    view = (board.size_px, tuple(board.origin))
    yield from tap(controls.zoom_in)
    fx, fy, fw, fh = board.fit_area
    yield from drag((fx + fw * 0.3, fy + fh * 0.5), (fx + fw * 0.6, fy + fh * 0.4))
    assert (board.size_px, tuple(board.origin)) == view
    finger.touch_up()
    yield
    assert not board.held
    yield from tap(controls.zoom_in)  # the finger lifted: + works again
    assert board.size_px > view[0]
    screen.leave()
    return {}


def test_zoom_buttons_and_map_and_nothing_moves_under_a_dragging_finger():
    run_scenario("test_ui_gobbles", "scenario_controls", size=(800, 480))


def scenario_forced_spaces_out_of_sight(app):
    """A race whose board outgrows the table, a player zoomed in: the overview map rings every
    forced space (orange on the board), a cue at the table's edge stands for each one not wholly
    on the free table and for no other, and a tap on a cue brings one of its spaces whole onto
    the table (the strategy game's cues and rings, from the same controls)."""
    import math


    game, screen = _race_past_the_table(app, leave_forced=True)
    board, controls, layout = screen.layout.board, screen.view_controls, screen.layout
    spaces = [space.cell for space in game.board.forced_spaces()]
    assert spaces and not game.finished

    def hidden():
        fx, fy, fw, fh = board.fit_area
        covers = [_box_rect(layout, box) for box in layout.boxes]
        covers += [(*w.pos, *w.size) for w in (controls, screen.leave_button)]
        out = []
        for cell in spaces:
            x, y, size = board.settled_cell(cell)
            half_w, half_h = size * math.sqrt(3) / 2 * 0.97, size * 0.97
            whole = fx - 1 <= x - half_w and x + half_w <= fx + fw + 1 and fy - 1 <= y - half_h and y + half_h <= fy + fh + 1
            if not whole or any(_overlap(((x - half_w, y - half_h), (2 * half_w, 2 * half_h)), c) for c in covers):
                out.append(cell)
        return sorted(out)

    def cued():
        return sorted(cell for cue in controls.cues.cues for cell in cue.cells)

    yield until(lambda: board.fit_area and cued() == hidden(), 10)
    for _ in range(6):  # the player zooms in until a forced space leaves the table
        if hidden():
            break
        yield from tap(controls.zoom_in)
        yield until(lambda: cued() == hidden(), 10)
    out = hidden()
    assert out and cued() == out
    assert sorted(controls.map.forced()) == sorted(spaces) and controls.map.opacity == 1
    wanted = list(controls.cues.cues[0].cells)
    yield from tap(controls.cues.cues[0])
    yield until(lambda: cued() == hidden() and any(cell not in hidden() for cell in wanted), 10)
    screen.leave()
    return {}


def test_forced_spaces_out_of_sight_in_a_race_are_marked_and_a_tap_brings_them_in():
    run_scenario("test_ui_gobbles", "scenario_forced_spaces_out_of_sight", size=(800, 480))


def scenario_cues_clear_of_controls_and_hands(app):
    """The race outgrown the portrait table (the matrix's screen): the forced spaces out of sight
    lie beyond the bottom edge, towards the corner where Leave is. The cue to them lies whole on
    the free table, a finger's gap (1.5 mm) clear of Leave, the zoom and map, and every hand: it
    once lay over Leave, and a tap meant for it left the race. The table's news lies under none
    of the controls, nor under a cue (it ran under one at the bottom seat at 1280x800)."""
    from ui import theme
    import ui_matrix

    ui_matrix._gobbles_forced_out_of_sight(app)
    screen = app.manager.current_screen
    layout, controls = screen.layout, screen.view_controls
    yield until(lambda: layout.board.fit_area and controls.cues.cues, 10)
    yield 0.5  # the view settled
    gap = theme.min_gap() - 1
    fx, fy, fw, fh = layout.board.fit_area
    things = {"Leave": (*screen.leave_button.pos, *screen.leave_button.size),
              "zoom": (*controls.row.to_window(*controls.row.pos), *controls.row.size)}
    things |= {f"hand {seat}": _box_rect(layout, box) for seat, box in enumerate(layout.boxes)}
    cues = []
    for cue in controls.cues.cues:
        (x, y), (w, h) = cue.to_window(*cue.pos), cue.size
        cues.append((x, y, w, h))
        assert fx - 1 <= x and x + w <= fx + fw + 1 and fy - 1 <= y and y + h <= fy + fh + 1, ((x, y, w, h), (fx, fy, fw, fh))
        for name, (ax, ay, aw, ah) in things.items():
            assert _overlap(((x - gap, y - gap), (w + 2 * gap, h + 2 * gap)), (ax, ay, aw, ah)) is False, (name, (x, y, w, h))
    assert cues
    # the race's news at every seat ("No turns...", wider than a seat's tag) lies under none of
    # them: the map once hid its end at the top seat
    from ui.i18n import _
    from ui.modes.gobble.gobbles import START_NEWS

    layout.announce(lambda: _(START_NEWS))
    yield
    panel = (*controls.to_window(*controls.pos), *controls.size)
    told = 0
    for seat, tag in enumerate(layout._tags[:len(layout.boxes)]):
        if tag.opacity and tag.label.text == _(START_NEWS):
            told += 1
            for name, rect in (("Leave", things["Leave"]), ("zoom and map", panel), *(("cue", cue) for cue in cues)):
                assert not _overlap(tag.bbox, rect), (seat, name, tag.bbox, rect)
    assert told == len(layout.boxes) - len(layout.robots)  # every person's seat
    screen.leave()
    return {}


@pytest.mark.parametrize("size, rotation", [((720, 1280), 0), ((800, 480), 90), ((1280, 800), 0)],
                         ids=["720x1280", "800x480-r90", "1280x800"])
def test_a_cue_to_forced_spaces_out_of_sight_lies_clear_of_leave_and_the_hands(size, rotation):
    run_scenario("test_ui_gobbles", "scenario_cues_clear_of_controls_and_hands", size=size, rotation=rotation)


def scenario_cues_follow_the_zoom_where_it_moves(app):
    """The zoom and map moved onto a cue (as the free table changes and a new spot is chosen for
    them) and the cues told at once: each cue keeps a finger's gap from the zoom's and the map's
    new place. They kept clear of where the zoom had been: its buttons were not yet laid out at
    the new spot, and a cue lay over the - (3 people at 800x480, a forced space out of sight)."""
    from ui import audit, theme
    from ui.table import crowds
    import ui_matrix

    ui_matrix._gobbles_forced_out_of_sight(app)
    screen = app.manager.current_screen
    controls = screen.view_controls
    yield until(lambda: screen.layout.board.fit_area and controls.cues.cues, 10)
    yield 0.5  # the view settled
    cue = controls.cues.cues[0]
    controls.pos = cue.to_window(*cue.pos)  # what place_controls does: a new spot, then refresh
    controls.refresh()
    audit.settle(screen)  # the frame drawn next: the zoom's buttons where the zoom now lies
    parts = [(*part.to_window(*part.pos), *part.size) for part in (controls.row, controls.map)]
    for cue in controls.cues.cues:
        box = (*cue.to_window(*cue.pos), *cue.size)
        assert not any(crowds(box, part) for part in parts), (box, parts, theme.min_gap())
    screen.leave()
    return {}


def test_the_cues_keep_clear_of_the_zoom_where_it_has_just_moved():
    run_scenario("test_ui_gobbles", "scenario_cues_follow_the_zoom_where_it_moves", size=(720, 1280))


def _five_seats_one_gobble_away(app):
    """Five seats (two robots) with Player 1 one tile from a gobble: the game and its screen, shown."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import common as gc, gobbles

    players = [Player("Player 1"), Player("Player 2"), Player("Robot 3", Level.CASUAL), Player("Player 4"),
               Player("Robot 5", Level.BEGINNER)]
    hands = [[36, 37, 16, 56, 3, 9, 10], [40, 2, 18, 8, 51, 52, 53], [20, 21, 22, 23, 24, 25, 26],
             [27, 28, 29, 30, 31, 32, 33], [34, 35, 38, 39, 41, 42, 43]]
    game = Gobbles(players, gc.OPENING, hands)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock(), robot_seed=1)
    app.show(screen)
    for seat, p in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2]), (0, gc.BUILD[3]), (0, gc.RACE[0])):
        screen.table.claim(seat, p)
    screen.refresh()
    return game, screen


def _people_race(app, people, seed, orientation, check, moves=200):
    """A race of ``people`` people (seed ``seed``) on the table turned to ``orientation``, each
    placement made as a finger's drop ends, the people in turn, every gobble taken where one is on
    offer (a seeded choice), the gifts given as their cards suggest: ``check(screen, move)`` after
    each placement's frame, before the gifts are given, for at most ``moves`` placements. What
    bench/ui_controls_gap.py plays."""
    import random

    from engine.gobble import rules
    from engine.gobble.gobbles import Gobbles, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import gobbles

    app.services.settings.orientation = orientation
    game = Gobbles.deal([Player(f"Player {i + 1}") for i in range(people)], seed=seed)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    yield 0.4
    rng = random.Random(seed)
    for move in range(1, moves + 1):
        seats = [s for s in range(people) if game.playing(s) and s not in game.pending and game.legal_placements(s)]
        if not seats or game.finished:
            break
        seat = seats[move % len(seats)]
        options = game.legal_placements(seat)
        choice = rng.choice([p for p in options if rules.gobble_of(game.board, p.cell)] or options)
        screen.hands[seat].target.place(choice)
        screen.hands[seat].dispatch("on_played", choice)
        yield 0
        check(screen, move)
        for card in list(screen.gifts.values()):
            card.give()
    screen.leave()


def scenario_cue_beside_the_gift_card(app):
    """Two people on the upright 800x480 panel, where the gift card lies on the free table, racing
    until a gift card is up while a forced space is out of sight: the cue to it keeps a finger's
    gap from the card (it lay on the card, 2 px from a recipient's chip: a finger meant for the chip
    brought the view there instead)."""
    from ui.table import crowds

    checked = []

    def check(screen, move):
        for card in screen.gifts.values():
            for cue in screen.view_controls.cues.cues:
                checked.append(move)
                box = (*cue.to_window(*cue.pos), *cue.size)
                assert not crowds(box, (*card.bbox[0], *card.bbox[1])), (move, box, card.bbox)

    yield from _people_race(app, 2, 1, "upright", check)
    assert checked
    return {}


def test_a_cue_keeps_clear_of_the_gift_card():
    run_scenario("test_ui_gobbles", "scenario_cue_beside_the_gift_card", size=(800, 480))


def _controls_over(screen, rects):
    """Which of the zoom, the map (while shown) and Leave lie over one of ``rects`` (x, y, w, h)."""
    from ui.table import overlaps

    controls = {"zoom": screen.view_controls.row, "map": screen.view_controls.map, "Leave": screen.leave_button}
    return [name for name, widget in controls.items() if widget.opacity > 0
            and any(overlaps((*widget.to_window(*widget.pos), *widget.size), rect) for rect in rects)]


def scenario_controls_clear_of_the_tags(app):
    """Two people at 800x480: where the zoom moves as the free table changes, no seat's tag lies
    under it. The tags were laid before the zoom moved, around where it had been, and stayed
    there: Player 2's tag lay under the zoom (move 9)."""
    def check(screen, move):
        tags = [(*tag.bbox[0], *tag.bbox[1]) for tag in screen.layout._tags if tag.opacity > 0]
        assert _controls_over(screen, tags) == [], move

    yield from _people_race(app, 2, 1, "flat", check, moves=16)
    return {}


def test_the_zoom_and_leave_lie_over_no_seat_tag_as_they_move():
    run_scenario("test_ui_gobbles", "scenario_controls_clear_of_the_tags", size=(800, 480))


def scenario_gift_at_a_small_table(app):
    """At 800x480 with five seats the gift card lies at the gobbler's edge in a band the board
    leaves free: it covers no hand, no seat's name tag and no board space, the board keeps its
    9 mm tiles in what is left, and the band returns to the board once the gift is given by touch."""
    from ui import theme
    from ui.modes.gobble import common as gc

    game, screen = _five_seats_one_gobble_away(app)
    yield 0.4
    board = screen.layout.board
    before = list(board.fit_area)
    yield from _one_finger(screen, 0, gc.GOBBLE)
    assert 0 in screen.gifts
    card = screen.gifts[0]
    yield 0.6
    assert not _overlap(card.bbox, board.fit_area)
    assert board.fit_area[3] < before[3] and board.fit_area[1] > before[1]  # the band is cut from the bottom
    for box in screen.layout.boxes:
        assert not _overlap(card.bbox, _box_rect(screen.layout, box)), box
    for tag in screen.layout._tags:  # every seat's name tag stays in sight (the side robots' too)
        assert tag.opacity == 0 or not _overlap(card.bbox, (*tag.bbox[0], *tag.bbox[1])), tag.label.text
    assert board.size_px >= theme.min_tile_radius() - 0.01
    # the card's own controls are fingertip-sized
    assert card.give_button.height >= theme.min_target() - 0.5
    assert all(chip.height >= theme.min_target() - 0.5 for chip in card.recipients.chips)
    # a message to Player 2 (same edge) is shown beyond the card, not under it
    screen.layout.tell(1, lambda: "hello")
    banner = screen.layout._banners[1]
    assert not _overlap(banner.bbox, (*card.bbox[0], *card.bbox[1]))
    yield from tap(card.recipients.chip(3))
    yield from tap(card.give_button)
    assert 0 not in game.pending and card.parent is None and screen.layout.reserved == {}
    assert list(board.fit_area) == before
    screen.leave()
    return {}


def test_the_gift_card_covers_no_board_and_no_hand_at_a_small_table():
    run_scenario("test_ui_gobbles", "scenario_gift_at_a_small_table", size=(800, 480))


def scenario_board_beside_the_gift_card(app):
    """At 800x480 with five seats, while Player 1 chooses a gift the board stays in sight to choose
    by: the hands at the card's edge shrink to fingertip tiles in one row, so the free table keeps
    four rows of fingertip tiles, and two between the name tags over it (it was a strip a tile and
    a half high: the card had taken what the hands did not need)."""
    from ui import theme
    from ui.audit import window_extent
    from ui.modes.gobble import common as gc

    game, screen = _five_seats_one_gobble_away(app)
    yield 0.4
    layout, board = screen.layout, screen.layout.board
    yield from _one_finger(screen, 0, gc.GOBBLE)
    yield until(lambda: 0 in screen.gifts)
    yield 0.6
    card = screen.gifts[0]
    r = theme.min_tile_radius()
    assert board.fit_area[3] >= 6.5 * r, board.fit_area  # four rows of pointy-top hexagons
    tags = layout._tags  # one a seat
    beyond = max(tags[seat].bbox[0][1] + tags[seat].bbox[1][1] for seat in (0, 1))  # raised above the card
    under = tags[3].bbox[0][1]  # the top hand's, across from them
    assert beyond > card.bbox[0][1] + card.bbox[1][1]
    assert under - beyond >= 2 * theme.min_target(), (beyond, under)
    for seat in (0, 1):  # the people at the card's edge keep fingertip tiles
        hand = screen.hands[seat]
        assert hand.tile_radius() * window_extent(hand)[0] / hand.width >= r - 0.01, seat
    yield from tap(card.give_button)
    assert 0 not in game.pending and layout.boxes[0].depth > 2 * r * 1.5  # the hands have their room back
    screen.leave()
    return {}


def test_the_board_stays_in_sight_beside_the_gift_card_at_800x480():
    run_scenario("test_ui_gobbles", "scenario_board_beside_the_gift_card", size=(800, 480))


def scenario_tags_clear_of_each_other_beside_the_gift_card(app):
    """On the portrait panel, with five seats, Player 1's tag, raised above the gift card, once lay
    over Player 2's at the corner of the table: each now lies clear of the others."""
    from ui.modes.gobble import common as gc
    from ui.table import overlaps

    game, screen = _five_seats_one_gobble_away(app)
    yield 0.4
    yield from _one_finger(screen, 0, gc.GOBBLE)
    yield until(lambda: 0 in screen.gifts)
    yield 0.6
    rects = [(*tag.bbox[0], *tag.bbox[1]) for tag in screen.layout._tags if tag.opacity]
    assert len(rects) == 5
    crossing = [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if overlaps(a, b)]
    assert not crossing, crossing
    screen.leave()
    return {}


def test_the_seat_tags_lie_clear_of_each_other_beside_the_gift_card_upright():
    run_scenario("test_ui_gobbles", "scenario_tags_clear_of_each_other_beside_the_gift_card", size=(720, 1280))


def scenario_controls_beside_the_gift_card(app):
    """Five seats, Player 2 told "Taken!", then Player 1 gobbles: with the gift card up, the zoom
    buttons and Leave cover no seat's name tag, no hand and not the card (the zoom buttons once
    moved down onto Player 2's tag, hiding whose hand that was)."""
    from ui.modes.gobble import common as gc

    game, screen = _five_seats_one_gobble_away(app)
    yield 0.4
    layout, board = screen.layout, screen.layout.board
    refusal = board.drop(board.window_cell_centre(gc.RACE[1].cell), gc.RACE[1].tile, gc.RACE[1].rot,
                         screen.hands[1], screen.hands[1].target)
    screen.hands[1].dispatch("on_refused", refusal)
    yield from _one_finger(screen, 0, gc.GOBBLE)
    yield until(lambda: 0 in screen.gifts)
    yield 0.6
    card = screen.gifts[0]
    covered = []
    for name, control in (("zoom", screen.view_controls), ("leave", screen.leave_button)):
        area = (*control.pos, *control.size)
        covered += [(name, tag.label.text) for tag in layout._tags if tag.opacity and _overlap(tag.bbox, area)]
        covered += [(name, f"hand {seat}") for seat, box in enumerate(layout.boxes)
                    if _overlap(((area[0], area[1]), (area[2], area[3])), _box_rect(layout, box))]
        covered += [(name, "gift card")] if _overlap(card.bbox, area) else []
    assert covered == [], covered
    screen.leave()
    return {}


def test_the_zoom_buttons_cover_no_name_tag_beside_the_gift_card_at_800x480():
    run_scenario("test_ui_gobbles", "scenario_controls_beside_the_gift_card", size=(800, 480))


def test_the_zoom_buttons_cover_no_name_tag_beside_the_gift_card_at_1280x800():
    run_scenario("test_ui_gobbles", "scenario_controls_beside_the_gift_card", size=(1280, 800))


def scenario_portrait_strips(app):
    """On the portrait panel, with people and robots sharing the long edges, every robot's hand is
    a thin one-row strip at the very edge; an edge of robots only gives its room to the board."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui import theme
    from ui.modes.gobble import gobbles

    people = [Player(f"Player {i + 1}") if i % 2 == 0 else Player(f"Robot {i + 1}", Level.EXPERT) for i in range(6)]
    screen = gobbles.GobblesScreen(app, Gobbles.deal(people, seed=3), clock=ManualClock())
    app.show(screen)
    yield 0.4
    layout = screen.layout
    thin = theme.unit() * gobbles.ROBOT_STRIP
    edges = {}
    for seat, box in enumerate(layout.boxes):
        edges.setdefault(box.angle, []).append(seat)
    assert any(len({s % 2 for s in seats}) == 2 for seats in edges.values())  # a shared edge
    for seat, box in enumerate(layout.boxes):
        if seat % 2:  # a robot: thin, one row, against the screen's edge
            assert box.depth == thin and screen.hands[seat].max_rows == 1
            rect = _box_rect(layout, box)
            assert min(rect[0], rect[1], layout.width - rect[0] - rect[2], layout.height - rect[1] - rect[3]) < 1
        else:
            assert box.depth > 2 * thin
    fx, fy, fw, fh = layout.board.fit_area
    top = edges[gobbles.TOP]
    assert all(s % 2 for s in top) and fy + fh >= layout.height - thin - 1  # robots only: the board reaches them
    screen.leave()
    return {}


def test_robot_hands_are_thin_strips_on_a_portrait_panel():
    run_scenario("test_ui_gobbles", "scenario_portrait_strips", size=(720, 1280))


def _gobbled(app):
    """Two people and a robot on a manual clock, journaled and shown; seat 0 has just gobbled (its
    gift card is open). Yields the frames it takes; returns (game, clock, screen)."""
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import common as gc, gobbles

    game = _game([[36, 37, 16, 56, 3], [40, 2, 18, 8, 51], [5, 7, 13, 14, 19]])
    clock = ManualClock()
    screen = gobbles.GobblesScreen(app, game, clock=clock, robot_seed=2)
    app.journal(game)
    app.show(screen)
    for seat, placement in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2]), (0, gc.BUILD[3])):
        screen.table.claim(seat, placement)
    screen.refresh()
    yield 0.3
    yield from _one_finger(screen, 0, gc.GOBBLE)
    return game, clock, screen


def scenario_left_table(app):
    """The race waits while the table is hidden (the staff PIN pad, then Cancel): no robot plays
    and the gift countdown stands still. A tile still being dragged when another player confirms
    Leave does not bring the abandoned race back into the journal."""
    from ui.i18n import _
    from ui.modes.gobble import common as gc
    from ui.widgets import Confirm

    game, clock, screen = yield from _gobbled(app)
    assert 0 in game.pending
    events = len(game.events)
    app.open_staff()
    yield until(lambda: app.manager.current == "staff-pin")
    clock.advance(60_000)  # a minute at the staff menu
    yield 0.3
    yield from tap(next(w for w in app.pin.walk() if getattr(w, "msg", "") == "Cancel"))
    yield until(lambda: app.manager.current == "gobbles")
    yield 0.3
    assert len(game.events) == events and 0 in game.pending  # nothing happened while nobody could see
    assert screen.gifts[0].clock.text == _("{seconds} s", seconds=10)
    # seat 1 is dragging when seat 0 confirms Leave; seat 1's tile lands after that
    touch, start, end = _grab(screen, 1, gc.RACE[1])
    touch.touch_down()
    yield
    touch.touch_move(*end)
    yield
    yield from tap(screen.leave_button)
    confirm = next(w for w in screen.overlay.children if isinstance(w, Confirm))
    yield from tap(next(w for w in confirm.walk() if getattr(w, "msg", "") == "Leave"))
    yield until(lambda: app.manager.current == "home")
    touch.touch_up()
    yield 0.3
    assert app.services.store.load_current() is None  # no resume card for an abandoned race
    assert app.services.store.records("gobbles") == []
    return {}


def test_the_race_waits_at_the_staff_menu_and_a_late_drop_does_not_revive_a_left_race():
    run_scenario("test_ui_gobbles", "scenario_left_table", size=(800, 480))


def scenario_gift_time_up(app):
    """The gobbler picks a tile and a recipient on the card but does not tap Give: when the time is
    up, what the card showed chosen is given (not the table's own pick)."""
    game, clock, screen = yield from _gobbled(app)
    card, hand = screen.gifts[0], screen.hands[0]
    suggestion = game.suggest_gift(0)
    for tile in list(hand.picked):
        yield from tap(hand.to_window(*hand.slot_centre(hand.tiles.index(tile))))
    mine = next(t for t in hand.tiles if t not in suggestion.tiles)
    yield from tap(hand.to_window(*hand.slot_centre(hand.tiles.index(mine))))
    yield from tap(card.recipients.chip(2))
    assert hand.picked == [mine] and card.recipients.value == 2
    clock.advance(10_500)
    yield until(lambda: 0 not in game.pending)
    gift = next(e for e in game.events if "gift" in e and e["player"] == 0)
    assert gift["gift"] == {"to": 2, "tiles": [mine]} and gift["auto"]
    assert card.parent is None and not hand.picking
    screen.leave()
    return {}


def test_when_the_gift_time_is_up_the_cards_choice_is_given():
    run_scenario("test_ui_gobbles", "scenario_gift_time_up", size=(800, 480))


def _tell_for_good(layout, seat, text):
    """Tell ``seat`` ``text`` and keep it up until the scenario has looked: a message goes after
    5.5 s, which the frames of a machine as slow as QEMU's arm64 emulation outlast."""
    layout.tell(seat, lambda: text)
    layout._banners[seat]._hide.cancel()


def scenario_gift_card_and_messages(app):
    """Five and six seats (people only, and people with robots): each person gobbles in turn while
    every other person has a message up ("Taken!", shown before the card came; the card once hid
    it at 5 players on the 7" panel), and one of them is then told something more: the gift card
    covers no player's message, and each message lies whole on the screen, over no other hand."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import common as gc, gobbles
    from ui.refusals import RULE_MESSAGES

    taken, later = _(RULE_MESSAGES["taken"]), _(RULE_MESSAGES["two-neighbours"])
    gobble = [*(p.tile for p in gc.BUILD), gc.GOBBLE.tile]  # what the gobbler plays
    spare = [t for t in range(1, 57) if t not in gobble and t not in (p.tile for p in gc.OPENING)]
    width, height = app.root.size
    checked = 0
    for robots in ((), (2, 4), (1, 3, 5)):
        for count in (5, 6):
            players = [Player(f"Robot {i + 1}", Level.BEGINNER) if i in robots else Player(f"Player {i + 1}")
                       for i in range(count)]
            people = [seat for seat in range(count) if seat not in robots]
            for gobbler in people:
                deal = iter(spare)
                hands = [[*gobble, next(deal), next(deal)] if seat == gobbler else [next(deal) for _ in range(7)]
                         for seat in range(count)]
                screen = gobbles.GobblesScreen(app, Gobbles(players, gc.OPENING, hands), clock=ManualClock(),
                                               robot_seed=1)
                app.show(screen)
                layout = screen.layout
                yield until(lambda: len(layout.boxes) == count and layout.board.fit_area)
                for placement in gc.BUILD:
                    screen.table.claim(gobbler, placement)
                screen.refresh()
                yield
                told = [seat for seat in people if seat != gobbler]
                for seat in told:
                    _tell_for_good(layout, seat, taken)
                screen.table.claim(gobbler, gc.GOBBLE)
                screen.refresh()
                yield until(lambda: gobbler in screen.gifts)
                card = screen.gifts[gobbler]
                _tell_for_good(layout, told[-1], later)
                yield
                for seat in told:
                    banner, where = layout._banners[seat], (count, robots, gobbler, seat)
                    assert banner.opacity == 1, where
                    assert not _overlap(banner.bbox, (*card.bbox[0], *card.bbox[1])), where
                    (x, y), (w, h) = banner.bbox
                    assert x >= -1 and y >= -1 and x + w <= width + 1 and y + h <= height + 1, where
                    for other, box in enumerate(layout.boxes):  # nor over another player's tiles
                        assert other == seat or not _overlap(banner.bbox, _box_rect(layout, box)), (where, other)
                    checked += 1
                screen.leave()
    return checked


GIFT_TABLES = [((800, 480), "en"), ((720, 1280), "pl"), ((1280, 800), "pl")]
"""The panels (and languages) of the gift card's check: the two 7" panels, the tightest, and a
larger one, Polish's longer words on two; ``FIT_FULL=1`` adds every other panel."""
if FULL:
    GIFT_TABLES += [((1024, 600), "en"), ((1280, 800), "en"), ((1920, 1080), "en"), ((720, 1280), "en")]


@pytest.mark.parametrize("size,language", GIFT_TABLES)
def test_the_gift_card_covers_no_players_message(size, language):
    assert run_scenario("test_ui_gobbles", "scenario_gift_card_and_messages", size=size, timeout=300,
                        settings={"language": language}) == 80


def scenario_messages_at_once(app):
    """Two players told something at the same moment (a race lost and a gobble's tiles received),
    for every ordered pair of seats at tables of 3, 4 and 6 people: which pairs' messages overlap,
    and on which edge each seat sits. Players side by side once had theirs one on the other: each
    was placed as if it were alone; then, at six people, a side seat and its corner neighbour.
    And the table's news at every seat ("No turns..."): which seats' overlap (at six people on the
    7" panel a side seat's ran into its corner neighbours' news)."""
    import itertools

    from engine.gobble.gobbles import Gobbles, Player
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import gobbles
    from ui.table import overlaps

    said = ["This space is already taken: another player got there first.",
            "Player 3 gobbled: you get 2 tiles, ringed in white."]
    tables = {}
    for people in (3, 4, 6):
        game = Gobbles.deal([Player(f"Player {n + 1}") for n in range(people)], seed=4)
        screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
        app.show(screen)
        layout = screen.layout
        yield until(lambda: len(layout.boxes) == people and layout.board.fit_area)
        yield 0.3
        banners = layout._banners
        overlapping = []
        for first, second in itertools.permutations(range(people), 2):
            for seat in range(people):
                layout.hush(seat)
            layout.tell(first, lambda: said[0])
            layout.tell(second, lambda: said[1], good=True)
            assert banners[first].opacity == 1 and banners[second].opacity == 1
            (x, y), (w, h) = banners[first].bbox
            (x2, y2), (w2, h2) = banners[second].bbox
            if overlaps((x, y, w, h), (x2, y2, w2, h2)):
                overlapping.append([first, second])
        for seat in range(people):
            layout.hush(seat)
        layout.announce(lambda: _(gobbles.START_NEWS))
        yield
        news = [(*tag.bbox[0], *tag.bbox[1]) for tag in layout._tags[:people]]
        assert all(tag.opacity == 1 and tag.label.text == _(gobbles.START_NEWS) for tag in layout._tags[:people])
        tables[people] = {"edges": [box.angle for box in layout.boxes], "overlapping": overlapping,
                          "news overlapping": [[a, b] for a, b in itertools.combinations(range(people), 2)
                                               if overlaps(news[a], news[b])]}
        screen.leave()
        yield 0.2
    return tables


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (720, 1280)])
def test_two_players_told_something_at_once_can_both_read_it(size):
    tables = run_scenario("test_ui_gobbles", "scenario_messages_at_once", size=size, timeout=120)
    for people, table in tables.items():
        # any two, at six people too: a side seat and its neighbour round the corner once had theirs
        # one over the other (the one told first kept the whole edge; now it gives way)
        assert table["overlapping"] == [] and table["news overlapping"] == [], (people, table)


def scenario_a_gift_card_on_a_short_edge(app):
    """Five players on the 7" portrait panel: the gobbler's card lies along a short edge of the
    table. Its question and how to answer it are read at their size, wrapped to more lines, not
    shrunk under the legible size (the question was 14.5 px where 19.7 px is 2.5 mm)."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui import theme
    from ui.audit import audit
    from ui.modes.gobble import common as gc, gobbles

    players = [Player("Player 1"), Player("Player 2"), Player("Robot 3", Level.CASUAL), Player("Player 4"),
               Player("Robot 5", Level.BEGINNER)]
    hands = [[36, 37, 16, 56, 3, 9, 10], [40, 2, 18, 8, 51, 52, 53], [20, 21, 22, 23, 24, 25, 26],
             [27, 28, 29, 30, 31, 32, 33], [34, 35, 38, 39, 41, 42, 43]]
    clock = ManualClock()
    screen = gobbles.GobblesScreen(app, Gobbles(players, gc.OPENING, hands), clock=clock, robot_seed=1)
    app.show(screen)
    yield 0.3
    for seat, p in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2]), (0, gc.BUILD[3]), (0, gc.RACE[0]),
                    (0, gc.GOBBLE)):
        screen.table.claim(seat, p)
    screen.refresh()
    yield until(lambda: 0 in screen.gifts)
    yield 0.2
    card = screen.gifts[0]
    return {"short": card.length < theme.unit() * 6,
            "problems": [str(p) for p in audit(card, (720, 1280), theme.min_target((720, 1280)))]}


def test_a_gift_card_on_a_short_edge_wraps_its_words_at_a_legible_size():
    found = run_scenario("test_ui_gobbles", "scenario_a_gift_card_on_a_short_edge", size=(720, 1280),
                         settings={"idle_seconds": 1e6})
    assert found == {"short": True, "problems": []}


def scenario_messages_clear_once_the_card_goes(app):
    """Six people at 800x480 (seed 1): a gift card up at the left seat takes half the table, and
    the messages to a bottom seat and to the right seat crowd into what is left, one over the
    other. Once the gift is given the card goes and the messages are laid again, but the card
    still counted as they were (it left the table's controls after its band): the bottom seat's
    stayed at the end of its edge, under the right seat's (as long as that short edge: it has
    nowhere else to go). Checked after each placement: no two messages over each other."""
    from ui.table import overlaps

    overlapping = []

    def check(screen, move):
        shown = [(*b.bbox[0], *b.bbox[1]) for b in screen.layout._banners if b.opacity > 0]
        overlapping.extend((move, a, b) for i, a in enumerate(shown) for b in shown[i + 1:] if overlaps(a, b))

    yield from _people_race(app, 6, 1, "flat", check, moves=10)
    return overlapping


def test_a_message_laid_round_a_gift_card_moves_back_once_it_goes():
    assert run_scenario("test_ui_gobbles", "scenario_messages_clear_once_the_card_goes", size=(800, 480)) == []


def scenario_controls_clear_of_the_gift_card(app):
    """Six people on the turned 480x800 panel (seed 1), where the gift card lies on the free table:
    at the 12th placement Player 1's card came up under the zoom's - and +, over the chip of
    Player 2, the one suggested (the controls were placed as the card's band was kept, before the
    card itself was placed, and not again): a finger meant for the chip zoomed the board. Whenever
    a card is up, Leave, the zoom and the map lie over none of it."""
    cards = []

    def check(screen, move):
        for card in screen.gifts.values():
            cards.append(move)
            assert _controls_over(screen, [(*card.bbox[0], *card.bbox[1])]) == [], move

    yield from _people_race(app, 6, 1, "upright", check, moves=12)
    assert cards
    return {}


def test_leave_and_the_zoom_lie_over_no_gift_card():
    run_scenario("test_ui_gobbles", "scenario_controls_clear_of_the_gift_card", size=(480, 800))


def scenario_cues_clear_of_each_other(app):
    """Five people at 480x800 (seed 1): forced spaces out of sight beyond two edges, from near the
    corner between them: at the 15th placement the two cues lay 3 px apart, one over the other
    (each placed as if it were alone). Checked after each placement: no two cues closer than a
    finger's gap."""
    from ui.table import crowds

    crowded, shown = [], []

    def check(screen, move):
        cues = [(*cue.to_window(*cue.pos), *cue.size) for cue in screen.view_controls.cues.cues]
        shown.append(len(cues))
        crowded.extend(move for i, a in enumerate(cues) for b in cues[i + 1:] if crowds(a, b))

    yield from _people_race(app, 5, 1, "flat", check, moves=15)
    return {"crowded": crowded, "most cues": max(shown)}


def test_the_cues_to_forced_spaces_keep_clear_of_each_other():
    seen = run_scenario("test_ui_gobbles", "scenario_cues_clear_of_each_other", size=(480, 800))
    assert seen == {"crowded": [], "most cues": 2}
