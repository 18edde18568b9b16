"""Four lines and Four loops at the kiosk, played by simulated touches and rendered headless: the
list's entry, the tray's pages, a first tile dragged onto the table, a drop refused with the rule,
a tap that turns a tile, a move, a tile taken back and a split refused, undo, the last of 56 tiles
placed (the score counts, the best is kept and celebrated), the table's best to look at, and a
power cut resumed."""

from __future__ import annotations

from test_ui_puzzles import finger_for, journaled, play_from_hand, settled, tray_slot
from ui_harness import drag, labels, run_scenario, tap


def connected_order(board):
    """The placements of ``board`` in an order a player could lay them: the first on (0, 0), each
    next one touching those before it."""
    from engine.geometry import neighbours

    left = {p.cell: p for p in board.placements()}
    order = [left.pop((0, 0))]
    while left:
        cell = next(c for c in sorted(left) if any(n in {p.cell for p in order} for n in neighbours(c)))
        order.append(left.pop(cell))
    return order


def scenario_four(app):
    from engine.board import Placement as P
    from engine.four import best_known
    from ui.i18n import _
    from ui.refusals import RULE_MESSAGES

    app.open_family("puzzles")
    yield 0.2
    yield from tap(app.manager.current_screen.buttons["Four lines"])
    yield 0.3
    screen = app.manager.current_screen
    four, board, tray = screen.four, screen.board, screen.tray
    assert screen.name == "four" and four.KIND == "four-lines" and journaled(app, four)
    # a page of the tray at a time; the arrows turn the pages
    first_page = list(tray.tiles)
    assert 8 <= len(first_page) < 56 and first_page[0] == 1 and screen.previous.disabled
    yield from tap(screen.following)
    yield 0.1
    assert tray.tiles[0] == first_page[-1] + 1 and not screen.previous.disabled
    yield from tap(screen.previous)
    yield 0.1
    assert list(tray.tiles) == first_page
    # the first tile, dragged onto the middle of the table
    yield from play_from_hand(tray, board, P(1, 0, 0, 0))
    assert four.board.at((0, 0)) == P(1, 0, 0, 0) and 1 not in tray.tiles and journaled(app, four)
    # a tile dropped where it touches nothing: refused, the rule in words
    fx, fy, fw, fh = board.fit_area
    apart = next(c for c in ((1, -2), (-1, -1), (2, -1), (-2, 1), (1, 1), (-1, 2))  # two steps away, in sight
                 if fx < board.window_cell_centre(c)[0] < fx + fw and fy < board.window_cell_centre(c)[1] < fy + fh)
    yield from drag(tray_slot(tray, 2), finger_for(tray, board, apart))
    assert len(four.board) == 1 and 2 in tray.tiles
    assert _(RULE_MESSAGES["contact"]) in labels(screen.table)
    # a second tile beside it (turned by the board to a side that matches)
    yield from drag(tray_slot(tray, 2), finger_for(tray, board, (1, 0)))
    yield from settled(board)
    second = four.board.at((1, 0))
    assert second is not None and second.tile == 2 and journaled(app, four)
    assert _(RULE_MESSAGES["contact"]) not in labels(screen.table, shown=True)  # placed as asked: it is over
    # a tap turns a placed tile to its next rotation that matches
    yield from tap(board.window_cell_centre((1, 0)))
    turned = four.board.at((1, 0))
    assert turned.tile == 2 and turned.rot != second.rot and journaled(app, four)
    # a third tile at the end of the row; lifting the middle one would split it: refused
    third = four.board.legal_placements(tray.tiles, [(2, 0)], restricted=False)[0]
    tray.rotations[third.tile] = third.rot
    yield from drag(tray_slot(tray, third.tile), finger_for(tray, board, (2, 0)))
    yield from settled(board)
    assert four.board.at((2, 0)) == third
    x, y = board.window_cell_centre((1, 0))
    yield from drag((x, y), tray.to_window(*tray.center))
    assert four.board.at((1, 0)) is not None and 2 not in tray.tiles
    assert _(RULE_MESSAGES["one-arrangement"]) in labels(screen.table)
    # an end tile goes back to the tray; undo brings it back
    x, y = board.window_cell_centre((2, 0))
    yield from drag((x, y), tray.to_window(*tray.center))
    assert four.board.at((2, 0)) is None and third.tile in tray.tiles and journaled(app, four)
    yield from tap(screen.undo_button)
    assert four.board.at((2, 0)) == third and third.tile not in tray.tiles and journaled(app, four)
    score = sum(four.colour_scores().values())
    assert _("Score: {score}", score=score) == screen.panel.clock.text

    # ---- the last of the 56 tiles: the arrangement counts, the best is kept and celebrated
    best_score, best_board = best_known("lines")
    order = connected_order(best_board)
    screen.reset()
    yield 0.2
    screen = app.manager.current_screen
    four, board, tray = screen.four, screen.board, screen.tray
    for p in order[:-1]:
        four.place(p.tile, p.cell, p.rot)
    screen.after_step()
    yield from settled(board)
    last = order[-1]
    assert list(tray.tiles) == [last.tile] and screen.following.opacity == 0
    yield from play_from_hand(tray, board, last, taps=False)
    assert four.complete and four.best_score == best_score == four.score
    store = app.services.store
    assert store.high_scores("four-lines", 1)[0][1] == best_score and journaled(app, four)
    assert _("All 56 tiles in one arrangement: {score} points. The table's best!", score=best_score) in labels(screen.table)
    assert _("Table's best: {score}", score=best_score) in labels(screen.panel)

    # ---- the table's best, to look at; back to the arrangement
    yield from tap(screen.best_button)
    yield 0.2
    shown = app.manager.current_screen
    assert shown.name == "four-best" and len(shown.board.board) == 56 and shown.board.target is None
    assert _("Score: {score}", score=best_score) in labels(shown)
    yield from tap(shown.back_button)
    assert app.manager.current_screen is screen
    # leaving asks first, then clears the journal; the list shows the best
    yield from tap(screen.back_button)
    yield 0.1
    confirm = next(w for w in screen.overlay.children if hasattr(w, "yes_button"))
    yield from tap(confirm.yes_button)
    listing = app.manager.current_screen
    assert listing.name == "puzzles" and store.load_current() is None
    assert _("best {score}", score=best_score) in listing.buttons["Four lines"].text
    return {"score": best_score}


def test_four_lines_played_by_touch_to_a_complete_arrangement():
    result = run_scenario("test_ui_four", "scenario_four", size=(800, 480))
    assert result["score"] > 100


def scenario_resume(app):
    yield 0.2
    assert app.manager.current == "resume"
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "four" and screen.four.KIND == "four-loops" and len(screen.four.board) == 5
    assert journaled(app, screen.four) and not {p.tile for p in screen.four.board.placements()} & set(screen.tray.tiles)
    return {}


def _prepare_resume(services):
    from engine.four import FourLoops, best_known
    from engine.modes import save

    four = FourLoops()
    for p in connected_order(best_known("loops")[1])[:5]:
        four.place(p.tile, p.cell, p.rot)
    services.store.save_current(save(four))


scenario_resume.prepare = _prepare_resume


def test_four_loops_resume_after_a_power_cut():
    run_scenario("test_ui_four", "scenario_resume", size=(1280, 800))


class PowerCut(BaseException):
    """The power going at one write: what the store's batch undoes, and nothing after it runs."""


def scenario_cut_at_the_best(app):
    """The power goes as the 56th tile's best score is being kept: the journal that holds that
    best must go with it, or the best is never kept (a resumed arrangement takes the journal's best
    as celebrated already)."""
    from engine.four import best_known

    app.open_family("puzzles")
    yield 0.2
    yield from tap(app.manager.current_screen.buttons["Four lines"])
    yield 0.3
    screen = app.manager.current_screen
    four, store = screen.four, app.services.store
    for p in connected_order(best_known("lines")[1]):
        four.place(p.tile, p.cell, p.rot)

    def cut(*_args):
        raise PowerCut

    store.add_score = cut
    try:
        screen.after_step()
    except PowerCut:
        pass
    saved = store.load_current()
    return {"complete_journaled": journaled(app, four), "journaled_best": saved["state"].get("best_score")}


def test_a_power_cut_as_a_best_is_kept_leaves_the_journal_before_it():
    result = run_scenario("test_ui_four", "scenario_cut_at_the_best", size=(800, 480))
    assert not result["complete_journaled"] and result["journaled_best"] is None


def test_the_four_how_to_play_shows_legal_play():
    from engine.four import FourLines
    from ui.modes.solo import four as solo_four

    four = FourLines()
    for p in solo_four.HOWTO_TILES:
        four.place(p.tile, p.cell, p.rot)
    assert len(four.board) == 3
