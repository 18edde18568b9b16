"""Solitaire at the kiosk, by simulated touches and rendered headless: the start card, draws placed by
touch, the first tile off the middle and a tile beside a fillable forced space refused in plain
words, the forced space filled, no undo, the bag button, the end with its score and the tick on the
Learn path; a game resumed after a power cut (one started from Learn leads back there); the "how to
play" script replayed on the engine."""

from __future__ import annotations

from test_ui_puzzles import journaled, play_from_hand
from ui_harness import labels, run_scenario, tap, until


def scenario_play(app):
    from ui.i18n import _
    from ui.modes.solo import solitaire
    from ui.refusals import FIRST_TILE, RULE_MESSAGES
    from ui.services import BagButtonPressed

    app.go_home()
    yield 0.1
    yield from tap(app.home.buttons["solitaire"])
    setup = app.manager.current_screen
    assert setup.name == "solitaire-setup" and not setup.cards
    assert _("No scores yet: be the first!") in labels(setup)
    yield from tap(setup.choices["rules"].chip("hand"))
    yield from tap(setup.choices["aim"].chip("loop"))
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert screen.name == "solitaire" and screen.game.rules.value == "hand" and screen.game.aim.value == "loop"
    assert len(screen.hand.tiles) == 2 and journaled(app, screen.game)
    # a known bag: seed 6 draws 11, 7, 3, then 4 (which fits the forced space the first three make)
    screen = solitaire.start(app, "classic", "line", seed=6)
    yield 0.3
    game, board, hand = screen.game, screen.board, screen.hand
    assert hand.tiles == [11] and not any(getattr(w, "msg", "") == "Undo" for w in screen.walk())
    assert screen.table.bag == 13
    first = solitaire.HOWTO_BUILD[0]
    yield from play_from_hand(hand, board, first._replace(q=2, r=-1), taps=False)
    assert len(game.board) == 0 and _(FIRST_TILE) in labels(screen.table)
    for placement in solitaire.HOWTO_BUILD:
        yield from play_from_hand(hand, board, placement)
        assert game.board.at(placement.cell) == placement and journaled(app, game)
    assert hand.tiles == [4] and hand.marked == [4] and screen.table.bag == 10
    assert screen.advice.text == _("A tile in your hand fits an orange forced space: it must go there.")
    # tile 4 fits elsewhere too, but a forced space it fits must be filled first
    yield from play_from_hand(hand, board, solitaire.HOWTO_ELSEWHERE, settle=False)
    assert solitaire.HOWTO_FILL.cell in board.highlighted  # marked for a few seconds: looked at at once
    assert len(game.board) == 3 and _(RULE_MESSAGES["must-fill-forced"]) in labels(screen.table)
    yield from play_from_hand(hand, board, solitaire.HOWTO_FILL)
    assert game.board.at(solitaire.HOWTO_FILL.cell) == solitaire.HOWTO_FILL and hand.tiles == [game.hand[0]]
    assert _(RULE_MESSAGES["must-fill-forced"]) not in labels(screen.table, shown=True)  # done as asked
    assert not board.board.forced_spaces() and journaled(app, game)
    lines = labels(screen.panel)
    assert _("Tiles down: {placed} of {total}", placed=4, total=14) in lines
    assert _("{chain}: {length} of {needed}", chain=_("Red line"), length=game.status().line, needed=14) in lines
    # the bag button: the engine has drawn already
    app.post(BagButtonPressed())
    yield 0.1
    assert _("Your tile is already drawn: place it on the table.") in labels(screen.table)
    # the rest by the engine, then the end: the score kept, the results
    while not game.finished:
        game.apply(game.legal_actions()[0])
    screen.after_step()
    assert app.services.store.load_current() is None
    assert app.services.store.high_scores("solitaire:classic:line")[0][1] == game.score
    won = game.status().won
    assert app.services.store.progress("learn").get("solitaire", False) == won
    yield until(lambda: app.manager.current == "solitaire-results")
    results = app.manager.current_screen
    assert results.name == "solitaire-results" and results.celebrate == won
    assert results.replay_bar.step == len(game.board)
    # the start card shows the best scores of the rules and aim chosen
    app.open_family("solitaire")
    yield 0.1
    setup = app.manager.current_screen
    best = _("Best scores: {scores}", scores=str(game.score))
    assert best in labels(setup)
    yield from tap(setup.choices["aim"].chip("loop"))
    yield 0.1
    assert best not in labels(setup) and _("No scores yet: be the first!") in labels(setup)
    return {"placed": len(game.board), "end": game.end.value}


def test_solitaire_played_by_touch():
    result = run_scenario("test_ui_solitaire", "scenario_play", size=(1280, 800))
    assert result["placed"] >= 5


def scenario_resume(app):
    yield 0.2
    assert app.manager.current == "resume"
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "solitaire" and screen.game.rules.value == "hand" and len(screen.game.board) == 3
    assert screen.hand.tiles == screen.game.hand and screen.table.bag == len(screen.game.bag)
    return {}


def _prepare_resume(services):
    from engine.modes import save
    from engine.solo.solitaire import Solitaire

    game = Solitaire.start("hand", "line", seed=3)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    services.store.save_current(save(game))


scenario_resume.prepare = _prepare_resume


def test_solitaire_resumes_after_a_power_cut():
    run_scenario("test_ui_solitaire", "scenario_resume", size=(800, 480))


def scenario_learn_resume(app):
    """Solitaire started from the Learn path, two tiles down, then a power cut: the table starts
    again on its database and resumes the game where it was, and leaving it leads back to Learn
    (it once went home, as if started from Solitaire's own card)."""
    from firmware.store import SqliteStore
    from ui.modes.solo.learn import LearnScreen
    from ui.widgets import Confirm

    app.go_home()
    yield 0.1
    yield from tap(app.home.buttons["learn"])
    learn = app.manager.current_screen
    assert isinstance(learn, LearnScreen)
    learn.select(2)  # the third step, Solitaire
    yield from tap(learn.play_button)
    screen = app.manager.current_screen
    assert screen.name == "solitaire" and screen.from_learn
    game = screen.game
    for _ in range(2):
        game.apply(game.legal_actions()[0])
        screen.after_step()
    placed, hand = game.board.placements(), list(game.hand)
    # the power goes: the table starts again on the same database and offers the game
    app.services.store = SqliteStore(app.services.store.path.parent)
    app.offer_resume(app.services.store.load_current())
    yield 0.2
    yield from tap(app.manager.current_screen.resume_button)
    resumed = app.manager.current_screen
    assert resumed is not screen and resumed.name == "solitaire"
    assert resumed.game.board.placements() == placed and resumed.hand.tiles == hand
    leave = next(w for w in resumed.walk() if getattr(w, "msg", None) == "Leave the game")
    yield from tap(leave)
    yield from tap(next(w for w in resumed.overlay.children if isinstance(w, Confirm)).yes_button)
    assert isinstance(app.manager.current_screen, LearnScreen)
    assert app.services.store.load_current() is None
    return {}


def _sqlite_store(services):
    import tempfile

    from firmware.store import SqliteStore

    services.store = SqliteStore(tempfile.mkdtemp(prefix="tantrix-solitaire-"))


scenario_learn_resume.prepare = _sqlite_store


def test_solitaire_from_learn_resumes_after_a_power_cut_and_leads_back_to_learn():
    run_scenario("test_ui_solitaire", "scenario_learn_resume", size=(800, 480))


def test_the_how_to_play_script_shows_the_rules():
    """Drawn in this order the scripted tiles are legal, the refused one is refused because the
    forced space must be filled, and the fill is legal."""
    from engine.board import Board
    from engine.solo.solitaire import Rules, Aim, Solitaire
    from ui.modes.solo import solitaire as s

    order = [p.tile for p in s.HOWTO_BUILD] + [s.HOWTO_FILL.tile]
    rest = [t for t in range(1, 15) if t not in order]
    game = Solitaire(Rules.CLASSIC, Aim.LINE, order[1:] + rest, order[:1], Board())
    for placement in s.HOWTO_BUILD:
        game.apply(placement)
    assert game.board.is_forced(s.HOWTO_FILL.cell)
    assert game.board.check(s.HOWTO_ELSEWHERE, restricted=False) is None  # it fits there...
    assert game.check(s.HOWTO_ELSEWHERE).rule == "must-fill-forced"  # ...but the forced space comes first
    game.apply(s.HOWTO_FILL)
