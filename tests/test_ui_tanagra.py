"""Tanagra at the kiosk, played by simulated touches and rendered headless: building by touch with
the pawn size chosen, refusals in words, picking a pawn and its destinations, a move, the board
change, a robot's reply (thought on a worker thread), undo, LED cues, the journal, the end with its
reason and the replay; and the "how to play" script, checked against the referee."""

from __future__ import annotations

import math

import pytest

from ui_harness import Pixels, labels, run_scenario, tap


def _window_point(screen, cell):
    return screen.board.to_window(*screen.board.cell_point(cell))


def _journal_matches(app, game):
    from engine.modes import restore

    return restore(app.services.store.load_current()).to_json() == game.to_json()


def scenario_build(app):
    """Two players, black a person, yellow a beginner robot: triangles put down by touch."""
    from engine.tanagra.rules import Pawn, Phase, Size
    from ui.i18n import _
    from ui.modes.tanagra import play as tanagra

    app.open_family("tanagra")
    yield 0.2
    setup = app.manager.current_screen
    assert setup.name == "tanagra-setup" and [s.robot for s in setup.seats] == [None, "beginner"]
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, tanagra.TanagraScreen) and screen.game.seats == ["person", "robot:beginner"]
    screen.robot_pause = 0.05
    yield 0.2
    assert app.services.devices.cues[-1].turn == 0
    # the spots where a triangle may go are drawn; the first goes in the middle
    assert sorted(screen.board.spots) == sorted(screen.state.placements())
    yield from tap(_window_point(screen, (1, 0, 0)))  # not in the middle: refused, in words
    assert screen.message.text == _(tanagra.WORDS["first-in-middle"]), screen.message.text
    assert len(screen.game.actions) == 0
    # choose the small pawn by touch, then put the triangle down
    yield from tap(screen.sizes.chip(Size.SMALL))
    first = screen.state.placements()[0]
    yield from tap(_window_point(screen, first))
    assert screen.game.actions[0].centre == first and screen.state.pawns[first] == Pawn(0, Size.SMALL)
    assert _journal_matches(app, screen.game)
    for _wait in range(40):  # the robot answers with a triangle of its own
        yield 0.1
        if len(screen.game.actions) == 2 and not screen.board.animating:
            break
    assert len(screen.game.actions) == 2 and screen.game.turn == 0
    assert [c.turn for c in app.services.devices.cues[-2:]] == [1, 0]
    # a spot that would overlap the first triangle is refused with its rule
    yield from tap(_window_point(screen, first))
    assert screen.message.text in (_(tanagra.WORDS["overlap"]), _(tanagra.WORDS["no-contact"]))
    # a finger resting on a legal spot shows the triangle's outline in green
    spot = screen.state.placements()[0]
    screen.hover(spot)
    assert screen.board.preview == (spot, True)
    yield from tap(_window_point(screen, spot))
    assert len(screen.game.actions) == 3 and screen.state.pawns[spot].size is Size.SMALL  # as chosen before
    assert Pixels(app.root).digest()
    assert screen.game.phase is Phase.BUILD
    board, panel = screen.board, screen.panel
    return {"actions": len(screen.game.actions), "board": [board.x, board.y, board.width, board.height],
            "panel": [panel.x, panel.y, panel.width, panel.height]}


@pytest.mark.parametrize("size", [(1280, 800), (720, 1280)], ids=["landscape", "portrait"])
def test_building_by_touch_with_sizes_refusals_and_a_robot(size):
    result = run_scenario("test_ui_tanagra", "scenario_build", size=size)
    assert result["actions"] == 3
    (bx, by, bw, bh), (px, py, pw, ph) = result["board"], result["panel"]
    if size[1] > size[0]:  # portrait: the panel is a band above the board, which keeps the whole width
        assert bw == size[0] and pw == size[0] and py >= by + bh and bh > size[1] / 2
    else:  # the panel is a column on the right
        assert px >= bx + bw and ph == size[1] and bw > size[0] / 2


def scenario_move(app):
    """From a position a few moves in (black a person, yellow a robot): pick, see, move, change,
    the robot's reply, a refusal, undo."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import Leave, Move, Phase, Relocate
    from ui.i18n import _
    from ui.modes.tanagra import play as tanagra
    from ui.tanagra_board import destination_kinds

    game = Game(tanagra.HOWTO_OPTIONS, ["person", "robot:beginner"], start=tanagra.howto_position())
    screen = tanagra.TanagraScreen(app, game, robot_seed=3)
    screen.robot_pause = 0.05
    app.show(screen)
    yield 0.2
    start = game.state.to_json()
    # a pawn of the opponent is not ours
    yield from tap(_window_point(screen, (2, 2, -2)))
    assert screen.message.text == _(tanagra.WORDS["not-your-pawn"])
    # pick a pawn: its destinations are shown, steps, jumps and captures told apart
    origin = tanagra.HOWTO_TAKE.origin
    yield from tap(_window_point(screen, origin))
    assert screen.selected == origin
    marks = dict(screen.board.destinations)
    assert marks == dict(destination_kinds(game.state, origin))
    assert marks[tanagra.HOWTO_TAKE.target] == "capture" and marks[tanagra.HOWTO_JUMP.target] == "jump"
    assert "step" in marks.values()
    # a cell it cannot reach: refused with the rule
    yield from tap(_window_point(screen, (-1, -2, 4)))
    assert screen.message.text == _(tanagra.WORDS["not-reachable"]), screen.message.text
    # a pawn it may not take: worded from the pawns (a big black pawn takes only big yellow ones)
    small_yellow = next(c for c, p in game.state.pawns.items() if p.owner == 1 and p.size == "small"
                        and game.check(Move(origin, c)) is not None and game.check(Move(origin, c)).rule == "cannot-take")
    yield from tap(_window_point(screen, small_yellow))
    assert screen.message.text == _("A big black pawn takes only big yellow pawns."), screen.message.text
    # a move that empties a triangle: Leave / Move / Remove are offered
    yield from tap(_window_point(screen, tanagra.HOWTO_EMPTY.origin))
    yield from tap(_window_point(screen, tanagra.HOWTO_EMPTY.target))
    yield 0.7
    assert game.phase is Phase.CHANGE and game.pending_change is not None
    assert screen.leave_it.parent is not None and screen.remove_it.parent is not None
    assert _journal_matches(app, game)
    yield from tap(screen.move_it)
    spots = game.state.placements(lifted=game.pending_change)
    assert sorted(screen.board.spots) == sorted(spots)
    target = spots[len(spots) // 2]
    yield from tap(_window_point(screen, target))
    for _wait in range(50):  # the triangle slides over, then the robot answers
        yield 0.1
        if game.turn == 0 and not screen.board.animating and len(game.actions) >= 3:
            break
    assert isinstance(game.actions[1], Relocate) and game.actions[1].centre == target
    assert game.turn == 0 and len(game.actions) >= 3, game.actions
    assert _journal_matches(app, game)
    assert [c.turn for c in app.services.devices.cues if c.turn is not None][-2:] == [1, 0]
    # undo takes back the robot's turn and ours: the start position again
    yield from tap(screen.undo_button)
    assert game.actions == [] and game.state.to_json() == start
    assert _journal_matches(app, game)
    # the board change "leave it" by touch, in French
    app.set_language("fr")
    yield from tap(_window_point(screen, tanagra.HOWTO_EMPTY.origin))
    yield from tap(_window_point(screen, tanagra.HOWTO_EMPTY.target))
    yield 0.7
    assert "Le laisser" in labels(screen.panel), labels(screen.panel)
    yield from tap(screen.leave_it)
    assert isinstance(game.actions[1], Leave)
    return {"moves": len(game.actions)}


def test_pick_a_pawn_move_change_the_board_robot_reply_and_undo():
    run_scenario("test_ui_tanagra", "scenario_move", size=(800, 480))


def open_one_take_from_the_end(app, kinds):
    """A Tanagra game whose yellow has one big pawn left, which black's ``HOWTO_TAKE`` takes
    (the end), open on its screen: the game and the screen."""
    from engine.tanagra.game import Game
    from ui.modes.tanagra import play as tanagra

    start = tanagra.howto_position()
    for cell, pawn in list(start.pawns.items()):
        if pawn.owner == 1 and pawn.size == "big" and cell != tanagra.HOWTO_TAKE.target:
            del start.pawns[cell]
    game = Game(tanagra.HOWTO_OPTIONS, kinds, start=start)
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    return game, screen


def scenario_end(app):
    """Black takes yellow's last big pawn: the end, with the reason, and the replay."""
    from engine.tanagra.rules import EndReason
    from ui.i18n import _
    from ui.modes.tanagra import play as tanagra

    game, screen = open_one_take_from_the_end(app, ["person", "robot:expert"])
    pawns_at_start = len(game.state.pawns)
    yield 0.2
    yield from tap(_window_point(screen, tanagra.HOWTO_TAKE.origin))
    yield from tap(_window_point(screen, tanagra.HOWTO_TAKE.target))
    yield 0.7
    assert game.result == (0, EndReason.SIZE_TAKEN)
    assert app.services.devices.cues[-1].winners == (0,)
    assert app.services.store.load_current() is None
    assert app.services.store.records("tanagra")[0][2] == game.to_json()
    yield 1.8
    results = app.manager.current_screen
    assert results.name == "tanagra-results", results.name
    words = labels(results)
    assert any(_("{name} wins!", name=_("Black")) in t for t in words), words
    assert any(_(tanagra.ENDINGS[EndReason.SIZE_TAKEN], name=_("Black")) in t for t in words)
    bar = results.replay_bar
    assert bar.step == bar.replay.steps == 1
    yield from tap(bar.buttons["back"])
    assert bar.step == 0 and len(bar.replay.frames[0][0].pawns) == pawns_at_start
    yield from tap(bar.buttons["next"])
    assert bar.caption.text == _("{name} took a pawn", name=_("Black"))
    return {}


def test_the_end_names_the_winner_and_reason_and_replays():
    run_scenario("test_ui_tanagra", "scenario_end", size=(1280, 800))


def test_the_how_to_play_script_shows_legal_play():
    from engine.tanagra.rules import Move, Place, Remove, State

    from ui.modes.tanagra import play as tanagra

    state = State(tanagra.HOWTO_OPTIONS)
    for centre, size in tanagra.HOWTO_BUILD:
        state.apply(Place(centre, size))
    for move, kind in ((tanagra.HOWTO_STEP, "step"), (tanagra.HOWTO_JUMP, "jump"), (tanagra.HOWTO_TAKE, "take"),
                       (tanagra.HOWTO_EMPTY, "empty")):
        position = tanagra.howto_position()
        assert position.turn == 0 and position.pawns[move.origin].owner == 0
        taking = move.target in position.pawns
        position.apply(move)  # raises if the referee refuses it
        assert taking == (kind == "take")
        assert isinstance(move, Move) and move.is_step == (kind != "jump")
        if kind == "empty":
            position.apply(Remove())


def _prepare_resume(services):
    from engine.modes import save
    from engine.tanagra.game import Game
    from ui.modes.tanagra import play as tanagra

    game = Game(tanagra.HOWTO_OPTIONS, ["person", "robot:beginner"], start=tanagra.howto_position())
    game.apply(tanagra.HOWTO_EMPTY)  # black emptied a triangle: the board change is due
    services.store.save_current(save(game))


def scenario_resume(app):
    from engine.tanagra.rules import Phase, Remove
    from ui.modes.tanagra import play as tanagra

    yield 0.2
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert isinstance(screen, tanagra.TanagraScreen) and screen.game.phase is Phase.CHANGE
    assert set(screen.robots) == {1}  # the robot seat comes back from the record
    assert screen.remove_it.parent is not None and app.services.devices.cues[-1].turn == 0
    screen.robot_pause = 0.05
    yield from tap(screen.remove_it)
    for _wait in range(40):
        yield 0.1
        if screen.game.turn == 0 and len(screen.game.actions) >= 3 and not screen.board.animating:
            break
    assert isinstance(screen.game.actions[1], Remove) and screen.game.turn == 0
    return {}


scenario_resume.prepare = _prepare_resume


def test_a_journaled_game_resumes_mid_turn_and_the_robot_plays_on():
    run_scenario("test_ui_tanagra", "scenario_resume", size=(800, 480))


def scenario_leave_while_a_pawn_flies(app):
    """Leave while a robot's pawn is still flying: the game stays forgotten (no resume card after a
    restart) and the robots stop playing behind the home screen."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import Options, Phase
    from ui.modes.tanagra import play as tanagra
    from ui_harness import until

    game = Game(Options(players=2, x=4), ["robot:beginner", "robot:beginner"])
    app.journal(game)
    screen = tanagra.TanagraScreen(app, game, robot_seed=1)
    screen.robot_pause = 0.02
    app.show(screen)
    yield until(lambda: game.phase is not Phase.BUILD and screen.board.animating, seconds=30)
    screen.leave()
    yield until(lambda: app.manager.current == "home")
    yield until(lambda: not screen.board.animating)
    actions = len(game.actions)
    yield 0.5  # long enough for a robot's next move (0.02 s pause, 0.45 s flight)
    assert app.services.store.load_current() is None
    assert len(game.actions) == actions and not screen.board.animating
    return {}


def test_leaving_while_a_pawn_flies_forgets_the_game():
    run_scenario("test_ui_tanagra", "scenario_leave_while_a_pawn_flies", size=(800, 480))


def _triangle_emptied(app):
    """How to play's position against a robot, shown, its last pawn moved off a triangle by touch:
    the board change (Leave it / Move it / Remove it) is asked. Returns the game and screen."""
    from engine.tanagra.game import Game
    from ui.modes.tanagra import play as tanagra

    game = Game(tanagra.HOWTO_OPTIONS, ["person", "robot:beginner"], start=tanagra.howto_position())
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    yield 0.3
    yield from tap(_window_point(screen, tanagra.HOWTO_EMPTY.origin))
    yield from tap(_window_point(screen, tanagra.HOWTO_EMPTY.target))
    yield 0.7
    return game, screen


def scenario_change_buttons(app):
    """The board change's Leave it / Move it / Remove it, as the audit (ui.audit) sees them."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import audit

    game, screen = yield from _triangle_emptied(app)
    assert game.pending_change is not None and screen.move_it.parent is not None
    size = tuple(Window.size)
    return [str(p) for p in audit(app.root, size, theme.min_target(size)) if p.kind == "crowded"]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["7in", "portrait"])
def test_the_board_change_buttons_stand_a_finger_apart(size):
    assert run_scenario("test_ui_tanagra", "scenario_change_buttons", size=size) == []


def _four_pawns_out(app):
    """A 4-player game of people twelve actions in (every colour's pawns on the board), shown."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import Options
    from ui.modes.tanagra import play as tanagra

    game = Game(Options(players=4, x=4), ["person"] * 4)
    while len(game.actions) < 12:
        game.apply(game.legal_actions()[len(game.actions) * 7 % len(game.legal_actions())])
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    return screen


def scenario_seat_icons_carry_the_pawns_marks(app):
    """With 3-4 players green and blue pawns carry a mark (a dark centre, a light ring) so that
    players who confuse the hues tell them apart; the icons that name the seats ("Green to play",
    each seat's row) once showed plain discs, so the mark could not be matched to a name. Each
    icon's middle, and halfway out, now look as the middle of one of its seat's pawns on the board."""
    from ui.audit import Picture
    from ui.tanagra_board import PAWN_RADIUS

    screen = _four_pawns_out(app)
    game = screen.game
    yield 0.4
    picture = Picture(app.root)
    board = screen.board

    def looks(centre, r):
        """The colours at a pawn's middle and halfway to its rim (on a blue pawn: its ring)."""
        x, y = centre
        return [picture.at(x, y), picture.at(x + r * 0.55, y)]

    def near(a, b):
        return all(max(abs(p - q) for p, q in zip(u, v)) <= 40 for u, v in zip(a, b))

    icons = [row.children[-1] for row in reversed(screen.scores.children)]  # a BoxLayout's first child is last
    assert [icon.rgba for icon in icons] == list(screen.colours)
    seen = {}
    for cell, pawn in game.state.pawns.items():
        r = board.scale * PAWN_RADIUS[pawn.size]
        seen.setdefault(pawn.owner, looks(board.to_window(*board.cell_point(cell)), r))
    assert sorted(seen) == [0, 1, 2, 3]
    turn = game.turn
    for seat, icon in enumerate([*icons, screen.turn_icon]):
        seat = turn if icon is screen.turn_icon else seat
        r = min(icon.width, icon.height) * 0.42
        shown = looks(icon.to_window(*icon.center), r)
        assert near(shown, seen[seat]), (seat, shown, seen[seat])
    screen.leave()
    return {}


def test_the_icons_naming_the_seats_carry_the_pawns_marks():
    run_scenario("test_ui_tanagra", "scenario_seat_icons_carry_the_pawns_marks", size=(800, 480))


def scenario_out_of_turn_points_at_the_words(app):
    """An action the phase does not take (here Leave it while pawns are to move) is refused with
    where the words saying what to do stand: the panel is a column on the right of a landscape
    panel, a band at the top of a portrait one (it once said "on the right" there too)."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import Leave, Phase
    from ui.i18n import _
    from ui.modes.tanagra import play as tanagra

    game = Game(tanagra.HOWTO_OPTIONS, ["person", "robot:beginner"], start=tanagra.howto_position())
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    yield 0.3
    assert game.phase is Phase.MOVE
    screen.act(Leave())
    assert len(game.actions) == 0
    prompt, board = screen.prompt, screen.board
    px, py = prompt.to_window(*prompt.pos)
    bx, by = board.to_window(*board.pos)
    return {"said": screen.message.text, "right": _("Not now: follow the words on the right."),
            "top": _("Not now: follow the words at the top."),
            "prompt_right_of_board": px >= bx + board.width, "prompt_above_board": py >= by + board.height}


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (720, 1280)], ids=["7in", "10in", "portrait"])
def test_a_refusal_out_of_turn_points_where_the_words_are(size):
    found = run_scenario("test_ui_tanagra", "scenario_out_of_turn_points_at_the_words", size=size)
    if size[1] > size[0]:
        assert found["prompt_above_board"] and found["said"] == found["top"], found
    else:
        assert found["prompt_right_of_board"] and found["said"] == found["right"], found


def scenario_move_it_shows_it_was_chosen(app):
    """Move it chosen, the triangle yet to be put down: the button says so in its words and its
    shape (not its colour alone: a frame, and how to cancel), the others do not; touching it again
    cancels (the dots go, the three choices stand as before)."""
    from engine.tanagra.rules import Phase
    from ui.audit import Picture
    from ui.i18n import _

    game, screen = yield from _triangle_emptied(app)
    assert game.phase is Phase.CHANGE
    buttons = (screen.leave_it, screen.move_it, screen.remove_it)

    def edges():
        """Each button's left edge, halfway up, just inside: a frame is drawn there."""
        picture = Picture(app.root)
        return [picture.at(*b.to_window(b.x + 2, b.center_y)) for b in buttons]

    def light(rgb):
        return min(rgb) >= 200

    before = [labels(b) for b in buttons], edges()
    yield from tap(screen.move_it)
    yield 0.1
    assert screen.relocating and screen.board.spots
    words = [labels(b) for b in buttons]
    cancel = _("Touch again to cancel")
    assert any(cancel in t for t in words[1]), words
    assert not any(cancel in t for t in words[0] + words[2]), words
    framed = edges()
    assert light(framed[1]) and not light(framed[0]) and not light(framed[2]), framed
    yield from tap(screen.move_it)  # changed one's mind: back to the three choices
    yield 0.1
    assert not screen.relocating and not screen.board.spots and game.phase is Phase.CHANGE
    assert ([labels(b) for b in buttons], edges()) == before
    return {}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["7in", "portrait"])
def test_move_it_once_chosen_looks_chosen_and_says_how_to_cancel(size):
    run_scenario("test_ui_tanagra", "scenario_move_it_shows_it_was_chosen", size=size)


def scenario_setup_seats_carry_the_pawns_marks(app):
    """The setup's seat icons (four players) carry what the game will show of each seat besides
    its hue: the pawns' marks (green's dark centre, blue's light ring) and the LED ring's shape
    (cut in as many arcs as the ring is lit in). They once were plain discs: the setup's colour
    keys ("red", "green") were not the ring's ("R", "G"), and it drew no pawn."""
    from firmware.devices import ring_cue
    from ui import theme
    from ui.audit import Picture
    from ui.modes.tanagra import play as tanagra
    from ui.tanagra_board import PAWN_RADIUS

    app.open_family("tanagra")
    yield 0.2
    setup = app.manager.current_screen
    setup.set_players(4)
    yield 0.4
    picture = Picture(app.root)
    dark = tuple(round(c * 255) for c in theme.TABLE_DARK[:3])

    def near(a, b):
        return max(abs(p - q) for p, q in zip(a, b)) <= 40

    def swatch_at(swatch, radius, degrees):
        """The colour ``radius`` (of the pawn's) from the swatch's middle, at ``degrees`` (0: its
        right, counter-clockwise), in the swatch's own frame (a card may face another edge)."""
        r = min(swatch.width, swatch.height) * 0.43
        a = math.radians(degrees)
        x, y = swatch.x + swatch.width / 2 + r * radius * math.cos(a), swatch.y + swatch.height / 2 + r * radius * math.sin(a)
        return picture.at(*swatch.to_window(x, y))

    swatches = [card.swatch for card in setup.cards]
    marks = [[swatch_at(s, 0, 0), swatch_at(s, 0.55, 45)] for s in swatches]
    gaps = [sum(near(swatch_at(s, 0.76, 30 * k), dark) for k in range(12)) for s in swatches]
    # the game as it lights the rings, and as it draws the pawns
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, tanagra.TanagraScreen)
    arcs = ring_cue(app.services.devices.cues[-1]).arcs
    screen.leave()
    screen = _four_pawns_out(app)
    game = screen.game
    yield 0.4
    picture = Picture(app.root)
    board = screen.board
    pawns = {}
    for cell, pawn in game.state.pawns.items():
        x, y = board.to_window(*board.cell_point(cell))
        r = board.scale * PAWN_RADIUS[pawn.size] * 0.55 / math.sqrt(2)
        pawns.setdefault(pawn.owner, [picture.at(x, y), picture.at(x + r, y + r)])
    screen.leave()
    return {"marks": marks, "gaps": gaps, "arcs": list(arcs), "pawns": [pawns[seat] for seat in range(4)],
            "near": [all(near(a, b) for a, b in zip(marks[seat], pawns[seat])) for seat in range(4)]}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["7in", "portrait"])
def test_the_setup_seats_carry_the_pawns_marks_and_the_rings_shape(size):
    found = run_scenario("test_ui_tanagra", "scenario_setup_seats_carry_the_pawns_marks", size=size)
    assert found["arcs"] == [1, 2, 3, 4], found  # red whole, yellow halves, green thirds, blue quarters
    assert found["gaps"] == [0, 2, 3, 4], found
    assert found["near"] == [True] * 4, found
