"""A club evening on two kiosks at once, by touch, through a real Mosquitto on 127.0.0.1.

Table 1's staff start a four-player tournament; table 2 (which has never seen these players) hears
of it through the club's broker: its staff's **Club evening** opens the tournament of table 1, and so
does the **Club evening** button its home screen now shows players, its pairings with Play. Table 2 plays the second pairing, and table 1 shows "at table-2" beside it and
plays the first. Each game's result goes into its record; table 1 enters table 2's from the shared
game, and both tables end with the same final standings and the same ladder. Every wait is for a
condition. Each kiosk is a real UI in its own process (``ui_harness``); they talk only through the
broker.

Set TOURNAMENT_SHOTS=<dir> to save the screens as PNGs to look at."""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from mqtt_broker import Broker
from test_ui_tournament import NAMES, PROBLEMS, _look, _to_the_end
from ui_harness import run_scenario, tap, until

BROKER = "TANTRIX_TEST_BROKER"
"""The environment variable that tells each kiosk's process where the club's broker is."""


def _table(name: str, people: tuple[str, ...]) -> Any:
    """A scenario's ``prepare``: table ``name`` with its store, its players book (``people`` in it)
    and its link to the club's broker."""

    def prepare(services: Any) -> None:
        from firmware.club import ClubLink
        from firmware.config import ClubConfig
        from firmware.players import Players
        from firmware.store import SqliteStore

        broker = json.loads(os.environ[BROKER])
        services.store = SqliteStore(tempfile.mkdtemp(prefix=f"tantrix-{name}-"))
        services.players = Players(services.store)
        for person in people:
            services.players.create(person, "sky:star")
        config = ClubConfig(enabled=True, broker="127.0.0.1", port=broker["port"], table=name,
                            password_file=broker["passwords"][name])
        services.club = ClubLink(config, services.players, store=services.store, reconnect=(1, 2), poll=0.05)
        assert services.club.start()

    return prepare


def _rows(screen: Any) -> list[Any]:
    """The tournament screen's pairing rows, top first."""
    return list(reversed(screen.pairings.children))


def _play_button(row: Any) -> Any:
    return next(w for w in row.children if getattr(w, "msg", "") == "Play")


def _finish_here(app: Any) -> Any:
    """Both people play like beginners to the end (through the engine); the game's end as the table
    sees it; back to the tournament from the results."""
    from ui.screens.tournament import TournamentScreen

    yield until(lambda: app.manager.current == "strategy")
    _to_the_end(app)
    app.manager.current_screen.after_step()
    yield until(lambda: app.manager.current == "strategy-results", 10.0)
    results = app.manager.current_screen
    assert results.again_button is None and results.home_button.msg == "Tournament"
    yield from tap(results.home_button)
    assert isinstance(app.manager.current_screen, TournamentScreen)


def _start_evening(app: Any, rounds: int) -> Any:
    """Staff start an evening of every player the table knows, ``rounds`` rounds, no clock, by touch."""
    from ui.screens.tournament import TournamentSetupScreen, open_tournament

    setup = open_tournament(app)
    assert isinstance(setup, TournamentSetupScreen)
    for chip in setup.chips:
        yield from tap(chip)
    yield from tap(setup.rounds_row.chip(rounds))
    yield from tap(setup.clock_row.chip(0))
    yield from tap(setup.start_button)


def _ladder(app: Any) -> list[tuple[str, float, float, int]]:
    return [(row.player.name, round(row.rating.mu, 9), round(row.rating.sigma, 9), row.games)
            for row in app.services.players.ladder()]


def scenario_table_1(app):
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import load

    club = app.services.club
    yield until(lambda: club.status()["state"] == "connected", 60.0)
    assert app.home.evening_button.parent is None  # no evening anywhere yet: no such button at home
    yield from _start_evening(app, rounds=1)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.host is None
    # table 2 takes the second pairing: its row says where it is played
    yield until(lambda: any(getattr(w, "msg", "") == "at {table}" for w in _rows(screen)[1].walk(restrict=True)), 90.0)
    assert not any(getattr(w, "msg", "") == "at {table}" for w in _rows(screen)[0].walk(restrict=True))
    yield 0.3
    _look(app, "club-evening-table-1-playing-at-table-2")
    yield from tap(_play_button(_rows(screen)[0]))
    yield from _finish_here(app)
    screen = app.manager.current_screen
    yield until(lambda: screen.heading.msg == "Final standings", 90.0)
    yield until(lambda: len(app.services.players.shared_games()) == 2, 30.0)
    yield 0.3
    _look(app, "club-evening-table-1-final")
    tournament = load(app)
    return {"tournament": tournament.to_json(), "ladder": _ladder(app), "problems": PROBLEMS}


scenario_table_1.prepare = _table("table-1", NAMES)


def scenario_table_2(app):
    from ui.screens.tournament import TournamentScreen, open_tournament

    club = app.services.club
    yield until(lambda: "table-1" in club.tournaments() and len(app.services.players.all()) == len(NAMES), 90.0)
    assert open_tournament(app).host == "table-1"  # staff's Club evening: the tournament table 1 runs
    app.go_home()  # and the players' way, with no PIN: the home screen's Club evening
    yield until(lambda: app.home.evening_button.parent is not None)
    yield 0.3
    _look(app, "club-evening-home-table-2")
    yield from tap(app.home.evening_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.host == "table-1"
    assert screen.heading.msg == "{table}: round {round} of {rounds}" and screen.heading.values["table"] == "table-1"
    yield 0.3
    _look(app, "club-evening-table-2")
    yield from tap(_play_button(_rows(screen)[1]))
    # table 1 plays its own pairing once it has seen this one taken: the game here ends after that
    yield until(lambda: club.tournaments()["table-1"].get("playing") is not None, 90.0)
    yield from _finish_here(app)
    record = app.services.store.records("strategy")[0][2]
    entry = record["tournament"]
    assert entry["round"] == 1 and entry["id"] == club.tournaments()["table-1"]["tournament"]["id"]
    screen = app.manager.current_screen
    assert screen.host == "table-1"
    yield until(lambda: screen.heading.msg == "{table}: final standings", 90.0)
    yield until(lambda: len(app.services.players.shared_games()) == 2, 30.0)
    standings = [w.text for w in reversed(screen.standings.children)][5:]
    yield 0.3
    _look(app, "club-evening-table-2-final")
    return {"tournament": club.tournaments()["table-1"]["tournament"], "entry": entry, "ladder": _ladder(app),
            "standings": standings, "problems": PROBLEMS}


scenario_table_2.prepare = _table("table-2", ())


@pytest.mark.parametrize("one_size, one_language, two_size, two_language", [
    ((800, 480), "en", (800, 480), "pl"), ((1280, 800), "fr", (720, 1280), "nl")])
def test_a_club_evening_played_on_two_kiosks_at_once(tmp_path, monkeypatch, one_size, one_language, two_size,
                                                      two_language):
    with Broker(tmp_path / "broker", tables=("table-1", "table-2")) as broker:
        monkeypatch.setenv(BROKER, json.dumps({"port": broker.port, "passwords": {
            name: str(broker.password_file(name)) for name in broker.tables}}))
        with ThreadPoolExecutor(2) as pool:
            one = pool.submit(run_scenario, "test_ui_club_evening", "scenario_table_1", size=one_size, timeout=240,
                              settings={"language": one_language})
            two = pool.submit(run_scenario, "test_ui_club_evening", "scenario_table_2", size=two_size, timeout=240,
                              settings={"language": two_language})
            here, there = one.result(), two.result()
    assert here["problems"] == [] and there["problems"] == []
    tournament = here["tournament"]
    assert there["tournament"] == tournament  # both tables show the same evening
    (games,) = tournament["played"]
    assert all(game["scores"] is not None for game in games)
    second = games[1]  # the game table 2 played, entered at table 1 as it ended there
    assert [second["first"], second["second"]] == [there["entry"]["first"], there["entry"]["second"]]
    assert second["scores"] == there["entry"]["scores"]
    assert here["ladder"] == there["ladder"] and all(games == 1 for *_, games in here["ladder"])
    assert sorted(there["standings"][1::5]) == sorted(NAMES)


# ----------------------------------------------- the table running the evening goes: taken over

TAKEN = "TANTRIX_TEST_TAKEN"
"""A file table 2 writes once it has taken the evening over: table 1's cue to come back (its
owner switching it on again; the two kiosks share nothing else but the broker)."""


def scenario_table_1_goes_away(app):
    from firmware.club import ClubLink
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import TOURNAMENT, load

    club = app.services.club
    yield until(lambda: club.status()["state"] == "connected" and club.online("table-2"), 60.0)
    yield from _start_evening(app, rounds=2)
    screen = app.manager.current_screen
    started = load(app)
    assert isinstance(screen, TournamentScreen) and started is not None
    yield until(lambda: club.status()["published"] >= 1, 30.0)  # the evening is on the broker, retained
    club.close()  # the table goes: its screen broke mid-evening
    app.services.club = None
    yield until(lambda: os.path.exists(os.environ[TAKEN]), 120.0)
    # switched on again: it hears table 2 runs the evening now, and gives it up
    app.services.club = club = ClubLink(club.config, app.services.players, store=app.services.store,
                                        reconnect=(1, 2), poll=0.05)
    assert club.start()
    yield until(lambda: app.services.store.progress(TOURNAMENT).get("club") is not None, 60.0)
    assert app.services.store.progress(TOURNAMENT)["club"] == {"table": "table-2", "id": started.id}
    yield until(lambda: screen.host == "table-2" and screen.heading.values.get("round") == 2, 90.0)
    assert screen.end_button is None  # staff here no longer end it: table 2 runs it
    club.close()
    return {"id": started.id, "problems": PROBLEMS}


scenario_table_1_goes_away.prepare = _table("table-1", NAMES)


def scenario_table_2_takes_over(app):
    from ui.screens.tournament import TournamentScreen, open_tournament
    from ui.tournament_store import TOURNAMENT, load
    from ui.widgets import Confirm

    club = app.services.club
    yield until(lambda: "table-1" in club.tournaments() and len(app.services.players.all()) == len(NAMES), 90.0)
    yield until(lambda: not club.online("table-1"), 60.0)
    screen = open_tournament(app)
    assert screen.host == "table-1"
    yield until(lambda: screen.take_button is not None, 10.0)
    yield 0.3
    _look(app, "club-evening-table-1-gone")
    yield from tap(screen.take_button)
    yield from tap(next(w for w in screen.children if isinstance(w, Confirm)).yes_button)
    yield until(lambda: isinstance(app.manager.current_screen, TournamentScreen)
                and app.manager.current_screen.host is None)
    kept = app.services.store.progress(TOURNAMENT)
    assert kept["generation"] == 1 and set(kept["names"].values()) == set(NAMES)
    with open(os.environ[TAKEN], "w") as flag:
        flag.write("taken")
    for pairing in range(2):  # round 1, both pairings played here; then this table pairs round 2
        screen = app.manager.current_screen
        yield from tap(_play_button(_rows(screen)[pairing]))
        yield from _finish_here(app)
    screen = app.manager.current_screen
    yield until(lambda: screen.heading.values.get("round") == 2, 10.0)
    yield until(lambda: (club.tournaments().get("table-1") or {}).get("club", {}).get("table") == "table-2", 90.0)
    here = load(app)
    assert here is not None and len(here.played) == 2  # still this table's to run
    yield 0.3
    _look(app, "club-evening-taken-over")
    return {"id": here.id, "problems": PROBLEMS}


scenario_table_2_takes_over.prepare = _table("table-2", ())


def test_staff_take_over_an_evening_whose_table_went_and_it_gives_the_evening_up_on_its_return(tmp_path, monkeypatch):
    with Broker(tmp_path / "broker", tables=("table-1", "table-2")) as broker:
        monkeypatch.setenv(BROKER, json.dumps({"port": broker.port, "passwords": {
            name: str(broker.password_file(name)) for name in broker.tables}}))
        monkeypatch.setenv(TAKEN, str(tmp_path / "taken"))
        with ThreadPoolExecutor(2) as pool:
            one = pool.submit(run_scenario, "test_ui_club_evening", "scenario_table_1_goes_away", size=(800, 480),
                              timeout=300)
            two = pool.submit(run_scenario, "test_ui_club_evening", "scenario_table_2_takes_over", size=(720, 1280),
                              timeout=300, settings={"language": "nl"})
            gone, taker = one.result(), two.result()
    assert gone["problems"] == [] and taker["problems"] == [] and gone["id"] == taker["id"]
