"""The Puzzles family at the kiosk, played by simulated touches and rendered headless: the list, the
colour choice, a drop refused by the golden rule (the rule in words), a placed tile turned, moved,
picked back up, undone; a hint found on a worker thread while frames keep coming (cancelled), one
shown and taken by touch; a rotation puzzle turned by taps until solved; resuming both kinds after
a power cut. The helpers here are shared by the Learn and Solitaire tests."""

from __future__ import annotations

import pytest

from ui_harness import drag, labels, run_scenario, settled_screens, tap, until


# ------------------------------------------------------------------------- shared helpers


def tray_slot(hand, tile):
    """Where a tile of a hand (tray) is on screen (window coordinates)."""
    return hand.to_window(*hand.slot_centre(hand.tiles.index(tile)))


def finger_for(hand, board, cell):
    """Where a finger must be for the tile a hand lifts (above the finger) to hover over ``cell``."""
    x, y = board.window_cell_centre(cell)
    return x, y - hand.tile_radius() * 1.3


def play_from_hand(hand, board, placement, taps=True, settle=True):
    """Turn a hand's tile by taps to the placement's rotation, then drag it onto its cell (and,
    unless ``settle`` is false, wait for the board to stop moving: what a refusal marks for a few
    seconds is best looked at before)."""
    if taps:
        for _ in range((placement.rot - hand.rotation(placement.tile)) % 6):
            yield from tap(tray_slot(hand, placement.tile))
    else:
        hand.rotations[placement.tile] = placement.rot
    yield from settled(board)
    finger = finger_for(hand, board, placement.cell)
    yield from drag(tray_slot(hand, placement.tile), finger)
    if settle:
        yield from settled(board)


def settled(board):
    """Wait until the board has stopped moving (it recentres on the arrangement, animated): a loaded
    machine draws slowly, and a finger aimed at a moving board misses."""
    seen = None
    for _ in range(100):
        yield 0.1
        now = (tuple(board.origin), board.size_px)
        if now == seen:
            return
        seen = now
    raise AssertionError("the board kept moving")


def journaled(app, mode):
    """Whether the store holds exactly ``mode``'s state (what a power cut would bring back)."""
    from engine.modes import restore

    saved = app.services.store.load_current()
    return saved is not None and restore(saved).to_json() == mode.to_json()


# ------------------------------------------------------------------------------ scenarios


def scenario_puzzle_play(app):
    from kivy.clock import Clock

    from engine.board import Placement as P
    from engine.solo.puzzle import PuzzlePlay
    from ui.i18n import _
    from ui.modes.solo import puzzle as solo_puzzle
    from ui.modes.solo.common import colours_name
    from ui.refusals import RULE_MESSAGES

    app.go_home()
    yield 0.1
    yield from tap(app.home.buttons["puzzles"])
    listing = app.manager.current_screen
    assert listing.name == "puzzles" and "rotation-9" in listing.buttons and "genius-b" in listing.buttons
    assert {"Four lines", "Four loops"} <= set(listing.buttons)  # with engine.four: their own row
    yield from tap(listing.buttons["junior"])
    yield 0.2
    screen = app.manager.current_screen
    assert screen.name == "puzzle" and screen.play.puzzle.name == "junior" and journaled(app, screen.play)
    # the colour is asked first: blue (the one that works; the hint would aim at it)
    card = screen.choice_card
    assert card is not None and card.parent is not None
    yield from tap(card.buttons[("B",)])
    assert screen.play.colours == ("B",) and card.parent is None and journaled(app, screen.play)
    assert screen.aim_button.text == _("Colour: {colours}", colours=colours_name(("B",)))
    board, tray = screen.board, screen.tray
    yield from play_from_hand(tray, board, P(3, 0, 0, 0))
    assert screen.play.placements == [P(3, 0, 0, 0)] and 3 not in tray.tiles and journaled(app, screen.play)
    # a drop breaking the golden rule (not snapped to a fitting side): refused, the rule in words
    board.snap_rotation = False
    wrong = next(r for r in range(6) if r not in screen.play.board.fits(5, (1, 0)))
    yield from play_from_hand(tray, board, P(5, 1, 0, wrong), taps=False, settle=False)
    assert (1, 0) in board.highlighted  # marked for a few seconds: looked at at once
    assert screen.play.placements == [P(3, 0, 0, 0)] and 5 in tray.tiles
    assert _(RULE_MESSAGES["golden-rule"]) in labels(screen.table)
    board.snap_rotation = True
    # a tap on a placed tile turns it to its next rotation (alone on the table, any fits)
    yield from tap(board.window_cell_centre((0, 0)))
    assert screen.play.placements == [P(3, 0, 0, 1)] and journaled(app, screen.play)
    assert _(RULE_MESSAGES["golden-rule"]) not in labels(screen.table, shown=True)  # a step on: it is over
    # drag it to another space, then back onto the tray (picked up)
    x, y = board.window_cell_centre((0, 0))
    target = (x + board.size_px * 2.6, y - board.size_px * 1.1)  # the finger, under the lifted tile
    assert board.on_table(target)
    yield from drag((x, y), target)
    yield from settled(board)
    moved = screen.play.placements
    assert len(moved) == 1 and moved[0].cell != (0, 0) and moved[0].tile == 3
    x, y = board.window_cell_centre(moved[0].cell)
    yield from drag((x, y), tray.to_window(*tray.center))
    assert screen.play.placements == [] and 3 in tray.tiles and journaled(app, screen.play)
    # undo puts it back where it was picked up from
    yield from tap(screen.undo_button)
    assert screen.play.placements == moved and 3 not in tray.tiles and journaled(app, screen.play)

    # ---- a slow hint (Genius from an empty table): the frames keep coming, Cancel stops it
    screen = solo_puzzle.open_puzzle(app, "genius-a")
    yield 0.2
    assert screen.choice_card is None  # Genius A says its colours: nothing to choose
    frames = Clock.frames_displayed
    yield from tap(screen.hint_button)
    thinking = screen.thinking
    assert thinking is not None and thinking.parent is not None and thinking.spinner.spinning
    angle = thinking.spinner.angle
    yield until(lambda: Clock.frames_displayed >= frames + 12, 30)  # a bound for a frozen screen, not a speed
    assert screen.worker.busy, "the search should still be thinking"
    assert thinking.spinner.angle != angle
    yield from tap(thinking.cancel_button)
    yield until(lambda: not screen.worker.busy, 30)
    assert thinking.parent is None and board.ghost is None and screen.play.hints == 1
    # a hint still thinking when the puzzle is cleared (staff's "clear the game") does not bring it back
    yield from tap(screen.hint_button)
    assert screen.worker.busy
    app.discard()
    yield until(lambda: not screen.worker.busy and screen.thinking is None, 30)
    assert app.services.store.load_current() is None

    # ---- a hint shown and taken by touch
    screen = solo_puzzle.open_puzzle(app, "discovery-5")
    yield 0.2
    yield from tap(screen.hint_button)
    yield until(lambda: not screen.worker.busy)
    yield 0.1
    hinted = screen.board.ghost
    assert hinted is not None and not screen.board.ghost_take_back and screen.tray.marked == [hinted.tile]
    assert _("Tile {tile} goes on the pale tile, turned like it: tap it to put it there.", tile=hinted.tile) \
        in labels(screen.table)
    yield from tap(screen.board.window_cell_centre(hinted.cell))
    assert screen.play.placements == [hinted] and screen.board.ghost is None and journaled(app, screen.play)
    assert screen.play.hints == 1
    restored = PuzzlePlay.from_json(app.services.store.load_current()["state"])
    return {"hinted": list(hinted), "hints": restored.hints}


def test_a_puzzle_played_by_touch_with_refusals_moves_undo_and_hints():
    result = run_scenario("test_ui_puzzles", "scenario_puzzle_play", size=(1280, 800))
    assert result["hints"] == 1


def _hint_colour(app, screen):
    """The colour the Hint button is drawn in, beside its words."""
    from ui.audit import Picture

    hint = screen.hint_button
    return Picture(app.root).at(*hint.to_window(hint.x + hint.width * 0.06, hint.center_y))


def scenario_rotation(app):
    from ui import theme
    from ui.i18n import _

    app.open_family("puzzles")
    yield 0.2
    listing = app.manager.current_screen
    yield from tap(listing.buttons["rotation-3"])
    yield 0.3
    screen = app.manager.current_screen
    puzzle, board = screen.puzzle, screen.board
    assert screen.name == "rotation" and puzzle.rows == 3 and journaled(app, puzzle)
    assert len(board.clashes) == len(puzzle.status().mismatches) > 0
    amber = tuple(round(c * 255) for c in theme.CHOSEN[:3])
    assert max(abs(p - q) for p, q in zip(_hint_colour(app, screen), amber)) <= 8  # it calls to be tapped
    # a tap turns a tile a sixth clockwise; undo turns it back
    tile = min(puzzle.cells)
    before = puzzle.rotations[tile]
    yield from tap(board.window_cell_centre(puzzle.cells[tile]))
    assert puzzle.rotations[tile] == (before + 1) % 6 and journaled(app, puzzle)
    yield from tap(screen.undo_button)
    assert puzzle.rotations[tile] == before and journaled(app, puzzle)
    # the hint shows one tile as it should lie; a tap on it turns it so
    yield from tap(screen.hint_button)
    yield until(lambda: not screen.worker.busy)
    hinted = board.ghost
    assert hinted is not None and hinted.cell == puzzle.cells[hinted.tile]
    yield from tap(board.window_cell_centre(hinted.cell))
    assert puzzle.rotations[hinted.tile] == hinted.rot and board.ghost is None
    # the rest by taps, as the solution says
    solution = {p.tile: p.rot for p in puzzle.solution}
    for tile, cell in sorted(puzzle.cells.items()):
        for _step in range((solution[tile] - puzzle.rotations[tile]) % 6):
            yield from tap(board.window_cell_centre(cell))
    yield 0.2
    assert puzzle.finished and board.clashes == ()
    assert app.services.store.load_current() is None  # solved and kept: nothing "interrupted"
    assert screen.solved_card is not None and screen.solved_card.parent is not None
    assert _("Solved!") in labels(screen)
    # the panel's buttons rest, and look it: the amber Hint no longer calls to be tapped
    shown = _hint_colour(app, screen)
    assert screen.hint_button.disabled and max(abs(p - q) for p, q in zip(shown, amber)) > 80, (shown, amber)
    store = app.services.store
    assert "rotation-3" in store.progress("puzzles")["solved"] and store.high_scores("time:rotation-3")
    # a solved puzzle turns no more
    turned = dict(puzzle.rotations)
    yield from tap(board.window_cell_centre(puzzle.cells[tile]))
    assert puzzle.rotations == turned
    yield from tap(screen.solved_card.buttons[_("Back")])
    listing = app.manager.current_screen
    assert listing.name == "puzzles" and listing.buttons["rotation-3"].done
    assert app.services.store.load_current() is None
    return {"moves": puzzle.moves}


def test_a_rotation_puzzle_solved_by_taps():
    result = run_scenario("test_ui_puzzles", "scenario_rotation", size=(800, 480))
    assert result["moves"] >= 1


def scenario_resume(app):
    """A puzzle and a rotation puzzle, each saved mid-way, come back on their screens."""
    from engine.modes import save
    from engine.solo.rotation import RotationPuzzle, Turn

    yield 0.2
    assert app.manager.current == "resume"
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "puzzle" and screen.play.puzzle.name == "rainbow-blue"
    assert len(screen.play.placements) == 2 and sorted(screen.tray.tiles) == sorted(screen.play.tray)
    assert screen.board.shape == screen.play.puzzle.shape and journaled(app, screen.play)
    assert screen.stopwatch.seconds >= 42  # the clock goes on from the time saved
    puzzle = RotationPuzzle.start(4, seed=5)
    puzzle.apply(Turn(min(puzzle.cells), 2))
    app.offer_resume(save(puzzle))
    yield 0.1
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "rotation" and screen.puzzle.to_json() == puzzle.to_json()
    assert len(screen.board.board) == 10
    # solved, but the power went before it was kept: it comes back solved, its card laid out along
    # the foot of the play area (built before the screen was, it was laid out in a sliver once)
    for placement in puzzle.solution:
        if placement.rot != puzzle.rotations[placement.tile]:
            puzzle.apply(Turn(placement.tile, (placement.rot - puzzle.rotations[placement.tile]) % 6))
    assert puzzle.finished
    app.offer_resume(save(puzzle))
    yield 0.1
    yield from tap(app.manager.current_screen.resume_button)
    yield from settled_screens()
    screen = app.manager.current_screen
    card, area = screen.solved_card, screen.play_area
    assert screen.name == "rotation" and card is not None and card.parent is not None
    assert area.x < card.x and card.right < area.right and card.width > area.width * 0.8, (card.pos, card.size, area.size)
    assert card.top < area.top and card.y >= area.y
    return {}


def _prepare_resume(services):
    from engine.modes import save
    from engine.solo.puzzle import PuzzlePlay

    play = PuzzlePlay.start("rainbow-blue")
    for placement in play.hint().solution[:2]:
        play.apply(placement)
    services.store.save_current(save(play))
    services.store.set_progress("solo-clock", {"id": "rainbow-blue", "seconds": 42.0})


scenario_resume.prepare = _prepare_resume


def test_puzzles_resume_after_a_power_cut():
    run_scenario("test_ui_puzzles", "scenario_resume", size=(800, 480))


def _solved_pyramid():
    """A pyramid of 4 rows turned right, tile by tile: solved."""
    from engine.solo.rotation import RotationPuzzle, Turn

    puzzle = RotationPuzzle.start(4, seed=5)
    for placement in puzzle.solution:
        if placement.rot != puzzle.rotations[placement.tile]:
            puzzle.apply(Turn(placement.tile, (placement.rot - puzzle.rotations[placement.tile]) % 6))
    return puzzle


def _celebration(app):
    """Where the celebration of the pyramid on screen lies: the banner's box (as on the window),
    whether it crosses the solved card, and the confetti's pieces halfway down."""
    from kivy.core.window import Window
    from kivy.graphics import Rectangle
    from ui.results import Confetti

    screen = app.manager.current_screen
    banner, card = screen.banner, screen.solved_card
    (x, y), (w, h) = banner.bbox
    (cx, cy), (cw, ch) = card.to_window(*card.pos), card.size
    confetti = next(w for w in screen.overlay.children if isinstance(w, Confetti))
    confetti.progress = 0.5
    pieces = [confetti.to_window(*i.pos) for i in confetti.canvas.children if isinstance(i, Rectangle)]
    inside = [(px, py) for px, py in pieces if 0 <= px <= Window.width and 0 <= py <= Window.height]
    return {"banner": [round(x), round(y), round(x + w), round(y + h)], "text": banner.label.text,
            "shown": banner.opacity == 1, "over the card": x < cx + cw and cx < x + w and y < cy + ch and cy < y + h,
            "window": list(Window.size), "pieces": len(pieces), "inside": len(inside),
            "spread": round(max(px for px, _ in inside) - min(px for px, _ in inside)) if inside else 0}


def scenario_resumed_solved_celebrates_on_screen(app):
    """A pyramid solved just before a power cut, resumed: "Every edge matches" and the confetti on
    the screen, where a pyramid solved at the table shows them (the banner and the confetti were
    laid out on the screen's parts before they had their size: the words off the left edge, the
    confetti falling in a corner)."""
    from engine.modes import save
    from engine.solo.rotation import Turn
    from ui.modes.solo import rotation

    app.offer_resume(save(_solved_pyramid()))
    yield 0.1
    yield from tap(app.manager.current_screen.resume_button)
    yield from settled_screens()
    yield 0.2
    resumed = _celebration(app)
    screen = rotation.open_rotation(app, 4, seed=5)
    yield from settled_screens()
    yield 0.2
    for placement in screen.puzzle.solution:
        steps = (placement.rot - screen.puzzle.rotations[placement.tile]) % 6
        if steps:
            screen.turn(Turn(placement.tile, steps))
    yield 0.2
    fresh = _celebration(app)
    return {"resumed": resumed, "fresh": fresh}


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (720, 1280)])
def test_a_pyramid_resumed_solved_celebrates_on_screen(size):
    found = run_scenario("test_ui_puzzles", "scenario_resumed_solved_celebrates_on_screen", size=size)
    resumed, fresh = found["resumed"], found["fresh"]
    width, height = resumed["window"]
    for seen in (resumed, fresh):
        x0, y0, x1, y1 = seen["banner"]
        assert seen["shown"] and seen["text"] == "Every edge matches: well done!", found
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, found  # on the screen
        assert not seen["over the card"], found  # the card would hide its words
        # the confetti falls over the whole screen: most of it in sight halfway, across its width
        assert seen["inside"] >= seen["pieces"] / 2 and seen["spread"] >= width * 0.6, found
    assert all(abs(a - b) <= 2 for a, b in zip(resumed["banner"], fresh["banner"])), found


# --------------------------------------------------------------------- without a screen


def test_the_puzzle_how_to_play_shows_legal_play():
    """The script's placements are legal, its refused one breaks the golden rule, and it ends solved."""
    from engine.solo.puzzle import PuzzlePlay
    from ui.modes.solo import puzzle as sp

    play = PuzzlePlay.start("discovery-3")
    play.apply(sp.HOWTO_FIRST)
    assert play.check(sp.HOWTO_REFUSED).rule == "golden-rule"
    play.apply(sp.HOWTO_TURNED)
    play.apply(sp.HOWTO_LAST)
    assert play.finished


def test_the_rotation_how_to_play_ends_solved():
    from engine.solo.rotation import RotationPuzzle
    from ui.modes.solo import rotation as sr

    puzzle = RotationPuzzle.start(sr.HOWTO_ROWS, seed=sr.HOWTO_SEED)
    taps = {p.tile: (p.rot - puzzle.rotations[p.tile]) % 6 for p in puzzle.solution}
    assert 0 < sum(taps.values()) <= 10  # short enough to watch


def test_the_puzzle_list_offers_four_lines_and_four_loops():
    from ui.memory import MemoryStore
    from ui.modes.solo import puzzles

    assert [e.title for e in puzzles.four_entries(MemoryStore())] == ["Four lines", "Four loops"]


def scenario_puzzle_list_fits(app):
    """The whole list fits the screen under its title and Home button, every entry fingertip-sized."""
    from ui import theme

    app.open_family("puzzles")
    yield 0.3
    rows = app.manager.current_screen.rows
    assert max(row.top for row in rows.children) <= rows.top + 1  # nothing over the title and Home
    assert min(row.y for row in rows.children) >= rows.y - 1
    buttons = app.manager.current_screen.buttons.values()
    assert len(buttons) == 15 and all(b.height >= theme.min_target() - 0.5 for b in buttons)
    return {}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_puzzle_list_fits_under_its_title(size):
    run_scenario("test_ui_puzzles", "scenario_puzzle_list_fits", size=size)


def scenario_colour_button_a_fingertip_high(app):
    """The Professor's colour button (which colours the hint aims at) is a fingertip high on every
    panel: on the 7" portrait one it was 68 px, where 9 mm is 71."""
    from ui import theme
    from ui.modes.solo import puzzle as solo_puzzle

    screen = solo_puzzle.open_puzzle(app, "professor")
    yield from settled_screens()
    yield until(lambda: screen.choice_card is not None)
    screen.choice_card.dismiss()
    yield
    return {"height": screen.aim_button.height, "fingertip": theme.min_target()}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_colour_button_is_a_fingertip_high(size):
    found = run_scenario("test_ui_puzzles", "scenario_colour_button_a_fingertip_high", size=size)
    assert found["height"] >= found["fingertip"]


def scenario_solved_in_another_colour(app):
    """Junior: the child taps red at the colour question, then finds the one loop there is (blue)
    by dragging the tiles on: solved at once, kept once, the panel naming the blue loop."""
    from engine.solver import solve
    from ui.i18n import _
    from ui.modes.solo import puzzle as solo_puzzle
    from ui.modes.solo.common import colours_name

    screen = solo_puzzle.open_puzzle(app, "junior")
    yield until(lambda: screen.choice_card is not None and screen.choice_card.parent is not None)
    yield from tap(screen.choice_card.buttons[("R",)])
    assert screen.play.colours == ("R",)
    blue = solve(screen.play.puzzle.goal(("B",))).solution
    for placement in blue:
        assert screen.solved_card is None
        yield from play_from_hand(screen.tray, screen.board, placement, taps=False)
    yield until(lambda: screen.solved_card is not None)
    store = app.services.store
    assert store.progress("puzzles")["solved"] == ["junior"] and len(store.high_scores("time:junior", 5)) == 1
    assert store.load_current() is None
    assert screen.aim_button.text == _("Colour: {colours}", colours=colours_name(("B",)))
    yield from tap(screen.aim_button)  # solved: the colour is no longer asked, nothing journaled anew
    assert screen.choice_card.parent is None and store.load_current() is None
    return {}


def test_a_colour_puzzle_solved_in_another_colour_than_chosen_is_solved():
    run_scenario("test_ui_puzzles", "scenario_solved_in_another_colour", size=(800, 480))


def scenario_great_pyramid_tip_points_at_its_tiles(app):
    """The Great Pyramid's tip names its three tiles in a way a player can follow: they are
    outlined on the board (their numbers are too small to be drawn at this size: the tip once
    said "tiles 43, 45 and 49", which no one could find)."""
    from engine.solo.rotation import HINT_LOOP
    from ui import theme, tileart
    from ui.modes.solo import rotation as solo_rotation
    from ui_harness import Pixels, near

    screen = solo_rotation.open_rotation(app, 9, seed=3)
    yield 0.6
    board = screen.board
    assert board.size_px * 2 * tileart.NUMBER_SHARE < tileart.NUMBER_PX  # no tile shows its number
    loop = sorted(p.cell for p in screen.puzzle.board.placements() if p.tile in HINT_LOOP)
    assert sorted(board.pointed) == loop and len(loop) == 3
    _title, goal = screen.words()
    assert not any(str(tile) in goal for tile in HINT_LOOP), goal
    pixels = Pixels(board)
    for cell in loop:  # the outline, just inside the hexagon's top corner
        x, y = board.window_cell_centre(cell)
        assert near(pixels.at(x, y + board.size_px * 0.93), theme.ACCENT, 60), (cell, pixels.at(x, y + board.size_px * 0.93))
    return {}


def test_the_great_pyramids_tip_outlines_the_tiles_it_speaks_of():
    run_scenario("test_ui_puzzles", "scenario_great_pyramid_tip_points_at_its_tiles", size=(800, 480))
