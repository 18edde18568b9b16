"""The shared pieces, rendered headless: the game setup (seats around the table or in a column,
person / robot and level by touch, options, Start makes the mode with those seats), the animated
"how to play" (steps, skip, watch again, nothing running when idle) and the results screen."""

from __future__ import annotations

import pytest

from ui_harness import Pixels, labels, run_scenario, tap, until

import ui_matrix


def _inside(widget, root) -> bool:
    """Whether the widget's on-screen box lies inside the window (nothing cut off)."""
    (x, y), (w, h) = widget.bbox if hasattr(widget, "bbox") and widget.bbox else (widget.pos, widget.size)
    return x >= -1 and y >= -1 and x + w <= root.width + 1 and y + h <= root.height + 1


def _overlap(a, b) -> bool:
    (ax, ay), (aw, ah) = a
    (bx, by), (bw, bh) = b
    return ax < bx + bw - 1 and bx < ax + aw - 1 and ay < by + bh - 1 and by < ay + ah - 1


def scenario_flat(app):
    from engine.gobble.gobbles import Level, Player
    from ui.modes.gobble import gobbles
    from ui.table import seat_boxes

    app.open_family("gobbles")
    yield 0.2
    setup = app.manager.current_screen
    assert [s.robot for s in setup.seats] == [None, "casual"]  # someone alone plays a robot at once
    yield from tap(setup.count.chip(3))
    assert len(setup.cards) == 3
    yield 0.1
    boxes, _free = seat_boxes(3, *app.root.size, "flat", hand_tiles=10, rows=2)
    assert [h.rotation % 360 for h in setup._holders] == [b.angle % 360 for b in boxes]  # each faces its player
    # seat 3: a robot, expert; seat 2 (a robot by default) becomes a person
    card = setup.cards[2]
    assert card.levels.parent is None  # a person's card shows no levels
    yield from tap(card.kind.chip(True))
    assert card.levels.parent is not None
    yield from tap(card.levels.chip("expert"))
    yield from tap(setup.cards[1].kind.chip(False))
    yield from tap(setup.choices["play_on"].chip(False))
    for holder in setup._holders:
        assert _inside(holder, app.root)
        for other in setup._holders:
            assert holder is other or not _overlap(holder.bbox, other.bbox)
        assert not _overlap(holder.bbox, (setup.middle.pos, setup.middle.size))
    assert Pixels(app.root).digest()
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, gobbles.GobblesScreen)
    assert list(screen.game.players) == [Player("Player 1"), Player("Player 2"), Player("Robot 3", Level.EXPERT)]
    assert screen.game.play_on is False and len(screen.hands) == 3
    screen.leave()
    # six players at the smallest panel: every card on screen, none over another or the middle
    app.open_family("gobbles")
    yield 0.1
    setup = app.manager.current_screen
    yield from tap(setup.count.chip(6))
    yield 0.1
    for holder in setup._holders:
        assert _inside(holder, app.root)
        assert not _overlap(holder.bbox, (setup.middle.pos, setup.middle.size)), (holder.bbox, setup.middle.pos)
    for row in setup.middle.children:
        assert row.height >= 0
    return {}


def test_setup_around_the_table_makes_the_mode_with_the_chosen_seats():
    run_scenario("test_ui_setup", "scenario_flat", size=(1280, 800))


def test_setup_six_players_fit_the_small_panel():
    run_scenario("test_ui_setup", "scenario_six_small", size=(800, 480))


def scenario_six_small(app):
    app.open_family("gobbles")
    yield 0.1
    setup = app.manager.current_screen
    yield from tap(setup.count.chip(6))
    yield 0.1
    for holder in setup._holders:
        assert _inside(holder, app.root)
        assert not _overlap(holder.bbox, (setup.middle.pos, setup.middle.size)), (holder.bbox, setup.middle.pos)
    assert setup.start_button.height >= 0.7 * app.root.height / 10  # still a big touch target
    return {}


def scenario_upright(app):
    from ui.i18n import _
    from ui.modes.tanagra import play as tanagra

    app.open_family("tanagra")
    yield 0.2
    setup = app.manager.current_screen
    yield from tap(setup.count.chip(4))
    assert [c.title.text for c in setup.cards] == [_("Red"), _("Yellow"), _("Green"), _("Blue")]
    assert all(h.rotation == 0 for h in setup._holders)  # upright: all face the same way
    for holder in setup._holders:
        assert _inside(holder, app.root)
    yield from tap(setup.cards[3].kind.chip(True))
    yield from tap(setup.cards[3].levels.chip("expert"))
    yield from tap(setup.cards[1].kind.chip(False))
    yield from tap(setup.choices["x"].chip(6))
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, tanagra.TanagraScreen)
    assert screen.game.seats == ["person", "person", "person", "robot:expert"]
    assert screen.game.options.players == 4 and screen.game.options.x == 6
    assert app.services.devices.cues[-1].colours == ("R", "Y", "G", "B")
    screen.leave()
    # six seats in a column: each card is one row, Person or a robot level, still big enough to touch
    from engine.gobble.gobbles import Level

    app.open_family("gobbles")
    yield 0.1
    setup = app.manager.current_screen
    yield from tap(setup.count.chip(6))
    yield 0.1
    card = setup.cards[4]
    assert card.compact and card.who.chip(None).selected
    assert card.who.chip("expert").height >= 0.9 * app.root.height / 10
    yield from tap(card.who.chip("expert"))
    yield from tap(setup.cards[1].who.chip(None))
    yield from tap(setup.start_button)
    players = app.manager.current_screen.game.players
    assert [p.robot for p in players] == [None, None, None, None, Level.EXPERT, None]
    app.manager.current_screen.leave()
    return {}


scenario_upright.prepare = lambda services: setattr(services.settings, "orientation", "upright")


def test_setup_upright_lists_the_seats_and_passes_the_options():
    run_scenario("test_ui_setup", "scenario_upright", size=(800, 480))


def scenario_upright_names_whole(app):
    """Upright, each seat's card names its seat whole ("Player 6", "Yellow") on one line in the
    card's own type size, not squeezed smaller or onto two lines beside its chips, and every chip
    on it is a fingertip in both directions: two to six seats, in every language."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import audit

    found = {}
    for language in ("en", "fr", "nl", "pl"):
        app.set_language(language)
        for family, counts in (("gobbles", (2, 4, 6)), ("tanagra", (2, 4))):
            app.open_family(family)
            yield 0.1
            setup = app.manager.current_screen
            for count in counts:
                setup.set_players(count)
                yield
                yield
                for card in setup.cards:
                    title = card.title
                    if title.font_size < theme.font(title.scale) - 0.5 or title.texture_size[1] > 1.6 * title.font_size:
                        found[f"{language} {family} {count}: {title.text!r}"] = (
                            round(title.font_size), round(theme.font(title.scale)), title.texture_size)
                problems = audit(setup, tuple(Window.size), theme.min_target())
                if problems:
                    found[f"{language} {family} {count}"] = sorted({str(p) for p in problems})
    app.set_language("en")
    assert not found, found
    return {}


scenario_upright_names_whole.prepare = scenario_upright.prepare


def scenario_rows_full_height_with_room(app):
    """The middle's chips (players, options) keep their full height (about a touch unit) while the
    middle has room to spare above and below them, after the seats change and with them the layout:
    they are lowered towards a fingertip only where the middle is short."""
    from kivy.uix.widget import Widget

    from ui import theme
    from ui.widgets import Chip

    found = {}
    for orientation in ("upright", "flat"):
        app.services.settings.orientation = orientation
        app.open_family("gobbles")
        yield 0.1
        setup = app.manager.current_screen
        for count in (6, 2, 4):
            setup.set_players(count)
            yield
            yield
            spare = sum(w.height for w in setup.middle.children if type(w) is Widget)  # the spacers
            low = [(c.text, round(c.height)) for c in setup.middle.walk() if isinstance(c, Chip)
                   and c.height < theme.unit() * 0.9]
            if spare > theme.unit() and low:
                found[f"{orientation} {count}"] = (round(spare), low)
    assert not found, found
    return {}


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (720, 1280)])
def test_setup_choices_keep_their_height_where_there_is_room(size):
    run_scenario("test_ui_setup", "scenario_rows_full_height_with_room", size=size)


@pytest.mark.parametrize("size", [(720, 1280), (800, 480), (1280, 800)])
def test_upright_seat_cards_name_their_seat_whole(size):
    run_scenario("test_ui_setup", "scenario_upright_names_whole", size=size)


def scenario_howto(app):
    from kivy.animation import Animation

    from ui.i18n import _
    from ui.modes.gobble import common as gc

    app.open_family("gobbles")
    yield 0.1
    yield from tap(app.manager.current_screen.howto_button)
    howto = app.manager.current_screen
    assert howto.name == "gobbles-howto" and howto.index == 0
    assert howto.caption.text == _(howto.steps[0].caption)
    stage = howto.stage
    assert len(stage.board) == 2  # the opening pair
    yield until(lambda: stage.board.at(gc.BUILD[1].cell) is not None)  # both fingers' tiles slide onto the table
    assert stage.board.at(gc.BUILD[0].cell) == gc.BUILD[0] and stage.board.at(gc.BUILD[1].cell) == gc.BUILD[1]
    assert gc.BUILD[0].tile not in stage.hands[0].tiles
    howto.show_step(2)  # the race: the later finger is refused and its tile goes back
    yield until(lambda: stage.board.at(gc.RACE[0].cell) is not None and gc.RACE[1].tile in stage.hands[1].tiles)
    assert stage.board.at(gc.RACE[0].cell) == gc.RACE[0] and gc.RACE[1].tile in stage.hands[1].tiles
    howto.show_step(len(howto.steps) - 1)
    yield 3.5  # the last refusal highlight fades (it stays five seconds)
    assert not howto.playing and howto.again_button.parent is not None
    assert not Animation._instances and not stage.sprites  # idle: nothing moves, nothing redraws
    first = Pixels(app.root).digest()
    yield 0.5
    assert Pixels(app.root).digest() == first
    yield from tap(howto.again_button)  # watch again: the first picture, the first step
    assert howto.index == 0 and len(stage.board) == 2 and gc.BUILD[1].tile in stage.hands[1].tiles
    yield from tap((app.root.width / 2, app.root.height / 2))  # a tap anywhere skips
    assert app.manager.current == "gobbles-setup"
    yield 1.0  # what the skipped step had scheduled (a tile at 0.5 s) never happens
    assert len(stage.board) == 2
    # the other two scripts play without a hitch, step after step
    for key in ("gobble-solo", "tanagra"):
        app.open_family(key)
        yield 0.1
        yield from tap(app.manager.current_screen.howto_button)
        howto = app.manager.current_screen
        assert howto.name == f"{key}-howto" and howto.index == 0  # it starts by itself
        for index in range(1, len(howto.steps)):
            yield 0.8
            howto.show_step(index)
        assert Pixels(app.root).digest()
        yield from tap((10, 10))
        assert app.manager.current == f"{key}-setup", app.manager.current
    return {}


def test_how_to_play_steps_skip_and_watch_again():
    run_scenario("test_ui_setup", "scenario_howto", size=(800, 480))


def scenario_results(app):
    from kivy.uix.label import Label

    from ui.results import ResultsScreen, Standing, Words

    shown = []

    class Counting:
        steps = 3

        def show(self, step):
            shown.append(step)
            return f"step {step}"

    homes = []
    words = Words("Game over", "Ann wins!", [Standing(1, "Ann", (1, 0, 0, 1), "all tiles placed"),
                                             Standing(2, "Bob", None, "tiles left: 3")], ["Best scores: 9"])
    screen = ResultsScreen("test", lambda: words, stage=Label(text="stage"), replay=Counting(), celebrate=True,
                           on_home=lambda: homes.append(1))
    app.show(screen)
    yield 0.3
    assert screen.confetti is not None and screen.confetti.parent is not None
    assert shown == [3] and screen.replay_bar.buttons["next"].disabled
    yield from tap(screen.replay_bar.buttons["back"])
    yield from tap(screen.replay_bar.buttons["first"])
    assert shown == [3, 2, 0] and screen.replay_bar.caption.text == "step 0"
    assert screen.replay_bar.buttons["back"].disabled and not screen.replay_bar.buttons["next"].disabled
    yield 3.3
    assert screen.confetti.parent is None  # the celebration ends by itself
    words = labels(screen)
    assert "1st" in words and "2nd" in words and "Best scores: 9" in words
    yield from tap(screen.home_button)
    assert homes == [1]
    return {}


def test_results_places_and_replay_controls():
    run_scenario("test_ui_setup", "scenario_results", size=(800, 480))


def scenario_colours(app):
    """A mode whose players choose colours (as the strategy game will): a tap on a seat's colour
    gives it the next one nobody else plays; Start hands the mode the seats and options."""
    from ui import theme
    from ui.i18n import N_
    from ui.setup import Choice, SeatColour, SetupScreen, SetupSpec

    palette = tuple(SeatColour(k, theme.LINK[k], n) for k, n in
                    (("R", N_("Red")), ("Y", N_("Yellow")), ("G", N_("Green")), ("B", N_("Blue"))))
    spec = SetupSpec(key="colours-test", title="Colours", players=(2, 4), default_players=2,
                     levels=(("easy", N_("Beginner")),), robots=(1,), palette=lambda n: palette,
                     choose_colours=True, options=(Choice("end", "End", ((1, "One"), (2, "Two")), 1),))
    started = []
    screen = SetupScreen(spec, on_start=started.append, on_back=lambda: None)
    app.show(screen)
    yield 0.3
    assert [s.colour.key for s in screen.seats] == ["R", "Y"]
    assert [card.swatch.arcs for card in screen.cards[:2]] == [1, 2]  # the pawns' shapes, as the LED rings'
    yield from tap(screen.cards[0].swatch)
    assert [s.colour.key for s in screen.seats] == ["G", "Y"]  # Y is taken: skipped
    assert screen.cards[0].swatch.arcs == 3
    yield from tap(screen.cards[0].swatch)
    yield from tap(screen.cards[0].swatch)
    assert screen.seats[0].colour.key == "R" and screen.cards[0].title.text == "Red"
    yield from tap(screen.count.chip(3))
    assert len({s.colour.key for s in screen.seats}) == 3
    yield from tap(screen.choices["end"].chip(2))
    yield from tap(screen.start_button)
    (setup,) = started
    assert [s.robot for s in setup.seats] == [None, "easy", None] and setup.options == {"end": 2}
    assert [s.colour.key for s in setup.seats] == ["R", "Y", "G"]
    return {}


def test_seats_choose_their_colours():
    run_scenario("test_ui_setup", "scenario_colours", size=(1280, 800))


LEGIBLE = {(800, 480): [("nl", "setup-gobbles-6-upright"), ("pl", "setup-gobbles-6-upright"),
                        ("pl", "setup-tantrix-doubles")],
           (1024, 600): [("nl", "setup-gobbles-6-upright"), ("pl", "setup-tantrix-doubles")],
           (720, 1280): [("pl", "setup-tantrix-doubles"), ("pl", "tournament-setup")]}
"""The setups whose chips were shrunk under 2.5 mm ("Gemiddeld", "Człowiek" at 10.6 px on the 7"
panel; a tournament's "Nowicjusz" broken in a 79 px line on the portrait one), by panel."""


def scenario_setup_words_legible(app):
    """Each setup of :data:`LEGIBLE` for this panel, audited: nothing found (its chips' words were
    shrunk under the legible size, to fit chips a fingertip wide)."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import Picture, audit

    openers = dict(ui_matrix.SCREENS)
    found = []
    for language, name in LEGIBLE[tuple(Window.size)]:
        app.set_language(language)
        openers[name](app)
        yield
        yield
        size = tuple(Window.size)
        found += [f"{name}/{language}: {p}" for p in audit(app.root, size, theme.min_target(size), Picture(app.root))]
    app.set_language("en")
    return found


scenario_setup_words_legible.prepare = ui_matrix.kiosk_services


@pytest.mark.parametrize("size", list(LEGIBLE), ids=lambda s: f"{s[0]}x{s[1]}")
def test_setup_chips_keep_their_words_legible(size):
    assert run_scenario("test_ui_setup", "scenario_setup_words_legible", size=size,
                        settings={"idle_seconds": 1e6}) == []
