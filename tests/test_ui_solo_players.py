"""Solo games played by a named player: the start card's "who plays" picks a player from the table's
list, the finished game keeps its score as that player's best (in the players book's SQLite table,
beside the table's high scores), the end says so and the start card and the ladder's player page
show it; a puzzle interrupted by a power cut ends for the same player. The store and the players
book share one SQLite database, as on the table.

Set TANTRIX_SHOTS=<dir> to save the screens as PNGs to look at."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest
from ui_harness import labels, run_scenario, tap, until

SHOTS = os.environ.get("TANTRIX_SHOTS")


PROBLEMS: list[str] = []
"""What the audit of test_ui_fit (ui.audit) found on the screens looked at (in the scenario's process)."""


def _shot(app: Any, name: str) -> None:
    """Look at the screen as test_ui_fit does (text fits, controls a fingertip, contrast), and save it."""
    from kivy.core.window import Window

    from ui import theme
    from ui.audit import Picture, audit
    from ui.i18n import i18n

    size = tuple(Window.size)
    PROBLEMS.extend(f"{name}: {p}" for p in audit(app.root, size, theme.min_target(size), Picture(app.root)))
    if SHOTS:
        app.root.export_to_png(os.path.join(SHOTS, f"{Window.width}x{Window.height}-{i18n.language}-{name}.png"))


def _table(services: Any) -> Any:
    """One SQLite database for the store and the players book, with two players."""
    from firmware.players import Players
    from firmware.store import SqliteStore

    services.store = SqliteStore(tempfile.mkdtemp(prefix="tantrix-solo-players-"))
    services.players = Players(services.store)
    services.players.create("Ana", "sky:star")
    services.players.create("Bartłomiej", "vermilion:triangle")
    return services.players


def _kept_best(app: Any, name: str, mode: str) -> int | None:
    """The player's best as the database holds it (read with SQL, not through the screens)."""
    rows = app.services.store.query("SELECT b.score FROM bests b JOIN players p ON p.id = b.player"
                                    " WHERE p.name = ? AND b.mode = ?", (name, mode))
    return rows[0][0] if rows else None


def _pick(app: Any, who: Any, name: str):
    """Tap the "who plays" button, then the player's name in the picker."""
    from ui.screens.players import PlayerPickerScreen

    yield from tap(who.button)
    picker = app.manager.current_screen
    assert isinstance(picker, PlayerPickerScreen) and picker.heading.msg == "Who plays?"
    yield 0.1
    _shot(app, "solo-who-plays")
    yield from tap(next(b for b in picker.buttons if b.text == name).avatar)  # the avatar is part of the name's button


def scenario_gobble_solo_for_a_player(app):
    from ui.i18n import _
    from ui.modes.gobble.solo import GobbleSoloScreen
    from ui.solo_players import SoloCard
    from ui.screens.ladder import BestsScreen, LadderScreen

    app.open_family("gobble-solo")
    yield 0.2
    setup = app.manager.current_screen
    card = next(w for w in setup.walk() if isinstance(w, SoloCard))
    assert card.who.button.msg == "Guest: tap to pick your name"
    assert card.who.button.height >= 45
    yield from _pick(app, card.who, "Ana")
    assert app.manager.current_screen is setup and card.who.button.text == "Ana"
    assert _("{name}: no best yet", name="Ana") in card.label.text
    yield 0.2
    _shot(app, "gobble-solo-start-ana")
    yield from tap(setup.start_button)
    screen = app.manager.current_screen
    assert isinstance(screen, GobbleSoloScreen)
    game = screen.game
    while not game.finished:  # played to its end through the engine
        game.apply(game.legal_actions()[0])
    screen.after_step()
    assert _kept_best(app, "Ana", "gobble-solo") == game.score
    assert _kept_best(app, "Bartłomiej", "gobble-solo") is None
    assert app.services.store.high_scores("gobble-solo")[0][1] == game.score  # the table's list too
    yield until(lambda: app.manager.current == "gobble-solo-results" and not app.manager.transition.is_active)
    results = app.manager.current_screen
    shown = labels(results)
    assert _("New best for {name}!", name="Ana") in shown and "Ana" in shown
    _shot(app, "gobble-solo-results-ana")
    # a visitor from the home screen starts as a guest; Ana picks her name and sees her best
    app.go_home()
    yield 0.2
    yield from tap(app.home.buttons["gobble-solo"])
    yield 0.2
    setup = app.manager.current_screen
    card = next(w for w in setup.walk() if isinstance(w, SoloCard))
    assert card.who.button.msg == "Guest: tap to pick your name" and "Ana" not in card.label.text
    yield from _pick(app, card.who, "Ana")
    assert _("{name}'s best: {best}", name="Ana", best=game.score) in card.label.text
    # the ladder lists who has solo bests; her page shows them
    ladder = LadderScreen(app.services.players, on_back=app.go_home)
    app.show(ladder)
    yield 0.2
    _shot(app, "ladder-solo-bests")
    assert [b.text.split("\n")[0] for b in ladder.best_buttons] == ["Ana"]
    yield from tap(ladder.best_buttons[0])
    page = app.manager.current_screen
    assert isinstance(page, BestsScreen)
    yield 0.2
    _shot(app, "player-bests")
    assert [_("Gobble solo"), str(game.score)] == [t for t in labels(page.rows)]
    # Solitaire's start card: the same choice, the best of the rules and aim chosen
    app.open_family("solitaire")
    yield 0.2
    setup = app.manager.current_screen
    card = next(w for w in setup.walk() if isinstance(w, SoloCard))
    yield from _pick(app, card.who, "Bartłomiej")
    assert _("{name}: no best yet", name="Bartłomiej") in card.label.text
    yield 0.2
    _shot(app, "solitaire-start-bartlomiej")
    yield from tap(setup.start_button)
    solitaire = app.manager.current_screen.game
    while not solitaire.finished:
        solitaire.apply(solitaire.legal_actions()[0])
    app.manager.current_screen.after_step()
    assert _kept_best(app, "Bartłomiej", "solitaire:classic:line") == solitaire.score
    yield until(lambda: app.manager.current == "solitaire-results" and not app.manager.transition.is_active)
    assert _("New best for {name}!", name="Bartłomiej") in labels(app.manager.current_screen)
    return {"score": game.score, "problems": PROBLEMS}


scenario_gobble_solo_for_a_player.prepare = _table


@pytest.mark.parametrize("size, language", [((800, 480), "pl"), ((1280, 800), "fr")])
def test_a_player_picked_on_the_start_card_keeps_their_gobble_solo_best(size, language):
    result = run_scenario("test_ui_solo_players", "scenario_gobble_solo_for_a_player", size=size,
                          settings={"language": language})
    assert result["score"] > 0 and result["problems"] == []


def scenario_a_puzzle_cut_by_a_power_cut_ends_for_the_same_player(app):
    from ui.i18n import _
    from ui.modes.solo.learn import LearnScreen
    from engine.four import best_known
    from engine.modes import Refused

    yield 0.2
    assert app.manager.current == "resume"
    yield from tap(app.manager.current_screen.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "puzzle" and screen.play.puzzle.name == "rainbow-blue"
    play = screen.play
    for placement in play.hint().solution:  # the last tiles, as the solution lays them
        if play.finished:
            break
        if placement.tile in play.tray:
            play.apply(placement)
    assert play.finished
    screen.after_step()
    kept = _kept_best(app, "Bartłomiej", "time:rainbow-blue")
    assert kept is not None and -kept >= 42  # the clock went on from the time saved before the cut
    assert _kept_best(app, "Ana", "time:rainbow-blue") is None
    yield 0.2
    _shot(app, "puzzle-solved-bartlomiej")
    assert _("New best for {name}!", name="Bartłomiej") in screen.solved_card.lines.text
    yield from tap(screen.solved_card.buttons[_("Back")] if _("Back") in screen.solved_card.buttons
                   else list(screen.solved_card.buttons.values())[-1])
    yield until(lambda: isinstance(app.manager.current_screen, LearnScreen))
    learn = app.manager.current_screen
    assert learn.who.button.text == "Bartłomiej"  # still the same player on the Learn path
    yield 0.2
    _shot(app, "learn-bartlomiej")
    # the puzzles' list shows their own best under the table's
    puzzles = app.open("puzzles")  # from the Learn path, not the home screen: the player stays
    yield 0.2
    assert puzzles.who.button.text == "Bartłomiej"
    assert "Bartłomiej 1:05" in puzzles.buttons["junior"].text and "Bartłomiej" not in puzzles.buttons["student"].text
    _shot(app, "puzzles-bartlomiej")
    # Four lines from the list: all 56 tiles down (the device's best arrangement, tile by tile)
    yield from tap(puzzles.buttons["Four lines"])
    four_screen = app.manager.current_screen
    score, board = best_known("lines")
    waiting = list(board.placements())
    while waiting:  # each tile once it touches the tiles down
        before = len(waiting)
        for placement in list(waiting):
            try:
                four_screen.four.place(placement.tile, placement.cell, placement.rot)
            except Refused:
                continue
            waiting.remove(placement)
        assert len(waiting) < before, f"tiles {[p.tile for p in waiting]} fit nowhere"
    four_screen.after_step()
    assert four_screen.four.best_score == score and _kept_best(app, "Bartłomiej", "four-lines") == score
    assert _("New best for {name}!", name="Bartłomiej") in " ".join(labels(four_screen))
    yield 0.3
    _shot(app, "four-lines-bartlomiej")
    return {"seconds": -kept, "problems": PROBLEMS}


def _prepare_cut_puzzle(services):
    from engine.modes import save
    from engine.solo.puzzle import PuzzlePlay
    from ui.solo_players import SOLO_PLAYER

    players = _table(services)
    bartek = next(p for p in players.all() if p.name == "Bartłomiej")
    play = PuzzlePlay.start("rainbow-blue")
    for placement in play.hint().solution[:2]:
        play.apply(placement)
    services.store.save_current(save(play))
    services.store.set_progress("solo-clock", {"id": "rainbow-blue", "seconds": 42.0})
    services.store.set_progress(SOLO_PLAYER, {"player": bartek.id})  # chosen before the cut
    players.add_best(bartek.id, "time:junior", -65)  # solved Junior once, in 1:05


scenario_a_puzzle_cut_by_a_power_cut_ends_for_the_same_player.prepare = _prepare_cut_puzzle


def test_a_puzzle_resumed_after_a_power_cut_keeps_the_time_as_the_same_players_best():
    result = run_scenario("test_ui_solo_players", "scenario_a_puzzle_cut_by_a_power_cut_ends_for_the_same_player",
                          size=(800, 480), settings={"language": "nl"})
    assert result["seconds"] >= 42 and result["problems"] == []
