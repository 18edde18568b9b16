"""Screens already on show when staff switch the language: each family's words follow at once, as
if the screen had been opened in that language, none left in the one before.

Staff switch it on their web page (the kiosk applies it within a second: firmware.settings'
``on_language``) or in their menu opened over the screen (:func:`by_menu`); the screen stays. Each
scenario opens its screens in English, switches to Polish (the longest words) and compares what
each shows with what it shows opened anew in Polish (:func:`follow`).
"""

from __future__ import annotations

import re

from ui_harness import labels, run_scenario, settled_screens, tap, until

CLOCK = re.compile(r"\d:\d\d")
"""A running clock's words, which may tick between two openings."""


def shown(app):
    return {text for text in labels(app.root, shown=True) if not CLOCK.search(text)}


def by_web(app, language):
    """As the kiosk applies a language staff chose on their web page: at once, whatever is shown."""
    from ui.i18n import i18n

    app.services.settings.set_language(language)
    i18n.language = language
    yield 0.3


def by_menu(app, language):
    """As staff switch at the table: the staff corner held (their PIN), the menu's Language page,
    their language's button, Close: back to the screen that was showing."""
    from ui.i18n import LANGUAGE_NAMES
    from ui.widgets import TButton

    back = app.manager.current
    app.open_staff()
    yield from settled_screens()
    for key in ("1", "2", "3", "4", "OK"):
        yield from tap(next(w for w in app.pin.keypad.children if getattr(w, "msg", None) == key))
    assert app.manager.current == "staff"
    yield from tap(app.staff.nav["language"])
    yield from tap(next(w for w in app.staff.content.walk()
                        if isinstance(w, TButton) and w.text == LANGUAGE_NAMES[language]))
    yield from tap(next(w for w in app.staff.nav_column.walk() if getattr(w, "msg", None) == "Close"))
    yield until(lambda: app.manager.current == back)
    yield from settled_screens()
    yield 0.3


def follow(app, openers, switch, language="pl"):
    """Each ``(name, open)`` opened in English (``open(app)`` a generator, as a scenario's steps),
    the language switched by ``switch`` while it shows, then opened anew in ``language``:
    ``{name: {"stale": words shown after the switch that the screen opened anew does not show,
    "switched": words shown after the switch}}``."""
    from ui.i18n import i18n

    found = {}
    for name, open_screen in openers:
        i18n.language = "en"
        yield from open_screen(app)
        yield 0.3
        yield from switch(app, language)
        switched = shown(app)
        yield from open_screen(app)
        yield 0.3
        found[name] = {"stale": sorted(switched - shown(app)), "switched": sorted(switched)}
    i18n.language = "en"
    return found


def words_of(found, name):
    return " ".join(found[name]["switched"])


def opened(opener, waits_for=None):
    """A ``ui_matrix`` opener (or any ``open(app)``) as a scenario's steps, waiting for the screen
    named ``waits_for`` where the screen opens later (a game's results after its last move)."""
    def steps(app):
        opener(app)
        if waits_for is not None:
            yield until(lambda: app.manager.current == waits_for)
        yield from settled_screens()

    return steps


def pl(message):
    from ui.i18n import i18n

    return i18n.catalogue("pl").gettext(message)


# ---------------------------------------------------------------------------- the results


def _gobbles_ended(app):
    from engine.gobble.gobbles import Gobbles, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import common as gc, gobbles

    game = Gobbles([Player("Player 1"), Player("Player 2")], gc.OPENING, [[36], [40]], play_on=False)
    screen = gobbles.GobblesScreen(app, game, clock=ManualClock())
    app.show(screen)
    game.claim(0, gc.BUILD[0], 0)
    screen.refresh()


def _tanagra_ended(app):
    from test_ui_tanagra import open_one_take_from_the_end
    from ui.modes.tanagra import play as tanagra

    game, screen = open_one_take_from_the_end(app, ["person", "person"])
    game.apply(tanagra.HOWTO_TAKE)
    screen.refresh()


def _gobble_solo_ended(app):
    from ui.modes.gobble import solo

    screen = solo.start(app, seed=4)
    while not screen.game.finished:
        screen.game.apply(screen.game.legal_actions()[0])
    screen.after_step()


def _best_scores(services):
    """Best scores no game of the scenario beats: each opening's notes are the same."""
    from ui.modes.solo.solitaire import score_key

    for mode in ("gobble-solo", score_key("classic", "line")):
        for _ in range(3):
            services.store.add_score(mode, "2026-11-01", 999)


def scenario_results_follow_a_switch(app):
    """Every game's ending shows its title, who won and why, the standings (places, names, what
    each scored), the notes and the replay's caption in the language staff switch to over it."""
    from ui_matrix import _solitaire_results, _tantrix_results

    endings = [("tantrix", opened(_tantrix_results, "strategy-results")),
               ("gobbles", opened(_gobbles_ended, "gobbles-results")),
               ("tanagra", opened(_tanagra_ended, "tanagra-results")),
               ("gobble-solo", opened(_gobble_solo_ended, "gobble-solo-results")),
               ("solitaire", opened(_solitaire_results, "solitaire-results"))]
    found = yield from follow(app, endings, by_menu)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in endings}, found
    for name, _o in endings:
        words = words_of(found, name)
        assert "Game over" not in words and pl("Game over") in words, (name, words)
    tantrix = words_of(found, "tantrix")
    assert pl("1st") in found["tantrix"]["switched"] and "1st" not in found["tantrix"]["switched"]
    assert pl("Red") in tantrix and "Red placed a tile" not in tantrix and "points" not in tantrix, tantrix
    assert pl("Black") in words_of(found, "tanagra") and "pawns left" not in words_of(found, "tanagra")
    assert "tiles left" not in words_of(found, "gobbles") and "Best scores" not in words_of(found, "solitaire")
    # the replay's tag on a forced fill, and the game taken home, in the language switched to
    from ui.i18n import i18n
    from ui.qr import TakeHome

    yield from opened(_tantrix_results, "strategy-results")(app)
    results = app.manager.current_screen
    bar = results.replay_bar
    bar.step = next(i for i, (_seat, _placement, forced) in enumerate(bar.replay.moves) if forced) + 1
    yield 0.2
    assert bar.replay.step_mark._tag[0] == "Forced"
    yield from by_web(app, "fr")
    assert bar.replay.step_mark._tag[0] == i18n.catalogue("fr").gettext("Forced") != "Forced"
    yield from tap(results.take_home_button)
    code = next(w for w in results.children if isinstance(w, TakeHome)).code
    assert "?hl=fr#" in code.text, code.text
    return {name: len(seen["switched"]) for name, seen in found.items()}


scenario_results_follow_a_switch.prepare = _best_scores


def test_results_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_results_follow_a_switch", size=(800, 480), timeout=240)


# ------------------------------------------------------------------------------ the setups


def scenario_setups_follow_a_switch(app):
    """A game's setup: each seat named by its colour ("Red") or number ("Player 2"), and a solo
    game's start card saying its best scores ("No scores yet: be the first!"), in the language
    staff switch to over it."""
    from ui_matrix import SCREENS

    openers = dict(SCREENS)
    setups = [(name, opened(openers[name])) for name in ("setup-tantrix-4", "setup-gobbles-6", "setup-tanagra-4",
                                                         "setup-gobble-solo", "setup-solitaire")]
    found = yield from follow(app, setups, by_menu)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in setups}, found
    assert {"Red", "Blue"}.isdisjoint(found["setup-tantrix-4"]["switched"])
    assert {pl("Red"), pl("Blue")} <= set(found["setup-tantrix-4"]["switched"])
    assert "Player 6" not in found["setup-gobbles-6"]["switched"], found["setup-gobbles-6"]
    for solo in ("setup-gobble-solo", "setup-solitaire"):
        assert "No scores yet" not in words_of(found, solo) and pl("No scores yet: be the first!") in words_of(found, solo)
    return {name: len(seen["switched"]) for name, seen in found.items()}


def test_setups_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_setups_follow_a_switch", size=(800, 480), timeout=240)


# ------------------------------------------------------------------------------- the lists


def _learn_rainbow(app):
    """Learn, its second step's puzzles shown (one on a white button, in dark ink)."""
    app.open_family("learn").select(1)


def scenario_lists_follow_a_switch(app):
    """Learn's path (how many puzzles of each step are solved) and the puzzles' list (each entry's
    tiles and what to make) in the language staff switch to on their web page while the list shows."""
    from ui_matrix import SCREENS

    openers = dict(SCREENS)
    lists = [("learn", opened(openers["learn"])), ("learn-rainbow", opened(_learn_rainbow)),
             ("puzzles", opened(openers["puzzles"]))]
    found = yield from follow(app, lists, by_web)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in lists}, found
    assert "solved" not in words_of(found, "learn") and "of 28" not in words_of(found, "learn"), found["learn"]
    white = next(t for t in found["learn-rainbow"]["switched"] if t.startswith(pl("White tiles")))
    assert pl("a loop: which colour?") in white, white
    assert " tiles" not in words_of(found, "puzzles") and pl("two loops at once") in words_of(found, "puzzles")
    return {name: len(seen["switched"]) for name, seen in found.items()}


def test_lists_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_lists_follow_a_switch", size=(800, 480), timeout=240)


# ------------------------------------------------------------------------------ the ladder


def _bests(services):
    """A kiosk's players (ui_matrix), the first with solo bests of their own."""
    from ui_matrix import kiosk_services

    kiosk_services(services)
    first = services.players.all()[0].id
    for mode, score in (("gobble-solo", 40), ("solitaire:classic:line", 12), ("time:junior", -83)):
        services.players.add_best(first, mode, score)


def _a_players_bests(app):
    """The page of solo bests the ladder opens for its first player who has some."""
    from ui.screens.ladder import BestsScreen
    from ui_matrix import SCREENS

    dict(SCREENS)["ladder"](app)
    ladder = app.manager.current_screen
    app.show(BestsScreen(ladder.book, ladder.best_buttons[0].player, on_back=ladder.back))


def scenario_ladder_follows_a_switch(app):
    """The ladder (each player's games, their solo bests) and a player's page of solo bests (each
    game named) in the language staff switch to over them."""
    from ui_matrix import SCREENS

    pages = [("ladder", opened(dict(SCREENS)["ladder"])), ("bests", opened(_a_players_bests))]
    found = yield from follow(app, pages, by_menu)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in pages}, found
    assert {"1 game", "2 games"}.isdisjoint(found["ladder"]["switched"]), found["ladder"]
    assert pl("Solitaire") in words_of(found, "bests") and "One tile at a time" not in words_of(found, "bests")
    assert "solo bests" not in words_of(found, "ladder")
    return {name: len(seen["switched"]) for name, seen in found.items()}


scenario_ladder_follows_a_switch.prepare = _bests


def test_ladder_follows_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_ladder_follows_a_switch", size=(800, 480), timeout=240)


# ----------------------------------------------------------------------- the staff menu


def scenario_staff_pages_follow_a_switch(app):
    """The staff menu's pages whose words are composed (the devices' states, the enrolment, the
    statistics' sentences, headings and dates) in the language staff switch to on their web page
    while the menu shows one."""
    from ui_matrix import SCREENS

    openers = dict(SCREENS)
    pages = [(name, opened(openers[name])) for name in ("staff-hardware", "staff-tags", "staff-statistics")]
    found = yield from follow(app, pages, by_web)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in pages}, found
    assert "working" not in words_of(found, "staff-hardware") and pl("working") in words_of(found, "staff-hardware")
    assert "Enrolment teaches" not in words_of(found, "staff-tags")
    statistics = words_of(found, "staff-statistics")
    assert "games played in all" not in statistics and pl("Games per mode") in statistics, statistics
    return {name: len(seen["switched"]) for name, seen in found.items()}


def _kiosk(services):
    from ui_matrix import kiosk_services

    kiosk_services(services)


scenario_staff_pages_follow_a_switch.prepare = _kiosk


def test_staff_pages_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_staff_pages_follow_a_switch", size=(800, 480), timeout=240)


# ------------------------------------------------------------------------------- the coach


def scenario_coach_card_follows_a_switch(app):
    """The coach's card (its sentence naming colours: "Extends your yellow line") in the language
    staff switch to over the game, as tall as the sentence's lines are in it."""
    from ui_matrix import SCREENS

    openers = dict(SCREENS)
    games = [(name, opened(openers[name])) for name in ("tantrix-coach", "tantrix-coach-4")]
    found = yield from follow(app, games, by_menu)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in games}, found
    words = words_of(found, "tantrix-coach")
    assert "The master would play this" not in words and pl("The master would play this:") in words
    assert not {"red", "yellow", "green", "blue"} & set(re.findall(r"[a-z]+", words)), words
    yield from games[0][1](app)
    yield from by_menu(app, "fr")
    sentence = app.manager.current_screen.coach_card.children[0].sentence
    sentence.texture_update()
    assert sentence.texture_size[1] <= sentence.height + 1, (sentence.text, sentence.texture_size, sentence.height)
    return {name: len(seen["switched"]) for name, seen in found.items()}


def test_coach_card_follows_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_coach_card_follows_a_switch", size=(800, 480), timeout=240)


# --------------------------------------------------------------------------- how to play


def scenario_how_to_play_names_its_game_in_the_language(app):
    """A game's "how to play" names the game in the table's language, opened in it or switched to
    while it plays (the name was left in English: "Jak grać: Puzzles")."""
    from ui.modes.solo import puzzle, solitaire

    headings = {}
    for name, game, show in (("puzzles", "Puzzles", puzzle.show_howto), ("solitaire", "Solitaire", solitaire.show_howto)):
        expected = pl("How to play: {game}").format(game=pl(game))
        app.set_language("en")
        show(app, then=app.go_home)
        yield from settled_screens()
        assert f"How to play: {game}" in shown(app)
        yield from by_web(app, "pl")
        switched = shown(app)
        show(app, then=app.go_home)
        yield from settled_screens()
        yield 0.1
        headings[name] = [expected in switched, expected in shown(app)]
    app.set_language("en")
    assert headings == {"puzzles": [True, True], "solitaire": [True, True]}, headings
    return headings


def test_how_to_play_names_its_game_in_the_language():
    run_scenario("test_ui_language_switch", "scenario_how_to_play_names_its_game_in_the_language", size=(800, 480))


# ----------------------------------------------------------------------------- the evening


def _evening_with_a_robot(screen):
    """This table's tournament of five players and an expert robot (ui_matrix's book), shown by
    ``screen`` ("tournament" or "players")."""
    def open_screen(app):
        from ui.screens.tournament import TournamentPlayersScreen, TournamentScreen
        from ui.tournament_store import save
        from ui_matrix import _tournament

        players = tuple(p.id for p in app.services.players.all())[:5] + ("robot:expert",)
        save(app, _tournament(players, rounds=3))
        app.show(TournamentScreen(app, staff=True) if screen == "tournament" else TournamentPlayersScreen(app))

    return open_screen


def scenario_evening_follows_a_switch(app):
    """The club evening's pairings and standings (a robot named by its level) and who leaves or
    joins, and a question staff are asked there, in the language switched to on the web page."""
    pages = [("tournament", opened(_evening_with_a_robot("tournament"))),
             ("players", opened(_evening_with_a_robot("players")))]
    found = yield from follow(app, pages, by_web)
    assert {name: seen["stale"] for name, seen in found.items()} == {name: [] for name, _o in pages}, found
    robot = pl("Robot: {level}").format(level=pl("Expert"))
    assert robot in found["tournament"]["switched"] and robot in found["players"]["switched"], found
    yield from opened(_evening_with_a_robot("tournament"))(app)
    app.manager.current_screen.end()
    yield 0.2
    yield from by_web(app, "pl")
    assert pl("End the tournament? Its standings are not kept.") in shown(app)
    return {name: len(seen["switched"]) for name, seen in found.items()}


scenario_evening_follows_a_switch.prepare = _kiosk


def test_evening_follows_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_evening_follows_a_switch", size=(800, 480), timeout=240)


# ------------------------------------------------------------------------------ the players


def scenario_players_messages_follow_a_switch(app):
    """What the players' screens say (staff merging a player: which to tap; a name refused: why)
    in the language staff switch to on their web page while it shows."""
    from ui.screens.players import NewPlayerScreen
    from ui_matrix import SCREENS

    yield from opened(dict(SCREENS)["staff-players"])(app)
    staff = app.manager.current_screen
    ana = next(p for p in app.services.players.all() if p.name == "Ana")
    staff.start_merge(ana)
    yield from by_web(app, "pl")
    merging = pl("Tap the player {name} is the same person as.").format(name="Ana")
    said = {"merging": staff.message.text == merging}
    app.set_language("en")
    yield from opened(dict(SCREENS)["new-player"])(app)
    keyboard = app.manager.current_screen
    assert isinstance(keyboard, NewPlayerScreen)
    for char in "ANA":
        keyboard.type(char)
    keyboard.submit()
    assert keyboard.message.text == "Ana is already a player here: pick that name, or another one."
    yield from by_web(app, "pl")
    said["refused"] = keyboard.message.text == pl(
        "{name} is already a player here: pick that name, or another one.").format(name="Ana")
    app.set_language("en")
    assert said == {"merging": True, "refused": True}, (said, staff.message.text, keyboard.message.text)
    return said


scenario_players_messages_follow_a_switch.prepare = _kiosk


def test_players_messages_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_players_messages_follow_a_switch", size=(800, 480))


# ---------------------------------------------------------------------- the puzzles' cards


def _rotation_solved(app):
    """A pyramid of 3 rows, solved: its card (the time, the best, the ways on) under it."""
    from engine.solo.rotation import Turn
    from ui.modes.solo import rotation

    screen = rotation.open_rotation(app, 3, seed=3)
    puzzle = screen.puzzle
    for placement in puzzle.solution:
        steps = (placement.rot - puzzle.rotations[placement.tile]) % 6
        if steps:
            screen.turn(Turn(placement.tile, steps))
    assert screen.solved_card is not None


def scenario_puzzle_cards_follow_a_switch(app):
    """A puzzle's question (which colour to aim at) and a solved puzzle's card in the language
    staff switch to while they show."""
    from ui_matrix import _puzzle

    def junior_asks(app):
        yield from opened(_puzzle("junior"))(app)
        yield until(lambda: app.manager.current_screen.choice_card.parent is not None)

    found = yield from follow(app, [("junior", junior_asks)], by_web)
    assert found["junior"]["stale"] == [], found
    assert "Which colour?" not in found["junior"]["switched"] and pl("Which colour?") in found["junior"]["switched"]
    yield from opened(_rotation_solved)(app)
    yield from by_web(app, "pl")
    card = labels(app.manager.current_screen.solved_card)
    app.set_language("en")
    assert pl("Solved!") in card and pl("New pyramid") in card, card
    assert not [line for line in card if "Time" in line or "Best" in line], card
    return {"card": card}


def test_puzzle_cards_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_puzzle_cards_follow_a_switch", size=(800, 480))


# ---------------------------------------------------------------------------- the messages


def _shown_banners(screen):
    from ui.table import Banner

    return [w for w in screen.walk() if isinstance(w, Banner) and w.opacity > 0]


def scenario_messages_follow_a_switch(app):
    """The messages shown for a few seconds (a refused drop's rule facing its player, a forced
    space's note, the table's news at every seat, a solved pyramid's "Every edge matches") say
    themselves again in the language staff switch to on their web page while they show: they
    stayed in the one they were shown in. Each is checked as it was shown when the switch came."""
    from engine.strategy.game import StrategyGame
    from test_ui_tantrix import _forced_position, reach, slot
    from ui.i18n import _, i18n
    from ui.modes.strategy import play as strategy_play
    from ui.refusals import RULE_MESSAGES
    from ui.words import seat_name
    from ui_harness import drag

    app.set_language("en")
    game = _forced_position()
    screen = strategy_play.open_game(app, game)
    yield
    yield 0.5
    fill, board = game.obligatory()[0], game.board
    hand = screen.hands[0]
    elsewhere = next(c for c in board.frontier() if not board.is_forced(c) and board.fits(fill.tile, c))
    yield from drag(slot(hand, fill.tile), reach(hand, screen.board, elsewhere))
    forced = game.forced_cells()[0]
    if not screen.board.on_table(screen.board.window_cell_centre(forced)):
        screen.board.look_at(forced, animate=False)  # the player pans it into view
    yield from tap(screen.board.window_cell_centre(forced))
    review = next(r for r in game.review() if r.cell == forced)
    refused = _shown_banners(screen)
    assert [b.label.text for b in refused] == [_(RULE_MESSAGES["must-fill-forced"])], refused
    assert screen.bubble.text.startswith("Forced space"), screen.bubble.text
    yield from by_web(app, "pl")
    said = {"refused": refused[0].label.text, "note": screen.bubble.text}
    expected = {"refused": pl(RULE_MESSAGES["must-fill-forced"]),
                "note": i18n.catalogue("pl").ngettext(
                    "Forced space: {now} unseen tile fits it now, {later} in the endgame.",
                    "Forced space: {now} unseen tiles fit it now, {later} in the endgame.", len(review.fits_now)).format(
                    now=len(review.fits_now), later=len(review.fits_endgame))}
    # a new game: who starts is the table's news, at every seat, and told to the starter
    app.set_language("en")
    game = StrategyGame.new(2, "RY", [None, None], seed=3)
    screen = strategy_play.open_game(app, game)
    yield until(lambda: screen.layout.news != "")
    assert "drew the highest number" in screen.layout.news, screen.layout.news
    yield from by_web(app, "pl")
    said["news"] = screen.layout.news
    said["starter"] = [b.label.text for b in _shown_banners(screen)]
    expected["news"] = _("{name} drew the highest number and starts.", name=seat_name(game, game.starter))
    expected["starter"] = [expected["news"]]
    app.set_language("en")
    yield from opened(_rotation_solved)(app)
    yield 0.2
    pyramid = app.manager.current_screen
    assert [b.label.text for b in _shown_banners(pyramid)] == ["Every edge matches: well done!"]
    yield from by_web(app, "pl")
    said["pyramid"] = pyramid.banner.label.text
    expected["pyramid"] = pl("Every edge matches: well done!")
    label = pyramid.banner.label
    label.texture_update()
    app.set_language("en")
    assert said == expected, (said, expected)
    assert label.texture_size[1] <= label.height + 1, (label.text, label.texture_size, label.size)  # laid out anew
    return said


def test_messages_follow_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_messages_follow_a_switch", size=(800, 480))


# ------------------------------------------------------------------------- Tanagra's line


def scenario_tanagra_refusal_follows_a_switch(app):
    """Tanagra's message line (a refusal, kept until the next action) says it again in the language
    staff switch to on their web page while it shows: it stayed in the one it was shown in, the
    rest of the panel switched. Each refusal is checked, the plain rule and one worded from the
    pawns of the position it was refused in."""
    from engine.tanagra.game import Game
    from engine.tanagra.rules import Move
    from test_ui_tanagra import _window_point
    from ui.modes.tanagra import play as tanagra

    app.set_language("en")
    game = Game(tanagra.HOWTO_OPTIONS, ["person", "person"], start=tanagra.howto_position())
    screen = tanagra.TanagraScreen(app, game)
    app.show(screen)
    yield from settled_screens()
    yield from tap(_window_point(screen, (2, 2, -2)))  # yellow's pawn, black to play
    assert screen.message.text == tanagra.WORDS["not-your-pawn"], screen.message.text
    yield from by_web(app, "pl")
    said = {"rule": screen.message.text}
    app.set_language("en")
    origin = tanagra.HOWTO_TAKE.origin
    yield from tap(_window_point(screen, origin))
    small_yellow = next(c for c, p in game.state.pawns.items() if p.owner == 1 and p.size == "small"
                        and (refused := game.check(Move(origin, c))) is not None and refused.rule == "cannot-take")
    yield from tap(_window_point(screen, small_yellow))
    assert screen.message.text == "A big black pawn takes only big yellow pawns.", screen.message.text
    yield from by_web(app, "pl")
    said["pawns"] = screen.message.text
    app.set_language("en")
    expected = {"rule": pl(tanagra.WORDS["not-your-pawn"]), "pawns": pl("A big black pawn takes only big yellow pawns.")}
    assert "" not in expected.values() and expected["rule"] != tanagra.WORDS["not-your-pawn"]
    assert said == expected, (said, expected)
    return said


def test_tanagra_refusal_follows_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_tanagra_refusal_follows_a_switch", size=(800, 480))



# ------------------------------------------------------------------------- the bag's badge


def scenario_bag_badge_follows_a_switch(app):
    """The strategy game's bag badge, the bag empty, as wide as its words in the language staff
    switch to, as if the game had been opened in it: the switch laid it out on its words before
    they changed ("Bag empty"), and the Polish "Woreczek pusty" overran its backing."""
    from engine.strategy.game import Phase, StrategyGame
    from ui import theme
    from ui.modes.strategy import play as strategy_play

    def empty_bag():
        game = StrategyGame.new(2, "RY", [None, None], seed=3)
        while game.bag_count:
            game.place(game.legal()[0])
        assert game.phase is Phase.PLAY
        return game

    def badge(screen):
        bag = screen.bag_label
        bag.texture_update()
        return bag.text, bag.texture_size[0], bag.width

    app.set_language("en")
    screen = strategy_play.open_game(app, empty_bag())
    yield until(lambda: screen.bag_label.text == "Bag empty")
    yield from settled_screens()
    yield from by_web(app, "pl")
    switched = badge(screen)
    screen = strategy_play.open_game(app, empty_bag())
    yield from settled_screens()
    yield 0.3
    anew = badge(screen)
    app.set_language("en")
    text, texture, width = switched
    assert text == pl("Bag empty") and texture + theme.unit() * 0.4 <= width + 1, switched  # nothing cut
    assert switched == anew, (switched, anew)
    return {"switched": switched}


def test_the_bag_badge_follows_a_language_switch():
    run_scenario("test_ui_language_switch", "scenario_bag_badge_follows_a_switch", size=(800, 480))
