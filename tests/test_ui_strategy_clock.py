"""The strategy game's clocks at the table, under simulated time: a plate shows its seat's time,
only the seat to act uses time and leaving the game pauses every clock; running over the limit
costs time penalties (journaled as game events, so the result counts them) or, where the table
plays "loss on time", ends the game; the clocks survive a power cut; Play again keeps them."""

from __future__ import annotations

from ui_harness import run_scenario, tap, until

SIMULATED = [1000.0]


def _simulate_time():
    from ui.modes.strategy import clock as strategy_clock

    strategy_clock.monotonic = lambda: SIMULATED[0]


def _plate_clocks(screen):
    return [plate.clock_label.text for plate in screen.plates]


def _setup_and_start(app):
    """Two people, started from the setup by touch (the table's clock is set in its settings)."""
    app.open_family("tantrix")
    yield 0.3
    setup = app.manager.current_screen
    robot_card = next(card for card in setup.cards if setup.seats[card.index].robot is not None)
    yield from tap(robot_card.kind.chips[0])  # "Person"
    assert all(seat.robot is None for seat in setup.seats)
    yield from tap(setup.start_button)
    yield until(lambda: app.manager.current == "strategy")
    return app.manager.current_screen


def scenario_penalties(app):
    from ui.modes.strategy.clock import CLOCKS

    _simulate_time()
    screen = yield from _setup_and_start(app)
    game = screen.game
    yield 0.2
    assert _plate_clocks(screen) == ["1:00", "1:00"]
    while game.awaiting_draw is not None or game.turn is None:  # opening draws happen by themselves
        yield 0.1
    actor = screen.actor()
    SIMULATED[0] += 25.0
    yield until(lambda: _plate_clocks(screen)[actor] == "0:35")
    assert _plate_clocks(screen)[1 - actor] == "1:00"
    # the staff menu opened: the game is left, every clock stops
    app.open_staff()
    yield until(lambda: not screen.showing)
    SIMULATED[0] += 500.0
    app.leave_staff()
    yield until(lambda: screen.showing)
    yield 1.2
    assert _plate_clocks(screen)[actor] == "0:35"
    saved = app.services.store.progress(CLOCKS)["clocks"]
    assert saved["running"] == actor and round(saved["used"][actor]) == 25
    # over the limit and two full minutes more: three penalties, journaled as the game's events
    SIMULATED[0] += 35.0 + 120.0
    yield until(lambda: game.penalties()[actor] == 3)
    journal = app.services.store.load_current()["state"]["record"]["events"]
    assert [e for e in journal if "late" in e] == [{"late": actor}] * 3
    assert _plate_clocks(screen)[actor] == "-2:00" and not game.finished
    return {"actor": actor}


def test_clocks_run_for_the_seat_to_act_pause_off_screen_and_count_penalties():
    run_scenario("test_ui_strategy_clock", "scenario_penalties", size=(800, 480),
                 settings={"clock_minutes": 1})


def scenario_loss_and_power_cut(app):
    from ui.modes.strategy.clock import CLOCKS

    _simulate_time()
    screen = yield from _setup_and_start(app)
    game = screen.game
    while game.awaiting_draw is not None or game.turn is None:
        yield 0.1
    actor = screen.actor()
    SIMULATED[0] += 25.0
    yield until(lambda: app.services.store.progress(CLOCKS)["clocks"]["used"][actor] >= 25.0)
    # a power cut: the program is gone (nothing of the old screen saves any more), the table starts
    # again with its monotonic clock anew, and the game is resumed
    screen.clocks = None
    SIMULATED[0] = 7.0
    app.offer_resume(app.services.store.load_current())
    yield 0.3
    yield from tap(app.manager.current_screen.resume_button)
    yield until(lambda: app.manager.current == "strategy" and app.manager.current_screen is not screen)
    screen = app.manager.current_screen
    game = screen.game
    yield 1.2
    assert screen.actor() == actor
    assert [p.clock_label.text for p in screen.plates] == ["0:35", "1:00"][::1 if actor == 0 else -1]
    # the time is up: with "loss on time" the game ends and the other player wins
    SIMULATED[0] += 35.0
    yield until(lambda: game.finished)
    assert game.result.reason == "time" and game.result.winner == game.colour_of(1 - actor)
    kept = app.services.store.records()[0]
    assert kept[2]["events"][-1] == {"time": actor} and kept[2]["result"]["reason"] == "time"
    assert app.services.store.progress(CLOCKS) == {}  # a finished game's clocks are not kept
    # the results, then Play again: a new game with the same clocks
    yield until(lambda: app.manager.current == "strategy-results", 10.0)
    yield from tap(app.manager.current_screen.again_button)
    yield until(lambda: app.manager.current == "strategy" and app.manager.current_screen.game is not game)
    again = app.manager.current_screen
    yield 1.2
    assert again.clocks is not None and again.clocks.clocks.limit == 60.0
    assert again.clocks.clocks.overtime == "loss" and {p.clock_label.text for p in again.plates} == {"1:00"}
    return {"actor": actor}


def test_loss_on_time_ends_the_game_and_the_clocks_survive_a_power_cut_and_play_again():
    run_scenario("test_ui_strategy_clock", "scenario_loss_and_power_cut", size=(1280, 800),
                 settings={"clock_minutes": 1, "time_out": "loss"})


class PowerCut(BaseException):
    """The power goes: nothing after it runs, nothing uncommitted is kept."""


def _kiosk_store(services):
    """The kiosk's own store, a SQLite database, to look at what a power cut leaves on the disk."""
    import tempfile

    from firmware.store import SqliteStore

    services.store = SqliteStore(tempfile.mkdtemp(prefix="tantrix-clock-"))


def _on_disk(path):
    """The game journaled and the clocks kept, as the next start finds them."""
    import json
    import sqlite3

    from ui.modes.strategy.clock import CLOCKS

    with sqlite3.connect(path) as db:
        journal = json.loads(db.execute("SELECT saved FROM current").fetchone()[0])
        clocks = json.loads(db.execute("SELECT value FROM progress WHERE key = ?", (CLOCKS,)).fetchone()[0])
    return journal["state"]["record"]["events"], clocks["clocks"]


def scenario_a_power_cut_between_a_move_and_its_clocks(app):
    from engine.strategy.robots import make_robot, robot_move
    from ui.modes.strategy.clock import CLOCKS

    _simulate_time()
    screen = yield from _setup_and_start(app)
    game, store = screen.game, app.services.store
    while game.awaiting_draw is not None or game.turn is None:
        yield 0.1
    yield 0.2
    mover = screen.actor()
    events, clocks = _on_disk(store.path)
    assert clocks["running"] == mover and clocks["used"][mover] < 1.0
    SIMULATED[0] += 7.0  # the mover thinks 7 s (no save of the running clock meanwhile), then places
    robot_move(game, make_robot("beginner"))
    set_progress = store.set_progress

    def cut(key, value):
        if key == CLOCKS:
            raise PowerCut
        set_progress(key, value)

    store.set_progress = cut
    try:
        screen.after_step()
        raise AssertionError("the clocks were kept through the cut")
    except PowerCut:
        pass
    del store.set_progress
    kept_events, kept_clocks = _on_disk(store.path)
    moved = len(kept_events) > len(events)
    return {"move kept": moved, "its time kept": kept_clocks["used"][mover] >= 7.0,
            "clocks as before it": kept_clocks == clocks}


scenario_a_power_cut_between_a_move_and_its_clocks.prepare = _kiosk_store


def test_a_power_cut_between_a_move_and_its_clocks_keeps_both_or_neither():
    # the clocks were saved after the journal, in a transaction of their own: cut between them,
    # the move came back with the clocks of before it (the mover's thinking time not counted)
    result = run_scenario("test_ui_strategy_clock", "scenario_a_power_cut_between_a_move_and_its_clocks",
                          size=(800, 480), settings={"clock_minutes": 1})
    assert result in ({"move kept": True, "its time kept": True, "clocks as before it": False},
                      {"move kept": False, "its time kept": False, "clocks as before it": True})
