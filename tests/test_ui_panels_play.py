"""A game of each family played through by touch on the panels reviewed least (the 7" 1024x600,
the 15.6" 1920x1080 and the 7" panel upright, 480x800): each to its end and the screen after it,
the buttons a player touches found where they are drawn. One panel each, few steps: the layouts
themselves are audited at every panel by ``test_ui_fit``."""

from __future__ import annotations

from ui_harness import drag, labels, run_scenario, tap, until


def scenario_gobbles_to_the_end(app):
    """Two people race with a tile each (no playing on): the first down wins; Home by touch."""
    from engine.gobble.gobbles import Gobbles, Player
    from engine.gobble.table import ManualClock
    from ui.i18n import _
    from ui.modes.gobble import common as gc, gobbles

    game = Gobbles([Player("Player 1"), Player("Player 2")], gc.OPENING, [[36], [40]], play_on=False)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    yield 0.2
    placement, hand = gc.BUILD[0], screen.hands[0]
    hand.rotations[placement.tile] = placement.rot
    start = hand.to_window(*hand.slot_centre(hand.tiles.index(placement.tile)))
    yield from drag(start, screen.layout.board.window_cell_centre(placement.cell))
    assert game.finished and game.standings()[0].player == 0
    yield until(lambda: app.manager.current == "gobbles-results", 10)
    results = app.manager.current_screen
    assert _("{name} wins!", name=_("Player {number}", number=1)) in " ".join(labels(results))
    yield from tap(results.home_button)
    yield until(lambda: app.manager.current == "home", 5)
    return {}


def test_gobbles_played_to_the_end_upright_7_inch():
    run_scenario("test_ui_panels_play", "scenario_gobbles_to_the_end", size=(480, 800))


def scenario_tanagra_to_the_end(app):
    """Black takes yellow's last big pawn by two touches: the end, the reason, then Play again."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import EndReason
    from ui.modes.tanagra import play as tanagra

    start = tanagra.howto_position()
    for cell, pawn in list(start.pawns.items()):
        if pawn.owner == 1 and pawn.size == "big" and cell != tanagra.HOWTO_TAKE.target:
            del start.pawns[cell]
    game = Game(tanagra.HOWTO_OPTIONS, ["person", "person"], start=start)
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    yield 0.2
    for cell in (tanagra.HOWTO_TAKE.origin, tanagra.HOWTO_TAKE.target):
        yield from tap(screen.board.to_window(*screen.board.cell_point(cell)))
    yield until(lambda: game.result is not None, 5)  # once the pawn has flown
    assert game.result == (0, EndReason.SIZE_TAKEN)
    yield until(lambda: app.manager.current == "tanagra-results", 10)
    results = app.manager.current_screen
    yield from tap(results.again_button)
    yield until(lambda: isinstance(app.manager.current_screen, tanagra.TanagraScreen), 5)
    again = app.manager.current_screen
    assert again.game is not game and again.game.seats == ["person", "person"] and not again.game.actions
    again.leave()
    return {}


def test_tanagra_played_to_the_end_on_the_big_panel():
    run_scenario("test_ui_panels_play", "scenario_tanagra_to_the_end", size=(1920, 1080))


def scenario_discovery_solved_by_hints(app):
    """From Home: Learn, Discovery 3, solved by taking the hint three times; the solved card."""
    app.go_home()
    yield 0.1
    yield from tap(app.home.buttons["learn"])
    yield 0.2
    path = app.manager.current_screen
    yield from tap(path.discovery_buttons[3])
    yield 0.2
    screen = app.manager.current_screen
    assert screen.name == "puzzle" and screen.play.puzzle.name == "discovery-3", screen.name
    for _step in range(3):
        yield from tap(screen.hint_button)
        yield until(lambda: not screen.worker.busy and screen.board.ghost is not None, 30)
        yield 0.1
        yield from tap(screen.board.window_cell_centre(screen.board.ghost.cell))
    assert screen.play.finished and len(screen.play.placements) == 3
    yield until(lambda: screen.solved_card is not None, 5)
    return {}


def test_a_discovery_puzzle_solved_by_touch_on_the_1024x600_panel():
    run_scenario("test_ui_panels_play", "scenario_discovery_solved_by_hints", size=(1024, 600))
