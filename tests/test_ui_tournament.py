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
from ui_harness import run_scenario, tap, until

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
        game.robot_move(robot)
    ahead = max((0, 1), key=lambda seat: (game.board.score(game.colour_of(seat)), -seat))
    game.time_out(ahead)
    app.manager.current_screen.after_step()  # as the clock's tick does: journaled, then the end
    return ahead


def scenario_tournament(app):
    from ui.screens.staff_players import StaffPlayersScreen
    from ui.screens.tournament import TOURNAMENT, TournamentScreen, TournamentSetupScreen
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
    assert screen.next_button.disabled
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
        yield until(lambda: app.manager.current == "results", 10.0)
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
    assert not screen.next_button.disabled
    yield 0.3
    _shot(app, "tournament-round-1-played")
    yield from tap(screen.next_button)
    kept = app.services.store.progress(TOURNAMENT)["tournament"]
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
