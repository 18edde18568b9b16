"""Tantrix (the strategy game) at the kiosk, played by simulated touches and rendered headless: the
setup with Doubles, a whole game against a beginner robot (turns by taps, drags and drops, refusals
in words with their cells, the robot's flights, LED cues, the results with the winning line and the
replay), an obligatory fill and the forced-space review, the real bag with tiles scanned at the
seats, resuming after a power cut, a robot taking a seat over (thinking off the UI thread) and
giving it back; and the "how to play" script checked against the engine."""

from __future__ import annotations

import math
import time

import pytest

from ui_harness import drag, labels, run_scenario, tap, touch_at, until
from engine.strategy.robots import robot_move


# ----------------------------------------------------------------------------- helpers


def finger_for(hand, board, cell):
    """Where a finger must be for the tile it lifts to hover over ``cell`` (window coordinates)."""
    x, y = board.window_cell_centre(cell)
    lift = hand.tile_radius() * 1.3
    a = math.radians(hand.seat_angle)
    return x + math.sin(a) * lift, y - math.cos(a) * lift


def slot(hand, tile):
    return hand.to_window(*hand.slot_centre(hand.tiles.index(tile)))


def reach(hand, board, cell):
    """Where a finger goes to drop on ``cell``; if that, or the cell itself, is not over the open
    table (the cell lies just above a hand, under one, or out of view), first pan the view there,
    as a player would."""
    finger = finger_for(hand, board, cell)
    if not board.takes_drop(finger, board.window_cell_centre(cell)):
        board.look_at(cell, animate=False)
        finger = finger_for(hand, board, cell)
    assert board.takes_drop(finger, board.window_cell_centre(cell)), (cell, finger)
    return finger


def play_by_touch(screen, seat, placement, confirm=True):
    """Turn the tile with taps to the placement's rotation, drag it onto its cell, and (when the
    drop was accepted and ``confirm``) tap the seat's Confirm."""
    hand = screen.hands[seat]
    for _ in range((placement.rot - hand.rotation(placement.tile)) % 6):
        yield from tap(slot(hand, placement.tile))
    assert hand.rotation(placement.tile) == placement.rot
    yield from drag(slot(hand, placement.tile), reach(hand, screen.board, placement.cell))
    if confirm and screen.provisional is not None:
        assert screen.confirm_bar.shown
        yield from tap(screen.confirm_bar.confirm_button)


def settle(screen, seconds=10.0):
    """Wait until no robot is thinking or flying, then put the board where its recentring (animated
    after every new tile) would end, so a finger finds the cells where they will stay."""
    waited = 0.0
    while waited < seconds and (screen.thinking or screen.flying):
        yield 0.05
        waited += 0.05
    screen.board.refit()
    yield


def told(screen, text, now=False):
    """Whether ``text`` is part of a message said on the table (and not yet replaced); ``now``:
    one its player can see now. A message fades after a few seconds, so only a check that it has
    gone asks ``now`` (one that it is there would depend on the machine's speed)."""
    return any(text in t for t in labels(screen.layout, shown=now))


# ----------------------------------------------------------------------------- setup


def scenario_setup(app):
    from engine.strategy.game import StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play, setup as tantrix

    app.open_family("tantrix")
    yield 0.2
    setup = app.manager.current_screen
    assert isinstance(setup, tantrix.TantrixSetupScreen)
    # defaults: two players, a person and a beginner robot; the rules from the table's settings
    assert [s.robot for s in setup.seats] == [None, "beginner"]
    assert setup.choices["end"].value == "first-out" and setup.choices["bag"].value is True
    # three players, each a colour of their own; a tap on a colour gives the next free one
    yield from tap(setup.count.chip(3))
    assert [s.colour.key for s in setup.seats] == ["R", "Y", "G"]
    yield from tap(setup.cards[1].swatch)
    assert [s.colour.key for s in setup.seats] == ["R", "B", "G"]
    # Doubles: four seats, partners opposite sharing a colour, their cards framed in it
    yield from tap(setup.teams_chip)
    assert setup.doubles and len(setup.seats) == 4 and setup.teams_chip.selected and not setup.count.chip(4).selected
    assert [s.colour.key for s in setup.seats] == ["R", "B", "R", "B"]
    assert all(len(card.canvas.after.children) > 0 for card in setup.cards)
    yield from tap(setup.cards[3].swatch)  # one partner changes the team's colour: both follow
    assert [s.colour.key for s in setup.seats] == ["R", "Y", "R", "Y"]
    assert abs(setup._holders[0].rotation - setup._holders[2].rotation) % 360 == 180  # opposite
    yield from tap(setup.cards[1].levels.chip("club"))
    yield from tap(setup.choices["bag"].chip(False))
    # how to play, skipped by a tap, comes back to the setup
    yield from tap(setup.howto_button)
    howto = app.manager.current_screen
    assert howto.name == "tantrix-howto"
    yield 3.6
    assert howto.index >= 1 and howto.caption.text == _(howto.steps[howto.index].caption)
    yield from tap((app.root.width / 2, app.root.height / 2))
    assert app.manager.current == "tantrix-setup"
    setup = app.manager.current_screen
    yield from tap(setup.teams_chip)
    yield from tap(setup.cards[1].levels.chip("club"))
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, strategy_play.StrategyScreen)
    game = screen.game
    assert game.options.doubles and game.options.players == 4 and game.options.end == "first-out"
    assert game.options.physical_bag and [s.colour for s in game.seats] == ["R", "Y", "R", "Y"]
    assert [s.robot for s in game.seats] == [None, "club", None, None]
    assert app.services.store.load_current()["kind"] == "strategy"
    # Doubles: both partners' plates name their team
    yield 0.3
    assert told(screen, _("Red team")) and told(screen, _("Yellow team"))
    screen.leave()
    # Learn's last step: a friendly game against a beginner robot, each step explained as it comes
    learning = app.open("learning-game", seed=7)
    yield
    yield 0.3
    game = learning.game
    assert learning.learning and [s.robot for s in game.seats] == [None, "beginner"]
    assert not game.options.physical_bag and game.turn == 0
    assert told(learning, _(strategy_play.LEARNING_HINTS[game.step]))
    # a power cut: the game comes back still explaining each step (it once came back a plain game)
    app.offer_resume(app.services.store.load_current())
    app.resume()
    yield 0.3
    resumed = app.manager.current_screen
    assert resumed is not learning and isinstance(resumed, strategy_play.StrategyScreen) and resumed.learning
    assert resumed.game.step == game.step and told(resumed, _(strategy_play.LEARNING_HINTS[game.step]))
    resumed.leave()
    # ...and a game started after it, resumed, is a plain one
    plain = strategy_play.open_game(app, StrategyGame.new(2, "RY", [None, "beginner"], seed=7))
    yield 0.3
    app.offer_resume(app.services.store.load_current())
    app.resume()
    yield 0.3
    assert app.manager.current_screen is not plain and not app.manager.current_screen.learning
    app.manager.current_screen.leave()
    return {}


def test_setup_players_colours_doubles_rules_and_how_to_play():
    run_scenario("test_ui_tantrix", "scenario_setup", size=(800, 480),
                 settings={"end_rule": "first-out", "physical_bag": True})


def _players_book(services):
    """The firmware's players book on a SQLite file, as the kiosk has it: a person's card then
    offers a name to pick where it said how the seat plays."""
    import tempfile

    from firmware.players import Players
    from firmware.store import SqliteStore

    services.players = Players(SqliteStore(tempfile.mkdtemp(prefix="tantrix-players-")))


def scenario_doubles_setup_names_the_teams(app):
    """On the kiosk (its players book shows each person card a name to pick, each robot card its
    levels), every Doubles card says which team it plays for, after any change and in any language."""
    from ui.i18n import _, i18n

    app.open_family("tantrix")
    yield 0.2
    setup = app.manager.current_screen
    yield from tap(setup.teams_chip)

    def titles():
        return [card.title.text for card in setup.cards]

    def teams(first, second):
        return [_(f"{first} team"), _(f"{second} team")] * 2

    assert titles() == teams("Red", "Yellow")
    yield from tap(setup.cards[1].kind.chip(False))  # Yellow's robot becomes a person
    yield from tap(setup.cards[3].swatch)  # the team takes the next colour
    assert [s.robot for s in setup.seats] == [None] * 4 and titles() == teams("Red", "Green")
    i18n.language = "fr"
    yield 0.1
    assert titles() == teams("Red", "Green") and titles()[:2] == ["Équipe rouge", "Équipe verte"]
    i18n.language = "en"
    yield from tap(setup.count.chip(4))  # four players on their own: each seat its colour again
    assert titles() == [_("Red"), _("Green"), _("Yellow"), _("Blue")]
    return {}


scenario_doubles_setup_names_the_teams.prepare = _players_book


def test_doubles_setup_cards_name_their_team_on_the_kiosk():
    run_scenario("test_ui_tantrix", "scenario_doubles_setup_names_the_teams", size=(800, 480))


# ----------------------------------------------------------------------------- a whole game


def scenario_whole_game(app):
    """Red (a person, by touch) against a beginner robot, from the opening draw to the results."""
    from engine.board import Placement
    from engine.strategy.game import FILL_STEPS, Step, StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play
    from ui.modes.strategy.board import best_line, score_words
    from ui.refusals import RULE_MESSAGES
    from ui.words import COLOUR_NAMES

    game = StrategyGame.new(2, "RY", [None, "beginner"], seed=11)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = 0.05, 0.15
    news: list[str] = []  # the table-wide news, as it is given: it fades after a few seconds, so
    announce = screen.layout.announce  # news given long before the end is gone by then
    screen.layout.announce = lambda words, said_to=None: (news.append(words()), announce(words, said_to))[-1]
    yield
    yield 0.3
    cues = app.services.devices.cues
    first_cue = len(cues)
    refused = {"golden": False, "fill": False}
    touches = 0
    while not game.finished:
        yield from settle(screen)
        if game.finished:
            break
        assert game.turn == 0, "the robot's turn did not end"
        hand = screen.hands[0]
        assert hand.active and not screen.hands[1].active
        assert screen.plates[0].lit and not screen.plates[1].lit
        assert screen.plates[0].step_label.text in {_(w) for w in (*strategy_play.STEP_WORDS.values(),
                                                                   *strategy_play.FIRST_STEP_WORDS.values(),
                                                                   *strategy_play.SEVERAL_WORDS)}
        legal = game.legal()
        board = game.board
        if not refused["golden"] and game.step is Step.FREE:
            bad = next(((t, c) for t in game.hands[0] for c in board.frontier()
                        if not board.fits(t, c) and not board.is_forced(c)), None)
            if bad is not None:
                tile, cell = bad
                yield from drag(slot(hand, tile), reach(hand, screen.board, cell))
                assert tile in game.hands[0] and cell not in board
                assert told(screen, _(RULE_MESSAGES["golden-rule"]))
                assert screen.board.highlighted and cell in screen.board.highlighted
                refused["golden"] = True
        if not refused["fill"] and game.step in FILL_STEPS:
            elsewhere = next((Placement(t, *c, r) for t in game.hands[0] for c in board.frontier()
                              if not board.is_forced(c) for r in board.fits(t, c)
                              if board.check(Placement(t, *c, r)) is None), None)
            if elsewhere is not None:
                yield from play_by_touch(screen, 0, elsewhere)
                assert elsewhere.cell not in board
                assert told(screen, _(RULE_MESSAGES["must-fill-forced"]))
                assert set(screen.board.highlighted) == set(game.forced_cells())
                refused["fill"] = True
        choice = legal[0]
        before = len(board)
        yield from play_by_touch(screen, 0, choice)
        touches += 1
        assert len(game.board) == before + 1 and game.board.at(choice.cell) == choice, (choice, game.turn)
    assert refused["golden"] and refused["fill"], refused
    # the robot thought off the UI thread, and its tiles flew: every robot placement was shown
    assert len(screen.think_log) == sum(1 for e in game.record()["events"] if e.get("place") == 1)
    # LED cues: the turn went back and forth, and the end lit the winner
    cues = cues[first_cue:]
    turns = [c.turn for c in cues if c.turn is not None]
    assert 0 in turns and 1 in turns and all(c.colours == ("R", "Y") for c in cues)
    assert any(c.pulse for c in cues) and any(c.forced for c in cues) and any(c.bag_empty and c.turn is not None
                                                                               for c in cues)
    result = game.result
    winners = tuple(i for i, s in enumerate(game.seats)
                    if s.colour == result.winner or result.winner is None and s.colour in result.scores
                    and result.scores[s.colour] == max(result.scores.values()))  # a draw: both top scorers
    assert cues[-1].winners == winners and cues[-1].turn is None
    assert _(strategy_play.BAG_EMPTY_NEWS) in news
    # the record is kept, with the robot's result; the journal is cleared
    assert app.services.store.load_current() is None
    record = app.services.store.records("strategy")[0][2]
    assert record["events"] == game.record()["events"]
    assert record["robots"] == {"beginner": "drawn" if result.winner is None else
                                ("won" if result.winner == "Y" else "lost")}
    yield 2.3
    results = app.manager.current_screen
    assert results.name == "strategy-results", results.name
    words = labels(results)
    for colour, score in result.scores.items():
        detail = _("{points} points\n{score}", points=score, score=score_words(game.board, colour))
        assert detail in words, (detail, words)
    headline = _("{name} wins!", name=_(COLOUR_NAMES[result.winner])) if result.winner else _("A draw")
    assert any(headline in t for t in words), words
    # the winning line (or the leaders' lines in a draw) is lit on the final position
    leaders = [result.winner] if result.winner else [c for c, s in result.scores.items()
                                                     if s == max(result.scores.values())]
    assert results.marks.cells == {c for colour in leaders for c in best_line(game.board, colour).cells}
    # the replay steps back and forth
    bar = results.replay_bar
    assert bar.step == bar.replay.steps == len(game.board)
    yield from tap(bar.buttons["first"])
    assert len(bar.replay.view.board) == 0 and not results.marks.cells and bar.caption.text == _("The start")
    yield from tap(bar.buttons["next"])
    first = game.board.placements()[0]
    assert bar.replay.view.board.placements() == [first]
    yield from tap(bar.buttons["last"])
    assert len(bar.replay.view.board) == len(game.board) and results.marks.cells
    yield from tap(bar.buttons["back"])
    assert len(bar.replay.view.board) == len(game.board) - 1
    # play again: the same seats, a new game
    yield from tap(results.again_button)
    again = app.manager.current_screen
    assert isinstance(again, strategy_play.StrategyScreen) and again.game is not game
    assert [s.robot for s in again.game.seats] == [None, "beginner"]
    again.leave()
    return {"touch_placements": touches, "placements": len(game.board)}


def test_a_whole_game_by_touch_against_a_beginner_robot():
    result = run_scenario("test_ui_tantrix", "scenario_whole_game", size=(800, 480), timeout=400)
    assert result["placements"] == 56 and result["touch_placements"] >= 20


# ----------------------------------------------------------------------------- forced spaces


def _forced_position(unseen_fitting=None):
    """A position with a forced space that a tile of Red's hand fills, Red to move; with
    ``unseen_fitting``, exactly that many tiles in the bag fit it too (the others that do are in
    Yellow's hand)."""
    import random

    from engine.strategy.game import StrategyGame
    from engine.strategy.playout import playout

    for seed in range(200):
        board = playout(random.Random(seed), stop_after=18)
        rest = sorted(set(range(1, 57)) - board.placed_tiles())
        board.bag = len(rest) - 12
        spaces = board.forced_spaces()
        if not spaces:
            continue
        fitting = [t for t in rest if board.legal_placements((t,), [spaces[0].cell])]
        kept = len(fitting) - 1 if unseen_fitting is None else unseen_fitting
        if not fitting or not kept < len(fitting) <= kept + 7:
            continue
        others = [t for t in rest if t not in fitting]
        held = fitting[1 + kept:]  # Yellow's: seen by nobody at the table, but not in the bag
        hands = [[fitting[0]] + others[:5], held + others[5:11 - len(held)]]
        bag = others[11 - len(held):] + fitting[1:1 + kept]
        game = StrategyGame.from_position(board, hands, bag, turn=0, colours="RY")
        if game.obligatory():
            return game
    raise AssertionError("no position with a forced space")


def scenario_forced(app):
    from engine.strategy.game import Step
    from ui.i18n import _, n_
    from ui.modes.strategy import play as strategy_play
    from ui.refusals import RULE_MESSAGES

    game = _forced_position()
    screen = strategy_play.open_game(app, game)
    yield  # a frame first: a wait counts from the start of the frame, which the work above took
    yield 0.5
    assert game.step is Step.FILL
    forced = game.forced_cells()
    fill = game.obligatory()[0]
    hand = screen.hands[0]
    assert fill.tile in hand.marked  # the tile that fits is outlined
    # the first time Red is to fill, in plain words (the orange space)
    assert screen.plates[0].step_label.text in (_("Fill the orange forced space"), _("Fill an orange forced space"))
    cue = app.services.devices.cues[-1]
    assert cue.turn == 0 and cue.pulse and cue.forced == len(game.board.forced_spaces()), (cue, app.services.devices.cues)
    # a drop elsewhere is refused in plain words, the forced spaces outlined
    board = game.board
    elsewhere = next(c for c in board.frontier() if not board.is_forced(c) and board.fits(fill.tile, c))
    yield from drag(slot(hand, fill.tile), reach(hand, screen.board, elsewhere))
    assert elsewhere not in board and fill.tile in game.hands[0]
    assert told(screen, _(RULE_MESSAGES["must-fill-forced"]))
    assert set(screen.board.highlighted) == set(forced)
    # tapping a forced space: how many unseen tiles fit it now and in the endgame
    review = next(r for r in game.review() if r.cell == forced[0])
    if not screen.board.on_table(screen.board.window_cell_centre(forced[0])):
        screen.board.look_at(forced[0], animate=False)  # the player pans it into view
    yield from tap(screen.board.window_cell_centre(forced[0]))
    assert screen.bubble.opacity == 1
    assert screen.bubble.text == n_("Forced space: {now} unseen tile fits it now, {later} in the endgame.",
                                    "Forced space: {now} unseen tiles fit it now, {later} in the endgame.",
                                    len(review.fits_now), now=len(review.fits_now), later=len(review.fits_endgame))
    # the fill is accepted
    yield 0.3
    yield from play_by_touch(screen, 0, fill)
    assert board.at(fill.cell) == fill
    assert not told(screen, _(RULE_MESSAGES["must-fill-forced"]), now=True)  # done as asked: the refusal goes
    assert app.services.store.load_current()["state"]["board"] == game.board.to_json()
    # the bag button: the screen's own bag has drawn already
    app.services.devices.press_button()
    yield 0.1
    assert told(screen, _("The table draws for you: your new tile is already in your hand."))
    return {}


@pytest.mark.parametrize("confirm", [True, False], ids=["confirmed", "played-at-once"])
def test_an_obligatory_fill_is_explained_and_accepted_and_a_forced_space_reviewed(confirm):
    run_scenario("test_ui_tantrix", "scenario_forced", size=(800, 480), settings={"confirm_moves": confirm})


def scenario_forced_space_note_counts_in_words(app):
    """A forced space's note says its number of tiles by the language's plural rule: one tile
    ("1 unseen tile fits it", "1 tuile ... y va"), and Polish's three forms (1 płytka, 2-4
    płytki, 5 płytek). It said "1 unseen tiles fit it", "1 tuiles", "1 płytki"."""
    from ui.modes.strategy import play as strategy_play

    said, later = {}, {}
    for language, unseen in (("en", 1), ("fr", 1), ("pl", 1), ("pl", 3), ("pl", 5)):
        app.set_language(language)
        game = _forced_position(unseen)
        screen = strategy_play.open_game(app, game)
        yield
        yield 0.3
        cell = game.forced_cells()[0]
        review = next(r for r in game.review() if r.cell == cell)
        assert len(review.fits_now) == unseen, review
        if not screen.board.on_table(screen.board.window_cell_centre(cell)):
            screen.board.look_at(cell, animate=False)
        yield from tap(screen.board.window_cell_centre(cell))
        yield until(lambda: screen.bubble.opacity == 1)
        said[f"{language} {unseen}"], later[f"{language} {unseen}"] = screen.bubble.text, len(review.fits_endgame)
    app.set_language("en")
    expected = {
        "en 1": "Forced space: 1 unseen tile fits it now, {later} in the endgame.",
        "fr 1": "Espace Forcé : 1 tuile encore cachée y va maintenant, {later} en phase finale.",
        "pl 1": "Miejsce przymusu: pasuje tu teraz 1 nieodkryta płytka, w końcówce gry {later}.",
        "pl 3": "Miejsce przymusu: pasują tu teraz 3 nieodkryte płytki, w końcówce gry {later}.",
        "pl 5": "Miejsce przymusu: pasuje tu teraz 5 nieodkrytych płytek, w końcówce gry {later}.",
    }
    assert said == {key: text.format(later=later[key]) for key, text in expected.items()}, said
    return said


def test_a_forced_space_note_says_its_count_in_the_language_s_plural():
    run_scenario("test_ui_tantrix", "scenario_forced_space_note_counts_in_words", size=(800, 480))


def test_the_how_to_play_script_shows_legal_play():
    from engine.board import Board, Rule
    from ui.modes.strategy import howto as h
    from ui.modes.strategy.board import best_line

    board = Board(bag=40)
    for placement in (h.OPENING, h.SECOND):
        assert board.check(placement) is None
        board.push(placement)
    assert board.check(h.REFUSED).rule is Rule.GOLDEN_RULE and not board.fits(h.REFUSED.tile, h.REFUSED.cell)
    board.push(h.MAKES_FORCED)
    assert [s.cell for s in board.forced_spaces()] == [h.FORCED_CELL] and h.FILL.cell == h.FORCED_CELL
    for placement in (h.FILL, h.FREE):
        assert board.check(placement) is None
        board.push(placement)
    assert not board.forced_spaces()
    tiles = [t for hand in h.HANDS for t in hand] + [h.DRAWN]
    assert len(tiles) == len(set(tiles)) == 13 and all(len(hand) == 6 for hand in h.HANDS)
    loop = Board(bag=30)
    for placement in h.LOOP_POSITION:
        assert loop.check(placement) is None
        loop.push(placement)
    green, red = best_line(loop, h.LOOP_COLOUR), best_line(loop, h.LINE_COLOUR)
    assert green.loop and green.length == 7 and loop.score("G") == 14
    assert not red.loop and red.length == 5 == loop.score("R")


def test_best_line_is_what_the_score_counts():
    import random

    from engine.strategy.playout import playout
    from ui.modes.strategy.board import best_line

    for seed in range(6):
        board = playout(random.Random(seed))
        for colour in "RYGB":
            line = best_line(board, colour)
            assert line.length * (2 if line.loop else 1) == board.score(colour)


# ----------------------------------------------------------------------------- the real bag


def scenario_real_bag(app):
    from engine.strategy.game import Phase, StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", [None, None], physical_bag=True)
    screen = strategy_play.open_game(app, game)
    devices = app.services.devices
    yield
    yield 0.4
    assert game.phase is Phase.OPENING and game.awaiting_draw == 0
    assert screen.plates[0].lit and screen.plates[0].step_label.text == _("Draw a tile and scan it")
    assert app.services.devices.cues[-1].turn == 0
    # the bag button prompts the player who owes a draw
    devices.press_button()
    yield 0.1
    assert told(screen, _("Draw a tile from the bag and scan it at your seat."))
    # Red scans tile 30 at their seat: it is in their hand
    devices.scan(30, 0)
    yield 0.1
    assert game.hands[0] == [30] and screen.hands[0].tiles == [30]
    assert told(screen, _("Tile {tile} is in your hand.", tile=30))
    # the same tile again, now at Yellow's seat: refused, facing Yellow
    devices.scan(30, 1)
    yield 0.1
    assert game.hands[1] == [] and told(screen, _("Tile {tile} is not in the bag: draw another one.", tile=30))
    # Red scans while Yellow owes the draw: told whose draw it is
    devices.scan(12, 0)
    yield 0.1
    assert game.hands == [[30], []] and told(screen, _("{name} draws now, not you.", name=_("Yellow")))
    # the opening draw and the deal by scans; the higher number (Red's 30) starts
    tiles = iter(t for t in range(1, 57) if t != 30)
    while game.phase is not Phase.PLAY:
        devices.scan(next(tiles), game.awaiting_draw)
        yield
    assert game.turn == 0 and game.starter == 0 and [len(h) for h in game.hands] == [6, 6]
    assert screen.hands[0].tiles == game.hands[0]
    yield 0.4
    # Red places a tile by touch; the screen then waits for Red's draw
    first = game.legal()[0]
    yield from play_by_touch(screen, 0, first)
    assert game.board.at(first.cell) == first and game.awaiting_draw == 0
    assert not screen.hands[0].active
    assert screen.plates[0].step_label.text == _("Draw a tile and scan it")
    assert told(screen, _("Draw a tile from the bag and scan it at your seat."))
    # a tile already on the table is refused
    devices.scan(first.tile, 0)
    yield 0.1
    assert game.awaiting_draw == 0 and told(screen, _("Tile {tile} is not in the bag: draw another one.",
                                                       tile=first.tile))
    drawn = next(tiles)
    devices.scan(drawn, 0)
    yield 0.1
    assert drawn in game.hands[0] and drawn in screen.hands[0].tiles and game.awaiting_draw is None
    assert screen.hands[game.turn].active and not screen.hands[1 - game.turn].active
    # the journal holds the game as it stands
    assert app.services.store.load_current()["state"]["hands"] == game.hands
    return {}


def test_the_real_bag_tiles_scanned_at_the_seats():
    run_scenario("test_ui_tantrix", "scenario_real_bag", size=(800, 480))


class HeldRobot:
    """A robot that thinks only once ``go`` is set: the table waits on it for as long as a test needs."""

    def __init__(self, robot):
        import threading

        self.robot, self.go = robot, threading.Event()

    def choose(self, view, rng):
        self.go.wait(timeout=300)  # a safety cap: a failed scenario never sets it
        return self.robot.choose(view, rng)


def scenario_drawing_for_a_robot(app):
    """A person and a robot with the real bag: every draw the robot owes is asked of the person
    (facing them, never the robot's empty chair), a scan at the robot's own reader counts, and the
    person is told whose hand the tile went to."""
    from engine.strategy.game import Phase, StrategyGame
    from engine.strategy.robots import make_robot
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", [None, "beginner"], physical_bag=True)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = 0.05, 0.1
    devices, banners = app.services.devices, screen.layout._banners
    for_robot = _("Draw a tile from the bag for {name} and scan it.", name=_("Yellow"))
    yield 0.3
    devices.scan(50, 0)
    yield until(lambda: game.awaiting_draw == 1)
    assert banners[0].label.text == for_robot and for_robot not in banners[1].label.text
    devices.scan(1, 0)
    yield until(lambda: 1 in game.hands[1])
    tiles = iter(range(2, 50))
    while game.phase is not Phase.PLAY:
        devices.scan(next(tiles), 0)
        yield
    yield 0.3
    held = screen.robots["beginner"] = HeldRobot(make_robot("beginner"))
    yield from play_by_touch(screen, 0, game.legal()[0])
    devices.scan(next(tiles), 0)
    yield until(lambda: screen.thinking and game.turn == 1)
    devices.press_button()  # while the robot thinks: the person is told to wait, not to place a tile
    waiting = _("{name} is playing now: wait for its tile.", name=_("Yellow"))
    yield until(lambda: banners[0].label.text == waiting)
    assert waiting not in banners[1].label.text and game.turn == 1 and game.awaiting_draw is None
    held.go.set()
    yield until(lambda: game.awaiting_draw == 1)  # the robot placed its tile: its draw is owed
    assert banners[0].label.text == for_robot
    devices.press_button()
    yield 0.1
    assert banners[0].label.text == for_robot and for_robot not in banners[1].label.text
    assert devices.cues[-1].turn == 1 and not devices.cues[-1].pulse
    drawn = next(tiles)
    devices.scan(drawn, 1)  # at the robot's reader: nobody sits there, whoever draws for it uses it
    yield until(lambda: drawn in game.hands[1])
    assert banners[0].label.text == _("Tile {tile} is in {name}'s hand.", tile=drawn, name=_("Yellow"))
    return {}


def test_a_person_is_asked_to_draw_for_a_robot_facing_them():
    run_scenario("test_ui_tantrix", "scenario_drawing_for_a_robot", size=(800, 480))


def scenario_doubles_partner_named_as_partner(app):
    """Doubles with the real bag: said to a player, their partner is named as their partner (the
    team's name alone names the listener's own team: "Red team draws now, not you", said to Red)."""
    from engine.strategy.game import StrategyGame
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play

    red = _("Red team")
    partner = _("{name} (your partner)", name=red)
    # four people: Red's partner scans while Red owes the opening draw
    game = StrategyGame.new(4, "RY", [None] * 4, doubles=True, physical_bag=True)
    screen = strategy_play.open_game(app, game)
    devices, banners = app.services.devices, screen.layout._banners
    yield 0.3
    assert game.awaiting_draw == 0
    devices.scan(30, 2)
    yield until(lambda: bool(banners[2].label.text))
    assert game.hands[2] == [] and banners[2].label.text == _("{name} draws now, not you.", name=partner)
    screen.leave()
    # Red, a person, with a robot partner against two robots: Red draws for the partner
    game = StrategyGame.new(4, "RY", [None, "beginner", "beginner", "beginner"], doubles=True, physical_bag=True)
    screen = strategy_play.open_game(app, game)
    devices, banners = app.services.devices, screen.layout._banners
    yield 0.3
    devices.scan(50, 0)
    devices.scan(49, 0)  # for Yellow's robot
    yield until(lambda: game.awaiting_draw == 2)
    assert banners[0].label.text == _("Draw a tile from the bag for {name} and scan it.", name=partner)
    return {}


def test_doubles_partners_are_named_as_partners_not_as_the_listeners_own_team():
    run_scenario("test_ui_tantrix", "scenario_doubles_partner_named_as_partner", size=(800, 480))


def bag_game_down_to(tiles_left):
    """A two-person game with the real bag, played by the engine until the bag holds ``tiles_left``
    and no draw is owed."""
    from engine.strategy.game import StrategyGame

    game = StrategyGame.new(2, "RY", [None, None], physical_bag=True)
    while game.bag_count > tiles_left or game.awaiting_draw is not None:
        if game.awaiting_draw is not None:
            game.report_draw(game.unseen()[-1])
        else:
            game.place(game.legal()[0])
    return game


def scenario_the_real_bag_says_what_to_do(app):
    """What the table says when the bag is used at the wrong moment: a tile drawn before Confirm,
    a tag it does not know, the button once the bag is empty; nothing is drawn meanwhile."""
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play
    from ui.services import UnknownTag

    game = bag_game_down_to(1)
    screen = strategy_play.open_game(app, game)
    devices, banners = app.services.devices, screen.layout._banners
    yield 0.4
    seat, last = game.turn, game.unseen()[0]
    yield from play_by_touch(screen, seat, game.legal()[0], confirm=False)
    assert screen.provisional is not None
    devices.press_button()
    yield until(lambda: banners[seat].label.text == _("Tap Confirm first, then draw from the bag."))
    devices.scan(last, seat)
    yield until(lambda: banners[seat].label.text == _("Tap Confirm first, then scan tile {tile} again.", tile=last))
    assert last not in game.hands[seat]
    app.post(UnknownTag("0A1B2C3D4E", seat))
    yield until(lambda: banners[seat].label.text == _("The table does not know this tile's tag: ask staff to "
                                                      "teach it (staff menu, Tag enrolment)."))
    yield from tap(screen.confirm_bar.confirm_button)
    assert game.awaiting_draw == seat
    devices.scan(last, seat)
    yield until(lambda: game.bag_count == 0)
    devices.press_button()
    yield until(lambda: banners[game.turn].label.text == _("The bag is empty: no more tiles are drawn."))
    return {}


def test_the_real_bag_says_what_to_do_at_the_wrong_moment():
    run_scenario("test_ui_tantrix", "scenario_the_real_bag_says_what_to_do", size=(800, 480))


# ----------------------------------------------------------------------------- resuming


def scenario_resume(app):
    """A game journaled after some moves by touch, restored as after a power cut: exactly as it was;
    a restored robot's turn goes on, and a restored draw owed is asked again."""
    from engine.strategy.game import StrategyGame
    from engine.modes import restore
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play
    from ui.modes import resume_factory

    game = StrategyGame.new(2, "GB", [None, None], seed=5)
    screen = strategy_play.open_game(app, game)
    yield
    yield 0.4
    for _move in range(4):
        seat = game.turn
        yield from play_by_touch(screen, seat, game.legal()[0])
        yield 0.4
    saved = app.services.store.load_current()
    restored = restore(saved)
    factory = resume_factory("strategy")
    again = factory(app, restored)
    app.show(again)
    yield 0.3
    assert isinstance(again, strategy_play.StrategyScreen) and again.game is restored
    assert restored.to_json() == game.to_json()
    assert again.board.board.placements() == game.board.placements()
    assert [h.tiles for h in again.hands] == game.hands
    assert (restored.turn, restored.step) == (game.turn, game.step)
    assert again.plates[restored.turn].lit
    # the app's own resume path: a robot to move plays on
    robot_game = StrategyGame.new(2, "RY", ["beginner", "beginner"], seed=8)
    robot_move(robot_game)
    app.offer_resume({"kind": "strategy", "state": robot_game.to_json()})
    yield 0.2
    app.resume()
    played = app.manager.current_screen
    played.robot_pause, played.flight_seconds = 0.05, 0.1
    for _wait in range(40):
        yield 0.1
        if len(played.game.board) > len(robot_game.board):
            break
    assert len(played.game.board) > len(robot_game.board)
    played.leave()
    # a draw owed with the real bag is asked again (here for a robot: someone draws for it)
    bag_game = StrategyGame.new(2, "RY", ["beginner", None], physical_bag=True)
    for tile in (40, 3):
        bag_game.report_draw(tile)
    app.offer_resume({"kind": "strategy", "state": bag_game.to_json()})
    yield 0.2
    app.resume()
    yield 0.3
    waiting = app.manager.current_screen
    due = bag_game.awaiting_draw
    assert waiting.game.awaiting_draw == due and waiting.plates[due].step_label.text == _("Draw a tile and scan it")
    assert due == 0 and told(waiting, _("Draw a tile from the bag for {name} and scan it.", name=_("Red")))
    return {}


def test_a_restored_game_opens_exactly_as_it_was():
    run_scenario("test_ui_tantrix", "scenario_resume", size=(1280, 800))


# ----------------------------------------------------------------------------- robots


def scenario_drawn_ending_lights(app):
    """The last tile of a drawn game (15 to 15), placed on the table by its robot: both seats placed
    first light their rings, as the results list both first."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", ["beginner"] * 2, seed=6)
    while len(game.board) < 55:
        robot_move(game)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = 0.05, 0.1
    yield until(lambda: game.finished)
    assert game.result.winner is None and set(game.result.scores.values()) == {15}
    yield until(lambda: app.services.devices.cues and app.services.devices.cues[-1].winners)
    assert app.services.devices.cues[-1].winners == (0, 1)
    return {}


def test_a_drawn_game_lights_both_first_placed_seats():
    run_scenario("test_ui_tantrix", "scenario_drawn_ending_lights", size=(800, 480))


FRAMES = 5
"""How many frames the UI draws while the takeover's robot thinks (at least)."""


class AfterFrames:
    """A robot that chooses as ``inner`` does once ``FRAMES`` more frames are counted in
    ``drawn`` (by the Kivy clock), or after 30 s without them (then the scenario's check fails)."""

    def __init__(self, inner, drawn, frames):
        self.name, self.inner, self.drawn, self.frames = inner.name, inner, drawn, frames

    def choose(self, view, rng):
        start, deadline = self.drawn[0], time.monotonic() + 30
        while self.drawn[0] < start + self.frames and time.monotonic() < deadline:
            time.sleep(0.005)
        return self.inner.choose(view, rng)


def scenario_takeover(app):
    """Yellow leaves: an expert robot takes the seat over (it thinks while the UI keeps drawing),
    then Yellow comes back and takes the seat back."""
    from kivy.clock import Clock

    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot
    from ui.i18n import _
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", [None, None], seed=21)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = 0.05, 0.2
    # The expert answers only once the UI has drawn FRAMES more frames: on the UI thread it would
    # wait for ever (and answer nothing), however fast the machine is.
    frames_drawn = [0]
    Clock.schedule_interval(lambda _dt: frames_drawn.__setitem__(0, frames_drawn[0] + 1), 0)
    screen.robots["expert"] = AfterFrames(make_robot("expert"), frames_drawn, FRAMES)
    yield
    yield 0.4
    while game.turn != 1:
        yield from play_by_touch(screen, game.turn, game.legal()[0])
        yield 0.4
    # hold Yellow's plate: the card facing Yellow
    plate = screen.plates[1]
    (px, py), (pw, ph) = plate.bbox
    finger = touch_at(px + pw / 2, py + ph / 2)
    finger.touch_down()
    yield until(lambda: screen.card is not None)  # held long enough: the card opens
    finger.touch_up()
    card = screen.card
    assert card is not None and card.rotation == screen.layout.boxes[1].angle
    yield from tap(card.choices.chip("expert"))
    assert game.seats[1].robot == "expert" and screen.card is None
    assert told(screen, _("A robot ({level}) plays for {name} now. Hold the name to take the seat back.",
                          level=_("Expert"), name=_("Yellow")))
    for _wait in range(80):
        yield 0.1
        if game.turn == 0 and not screen.thinking and not screen.flying:
            break
    assert game.turn == 0 and screen.think_log
    # while the expert thought, the UI kept drawing frames
    assert all(frames >= FRAMES - 1 for _seconds, frames in screen.think_log), screen.think_log
    assert {"seat": 1, "robot": "expert"} in game.record()["events"]
    # Yellow takes the seat back
    finger = touch_at(px + pw / 2, py + ph / 2)
    finger.touch_down()
    yield until(lambda: screen.card is not None)
    finger.touch_up()
    yield from tap(screen.card.choices.chip(None))
    assert game.seats[1].robot is None and game.record()["events"][-1] == {"seat": 1, "robot": None}
    while game.turn == 0:
        yield from play_by_touch(screen, 0, game.legal()[0])
        yield 0.4
    yield 0.5
    assert game.turn == 1 and not screen.thinking and screen.hands[1].active  # a person plays Yellow again
    return {"thoughts": screen.think_log}


def test_a_robot_takes_a_seat_over_thinking_off_the_ui_thread_and_gives_it_back():
    result = run_scenario("test_ui_tantrix", "scenario_takeover", size=(800, 480))
    assert result["thoughts"]


def test_the_results_say_what_time_penalties_took_off_and_gave():
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy.board import score_words
    from ui.modes.strategy.results import standings, time_note

    game = StrategyGame.new(2, "RY", ["beginner"] * 2, seed=3)
    game.time_penalty(0)  # Red passed the limit, and a minute more: 2 off, 2 to Yellow (two sides)
    game.time_penalty(0)
    while not game.finished:
        robot_move(game)
    red, yellow = game.board.score("R"), game.board.score("Y")
    assert game.result.scores == {"R": red - 2, "Y": yellow + 2}
    rows = {row.name: row.detail for row in standings(game)}
    assert rows["Red"] == f"{red - 2} points (-2)\n{score_words(game.board, 'R')}"
    assert rows["Yellow"] == f"{yellow + 2} points (+2)\n{score_words(game.board, 'Y')}"
    assert time_note(game) == "In brackets: time penalties."
    calm = StrategyGame.new(2, "RY", ["beginner"] * 2, seed=3)
    while not calm.finished:
        robot_move(calm)
    assert "(" not in "".join(row.detail for row in standings(calm)) and time_note(calm) is None


def test_the_line_traced_at_the_end_is_never_that_of_a_player_out_of_time():
    from engine.strategy.game import Result, StrategyGame
    from ui.modes.strategy.results import winning_lines

    game = StrategyGame.new(3, "RYG", ["beginner"] * 3, seed=4)
    while len(game.board) < 24:
        robot_move(game)
    leader = max("RYG", key=game.board.score)
    game.time_out("RYG".index(leader))
    others = [c for c in "RYG" if c != leader]
    game.result = Result("time", {leader: 20, others[0]: 5, others[1]: 5}, None)  # the two others tied
    assert {line.colour for line in winning_lines(game)} == set(others)


def test_robot_results_for_the_staff_statistics():
    from engine.strategy.game import Result, StrategyGame
    from ui.modes.strategy.results import finished_record, robot_outcomes

    game = StrategyGame.new(3, "RYG", ["club", "beginner", "club"], seed=1)
    game.result = Result("all-placed", {"R": 3, "Y": 9, "G": 4}, "Y")
    assert robot_outcomes(game) == {"club": "lost", "beginner": "won"}
    game.result = Result("all-placed", {"R": 3, "Y": 9, "G": 9}, "G")
    assert robot_outcomes(game) == {"club": "won", "beginner": "lost"}  # a level counts its better seat
    game.result = Result("deadlock", {"R": 3, "Y": 3, "G": 3}, None)
    assert finished_record(game)["robots"] == {"club": "drawn", "beginner": "drawn"}
    timed = StrategyGame.new(3, "RYG", ["expert", "beginner", "club"], seed=1)
    timed.time_out(0)  # the expert's time ran out while it led; the two others tied
    timed.result = Result("time", {"R": 12, "Y": 5, "G": 5}, None)
    assert robot_outcomes(timed) == {"expert": "lost", "beginner": "drawn", "club": "drawn"}


def scenario_flight_follows_the_board(app):
    """A robot's tile is in flight while a person pans the table with a finger and zooms it with +:
    the flying tile lands where its cell is drawn when it lands, at the board's tile size (it flew
    to where the cell lay when it took off, so it ended in empty space and the real tile appeared
    elsewhere)."""
    from engine.strategy.game import StrategyGame
    from ui.howto import TileSprite
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", ["beginner", "beginner"], seed=5)
    while game.turn != 1 or len(game.board) < 4:
        robot_move(game)
    game.set_robot(0, None)
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = 0.05, 4.0
    yield until(lambda: screen.flying)
    sprite = next(w for w in screen.overlay.children if isinstance(w, TileSprite))
    drawn = []
    sprite.bind(cx=lambda *_: drawn.append((*sprite.to_window(sprite.cx, sprite.cy), sprite.radius)),
                cy=lambda *_: drawn.append((*sprite.to_window(sprite.cx, sprite.cy), sprite.radius)))
    board = screen.board
    placed = len(game.board)
    fx, fy, fw, fh = board.fit_area
    yield from drag((fx + fw * 0.3, fy + fh * 0.5), (fx + fw * 0.3 + 90, fy + fh * 0.5 + 40))
    yield from tap(screen.view_controls.zoom_in)
    assert screen.flying and board.moved_by_player, "the flight ended before the board was moved"
    yield until(lambda: len(game.board) > placed)
    move = game.board.placements()[-1]
    x, y = board.window_cell_centre(move.cell)
    last_x, last_y, radius = drawn[-1]
    assert math.dist((last_x, last_y), (x, y)) < 2, ((last_x, last_y), (x, y))
    assert abs(radius - board.size_px) < 1, (radius, board.size_px)
    return {}


def test_a_robots_flying_tile_follows_the_board_panned_and_zoomed_in_flight():
    run_scenario("test_ui_tantrix", "scenario_flight_follows_the_board", size=(800, 480))
