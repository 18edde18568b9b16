"""Leaving a solo puzzle while a finger is still on it: someone confirms Leave (or Back) while a
finger rests on Undo or drags a tile. When that finger lifts, after the puzzle was left, it must
not act on the abandoned puzzle: nothing is journaled again (it came back as a resume card after
the next start, or at the attract screen) and nothing is recorded.

The game screens' guard (:mod:`ui.leaving`) is the one the solo screens use too."""

from __future__ import annotations

import pytest

from test_ui_puzzles import finger_for, play_from_hand, settled, tray_slot
from ui_harness import run_scenario, tap, touch_at, until


def _held(x, y):
    """A finger put down at window (x, y), left there."""
    finger = touch_at(x, y)
    finger.touch_down()
    return finger


def _dragging(hand, tile, to):
    """A finger that lifted ``tile`` out of ``hand`` and holds it at ``to``, not let go."""
    start = tray_slot(hand, tile)
    finger = _held(*start)
    for i in range(1, 9):
        finger.touch_move(start[0] + (to[0] - start[0]) * i / 8, start[1] + (to[1] - start[1]) * i / 8)
    return finger


def _leave_then_lift(app, screen, leave_button, finger, aim=None):
    """Leave is tapped and confirmed (when it asks) while ``finger`` is down; it lifts once the
    puzzle's screen is gone (a finger dragging a tile first follows its space to ``aim()``, as the
    view moved meanwhile). The store holds no puzzle and no record after it, and the club evening
    no longer says a game is played here: a solo Leave forgets the game as every other Leave does
    (``app.forget_current``); it wiped the saved game alone, and the evening's pairing stayed
    "being played at this table"."""
    from ui.services import TOURNAMENT
    from ui.widgets import Confirm

    store = app.services.store
    records = len(store.records())
    evening = {"club": {"table": "t9", "id": "evening"}, "playing": {"first": "p1", "second": "p2", "round": 0}}
    store.set_progress(TOURNAMENT, evening)
    yield from tap(leave_button)
    question = next((w for w in screen.overlay.children if isinstance(w, Confirm)), None)
    if question is not None:
        yield from tap(question.yes_button)
    yield until(lambda: app.manager.current != screen.name)
    assert store.load_current() is None
    assert store.progress(TOURNAMENT) == {**evening, "playing": None}, store.progress(TOURNAMENT)
    if aim is not None:
        finger.touch_move(*aim())
        yield
    finger.touch_up()
    yield 0.3
    assert store.load_current() is None, "the abandoned puzzle was journaled again"
    assert len(store.records()) == records


def scenario_puzzle_undo_held(app):
    from engine.board import Placement as P
    from ui.modes.solo import puzzle as solo_puzzle

    screen = solo_puzzle.open_puzzle(app, "junior", ("B",))
    yield 0.3
    yield from play_from_hand(screen.tray, screen.board, P(3, 0, 0, 0))
    assert screen.play.placements == [P(3, 0, 0, 0)]
    button = screen.undo_button
    yield from _leave_then_lift(app, screen, screen.back_button, _held(*button.to_window(*button.center)))
    return {}


def scenario_rotation_undo_held(app):
    from ui.modes.solo import rotation

    screen = rotation.open_rotation(app, 3, seed=7)
    yield 0.3
    yield from settled(screen.board)
    cell = next(iter(screen.puzzle.board.placements())).cell
    yield from tap(screen.board.window_cell_centre(cell))
    assert screen.started
    button = screen.undo_button
    yield from _leave_then_lift(app, screen, screen.back_button, _held(*button.to_window(*button.center)))
    return {}


def scenario_four_undo_held(app):
    from engine.board import Placement as P
    from ui.modes.solo import four

    screen = four.open_four(app, "lines")
    yield 0.3
    yield from play_from_hand(screen.tray, screen.board, P(1, 0, 0, 0))
    assert len(screen.four.board) == 1
    button = screen.undo_button
    yield from _leave_then_lift(app, screen, screen.back_button, _held(*button.to_window(*button.center)))
    return {}


def scenario_solitaire_tile_held(app):
    from ui.modes.solo import solitaire

    screen = solitaire.start(app, "classic", "line", seed=6)
    yield 0.3
    yield from settled(screen.board)
    first = solitaire.HOWTO_BUILD[0]
    hand = screen.hand
    hand.rotations[first.tile] = first.rot
    finger = _dragging(hand, first.tile, finger_for(hand, screen.board, first.cell))
    yield

    def over_its_space():
        # off screen, Kivy hands the grabbed finger over in window coordinates, not in those of the
        # hand's parent: the finger lifts where the hand then takes it to be over the tile's space
        x, y = finger_for(hand, screen.board, first.cell)
        ox, oy = hand.to_window(0, 0)
        return x - ox, y - oy

    leave = next(w for w in screen.walk() if getattr(w, "msg", "") == "Leave the game")
    yield from _leave_then_lift(app, screen, leave, finger, over_its_space)
    return {}


def scenario_gobble_solo_discard_held(app):
    from test_ui_gobble_solo import play_by_touch
    from ui.modes.gobble import common as gc, solo as gobble_solo

    order = [p.tile for p in (*gc.OPENING, *gc.BUILD)] + [gc.NOWHERE, gc.GOBBLE.tile]
    screen = gobble_solo.start(app, seed=5, order=order)
    yield 0.3
    for placement in (*gc.OPENING, *gc.BUILD):
        yield from settled(screen.table.board)
        yield from play_by_touch(screen, placement, taps=False)
    assert screen.hand.tiles == [gc.NOWHERE]  # it fits nowhere: the action discards it
    button = screen.action
    leave = next(w for w in screen.walk() if getattr(w, "msg", "") == "Leave the game")
    yield from _leave_then_lift(app, screen, leave, _held(*button.to_window(*button.center)))
    return {}


@pytest.mark.parametrize("scenario", ["scenario_puzzle_undo_held", "scenario_rotation_undo_held",
                                      "scenario_four_undo_held", "scenario_solitaire_tile_held",
                                      "scenario_gobble_solo_discard_held"])
def test_a_finger_still_down_when_a_solo_puzzle_is_left_does_not_bring_it_back(scenario):
    run_scenario("test_ui_solo_leave", scenario, size=(800, 480))
