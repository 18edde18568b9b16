"""Touch play in the strategy game that never costs a move, driven by simulated touches: a tile let
go over its own hand (or any hand or plate) goes back silently and nothing is journaled; a
placement is provisional until its player confirms it (it can be turned with a tap, moved to
another space, dragged back into the hand or taken back with the button); only Confirm plays it
(journaled, the turn moves on); a staff setting turns confirmation off."""

from __future__ import annotations

import pytest

from test_ui_tantrix import reach, slot
from ui_harness import drag, labels, run_scenario, tap, until
from engine.strategy.robots import make_robot, robot_move


def _open(app, seed=3, players=2, tiles=6, seats=None):
    """People at every seat once robots have put ``tiles`` down and a free move is to make (by one
    of ``seats``, if given)."""
    from engine.strategy.game import StrategyGame, Step
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(players, "RYGB"[:players], ["beginner"] * players, seed=seed)
    while len(game.board) < tiles or game.step is not Step.FREE or (seats is not None and game.turn not in seats):
        robot_move(game)
    for seat in range(players):
        game.set_robot(seat, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    return game, screen


def _free_move(game):
    """A legal placement of the player to move whose tile may also go on another space."""
    legal = game.legal()
    return next(p for p in legal if len({q.cell for q in legal if q.tile == p.tile}) > 1)


def _put_down(screen, placement):
    """Turn ``placement``'s tile in the hand of the player to move to its rotation and drag it to
    its space."""
    hand = screen.hands[screen.game.turn]
    for _ in range((placement.rot - hand.rotation(placement.tile)) % 6):
        yield from tap(slot(hand, placement.tile))
    yield from drag(slot(hand, placement.tile), reach(hand, screen.board, placement.cell))


def scenario_release_over_hand(app):
    game, screen = _open(app)
    yield
    yield 0.4
    seat = game.turn
    hand = screen.hands[seat]
    tile = hand.tiles[0]
    journal = app.services.store.load_current()
    events = len(game.record()["events"])
    # picked up and let go again over its own slot: back in the hand, nothing played or said
    start = slot(hand, tile)
    up = (start[0], start[1] + hand.tile_radius() * 0.7)  # far enough to lift it, still over the hand
    yield from drag(start, up, before_release=lambda: None)
    assert hand.collide_point(*hand.to_widget(*up))
    assert screen.provisional is None and tile in hand.tiles and tile in game.hands[seat]
    assert len(game.record()["events"]) == events and app.services.store.load_current() == journal
    assert not any(t for t in labels(screen.layout) if "touch" in t.lower())  # no refusal said
    assert not screen.board.highlighted
    # let go over the other player's plate: back as well
    plate = screen.plates[1 - seat]
    yield from drag(start, plate.to_window(*plate.center))
    assert screen.provisional is None and tile in hand.tiles
    assert len(game.record()["events"]) == events
    return {"tile": tile}


def test_a_tile_let_go_over_a_hand_or_plate_goes_back_and_nothing_is_played():
    run_scenario("test_ui_tantrix_touch", "scenario_release_over_hand", size=(800, 480))


def scenario_a_tile_over_another_hand(app):
    """Two people at the 7" panel, a board larger than the table: a finger on the table near the
    far hand, the tile lifted above it over that hand. It is not put on the space under the hand
    (nobody could see it there): it shows over the hand while dragged and goes back when let go;
    once the view shows that space, the same drop puts it there, in sight. The tile, lying there
    to confirm, moved to a space under a hand or plate, stays where it was."""
    import math

    def finger_under(board, cell, lifted, angle):
        """The finger, when the tile drawn ``lifted`` beyond it (away from the player whose hand is
        turned ``angle``) is on ``cell``."""
        x, y = board.window_cell_centre(cell)
        a = math.radians(angle)
        return x + math.sin(a) * lifted, y - math.cos(a) * lifted

    def hidden_within_reach(board, cell, lifted, angle):
        return (not board.on_table(board.window_cell_centre(cell))
                and board.on_table(finger_under(board, cell, lifted, angle)))

    def slide(board, hand, game, move):
        """A shift of the view (as a pan makes) that shows ``move``'s space and hides another space
        of its tile under a hand or plate, a lift from the table; and that space."""
        ox, oy = board.origin
        try:
            for other in (p for p in game.legal() if p.tile == move.tile and p.cell != move.cell):
                for dx, dy in ((dx, dy) for dx in range(-400, 401, 20) for dy in range(-400, 401, 4)):
                    board.origin = (ox + dx, oy + dy)
                    if (board.on_table(board.window_cell_centre(move.cell))
                            and hidden_within_reach(board, other.cell, board.size_px * 1.1, hand.seat_angle)):
                        return (dx, dy), other
        finally:
            board.origin = (ox, oy)
        return None

    for seed in range(3, 40):  # a game where the far hand hides both spaces the steps below need
        game, screen = _open(app, seed=seed, tiles=20)
        yield 0.3
        board, seat = screen.board, game.turn
        hand = screen.hands[seat]
        board.refit()
        yield
        moves = [p for p in game.legal() if hidden_within_reach(board, p.cell, hand.tile_radius() * 1.3, hand.seat_angle)]
        move = next((p for p in moves if slide(board, hand, game, p) is not None), None)
        if move is not None:
            break
    assert move is not None, "no game puts a space of a tile under the far hand"
    for _ in range((move.rot - hand.rotation(move.tile)) % 6):
        yield from tap(slot(hand, move.tile))
    journal, events = app.services.store.load_current(), len(game.record()["events"])
    shown = []
    yield from drag(slot(hand, move.tile), finger_under(board, move.cell, hand.tile_radius() * 1.3, hand.seat_angle),
                    before_release=lambda: shown.append(screen.layout.drag_layer.showing))
    assert shown == [1]  # the tile is seen over the hand, not hidden on a space under it
    assert screen.provisional is None and move.tile in hand.tiles and board.board.at(move.cell) is None
    assert len(game.record()["events"]) == events and app.services.store.load_current() == journal
    # the view brought to that space, as a player pans: the drop puts the tile there, in sight
    yield from drag(slot(hand, move.tile), reach(hand, board, move.cell))
    assert screen.provisional == (seat, move) and board.on_table(board.window_cell_centre(move.cell))
    # the view slid until another space of the tile lies under a hand or plate: moved there, it stays
    board.refit()
    (dx, dy), other = slide(board, hand, game, move)
    board.origin = (board.origin[0] + dx, board.origin[1] + dy)
    yield
    yield from drag(board.window_cell_centre(move.cell), finger_under(board, other.cell, board.size_px * 1.1, hand.seat_angle))
    assert screen.provisional == (seat, move) and board.board.at(other.cell) is None
    assert len(game.record()["events"]) == events
    return {"seed": seed}


def test_a_tile_is_never_put_on_a_space_under_another_hand():
    run_scenario("test_ui_tantrix_touch", "scenario_a_tile_over_another_hand", size=(800, 480))


def scenario_far_seat_moves_its_tile(app):
    """The player across the table (their hand turned to face them) moves the tile they put down
    and have not confirmed: it is drawn beyond their finger as they see it, towards the middle, as
    a tile lifted from their hand is, not under their palm, and goes to the space drawn there."""
    import math

    game, screen = _open(app, seed=3, seats=(1,))
    yield 0.4
    seat, board = game.turn, screen.board
    hand = screen.hands[seat]
    assert seat == 1 and hand.seat_angle == 180  # the far edge, facing its player
    move = _free_move(game)
    for _ in range((move.rot - hand.rotation(move.tile)) % 6):
        yield from tap(slot(hand, move.tile))
    yield from drag(slot(hand, move.tile), reach(hand, board, move.cell))
    assert screen.provisional == (seat, move)
    other = next(p for p in game.legal() if p.tile == move.tile and p.cell != move.cell
                 and board.on_table(board.window_cell_centre(p.cell)))
    x, y = board.window_cell_centre(other.cell)
    lift = board.size_px * 1.1
    a = math.radians(hand.seat_angle)
    finger = (x + math.sin(a) * lift, y - math.cos(a) * lift)  # the tile beyond it, as that player sees it
    assert board.on_table(finger), "the finger is not over the table"
    start = board.window_cell_centre(move.cell)
    drawn = []
    yield from drag(start, finger, before_release=lambda: drawn.append(dict(board._hovers)))
    assert drawn and [key[0] for key, _group in drawn[0].values()] == [other.cell]  # shown where it goes
    assert screen.provisional[0] == seat and screen.provisional[1].cell == other.cell
    assert board.board.at(other.cell) is not None and board.board.at(move.cell) is None
    return {}


def test_the_far_seat_moves_its_provisional_tile_seeing_where_it_goes():
    run_scenario("test_ui_tantrix_touch", "scenario_far_seat_moves_its_tile", size=(800, 480))


def scenario_provisional(app):
    from ui.i18n import _ as tr

    game, screen = _open(app)
    yield
    yield 0.4
    seat = game.turn
    hand, board = screen.hands[seat], screen.board
    events = len(game.record()["events"])
    journal = app.services.store.load_current()
    earlier = {e["place"]: (e["q"], e["r"]) for e in game.record()["events"] if "place" in e}
    assert set(earlier.values()) <= set(board.last_placed)
    first = _free_move(game)
    for _ in range((first.rot - hand.rotation(first.tile)) % 6):
        yield from tap(slot(hand, first.tile))
    yield from drag(slot(hand, first.tile), reach(hand, board, first.cell))
    # provisional: on the table, out of the hand, not in the game, nothing journaled
    assert screen.provisional == (seat, first)
    assert board.board.at(first.cell) == first and first.tile not in hand.tiles
    assert game.board.at(first.cell) is None and first.tile in game.hands[seat]
    assert len(game.record()["events"]) == events and app.services.store.load_current() == journal
    assert screen.confirm_bar.shown and game.turn == seat
    how = tr("Not played yet: tap Confirm. Until then you can turn it, move it or take it back.")
    assert how in labels(screen.layout)
    # a tap on it turns it to the next way round the rules accept
    yield from tap(board.window_cell_centre(first.cell))
    turned = screen.provisional[1]
    assert turned.cell == first.cell and turned.tile == first.tile
    assert turned.rot != first.rot or all(
        game.legal().count(first._replace(rot=r)) == 0 for r in range(6) if r != first.rot)
    assert turned in game.legal()
    # moved to another space where it fits
    other = next(p for p in game.legal() if p.tile == first.tile and p.cell != first.cell)
    board.look_at(other.cell, animate=False)
    yield
    start = board.window_cell_centre(first.cell)
    assert board.on_table(start), "the provisional tile went out of view"
    x, y = board.window_cell_centre(other.cell)
    yield from drag(start, (x, y - board.size_px * 1.1))  # the tile is lifted above the finger
    moved = screen.provisional[1]
    assert screen.provisional[0] == seat and moved.cell == other.cell and moved in game.legal()
    assert board.board.at(first.cell) is None and board.board.at(other.cell) == moved
    assert len(game.record()["events"]) == events
    # dragged back onto the hand: taken back
    yield from drag(board.window_cell_centre(other.cell), hand.to_window(*hand.center))
    assert screen.provisional is None and first.tile in hand.tiles and not screen.confirm_bar.shown
    assert board.board.at(other.cell) is None
    assert how not in labels(screen.layout, shown=True)  # what it said of that tile is over
    board.refit()
    # put down again, then the Take back button
    yield from drag(slot(hand, first.tile), reach(hand, board, first.cell))
    assert screen.provisional is not None
    yield from tap(screen.confirm_bar.back_button)
    assert screen.provisional is None and first.tile in hand.tiles
    # put down again and confirmed: played, journaled, replaced, the turn goes on
    played = screen.hands[seat].rotation(first.tile)
    yield from drag(slot(hand, first.tile), reach(hand, board, first.cell))
    chosen = screen.provisional[1]
    assert chosen.rot == played or chosen in game.legal()
    yield from tap(screen.confirm_bar.confirm_button)
    assert screen.provisional is None and game.board.at(chosen.cell) == chosen
    assert first.tile not in game.hands[seat] and len(game.hands[seat]) == 6  # the screen's bag refilled it
    place_events = [e for e in game.record()["events"] if "place" in e]
    assert place_events[-1] == {"place": seat, **chosen.to_json(), "forced": False}
    assert app.services.store.load_current()["state"]["board"] == game.board.to_json()
    assert not screen.confirm_bar.shown
    # the seat's last placement is marked in its colour (its earlier one no longer), the other's stays
    assert board.last_placed[chosen.cell] == game.seats[seat].colour
    assert earlier[seat] not in board.last_placed and board.last_placed[earlier[1 - seat]] == game.seats[1 - seat].colour
    return {"placed": list(chosen)}


def test_a_provisional_placement_is_turned_moved_taken_back_and_confirmed():
    run_scenario("test_ui_tantrix_touch", "scenario_provisional", size=(800, 480))


def scenario_no_confirmation(app):
    game, screen = _open(app)
    yield
    yield 0.4
    assert not screen.confirming
    move = _free_move(game)
    yield from _put_down(screen, move)
    assert screen.provisional is None and game.board.at(move.cell) == move
    return {}


def test_staff_may_turn_confirmation_off():
    run_scenario("test_ui_tantrix_touch", "scenario_no_confirmation", size=(800, 480),
                 settings={"confirm_moves": False})


def scenario_hints_and_view(app):
    from test_ui_tantrix import _forced_position
    from ui.modes.strategy import play as strategy_play

    game = _forced_position()
    screen = strategy_play.open_game(app, game)
    yield
    yield 0.5
    board, hand = screen.board, screen.hands[0]
    fill = game.obligatory()[0]
    forced = game.forced_cells()
    # the view follows the play: a forced space to fill is in view, tiles at least 9 mm across
    assert board.size_px >= screen.min_tile_px() - 1e-6
    assert any(board.on_table(board.window_cell_centre(c)) for c in forced)
    # lifting a tile lights the spaces it may go to now (in a fill: the forced spaces it fills)
    lit = []
    wanted = sorted({p.cell for p in game.legal() if p.tile == fill.tile})
    start = slot(hand, fill.tile)
    yield from drag(start, (start[0], start[1] + hand.tile_radius() * 3),
                    before_release=lambda: lit.append(board.lit))
    assert list(lit[0]) == wanted and set(wanted) <= set(forced)
    assert board.lit == ()  # let go: out again
    # tapping a forced space: the hand's tiles that fill it are outlined
    if not board.on_table(board.window_cell_centre(forced[0])):
        board.look_at(forced[0], animate=False)
    yield from tap(board.window_cell_centre(forced[0]))
    fits_here = sorted({p.tile for p in game.legal() if p.cell == forced[0]})
    assert sorted(hand.marked) == fits_here and screen.bubble.opacity == 1
    # the zoom buttons zoom, never below the size fingers need while a person acts
    controls = screen.view_controls
    before = board.size_px
    yield from tap(controls.zoom_in)
    assert board.size_px > before
    for _ in range(8):
        yield from tap(controls.zoom_out)
    assert abs(board.size_px - screen.min_tile_px()) < 1e-6
    return {"lit": len(wanted)}


def test_lifting_lights_the_spaces_a_forced_space_lights_its_tiles_and_zoom_keeps_tiles_big():
    run_scenario("test_ui_tantrix_touch", "scenario_hints_and_view", size=(800, 480))


def scenario_seat_disc(app):
    from ui.modes.strategy import seats as strategy_seats

    game, screen = _open(app)
    yield
    yield 0.4
    plate = screen.plates[1]
    # the disc shows who plays the seat and a tap on it opens that seat's card (no hold needed)
    yield from tap(plate.to_window(*plate.to_parent(*plate.disc_centre)))
    assert isinstance(screen.card, strategy_seats.TakeOverCard) and screen.card.seat == 1
    yield from tap(screen.card.choices.chip("club"))
    assert game.seats[1].robot == "club" and screen.card is None
    return {}


def test_a_tap_on_a_plates_disc_opens_who_plays_that_seat():
    run_scenario("test_ui_tantrix_touch", "scenario_seat_disc", size=(800, 480))


def scenario_news_once(app):
    from engine.strategy.game import StrategyGame
    from ui.i18n import _ as tr
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(4, "RYGB", ["beginner"] * 4, seed=5)
    while game.bag_count > 1 or game.step is None:
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    screen = strategy_play.open_game(app, game)
    yield
    yield 0.4
    while game.bag_count:  # the next placements empty the bag
        seat = game.turn
        screen.put(seat, game.legal()[0])
        screen.confirm()
        yield
    news = tr(strategy_play.BAG_EMPTY_NEWS)
    actor = screen.actor()
    plates = [plate.step_label.text for plate in screen.plates]
    # every waiting seat reads it on its own plate; the player to act keeps their instruction and is told
    assert all(text == news for seat, text in enumerate(plates) if seat != actor), plates
    assert plates[actor] != news
    banners = [b for b in screen.layout._banners if b.opacity > 0 and b.label.text == news]
    assert len(banners) == 1
    return {}


def test_table_news_is_shown_once_on_the_waiting_plates_and_to_the_player_who_acts():
    run_scenario("test_ui_tantrix_touch", "scenario_news_once", size=(800, 480))


def scenario_robot_failure(app):
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play
    from ui_harness import until

    class Broken:
        def choose(self, game, rng):
            raise RuntimeError("this robot is broken")

    game = StrategyGame.new(2, "RY", ["beginner", "beginner"], seed=4)
    while len(game.board) < 4:
        robot_move(game)
    placed = len(game.board)
    screen = strategy_play.open_game(app, game)
    screen.robots["beginner"] = Broken()  # every robot of the table now fails when it thinks
    screen.robot_pause, screen.flight_seconds = 0.05, 0.1
    yield until(lambda: len(game.board) >= placed + 2)
    # the table went on with legal placements, the failure logged, nobody left waiting
    assert len(game.board) >= placed + 2 and len(screen.think_log) >= 2
    return {}


def test_a_failing_robot_never_leaves_the_table_waiting():
    run_scenario("test_ui_tantrix_touch", "scenario_robot_failure", size=(800, 480))


def scenario_coach(app):
    from ui.modes.strategy.coach import coach_sentence
    from ui_harness import until

    game, screen = _open(app)
    yield
    yield 0.4
    seat = game.turn
    bar = screen.coach_bar
    assert bar.shown and not screen.confirm_bar.shown  # at the seat to act, where Confirm will be
    events = len(game.record()["events"])
    yield from tap(bar.buttons[0])
    yield until(lambda: screen.advice is not None, 60)
    from engine.strategy.robots import SETTINGS

    coach = screen.robots["coach"]  # the master as the kiosk configures it (Master()'s own cap is 30 s)
    assert coach.cap == SETTINGS.master_seconds != 30.0 and coach.workers == SETTINGS.workers
    advised_seat, advice = screen.advice
    # the master's placement shown pale on the board, its reason in words, nothing played yet
    assert advised_seat == seat and screen.board.ghost == advice.placement and advice.placement in game.legal()
    card = screen.coach_card
    assert card is not None and coach_sentence(advice.reason) in labels(card)
    assert card.rotation == screen.layout.boxes[seat].angle and not bar.shown
    assert len(game.record()["events"]) == events
    # "Play it": the tile is put down for the player, who still confirms it
    play = next(w for w in card.walk() if getattr(w, "msg", "") == "Play it")
    yield from tap(play)
    assert screen.provisional == (seat, advice.placement) and screen.board.ghost is None
    yield from tap(screen.confirm_bar.confirm_button)
    assert game.board.at(advice.placement.cell) == advice.placement
    return {}


def scenario_coach_goes_when_the_player_puts_their_own_tile(app):
    from ui_harness import until

    game, screen = _open(app)
    yield
    yield 0.4
    seat = game.turn
    hand, board = screen.hands[seat], screen.board
    yield from tap(screen.coach_bar.buttons[0])
    yield until(lambda: screen.advice is not None, 60)
    advised = screen.advice[1].placement
    own = next(p for p in game.legal() if p.tile != advised.tile and board.on_table(board.settled_cell(p.cell)[:2]))
    for _ in range((own.rot - hand.rotation(own.tile)) % 6):
        yield from tap(slot(hand, own.tile))
    yield from drag(slot(hand, own.tile), reach(hand, board, own.cell))
    assert screen.provisional == (seat, own)  # the player's own choice, waiting for Confirm...
    assert screen.advice is None and screen.coach_card is None and board.ghost is None  # ...and the coach gone
    return {}


def scenario_who_starts_faces_the_people(app):
    from engine.strategy.game import StrategyGame
    from ui.i18n import _ as tr
    from ui.modes.strategy import play as strategy_play

    game = next(g for g in (StrategyGame.new(2, "RY", [None, "beginner"], seed=seed) for seed in range(50))
                if g.starter == 1)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 60.0
    yield 0.3
    news = tr("{name} drew the highest number and starts.", name=strategy_play.seat_name(game, 1))
    assert screen.layout.news == news  # on the person's plate, facing them...
    assert news not in screen.layout._banners[1].label.text  # ...never to the robot's empty chair
    return {}


def scenario_who_starts_a_doubles_game_names_which_partner(app):
    """Doubles, four people at the flat table: "Red team drew the highest number and starts" left
    both partners of Red wondering whether it was them. The starter is told that they start, their
    partner that their partner does, and each opponent, sitting between the two partners, on which
    side of them the starter sits; in the language switched to. A player who touches their hand
    has read it: their plate's news goes, the others' stay."""
    from engine.strategy.game import StrategyGame
    from ui.i18n import _ as tr
    from ui.modes.strategy import play as strategy_play

    game = next(g for g in (StrategyGame.new(4, "RY", [None] * 4, doubles=True, seed=seed) for seed in range(50))
                if g.starter == 0)
    screen = strategy_play.open_game(app, game)
    yield until(lambda: len(screen.layout.boxes) == 4 and screen.layout.news)
    yield 0.3

    def shown():
        return [screen.layout._banners[0].label.text] + [screen.plates[seat].step_label.text for seat in (1, 2, 3)]

    def expected():
        team = strategy_play.seat_name(game, 0)
        return [tr("You drew the highest number and start."),
                tr("{name}, on your right, starts.", name=team),  # seat 1 at the left edge
                tr("{name} starts.", name=strategy_play.seat_name(game, 0, to=2)),
                tr("{name}, on your left, starts.", name=team)]  # seat 3 at the right

    assert [screen.layout.boxes[seat].angle for seat in range(4)] == [0.0, -90.0, 180.0, 90.0]
    assert shown() == expected(), shown()
    app.set_language("fr")
    yield 0.3
    assert shown() == expected() and "Vous" in shown()[0], shown()
    app.set_language("en")
    yield 0.3
    # the player opposite touches their hand: they have read it, their plate's news goes at once
    layout = screen.layout
    x, y, w, h = layout._placed(layout.boxes[2]).rect()
    yield from tap(layout.parent.to_window(x + w / 2, y + h / 2))
    assert layout.news and screen.plates[2].step_label.text != expected()[2]
    assert [screen.plates[seat].step_label.text for seat in (1, 3)] == [expected()[1], expected()[3]]
    return {}


def test_who_starts_a_doubles_game_is_named_to_each_player_as_them_their_partner_or_a_side():
    run_scenario("test_ui_tantrix_touch", "scenario_who_starts_a_doubles_game_names_which_partner", size=(1280, 800))


def _doubles_evening(services):
    """The firmware's players book on a SQLite file, with three people of a Doubles evening (the
    fourth plays as a guest)."""
    import tempfile

    from firmware.players import Players
    from firmware.store import SqliteStore

    services.players = Players(SqliteStore(tempfile.mkdtemp(prefix="tantrix-doubles-")))
    for name, avatar in (("Ana", "sky:star"), ("Bartłomiej", "vermilion:triangle"), ("Cécile", "green:hexagon")):
        services.players.create(name, avatar)


def scenario_who_starts_a_doubles_game_by_name(app):
    """Doubles, Ana and Bartłomiej (Red, opposite) against Cécile and a guest, their names picked
    at setup; Bartłomiej starts. Told by side alone ("Red team, on your left, drew ..."), nobody
    learnt who it was, and the words ran over the ends of the plates; now each reads it by name
    and relation where a name was picked, short enough to be read whole on its plate of the 7"
    panel, in every language: Ana "Bartłomiej (your partner) starts.", the opponents
    "Bartłomiej, on your left / right, starts." (Bartłomiej's own message says why)."""
    import os

    from engine.strategy.game import StrategyGame
    from ui.i18n import _ as tr, i18n
    from ui.modes.strategy import play as strategy_play
    from ui.seat_players import seat_again

    ids = {p.name: p.id for p in app.services.players.all()}
    game = next(g for g in (StrategyGame.new(4, "RY", [None] * 4, doubles=True, seed=seed) for seed in range(80))
                if g.starter == 2)
    seat_again(app, game, [ids["Ana"], ids["Cécile"], ids["Bartłomiej"], None])
    screen = strategy_play.open_game(app, game)
    yield until(lambda: len(screen.layout.boxes) == 4 and screen.layout.news)
    yield 0.3

    def shown():
        return [screen.plates[0].step_label.text, screen.plates[1].step_label.text,
                screen.layout._banners[2].label.text, screen.plates[3].step_label.text]

    def expected():
        return [tr("{name} starts.", name=tr("{name} (your partner)", name="Bartłomiej")),
                tr("{name}, on your left, starts.", name="Bartłomiej"),  # the left edge
                tr("You drew the highest number and start."),
                tr("{name}, on your right, starts.", name="Bartłomiej")]

    def shot(name):
        if os.environ.get("TANTRIX_SHOTS"):
            from kivy.core.window import Window

            app.root.export_to_png(os.path.join(os.environ["TANTRIX_SHOTS"], f"{Window.width}x{Window.height}-{name}.png"))

    assert [screen.layout.boxes[seat].angle for seat in range(4)] == [0.0, -90.0, 180.0, 90.0]
    assert shown()[:2] == ["Bartłomiej (your partner) starts.", "Bartłomiej, on your left, starts."], shown()
    for language in ("en", "fr", "nl", "pl"):
        app.set_language(language)
        yield 0.3
        assert shown() == expected(), (language, shown())
        for seat in (0, 1, 3):  # the whole news on the plate, never running over its edge
            label = screen.plates[seat].step_label
            assert label.texture_size[0] <= label.width + 1, (language, seat, label.text, label.texture_size, label.size)
        shot(f"doubles-starter-names-{i18n.language}")
    app.set_language("en")
    return {}


scenario_who_starts_a_doubles_game_by_name.prepare = _doubles_evening


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_who_starts_a_doubles_game_is_told_by_the_players_names(size):
    run_scenario("test_ui_tantrix_touch", "scenario_who_starts_a_doubles_game_by_name", size=size)


def test_who_starts_is_told_to_the_people_not_to_a_robots_chair():
    run_scenario("test_ui_tantrix_touch", "scenario_who_starts_faces_the_people", size=(800, 480))


def test_the_coach_goes_when_the_player_puts_down_a_tile_of_their_own():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_goes_when_the_player_puts_their_own_tile", size=(800, 480))


def test_the_coach_shows_the_masters_move_with_a_reason_and_plays_it_on_request():
    run_scenario("test_ui_tantrix_touch", "scenario_coach", size=(800, 480))


def scenario_coach_card_leaves_its_tile_in_sight(app):
    """On the 7" panel, flat with 3 and 4 people and upright: the coach's card faces the player
    who asked, lies whole on the screen and leaves the space of the tile it suggests in sight
    (with 3 people the card once hid it). Flat, asked at a side seat, it covers no other hand (it
    once lay across the bottom player's). Upright, a message to that player shows whole on the
    screen while "Hint" waits in the table's top corner (it was once sent past the top edge, as
    if "Hint" lay along the hand)."""
    import math

    from ui_harness import until

    def inside(rect, width, height):
        x, y, w, h = rect
        return x >= -0.5 and y >= -0.5 and x + w <= width + 0.5 and y + h <= height + 0.5

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    for players, orientation, seats in ((3, "flat", (1, 2)), (4, "flat", (1, 3)), (2, "upright", None)):
        app.services.settings.orientation = orientation
        game, screen = _open(app, seed=3, players=players, tiles=8, seats=seats)
        yield
        yield 0.5
        seat, layout = game.turn, screen.layout
        if orientation == "upright":
            assert screen.coach_bar.shown
            layout.tell(seat, lambda: "Wait for your turn.")
            yield 0.2
            (x, y), (w, h) = layout._banners[seat].bbox
            assert inside((x, y, w, h), screen.width, screen.height), (x, y, w, h)
        yield from tap(screen.coach_bar.buttons[0])
        yield until(lambda: screen.advice is not None, 60)
        cell = screen.advice[1].placement.cell

        def settled():
            (x, y), (sx, sy, _size) = screen.board.window_cell_centre(cell), screen.board.settled_cell(cell)
            return abs(x - sx) < 0.5 and abs(y - sy) < 0.5

        yield until(settled, 10)  # the view has stopped moving: the player sees what is judged
        card = screen.coach_card
        (x, y), (w, h) = card.bbox
        assert card.rotation == layout.boxes[seat].angle % 360, (card.rotation, layout.boxes[seat].angle)
        assert inside((x, y, w, h), screen.width, screen.height), (players, orientation, (x, y, w, h))
        gx, gy = screen.board.window_cell_centre(cell)
        inner = screen.board.size_px * math.sqrt(3) / 2
        assert not overlap((x, y, w, h), (gx - inner, gy - inner, 2 * inner, 2 * inner)), (players, orientation)
        if orientation == "flat":
            assert abs(math.sin(math.radians(card.rotation))) > 0.5  # asked at a side seat: its edge is short
            for other, box in enumerate(layout.boxes):
                hand = box.rect(layout.x, layout.y)
                assert other == seat or not overlap((x, y, w, h), hand), (players, other, (x, y, w, h), hand)
        screen.close_coach()
    return {}


def test_the_coachs_card_leaves_the_suggested_space_in_sight():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_card_leaves_its_tile_in_sight", size=(800, 480))


def scenario_coach_brings_its_tile_into_view(app):
    """A board of 30 tiles on the 7" panel is larger than the table at the size a finger needs:
    the coach may suggest a space out of sight (under a hand, past the edge). The view pans to
    it, so the pale tile is on the open table and clear of the card ("The master would play
    this:" once pointed at nothing), and "Play it" puts exactly that placement down. The coach's
    answer is fixed here (a legal placement out of sight) so the view, not the master, is tested."""
    from engine.strategy.robots.coach import Advice, Reason
    from ui.modes.strategy import play as strategy_play
    from ui_harness import until

    game, screen = _open(app, seed=4, tiles=30)
    yield
    yield 0.5
    seat, board = game.turn, screen.board

    def out_of_sight(placement):
        x, y, _size = board.settled_cell(placement.cell)
        return not board.on_table((x, y))

    far = next((p for p in game.legal() if out_of_sight(p)), None)
    assert far is not None, "every legal space is in view: the position no longer tests this"
    strategy_play.advise = lambda view, coach: Advice(far, Reason("only"), 1)
    yield from tap(screen.coach_bar.buttons[0])
    yield until(lambda: screen.advice is not None, 30)
    assert screen.board.ghost == far
    x, y = board.window_cell_centre(far.cell)
    assert board.on_table((x, y)), "the suggested space is out of sight"
    assert not screen.coach_card.collide_point(x, y)
    yield from tap(screen.coach_card.children[0].play_button)
    assert screen.provisional == (seat, far)
    yield from tap(screen.confirm_bar.confirm_button)
    assert game.board.at(far.cell) == far
    return {}


def test_the_coach_brings_a_suggestion_out_of_sight_into_view():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_brings_its_tile_into_view", size=(800, 480))


def scenario_coach_shows_its_tile_whole(app):
    """A board of 30 tiles on the 7" panel, flat and upright: the coach suggests a space whose
    middle is on the open table but whose edge lies under a plate, a hand or a control, or past
    the table's edge (upright, one under the top row of plates showed half a pale tile). The view
    slides until the whole space is on the open table, clear of the card. The coach's answer is
    fixed here, so the view, not the master, is tested."""
    import math

    from engine.strategy.robots.coach import Advice, Reason
    from ui.modes.strategy import play as strategy_play
    from ui.table import overlaps

    def space(board, cell, settled=True):
        x, y, r = board.settled_cell(cell) if settled else (*board.window_cell_centre(cell), board.size_px)
        return x - r * math.sqrt(3) / 2, y - r, r * math.sqrt(3), 2 * r

    def whole(board, rect):
        """On the open table: in the view and under no hand, plate or control (ui.board.on_table)."""
        (tx, ty), (tw, th), (x, y, w, h) = board.to_window(*board.pos), board.size, rect
        inside = tx - 0.5 <= x and ty - 0.5 <= y and x + w <= tx + tw + 0.5 and y + h <= ty + th + 0.5
        return inside and not any(overlaps(rect, box) for box in board.shield_boxes())

    checked = []
    for orientation in ("upright", "flat"):
        app.services.settings.orientation = orientation
        for seed in range(4, 12):  # a position with such a space
            game, screen = _open(app, seed=seed, tiles=30)
            yield 0.6
            board = screen.board
            edge = next((p for p in game.legal() if board.on_table(board.settled_cell(p.cell)[:2])
                         and not whole(board, space(board, p.cell))), None)
            if edge is not None:
                break
            screen.leave()
        assert edge is not None, "every legal space is whole in view: the positions no longer test this"
        strategy_play.advise = lambda view, coach, edge=edge: Advice(edge, Reason("only"), 1)
        yield from tap(screen.coach_bar.buttons[0])
        yield until(lambda: screen.advice is not None, 30)
        yield until(lambda: space(board, edge.cell, settled=False) == space(board, edge.cell), 10)
        rect = space(board, edge.cell)
        assert whole(board, rect), (orientation, edge, rect)
        (x, y), (w, h) = screen.coach_card.bbox
        assert not overlaps((x, y, w, h), rect), orientation
        checked.append(orientation)
        screen.leave()
        yield 0.2
    return checked


def scenario_controls_keep_off_the_coachs_tile(app):
    """Four people on the 7" portrait panel, the bag empty, the coach's card up, the view slid by a
    finger so that the pale tile lies under Leave: staff switch the language and Leave, the bag
    count and the view controls are laid out again (Hint is put away while the card is up). None
    of them lands on the pale tile, which is among what they keep off (Leave once lay over half of
    it in French, Dutch and Polish). The answer is fixed (a legal placement), so the layout, not
    the master, is tested."""
    import math

    from engine.strategy.game import StrategyGame, Step
    from engine.strategy.robots.coach import Advice, Reason
    from ui.modes.strategy import play as strategy_play
    from ui.table import overlaps

    game = StrategyGame.new(4, "RYGB", ["club"] * 4, seed=9)
    while game.bag_count or game.step is not Step.FREE or len(game.legal()) < 2:
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    board = screen.board
    yield 0.6

    def controls():
        return [screen.leave_button, screen.bag_label, *screen.view_controls.parts]

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    def space(cell):
        x, y, r = board.settled_cell(cell)
        return x - r * math.sqrt(3) / 2, y - r, r * math.sqrt(3), 2 * r

    def ask(move):
        strategy_play.advise = lambda view, coach: Advice(move, Reason("only"), 1)
        yield from tap(screen.coach_bar.buttons[0])
        yield until(lambda: screen.coach_card is not None, 30)

    # the master's answer written out, so the test does not wait for it
    move = game.legal()[0]
    yield from ask(move)
    for language in ("fr", "nl", "pl", "en"):
        # a finger slides the view: the pale tile comes to lie where Leave stands
        x, y, _size = board.settled_cell(move.cell)
        board.pan(screen.leave_button.center_x - x, screen.leave_button.center_y - y, animate=False)
        yield 0.3
        assert overlaps(space(move.cell), rect(screen.leave_button)), "the case: the pale tile under Leave"
        assert space(move.cell) in screen._obstacles()[0]  # what the controls, laid out again, keep off
        app.set_language(language)
        yield 0.3
        assert board.ghost == move and screen.coach_card is not None
        assert not any(overlaps(space(move.cell), rect(widget)) for widget in controls()), language
    return {}


def test_the_controls_keep_off_the_coachs_tile_when_the_language_changes():
    run_scenario("test_ui_tantrix_touch", "scenario_controls_keep_off_the_coachs_tile", size=(720, 1280))


def test_the_coach_shows_its_suggestion_whole_on_the_open_table():
    assert run_scenario("test_ui_tantrix_touch", "scenario_coach_shows_its_tile_whole",
                        size=(800, 480)) == ["upright", "flat"]


def scenario_wait_while_the_robot_thinks(app):
    """A person touches their tiles while the robot thinks: the hand stays as it is (nothing
    turned, lifted or played) and the person is told, facing them, to wait (the only
    "Thinking..." faces the robot's empty chair; a finger that got no answer took the table for
    frozen)."""
    from engine.strategy.game import StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play
    from ui.refusals import RULE_MESSAGES
    from ui_harness import until

    game = StrategyGame.new(2, "RY", ["beginner", "beginner"], seed=3)
    while game.turn != 1 or len(game.board) < 3:
        robot_move(game)
    game.set_robot(0, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0  # the robot thinks as long as the scenario needs
    yield until(lambda: screen.thinking)
    hand, wait = screen.hands[0], _(RULE_MESSAGES["not-your-turn"])
    tile = hand.tiles[0]
    turned, events = hand.rotation(tile), len(game.record()["events"])
    assert not any(wait in t for t in labels(screen.layout))
    yield from tap(slot(hand, tile))
    assert hand.rotation(tile) == turned and tile in hand.tiles and screen.provisional is None
    assert len(game.record()["events"]) == events and game.turn == 1
    assert any(wait in t for t in labels(screen.layout._banners[0]))  # said to the person, facing them
    return {}


def test_a_person_touching_their_tiles_while_the_robot_thinks_is_told_to_wait():
    run_scenario("test_ui_tantrix_touch", "scenario_wait_while_the_robot_thinks", size=(800, 480))


def scenario_no_coach(app):
    from ui_harness import until

    game, screen = _open(app)
    yield
    yield 0.4
    assert screen.coaching and screen.coach_bar.shown
    # staff open their menu over the game, hide the Hint button and come back to the game
    app.open_staff()
    yield 0.3
    for key in ["1", "2", "3", "4", "OK"]:
        yield from tap(next(w for w in app.pin.keypad.children if getattr(w, "msg", None) == key))
    assert app.manager.current == "staff"
    yield from tap(app.staff.nav["settings"])
    yield from tap(app.staff.coach_choice.chip(False))
    assert app.services.settings.coach is False
    yield from tap(next(w for w in app.staff.children[0].walk() if getattr(w, "msg", None) == "Close"))
    yield until(lambda: app.manager.current_screen is screen and not app.manager.transition.is_active)
    assert app.manager.current_screen is screen and not screen.coaching and not screen.coach_bar.shown
    screen.ask_coach()  # nothing left on screen to ask with, and asking is refused too
    assert not screen.coach_job.busy and screen.advice is None
    # the staff web page offers it again while the game is on screen: the button comes back
    app.services.settings.set_coach(True)
    yield until(lambda: screen.coach_bar.shown, 10)
    assert screen.coach_bar.shown and screen.coached_seat() == game.turn
    return {}


def test_staff_may_turn_the_coach_off():
    run_scenario("test_ui_tantrix_touch", "scenario_no_coach", size=(800, 480))


def scenario_coach_off_while_its_card_shows(app):
    """Staff turn the coach off (their web page) while a player reads its card: the card, its
    "Play it" and the pale tile go with the Hint button, within a second (they stayed, and the
    coach staff had just turned off went on playing for the player). The answer is fixed here (a
    legal placement) so the setting, not the master, is tested."""
    from engine.strategy.robots.coach import Advice, Reason
    from ui.modes.strategy import play as strategy_play

    game, screen = _open(app)
    yield 0.4
    seat, move = game.turn, _free_move(game)
    strategy_play.advise = lambda view, coach: Advice(move, Reason("only"), 1)
    yield from tap(screen.coach_bar.buttons[0])
    yield until(lambda: screen.coach_card is not None, 30)
    assert screen.board.ghost == move
    app.services.settings.set_coach(False)
    yield until(lambda: screen.coach_card is None, 10)
    assert screen.advice is None and screen.board.ghost is None and not screen.coach_bar.shown
    assert not any("Play it" in text for text in labels(screen.overlay))
    assert screen.provisional is None and game.turn == seat and game.board.at(move.cell) is None
    return {}


def test_the_coachs_card_goes_when_staff_turn_the_coach_off():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_off_while_its_card_shows", size=(800, 480))


def scenario_side_seat_at_800x480(app):
    """Four people at the 7" panel: a side seat places a tile. Its confirm bar, the message that
    tells it how confirming works, the view controls, Leave and the bag count cover neither each
    other nor any hand or plate, and no plate covers a hand (also on the 7" portrait panel, where
    the corners are the ends' hands')."""
    import math

    from test_ui_tantrix import play_by_touch

    game, screen = _open(app, seed=5, players=4, tiles=16, seats=(1, 3))
    yield
    yield 0.4
    seat = game.turn
    layout = screen.layout
    assert abs(math.sin(math.radians(layout.boxes[seat].angle))) > 0.5  # a side seat
    yield from play_by_touch(screen, seat, _free_move(game), confirm=False)
    assert screen.provisional is not None and screen.confirm_bar.shown
    banner = layout._banners[seat]
    assert banner.opacity == 1 and banner.rotation % 360 == layout.boxes[seat].angle % 360

    def rect(widget):
        if hasattr(widget, "bbox"):
            (x, y), (w, h) = widget.bbox
            return x, y, w, h
        return (*widget.pos, *widget.size)

    hands = []
    for box in layout.boxes:
        across = abs(math.sin(math.radians(box.angle))) > 0.5
        w, h = (box.depth, box.length) if across else (box.length, box.depth)
        hands.append((layout.x + box.cx - w / 2, layout.y + box.cy - h / 2, w, h))
    parts = {"banner": rect(banner), "confirm": rect(screen.confirm_bar), "controls": rect(screen.view_controls),
             "leave": rect(screen.leave_button), "bag": rect(screen.bag_label),
             **{f"plate {i}": rect(p) for i, p in enumerate(screen.plates)},
             **{f"hand {i}": r for i, r in enumerate(hands)}}

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    movable = ("banner", "confirm", "controls", "leave", "bag", *(f"plate {i}" for i in range(4)))
    clashes = [(a, b) for a in movable for b in parts if a != b and (b not in movable or a < b)
               and overlap(parts[a], parts[b])]
    assert clashes == [], clashes
    return {}


def test_a_side_seats_bar_and_message_cover_no_control_at_800x480():
    run_scenario("test_ui_tantrix_touch", "scenario_side_seat_at_800x480", size=(800, 480))


def test_no_plate_or_bar_covers_a_hand_on_the_portrait_panel():
    run_scenario("test_ui_tantrix_touch", "scenario_side_seat_at_800x480", size=(720, 1280))


def scenario_coach_button_covers_no_tile(app):
    """Four people at the 7" panel, every seat in turn to move in a game: "Hint" (ask the coach)
    faces that player, is at least 9 mm both ways, and covers no tile or forced space of the board
    as the view fits it, no hand, plate or control (a bar across the hand's whole edge once covered
    the board's outer row, forced spaces included)."""
    import math

    from engine.strategy.game import Step
    from ui import theme

    game, screen = _open(app, seed=5, players=4, tiles=12)
    yield
    yield 0.6
    layout, board, bar = screen.layout, screen.board, screen.coach_bar
    flat = layout.orientation == "flat"
    stand_in = make_robot("club")

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    seen = set()
    while len(seen) < 4 and not game.finished:
        seat = game.turn
        if game.step is Step.FREE and seat not in seen:
            seen.add(seat)
            assert screen.coached_seat() == seat and bar.shown
            turned = bar.rotation - (layout.boxes[seat].angle if flat else 0)
            assert abs((turned + 180) % 360 - 180) < 0.01, (seat, bar.rotation)
            button = bar.buttons[0]
            assert min(button.size) >= theme.min_target() - 0.5, button.size
            box = rect(bar)
            inner = board.size_px * math.sqrt(3) / 2  # a hex's inscribed circle
            fx, fy, fw, fh = screen._fitted()  # where the view shows the board (larger, it goes under the plates)
            centres = {cell: board.window_cell_centre(cell)
                       for cell in [p.cell for p in game.board.placements()] + game.forced_cells()}
            covered = [cell for cell, (x, y) in centres.items() if fx <= x <= fx + fw and fy <= y <= fy + fh
                       and overlap(box, (x - inner, y - inner, 2 * inner, 2 * inner))]
            assert covered == [], (seat, covered)
            # a hand lies in its holder, turned to face its player: the holder's box is where it lies
            others = [screen.leave_button, screen.bag_label, screen.view_controls, *screen.plates,
                      *(hand.parent for hand in screen.hands)]
            assert not any(overlap(box, rect(w)) for w in others), (seat, [rect(w) for w in others if overlap(box, rect(w))])
        robot_move(game, stand_in)  # the player's move, made for them
        if game.step is Step.FREE and game.turn not in seen:  # the table shown again where it is looked at
            screen.after_step()
            yield 0.5
    assert len(seen) == 4
    return {}


def test_the_coach_button_covers_no_tile_on_the_7_inch_panel():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_button_covers_no_tile", size=(800, 480))


def test_the_coach_button_covers_no_tile_with_the_screen_upright():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_button_covers_no_tile", size=(800, 480),
                 settings={"orientation": "upright"})


def scenario_plates_beside_the_hands_at_four(app):
    """Four people, the table flat: where an edge has the room, its hand moves along it and its
    plate lies beside it, so the board has the whole width (or height) between the hands there
    (the side plates along the board's edges took 30 % of its width on the 7" portrait panel).
    Every seat to move in turn: no plate, hand, the Hint button or a control overlaps another."""
    from engine.strategy.game import Step

    game, screen = _open(app, seed=5, players=4, tiles=12)
    layout, bar = screen.layout, screen.coach_bar
    yield until(lambda: len(layout.boxes) == 4 and screen.board.fit_area)
    yield 0.4
    beside = [seat for seat, place in enumerate(screen._plate_places()) if place[0] == "beside"]
    fx, fy, fw, fh = screen._fitted()
    across = {seat for seat in beside if layout.boxes[seat].across}
    if across:  # the side plates lie beside their hands: the board spans the width between the hands
        assert fw == pytest.approx(screen._free[2]), (fw, screen._free)
    else:
        assert fh == pytest.approx(screen._free[3]), (fh, screen._free)

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    stand_in, seen = make_robot("club"), set()
    while len(seen) < 4 and not game.finished:
        if game.step is Step.FREE and game.turn not in seen:
            seen.add(game.turn)
            assert bar.shown
            parts = [("plate", i, rect(p)) for i, p in enumerate(screen.plates)] \
                + [("hand", i, rect(h.parent)) for i, h in enumerate(screen.hands)] \
                + [("hint", game.turn, rect(bar)), ("leave", 0, rect(screen.leave_button)),
                   ("bag", 0, rect(screen.bag_label)), ("zoom", 0, rect(screen.view_controls))]
            clashes = [(a[:2], b[:2]) for i, a in enumerate(parts) for b in parts[i + 1:] if overlap(a[2], b[2])]
            assert clashes == [], (game.turn, clashes)
        robot_move(game, stand_in)
        if game.step is Step.FREE and game.turn not in seen:
            screen.after_step()
            yield 0.5
    assert len(seen) == 4
    return {"beside": beside, "across": sorted(across)}


def test_the_side_plates_lie_beside_their_hands_on_the_portrait_panel():
    seen = run_scenario("test_ui_tantrix_touch", "scenario_plates_beside_the_hands_at_four", size=(720, 1280))
    assert seen["across"] == [1, 3], seen


def test_the_plates_lie_beside_the_hands_at_four_on_the_15_inch_panel():
    seen = run_scenario("test_ui_tantrix_touch", "scenario_plates_beside_the_hands_at_four", size=(1920, 1080))
    assert seen["beside"] == [0, 2] and seen["across"] == [], seen


def scenario_first_refusal_leaves_its_space_in_sight(app):
    """The first refusal, with one tile on the table, in each space around it, at every seat of 2,
    3 and 4 people flat and 2 upright: the message saying which rule the drop breaks faces the
    player and its words lie under no control, and the space refused (whose side is the clashing
    edge) lies whole on the free table, under no control, plate, hand nor that message (on the 7"
    panel the message once covered half the space in 2 of 5 places: the view now slides to show
    it)."""
    import math

    from engine.geometry import neighbours
    from engine.strategy.game import StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play
    from ui.refusals import RULE_MESSAGES

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    def inside(a, b):
        return a[0] >= b[0] - 1 and a[1] >= b[1] - 1 and a[0] + a[2] <= b[0] + b[2] + 1 and a[1] + a[3] <= b[1] + b[3] + 1

    golden = _(RULE_MESSAGES["golden-rule"])
    checked = []
    for players, orientation in ((2, "flat"), (3, "flat"), (4, "flat"), (2, "upright")):
        app.services.settings.orientation = orientation
        seats = set()
        for seed in range(12):
            game = StrategyGame.new(players, "RYGB"[:players], ["beginner"] * players, seed=seed)
            robot_move(game)
            seat, first = game.turn, game.board.placements()[0]
            if seat in seats:
                continue
            seats.add(seat)
            for other in range(players):
                game.set_robot(other, None)
            screen = strategy_play.open_game(app, game)
            screen.robot_pause = 30.0
            board, layout, hand = screen.board, screen.layout, screen.hands[seat]
            yield until(lambda: len(layout.boxes) == players and board.fit_area)
            yield
            banner = layout._banners[seat]
            # the seat's message each time it comes up, as it comes: it stays 5.5 s, which the frames
            # of a machine as slow as QEMU's arm64 emulation outlast before the scenario looks
            said: list[str] = []
            banner.bind(opacity=lambda b, shown: said.append(b.label.text) if shown == 1 else None)
            for cell in neighbours(first.cell):
                tile = next((t for t in game.hands[seat] if not game.board.fits(t, cell)), None)
                if tile is None:  # every tile of the hand fits there, turned
                    continue
                board.refit()  # the view as the table fits it: no refusal yet
                banner.hide()  # the last refusal's message gone: this one comes up anew
                said.clear()
                yield from drag(slot(hand, tile), reach(hand, board, cell))
                assert len(game.board) == 1 and tile in hand.tiles and screen.provisional is None
                where = (players, orientation, seed, seat, cell)
                assert said == [golden] and banner is layout._banners[seat], where
                turned = banner.rotation - (layout.boxes[seat].angle if orientation == "flat" else 0)
                assert abs((turned + 180) % 360 - 180) < 0.01, where  # it faces the player
                x, y, r = board.settled_cell(cell)  # where the view, sliding, leaves it...
                yield until(lambda: math.dist(board.window_cell_centre(cell), (x, y)) < 0.5)  # ...and does
                space = (x - r * math.sqrt(3) / 2, y - r, r * math.sqrt(3), 2 * r)
                fx, fy, fw, fh = board.fit_area
                assert not overlap(rect(banner), space), where
                assert inside(space, (*board.to_window(fx, fy), fw, fh)), where
                controls = [screen.leave_button, screen.bag_label, screen.view_controls,
                            *(bar for bar in (screen.confirm_bar, screen.coach_bar) if bar.shown)]
                for widget in [*controls, *screen.plates, *screen.hands]:
                    assert not overlap(rect(widget), space), (where, widget)
                for widget in controls:
                    assert not overlap(rect(widget), rect(banner)), (where, widget)
                checked.append([players, orientation, layout.boxes[seat].angle])
                layout.hush(seat)
            if len(seats) == players:
                break
    return checked


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (720, 1280)])
def test_the_first_refusal_leaves_the_refused_space_in_sight(size):
    # 40-odd refusals: 15 s here, 300 s and more under QEMU's arm64 emulation (the bound stops a hang)
    checked = run_scenario("test_ui_tantrix_touch", "scenario_first_refusal_leaves_its_space_in_sight", size=size,
                           timeout=900)
    assert {angle for players, orientation, angle in checked if orientation == "flat"} == {0, 90, 180, -90}
    assert len(checked) >= 40  # spaces refused, at every seat of the four tables


def _leave_while_held(app, screen, lift):
    """The player across the table taps Leave and confirms it while a finger is still down at the
    acting seat; that finger lifts (``lift()``) once the home screen is up."""
    from ui.widgets import Confirm

    yield from tap(screen.leave_button)
    confirm = next(w for w in screen.overlay.children if isinstance(w, Confirm))
    yield from tap(next(w for w in confirm.walk() if getattr(w, "msg", "") == "Leave"))
    yield until(lambda: app.manager.current == "home")
    lift()
    yield 0.3


def scenario_confirm_held_through_leave(app):
    """A finger rests on Confirm while the other player confirms Leave: lifted after that, it does
    not bring the abandoned game back into the journal (a resume card after the next start or at
    the attract screen), its records or the rings (a seat lit to play at the home screen)."""
    from ui_harness import touch_at

    game, screen = _open(app)
    yield 0.4
    seat = game.turn
    move = _free_move(game)
    yield from _put_down(screen, move)
    assert screen.provisional == (seat, move)
    button = screen.confirm_bar.confirm_button
    finger = touch_at(*button.to_window(*button.center))
    finger.touch_down()
    yield
    cues = app.services.devices.cues
    yield from _leave_while_held(app, screen, finger.touch_up)
    assert app.services.store.load_current() is None  # no resume card for a game left
    assert app.services.store.records() == []
    assert cues[-1].turn is None  # the rings stay out at the home screen, no seat lit to play
    return {}


def test_a_confirm_held_while_leave_is_confirmed_does_not_revive_the_game():
    run_scenario("test_ui_tantrix_touch", "scenario_confirm_held_through_leave", size=(800, 480))



def scenario_own_tile_down_while_the_coach_thinks(app):
    """The player asks for a hint and, while the master still thinks, puts down a tile of their
    own: the master's answer, when it comes, is not shown (no pale tile, no card whose "Play it"
    would swap their tile for its own); their tile still waits for their Confirm."""
    game, screen = _open(app)
    yield 0.4
    seat = game.turn
    hand, board = screen.hands[seat], screen.board
    own = next(p for p in game.legal() if board.on_table(board.settled_cell(p.cell)[:2]))
    for _ in range((own.rot - hand.rotation(own.tile)) % 6):
        yield from tap(slot(hand, own.tile))
    yield from tap(screen.coach_bar.buttons[0])
    yield from drag(slot(hand, own.tile), reach(hand, board, own.cell))
    assert screen.coach_job.busy  # the master has not answered yet
    assert screen.provisional == (seat, own)
    yield until(lambda: not screen.coach_job.busy, 60)
    yield 0.2
    assert screen.advice is None and screen.coach_card is None and board.ghost is None
    assert screen.provisional == (seat, own) and not screen.coach_bar.shown
    return {}


def test_a_hint_asked_before_the_player_put_down_their_own_tile_is_not_shown():
    run_scenario("test_ui_tantrix_touch", "scenario_own_tile_down_while_the_coach_thinks", size=(800, 480))


def scenario_coach_answers_while_leave_is_asked(app):
    """The master's answer arrives while the players are asked whether to leave: its card comes
    beneath the question (it was drawn over it and took its touches), and "Stay" is answered."""
    from ui.widgets import Confirm

    game, screen = _open(app)
    yield 0.4
    seat, placed = game.turn, len(game.board)
    yield from tap(screen.coach_bar.buttons[0])
    yield from tap(screen.leave_button)
    question = screen.overlay.children[0]
    assert isinstance(question, Confirm)
    yield until(lambda: screen.coach_card is not None, 60)
    yield 0.2
    assert screen.overlay.children[0] is question
    yield from tap(question.no_button)
    assert question.parent is None and app.manager.current == screen.name
    assert screen.coach_card is not None and len(game.board) == placed and game.turn == seat
    return {}


def test_a_coach_answer_arriving_while_leave_is_asked_stays_beneath_the_question():
    run_scenario("test_ui_tantrix_touch", "scenario_coach_answers_while_leave_is_asked", size=(800, 480))


def _moving_provisional(app, screen, game):
    """The player's tile put down provisionally and a finger moving it towards another space where
    it fits (not let go yet): the finger, where it will be let go, and the placements."""
    from ui_harness import touch_at

    seat = game.turn
    hand, board = screen.hands[seat], screen.board
    first = _free_move(game)
    for _ in range((first.rot - hand.rotation(first.tile)) % 6):
        yield from tap(slot(hand, first.tile))
    yield from drag(slot(hand, first.tile), reach(hand, board, first.cell))
    first = screen.provisional[1]
    other = next(p for p in game.legal() if p.tile == first.tile and p.cell != first.cell)
    board.look_at(other.cell, animate=False)
    yield
    start = board.window_cell_centre(first.cell)
    x, y = board.window_cell_centre(other.cell)
    end = (x, y - board.size_px * 1.1)  # the tile is lifted above the finger
    finger = touch_at(*start)
    finger.touch_down()
    yield
    for i in range(1, 9):
        finger.touch_move(start[0] + (end[0] - start[0]) * i / 8, start[1] + (end[1] - start[1]) * i / 8)
    yield
    assert board.board.at(first.cell) is None  # lifted off its space
    return finger, first, other


def scenario_take_back_while_the_tile_is_moved(app):
    """One finger moves the tile lying provisionally towards another space while another taps
    Take back: the tile is back in the hand, and letting the first finger go puts it nowhere (the
    table showed it again on its old space, not in the game, and marked the space red)."""
    game, screen = _open(app)
    yield 0.4
    seat, board = game.turn, screen.board
    journal = app.services.store.load_current()
    finger, first, other = yield from _moving_provisional(app, screen, game)
    screen.refresh()  # the table shown anew meanwhile (a clock's tick, a tile scanned): still lifted
    assert board.board.at(first.cell) is None
    yield from tap(screen.confirm_bar.back_button)
    finger.touch_up()
    yield
    assert screen.provisional is None and first.tile in screen.hands[seat].tiles
    assert board.board.at(first.cell) is None and board.board.at(other.cell) is None
    assert not board.highlighted
    assert game.turn == seat and app.services.store.load_current() == journal
    return {}


def test_a_tile_taken_back_while_a_finger_moves_it_stays_in_the_hand():
    run_scenario("test_ui_tantrix_touch", "scenario_take_back_while_the_tile_is_moved", size=(800, 480))


def scenario_confirm_while_the_tile_is_moved(app):
    """One finger moves the tile lying provisionally while another taps Confirm: it is played where
    it lay, and letting the first finger go moves nothing and marks nothing."""
    game, screen = _open(app)
    yield 0.4
    seat, board = game.turn, screen.board
    finger, first, other = yield from _moving_provisional(app, screen, game)
    yield from tap(screen.confirm_bar.confirm_button)
    assert game.board.at(first.cell) == first and game.turn != seat
    finger.touch_up()
    yield
    assert board.board.at(first.cell) == first and board.board.at(other.cell) is None
    assert not board.highlighted and screen.provisional is None
    return {}


def test_a_tile_confirmed_while_a_finger_moves_it_stays_where_it_was_played():
    run_scenario("test_ui_tantrix_touch", "scenario_confirm_while_the_tile_is_moved", size=(800, 480))


def scenario_tap_beside_a_held_tile(app):
    """One finger rests on tile A of the hand while another taps tile B: B turns, A stays as it
    lay; letting the first finger go is that finger's own tap, on A (the second finger's tap was
    taken for a twist of A, so B never turned and A turned when the first finger lifted)."""
    from ui_harness import touch_at

    game, screen = _open(app)
    yield 0.4
    hand = screen.hands[game.turn]
    a, b = hand.tiles[0], hand.tiles[2]
    resting = touch_at(*slot(hand, a))
    resting.touch_down()
    yield
    yield from tap(slot(hand, b))
    assert (hand.rotation(a), hand.rotation(b)) == (0, 1)
    resting.touch_up()
    yield
    assert (hand.rotation(a), hand.rotation(b)) == (1, 1)
    assert screen.provisional is None and a in hand.tiles and b in hand.tiles
    return {}


def test_a_tap_on_one_hand_tile_while_a_finger_rests_on_another_turns_the_tapped_tile():
    run_scenario("test_ui_tantrix_touch", "scenario_tap_beside_a_held_tile", size=(800, 480))


def scenario_tap_beside_a_dragged_tile(app):
    """One finger drags tile A out of the hand while another taps tile B of the same hand: B turns
    (the tap was once swallowed while A was on the move); A, let go over the hand again, goes back
    as it lay and nothing is played."""
    from ui_harness import touch_at

    game, screen = _open(app)
    yield 0.4
    seat = game.turn
    hand = screen.hands[seat]
    a, b = hand.tiles[0], hand.tiles[2]
    events = len(game.record()["events"])
    start = slot(hand, a)
    up = (start[0], start[1] + hand.tile_radius() * 0.7)  # lifted, still over the hand
    dragging = touch_at(*start)
    dragging.touch_down()
    yield
    dragging.touch_move(*up)
    yield
    assert hand._drag is not None and hand._drag["moving"]  # A is on the move
    yield from tap(slot(hand, b))
    assert (hand.rotation(a), hand.rotation(b)) == (0, 1)
    yield from tap(slot(hand, b))
    assert hand.rotation(b) == 2
    dragging.touch_up()
    yield
    assert (hand.rotation(a), hand.rotation(b)) == (0, 2)
    assert screen.provisional is None and a in hand.tiles and b in hand.tiles
    assert len(game.record()["events"]) == events
    return {}


def test_a_tap_on_one_hand_tile_while_another_is_dragged_turns_the_tapped_tile():
    run_scenario("test_ui_tantrix_touch", "scenario_tap_beside_a_dragged_tile", size=(800, 480))


def scenario_disc_tapped_beside_other_fingers(app):
    """Each finger's tap on a plate's disc opens that seat's card, whatever other fingers do: one
    resting on a hand tile, or one that came down on the same plate after it (that one took the
    plate's only record of a finger on its disc, and the tap was lost)."""
    from ui_harness import touch_at

    game, screen = _open(app)
    yield 0.4
    plate, hand = screen.plates[1], screen.hands[game.turn]
    plate.hold_seconds = 30.0  # no long press meanwhile: only the taps open a card
    disc = plate.to_window(*plate.to_parent(*plate.disc_centre))
    body = plate.to_window(*plate.to_parent(plate.width * 0.55, plate.height / 2))
    for second in (slot(hand, hand.tiles[0]), body):
        tapping, resting = touch_at(*disc), touch_at(*second)
        tapping.touch_down()
        yield
        resting.touch_down()
        yield
        tapping.touch_up()
        yield
        assert screen.card is not None and screen.card.seat == 1, second
        resting.touch_up()
        yield
        screen.card.close()
        yield
    assert [seat.robot for seat in game.seats] == [None, None]
    return {}


def test_a_tap_on_a_plates_disc_counts_while_another_finger_rests():
    run_scenario("test_ui_tantrix_touch", "scenario_disc_tapped_beside_other_fingers", size=(800, 480))


def scenario_confirm_message_leaves_its_tile_in_sight(app):
    """A player puts a tile down in a game well under way (2 people flat and upright, 4 flat): the
    message that says it is not played yet, and the Confirm bar, leave that tile in sight (upright
    on the wide panel the message once lay over it, the bar over the rest)."""
    import math

    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    covered = []
    for players, orientation in ((2, "flat"), (4, "flat"), (2, "upright")):
        app.services.settings.orientation = orientation
        game = StrategyGame.new(players, "RYGB"[:players], ["club"] * players, seed=10 + players)
        while len(game.board) < 24:
            robot_move(game)
        for seat in range(players):
            game.set_robot(seat, None)
        screen = strategy_play.open_game(app, game)
        screen.robot_pause = 30.0
        board, layout = screen.board, screen.layout
        yield until(lambda: len(layout.boxes) == players and board.fit_area)
        yield 0.6
        seat, move = game.turn, game.legal()[0]
        screen.put(seat, move)
        banner = layout._banners[seat]
        yield until(lambda: banner.opacity == 1 and screen.confirm_bar.shown)

        def settled():
            (x, y), (sx, sy, _size) = board.window_cell_centre(move.cell), board.settled_cell(move.cell)
            return abs(x - sx) < 0.5 and abs(y - sy) < 0.5

        yield until(settled, 10)
        yield 0.2
        x, y = board.window_cell_centre(move.cell)
        inner = board.size_px * math.sqrt(3) / 2  # the hexagon's inscribed circle
        tile = (x - inner, y - inner, 2 * inner, 2 * inner)
        for name, widget in (("message", banner), ("confirm bar", screen.confirm_bar)):
            if overlap(tile, rect(widget)):
                covered.append((players, orientation, name, tile, rect(widget)))
    assert covered == [], covered
    return {}


def test_the_confirm_message_leaves_its_tile_in_sight_on_the_wide_panel():
    run_scenario("test_ui_tantrix_touch", "scenario_confirm_message_leaves_its_tile_in_sight", size=(1280, 800))


def test_the_confirm_message_leaves_its_tile_in_sight_on_the_7_inch_panel():
    run_scenario("test_ui_tantrix_touch", "scenario_confirm_message_leaves_its_tile_in_sight", size=(800, 480))


def _settled(board, cells):
    """Whether the view's move under way has ended, for ``cells`` at least."""
    return all(abs(a - b) < 0.5 for cell in cells
               for a, b in zip(board.window_cell_centre(cell), board.settled_cell(cell)[:2]))


def _out_of_sight(screen, cells):
    """Of ``cells``, each whose whole space is not on the free table, with what it lies under (a
    hand, a plate, a control) or "off the table"."""
    import math

    board, layout = screen.board, screen.layout

    def rect(widget):
        (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") else (widget.pos, widget.size)
        return x, y, w, h

    def overlap(a, b):
        return a[0] < b[0] + b[2] - 1 and b[0] < a[0] + a[2] - 1 and a[1] < b[1] + b[3] - 1 and b[1] < a[1] + a[3] - 1

    fx, fy, fw, fh = board.fit_area
    inner = board.size_px * math.sqrt(3) / 2
    covers = {f"hand {seat}": box.rect(layout.x, layout.y) for seat, box in enumerate(layout.boxes)}
    covers.update({f"plate {seat}": rect(plate) for seat, plate in enumerate(screen.plates)})
    covers.update({name: rect(getattr(screen, name)) for name in ("leave_button", "bag_label", "view_controls")})
    covers.update({"hint": rect(screen.coach_bar)} if screen.coach_bar.shown else {})
    hidden = []
    for cell in cells:
        x, y = board.window_cell_centre(cell)
        space = (x - inner, y - inner, 2 * inner, 2 * inner)
        if not (fx - 1 <= x - inner and x + inner <= fx + fw + 1 and fy - 1 <= y - inner and y + inner <= fy + fh + 1):
            hidden.append((cell, "off the table"))
        hidden += [(cell, name) for name, area in covers.items() if overlap(space, area)]
    return hidden


def scenario_forced_spaces_in_sight_late_in_the_game(app):
    """Late in a 2-player game on the 7" panel the board is larger than the table at the size
    fingers need: the player who must fill forced spaces finds every one of them on the free
    table, under no hand, plate or control, as soon as the table opens (the view was once centred
    on the board's middle instead, one space under that player's own hand)."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", ["club"] * 2, seed=12)
    while len(game.board) < 48 and game.bag_count > 0:
        robot_move(game)
    for seat in range(2):
        game.set_robot(seat, None)
    forced = game.forced_cells()
    assert forced  # the player to move has spaces to fill
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    board, layout = screen.board, screen.layout
    yield until(lambda: len(layout.boxes) == 2 and board.fit_area)
    yield 0.4
    yield until(lambda: _settled(board, forced), 10)
    hidden = _out_of_sight(screen, forced)
    assert hidden == [], hidden
    return {}


def test_the_forced_spaces_to_fill_lie_on_the_free_table_late_in_the_game():
    run_scenario("test_ui_tantrix_touch", "scenario_forced_spaces_in_sight_late_in_the_game", size=(800, 480))


def _forced_far_apart(app):
    """Four people, 30 tiles down (seed 79): the player to move must fill two forced spaces a
    little further apart than the portrait panel's free table is wide at the size fingers need.
    The table opened, its view settled."""
    from engine.strategy.game import FILL_STEPS, StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(4, "RYGB", ["club"] * 4, seed=79)
    while len(game.board) < 30 or game.step not in FILL_STEPS or len(game.forced_cells()) != 2:
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    board, layout = screen.board, screen.layout
    yield until(lambda: len(layout.boxes) == 4 and board.fit_area)
    yield 0.4
    yield until(lambda: _settled(board, game.forced_cells()), 10)
    return game, screen


def scenario_forced_spaces_further_apart_than_the_table_is_wide(app):
    """Four people, the portrait panel: between the side hands the free table holds seven spaces
    across at the size fingers need (9 mm), and the two forced spaces the player must fill lie a
    little further apart. One lies whole on the free table, the other peeks in from its edge (both
    lay a few pixels under a side plate, the view centred between them); once the first is filled,
    the view moves to the other: it too lies whole on the free table."""
    import math

    game, screen = yield from _forced_far_apart(app)
    board, forced = screen.board, game.forced_cells()
    fx, fy, fw, fh = board.fit_area
    xs = [board.window_cell_centre(cell)[0] for cell in forced]
    assert board.size_px == pytest.approx(board.min_fit_px)  # the tiles no smaller than fingers need
    assert max(xs) - min(xs) + board.size_px * math.sqrt(3) > fw  # the case: the two do not fit side by side
    hidden = _out_of_sight(screen, forced)
    whole = [cell for cell in forced if cell not in {c for c, _ in hidden}]
    assert len(whole) == 1, hidden
    other = next(cell for cell in forced if cell != whole[0])
    x, y = board.window_cell_centre(other)
    assert fx <= x <= fx + fw and fy <= y <= fy + fh, "the other forced space does not show on the table"

    seat = game.turn
    screen.put(seat, next(p for p in game.legal() if p.cell == whole[0]))
    if screen.provisional is not None:
        screen.confirm()
    assert game.turn == seat and other in game.forced_cells()  # still theirs to fill
    yield until(lambda: _settled(board, [other]), 10)
    yield 0.4
    yield until(lambda: _settled(board, [other]), 10)
    assert _out_of_sight(screen, [other]) == [], _out_of_sight(screen, [other])
    return {}


def test_forced_spaces_too_far_apart_for_the_table_are_shown_whole_one_after_the_other():
    run_scenario("test_ui_tantrix_touch", "scenario_forced_spaces_further_apart_than_the_table_is_wide",
                 size=(720, 1280))


def scenario_plates_shield_only_where_they_lie(app):
    """Four people on the portrait panel: a finger over a side plate (turned to face its player)
    is not on the table, and one on the free table beside it is (a point beside a turned plate
    was once taken for one over it, and one over it for the table: a tile let go over the plate
    went onto a space hidden under it)."""
    _game, screen = _open(app, players=4)
    board = screen.board
    yield until(lambda: len(screen.layout.boxes) == 4 and board.fit_area)
    yield 0.4
    for plate in screen.plates:
        (x, y), (w, h) = plate.bbox
        assert not board.on_table((x + w / 2, y + h / 2))
    fx, fy, fw, fh = board.fit_area
    edges = [(fx + 2, fy + fh / 2), (fx + fw - 2, fy + fh / 2), (fx + fw / 2, fy + 2), (fx + fw / 2, fy + fh - 2)]
    assert [board.on_table(point) for point in edges] == [True] * 4
    return {}


def test_a_finger_beside_a_turned_plate_is_on_the_table():
    run_scenario("test_ui_tantrix_touch", "scenario_plates_shield_only_where_they_lie", size=(720, 1280))


def scenario_forced_spaces_out_of_sight_are_cued(app):
    """The same table on each panel: the overview map rings every forced space the player to move
    must fill, and a cue at the table's edge stands for each one out of sight (not wholly on the
    free table: beyond a plate, under a hand) and for no other; a tap on a cue brings one of its
    spaces wholly onto the table, with as many of the others as it holds. Once, nothing told a
    player of a forced space out of sight, nor where it lay."""
    game, screen = yield from _forced_far_apart(app)
    board, controls = screen.board, screen.view_controls
    spaces = game.forced_cells()
    assert len(spaces) >= 2

    def hidden():
        return sorted({cell for cell, _where in _out_of_sight(screen, spaces)})

    def cued():
        return sorted(cell for cue in controls.cues.cues for cell in cue.cells)

    def told_right():
        return _settled(board, spaces) and cued() == hidden()

    yield until(told_right, 10)
    assert sorted(controls.map.forced()) == sorted(spaces)  # the map rings them all
    out = hidden()
    assert out, "the case: some forced space lies out of sight"
    assert controls.map.opacity == 1  # the map shows while any is out of sight
    cues = controls.cues.cues
    assert all(cue.count.text == str(len(cue.cells)) for cue in cues)  # each says how many lie its way
    assert not any(board.on_table(cue.to_window(*cue.center)) for cue in cues)  # a tile let go there goes back
    wanted = list(cues[0].cells)
    yield from tap(cues[0])
    yield until(lambda: _settled(board, spaces), 10)
    yield until(told_right, 10)
    after = hidden()
    assert any(cell not in after for cell in wanted), (wanted, after)
    return {"before": len(out), "after": len(after), "cues after": len(controls.cues.cues)}


def scenario_only_the_forced_spaces_to_fill_are_cued(app):
    """Four people on the portrait panel (seed 37, 28 tiles down): the player to move must fill one
    forced space, and the board outlines another far off that no tile of their hand fits. The view
    centres on the one to fill; the other lies out of sight. No cue points to it nor counts it and
    the map does not ring it (the player cannot fill it: a cue sent them looking for a move they do
    not have), while the board still outlines it."""
    from engine.strategy.game import FILL_STEPS, StrategyGame
    from ui.board_controls import out_of_sight
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(4, "RYGB", ["club"] * 4, seed=37)
    while len(game.board) < 28 or game.step not in FILL_STEPS or not game.forced_cells() or \
            len(game.board.forced_spaces()) == len(game.forced_cells()):
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    must = game.forced_cells()
    outlined = sorted(space.cell for space in game.board.forced_spaces())
    screen = strategy_play.open_game(app, game)
    screen.robot_pause = 30.0
    board, controls = screen.board, screen.view_controls
    yield until(lambda: len(screen.layout.boxes) == 4 and board.fit_area)
    yield 0.4
    yield until(lambda: _settled(board, outlined), 10)
    yield
    unfillable = [cell for cell in out_of_sight(board, [controls.cues]) if cell not in must]
    assert unfillable, "the case: a forced space the player cannot fill lies out of sight"
    cued = sorted(cell for cue in controls.cues.cues for cell in cue.cells)
    assert not set(cued) & set(unfillable), cued
    assert cued == sorted(out_of_sight(board, [controls.cues], must))  # those to fill out of sight: none here
    assert sorted(controls.map.forced()) == sorted(must)
    assert sorted(space.cell for space in board.board.forced_spaces()) == outlined  # the board outlines them all
    return {"must": len(must), "unfillable out of sight": len(unfillable), "cued": len(cued)}


def test_the_cues_count_only_the_forced_spaces_the_player_must_fill():
    seen = run_scenario("test_ui_tantrix_touch", "scenario_only_the_forced_spaces_to_fill_are_cued", size=(720, 1280))
    assert seen["cued"] == 0, seen


def test_forced_spaces_out_of_sight_are_marked_and_a_tap_brings_them_in():
    # the portrait panel: the two spaces to fill lie further apart than its table is wide (the
    # landscape panels hold both: the forced spaces they left out of sight were ones the player
    # could not fill, which no cue points to now)
    seen = run_scenario("test_ui_tantrix_touch", "scenario_forced_spaces_out_of_sight_are_cued", size=(720, 1280))
    assert seen["before"] >= 1, seen


def _board_past_the_free_table(screen):
    """Where the free table shows nothing past the board's edge (its ring of spaces) on one side
    while placed tiles lie out of sight past the other: [(axis, tiles hidden, empty pixels shown)]."""
    import math

    board = screen.board
    fx, fy, fw, fh = board.fit_area
    half_w, half_h = board.size_px * math.sqrt(3) / 2, board.size_px
    centres = [board.window_cell_centre(p.cell) for p in board.board.placements()]
    found = []
    for axis, low, high, half, ring in ((0, fx, fx + fw, half_w, 2 * half_w), (1, fy, fy + fh, half_h, 1.5 * half_h)):
        points = [c[axis] for c in centres]
        before = [p for p in points if p - half < low - 1]  # tiles hidden past the low edge
        after = [p for p in points if p + half > high + 1]
        empty_after = high - (max(points) + half + ring)  # the table shown past the board's ring
        empty_before = (min(points) - half - ring) - low
        if before and empty_after > 1:
            found.append((axis, len(before), round(empty_after)))
        if after and empty_before > 1:
            found.append((axis, len(after), round(empty_before)))
    return found


def scenario_the_board_too_big_for_the_table_shows_tiles_not_empty_table(app):
    """Doubles on the portrait panel (the bench's picture): the board is wider than the free table
    between the side plates at the size fingers need, and the player must fill a forced space. The
    view keeps the forced space whole in sight and, of the board around it, shows tiles rather than
    the empty table: it once centred on the space, the table's right part empty and the left third
    of the board (the other team's latest tile among them) under the left hand and plate."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    for name, colours, seed, doubles in (("doubles", "RY", 13, True), ("4 players", "RYGB", 4, False)):
        game = StrategyGame.new(4, colours, ["club"] * 4, seed=seed, doubles=doubles)
        while len(game.board) < 26:
            robot_move(game)
        for seat in range(4):
            game.set_robot(seat, None)
        forced = game.forced_cells()
        screen = strategy_play.open_game(app, game)
        screen.robot_pause = 30.0
        board, layout = screen.board, screen.layout
        yield until(lambda: len(layout.boxes) == 4 and board.fit_area)
        yield 0.4
        yield until(lambda: _settled(board, forced), 10)
        assert forced and _out_of_sight(screen, forced) == [], (name, _out_of_sight(screen, forced))
        assert _board_past_the_free_table(screen) == [], (name, _board_past_the_free_table(screen))
    return {}


def test_a_board_too_big_for_the_table_shows_its_tiles_around_the_forced_space_not_empty_table():
    run_scenario("test_ui_tantrix_touch", "scenario_the_board_too_big_for_the_table_shows_tiles_not_empty_table",
                 size=(720, 1280))
