"""The app's screens, rendered headless: attract, home, language switch, a family's screen, staff PIN and
menu pages, device badges and simulated rings, idle time, the interrupted-game prompt."""

from __future__ import annotations

import os
import threading

import pytest

from ui_harness import Pixels, labels, near, run_scenario, settled_screens, tap, touch_at, until


def scenario_home_language_family(app):
    yield 0.3
    assert app.manager.current == "attract"
    assert app.services.devices.cues[-1].attract  # the rings show the attract animation
    assert "Touch to play" in labels(app.root) or any(
        t in labels(app.root) for t in ("Touchez pour jouer", "Tik om te spelen", "Dotknij, aby zagrać"))
    shown = len(app.attract._shown)
    assert shown >= 1 and len(app.attract.board._drawn) == shown
    yield until(lambda: len(app.attract._shown) > shown)  # the attract game goes on: more tiles, drawn
    assert len(app.attract.board._drawn) == len(app.attract._shown) > shown
    yield from tap((app.root.width / 2, app.root.height / 2))
    assert app.manager.current == "home"
    yield 0.2
    before = Pixels(app.root).digest()
    english = labels(app.home)
    assert "Choose a game" in english and any(t.startswith("Tantrix\n") for t in english), english
    french_flag = next(f for f in app.home.flags.children if f.language == "fr")
    yield from tap(french_flag)
    yield 0.2
    french = labels(app.home)
    assert "Choisissez un jeu" in french and "Choose a game" not in french, french
    assert any(t.startswith("Puzzles\n") and "1 joueur" in t for t in french), french  # the booklet's word
    assert app.services.settings.language == "fr"
    assert Pixels(app.root).digest() != before  # what is on screen changed, not only the strings
    # a family's button opens its own screen (in French), and the home screen comes back
    yield from tap(app.home.buttons["puzzles"])
    yield until(lambda: app.manager.current != "home")
    opened = app.manager.current_screen
    assert opened.name == "puzzles" and "puzzles du livret" in " ".join(labels(opened))
    app.go_home()
    yield 0.1
    assert app.manager.current == "home"
    return {"opened": opened.name}


def test_home_language_switch_and_a_family_screen():
    result = run_scenario("test_ui_screens", "scenario_home_language_family", size=(800, 480))
    assert result["opened"] == "puzzles"


def scenario_dropped_widgets_leave_nothing_following_the_language(app):
    import gc

    from ui import i18n
    from ui.widgets import FlagButton, TLabel

    def following():
        return len(i18n.i18n.get_property_observers("language")) + len(i18n._FOLLOWERS) + len(i18n._TRANSLATED)

    yield 0.3
    before = following()
    for _round in range(3):  # a game's worth of labels and flags, made and dropped, three times
        made = [TLabel(msg="Choose a game") for _ in range(300)] + [FlagButton(language="fr") for _ in range(4)]
        assert following() == before + len(made)
        del made
        yield  # Kivy's pending triggers let go of them
        yield
        gc.collect()
        # before, each stayed listed on the language until a visitor switched it: a kiosk that
        # played for weeks in one language gathered them game after game
        assert following() == before, (following(), before)
    # what lives still follows a switch: the home screen's words and its flags, and a button's own
    # retranslation, which fits its font again ("Effacer" is longer than "Clear")
    from ui import theme
    from ui.audit import fonts
    from ui.widgets import TButton

    kept = TLabel(msg="Choose a game")
    clear = TButton(msg="Clear", size_hint=(None, None))
    clear.size = (fonts.width("Clear", theme.font(1.0), True, clear.font_name) + 6, theme.unit() * 1.2)
    app.root.add_widget(clear)
    app.go_home()
    yield until(lambda: app.manager.current == "home")
    yield 0.3
    french = next(f for f in app.home.flags.children if f.language == "fr")
    yield from tap(french)
    assert kept.text == "Choisissez un jeu" and "Choisissez un jeu" in labels(app.home) and french.selected
    yield
    assert clear.text == "Effacer" and fonts.width("Effacer", clear.font_size, True, clear.font_name) <= clear.width
    assert not next(f for f in app.home.flags.children if f.language == "en").selected
    return {"following": before}


def test_dropped_widgets_leave_nothing_following_the_language():
    assert run_scenario("test_ui_screens", "scenario_dropped_widgets_leave_nothing_following_the_language",
                        size=(800, 480))["following"] > 0


GAMES_ON_SCREEN = ("tantrix-2", "gobbles-2", "tanagra-2", "puzzle-discovery-6", "great-pyramid", "solitaire",
                   "four-lines")
"""Games in progress of every kind whose words are composed on screen (scores, goals, counts, names)."""


def scenario_a_game_on_screen_follows_a_language_switch(app):
    """Staff change the language while a game is played (the staff web page, applied by the kiosk
    within a second, or the staff menu opened over the game): the game's own words (seat plates,
    a puzzle's goal and counts, the seats' names in Tanagra's lines) follow, as its buttons do;
    the game shows what it shows when opened in that language, none of it in the one before."""
    import re

    from ui.i18n import i18n
    from ui_matrix import SCREENS

    def shown():  # a puzzle's clock may have ticked between the two openings
        return {text for text in labels(app.root, shown=True) if not re.search(r"\d:\d\d", text)}

    openers = dict(SCREENS)
    stale, renewed = {}, {}
    for name in GAMES_ON_SCREEN:
        i18n.language = "en"
        openers[name](app)
        yield 0.3
        english = shown()
        i18n.language = "pl"  # as firmware.settings' on_language applies a change made on the web page
        yield 0.3
        switched = shown()
        openers[name](app)  # the same game opened anew in Polish
        yield 0.3
        polish = shown()
        stale[name] = sorted(switched - polish)
        renewed[name] = len(polish - english)
    i18n.language = "en"
    assert all(renewed.values()), renewed  # each game shows words of its own that Polish changes
    assert stale == {name: [] for name in GAMES_ON_SCREEN}, stale
    return renewed


def test_a_game_on_screen_follows_a_language_switch():
    run_scenario("test_ui_screens", "scenario_a_game_on_screen_follows_a_language_switch", size=(800, 480))


def _press_keys(app, keys):
    for key in keys:
        button = next(w for w in app.pin.keypad.children if getattr(w, "msg", None) == key)
        yield from tap(button)


def scenario_staff(app):
    import numpy
    import zxingcpp

    from ui import theme
    from ui.qr import TakeHome
    from ui.services import DeviceStatus
    from ui.widgets import TButton

    app.go_home()
    yield 0.2
    # the bag button held (sent from another thread, as the firmware does) opens the PIN pad
    thread = threading.Thread(target=app.services.devices.press_button, kwargs={"held": True})
    thread.start()
    thread.join()
    yield 0.1
    assert app.manager.current == "staff-pin"
    yield from _press_keys(app, ["9", "9", "9", "9", "OK"])
    assert app.manager.current == "staff-pin"
    assert "Wrong PIN. Try again." in labels(app.pin)
    yield from _press_keys(app, ["1", "2", "3", "4", "OK"])
    assert app.manager.current == "staff"
    pages = {}
    for page in ("language", "settings", "hardware", "tags", "statistics", "system"):
        yield from tap(app.staff.nav[page])
        yield 0.05
        pages[page] = labels(app.staff.content)
        assert Pixels(app.root).digest()
    assert any("Tile reader: working" in t for t in pages["hardware"]), pages["hardware"]
    assert "Polski" in pages["language"]
    # brightness follows the slider
    yield from tap(app.staff.nav["settings"])
    app.staff.brightness_slider.value = 30
    assert abs(app.services.settings.brightness - 0.30) < 1e-9
    # tag enrolment: progress comes back as events
    yield from tap(app.staff.nav["tags"])
    start = next(w for w in app.staff.content.walk() if getattr(w, "msg", "") == "Start: all 56 tiles")
    yield from tap(start)
    yield 0.05
    assert any("0 of 56 learned. Put tile 1 on the reader." in t for t in labels(app.staff.content))
    app.services.devices.scan(1, None)
    yield 0.05
    assert any("1 of 56 learned. Put tile 2 on the reader." in t for t in labels(app.staff.content))
    # reset clears the journaled game; quit goes to the system
    app.services.store.save_current({"kind": "x", "state": {}})
    yield from tap(app.staff.nav["system"])
    clear = next(w for w in app.staff.content.walk() if getattr(w, "msg", "") == "Clear the current game")
    yield from tap(clear)
    assert app.services.store.load_current() is None
    leave = next(w for w in app.staff.content.walk() if isinstance(w, TButton) and w.msg == "Quit to the system")
    yield from tap(leave)
    assert app.quits == [1]
    # where spectators find the table: nothing while their page is off, else a QR code of the page; the
    # staff page may be on meanwhile ([web] spectators = false): "the web pages are off" was untrue then
    said = " ".join(labels(app.staff.content))
    assert "Phones cannot reach the spectators' page" in said and "[web]" in said and "web pages are off" not in said
    app.services.settings.web_address = "http://192.168.1.20:8080/"
    yield from tap(app.staff.nav["system"])
    assert "http://192.168.1.20:8080/" in labels(app.staff.content)
    show = next(w for w in app.staff.content.walk() if isinstance(w, TButton) and w.msg == "Spectators' QR code")
    assert show.height >= 45
    yield from tap(show)
    overlay = next(w for w in app.staff.children if isinstance(w, TakeHome))
    yield 0.2
    pixels = Pixels(overlay.code)
    image = numpy.frombuffer(pixels.data, dtype=numpy.uint8).reshape(pixels.height, pixels.width, 4)[:, :, :3].copy()
    assert [r.text for r in zxingcpp.read_barcodes(image)] == ["http://192.168.1.20:8080/"]
    assert "Scan with your phone to watch this table." in labels(overlay)
    yield from tap((5, 5))  # a tap anywhere closes it
    assert overlay.parent is None
    # a device goes missing: a badge names it, drawn in red at the top right
    app.services.devices.set_status("reader", False, "unplugged")
    yield 0.1
    assert "Not working: Tile reader" in app.badge.text and app.badge.opacity == 1
    shot = Pixels(app.root)
    assert near(shot.at(app.badge.x + 3, app.badge.center_y), theme.BAD, 60)
    from kivy.core.window import Window

    from ui.audit import Picture, audit

    # its words read on the red at 4.5 : 1 at least (light words stood at 3.4 : 1)
    assert not audit(app.badge, tuple(Window.size), theme.min_target(), Picture(app.root))
    yield from tap(app.staff.nav["hardware"])
    assert any("Tile reader: NOT WORKING" in t for t in labels(app.staff.content))
    app.post(DeviceStatus("reader", True, "simulated"))
    yield 0.1
    assert app.badge.opacity == 0
    # Escape does not leave; a window close request is refused in kiosk mode
    Window.dispatch("on_key_down", 27, 9, None, [])
    Window.dispatch("on_keyboard", 27, 9, None, [])
    assert Window.dispatch("on_request_close") is True
    yield 0.1
    assert app.manager.current == "staff"
    close = next(w for w in app.staff.walk() if getattr(w, "msg", "") == "Close")
    yield from tap(close)
    assert app.manager.current == "home"
    return {"pages": len(pages)}


def test_staff_pin_menu_pages_badge_and_no_way_out():
    run_scenario("test_ui_screens", "scenario_staff", size=(1280, 800))


def scenario_web_address_whole(app):
    """The staff System page shows the spectators' address as one unbroken line for a visitor to
    type, whole in its box, however long the table's IPv4 address and port, and no smaller than
    the smallest text the kiosk shrinks words to."""
    from ui import theme
    from ui.widgets import SMALLEST_FONT

    widest = "http://255.255.255.255:65535/"
    app.services.settings.web_address = widest
    app.manager.current = "staff"
    app.staff.open_page("system")
    yield
    yield
    label = next(w for w in app.staff.content.walk() if getattr(w, "text", "") == widest)
    tw, th = label.texture_size
    assert th < 1.6 * label.font_size, "one line"
    assert tw <= label.width and label.x >= app.staff.content.x, (tw, label.width)
    assert label.font_size >= theme.font(label.scale) * SMALLEST_FONT - 0.5, (label.font_size, theme.font(label.scale))
    return {}


@pytest.mark.parametrize("size", [(720, 1280), (800, 480), (1280, 800)])
def test_the_staff_system_page_shows_the_web_address_unbroken(size):
    run_scenario("test_ui_screens", "scenario_web_address_whole", size=size)


def scenario_corner_rings_idle(app):
    from ui.services import Cue

    app.go_home()
    yield 0.2
    # a long press on the hidden corner opens the staff PIN
    x, y = app.corner.to_window(*app.corner.center)
    press = touch_at(x, y)
    press.touch_down()
    yield 2.8
    press.touch_up()
    assert app.manager.current == "staff-pin"
    # the space bar is the simulated bag button: a press wakes the attract screen, a hold opens staff
    from kivy.core.window import Window

    app.manager.current = "attract"
    Window.dispatch("on_key_down", 32, 44, " ", [])
    Window.dispatch("on_key_up", 32, 44)
    yield 0.1
    assert app.manager.current == "home"
    Window.dispatch("on_key_down", 32, 44, " ", [])
    yield 1.3
    Window.dispatch("on_key_up", 32, 44)
    yield 0.1
    assert app.manager.current == "staff-pin"
    app.go_home()
    # simulated rings are drawn from RingFrames: seat 0 red and lit
    app.services.devices.cue(Cue(turn=0, colours=("R", "B")))
    yield 0.1
    rings = app.simulated_panel.rings
    shot = Pixels(app.root)
    n = len(rings.frames.rings)
    radius = min(rings.height / 2 * 0.9, rings.width / n / 2 * 0.9)
    cx = rings.x + rings.width * 0.5 / n
    top = rings.to_window(cx, rings.center_y + radius * 0.75)
    colour = shot.at(*top)
    assert colour[0] > 120 and colour[0] > 3 * colour[1] and colour[0] > 3 * colour[2], colour
    # idle: back to the attract screen after settings.idle_seconds
    assert app.manager.current == "home"
    yield until(lambda: app.manager.current == "attract")
    assert app.manager.current == "attract"
    return {}


scenario_corner_rings_idle.prepare = lambda services: setattr(services.settings, "idle_seconds", 1.5)


def test_staff_corner_simulated_rings_and_idle_attract():
    run_scenario("test_ui_screens", "scenario_corner_rings_idle", size=(800, 480), panel=True)


def scenario_a_screen_replaced_by_one_of_its_name(app):
    """A screen that replaces the one on show under the same name (the next puzzle, Play again)
    keeps its name. Kivy's ``switch_to`` renamed it "_screen0": the next screen of that name was
    then added beside it, and every second replacement stayed in the manager for good, with its
    game (found by bench/ui_monkey.py, which saw screens called "_screen0")."""
    from kivy.uix.screenmanager import Screen

    app.go_home()
    yield from settled_screens()
    before = len(app.manager.screens)
    for _ in range(5):
        screen = Screen(name="probe")
        app.show(screen)
        yield from settled_screens()
        assert screen.name == "probe" and app.manager.current == "probe"
        assert app.manager.current_screen is screen and app.manager.get_screen("probe") is screen
    assert len(app.manager.screens) == before + 1, app.manager.screen_names
    return {}


def test_a_screen_replaced_by_one_of_its_name_keeps_the_name_and_the_old_one_goes():
    run_scenario("test_ui_screens", "scenario_a_screen_replaced_by_one_of_its_name", size=(800, 480))


def scenario_panel_reader_two_fingers(app):
    """The simulated panel's reader choice under two fingers: one held on it while another taps
    it (Kivy's Spinner there reopened its list while it was still closing, and the app stopped;
    found by bench/ui_monkey.py). Each release steps to the next reader, and a scan goes to the
    reader shown."""
    from ui.services import TileScanned

    panel = app.simulated_panel
    heard = []
    post = app.services.devices.listener
    app.services.devices.listener = lambda event: (heard.append(event), post(event))
    yield 0.2
    x, y = panel.reader.to_window(*panel.reader.center)
    held = touch_at(x, y)
    held.touch_down()
    yield
    for _ in range(2):
        yield from tap((x, y))
        yield 0.05
    held.touch_up()
    yield 0.1
    assert panel.reader.text == "Seat 3"  # Centre, then three releases: Seat 1, 2, 3
    panel.tile_input.text = "7"
    yield from tap(panel.scan_button)
    yield until(lambda: any(isinstance(e, TileScanned) for e in heard))
    assert [e for e in heard if isinstance(e, TileScanned)] == [TileScanned(7, 2)]  # seat 3: reader index 2
    app.set_language("fr")
    yield 0.1
    assert panel.reader.text == "Place 3"
    return {}


def test_the_simulated_panels_reader_takes_two_fingers_and_scans_on_the_reader_shown():
    run_scenario("test_ui_screens", "scenario_panel_reader_two_fingers", size=(800, 480), panel=True)


def scenario_home_with_the_simulated_panel(app):
    """Off the Pi the simulated devices' panel is shown: the home screen lies above it, and the
    audit finds nothing (its buttons over the home screen's, or under a fingertip, its words under
    2.5 mm: the space bar's hint was 11.9 px on the 7" panel)."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import Picture, audit

    app.go_home()
    yield 0.3
    assert app.simulated_panel.parent is not None
    return [str(p) for p in audit(app.root, tuple(Window.size), theme.min_target(), Picture(app.root))]


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_simulated_panel_covers_no_button_of_the_home_screen_and_its_own_are_fingertips(size):
    problems = run_scenario("test_ui_screens", "scenario_home_with_the_simulated_panel", size=size, panel=True)
    assert not problems, problems


def scenario_rings_out_at_home(app):
    """A game left mid-turn lights no seat at the home screen (nor, from there, in the staff menu)."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play
    from ui.services import Cue

    devices = app.services.devices
    screen = strategy_play.open_game(app, StrategyGame.new(2, "RY", [None, None], seed=5))
    yield until(lambda: devices.cues[-1].turn is not None)
    screen.leave()
    yield until(lambda: app.manager.current == "home")
    assert devices.cues[-1] == Cue(), devices.cues[-1]
    app.open_staff()
    yield until(lambda: app.manager.current == "staff-pin")
    assert devices.cues[-1] == Cue(), devices.cues[-1]
    return {}


def test_the_rings_go_out_at_the_home_screen_after_a_game_is_left():
    run_scenario("test_ui_screens", "scenario_rings_out_at_home", size=(800, 480))


class _Counter:
    """A test-only mode: a counter that finishes at 3."""

    KIND = "ui-test-counter"

    def __init__(self, count: int = 0) -> None:
        self.count = count

    @property
    def finished(self) -> bool:
        return self.count >= 3

    def to_json(self):
        return {"count": self.count}

    @classmethod
    def from_json(cls, data):
        if not isinstance(data.get("count"), int):
            raise ValueError("count must be a whole number")
        return cls(data["count"])


def _prepare_resume(services):
    from engine.modes import register, save

    register(_Counter)
    services.store.save_current(save(_Counter(2)))


def scenario_resume(app):
    from kivy.uix.label import Label
    from kivy.uix.screenmanager import Screen

    from ui.navigation import kind_screen

    @kind_screen("ui-test-counter")
    def build(app, mode):
        screen = Screen(name="counter")
        screen.mode = mode
        screen.add_widget(Label(text=f"count {mode.count}"))
        return screen

    yield 0.2
    assert app.manager.current == "resume"
    assert "A game was interrupted" in labels(app.root)
    # a stray touch on Discard asks first; "Keep it" keeps the game
    from ui.widgets import Confirm

    card = app.manager.current_screen
    yield from tap(card.discard_button)
    question = next(w for w in card.children if isinstance(w, Confirm))
    assert "Discard this game? It cannot be resumed." in labels(question)
    yield from tap(question.no_button)
    assert app.manager.current == "resume" and question.parent is None
    assert app.services.store.load_current() is not None
    yield from tap(app.manager.current_screen.resume_button)
    assert app.manager.current == "counter"
    assert app.manager.current_screen.mode.count == 2
    return {}


scenario_resume.prepare = _prepare_resume


def test_an_interrupted_game_is_offered_and_resumed_on_its_screen():
    run_scenario("test_ui_screens", "scenario_resume", size=(800, 480))


def scenario_resume_after_idle(app):
    """Nobody answers the card after a power cut: it gives way to the attract screen, and the
    first touch there (or the bag button) offers the game again, not the home screen."""
    from kivy.core.window import Window

    yield until(lambda: app.manager.current == "resume")
    app.services.settings.idle_seconds = 1.0  # only now: a slow start must not count as idleness
    yield until(lambda: app.manager.current == "attract")
    yield from tap(app.attract)
    assert app.manager.current == "resume" and app.saved
    yield until(lambda: app.manager.current == "attract")
    Window.dispatch("on_key_down", 32, 44, " ", [])  # the bag button wakes it too
    Window.dispatch("on_key_up", 32, 44)
    yield until(lambda: app.manager.current != "attract")
    assert app.manager.current == "resume"
    app.discard()  # once it is discarded, a touch on the attract screen goes home
    app.manager.current = "attract"
    yield from tap(app.attract)
    assert app.manager.current == "home"
    return {}


def _prepare_resume_after_idle(services):
    _prepare_resume(services)
    services.settings.idle_seconds = 3600.0  # the scenario shortens it once it has seen the card


scenario_resume_after_idle.prepare = _prepare_resume_after_idle


def test_a_game_left_unanswered_after_a_power_cut_is_offered_again_from_the_attract_screen():
    run_scenario("test_ui_screens", "scenario_resume_after_idle", size=(800, 480))


def scenario_resume_unknown(app):
    yield 0.2
    screen = app.manager.current_screen
    assert app.manager.current == "resume"
    yield from tap(screen.resume_button)
    assert "This game cannot be resumed" in labels(screen) and screen.resume_button.opacity == 0
    yield from tap(screen.discard_button)
    assert app.manager.current == "home"
    assert app.services.store.load_current() is None
    return {}


scenario_resume_unknown.prepare = lambda services: services.store.save_current({"kind": "no-such-mode", "state": {}})


def test_a_saved_game_that_cannot_be_restored_is_explained_and_discarded():
    run_scenario("test_ui_screens", "scenario_resume_unknown", size=(800, 480))


def scenario_staff_returns_and_locks(app):
    """Mid-game, holding the bag button opens the PIN pad; Cancel and Close go back to the game;
    a 12-digit PIN can be typed; a locked keypad says for how long; a damaged saved game can be
    discarded."""
    from kivy.uix.label import Label
    from kivy.uix.screenmanager import Screen

    shots = os.environ.get("TANTRIX_SHOTS")
    assert app.manager.current == "resume" and "This game cannot be resumed" in labels(app.manager.current_screen)
    assert not app.manager.current_screen.resume_button.opacity
    if shots:
        yield 0.2
        app.root.export_to_png(f"{shots}/resume-damaged-{app.root.width}.png")
    app.discard()
    game = Screen(name="game-in-progress")
    game.add_widget(Label(text="a game"))
    app.show(game)
    yield 0.1
    app.services.devices.press_button(held=True)
    yield until(lambda: app.manager.current == "staff-pin")
    yield 0.2  # laid out before the taps
    assert app.manager.current == "staff-pin"
    cancel = next(w for w in app.pin.walk() if getattr(w, "msg", "") == "Cancel")
    yield from tap(cancel)
    assert app.manager.current == "game-in-progress", app.manager.current  # the game goes on
    app.services.devices.press_button(held=True)
    yield until(lambda: app.manager.current == "staff-pin")
    yield 0.2  # laid out before the taps
    yield from _press_keys(app, list("271828182845") + ["9", "OK"])  # a 13th digit is not taken
    assert app.manager.current == "staff"
    close = next(w for w in app.staff.walk() if getattr(w, "msg", "") == "Close")
    yield from tap(close)
    assert app.manager.current == "game-in-progress"
    app.services.settings.wait = 125.0
    app.open_staff()
    yield until(lambda: any("Too many wrong PINs" in t for t in labels(app.pin)))
    yield 0.2
    assert any("Too many wrong PINs. Try again in 2 min 5 s." in t for t in labels(app.pin))
    assert app.pin.keypad.disabled
    if shots:
        app.root.export_to_png(f"{shots}/pin-locked-{app.root.width}.png")
    app.services.settings.wait = 9.2
    yield until(lambda: any("Try again in 10 s." in t for t in labels(app.pin)))
    app.services.settings.wait = 0.0
    yield until(lambda: any("Enter the staff PIN" in t for t in labels(app.pin)))
    assert not app.pin.keypad.disabled
    return {}


def _damaged_store(services):
    def damaged():
        raise ValueError("the saved game is damaged (damaged JSON: Expecting value)")

    services.settings.pin = "271828182845"
    services.store.load_current = damaged


scenario_staff_returns_and_locks.prepare = _damaged_store


def test_staff_returns_to_the_game_takes_long_pins_and_shows_the_lock():
    run_scenario("test_ui_screens", "scenario_staff_returns_and_locks", size=(800, 480))


def scenario_event_flood(app):
    """A device thread posts ring frames as fast as it can (the rings' frames on a busy Pi), with a
    few device statuses among them: the screen keeps drawing, the queue stays short, every status
    is handled, in order, and the rings show the newest frame, not a backlog."""
    from kivy.clock import Clock

    from ui.services import DeviceStatus, RingFrames

    handled = []
    original = app.handle

    def spy(event):
        handled.append(event)
        original(event)

    app.handle = spy
    frames = [0]
    counter = Clock.schedule_interval(lambda _dt: frames.__setitem__(0, frames[0] + 1), 0)
    stop, posted, longest = threading.Event(), [0], [0]

    def flood():
        n = 0
        while not stop.is_set():
            n += 1
            app.post(RingFrames((((n % 256, 0, 0),) * 12,)))  # one ring of 12 LEDs
            if n % 5000 == 0:
                app.post(DeviceStatus("reader", n % 10000 == 0, "simulated", str(n)))
            longest[0] = max(longest[0], len(app._events))
        posted[0] = n

    worker = threading.Thread(target=flood, daemon=True)
    worker.start()
    start = frames[0]
    yield until(lambda: frames[0] >= start + 30 and sum(isinstance(e, DeviceStatus) for e in handled) >= 4, 60)
    stop.set()
    worker.join(10)
    yield until(lambda: not app._events, 10)
    counter.cancel()
    statuses = [int(e.detail) for e in handled if isinstance(e, DeviceStatus)]
    rings = [e for e in handled if isinstance(e, RingFrames)]
    assert frames[0] >= start + 30, "the screen stopped drawing under the flood"
    assert len(statuses) >= 4 and statuses == sorted(statuses) and statuses == list(range(5000, 5000 * len(statuses) + 1, 5000))
    assert len(rings) < posted[0] / 10  # older frames were dropped, not drawn one by one
    assert rings[-1].rings[0][0][0] == posted[0] % 256  # the last frame shown is the newest posted
    return {"posted": posted[0], "drawn": len(rings), "longest": longest[0]}


def test_a_device_flooding_the_ui_neither_stops_the_screen_nor_loses_its_statuses():
    result = run_scenario("test_ui_screens", "scenario_event_flood", size=(800, 480))
    assert result["posted"] >= 20000
