"""A club evening by touch: staff start a tournament from the Players page (players, rounds, clock),
the pairings and standings show, each game is played at the table and its result goes into the
tournament by itself, and the next round pairs nobody twice (engine.tournament decides pairings
and standings; this checks the screens use it and keep it in the store).

Set TOURNAMENT_SHOTS=<dir> to save the screens as PNGs to look at."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest
from ui_harness import Pixels, run_scenario, tap, until
from engine.strategy.robots import robot_move

SHOTS = os.environ.get("TOURNAMENT_SHOTS")
NAMES = ("Ana", "Bartłomiej", "Cécile", "Dominika Ż.")


def _shot(app: Any, name: str) -> None:
    if SHOTS:
        from kivy.core.window import Window

        app.root.export_to_png(os.path.join(SHOTS, f"{Window.width}x{Window.height}-{name}.png"))


def _book(services: Any) -> None:
    from firmware.players import Players
    from firmware.store import SqliteStore

    players = Players(SqliteStore(tempfile.mkdtemp(prefix="tantrix-tournament-")))
    for name, avatar in zip(NAMES, ("sky:star", "vermilion:triangle", "green:hexagon", "purple:circle")):
        players.create(name, avatar)
    services.players = players


def _play_until_time_out(app: Any, game: Any) -> int:
    """The two people play a few tiles like beginners (through the engine), then the one ahead
    runs out of time (the table plays "loss on time"): the seat that lost."""
    from engine.strategy.robots import make_robot

    robot = make_robot("beginner")
    while len(game.board) < 8:
        robot_move(game, robot)
    ahead = max((0, 1), key=lambda seat: (game.board.score(game.colour_of(seat)), -seat))
    game.time_out(ahead)
    app.manager.current_screen.after_step()  # as the clock's tick does: journaled, then the end
    return ahead


def scenario_tournament(app):
    from ui.screens.staff_players import StaffPlayersScreen
    from ui.screens.tournament import TournamentScreen, TournamentSetupScreen
    from ui.tournament_store import TOURNAMENT
    from ui.seat_players import SEATED

    book = app.services.players
    ids = {p.name: p.id for p in book.all()}
    app.show(StaffPlayersScreen(app))
    yield 0.3
    _shot(app, "staff-players")
    yield from tap(app.manager.current_screen.tournament_button)
    setup = app.manager.current_screen
    assert isinstance(setup, TournamentSetupScreen)
    yield from tap(setup.start_button)  # nobody chosen yet: refused, said, nothing kept
    assert app.services.store.progress(TOURNAMENT) == {} and "two" in setup.message.text
    for chip in setup.chips:
        yield from tap(chip)
    yield from tap(setup.rounds_row.chip(2))
    yield from tap(setup.clock_row.chip(0))
    yield 0.2
    _shot(app, "tournament-setup")
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen)
    kept = app.services.store.progress(TOURNAMENT)["tournament"]
    assert sorted(kept["players"]) == sorted(ids.values()) and kept["rounds"] == 2 and kept["minutes"] == 0
    first_round = [(g["first"], g["second"]) for g in kept["played"][0]]
    assert len(first_round) == 2 and all(g["scores"] is None for g in kept["played"][0])
    yield 0.3
    _shot(app, "tournament-round-1")
    for number in range(2):
        play = next(b for line in screen.pairings.children for b in line.children if getattr(b, "msg", "") == "Play")
        yield from tap(play)
        yield until(lambda: app.manager.current == "strategy")
        game = app.manager.current_screen.game
        playing = app.services.store.progress(TOURNAMENT)["playing"]
        pair = (playing["first"], playing["second"])
        assert pair in first_round
        assert app.services.store.progress(SEATED)["players"] == list(pair)  # seated: the game is rated
        assert app.manager.current_screen.clocks is None  # "No clock" chosen
        out = _play_until_time_out(app, game)
        yield until(lambda: app.manager.current == "strategy-results", 10.0)
        results = app.manager.current_screen
        assert results.again_button is None and results.home_button.msg == "Tournament"
        played = app.services.store.progress(TOURNAMENT)["tournament"]["played"][0]
        scores = next(g["scores"] for g in played if (g["first"], g["second"]) == pair)
        # the result as the game ended: the seat out of time lost, even though it was ahead
        assert scores[out] < scores[1 - out] and scores[1 - out] == game.result.scores[game.colour_of(1 - out)]
        if number == 0:
            _shot(app, "tournament-results")
        yield from tap(results.home_button)
        screen = app.manager.current_screen
        assert isinstance(screen, TournamentScreen)
    # the round's last result paired the next round: nobody had to ask
    kept = app.services.store.progress(TOURNAMENT)["tournament"]
    assert all(g["scores"] is not None for g in kept["played"][0])
    assert screen.heading.values["round"] == 2
    rows = list(reversed(screen.pairings.children))  # round 2's pairings, then round 1's results under them
    assert len(rows) == 5 and rows[2].msg == "Round {round}" and rows[2].values == {"round": 1}
    assert [any(getattr(w, "msg", "") == "Play" for w in row.children) for row in rows[:2] + rows[3:]] \
        == [True, True, False, False]
    second_round = [(g["first"], g["second"]) for g in kept["played"][1]]
    met = {frozenset(p) for p in first_round}
    assert len(second_round) == 2 and not any(frozenset(p) in met for p in second_round)
    yield 0.3
    _shot(app, "tournament-round-2")
    standings = [line.text for line in reversed(screen.standings.children)]
    assert standings[:5] == ["#", "Player", "Points", "Buchholz", "S-B"]
    names_shown = standings[6::5]
    assert sorted(names_shown) == sorted(NAMES)
    return names_shown


scenario_tournament.prepare = _book


@pytest.mark.parametrize("size", [(800, 480)])  # 1280x800 looked at with TOURNAMENT_SHOTS
def test_staff_run_a_tournament_whose_games_are_played_at_the_table(size):
    shown = run_scenario("test_ui_tournament", "scenario_tournament", size=size, timeout=180,
                         settings={"time_out": "loss"})
    assert sorted(shown) == sorted(NAMES)


# ------------------------------------------------------- two players, a robot, a power cut

PROBLEMS: list[str] = []
"""What the audit of test_ui_fit (ui.audit) found on the screens looked at (in the scenario's process)."""


def _look(app: Any, name: str) -> None:
    """Look at the screen as test_ui_fit does (text fits, controls a fingertip, contrast), and save it."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import Picture, audit

    size = tuple(Window.size)
    PROBLEMS.extend(f"{name}: {p}" for p in audit(app.root, size, theme.min_target(size), Picture(app.root)))
    _shot(app, name)


def _qr_text(overlay: Any) -> list[str]:
    """What a phone reads from the QR code of ``overlay`` (a TakeHome), from its drawn pixels."""
    import numpy
    import zxingcpp

    pixels = Pixels(overlay.code)
    image = numpy.frombuffer(pixels.data, dtype=numpy.uint8).reshape(pixels.height, pixels.width, 4)[:, :, :3].copy()
    return [r.text for r in zxingcpp.read_barcodes(image)]


class PowerCut(BaseException):
    """The power goes: nothing after it runs, nothing uncommitted is kept."""


def _club(services: Any) -> None:
    """The store and the players book in one SQLite database, as on the table."""
    from firmware.players import Players
    from firmware.store import SqliteStore

    services.store = SqliteStore(tempfile.mkdtemp(prefix="tantrix-club-"))
    services.players = Players(services.store)
    for name, avatar in zip(NAMES, ("sky:star", "vermilion:triangle", "green:hexagon", "purple:circle")):
        services.players.create(name, avatar)


def _to_the_end(app: Any) -> Any:
    """Both seats play like beginners through the engine until the game is over (its end not yet seen)."""
    from engine.strategy.robots import make_robot

    game = app.manager.current_screen.game
    robot = make_robot("beginner")
    while not game.finished:
        robot_move(game, robot)
    return game


def scenario_two_players_and_a_power_cut(app):
    import sqlite3

    import ui.modes.strategy.play as strategy_play
    import ui.tournament_store as club
    from firmware.players import Players
    from firmware.store import SqliteStore
    from ui.qr import TakeHome
    from ui.screens.tournament import TournamentScreen, TournamentSetupScreen
    from ui.tournament_store import TOURNAMENT

    book = app.services.players
    ana, bo = (next(p for p in book.all() if p.name == name) for name in NAMES[:2])
    app.manager.current = "staff"  # past the PIN
    yield 0.3
    _look(app, "staff-club-evening")
    assert app.staff.club_button.height >= 45 and app.staff.club_button.width >= 45
    yield from tap(app.staff.club_button)
    setup = app.manager.current_screen
    assert isinstance(setup, TournamentSetupScreen)
    for chip in setup.chips:
        if chip.value in (ana.id, bo.id):
            yield from tap(chip)
    yield from tap(setup.rounds_row.chip(3))  # two players, three rounds: a best of three
    yield from tap(setup.clock_row.chip(0))
    yield 0.2
    _look(app, "tournament-setup-two")
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen), setup.message.text
    play = next(b for line in screen.pairings.children for b in line.children if getattr(b, "msg", "") == "Play")
    yield from tap(play)
    yield until(lambda: app.manager.current == "strategy")
    game = _to_the_end(app)
    # the power goes after the record and the rating are written, before the tournament's report
    report = strategy_play.report
    assert report is club.report

    def cut(*_args: Any) -> bool:
        raise PowerCut

    strategy_play.report = cut
    try:
        app.manager.current_screen.after_step()
        raise AssertionError("the game ended without reporting")
    except PowerCut:
        pass
    strategy_play.report = report
    path = app.services.store.path
    with sqlite3.connect(path) as db:  # what the disk holds: nothing of the end, the journal intact
        assert db.execute("SELECT count(*) FROM records WHERE kind = 'strategy'").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM current").fetchone()[0] == 1
    # the table starts again on the same database and resumes the finished game
    app.services.store = SqliteStore(path.parent)
    app.services.players = book = Players(app.services.store)
    app.offer_resume(app.services.store.load_current())
    yield 0.2
    yield from tap(app.manager.current_screen.resume_button)
    yield until(lambda: app.manager.current == "strategy-results", 10.0)
    kept = app.services.store.progress(TOURNAMENT)
    first = kept["tournament"]["played"][0][0]
    assert first["scores"] is not None and kept["playing"] is None
    standings = club.load(app).standings()
    assert sum(s.points for s in standings) == 1.0  # one game, counted once
    assert len(app.services.store.records("strategy")) == 1
    assert len(book.results(ana.id)) == 1 and len(book.results(bo.id)) == 1
    assert club.entry_of(app, game) is None and not club.report(app, None)  # the end seen again changes nothing
    assert club.load(app).standings() == standings
    app.services.settings.web_address = "http://192.168.1.20:8080/"  # the web pages on: the evening on phones
    yield from tap(app.manager.current_screen.home_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.heading.values["round"] == 2
    yield 0.2
    _look(app, "tournament-two-round-2")
    assert screen.phone_button is not None and screen.end_button is None  # the players' screen, not staff's
    yield from tap(screen.phone_button)
    overlay = next(w for w in screen.children if isinstance(w, TakeHome))
    yield 0.2
    _look(app, "tournament-on-your-phone")
    assert _qr_text(overlay) == ["http://192.168.1.20:8080/"]
    assert any(getattr(w, "msg", "") == "Scan to follow the evening on your phone: pairings, results, standings."
               for w in overlay.walk())
    yield from tap(overlay.close_button)
    assert overlay.parent is None
    (second,) = club.load(app).played[1]
    assert {second.first, second.second} == {ana.id, bo.id}  # two players meet again
    return {"points": [s.points for s in standings], "problems": PROBLEMS}


scenario_two_players_and_a_power_cut.prepare = _club


def test_two_players_play_a_tournament_whose_result_survives_a_power_cut_counted_once():
    result = run_scenario("test_ui_tournament", "scenario_two_players_and_a_power_cut", size=(800, 480),
                          timeout=180, settings={"language": "fr"})
    assert sorted(result["points"]) in ([0.0, 1.0], [0.5, 0.5]) and result["problems"] == []  # a win or a draw


def scenario_a_power_cut_as_a_tournament_game_starts(app):
    """Play on a pairing says the evening's game is played here and journals the game: the power
    goes at the journal's write."""
    import json
    import sqlite3

    import ui.screens.tournament as evening
    from engine.tournament import Tournament
    from ui import tournament_store
    from ui.tournament_store import TOURNAMENT

    store = app.services.store
    ana, bo = (next(p.id for p in app.services.players.all() if p.name == name) for name in NAMES[:2])
    tournament = Tournament((ana, bo), rounds=1)
    tournament.pair_next_round()
    tournament_store.save(app, tournament)
    yield 0.2

    def cut(_saved: Any) -> None:
        raise PowerCut

    store.save_current = cut
    try:
        evening.play(app, tournament, ana, bo)
        raise AssertionError("the game was journaled through the cut")
    except PowerCut:
        pass
    del store.save_current
    with sqlite3.connect(store.path) as db:  # what the disk holds after the cut
        journaled = db.execute("SELECT count(*) FROM current").fetchone()[0]
        kept = json.loads(db.execute("SELECT value FROM progress WHERE key = ?", (TOURNAMENT,)).fetchone()[0])
    after_cut = {"journaled": journaled, "played_here": kept["playing"] is not None}
    evening.play(app, tournament, ana, bo)  # the power is back: Play again
    yield until(lambda: app.manager.current == "strategy")
    with sqlite3.connect(store.path) as db:
        journaled = db.execute("SELECT count(*) FROM current").fetchone()[0]
        kept = json.loads(db.execute("SELECT value FROM progress WHERE key = ?", (TOURNAMENT,)).fetchone()[0])
    return {"after_cut": after_cut, "started": {"journaled": journaled, "played_here": kept["playing"] is not None}}


scenario_a_power_cut_as_a_tournament_game_starts.prepare = _club


def test_a_power_cut_as_a_tournament_game_starts_keeps_its_mark_and_its_journal_or_neither():
    # the mark was written before the journal: cut between them, the evening showed the pairing
    # played at this table (to every table of the club) with no game there to resume or leave
    result = run_scenario("test_ui_tournament", "scenario_a_power_cut_as_a_tournament_game_starts",
                          size=(800, 480))
    assert result["after_cut"] == {"journaled": 0, "played_here": False}
    assert result["started"] == {"journaled": 1, "played_here": True}


def scenario_a_robot_fills_an_odd_count(app):
    from ui.i18n import _
    from ui.screens.tournament import TournamentScreen, open_tournament
    from ui.seat_players import SEATED
    from ui.tournament_store import TOURNAMENT

    book = app.services.players
    ids = {p.id for p in book.all()}
    setup = open_tournament(app)
    for chip in setup.chips[:3]:
        yield from tap(chip)
    yield from tap(setup.rounds_row.chip(1))
    yield from tap(setup.clock_row.chip(0))
    yield from tap(setup.robot_row.chip("club"))
    yield 0.2
    _look(app, "tournament-setup-robot")
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen)
    players = app.services.store.progress(TOURNAMENT)["tournament"]["players"]
    assert len(players) == 4 and "robot:club" in players and set(players) - {"robot:club"} <= ids
    yield 0.2
    _look(app, "tournament-with-robot")
    line = next(line for line in screen.pairings.children if any(
        _("Robot: {level}", level=_("Club")) in getattr(w, "text", "") for w in line.children))
    yield from tap(next(b for b in line.children if getattr(b, "msg", "") == "Play"))
    yield until(lambda: app.manager.current == "strategy")
    game = app.manager.current_screen.game
    robot_seat = next(i for i, seat in enumerate(game.seats) if seat.robot is not None)
    assert game.seats[robot_seat].robot == "club" and game.seats[1 - robot_seat].robot is None
    assert app.services.store.progress(SEATED)["players"][robot_seat] is None
    return {"robot_seat": robot_seat, "problems": PROBLEMS}


scenario_a_robot_fills_an_odd_count.prepare = _club


def test_a_robot_of_a_fixed_level_fills_an_odd_count():
    result = run_scenario("test_ui_tournament", "scenario_a_robot_fills_an_odd_count", size=(1280, 800),
                          settings={"language": "pl"})
    assert result["robot_seat"] in (0, 1) and result["problems"] == []


def test_damaged_seats_or_tournament_game_kept_leave_a_finished_game_unrated_never_a_crash(tmp_path):
    from types import SimpleNamespace

    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot
    from engine.tournament import Tournament
    from firmware.players import Players
    from firmware.store import SqliteStore
    from ui import tournament_store
    from ui.seat_players import SEATED, fingerprint, rate_finished, seated

    with SqliteStore(tmp_path) as store:
        app: Any = SimpleNamespace(services=SimpleNamespace(store=store, players=Players(store), club=None))
        game = StrategyGame.new(2, "RY", [None, None], seed=3)
        robot = make_robot("beginner")
        while not game.finished:
            robot_move(game, robot)
        of = fingerprint(game.record())
        for damaged in ({"of": of, "game": "g"}, {"of": of, "game": "g", "players": ["a"]},
                        {"of": of, "game": 7, "players": [None, None]}):
            store.set_progress(SEATED, damaged)
            assert seated(app, game) == [None, None]
            rate_finished(app, game, None)  # what the end of the game calls
        assert store.query("SELECT count(*) FROM games") == [(0,)]
        tournament = Tournament(("a", "b"), rounds=1)
        tournament.pair_next_round()
        for playing in ({"of": of}, {"of": of, "first": "a", "second": "z"}, ["of", of]):
            tournament_store.save(app, tournament, playing)  # type: ignore[arg-type]
            # kept too damaged to match: no tournament's game; a pairing never made: the evening's
            # game still (its players go back to it), its result entered nowhere
            reported = tournament_store.report(app, tournament_store.entry_of(app, game))
            assert reported is (isinstance(playing, dict) and "first" in playing)
            assert not tournament_store.load(app).played[0][0].played
        tournament_store.save(app, tournament, {"of": of, "first": "a", "second": "b"})
        assert tournament_store.report(app, tournament_store.entry_of(app, game))  # one that holds together
        assert tournament_store.load(app).finished  # is entered, and ends a one-round tournament


def test_a_power_cut_while_a_tournament_game_is_forgotten_keeps_both_or_neither(tmp_path):
    """Forgetting the game in progress (Leave, Discard, staff's Clear) says the evening's game is
    played here no more and clears the journal: cut between the two, the game came back on resume
    no longer the evening's, and its result was then entered nowhere."""
    from types import SimpleNamespace

    from engine.strategy.game import StrategyGame
    from engine.modes import save as saved_of
    from engine.tournament import Tournament
    from firmware.players import Players
    from firmware.store import SqliteStore
    from ui import tournament_store
    from ui.app import KioskApp
    from ui.services import TOURNAMENT

    with SqliteStore(tmp_path) as store:
        app: Any = SimpleNamespace(services=SimpleNamespace(store=store, players=Players(store), club=None))
        tournament = Tournament(("a", "b"), rounds=1)
        tournament.pair_next_round()
        game = StrategyGame.new(2, "RY", [None, None], seed=3)
        tournament_store.start_game(app, tournament, None, "a", "b", game)
        store.save_current(saved_of(game))

        def cut() -> None:
            raise PowerCut

        store.clear_current = cut  # type: ignore[method-assign]
        with pytest.raises(PowerCut):
            KioskApp.forget_current(app)
    with SqliteStore(tmp_path) as store:  # the next start
        assert store.load_current() is not None and store.progress(TOURNAMENT)["playing"] is not None


# ------------------------------------------------- a pairing another table plays, a game left

class Table3Plays:
    """The club (``ui.services.ClubView``) as this table hears it: table-3 is playing the first
    pairing of this table's tournament, and is connected."""

    table = "table-2"

    def __init__(self) -> None:
        self.tournament = ""  # the id of this table's tournament, once started
        self.pairing: tuple[str, str] | None = None

    def tournaments(self) -> dict[str, Any]:
        if self.pairing is None:
            return {}
        return {"table-3": {"club": {"table": self.table, "id": self.tournament},
                            "playing": {"first": self.pairing[0], "second": self.pairing[1]}}}

    def online(self, table: str) -> bool:
        return True

    def connected(self) -> bool:
        return True


def _club_of_three(services: Any) -> None:
    _club(services)
    services.club = Table3Plays()


def scenario_a_pairing_played_elsewhere_then_left(app):
    from ui.modes.strategy.play import StrategyScreen
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import TOURNAMENT
    from ui.widgets import Confirm

    book, store, club = app.services.players, app.services.store, app.services.club
    app.manager.current = "staff"  # past the PIN
    yield 0.3
    yield from tap(app.staff.club_button)
    setup = app.manager.current_screen
    for chip in setup.chips:
        yield from tap(chip)
    yield from tap(setup.clock_row.chip(0))
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen)
    first, _second = store.progress(TOURNAMENT)["tournament"]["played"][0]
    tournament_id = club.tournament = store.progress(TOURNAMENT)["tournament"]["id"]
    club.pairing = (first["first"], first["second"])  # table-3 starts the first pairing
    yield until(lambda: any(getattr(w, "msg", "") == "at {table}" for w in screen.pairings.walk()), 5.0)
    rows = list(reversed(screen.pairings.children))
    elsewhere = next(row for row in rows if any(getattr(w, "msg", "") == "at {table}" for w in row.walk()))
    play = next(w for w in elsewhere.walk(restrict=True) if getattr(w, "msg", "") == "Play")
    names = [book.get(first["first"]).name, book.get(first["second"]).name]
    assert any(getattr(w, "text", "") == " – ".join(names) for w in elsewhere.walk())

    def asked() -> Any:
        return next((w for w in screen.children if isinstance(w, Confirm)), None)

    yield from tap(play)  # being played at table-3: asked first
    question = asked()
    assert question is not None and app.manager.current == "tournament" and store.progress(TOURNAMENT)["playing"] is None
    said = [w.text for w in question.walk() if "table-3" in getattr(w, "text", "")]
    english = "This game is being played at table-3. Play it here too? Only the first result counts."
    assert len(said) == 1 and (said[0] == english) == (app.services.settings.language == "en"), said
    yield 0.2
    _look(app, "tournament-played-elsewhere")
    yield from tap(question.no_button)  # Cancel: nothing started
    yield until(lambda: asked() is None)
    assert app.manager.current == "tournament" and store.load_current() is None
    yield from tap(play)
    yield from tap(asked().yes_button)  # Play here: the same pairing starts at this table too
    yield until(lambda: app.manager.current == "strategy")
    game_screen = app.manager.current_screen
    assert isinstance(game_screen, StrategyScreen)
    playing = store.progress(TOURNAMENT)["playing"]
    assert [book.get(playing["first"]).name, book.get(playing["second"]).name] == names
    # the game is left unfinished: this table tells the club it no longer plays that pairing
    yield from tap(game_screen.leave_button)
    confirm = next(w for w in game_screen.overlay.children if isinstance(w, Confirm))
    yield from tap(next(w for w in confirm.walk() if getattr(w, "msg", "") == "Leave"))
    yield until(lambda: app.manager.current == "home")
    kept = store.progress(TOURNAMENT)
    assert kept["playing"] is None and kept["tournament"]["id"] == tournament_id and store.load_current() is None
    # the other pairing, started, then cleared by staff from the system page: the same
    club.pairing = None
    yield from tap(app.manager.current_screen.evening_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and not any(isinstance(w, Confirm) for w in screen.children)
    play = next(w for w in screen.pairings.walk() if getattr(w, "msg", "") == "Play")
    yield from tap(play)
    yield until(lambda: app.manager.current == "strategy")
    assert store.progress(TOURNAMENT)["playing"] is not None
    app.manager.current = "staff"  # past the PIN
    yield 0.3
    yield from tap(app.staff.nav["system"])
    clear = next(w for w in app.staff.content.walk() if getattr(w, "msg", "") == "Clear the current game")
    yield from tap(clear)
    assert store.progress(TOURNAMENT)["playing"] is None and store.load_current() is None
    return {"problems": PROBLEMS}


scenario_a_pairing_played_elsewhere_then_left.prepare = _club_of_three


@pytest.mark.parametrize("size, language", [((800, 480), "fr"), ((720, 1280), "en")])
def test_a_pairing_played_at_another_table_asks_first_and_a_left_game_is_no_longer_said_played(size, language):
    result = run_scenario("test_ui_tournament", "scenario_a_pairing_played_elsewhere_then_left", size=size,
                          settings={"language": language})
    assert result["problems"] == []


# ----------------------------------------------- the table running the evening gone: taken over

class TableOneAway:
    """The club (``ui.services.ClubView``) as table-2 hears it: table-1 runs an evening and is not
    connected (its screen broke mid-evening); the tables it names in ``told`` say what it holds;
    ``linked``: whether table-2 itself is connected to the club."""

    table = "table-2"

    def __init__(self) -> None:
        self.told: dict[str, Any] = {}
        self.up: set[str] = set()
        self.linked = True  # this table's own link to the club

    def tournaments(self) -> dict[str, Any]:
        return dict(self.told)

    def online(self, table: str) -> bool:
        return table in self.up

    def connected(self) -> bool:
        return self.linked


def _club_without_its_host(services: Any) -> None:
    _club(services)
    services.club = TableOneAway()


def scenario_an_evening_taken_over(app):
    import time

    from engine.ratings import outcome_of_record
    from engine.tournament import Tournament, entry
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import TOURNAMENT, follow, load
    from ui.widgets import Confirm, TLabel

    book, store, club = app.services.players, app.services.store, app.services.club
    ids = [p.id for p in book.all()][:3]
    tournament = Tournament((*ids, "p-zoe"), rounds=2, started=time.time())
    decided, waiting = tournament.pair_next_round()
    club.told["table-1"] = {"tournament": tournament.to_json(), "playing": None, "names": {"p-zoe": "Zoë"}}
    # the first pairing was played at table-3; its rated game reached this table, not table-1's entry
    record = {"seats": [{"colour": "R", "robot": None}, {"colour": "Y", "robot": None}], "events": [],
              "result": {"reason": "all-placed", "winner": "R", "scores": {"R": 10, "Y": 7}},
              "tournament": entry(tournament.id, 1, decided.first, decided.second, (10, 7))}
    outcome = outcome_of_record("table-3-g1", record, [decided.first, decided.second])
    assert outcome is not None
    book.record_game("strategy", outcome, store.add_record("strategy", record))
    club.linked = False  # this table started with the club's broker out of reach: every table seems away
    app.manager.current = "staff"  # past the PIN
    yield 0.3
    yield from tap(app.staff.club_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.host == "table-1" and screen.end_button is None
    # it says so, and offers no take-over: table-1 may be running the evening all along
    assert screen.take_button is None and [w.msg for w in screen.notice.walk(restrict=True) if isinstance(w, TLabel)] == [
        "This table is not connected to the club: the evening as {table} last told it."]
    yield 0.2
    _look(app, "tournament-this-table-away")
    club.linked = True  # connected: table-1 is the one away
    yield until(lambda: screen.take_button is not None, 5.0)
    assert "{table} is not connected: the next round waits for it." in [
        w.msg for w in screen.notice.walk(restrict=True) if isinstance(w, TLabel)]
    yield 0.2
    _look(app, "tournament-host-away")
    yield from tap(screen.take_button)
    question = next(w for w in screen.children if isinstance(w, Confirm))
    yield 0.2
    _look(app, "tournament-take-over")
    yield from tap(question.yes_button)
    yield until(lambda: isinstance(app.manager.current_screen, TournamentScreen)
                and app.manager.current_screen.host is None)
    screen = app.manager.current_screen
    kept = store.progress(TOURNAMENT)
    assert kept["generation"] == 1 and kept["tournament"]["id"] == tournament.id and kept["names"]["p-zoe"] == "Zoë"
    here = load(app)
    assert here is not None and here.id == tournament.id
    assert [(g.first, g.scores) for g in here.played[0]] == [(decided.first, (10, 7)), (waiting.first, None)]
    assert screen.end_button is not None and screen.take_button is None
    assert "Zoë" in [w.text for w in screen.standings.children]
    yield 0.2
    _look(app, "tournament-taken-over")
    # table-1 comes back telling the evening as it left it: this table keeps running it
    club.up.add("table-1")
    follow(app)
    assert load(app) is not None
    # then staff at table-0 take it over from here (this table went away meanwhile): it gives it up
    club.told["table-0"] = {"tournament": here.to_json(), "playing": None, "generation": 2}
    club.up.add("table-0")
    yield until(lambda: screen.host == "table-0", 5.0)
    assert store.progress(TOURNAMENT) == {"club": {"table": "table-0", "id": tournament.id}, "playing": None}
    assert screen.end_button is None
    # and table-5 from table-0: the screen follows the evening there
    club.told["table-5"] = {**club.told["table-0"], "generation": 3}
    yield until(lambda: screen.host == "table-5", 5.0)
    assert screen.heading.values["table"] == "table-5"
    return {"problems": PROBLEMS}


scenario_an_evening_taken_over.prepare = _club_without_its_host


@pytest.mark.parametrize("size, language", [((800, 480), "en"), ((1280, 800), "pl"), ((720, 1280), "fr")])
def test_staff_take_over_an_evening_whose_table_is_gone_and_give_it_up_to_a_later_taker(size, language):
    result = run_scenario("test_ui_tournament", "scenario_an_evening_taken_over", size=size,
                          settings={"language": language})
    assert result["problems"] == []


# ------------------------------------------------------------- who leaves, who arrives late

def _book_of_five(services: Any) -> None:
    _club(services)
    services.players.create("Eefje Late", "sky:star")


def scenario_one_leaves_and_one_arrives_late(app):
    from ui.screens.tournament import TournamentPlayersScreen, TournamentScreen
    from ui.tournament_store import TOURNAMENT, load
    from ui.widgets import Confirm

    book, store = app.services.players, app.services.store
    ids = {p.name: p.id for p in book.all()}
    app.manager.current = "staff"  # past the PIN
    yield 0.3
    yield from tap(app.staff.club_button)
    setup = app.manager.current_screen
    for chip in setup.chips:
        if chip.value != ids["Eefje Late"]:
            yield from tap(chip)
    yield from tap(setup.rounds_row.chip(3))
    yield from tap(setup.clock_row.chip(0))
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    decided, waiting = load(app).played[0]
    yield from tap(_play_in(screen, 0))  # the first pairing is played; the second's player leaves
    yield until(lambda: app.manager.current == "strategy")
    _to_the_end(app)
    app.manager.current_screen.after_step()
    yield until(lambda: app.manager.current == "strategy-results", 10.0)
    app.manager.current = "staff"
    yield 0.3
    yield from tap(app.staff.club_button)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.players_button is not None
    yield from tap(screen.players_button)
    players = app.manager.current_screen
    assert isinstance(players, TournamentPlayersScreen)
    leaver = waiting.second
    yield from tap(players.buttons[leaver])  # asked first
    question = next(w for w in players.children if isinstance(w, Confirm))
    yield 0.2
    _look(app, "tournament-players-leaves")
    yield from tap(question.yes_button)
    yield until(lambda: players.buttons[leaver].msg == "Comes back")
    # the round ended with the forfeit: round 2 is paired without the one who left
    kept = store.progress(TOURNAMENT)["tournament"]
    assert kept["withdrawn"] == [leaver] and len(kept["played"]) == 2
    assert [g.get("forfeit") for g in kept["played"][0]] == [None, leaver]
    assert all(leaver not in (g["first"], g["second"]) for g in kept["played"][1])
    assert players.buttons[ids["Eefje Late"]].msg == "Joins late"
    yield from tap(players.buttons[ids["Eefje Late"]])
    yield until(lambda: players.buttons[ids["Eefje Late"]].msg == "Leaves")
    assert ids["Eefje Late"] in store.progress(TOURNAMENT)["tournament"]["players"]
    yield 0.2
    _look(app, "tournament-players")
    yield from tap(next(w for w in players.walk() if getattr(w, "msg", "") == "Back"))
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.heading.values["round"] == 2
    rows = list(reversed(screen.pairings.children))
    assert any(getattr(w, "msg", "") == "forfeit" for row in rows for w in row.walk())
    left = [w for row in rows for w in row.walk(restrict=True) if getattr(w, "msg", "") == "{name} left"]
    assert [w.values for w in left] == [{"name": next(name for name, id_ in ids.items() if id_ == leaver)}]  # who
    yield 0.2
    _look(app, "tournament-after-a-forfeit")
    # round 2 played out: the latecomer is paired in round 3, the leaver is not
    tournament = load(app)
    for game in tournament.played[1]:
        if game.second is not None:
            tournament.report(game.first, game.second, (6, 6))
    from ui.tournament_store import save

    save(app, tournament)
    third = load(app).played[2]
    paired = {p for g in third for p in (g.first, g.second)}
    assert ids["Eefje Late"] in paired and leaver not in paired
    return {"problems": PROBLEMS}


def scenario_a_game_played_on_after_one_of_its_players_left(app):
    """Two players go on with their game after staff let one of them leave the evening (at this
    table or the one running it): its result counts for nothing, the table stops saying it plays
    that pairing, and its end leads back to the evening, whose screen says who left."""
    from engine.tournament import Tournament
    from ui.screens.tournament import TournamentScreen, play
    from ui.tournament_store import TOURNAMENT, load, save, withdraw

    ids = [p.id for p in app.services.players.all()][:4]
    tournament = Tournament(tuple(ids), rounds=2)
    played, waiting = tournament.pair_next_round()
    tournament.report(played.first, played.second, (9, 4))
    save(app, tournament)
    play(app, tournament, waiting.first, waiting.second)
    yield until(lambda: app.manager.current == "strategy")
    assert app.services.store.progress(TOURNAMENT)["playing"] is not None
    assert withdraw(app, waiting.second) is not None  # staff: Leaves, while the game goes on
    kept = load(app)
    assert kept is not None and len(kept.played) == 2  # the round ended on the forfeit
    game = _to_the_end(app)
    app.manager.current_screen.after_step()
    yield until(lambda: app.manager.current == "strategy-results", 10.0)
    results = app.manager.current_screen
    assert not any(getattr(w, "msg", "") == "Play again" for w in results.walk())
    back = next(w for w in results.walk() if getattr(w, "msg", "") == "Tournament")
    kept = app.services.store.progress(TOURNAMENT)
    assert kept["playing"] is None and game.result is not None
    assert [g.get("forfeit") for g in kept["tournament"]["played"][0]] == [None, waiting.second]
    assert kept["tournament"]["played"][0][1].get("scores") is None  # the result counted for nothing
    yield from tap(back)
    screen = app.manager.current_screen
    assert isinstance(screen, TournamentScreen) and screen.heading.values["round"] == 2
    rows = list(reversed(screen.pairings.children))
    assert any(getattr(w, "msg", "") == "{name} left" for row in rows for w in row.walk(restrict=True))
    yield 0.2
    _look(app, "tournament-after-a-game-played-on")
    return {"problems": PROBLEMS}


scenario_a_game_played_on_after_one_of_its_players_left.prepare = _club


def test_a_game_played_on_after_one_of_its_players_left_counts_for_nothing_and_leads_back_to_the_evening():
    result = run_scenario("test_ui_tournament", "scenario_a_game_played_on_after_one_of_its_players_left",
                          size=(800, 480))
    assert result["problems"] == []


def _play_in(screen: Any, row: int) -> Any:
    return next(w for w in list(reversed(screen.pairings.children))[row].walk(restrict=True)
                if getattr(w, "msg", "") == "Play")


scenario_one_leaves_and_one_arrives_late.prepare = _book_of_five


@pytest.mark.parametrize("size, language", [((800, 480), "pl"), ((720, 1280), "en")])
def test_staff_let_a_player_leave_mid_evening_and_another_join_late(size, language):
    result = run_scenario("test_ui_tournament", "scenario_one_leaves_and_one_arrives_late", size=size,
                          settings={"language": language})
    assert result["problems"] == []
