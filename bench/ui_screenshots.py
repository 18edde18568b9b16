"""Render every UI screen headless at both kiosk sizes into ./screenshots/ (PNG), for a person to
look at: legible at arm's length, big touch targets, nothing cut off.

    .venv/bin/python bench/ui_screenshots.py [--sizes 1280x800,800x480] [--out screenshots] [--only solo]
    .venv/bin/python bench/ui_screenshots.py --matrix [--out screenshots]   # every screen, language, panel

Prints JSON: the files written, and what the audit (ui.audit) finds in each picture. Each size runs in its own process (Kivy runs one app per process).
The table shots use a small rules target on engine.board.Board, as the board tests do; they show
the board widget and the seats, not a mode.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent


GROUPS = ("screens", "modes", "gobbles", "strategy", "solo", "endings")
"""The shots by kind: the app's own screens (home, staff, the table widget), Gobbles and Tanagra,
the strategy game, the solo modes. ``--only`` renders one group (quicker while working on it)."""


def child(size: tuple[int, int], out: Path, only: str | None = None) -> dict[str, Any]:
    from kiosk_steps import kiosk, run_steps

    app, services = kiosk(size)
    services.store.save_current({"kind": "strategy", "state": {}})
    from ui import theme
    from ui.audit import Picture, audit, settle
    written: list[str] = []
    problems: dict[str, list[str]] = {}
    tag = f"{size[0]}x{size[1]}"

    def shot(name: str) -> None:
        path = out / f"{tag}-{name}.png"
        settle(app.root)  # the frame a player sees, even in the tick an event was handled
        app.root.export_to_png(str(path))
        written.append(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path))
        found = audit(app.root, size, theme.min_target(size), Picture(app.root))
        if found:
            problems[f"{tag}-{name}"] = sorted({str(p) for p in found})

    def steps() -> Iterator[float]:
        yield 0.3
        shot("01-resume")
        if only is not None:
            app.discard()
            yield 0.2
            yield from {"screens": screen_shots, "modes": mode_shots, "gobbles": gobbles_shots,
                        "strategy": strategy_shots,
                        "solo": solo_shots, "endings": ending_shots}[only](app, services, shot)
            return
        yield from screen_shots(app, services, shot)
        yield from mode_shots(app, services, shot)
        yield from strategy_shots(app, services, shot)
        yield from solo_shots(app, services, shot)
        yield from ending_shots(app, services, shot)

    def screen_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
        app.discard()
        app.manager.current = "attract"
        yield AttractWait
        shot("02-attract")
        app.go_home()
        yield 0.2
        shot("03-home")
        app.set_language("pl")
        yield 0.2
        shot("04-home-pl")
        app.set_language("en")
        app.open_staff()
        app.pin.keypad.entered = "12"
        yield 0.2
        shot("06-staff-pin")
        app.pin._enter("99")
        yield 0.1
        shot("07-staff-pin-wrong")
        services.devices.set_status("reader", False, "no serial device at /dev/ttyUSB0")
        app.manager.current = "staff"
        app.staff.open_page("hardware")
        yield 0.2
        shot("08-staff-hardware-badge")
        app.staff.open_page("tags")
        services.devices.start_enrolment(list(range(1, 57)))
        services.devices.scan(1, None)
        services.devices.scan(2, None)
        yield 0.2
        shot("09-staff-tags")
        app.staff.open_page("stickers")
        services.devices.start_writing(17)
        services.devices.scan(1, None)  # a blank sticker: now tile 17
        yield 0.2
        shot("09-staff-stickers")
        services.devices.cancel_writing()
        app.staff.open_page("settings")
        yield 0.1
        shot("10-staff-settings")
        app.staff.open_page("language")
        yield 0.1
        shot("11-staff-language")
        services.settings.web_address = "http://192.168.1.20:8080/"
        app.staff.open_page("system")
        yield 0.1
        shot("11-staff-system")
        from ui.qr import TakeHome

        qr = TakeHome(services.settings.web_address, caption="Scan with your phone to watch this table.")
        app.staff.add_widget(qr)
        yield 0.2
        shot("11-staff-spectators-qr")
        app.staff.remove_widget(qr)
        services.devices.set_status("reader", True)
        for players, orientation in ((2, "flat"), (4, "flat"), (3, "upright")):
            screen, table, hands = _table(app, players, orientation)
            yield 0.6
            shot(f"12-table-{players}-{orientation}")
        # a refused drop, explained to the player who made it, facing them
        screen, table, hands = _table(app, 4, "flat")
        yield 0.6
        board = table.board.board
        hand = hands[2]
        bad = next((t, c) for t in hand.tiles for c in board.frontier() if not board.fits(t, c))
        result = table.board.drop(table.board.window_cell_centre(bad[1]), bad[0], 0)
        hand.dispatch("on_refused", result)
        yield 0.2
        shot("13-table-refused")
        # dragging with a finger: the space under the lifted tile shows whether it fits
        from kivy.tests.common import UnitTestTouch

        table.board.highlight(())
        hand = hands[0]
        legal = next(p for p in board.legal_placements(hand.tiles) if not board.is_forced(p.cell))
        hand.rotations[legal.tile] = legal.rot
        sx, sy = hand.to_window(*hand.slot_centre(hand.tiles.index(legal.tile)))
        x, y = table.board.window_cell_centre(legal.cell)
        finger = UnitTestTouch(sx, sy)
        finger.touch_down()
        for i in range(1, 9):
            finger.touch_move(sx + (x - sx) * i / 8, sy + (y - hand.tile_radius() * 1.3 - sy) * i / 8)
        yield 0.1
        shot("14-table-dragging")
        finger.touch_up()
        yield 0.7
        shot("15-table-placed")
        app.simulated_panel and app.toggle_simulated_panel()
        from ui.services import Cue

        services.devices.cue(Cue(turn=1, colours=("R", "Y", "G", "B")))
        app.go_home()
        yield 0.2
        shot("16-home-simulated-devices")
        app.simulated_panel and app.toggle_simulated_panel()

    AttractWait = 6.5
    run_steps(app, steps(), first=0.3)
    return {"files": written, "problems": problems}


def until(done: Any, seconds: float = 15.0) -> Iterator[float]:
    """Wait (a tenth of a second at a time) until ``done()``: a loaded machine draws slowly."""
    for _ in range(int(seconds * 10)):
        if done():
            return
        yield 0.1


def mode_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
    """The mode screens: setup, how to play, play, results of Gobble solo, Gobbles and Tanagra (the
strategy game's are :func:`strategy_shots`)."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import Options
    from ui.modes.gobble import common as gc, solo as gobble_solo
    from ui.modes.tanagra import play as tanagra
    from ui.modes import family

    # ---- Gobble solo
    services.store.add_score("gobble-solo", "2025-11-01", 49)
    services.store.add_score("gobble-solo", "2025-11-02", 56)
    app.open_family(family("gobble-solo"))
    yield 0.2
    shot("20-gobble-solo-setup")
    gobble_solo.show_howto(app)
    yield 5.0
    shot("21-gobble-solo-howto")
    order = [p.tile for p in (*gc.OPENING, *gc.BUILD)] + [gc.NOWHERE, gc.GOBBLE.tile, 11, 12, 13]
    screen = gobble_solo.start(app, order=order)
    for p in (*gc.OPENING, *gc.BUILD):
        screen.rules.place(p)
        screen.after_step()
    yield 0.6
    screen.press_action()  # tile 6 fits nowhere: discarded
    yield 0.3
    refusal = screen.table.board.drop(screen.table.board.window_cell_centre(gc.ONE_NEIGHBOUR.cell), gc.GOBBLE.tile, 0)
    screen.hand.dispatch("on_refused", refusal)
    yield 0.3
    shot("22-gobble-solo-refused")
    screen.rules.place(gc.GOBBLE)
    screen.after_step()
    yield 0.6
    shot("23-gobble-solo-reward")
    screen.game.apply(gobble_solo.ReturnDiscard())
    while not screen.game.finished:
        options = screen.game.legal_actions()
        screen.game.apply(options[0])
    screen.after_step()
    yield from until(lambda: app.manager.current == "gobble-solo-results")
    yield 0.3
    shot("24-gobble-solo-results")
    yield from gobbles_shots(app, services, shot)
    # ---- Tanagra
    app.open_family(family("tanagra"))
    yield 0.1
    setup = app.manager.current_screen
    setup.set_players(3)
    yield 0.2
    shot("40-tanagra-setup-3")
    tanagra.show_howto(app)
    yield 8.4
    shot("41-tanagra-howto")
    game = Game(Options(players=2, x=4), ["person", "person"])
    for action in game.legal_actions()[:1]:
        game.apply(action)
    for _ in range(5):
        game.apply(game.legal_actions()[len(game.legal_actions()) // 2])
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    yield 0.3
    spot = screen.state.placements()[3]
    screen.hover(spot)
    yield 0.2
    shot("42-tanagra-build")
    game = Game(tanagra.HOWTO_OPTIONS, ["person", "robot:beginner"], start=tanagra.howto_position())
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    screen.tap(tanagra.HOWTO_JUMP.origin)
    yield 0.3
    shot("43-tanagra-move")
    screen.tap((5, 5, -9))  # no triangle there: refused
    yield 0.1
    shot("44-tanagra-refused")
    screen.tap(tanagra.HOWTO_EMPTY.origin)
    screen.tap(tanagra.HOWTO_EMPTY.target)
    yield from until(lambda: screen.game.pending_change is not None)
    screen.toggle_relocating()
    yield 0.2
    shot("45-tanagra-change")
    game = Game(Options(players=4, x=4), ["person", "robot:expert", "person", "robot:beginner"])
    while len(game.actions) < 12:
        game.apply(game.legal_actions()[len(game.actions) * 7 % len(game.legal_actions())])
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    yield 0.3
    shot("46-tanagra-4-players")
    screen.leave()
    start = tanagra.howto_position()  # yellow keeps one big pawn: black takes it and wins
    for cell, pawn in list(start.pawns.items()):
        if pawn.owner == 1 and pawn.size == "big" and cell != tanagra.HOWTO_TAKE.target:
            del start.pawns[cell]
    screen = tanagra.TanagraScreen(app, Game(tanagra.HOWTO_OPTIONS, ["person", "robot:beginner"], start=start))
    app.show(screen)
    screen.tap(tanagra.HOWTO_TAKE.origin)
    screen.tap(tanagra.HOWTO_TAKE.target)
    yield from until(lambda: app.manager.current == "tanagra-results")
    app.manager.current_screen.replay_bar.go("back")
    yield 0.2
    shot("47-tanagra-results")
    services.settings.orientation = "upright"
    app.open_family(family("tanagra"))
    yield 0.1
    app.manager.current_screen.set_players(4)
    yield 0.2
    shot("48-tanagra-setup-upright")
    app.open_family(family("gobbles"))
    yield 0.1
    app.manager.current_screen.set_players(6)
    yield 0.2
    shot("49-gobbles-setup-upright-6")
    services.settings.orientation = "flat"


def gobbles_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
    """Gobbles: setup, how to play, 2 and 6 players (people and robots alternating), a lost race,
the gift card, the news of a player out, the zoom controls, the results' replay."""
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import common as gc, gobbles
    from ui.modes import family

    app.open_family(family("gobbles"))
    yield 0.1
    setup = app.manager.current_screen
    setup.set_players(4)
    setup.set_seat(2, "expert")
    yield 0.2
    shot("30-gobbles-setup-4")
    gobbles.show_howto(app)
    yield 9.0
    shot("31-gobbles-howto")
    game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.EXPERT)], seed=3)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    yield 0.6
    shot("32-gobbles-2-players-27-tiles")
    players = [Player("Player 1"), Player("Player 2"), Player("Robot 3", Level.CASUAL), Player("Player 4"),
               Player("Robot 5", Level.BEGINNER)]
    hands = [[36, 37, 16, 56, 3, 9, 10], [40, 2, 18, 8, 51, 52, 53], [20, 21, 22, 23, 24, 25, 26],
             [27, 28, 29, 30, 31, 32, 33], [34, 35, 38, 39, 41, 42, 43]]
    game = Gobbles(players, gc.OPENING, hands)
    clock = ManualClock()
    screen = gobbles.GobblesScreen(app, game, clock=clock, robot_seed=1)
    app.show(screen)
    yield 0.5
    for seat, p in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2]), (0, gc.BUILD[3]), (0, gc.RACE[0])):
        screen.table.claim(seat, p)
    screen.refresh()
    refusal = screen.layout.board.drop(screen.layout.board.window_cell_centre(gc.RACE[1].cell), gc.RACE[1].tile,
                                       gc.RACE[1].rot, screen.hands[1], screen.hands[1].target)
    screen.hands[1].dispatch("on_refused", refusal)
    yield 0.4
    shot("33-gobbles-5-players-taken")
    screen.table.claim(0, gc.GOBBLE)
    screen.refresh()
    clock.advance(3000)
    yield from until(lambda: 0 in screen.gifts and screen.gifts[0].clock.text.startswith("7"))
    yield 0.3
    shot("34-gobbles-gift")
    game = Gobbles(players[:2], gc.OPENING, [[36, 37], [40, 2]], play_on=False)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    for seat, p in ((0, gc.BUILD[0]), (1, gc.BUILD[1]), (1, gc.BUILD[2])):
        screen.table.claim(seat, p)
    screen.refresh()
    yield 0.3
    shot("35-gobbles-news")
    yield from until(lambda: app.manager.current == "gobbles-results")
    yield 0.3
    shot("35-gobbles-results")
    bar = app.manager.current_screen.replay_bar
    bar.step = 1
    bar.refresh()
    yield 0.3
    shot("35-gobbles-results-step")
    people = [Player(f"Player {i + 1}") if i % 2 == 0 else Player(f"Robot {i + 1}", Level.EXPERT) for i in range(6)]
    screen = gobbles.GobblesScreen(app, Gobbles.deal(people, seed=3), clock=ManualClock())
    app.show(screen)
    yield 0.6
    shot("36-gobbles-6-players")
    from kivy.tests.common import UnitTestTouch
    for seat in (0, 2, 4):  # each person touches a tile of their hand: the news goes at their seat
        hand = screen.hands[seat]
        touch = UnitTestTouch(*hand.to_window(*hand.slot_centre(0)))
        touch.touch_down()
        touch.touch_up()
    yield 0.3
    shot("36-gobbles-6-players-read")
    game = Gobbles.deal([Player("Player 1"), Player("Robot 2", Level.EXPERT)], seed=3)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    for _ in range(60):  # the robot's moves, then the person's, until the board outgrows the table
        if len(game.board) >= 36 or game.finished:
            break
        for seat in (1, 0):
            options = game.legal_placements(seat)
            if options and seat not in game.pending:
                screen.table.claim(seat, options[len(options) // 2])
            if seat in game.pending:
                gift = game.suggest_gift(seat)
                screen.table.give(seat, gift.to, gift.tiles)
    screen.refresh()
    yield 1.0
    shot("37-gobbles-big-board")


def solo_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
    """Learn, Puzzles and Solitaire: the path, the list, puzzles mid-way, a hint, the colour choice,
    a pyramid, the Great Pyramid, Solitaire (both rules), a celebration, the how-to animations."""
    from engine.board import Placement as P
    from engine.solo.solitaire import Solitaire
    from ui.modes.solo import solitaire, four as solo_four, puzzle as solo_puzzle, rotation as solo_rotation
    from ui.modes import family
    from ui.modes.solo.common import record_solved, record_time

    store = services.store
    for name in ("discovery-3", "discovery-4", "discovery-5", "rainbow-green", "junior", "rotation-4"):
        record_solved(store, name)
        record_time(store, name, 75)
    app.open_family(family("learn"))
    yield 0.3
    shot("50-learn-path")
    app.manager.current_screen.select(1)
    yield 0.2
    shot("51-learn-rainbow")
    app.manager.current_screen.select(3)
    yield 0.2
    shot("51b-learn-game")
    app.open_family(family("puzzles"))
    yield 0.3
    shot("52-puzzles-list")
    screen = solo_puzzle.open_puzzle(app, "discovery-6")
    for p in (P(1, 0, 0, 0), P(3, 0, 1, 0), P(2, 1, 0, 2)):
        screen.play.apply(p)
    screen.after_step()
    screen.tray.rotations[5] = 2
    yield 0.6
    shot("53-discovery-midway")
    screen._hinted(screen.play.hint(), False)
    yield 0.3
    shot("54-discovery-hint")
    screen = solo_puzzle.open_puzzle(app, "professor")
    yield 0.5
    shot("55-professor-colour-choice")
    screen.choice_card.dismiss()
    screen.choose(("Y", "B"))
    screen.ask_hint()
    yield 0.4
    shot("56-hint-thinking")
    screen.worker.cancel()
    yield from until(lambda: not screen.worker.busy)
    screen = solo_puzzle.open_puzzle(app, "rainbow-red")
    solution = screen.play.hint().solution
    for p in solution[:9]:
        screen.play.apply(p)
    screen.after_step()
    yield 0.6
    shot("57-rainbow-red-pyramid")
    screen = solo_rotation.open_rotation(app, 9, seed=3)
    yield 0.6
    shot("58-great-pyramid")
    screen.ask_hint()
    yield from until(lambda: not screen.worker.busy)
    yield 0.2
    shot("59-great-pyramid-hint")
    app.open_family(family("solitaire"))
    yield 0.3
    shot("60-solitaire-setup")
    screen = solitaire.start(app, "classic", "line", seed=6)
    game = screen.game
    for p in solitaire.HOWTO_BUILD:  # seed 6 draws 11, 7, 3, then 4, which fits the forced space
        game.apply(p)
    screen.after_step()
    yield 0.6
    shot("61-solitaire-classic-forced")
    screen.board.drop(screen.board.window_cell_centre(solitaire.HOWTO_ELSEWHERE.cell), 4, solitaire.HOWTO_ELSEWHERE.rot)
    screen.hand.dispatch("on_refused", screen.board.drop(
        screen.board.window_cell_centre(solitaire.HOWTO_ELSEWHERE.cell), 4, solitaire.HOWTO_ELSEWHERE.rot))
    yield 0.3
    shot("62-solitaire-refused")
    screen = solitaire.start(app, "hand", "loop", seed=2)
    for _ in range(6):
        screen.game.apply(screen.game.legal_actions()[len(screen.game.legal_actions()) // 2])
    screen.after_step()
    yield 0.6
    shot("63-solitaire-hand")
    screen = solo_puzzle.open_puzzle(app, "discovery-3")
    yield 0.3
    for p in (solo_puzzle.HOWTO_FIRST, solo_puzzle.HOWTO_TURNED, solo_puzzle.HOWTO_LAST):
        screen.play.apply(p)
    screen.after_step()
    yield 0.8
    shot("64-discovery-solved")
    game = Solitaire.start("classic", "line", seed=6)
    while not game.finished:
        game.apply(game.legal_actions()[0])
    screen = solitaire.SolitaireScreen(app, game)
    app.show(screen)
    yield from until(lambda: app.manager.current == "solitaire-results")
    yield 0.3
    shot("65-solitaire-results")
    solo_puzzle.show_howto(app, then=app.go_home)
    yield 6.0
    shot("66-puzzle-howto")
    solo_rotation.show_howto(app, then=app.go_home)
    yield 7.0
    shot("67-rotation-howto")
    solitaire.show_howto(app, then=app.go_home)
    yield 8.0
    shot("68-solitaire-howto")
    yield from four_shots(app, shot)
    app.set_language("pl")  # the longest words of the four languages
    app.open_family(family("learn"))
    yield 0.3
    shot("69-learn-path-pl")
    app.open_family(family("puzzles"))
    yield 0.3
    shot("70-puzzles-list-pl")
    screen = solo_puzzle.open_puzzle(app, "genius-b")
    for p in screen.play.hint().solution[:5]:
        screen.play.apply(p)
    screen.after_step()
    yield 0.6
    shot("71-genius-pl")
    solo_four.open_four(app, "loops")
    yield 0.5
    shot("76-four-loops-pl")
    app.set_language("en")
    app.go_home()


def four_shots(app: Any, shot: Any) -> Iterator[float]:
    """Four lines: the arrangement half built, the last tile placed (a new best), the table's best,
    the how to play."""
    from engine.four import best_known
    from engine.modes import Refused
    from ui.modes.solo import four as solo_four

    screen = solo_four.open_four(app, "lines")
    four = screen.four
    best = best_known("lines")[1].placements()

    def lay(count: int) -> None:
        """Tiles of the best arrangement, each once it touches those already down."""
        while len(four.board) < count:
            for p in best:
                if four.board.cell_of(p.tile) is None and len(four.board) < count:
                    try:
                        four.place(p.tile, p.cell, p.rot)
                    except Refused:
                        pass

    lay(24)
    screen.after_step()
    screen.turn_page(1)
    yield 0.8
    shot("72-four-lines-midway")
    lay(56)
    screen.after_step()
    yield 0.8
    shot("73-four-lines-complete")
    screen.show_best()
    yield 0.5
    shot("74-four-lines-best-known")
    solo_four.show_howto(app, "loops", then=app.go_home)
    yield 5.0
    shot("75-four-loops-howto")


def _strategy_game(players: int, moves: int, seed: int, **options: Any) -> Any:
    """A strategy game ``moves`` placements in, played by club robots, then handed to people."""
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import robot_move

    game = StrategyGame.new(players, "RYGB"[: 2 if options.get("doubles") else players], ["club"] * players,
                            seed=seed, **options)
    while len(game.board) < moves and not game.finished and game.bag_count > 0:
        robot_move(game)
    for seat in range(players):
        game.set_robot(seat, None)
    return game


def strategy_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
    """Tantrix, the strategy game: setup (Doubles too), how to play, the table flat with 2, 3 and 4
    players and upright, a refused drop, a forced fill, the review, the endgame, the real bag, a
    robot taking a seat over, the results with the winning line, and the replay."""
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import robot_move
    from ui.modes.strategy import clock as strategy_clock, play as strategy_play, setup as tantrix
    from ui.modes.strategy.results import show_results
    from ui.hexes import centre
    from ui.services import TileScanned

    def open_game(game: Any) -> Any:
        screen = strategy_play.open_game(app, game)
        screen.robot_pause = 30.0  # robots wait: the picture is of the people's turn
        return screen

    app.open_family("tantrix")
    yield 0.2
    shot("50-tantrix-setup")
    app.manager.current_screen.count.choose("doubles")
    app.manager.current_screen.set_seat(3, "expert")
    yield 0.2
    shot("51-tantrix-setup-doubles")
    howto = tantrix.show_howto(app)
    yield from until(lambda: howto.index >= 4)
    yield 1.2
    shot("52-tantrix-howto-forced")
    yield from until(lambda: howto.index >= 6, 30.0)
    yield 3.0
    shot("53-tantrix-howto-loop")
    for players, orientation in ((2, "flat"), (3, "flat"), (4, "flat"), (2, "upright"), (4, "upright")):
        services.settings.orientation = orientation
        game = _strategy_game(players, 14 + 3 * players, seed=players)
        strategy_clock.set_clocks(app, game, 15)  # these tables play with clocks (the others without)
        open_game(game)
        yield 0.8
        shot(f"54-tantrix-{players}-{orientation}")
    # Doubles: partners opposite share a colour, a person and a robot in each team
    for orientation in ("flat", "upright"):
        services.settings.orientation = orientation
        game = _strategy_game(4, 26, seed=13, doubles=True)
        game.set_robot(2, "club")
        open_game(game)
        yield 0.8
        shot(f"54d-tantrix-doubles-{orientation}")
    services.settings.orientation = "flat"
    # a refused drop (the golden rule), explained facing the player, its cells outlined
    game = _strategy_game(2, 20, seed=4)
    screen = open_game(game)
    yield 0.6
    seat, board = game.turn, game.board
    hand = screen.hands[seat]
    bad = next((t, c) for t in game.hands[seat] for c in board.frontier()
               if not board.fits(t, c) and not board.is_forced(c))
    refusal = screen.board.drop(screen.board.window_cell_centre(bad[1]), bad[0], 0, hand, hand.target)
    hand.dispatch("on_refused", refusal)
    yield 0.3
    shot("55-tantrix-refused")
    # the first refusal, beside the one tile on the table, on the player's side of it: the view
    # slides so that the message hides neither the space refused nor its clashing edge
    game = _strategy_game(2, 1, seed=2)
    screen = open_game(game)
    yield 0.6
    seat, board = game.turn, game.board
    hand, (ux, uy) = screen.hands[seat], screen.layout.boxes[seat].up()
    tile, cell = min(((t, c) for t in game.hands[seat] for c in board.frontier() if not board.fits(t, c)),
                     key=lambda tc: sum(a * b for a, b in zip(centre(tc[1], 1.0), (ux, uy))))
    refusal = screen.board.drop(screen.board.window_cell_centre(cell), tile, 0, hand, hand.target)
    hand.dispatch("on_refused", refusal)
    yield 0.6
    shot("55b-tantrix-first-refusal")
    # a forced fill: the space in orange, the tiles that fit outlined; elsewhere is refused
    game = next(g for g in (_strategy_game(2, n, seed=5) for n in range(16, 40)) if g.obligatory())
    screen = open_game(game)
    yield 0.6
    seat, board = game.turn, game.board
    hand = screen.hands[seat]
    fill = game.obligatory()[0]
    elsewhere = next(c for c in board.frontier() if not board.is_forced(c) and board.fits(fill.tile, c))
    refusal = screen.board.drop(screen.board.window_cell_centre(elsewhere), fill.tile, 0, hand, hand.target)
    hand.dispatch("on_refused", refusal)
    yield 0.3
    shot("56-tantrix-forced-fill")
    forced = game.forced_cells()[0]
    screen.review(forced, screen.board.window_cell_centre(forced))
    yield 0.3
    shot("57-tantrix-review")
    # the endgame: the bag has just emptied
    game = _strategy_game(4, 30, seed=6)
    screen = open_game(game)
    yield 0.6
    while game.bag_count > 0 and not game.finished:
        game.place(game.legal()[0])
        screen.after_step()
    yield 0.4
    shot("58-tantrix-endgame")
    # the real bag: the player who placed a tile scans the one they drew
    game = StrategyGame.new(3, "RGB", [None, None, None], physical_bag=True, seed=7)
    tiles = iter(range(56, 0, -1))
    while game.awaiting_draw is not None:
        game.report_draw(next(tiles))
    screen = open_game(game)
    yield 0.5
    game.place(game.legal()[0])
    screen.after_step()
    app.post(TileScanned(game.board.placements()[0].tile, game.awaiting_draw))
    yield 0.4
    shot("59-tantrix-real-bag")
    yield from picker_shots(app, services, shot)
    # a placement waiting for Confirm (2 and 4 players, flat and upright), the spaces a lifted tile fits
    for players, orientation in ((2, "flat"), (4, "flat"), (2, "upright")):
        services.settings.orientation = orientation
        game = _strategy_game(players, 24, seed=10 + players)
        screen = open_game(game)
        yield 0.6
        seat = game.turn
        move = game.legal()[0]
        screen.put(seat, move)
        yield 0.5
        shot(f"64-tantrix-confirm-{players}-{orientation}")
        screen.take_back()
        screen.lifted(screen.hands[seat], game.legal()[-1].tile)
        yield 0.3
        shot(f"65-tantrix-lifted-{players}-{orientation}")
    services.settings.orientation = "flat"
    # late in a 2-player game at the smallest size fingers can use: the overview map shows it all
    game = _strategy_game(2, 48, seed=12)
    screen = open_game(game)
    yield 0.8
    shot("66-tantrix-late-overview")
    # four people, two forced spaces further apart than the table is wide: one lies whole on the
    # table, the other out of sight, marked on the overview map and by the cue at the table's edge
    from engine.strategy.game import FILL_STEPS

    game = StrategyGame.new(4, "RYGB", ["club"] * 4, seed=34)
    while len(game.board) < 30 or game.step not in FILL_STEPS or len(game.forced_cells()) != 2:
        robot_move(game)
    for seat in range(4):
        game.set_robot(seat, None)
    screen = open_game(game)
    yield 0.8
    shot("66b-tantrix-forced-out-of-sight")
    # a robot takes a seat over: the seat's card, facing that player
    game = _strategy_game(4, 16, seed=8)
    screen = open_game(game)
    yield 0.5
    screen.open_card(2)
    yield 0.2
    shot("60-tantrix-takeover")
    # the coach's card as "Hint" brings it: the master's suggestion and why, facing the player,
    # clear of the pale tile; in English and in Polish (the longest)
    from ui.i18n import i18n

    game = _strategy_game(2, 20, seed=6)
    screen = open_game(game)
    yield 0.4
    for language, name in (("en", "60b-tantrix-coach"), ("pl", "60c-tantrix-coach-pl")):
        i18n.language = language  # the card fits its sentence in the language it opens in
        screen.ask_coach()
        yield from until(lambda: screen.advice is not None, 60)
        yield 0.4
        shot(name)
        screen.close_coach()
    i18n.language = "en"
    # at a 4-player table the card faces the player who asked and covers no other hand
    for players, orientation in ((4, "flat"), (3, "flat"), (4, "upright")):
        services.settings.orientation = orientation
        screen = open_game(_strategy_game(players, 20, seed=6))
        yield 0.4
        screen.ask_coach()
        yield from until(lambda: screen.advice is not None, 60)
        yield 0.4
        shot(f"60d-tantrix-coach-{players}-{orientation}")
        screen.close_coach()
    services.settings.orientation = "flat"
    # results: the winning line lit; then the replay a few steps before the end
    game = StrategyGame.new(2, "RY", ["club", "beginner"], seed=9)
    while not game.finished:
        robot_move(game)
    game.set_robot(0, None)
    app.journal(game)
    results = show_results(app, game, again=lambda: None)
    yield 0.6
    shot("61-tantrix-results")
    for _ in range(6):
        results.replay_bar.go("back")
    yield 0.3
    shot("62-tantrix-replay")
    # Doubles results: each team once, its two partners' seats lit; four people playing like a club
    # robot, until Ana leaves and a robot plays her seat on
    from engine.strategy.robots import make_robot

    game = StrategyGame.new(4, "RY", [None] * 4, doubles=True, seed=9)
    club = make_robot("club")
    while not game.finished:
        if len(game.board) >= 40 and game.seats[0].robot is None:
            game.set_robot(0, "beginner")
        robot_move(game, club)
    app.journal(game)
    results = show_results(app, game, again=lambda: None, names=("Ana", None, "Bartłomiej", None))
    yield 0.6
    shot("61d-tantrix-results-doubles")
    bar = results.replay_bar
    bar.go("back")
    while bar.replay.moves[bar.step - 1][0] != 2:  # a step of Bartłomiej's (the longest name): whose tile it was
        bar.go("back")
    yield 0.3
    shot("62d-tantrix-replay-doubles")
    bar.go("last")
    while bar.replay.moves[bar.step - 1][0] != 0:  # the robot's step on Ana's seat, after she left
        bar.go("back")
    yield 0.3
    shot("62e-tantrix-replay-takeover")
    services.store.clear_current()
    services.settings.orientation = "upright"
    app.open_family("tantrix")
    yield 0.1
    app.manager.current_screen.set_players(4)
    yield 0.2
    shot("63-tantrix-setup-upright")
    app.manager.current_screen.count.choose("doubles")
    yield 0.2
    shot("63d-tantrix-setup-upright-doubles")
    services.settings.orientation = "flat"
    app.go_home()


def picker_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
    """The real bag without a reader: the tiles still in the bag, to pick by touch, facing the
    player who draws; at the bottom seat with a tile chosen, at a side seat after a tag the table
    does not know (turned a quarter), on its second page, and with the screen upright."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play
    from ui.services import UnknownTag

    game = StrategyGame.new(3, "RGB", [None, None, None], physical_bag=True, seed=7)
    tiles = iter(range(56, 0, -1))
    while game.awaiting_draw is not None:
        game.report_draw(next(tiles))
    screen = strategy_play.open_game(app, game)
    yield 0.5
    game.place(game.legal()[0])
    screen.after_step()
    yield 0.3
    screen.open_picker()
    yield 0.2
    assert screen.picker is not None
    screen.picker.choose(screen.picker.shown[3])
    yield 0.3
    shot("59b-tantrix-picker")
    game = StrategyGame.new(4, "RYGB", [None, None, None, None], physical_bag=True, seed=8)
    game.report_draw(30)
    screen = strategy_play.open_game(app, game)
    yield 0.5
    app.post(UnknownTag("04A1B2C3D4", game.awaiting_draw))
    yield 0.3
    shot("59c-tantrix-picker-side-unknown-tag")
    assert screen.picker is not None
    screen.picker.show_page(1)
    yield 0.2
    shot("59d-tantrix-picker-side-page-2")
    services.settings.orientation = "upright"
    game = StrategyGame.new(2, "RY", [None, None], physical_bag=True, seed=9)
    screen = strategy_play.open_game(app, game)
    yield 0.5
    screen.open_picker()
    yield 0.3
    shot("59e-tantrix-picker-upright")
    services.settings.orientation = "flat"


def _finished_game(players: int, seed: int) -> Any:
    """A strategy game played to its end by beginner robots, then seated by people."""
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import robot_move

    game = StrategyGame.new(players, "RYGB"[:players], ["beginner"] * players, seed=seed)
    while not game.finished:
        robot_move(game)
    return game


def frames(seconds: float) -> Iterator[float]:
    """Wait ``seconds`` a tenth at a time: the clock wakes each time, so an animation (a board
    re-fitting) runs to its end before the next shot."""
    for _ in range(round(seconds * 10)):
        yield 0.1


def ending_shots(app: Any, services: Any, shot: Any) -> Iterator[float]:
    """The strategy game's endings: the winning line traced (2 players; 4 players with a loop; a
    draw), another colour's line picked, and the review: the first step, a forced fill, auto-play;
    last, the staff statistics (after them, as the records they add stay in the store)."""
    from ui.modes.strategy.results import show_results

    results = show_results(app, _finished_game(2, 2), again=lambda: None)
    yield 0.9
    shot("80-tantrix-ending-2")
    results.rows[1].dispatch("on_release")
    yield from frames(0.9)
    shot("81-tantrix-ending-2-other-line")
    bar = results.replay_bar
    bar.go("first")
    bar.go("next")
    yield from frames(0.8)
    shot("82-tantrix-review-step-1")
    forced = next(i for i, (_seat, _p, f) in enumerate(bar.replay.moves) if f and i > 12)
    bar.step = forced + 1
    yield from frames(0.8)
    shot("83-tantrix-review-forced")
    bar.faster()
    bar.faster()  # normal -> fast -> slow
    bar.go("play")
    yield from until(lambda: bar.step >= 4, 30.0)
    yield from frames(0.6)
    shot("84-tantrix-review-playing")
    bar.playing = False
    show_results(app, _finished_game(4, 5), again=lambda: None)
    yield 0.9
    shot("85-tantrix-ending-4-loop")
    show_results(app, _finished_game(2, 6), again=lambda: None)
    yield 0.9
    shot("86-tantrix-ending-draw")
    for kind, robots in (("strategy", {"club": "won"}), ("strategy", {"expert": "lost"}), ("solitaire", {}),
                         ("gobbles", {"beginner": "lost"})):  # last: these records stay in the store
        services.store.add_record(kind, {"robots": robots})
    app.manager.current = "staff"
    app.staff.open_page("statistics")
    yield 0.3
    shot("90-staff-statistics")
    app.go_home()


class _BoardRules:
    """Screenshot-only placement target: engine.board.Board's own rules."""

    def __init__(self, board: Any) -> None:
        self.board = board

    def check(self, placement: Any) -> Any:
        return self.board.check(placement)

    def place(self, placement: Any) -> None:
        refusal = self.check(placement)
        if refusal is not None:
            raise refusal
        self.board.push(placement)


def _table(app: Any, players: int, orientation: str) -> tuple[Any, Any, list[Any]]:
    from kivy.uix.screenmanager import Screen

    from engine.strategy.playout import playout
    from ui.board import HandView
    from ui.table import TableLayout

    rng = random.Random(11)
    board = playout(rng, stop_after=22)
    board.bag = 56 - len(board) - 6 * players
    rest = [t for t in range(1, 57) if t not in board.placed_tiles()]
    rng.shuffle(rest)
    screen = Screen(name="table")
    table = TableLayout(orientation=orientation)
    table.board.target = _BoardRules(board)
    table.board.show(board)
    hands = [HandView(tiles=rest[6 * i: 6 * i + 6]) for i in range(players)]
    hands[0].rotations[hands[0].tiles[1]] = 2
    for hand, colour in zip(hands, "RYGB"):
        hand.colour = colour
    table.seat(hands)
    table.bag = board.bag
    table.refresh_hints()
    for hand in hands[1:]:
        hand.active = False
    screen.add_widget(table)
    app.show(screen)
    return screen, table, hands


def matrix(out: Path) -> int:
    """The whole matrix of ``test_ui_fit`` (which audits a sample of it), as pictures and problems."""
    sys.path.insert(0, str(ROOT / "tests"))
    import test_ui_fit
    from ui_harness import run_scenario

    os.environ["FIT_SHOTS"] = str(out)
    problems: dict[str, list[str]] = {}
    for size, rotation in test_ui_fit.PANELS:
        os.environ["FIT_SPEC"] = json.dumps({"rotation": rotation, "turn": -1})
        problems.update(run_scenario("test_ui_fit", "scenario_survey", size=size, timeout=3600, rotation=rotation,
                                     settings={"idle_seconds": 1e6}))
    print(json.dumps({"pictures": len(list(out.glob("*.png"))), "problems": problems}, indent=1))
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1280x800,800x480")
    parser.add_argument("--out", default=str(ROOT / "screenshots"))
    parser.add_argument("--only", choices=GROUPS, help="render one group of shots")
    parser.add_argument("--matrix", action="store_true",
                        help="every screen (tests/ui_matrix.py) in every language at every supported panel and "
                             "turn, each picture audited (ui.audit): the problems are printed")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.matrix:
        return matrix(out)
    if args.child:
        width, height = (int(v) for v in args.child.split("x"))
        print("SHOTS " + json.dumps(child((width, height), out, args.only)), file=sys.__stdout__)
        return 0
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1", KIVY_CLIPBOARD="sdl2", PYTHONPATH=str(ROOT))
    files: list[str] = []
    problems: dict[str, list[str]] = {}
    for size in args.sizes.split(","):
        only = ["--only", args.only] if args.only else []
        done = subprocess.run([sys.executable, __file__, "--child", size, "--out", str(out), *only], env=env,
                              capture_output=True, text=True, timeout=300)
        lines = [line for line in done.stdout.splitlines() if line.startswith("SHOTS ")]
        if done.returncode != 0 or not lines:
            print(done.stderr[-4000:], file=sys.stderr)
            return 1
        shots = json.loads(lines[-1][6:])
        files += shots["files"]
        problems.update(shots["problems"])
    print(json.dumps({"screenshots": files, "problems": problems}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
