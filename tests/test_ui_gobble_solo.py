"""Gobble solo at the kiosk, played by simulated touches and rendered headless: the start card, legal
and refused drops (the rule in words), a discard, a gobble and its reward, the bag button, the
journal after every step, the end with its high score and replay; and the "how to play" script,
checked against the engine's rule."""

from __future__ import annotations

import math

from ui_harness import drag, labels, run_scenario, tap, until

ORDER_TAIL = [11, 12, 13]


def finger_for(hand, board_view, cell):
    """Where a finger must be for the tile it lifts to hover over ``cell`` (window coordinates)."""
    x, y = board_view.window_cell_centre(cell)
    lift = hand.tile_radius() * 1.3
    a = math.radians(hand.seat_angle)
    return x + math.sin(a) * lift, y - math.cos(a) * lift


def play_by_touch(screen, placement, taps=True):
    """Turn the tile with taps to the placement's rotation, then drag it onto its cell."""
    hand, board = screen.hand, screen.table.board
    slot = hand.to_window(*hand.slot_centre(hand.tiles.index(placement.tile)))
    if taps:
        for _ in range((placement.rot - hand.rotation(placement.tile)) % 6):
            yield from tap(slot)
    else:
        hand.rotations[placement.tile] = placement.rot
    yield from drag(slot, finger_for(hand, board, placement.cell))


def scenario_play(app):
    from engine.modes import restore
    from ui.i18n import _
    from ui.modes.gobble import common as gc, solo as gobble_solo
    from ui.refusals import RULE_MESSAGES
    from ui.services import BagButtonPressed

    def journaled():
        current = app.manager.current_screen
        return restore(app.services.store.load_current()).to_json() == current.game.to_json()

    app.open_family("gobble-solo")
    yield 0.2
    setup = app.manager.current_screen
    assert setup.name == "gobble-solo-setup" and not setup.cards  # one player: a start card
    assert "No scores yet: be the first!" in labels(setup)
    yield from tap(setup.start_button)
    assert app.manager.current == "gobble-solo" and journaled()
    order = [p.tile for p in (*gc.OPENING, *gc.BUILD)] + [gc.NOWHERE, gc.GOBBLE.tile, *ORDER_TAIL]
    screen = gobble_solo.start(app, seed=5, order=order)
    yield 0.3
    assert not any(getattr(w, "msg", "") == "Undo" for w in screen.walk())  # no undo in Gobble
    assert screen.hand.tiles == [54, 45]  # the opening pair
    yield from play_by_touch(screen, gc.OPENING[0])
    assert screen.game.board.at((0, 0)) == gc.OPENING[0] and journaled()
    yield from play_by_touch(screen, gc.OPENING[1])
    assert len(screen.game.board) == 2 and screen.hand.tiles == [gc.BUILD[0].tile]
    # a drop touching one tile only: refused, the rule in words, nothing placed
    yield from play_by_touch(screen, gc.ONE_NEIGHBOUR._replace(tile=gc.BUILD[0].tile), taps=False)
    yield 0.1
    assert len(screen.game.board) == 2 and gc.ONE_NEIGHBOUR.cell in screen.table.board.highlighted
    assert _(RULE_MESSAGES["two-neighbours"]) in labels(screen.table), labels(screen.table)
    # a drop breaking the golden rule (no turning to a fitting side here): refused in words
    screen.table.board.snap_rotation = False
    wrong = next(r for r in range(6) if r not in screen.game.board.fits(gc.BUILD[0].tile, gc.BUILD[0].cell))
    yield from play_by_touch(screen, gc.BUILD[0]._replace(rot=wrong), taps=False)
    yield 0.1
    assert len(screen.game.board) == 2
    assert _(RULE_MESSAGES["golden-rule"]) in labels(screen.table)
    screen.table.board.snap_rotation = True
    for placement in gc.BUILD:
        yield from play_by_touch(screen, placement, taps=placement is gc.BUILD[0])
        assert screen.game.board.at(placement.cell) == placement and journaled()
        assert _(RULE_MESSAGES["golden-rule"]) not in labels(screen.table, shown=True)  # placed: it is over
    assert screen.progress.text == _("Placed: {placed} of {total}", placed=6, total=len(order))
    # the bag button: the tile is already drawn, it says so
    app.post(BagButtonPressed())
    yield 0.1
    assert _("Your tile is already drawn: place it on the table.") in labels(screen.table)
    # tile 6 fits nowhere: discarded by touch, face up on the pile
    assert screen.hand.tiles == [gc.NOWHERE]
    yield from tap(screen.action)
    assert screen.game.discards == [gc.NOWHERE] and screen.pile.tiles == [gc.NOWHERE] and journaled()
    # a gobble: the top discard is offered as the reward, then played by touch
    yield from play_by_touch(screen, gc.GOBBLE)
    assert screen.game.reward and screen.hand.tiles == [gc.NOWHERE] and screen.pile.tiles == []
    assert screen.offer.text and screen.action.text == _("Return it to the bag") and journaled()
    assert _("Gobble! You may play the top discard.") in labels(screen.table)
    yield from play_by_touch(screen, gc.REWARD)
    assert screen.game.board.at(gc.REWARD.cell) == gc.REWARD and not screen.game.reward and journaled()
    assert screen.offer.text == "", screen.offer.text  # the reward is played: no longer offered
    # a discard that fits must be placed: refused with the cells where it fits
    tile = screen.hand.tiles[0]
    if screen.game.legal_placements():
        yield from tap(screen.action)
        assert screen.game.discards == [] and screen.table.board.highlighted
        assert _(RULE_MESSAGES["must-place"]) in labels(screen.table)
    # play the rest (engine moves), then the end: score kept, record kept, results with a replay
    while not screen.game.finished:
        screen.game.apply(screen.game.legal_actions()[0])
    screen.after_step()
    assert app.services.store.load_current() is None
    assert app.services.store.high_scores("gobble-solo") == [(app.services.store.high_scores("gobble-solo")[0][0],
                                                              screen.game.score)]
    assert app.services.store.records("gobble-solo")[0][2] == screen.game.to_json()
    yield until(lambda: app.manager.current == "gobble-solo-results" and not app.manager.transition.is_active)
    results = app.manager.current_screen
    assert results.name == "gobble-solo-results"
    placed, total = screen.game.progress
    assert _("You placed {placed} of {total} tiles.", placed=placed, total=total) in labels(results)
    assert results.celebrate == screen.game.goal_reached
    # the table's best scores say what they count: tiles placed
    assert _("Most tiles placed: {scores}", scores=str(screen.game.score)) in labels(results)
    bar = results.replay_bar
    assert bar.step == placed
    yield from tap(bar.buttons["first"])
    assert bar.step == 0 and len(bar.replay.view.board) == 0
    yield from tap(bar.buttons["next"])
    assert len(bar.replay.view.board) == 1 and bar.caption.text == _("Tile {tile} placed", tile=54)
    return {"placed": placed, "tile": tile}


def test_gobble_solo_played_by_touch():
    result = run_scenario("test_ui_gobble_solo", "scenario_play", size=(1280, 800))
    assert result["placed"] >= 9


def scenario_resume(app):
    """A game journaled mid-reward comes back on its screen in the same state."""
    yield 0.2
    assert app.manager.current == "resume"
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "gobble-solo" and screen.game.reward
    assert screen.hand.tiles == [screen.game.discards[-1]]
    assert screen.action.text == "Return it to the bag"
    yield from tap(screen.action)
    assert not screen.game.reward and screen.game.discards == []
    # the screen says what to do, and "?" shows how to play, then comes back to this very game
    assert "Place every tile, each touching two." in labels(screen)
    game = screen.game
    yield from tap(screen.howto_button)
    from ui.howto import HowToPlayScreen

    assert isinstance(app.manager.current_screen, HowToPlayScreen)
    yield from tap((5, 5))  # a tap anywhere ends the animation
    yield 0.1
    assert app.manager.current_screen is screen and screen.game is game
    # leaving asks first; "Stay" keeps the game, "Leave" forgets it
    leave = next(w for w in screen.walk() if getattr(w, "msg", "") == "Leave the game")
    yield from tap(leave)
    confirm = screen.overlay.children[0]
    yield from tap(confirm.no_button)
    assert app.manager.current == "gobble-solo" and confirm.parent is None
    yield from tap(leave)
    yield from tap(screen.overlay.children[0].yes_button)
    assert app.manager.current == "home" and app.services.store.load_current() is None
    return {}


def _prepare_resume(services):
    from engine.gobble.solo import Discard, GobbleSolo, Place
    from engine.modes import save
    from ui.modes.gobble import common as gc

    order = [p.tile for p in (*gc.OPENING, *gc.BUILD)] + [gc.NOWHERE, gc.GOBBLE.tile, *ORDER_TAIL]
    game = GobbleSolo.start(seed=1, order=order)
    for placement in (*gc.OPENING, *gc.BUILD):
        game.apply(Place(placement))
    game.apply(Discard())
    game.apply(Place(gc.GOBBLE))
    services.store.save_current(save(game))


scenario_resume.prepare = _prepare_resume


def test_a_journaled_game_resumes_on_its_screen():
    run_scenario("test_ui_gobble_solo", "scenario_resume", size=(800, 480))


def scenario_resume_finished(app):
    """The power went between the last step's journal and the game's ending: resumed, the game
    ends there and then, counted once."""
    yield 0.2
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "gobble-solo" and screen.game.finished
    yield until(lambda: app.manager.current == "gobble-solo-results")
    store = app.services.store
    return {"records": len(store.records("gobble-solo")), "scores": store.high_scores("gobble-solo"),
            "score": screen.game.score, "journal": store.load_current()}


def _prepare_resume_finished(services):
    import random

    from engine.gobble.solo import GobbleSolo
    from engine.modes import save

    game = GobbleSolo.start(seed=5)
    rng = random.Random(5)
    while not game.finished:
        game.apply(rng.choice(game.legal_actions()))
    services.store.save_current(save(game))


scenario_resume_finished.prepare = _prepare_resume_finished


def test_a_finished_game_resumed_after_a_power_cut_is_counted_once():
    result = run_scenario("test_ui_gobble_solo", "scenario_resume_finished", size=(800, 480))
    assert result["records"] == 1 and [score for _name, score in result["scores"]] == [result["score"]]
    assert result["journal"] is None


def test_the_how_to_play_script_shows_legal_play():
    """Every scripted placement is legal in Gobble, the refused one is refused for touching one
    tile, the discard fits nowhere, the gobble fills a space with three neighbours."""
    from engine.board import Board
    from engine.gobble import rules
    from ui.modes.gobble import common as gc

    board = Board()
    for placement in (*gc.OPENING, *gc.BUILD):
        assert rules.refusal(board, placement) is None, placement
        board.push(placement)
    assert rules.refusal(board, gc.ONE_NEIGHBOUR).rule == rules.GobbleRule.TWO_NEIGHBOURS
    assert rules.legal_placements(board, [gc.NOWHERE]) == []
    assert board.neighbour_count(gc.GOBBLE.cell) == 3 and rules.refusal(board, gc.GOBBLE) is None
    race = board.copy()
    assert rules.refusal(race, gc.RACE[0]) is None and rules.refusal(race, gc.RACE[1]) is None
    board.push(gc.GOBBLE)
    assert rules.refusal(board, gc.REWARD) is None


def scenario_reward_offer_legible(app):
    """A gobble earns the top discard: the side panel's offer ("Gobble! Your reward is the top
    discard...") shows whole, at its own size, over no other words of the panel (on the 7" panel
    it was once squeezed into the room left under the pile, in 9 px letters; upright it ran over
    "Placed: 7 of 11" and off the band). Once the reward is played, the pile shows again."""
    from ui import theme
    from ui.audit import window_box
    from ui.modes.gobble import common as gc, solo as gobble_solo

    order = [p.tile for p in (*gc.OPENING, *gc.BUILD)] + [gc.NOWHERE, gc.GOBBLE.tile, *ORDER_TAIL]
    screen = gobble_solo.start(app, seed=5, order=order)
    yield 0.3
    for placement in (*gc.OPENING, *gc.BUILD):
        screen.rules.place(placement)
        screen.after_step()
    screen.press_action()  # tile 6 fits nowhere: discarded
    screen.rules.place(gc.GOBBLE)
    screen.after_step()
    assert screen.game.reward
    offer = screen.offer
    yield until(lambda: offer.text and offer.texture_size[1] > 0)
    yield 0.2
    assert offer.font_size >= theme.font(offer.scale) * 0.8, (offer.font_size, theme.font(offer.scale))
    tw, th = offer.texture_size
    assert tw <= offer.width + 1 and th <= offer.height + 1, (offer.texture_size, offer.size)

    def overlap(a, b):
        return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1

    box = window_box(offer)
    others = [w for w in screen.walk() if w is not offer and getattr(w, "text", "")
              and all(p.opacity > 0 for p in (w, *_parents(w))) and not any(p is screen.table for p in _parents(w))]
    clashes = [w.text for w in others if overlap(box, window_box(w))]
    assert clashes == [], clashes
    assert screen.pile.opacity == 0  # the offer stands where the pile was: the reward is its top tile
    yield from play_by_touch(screen, gc.REWARD)
    assert not screen.game.reward and screen.offer.opacity == 0 and screen.pile.opacity == 1
    return {}


def _parents(widget):
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        yield widget


def test_the_reward_offer_is_legible_on_the_7_inch_panel():
    run_scenario("test_ui_gobble_solo", "scenario_reward_offer_legible", size=(800, 480))


def test_the_reward_offer_is_legible_on_the_portrait_panel():
    run_scenario("test_ui_gobble_solo", "scenario_reward_offer_legible", size=(720, 1280))
