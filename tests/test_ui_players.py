"""The players' screens driven with touches: picking a seat's player from the name buttons, making
a new one on the table's keyboard (with Polish letters) and an avatar, and the ladder with charts.
The players book is the firmware's own, on a SQLite database in a temporary directory."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest
from ui_harness import run_scenario, tap, until
from engine.strategy.robots import robot_move

SHOTS = os.environ.get("TANTRIX_SHOTS")
"""A directory to save the screens in (for people to look at), or None."""


def _book(services: Any) -> None:
    from engine.ratings import Outcome
    from firmware.players import Players
    from firmware.store import SqliteStore

    players = Players(SqliteStore(tempfile.mkdtemp(prefix="tantrix-players-")))
    ana = players.create("Ana", "sky:star")
    bo = players.create("Bartłomiej", "vermilion:triangle")
    cy = players.create("Cécile", "green:hexagon")
    results = [((ana.id,), ("robot:club",)), ((bo.id,), (ana.id,), ("robot:beginner",)), ((cy.id,), (bo.id,))]
    for n in range(9):
        sides = results[n % 3]
        players.record_game("tantrix", Outcome(f"g{n}", sides, tuple(range(1, len(sides) + 1))), finished=float(n))
    services.players = players


def _shot(app: Any, name: str) -> None:
    if SHOTS:
        from kivy.core.window import Window

        app.root.export_to_png(os.path.join(SHOTS, f"{Window.width}x{Window.height}-{name}.png"))


def scenario_pick_and_make_a_player(app):
    from engine.players import ACCENTED
    from ui.i18n import _, i18n
    from ui.screens.players import NAME_RULES, NewPlayerScreen, PlayerPickerScreen

    book = app.services.players
    picked: list[Any] = []
    picker = PlayerPickerScreen(book, on_pick=picked.append, on_back=lambda: None)
    app.show(picker)
    yield 0.2
    _shot(app, f"players-pick-{i18n.language}")
    names = [b.text for b in picker.buttons]
    assert names == ["Cécile", "Bartłomiej", "Ana"]  # newest first
    for button in picker.buttons:
        assert button.height >= 45 and button.width >= 45
    yield from tap(picker.buttons[1])
    assert [p.name for p in picked] == ["Bartłomiej"]
    yield from tap(picker.grid.children[-1])  # Guest
    assert picked[-1] is None
    yield from tap(picker.grid.children[-2])  # New player
    yield until(lambda: isinstance(app.manager.current_screen, NewPlayerScreen))
    keyboard = app.manager.current_screen
    for code, letters in ACCENTED.items():  # every language's accents, each key a finger wide
        keyboard._switch_accents(code)
        yield 0.1
        accents = [k for c, k in keyboard.keys.items() if c in letters]
        assert len(accents) == len(letters) and all(k.width >= 45 and k.height >= 45 for k in accents), code
        if code == "fr":
            _shot(app, f"players-new-fr-accents-{i18n.language}")
    keyboard._switch_accents("pl")
    yield
    for char in "ŁUCJA":
        yield from tap(keyboard.keys[char])
    keyboard.message.text = ""
    yield from tap(keyboard.avatars.children[-1 - 5])  # the sixth colour (vermilion)
    yield from tap(keyboard.avatars.children[0])  # the last symbol (hexagon)
    _shot(app, f"players-new-{i18n.language}")
    assert keyboard.name_text == "Łucja" and keyboard.avatar == "vermilion:hexagon"
    assert all(k.height >= 45 for k in keyboard.keys.values())
    yield from tap(keyboard.ok)
    assert picked[-1].name == "Łucja" and picked[-1].avatar == "vermilion:hexagon"
    assert [p.name for p in book.all()][0] == "Łucja"
    # a name already taken is refused with the reason, and nothing is made
    app.show(keyboard)
    keyboard.name_text, keyboard.upper = "", True
    for char in "ANA":
        yield from tap(keyboard.keys[char])
    yield from tap(keyboard.ok)
    assert keyboard.name_text == "Ana" and len(book.all()) == 4
    assert keyboard.message.text == _(NAME_RULES["taken"], name="Ana")
    _shot(app, f"players-refused-{i18n.language}")
    return len(picked)


scenario_pick_and_make_a_player.prepare = _book


def scenario_ladder(app):
    from ui.i18n import i18n
    from ui.screens.ladder import LadderScreen, Sparkline

    book = app.services.players
    screen = LadderScreen(book, on_back=lambda: None)
    app.show(screen)
    yield 0.2
    _shot(app, f"ladder-{i18n.language}")
    rows = list(reversed(screen.rows.children))
    expected = [row.player.name for row in book.ladder()]
    shown = [[w.text for w in reversed(row.children) if hasattr(w, "text")][1] for row in rows]
    assert shown == expected and len(expected) == 3
    charts = [w for row in rows for w in row.children if isinstance(w, Sparkline)]
    assert [len(c.points) for c in charts] == [len(book.history(r.player.id)) for r in book.ladder()]
    assert all(len(c.canvas.children) > 0 for c in charts)
    games = [[w.text for w in reversed(row.children) if hasattr(w, "text")][3] for row in rows]
    return shown, [[row.games, text] for row, text in zip(book.ladder(), games)]


scenario_ladder.prepare = _book


@pytest.mark.parametrize("size, language", [((800, 480), "pl"), ((1280, 800), "fr")])
def test_a_seat_picks_a_player_or_makes_one_on_the_keyboard(size, language):
    picked = run_scenario("test_ui_players", "scenario_pick_and_make_a_player", size=size,
                          settings={"language": language})
    assert picked == 3


@pytest.mark.parametrize("size, language", [((800, 480), "nl"), ((1280, 800), "en")])
def test_the_ladder_lists_players_best_first_with_their_charts(size, language):
    shown, games = run_scenario("test_ui_players", "scenario_ladder", size=size, settings={"language": language})
    assert sorted(shown) == ["Ana", "Bartłomiej", "Cécile"]
    word = {"nl": ("partij", "partijen"), "en": ("game", "games")}[language]  # a count in the language's plural
    assert games == [[count, f"{count} {word[count != 1]}"] for count, _text in games], games


def scenario_a_seated_player_is_rated_at_the_end(app):
    from engine.strategy.robots import make_robot
    from ui.modes.strategy import play as strategy_play, setup as tantrix
    from ui.screens.players import PlayerPickerScreen
    from ui.seat_players import rate_finished

    book = app.services.players
    before = {row.player.name: row.games for row in book.ladder()}
    app.open_family("tantrix")
    yield 0.2
    setup = app.manager.current_screen
    assert isinstance(setup, tantrix.TantrixSetupScreen)
    yield from tap(setup.cards[1].kind.chip(False))  # both seats people: no robot thread to race
    who = setup.cards[0].bottom.children[0]
    yield from tap(who)
    picker = app.manager.current_screen
    assert isinstance(picker, PlayerPickerScreen)
    yield from tap(next(b for b in picker.buttons if b.text == "Ana"))
    assert app.manager.current_screen is setup and setup.seats[0].player.name == "Ana"
    assert setup.cards[0].bottom.children[0].text == "Ana" and setup.seats[1].player is None
    yield 0.2
    _shot(app, "setup-with-players")
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, strategy_play.StrategyScreen)
    game = screen.game
    robot = make_robot("beginner")
    while not game.finished:  # both people play like beginners, straight through the engine
        robot_move(game, robot)
    screen.finish()
    record_id, _kind, record = app.services.store.records("strategy")[0]
    assert record["result"] == game.record()["result"]
    after = {row.player.name: row.games for row in book.ladder()}
    assert after["Ana"] == before["Ana"] + 1 and after["Bartłomiej"] == before["Bartłomiej"]
    ana = next(p for p in book.all() if p.name == "Ana")
    latest = book.results(ana.id)[0]
    assert latest.record_id == record_id and latest.sides == 2
    assert latest.place == (1 if game.result.winner in ("R", None) else 2)
    rate_finished(app, game, record_id)  # the end seen again (e.g. after a restart) counts once
    assert {row.player.name: row.games for row in book.ladder()}["Ana"] == after["Ana"]
    # Play again: the same people in the same seats, so Ana's next game is hers too
    yield until(lambda: app.manager.current == "strategy-results")
    yield from tap(app.manager.current_screen.again_button)
    yield until(lambda: app.manager.current == "strategy" and app.manager.current_screen.game is not game)
    screen = app.manager.current_screen
    while not screen.game.finished:
        robot_move(screen.game, robot)
    screen.finish()
    assert {row.player.name: row.games for row in book.ladder()}["Ana"] == after["Ana"] + 1
    assert book.results(ana.id)[0].record_id == app.services.store.records("strategy")[0][0] != record_id
    return after["Ana"]


scenario_a_seated_player_is_rated_at_the_end.prepare = _book


def test_a_player_picked_at_a_seat_is_rated_once_when_the_game_ends():
    assert run_scenario("test_ui_players", "scenario_a_seated_player_is_rated_at_the_end", size=(800, 480)) == 7


def scenario_home_opens_the_ladder(app):
    from ui.screens.ladder import LadderScreen

    app.go_home()
    yield 0.2
    _shot(app, "home-with-ladder")
    button = app.home.ladder_button
    assert button.height >= 45 and button.width >= 45
    yield from tap(button)
    assert isinstance(app.manager.current_screen, LadderScreen)
    return len(app.manager.current_screen.rows.children)


scenario_home_opens_the_ladder.prepare = _book


def test_home_opens_the_ladder():
    assert run_scenario("test_ui_players", "scenario_home_opens_the_ladder", size=(800, 480),
                        settings={"language": "pl"}) == 3


def scenario_staff_manage_players(app):
    import json

    from ui.screens.players import NewPlayerScreen
    from ui.screens.staff_players import StaffPlayersScreen
    from ui.widgets import Confirm

    book = app.services.players
    app.show(app.staff)  # as after the staff PIN
    yield 0.2
    _shot(app, "staff-menu")
    assert app.staff.players_button.height >= 45
    yield from tap(app.staff.players_button)
    screen = app.manager.current_screen
    assert isinstance(screen, StaffPlayersScreen)
    yield 0.2
    _shot(app, "staff-players")
    ids = {p.name: p.id for p in book.all()}

    def button(name, label):
        from ui.i18n import _
        return next(w for w in screen.lines[ids[name]].children if getattr(w, "text", None) == _(label))

    yield from tap(button("Ana", "Rename"))
    keyboard = app.manager.current_screen
    assert isinstance(keyboard, NewPlayerScreen) and keyboard.name_text == "Ana"
    yield from tap(keyboard.keys["S"])
    yield from tap(keyboard.ok)
    assert app.manager.current_screen is screen and book.get(ids["Ana"]).name == "Anas"
    ids["Anas"] = ids["Ana"]
    yield from tap(button("Cécile", "Merge"))
    _shot(app, "staff-players-merging")
    yield from tap(button("Anas", "Into this one"))
    assert [p.name for p in book.all()] == ["Bartłomiej", "Anas"]
    assert len(book.results(ids["Anas"])) == 9  # Cécile's games are Anas's now
    yield from tap(button("Bartłomiej", "Delete"))
    confirm = next(w for w in screen.children if isinstance(w, Confirm))
    yield from tap(confirm.yes_button)
    assert [p.name for p in book.all()] == ["Anas"]
    yield from tap(screen.export_button)
    path = screen.message.text.rsplit(" ", 1)[-1]
    with open(path, encoding="utf-8") as exported:
        data = json.load(exported)
    return [p["name"] for p in data["players"]]


scenario_staff_manage_players.prepare = _book


def scenario_export_that_cannot_be_written(app):
    import shutil

    app.show(app.staff)
    yield 0.2
    yield from tap(app.staff.players_button)
    screen = app.manager.current_screen
    yield 0.2
    # the state directory cannot take the file (a full or read-only card; here it is gone)
    shutil.rmtree(app.services.players._store.path.parent)
    yield from tap(screen.export_button)
    yield 0.1
    assert app.manager.current_screen is screen
    return screen.message.text


scenario_export_that_cannot_be_written.prepare = _book


def test_an_export_that_cannot_be_written_says_so_never_a_crash():
    said = run_scenario("test_ui_players", "scenario_export_that_cannot_be_written", size=(800, 480))
    assert said.startswith("Could not write the export: ")


@pytest.mark.parametrize("size, language", [((800, 480), "en"), ((1280, 800), "nl")])
def test_staff_rename_merge_delete_and_export_players(size, language):
    assert run_scenario("test_ui_players", "scenario_staff_manage_players", size=size,
                        settings={"language": language}) == ["Anas"]
