"""Every screen of the kiosk, opened one after another in a running app: the matrix the fit test
(``test_ui_fit.py``) audits in every language and panel size, and ``bench/ui_screenshots.py
--matrix`` renders for people to look at.

``SCREENS`` is a list of ``(name, open)``; ``open(app)`` shows the screen (building it anew, so
texts set when a screen is built are in the current language). :func:`kiosk_services` makes the
app's services those of a kiosk: its players (so the ladder, the name buttons and the club evening
show, as on the table) and a club whose tables run a tournament.
"""

from __future__ import annotations

import os
import time
from engine.strategy.robots import robot_move
from typing import Any, Callable

Opener = Callable[[Any], Any]


def _strategy_game(players: int, moves: int, seed: int) -> Any:
    from engine.strategy.game import StrategyGame

    game = StrategyGame.new(players, "RYGB"[:players], ["club"] * players, seed=seed)
    while len(game.board) < moves and not game.finished and game.bag_count > 0:
        robot_move(game)
    for seat in range(players):
        game.set_robot(seat, None)
    return game


PEOPLE = ("Ana", "Bartłomiej Kowal", "Cécile Dumoulin", "Dominika Żurek", "Eefje", "Ferdinand Vos")
"""The players' book of the matrix: names as long as the table takes (16 characters)."""


class Club:
    """The club a kiosk of the matrix belongs to (``ui.services.ClubView``): table-1 runs a
    tournament in its second round, and table-3 plays a pairing of this table's."""

    table = "table-2"

    def __init__(self, players: tuple[str, ...]) -> None:
        self.theirs = _tournament(players, rounds=3)
        self.ours: Any = None  # this table's tournament, once the matrix shows it

    def tournaments(self) -> dict[str, dict[str, Any]]:
        shown: dict[str, dict[str, Any]] = {"table-1": {"tournament": self.theirs.to_json(), "playing": None}}
        if self.ours is not None:
            game = self.ours.played[-1][1]
            shown["table-3"] = {"club": {"table": self.table, "id": self.ours.id},
                                "playing": {"first": game.first, "second": game.second}}
        return shown

    def online(self, table: str) -> bool:
        return True

    def connected(self) -> bool:
        return True


def _tournament(players: tuple[str, ...], rounds: int) -> Any:
    """A tournament of ``players`` in its second round, the first played."""
    from engine.tournament import Tournament

    tournament = Tournament(players, rounds, 15.0)
    for game in tournament.pair_next_round():
        if game.second is not None:
            tournament.report(game.first, game.second, (12, 9))
    tournament.advance()
    return tournament


def kiosk_services(services: Any) -> None:
    """A scenario's ``prepare``: the services as the firmware gives them on a kiosk in a club."""
    import tempfile

    from engine.ratings import outcome_of_record
    from firmware.players import Players
    from firmware.store import SqliteStore

    services.store = SqliteStore(tempfile.mkdtemp(prefix="tantrix-matrix-"))
    services.players = Players(services.store)
    ids = tuple(services.players.create(name, "sky:star").id for name in PEOPLE)
    record = {"seats": [{"colour": "R", "robot": None}, {"colour": "Y", "robot": None}], "events": [],
              "result": {"reason": "all-placed", "winner": "R", "scores": {"R": 10, "Y": 7}}}
    for first, second in ((0, 1), (2, 3), (1, 3), (4, 5)):  # a ladder with ratings and charts to show
        outcome = outcome_of_record(f"matrix-{first}-{second}", record, [ids[first], ids[second]])
        assert outcome is not None
        services.players.record_game("strategy", outcome, services.store.add_record("strategy", record))
    services.club = Club(ids)


def _ladder(app: Any) -> None:
    from ui.screens.ladder import LadderScreen

    app.show(LadderScreen(app.services.players, on_back=app.go_home))


def _picker(app: Any) -> None:
    from ui.screens.players import PlayerPickerScreen

    app.show(PlayerPickerScreen(app.services.players, on_pick=lambda _p: None, on_back=app.go_home))


def _new_player(app: Any) -> None:
    from ui.screens.players import NewPlayerScreen

    app.show(NewPlayerScreen(app.services.players, on_made=lambda _p: None, on_back=app.go_home))


def _rename(app: Any) -> None:
    """The keyboard with the longest name the table takes typed in."""
    from ui.screens.players import NewPlayerScreen

    book = app.services.players
    longest = max(book.all(), key=lambda p: len(p.name))
    app.show(NewPlayerScreen(book, on_made=lambda _p: None, on_back=app.go_home, renaming=longest))


def _staff_players(app: Any) -> None:
    from ui.screens.staff_players import StaffPlayersScreen

    app.show(StaffPlayersScreen(app))


def _tournament_setup(app: Any) -> None:
    from ui.screens.tournament import TournamentSetupScreen
    from ui.tournament_store import save

    save(app, None)
    app.show(TournamentSetupScreen(app))


def _tournament_here(app: Any) -> None:
    """This table's tournament in its second round (one pairing played at table-3), for staff."""
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import save

    app.services.club.ours = ours = _tournament(tuple(p.id for p in app.services.players.all()), rounds=3)
    save(app, ours)
    app.show(TournamentScreen(app, staff=True))


def _tournament_players(app: Any) -> None:
    """Who leaves and who arrives late: this table's tournament of five, one of them gone, the sixth
    player of the book not in it."""
    from ui.screens.tournament import TournamentPlayersScreen
    from ui.tournament_store import save

    ours = _tournament(tuple(p.id for p in app.services.players.all())[:5], rounds=3)
    ours.withdraw(ours.players[1])
    save(app, ours)
    app.show(TournamentPlayersScreen(app))


def _tournament_there(app: Any) -> None:
    """The tournament table-1 runs, as this table shows it."""
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import save

    save(app, None)
    app.show(TournamentScreen(app, staff=True, host="table-1"))


def _evening_for_players(app: Any) -> None:
    """The players' door to the evening table-1 runs, the web pages on: Back and On your phone."""
    from ui.screens.tournament import TournamentScreen
    from ui.tournament_store import save

    save(app, None)
    app.services.settings.web_address = "http://192.168.1.20:8080/"
    app.show(TournamentScreen(app, host="table-1"))
    app.services.settings.web_address = ""


def _home(app: Any) -> None:
    app.go_home()


def _attract(app: Any) -> None:
    app.manager.current = "attract"


def _resume(app: Any) -> None:
    app.offer_resume({"kind": "strategy", "state": {}})


def _pin(app: Any) -> None:
    app.manager.current = "home"
    app.open_staff()


def _staff(page: str) -> Opener:
    def open_page(app: Any) -> None:
        app.manager.current = "staff"
        app.staff.open_page(page)

    return open_page


def _staff_system_web(app: Any) -> None:
    """The staff System page with the web pages on: the spectators' QR code button and the address."""
    app.services.settings.web_address = "http://192.168.1.20:8080/"
    _staff("system")(app)
    app.services.settings.web_address = ""


def _setup(key: str, players: int | str | None = None, orientation: str = "flat") -> Opener:
    """The setup of ``key`` for ``players``, the screen ``flat`` (the seats around it) or
    ``upright`` (the seats a column of cards)."""
    def open_setup(app: Any) -> None:
        app.services.settings.orientation = orientation
        try:
            app.open_family(key)
        finally:
            app.services.settings.orientation = "flat"
        if players is not None:
            app.manager.current_screen.set_players(players)

    return open_setup


def _tantrix(players: int, orientation: str = "flat") -> Opener:
    """A table of ``players`` in mid-game, the screen ``flat`` or ``upright`` (that one with clocks:
    the plates are a bar at the top, each with its clock)."""
    def open_game(app: Any) -> None:
        from ui.modes.strategy import clock as strategy_clock, play as strategy_play

        app.services.settings.orientation = orientation
        game = _strategy_game(players, 14 + 3 * players, seed=players)
        strategy_clock.set_clocks(app, game, 15 if orientation == "upright" else 0)
        try:
            screen = strategy_play.open_game(app, game)
        finally:
            app.services.settings.orientation = "flat"
        screen.robot_pause = 600.0

    return open_game


def _tantrix_forced_out_of_sight(app: Any) -> None:
    """Four people, two forced spaces to fill further apart than the portrait panel's table is
    wide (seed 34): the cue at the table's edge to the one out of sight, the map's rings."""
    from engine.strategy.game import FILL_STEPS, StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(4, "RYGB", ["club"] * 4, seed=34)
    while len(game.board) < 30 or game.step not in FILL_STEPS or len(game.forced_cells()) != 2:
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    strategy_play.open_game(app, game).robot_pause = 600.0


def _tantrix_coach(players: int) -> Opener:
    """``players`` people, the coach asked by the player whose edge is shortest: the left side
    seat's on a wide panel (the card is turned), the bottom one's between the side hands on a tall
    one. Its card facing them, the suggestion pale on the board (a short search, given to the
    screen as its own job would)."""
    def open_game(app: Any) -> None:
        from engine.strategy.game import StrategyGame
        from engine.strategy.robots.coach import advise
        from engine.strategy.robots.master import Master
        from ui import theme
        from ui.jobs import Outcome
        from ui.modes.strategy import play as strategy_play

        seat = 0 if theme.portrait() else 1
        game = StrategyGame.new(players, "RYGB"[:players], ["club"] * players, seed=3)
        while len(game.board) < 13 or game.turn != seat:
            robot_move(game)
        for other in range(players):
            game.set_robot(other, None)
        screen = strategy_play.open_game(app, game)
        screen.robot_pause = 600.0
        advice = advise(game, Master(iterations=6))
        screen._advised(seat, (len(game.board), game.turn, game.step), Outcome(advice, None, False, 0.0, 0))

    return open_game


def _tantrix_picker(players: int) -> Opener:
    """The real bag without a reader: the tiles still in the bag to pick by touch, facing the player
    who draws (with 4 players a side seat's, turned), after a tag the table does not know (the
    longer title), a tile chosen (**Take tile n**)."""
    def open_game(app: Any) -> None:
        from engine.strategy.game import StrategyGame
        from ui.modes.strategy import play as strategy_play

        game = StrategyGame.new(players, "RYGB"[:players], [None] * players, physical_bag=True, seed=players)
        game.report_draw(30)
        screen = strategy_play.open_game(app, game)
        screen.open_picker(game.awaiting_draw, unknown=True)
        assert screen.picker is not None
        screen.picker.choose(screen.picker.shown[-1])

    return open_game


def _tantrix_results(app: Any) -> None:
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy.results import show_results

    game = StrategyGame.new(2, "RY", ["club", "beginner"], seed=9)
    while not game.finished:
        robot_move(game)
    game.set_robot(0, None)
    show_results(app, game, again=lambda: None)


def _gobbles(players: int) -> Opener:
    def open_game(app: Any) -> None:
        from engine.gobble.gobbles import Gobbles, Level, Player
        from engine.gobble.table import ManualClock
        from ui.modes.gobble import gobbles

        people = [Player(f"Player {i + 1}") if i % 2 == 0 else Player(f"Robot {i + 1}", Level.EXPERT)
                  for i in range(players)]
        game = Gobbles.deal(people, seed=3)
        app.show(gobbles.GobblesScreen(app, game, clock=ManualClock()))

    return open_game


def _gobbles_forced_out_of_sight(app: Any) -> None:
    """A person and an expert robot whose race has outgrown the table (seed 3, 36 tiles), forced
    spaces left open: on the smaller panels some lie out of sight, and a cue at the table's edge
    points to them (on the portrait panel, at the corner where Leave lies)."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import gobbles

    game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.EXPERT)], seed=3)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    while len(game.board) < 36 and not game.finished:
        for seat in (1, 0):
            options = game.legal_placements(seat)
            if options and seat not in game.pending:
                screen.table.claim(seat, options[len(options) // 2])
            if seat in game.pending:
                gift = game.suggest_gift(seat)
                screen.table.give(seat, gift.to, gift.tiles)
    screen.refresh()


def _gobble_solo(app: Any) -> None:
    from ui.modes.gobble import solo as gobble_solo

    gobble_solo.start(app, seed=4)


def _tanagra(players: int) -> Opener:
    def open_game(app: Any) -> None:
        from engine.tanagra.game import Game
        from engine.tanagra.rules import Options
        from ui.modes.tanagra import play as tanagra

        kinds = ["person", "robot:expert", "person", "robot:beginner"][:players]
        app.show(tanagra.TanagraScreen(app, Game(Options(players=players, x=4), kinds)))

    return open_game


def _puzzle(name: str) -> Opener:
    def open_game(app: Any) -> None:
        from ui.modes.solo import puzzle as solo_puzzle

        solo_puzzle.open_puzzle(app, name)

    return open_game


def _rotation(app: Any) -> None:
    from ui.modes.solo import rotation as solo_rotation

    solo_rotation.open_rotation(app, 9, seed=3)


def _solitaire(app: Any) -> None:
    from ui.modes.solo import solitaire

    solitaire.start(app, "classic", "line", seed=6)


def _solitaire_results(app: Any) -> None:
    from engine.solo.solitaire import Solitaire
    from ui.modes.solo import solitaire

    game = Solitaire.start("classic", "line", seed=6)
    while not game.finished:
        game.apply(game.legal_actions()[0])
    app.show(solitaire.SolitaireScreen(app, game))


def _four(app: Any) -> None:
    from ui.modes.solo import four as solo_four

    solo_four.open_four(app, "lines")


SCREENS: list[tuple[str, Opener]] = [
    ("home", _home),
    ("attract", _attract),
    ("resume", _resume),
    ("staff-pin", _pin),
    *[(f"staff-{page}", _staff(page)) for page in ("language", "settings", "hardware", "tags", "stickers", "statistics",
                                                   "system")],
    ("staff-system-web", _staff_system_web),
    ("setup-tantrix-2", _setup("tantrix")),
    ("setup-tantrix-4", _setup("tantrix", 4)),
    ("setup-tantrix-doubles", _setup("tantrix", "doubles")),
    ("setup-gobbles-6", _setup("gobbles", 6)),
    ("setup-gobbles-6-upright", _setup("gobbles", 6, "upright")),
    ("setup-tanagra-4", _setup("tanagra", 4)),
    ("setup-gobble-solo", _setup("gobble-solo")),
    ("setup-solitaire", _setup("solitaire")),
    ("learn", _setup("learn")),
    ("puzzles", _setup("puzzles")),
    ("tantrix-2", _tantrix(2)),
    ("tantrix-4", _tantrix(4)),
    ("tantrix-4-upright", _tantrix(4, "upright")),
    ("tantrix-forced-out-of-sight", _tantrix_forced_out_of_sight),
    ("tantrix-coach", _tantrix_coach(3)),
    ("tantrix-coach-4", _tantrix_coach(4)),
    ("tantrix-picker-2", _tantrix_picker(2)),
    ("tantrix-picker-4", _tantrix_picker(4)),
    ("tantrix-results", _tantrix_results),
    ("gobbles-2", _gobbles(2)),
    ("gobbles-6", _gobbles(6)),
    ("gobbles-forced-out-of-sight", _gobbles_forced_out_of_sight),
    ("gobble-solo", _gobble_solo),
    ("tanagra-2", _tanagra(2)),
    ("tanagra-4", _tanagra(4)),
    ("puzzle-discovery-6", _puzzle("discovery-6")),
    ("puzzle-genius-b", _puzzle("genius-b")),
    ("great-pyramid", _rotation),
    ("solitaire", _solitaire),
    ("solitaire-results", _solitaire_results),
    ("four-lines", _four),
    ("ladder", _ladder),
    ("player-picker", _picker),
    ("new-player", _new_player),
    ("rename-player", _rename),
    ("staff-players", _staff_players),
    ("tournament-setup", _tournament_setup),
    ("tournament", _tournament_here),
    ("tournament-players", _tournament_players),
    ("club-tournament", _tournament_there),
    ("evening-for-players", _evening_for_players),
]


def audit_all(app: Any, languages: tuple[str, ...], only: tuple[str, ...] = (), shots: str = "",
              rotation: int = 0, turn: int = 0):
    """A scenario body: the screens audited, the ``i``-th in ``languages[(i + turn) % n]`` (all of
    them when ``turn`` is negative), the window turned ``rotation`` degrees (by the harness, as the
    configuration does: before the app is built); saved as PNG in the folder ``shots`` when given.
    Yields frames; returns the problems as ``{"screen/language": [...]}``."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import Picture, audit

    found: dict[str, list[str]] = {}
    timings: dict[str, float] = {}
    target = theme.min_target(tuple(Window.size))
    screens = [(i, name, opener) for i, (name, opener) in enumerate(SCREENS) if not only or name in only]
    for language in languages:
        app.set_language(language)
        for i, name, open_screen in screens:
            if turn >= 0 and languages[(i + turn) % len(languages)] != language:
                continue
            started = time.perf_counter()
            open_screen(app)
            yield
            yield
            timings[name] = timings.get(name, 0) + time.perf_counter() - started
            picture = Picture(app.root)
            tag = f"{Window.width}x{Window.height}" + (f"-r{rotation}" if rotation else "")
            if shots:
                app.root.export_to_png(f"{shots}/{tag}-{name}-{language}.png")
            problems = audit(app.root, tuple(Window.size), target, picture)
            if problems:
                found[f"{tag} {name}/{language}"] = sorted({str(p) for p in problems})
    app.set_language("en")
    if os.environ.get("FIT_TIMINGS"):
        found["timings"] = [f"{k} {v:.2f}" for k, v in sorted(timings.items(), key=lambda kv: -kv[1])]
    return found
