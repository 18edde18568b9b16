"""Learn at the kiosk, by simulated touches and rendered headless: the path with the next step ringed,
Discovery 3 solved by dragging and tap-turning tiles 1, 2 and 3 into the yellow loop, the
celebration, the tick on the path and the journal holding the solved state; Discovery 4 keeping
the loop; the fourth step wired to the strategy-game screens."""

from __future__ import annotations

from test_ui_puzzles import journaled, play_from_hand
from ui_harness import labels, run_scenario, settled_screens, tap, until


def scenario_discovery(app):
    from engine.board import Placement as P
    from ui.i18n import _

    app.go_home()
    yield 0.1
    yield from tap(app.home.buttons["learn"])
    path = app.manager.current_screen
    assert path.name == "learn" and path.next == 0 and path.selected == 0
    assert path.step_buttons[0].next_up and not any(b.done for b in path.step_buttons)
    assert path.discovery_buttons[3].next_up and not path.discovery_buttons[3].done
    yield from tap(path.discovery_buttons[3])
    yield 0.3
    screen = app.manager.current_screen
    play, board, tray = screen.play, screen.board, screen.tray
    assert screen.name == "puzzle" and play.puzzle.name == "discovery-3" and tray.tiles == [1, 2, 3]
    assert _("One yellow loop through all {count} tiles.", count=3) == screen.panel.goal.text
    # the celebration as it comes: it lasts a few seconds, which a slow machine's frames may outlast
    came: list[str] = []
    screen.overlay.bind(children=lambda _overlay, children: came.extend(type(w).__name__ for w in children))
    # tile 1 as it comes, tile 2 turned by two taps, tile 3 as it comes: the yellow loop
    for placement in (P(1, 0, 0, 0), P(2, 1, 0, 2), P(3, 0, 1, 0)):
        assert not play.finished
        yield from play_from_hand(tray, board, placement)
        # each step journaled; the solving one is kept as solved instead, never offered as interrupted
        assert board.board.at(placement.cell) == placement
        assert journaled(app, play) if not play.finished else app.services.store.load_current() is None
    assert play.finished
    yield 0.2
    card = screen.solved_card
    assert card is not None and card.parent is not None and _("Solved!") in labels(card)
    assert "Confetti" in came
    store = app.services.store
    assert store.load_current() is None  # solved, timed and recorded together: nothing to resume
    assert store.records(None, 1)[0][2] == play.to_json()  # the solved state is in its record
    assert store.progress("learn")["discovery"] == [3] and store.high_scores("time:discovery-3")
    assert app.services.devices.cues[-1].winners == (0,)
    # go on: Discovery 4 keeping the loop; tile 4 waits in the tray
    yield from tap(card.buttons[_("Add tile {tile}: keep the loop", tile=4)])
    yield 0.2
    screen = app.manager.current_screen
    assert screen.play.puzzle.name == "discovery-4" and len(screen.play.placements) == 3
    assert screen.tray.tiles == [4] and journaled(app, screen.play)
    assert _("One red loop through all {count} tiles.", count=4) == screen.panel.goal.text
    # back to the path (the tiles down are cleared: asked first)
    yield from tap(screen.back_button)
    confirm = screen.overlay.children[0]
    yield from tap(confirm.yes_button)
    path = app.manager.current_screen
    assert path.name == "learn" and app.services.store.load_current() is None
    assert path.discovery_buttons[3].done and path.discovery_buttons[4].next_up
    assert path.step_buttons[0].next_up  # Discovery is learnt with 3..10
    assert _("{solved} of {total} solved", solved=1, total=28) in path.step_buttons[0].text
    # the fourth step: the strategy game against a beginner robot, each step explained
    path.select(3)
    yield 0.1
    yield from tap(path.play_button)
    yield until(lambda: app.manager.current_screen is not path)
    from ui.modes.strategy.play import StrategyScreen

    screen = app.manager.current_screen
    assert isinstance(screen, StrategyScreen) and screen.learning
    assert screen.game.seats[0].robot is None and screen.game.seats[1].robot is not None
    return {"progress": store.progress("learn")}


def test_discovery_solved_by_touch_ticks_the_learn_path():
    result = run_scenario("test_ui_learn", "scenario_discovery", size=(800, 480))
    assert result["progress"]["discovery"] == [3]


def test_the_path_knows_the_next_step():
    from ui.modes.solo.learn import next_step, steps_done
    from ui.modes.solo.common import LearnProgress

    nothing = LearnProgress(frozenset(), frozenset(), False, False)
    assert next_step(nothing) == 0 and steps_done(nothing) == [False] * 4
    learnt = LearnProgress(frozenset(range(3, 11)), frozenset(), False, False)
    assert next_step(learnt) == 1
    rainbow = LearnProgress(frozenset(range(3, 11)), frozenset(f"rainbow-{c}" for c in
                                                              ("green", "yellow", "white", "blue", "red")), False, False)
    assert next_step(rainbow) == 2
    assert next_step(LearnProgress(rainbow.discovery, rainbow.rainbow, True, False)) == 3
    assert steps_done(LearnProgress(rainbow.discovery, rainbow.rainbow, True, True)) == [True] * 4


def test_progress_is_kept_where_the_lists_read_it():
    from engine.strategy.game import StrategyGame
    from ui.memory import MemoryStore
    from ui.modes.solo.common import LearnProgress, best_time, record_solitaire_won, record_solved, record_time, \
        solved_puzzles

    store = MemoryStore()
    for name in ("discovery-4", "discovery-3", "discovery-4", "rainbow-red", "genius-a", "rotation-9"):
        record_solved(store, name)
    record_solitaire_won(store)
    progress = LearnProgress.load(store)
    assert progress.discovery == {3, 4} and progress.rainbow == {"rainbow-red"} and progress.solitaire
    assert not progress.game
    store.add_record("gobble-solo", {})
    assert not LearnProgress.load(store).game  # only a finished strategy game is the last step
    store.add_record(StrategyGame.KIND, {})
    assert LearnProgress.load(store).game
    assert solved_puzzles(store) == {"genius-a", "rotation-9"}
    assert best_time(store, "junior") is None
    for seconds in (95.4, 61.0, 300.0):
        record_time(store, "junior", seconds)
    assert best_time(store, "junior") == 61


def scenario_every_button_reads(app):
    """Every line of every Learn button (each step's, with its puzzles shown below the path), the
    Rainbow buttons' subtitles too ("a pyramid"), contrasts with the button's own colour by at
    least 4.5 : 1 (WCAG's AA for body text): the colours read off the widgets, the text's and the
    markup's."""
    from ui.audit import MIN_CONTRAST, contrast, text_colours
    from ui.widgets import TButton

    app.open_family("learn")
    yield from settled_screens()
    path = app.manager.current_screen
    ratios: dict[str, float] = {}
    for step in range(len(path.step_buttons)):
        path.select(step)
        yield 0.1
        for button in (w for w in path.walk() if isinstance(w, TButton)):
            lines = button.text.split("\n")
            assert len(text_colours(button)) == len(lines), button.text  # a colour for each line
            for index, ink in enumerate(text_colours(button)):
                ratios[f"{step}: {lines[0]}: line {index + 1}"] = round(contrast(ink, tuple(button.bg)), 2)
    assert any(name in path.rainbow_buttons for name in ("rainbow-red", "rainbow-green", "rainbow-blue"))
    faint = {line: ratio for line, ratio in ratios.items() if ratio < MIN_CONTRAST}
    assert not faint, faint
    return ratios


def test_every_learn_button_reads_on_its_colour():
    ratios = run_scenario("test_ui_learn", "scenario_every_button_reads", size=(800, 480))
    assert sum(line.startswith("1: ") for line in ratios) >= 10  # the five Rainbow buttons, two lines each
