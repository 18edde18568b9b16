"""The end of a strategy game at the kiosk, driven by simulated touches: the winning line traced on
the final position (the rest dimmed, a pulse running along it), each colour's best line on a tap of
its row, the review marking the tile of each step (a forced fill tagged as forced) on the board of
that step fitted to the stage, auto-play at a chosen speed reaching the end, and "Play again" after
a robot took seats over starting with the seats as set at setup."""

from __future__ import annotations

from ui_harness import Pixels, labels, near, run_scenario, tap, until
from engine.strategy.robots import robot_move


def _finished(players, seed):
    """A game played to its end by beginner robots (the seats stay theirs: the results name robots)."""
    from engine.strategy.game import StrategyGame

    game = StrategyGame.new(players, "RYGB"[:players], ["beginner"] * players, seed=seed)
    while not game.finished:
        robot_move(game)
    return game


def scenario_trace_and_review(app):
    """A 2-player ending: the winner's line traced, Yellow's picked, the review stepped by touch."""
    from ui import theme
    from ui.i18n import _
    from ui.modes.strategy.board import best_line
    from ui.modes.strategy.results import show_results
    from ui.words import colour_name

    game = _finished(2, 2)
    winner = game.result.winner
    loser = next(c for c in game.result.scores if c != winner)
    results = show_results(app, game, again=lambda: None)
    yield until(on_screen(app, "strategy-results"))
    marks, bar = results.marks, results.replay_bar
    view = bar.replay.view
    # the winner's line is traced on the final position, its row framed; the pulse runs along it
    assert marks.cells == set(best_line(game.board, winner).cells)
    assert [row.selected for row in results.rows] == [True, False]
    start = marks.progress
    yield until(lambda: abs(marks.progress - start) > 0.1)
    assert abs(marks.progress - start) > 0.1, "the pulse did not move"
    # the tiles off the line are dimmed to a third
    off = [p.cell for p in game.board.placements() if p.cell not in marks.cells]
    dimmed = _brightness(view, off)
    lines = marks.lines
    marks.show(())
    yield
    plain = _brightness(view, off)
    assert dimmed < plain * 0.45, (dimmed, plain)
    marks.show(lines)
    # tapping the other colour's row traces its best line instead
    yield from tap(results.rows[1])
    assert marks.cells == set(best_line(game.board, loser).cells)
    assert [row.selected for row in results.rows] == [False, True]
    assert marks.lines[0].colour == loser
    # the review: the start is empty, nothing traced, nothing marked
    yield from tap(bar.buttons["first"])
    assert bar.step == 0 and len(view.board) == 0 and not marks.cells and bar.replay.step_mark.cell is None
    assert bar.caption.text == _("The start")
    # step 1: the first tile marked, fitted large and centred on the stage
    yield from tap(bar.buttons["next"])
    first = game.board.placements()[0]
    assert bar.replay.step_mark.cell == first.cell and not bar.replay.step_mark.forced
    unit = theme.unit()
    yield until(lambda: view.size_px >= 1.7 * unit)
    assert view.size_px >= 1.7 * unit, view.size_px  # 82 px tiles at 800x480, not 35 px
    yield until(settled(view))  # the size is reached before the pan that centres the tile ends
    cx, cy = view.window_cell_centre(first.cell)
    sx, sy = view.to_window(*view.center)
    assert abs(cx - sx) < 2 and abs(cy - sy) < 2, ((cx, cy), (sx, sy))
    picture = Pixels(view)
    # the mark: a light ring just outside the tile's corners (the top corner), dark just outside it
    ring_y = cy + view.size_px * 1.02
    assert near(picture.at(cx, ring_y), theme.TEXT, 50), picture.at(cx, ring_y)
    assert sum(picture.at(cx, ring_y + view.size_px * 0.09)) < 150
    # later steps: the board of that step, re-fitted (smaller as it grows), each step's tile marked
    sizes = [view.size_px]
    for step in range(2, 9):
        yield from tap(bar.buttons["next"])
        yield until(settled(view))
        assert bar.step == step and len(view.board) == step
        assert bar.replay.step_mark.cell == game.board.placements()[step - 1].cell
        sizes.append(view.size_px)
        for p in view.board.placements():  # every tile of the step inside the stage
            x, y = view.window_cell_centre(p.cell)
            wx, wy = view.to_window(view.x, view.y)
            assert wx <= x <= wx + view.width and wy <= y <= wy + view.height
    assert sizes[-1] < sizes[0]
    # a forced fill is shown as forced: the caption says so and the mark is tagged
    forced = next(i for i, (_seat, _p, f) in enumerate(bar.replay.moves) if f and i >= bar.step)
    while bar.step < forced + 1:
        yield from tap(bar.buttons["next"])
    seat = bar.replay.moves[forced][0]
    assert bar.replay.step_mark.forced and bar.replay.step_mark.cell == bar.replay.moves[forced][1].cell
    robot = _("{name} (robot)", name=colour_name(game.seats[seat].colour))  # the robots' game: as the table named them
    assert bar.caption.text == _("{name} filled a forced space", name=robot)
    ordinary = next(i for i, (_seat, _p, f) in enumerate(bar.replay.moves) if not f and i > forced)
    while bar.step < ordinary + 1:
        yield from tap(bar.buttons["next"])
    assert not bar.replay.step_mark.forced
    return {"steps": bar.replay.steps, "sizes": sizes}


def on_screen(app, name):
    """A condition for ``until``: screen ``name`` is current and has finished sliding in (a tap
    lands where its buttons are drawn)."""
    return lambda: app.manager.current == name and not app.manager.transition.is_active


def settled(view):
    """A condition for ``until``: the view has not moved since the last poll (polls are clock
    events, so an animation has had a frame between two of them): its re-fit is over."""
    last = [None]

    def check():
        now = (view.size_px, tuple(view.origin))
        done, last[0] = now == last[0], now
        return done

    return check


def _brightness(view, cells):
    """The summed brightness of a few points over each of ``cells`` (their faces and links)."""
    import math

    picture = Pixels(view)
    total = 0
    for cell in cells:
        x, y = view.window_cell_centre(cell)
        for k in range(6):
            a = math.radians(30 + 60 * k)
            total += sum(picture.at(x + math.cos(a) * view.size_px * 0.55, y + math.sin(a) * view.size_px * 0.55))
    return total


def test_the_winning_line_is_traced_and_the_review_marks_and_fits_each_step():
    result = run_scenario("test_ui_tantrix_results", "scenario_trace_and_review", size=(800, 480))
    assert result["steps"] == 56


def scenario_lost_on_time(app):
    """The player ahead on points runs out of time ("loss on time"): the results list them last,
    below the winner the headline names, and a tap on a row still traces that row's colour."""
    from engine.strategy.game import StrategyGame
    from ui.i18n import _
    from ui.modes.strategy.board import best_line
    from ui.modes.strategy.results import show_results
    from ui.words import colour_name

    game = StrategyGame.new(3, "RYG", ["beginner"] * 3, seed=4)
    while len(game.board) < 20 or len(set(game.scores().values())) < 3:
        robot_move(game)
    scores = game.scores()
    leader = max(scores, key=scores.get)
    game.time_out(next(i for i, seat in enumerate(game.seats) if seat.colour == leader))
    winner = game.result.winner
    assert winner is not None and winner != leader
    results = show_results(app, game, again=lambda: None)
    yield until(on_screen(app, "strategy-results"))
    names = [row.name_label.text for row in results.rows]
    assert names[0] == colour_name(winner) and names[-1] == colour_name(leader), names
    assert [row.children[-1].text for row in results.rows] == ["1st", "2nd", "3rd"]  # the medals, in order
    assert _("{name} ran out of time and loses.", name=colour_name(leader)) in results.headline.text
    yield from tap(results.rows[-1])
    assert results.marks.cells == set(best_line(game.board, leader).cells)
    return {}


def test_a_player_out_of_time_is_last_on_the_results_whatever_their_score():
    run_scenario("test_ui_tantrix_results", "scenario_lost_on_time", size=(800, 480))


def scenario_results_after_a_long_watch(app):
    """Robots finish a game while the people watching touch nothing for longer than the idle time:
    the results still stay the whole idle time before the attract screen comes."""
    from kivy.clock import Clock

    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    idle = app.services.settings.idle_seconds
    game = StrategyGame.new(2, "RY", ["beginner"] * 2, seed=6)
    while len(game.board) < 55:
        robot_move(game)
    came: dict[str, float] = {}  # when each screen came, by the clock the idle time is counted on
    app.manager.bind(current=lambda _manager, name: came.setdefault(name, Clock.time()))
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = idle + 1.0, 0.1  # the last tile comes after the idle time
    # as each screen comes: frames as slow as emulation's would outlast a 2 s results screen between looks
    yield until(lambda: "strategy-results" in came, seconds=idle + 60)  # bounds for a broken step, not a speed
    yield until(lambda: "attract" in came, seconds=idle + 60)  # and after the idle time, the attract screen
    assert came["attract"] - came["strategy-results"] >= idle
    return {}


def test_the_results_of_a_game_robots_ended_stay_the_idle_time():
    run_scenario("test_ui_tantrix_results", "scenario_results_after_a_long_watch", size=(800, 480),
                 settings={"idle_seconds": 2.0})


def scenario_auto_play(app):
    """The review plays itself at the chosen speed to the end, and stops there; a step button
    pauses it."""
    from ui.modes.strategy.results import show_results
    from ui.results import SPEEDS

    game = _finished(4, 5)
    results = show_results(app, game, again=lambda: None)
    yield until(on_screen(app, "strategy-results"))
    bar = results.replay_bar
    steps = bar.replay.steps
    assert bar.buttons["play"].icon == "play"
    # the fastest speed, chosen by touch
    while SPEEDS[bar.speed][0] != "Fast":
        yield from tap(bar.speed_button)
    # play from the end starts at the beginning; a step button pauses
    shown = []
    bar.bind(step=lambda _bar, step: shown.append(step))
    yield from tap(bar.buttons["play"])
    assert bar.playing and shown[0] == 0 and bar.buttons["play"].icon == "pause"
    yield until(lambda: bar.step >= 2)
    yield from tap(bar.buttons["next"])
    paused_at = bar.step
    assert not bar.playing and bar.buttons["play"].icon == "play"
    yield 2 * SPEEDS[bar.speed][1]
    assert bar.step == paused_at
    # ten steps before the end, play again: every step is shown in turn, up to the end
    while bar.step < steps - 10:
        bar.go("next")  # (the same as tapping next, without 40 frames)
    shown.clear()
    yield from tap(bar.buttons["play"])
    assert bar.playing
    yield until(lambda: not bar.playing, seconds=30)
    assert shown == list(range(steps - 9, steps + 1)), shown
    assert bar.step == steps and bar.buttons["play"].icon == "play"
    assert results.marks.cells  # the end traces the winning line (a loop here) again
    assert results.marks.lines[0].loop
    assert any("Fast" == t or "Fast" in t for t in labels(bar))
    from ui import theme
    from ui.audit import smallest_size

    return {"shown": len(shown), "speed in": smallest_size(bar.speed_button), "legible": theme.min_text()}


def test_the_review_plays_itself_to_the_end_at_the_chosen_speed():
    result = run_scenario("test_ui_tantrix_results", "scenario_auto_play", size=(800, 480))
    assert result["shown"] == 10
    assert result["speed in"] >= result["legible"]  # "Fast" under "Speed" read at arm's length (it was 11 px)


def scenario_play_again_after_a_take_over(app):
    """Two people sit down; near the end robots take both seats over (each seat's card); the game
    ends; "Play again" seats two people again, as set at setup."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play

    game = StrategyGame.new(2, "RY", [None, None], seed=3)
    while len(game.board) < 48 and not game.finished:
        game.place(game.legal()[0])
    screen = strategy_play.open_game(app, game)
    screen.robot_pause, screen.flight_seconds = 0.05, 0.1
    yield 0.3
    for seat in (game.turn, 1 - game.turn):
        screen.open_card(seat)
        yield
        yield from tap(screen.card.choices.chip("beginner"))
    assert [s.robot for s in game.seats] == ["beginner", "beginner"]
    yield until(on_screen(app, "strategy-results"), seconds=40)
    results = app.manager.current_screen
    assert results.name == "strategy-results" and game.finished
    yield from tap(results.again_button)
    again = app.manager.current_screen
    assert isinstance(again, strategy_play.StrategyScreen) and again.game is not game
    assert [s.robot for s in again.game.seats] == [None, None]
    assert again.game.colours() == game.colours()
    again.leave()
    return {"events": sum(1 for e in game.record()["events"] if "robot" in e)}


def test_play_again_after_a_take_over_seats_the_setup_again():
    result = run_scenario("test_ui_tantrix_results", "scenario_play_again_after_a_take_over", size=(800, 480))
    assert result["events"] == 2


def _page_names(source, table):
    """A page script's table of colour names (``const TEAM_NAMES = { R: N_("Red team"), ... }``)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / source).read_text()
    line = re.search(rf"^const {table} = \{{.*\}};", text, re.MULTILINE)
    assert line is not None, f"{source}: no {table}"
    return dict(re.findall(r'(\w): N_\("([^"]+)"\)', line.group(0)))


def test_a_team_is_named_alike_by_the_seats_the_results_and_the_web_pages():
    """A Doubles team's name is decided once for the kiosk (``ui.words.team_name``): its seats'
    plates and messages, the results' rows and headline name it as the spectator, staff and
    replay pages do from their own catalogue (``web/static/words.js`` colourName, of the same
    messages: one per team, "Red team"), in every language; a 3-player game names its seats by
    colour alone, on the table as on the pages."""
    from engine.strategy.game import StrategyGame
    from ui.i18n import LANGUAGES, i18n
    from ui.modes.strategy.results import results_words
    from ui.words import COLOUR_NAMES, TEAM_NAMES, seat_name, team_name
    from web.words import said

    assert _page_names("web/static/words.js", "TEAM_NAMES") == _page_names("replay/index.html", "TEAMS") == TEAM_NAMES
    assert _page_names("web/static/words.js", "COLOUR_NAMES") == _page_names("replay/index.html", "NAMES") \
        == COLOUR_NAMES

    def web_name(language, colour, doubles):
        return said(language, (TEAM_NAMES if doubles else COLOUR_NAMES)[colour])

    for game in (StrategyGame.new(4, "RY", ["beginner"] * 4, doubles=True, seed=3),
                 StrategyGame.new(3, "RYG", ["beginner"] * 3, seed=3)):
        while not game.finished:
            robot_move(game)
        doubles = game.options.doubles
        try:
            for language in LANGUAGES:
                i18n.language = language
                pages = {colour: web_name(language, colour, doubles) for colour in game.result.scores}
                assert language != "en" or (pages["R"] == "Red team" if doubles else pages["R"] == "Red"), pages
                assert [seat_name(game, seat, robot_mark=False) for seat in range(len(game.seats))] \
                    == [pages[seat.colour] for seat in game.seats], language
                words = results_words(game)
                assert sorted(row.name for row in words.standings) == sorted(pages.values()), language
                assert {team_name(game, colour) for colour in pages} == set(pages.values()), language
                if game.result.winner is not None:
                    assert pages[game.result.winner] in words.headline, (language, words.headline)
        finally:
            i18n.language = "en"


def _four_players(services):
    """The firmware's players book on a SQLite file, with the four people of a Doubles evening."""
    import tempfile

    from firmware.players import Players
    from firmware.store import SqliteStore

    services.players = Players(SqliteStore(tempfile.mkdtemp(prefix="tantrix-doubles-")))
    for name, avatar in (("Ana", "sky:star"), ("Bartłomiej", "vermilion:triangle"), ("Cécile", "green:hexagon")):
        services.players.create(name, avatar)


def _doubles_of_named_people(app):
    """A Doubles game opened for :func:`_four_players`' people: Ana and Bartłomiej (Red) against
    Cécile and a guest (Yellow), partners opposite, as picked at setup."""
    from engine.strategy.game import StrategyGame
    from ui.modes.strategy import play as strategy_play
    from ui.seat_players import seat_again

    ids = {p.name: p.id for p in app.services.players.all()}
    game = StrategyGame.new(4, "RY", [None] * 4, doubles=True, seed=5)
    seat_again(app, game, [ids["Ana"], ids["Cécile"], ids["Bartłomiej"], None])  # partners opposite
    return game, strategy_play.open_game(app, game)


def scenario_the_doubles_replay_names_whose_tile_it_was(app):
    """Doubles, Ana and Bartłomiej (Red) against Cécile and a guest (Yellow), their names picked at
    setup: the replay said "Red team placed a tile" of both Ana's and Bartłomiej's tiles. Each step
    now names its player, "Ana placed a tile", in words read whole on the 7" panel; the guest's
    steps name the team; in the language switched to."""
    from kivy.core.text import Label as CoreLabel

    from engine.strategy.robots import make_robot
    from ui.i18n import _
    from ui.words import team_name

    game, screen = _doubles_of_named_people(app)
    yield until(lambda: app.manager.current == "strategy")
    robot = make_robot("beginner")
    while not game.finished:  # the four people play like beginners, straight through the engine
        robot_move(game, robot)
    screen.finish()
    yield until(on_screen(app, "strategy-results"))
    bar = app.manager.current_screen.replay_bar
    players = {0: "Ana", 1: "Cécile", 2: "Bartłomiej", 3: None}
    english = {0: "Ana", 1: "Cécile", 2: "Bartłomiej", 3: "Yellow team"}

    def expected(step):
        seat, _placement, forced = bar.replay.moves[step - 1]
        name = players[seat] or team_name(game, game.seats[seat].colour)
        return _("{name} filled a forced space" if forced else "{name} placed a tile", name=name)

    yield from tap(bar.buttons["first"])
    seen = set()
    for step in range(1, 13):
        yield from tap(bar.buttons["next"])
        seat = bar.replay.moves[step - 1][0]
        assert bar.caption.text == expected(step), (step, bar.caption.text)
        seen.add(seat)
        assert bar.caption.text.startswith(english[seat] + " "), (step, bar.caption.text)
    assert seen == {0, 1, 2, 3}
    # the longest caption (the longest name, a forced fill) in each language: read whole, never
    # cut short (it is shown again in the language switched to)
    longest = next(step for step in range(1, bar.replay.steps + 1) if bar.replay.moves[step - 1][0] == 2
                   and bar.replay.moves[step - 1][2])
    for language in ("en", "fr", "nl", "pl"):
        app.set_language(language)
        bar.step = longest
        yield 0.1
        caption = bar.caption
        assert caption.text == expected(longest), (language, caption.text)
        wide = CoreLabel(font_size=caption.font_size).get_extents(caption.text)[0]
        assert wide <= caption.width, (language, caption.text, wide, caption.width)
    app.set_language("en")
    return bar.replay.steps


scenario_the_doubles_replay_names_whose_tile_it_was.prepare = _four_players


def scenario_the_replay_names_a_robot_that_took_a_seat_over(app):
    """Doubles, Ana and Bartłomiej (Red) against Cécile and a guest (Yellow); midway Ana leaves and
    a robot plays her seat on. The replay named every Red tile from seat 0 "Ana", the robot's
    too. Now her steps before the takeover name her, and the robot's after it name it as the
    game did ("Red team (robot)", its plate's words), read whole on the 7" panel in every language."""
    from kivy.core.text import Label as CoreLabel

    from engine.strategy.robots import make_robot
    from ui.i18n import _
    from ui.words import seat_name

    game, screen = _doubles_of_named_people(app)
    yield until(lambda: app.manager.current == "strategy")
    robot = make_robot("beginner")
    while len(game.board) < 24:  # the four people play like beginners, straight through the engine
        robot_move(game, robot)
    taken = sum(1 for e in game.record()["events"] if "place" in e)  # Ana's steps: those before
    game.set_robot(0, "beginner")  # Ana leaves; a robot plays her seat on (its record event, as the seat's card does)
    live = seat_name(game, 0)
    assert live == "Red team (robot)"
    while not game.finished:
        robot_move(game, robot)
    screen.finish()
    yield until(on_screen(app, "strategy-results"))
    bar = app.manager.current_screen.replay_bar
    moves = bar.replay.moves
    before = [step for step in range(1, taken + 1) if moves[step - 1][0] == 0]
    after = [step for step in range(taken + 1, bar.replay.steps + 1) if moves[step - 1][0] == 0]
    assert before and after

    def caption(step, name):
        return _("{name} filled a forced space" if moves[step - 1][2] else "{name} placed a tile", name=name)

    for step in before[-2:] + after[:2]:
        bar.step = step
        yield 0.1
        assert bar.caption.text == caption(step, "Ana" if step <= taken else live), (step, bar.caption.text)
    partner = next(step for step in range(taken + 1, bar.replay.steps + 1) if moves[step - 1][0] == 2)
    bar.step = partner
    yield 0.1
    assert bar.caption.text == caption(partner, "Bartłomiej")  # his seat stayed his
    # the robot's longest caption (a forced fill where there is one) in each language: read whole
    longest = next((step for step in after if moves[step - 1][2]), after[0])
    for language in ("en", "fr", "nl", "pl"):
        app.set_language(language)
        bar.step = longest
        yield 0.1
        text = bar.caption.text
        assert text == caption(longest, seat_name(game, 0)), (language, text)
        wide = CoreLabel(font_size=bar.caption.font_size).get_extents(text)[0]
        assert wide <= bar.caption.width, (language, text, wide, bar.caption.width)
    app.set_language("en")
    return {"before": len(before), "after": len(after)}


scenario_the_replay_names_a_robot_that_took_a_seat_over.prepare = _four_players


def test_the_replay_names_the_robot_that_took_a_seat_over_not_the_person_who_left():
    seen = run_scenario("test_ui_tantrix_results", "scenario_the_replay_names_a_robot_that_took_a_seat_over",
                        size=(800, 480))
    assert seen["before"] > 0 and seen["after"] > 0


def test_the_doubles_replay_names_the_partner_whose_tile_it_was():
    assert run_scenario("test_ui_tantrix_results", "scenario_the_doubles_replay_names_whose_tile_it_was",
                        size=(800, 480)) == 56


def test_a_team_s_colour_agrees_with_the_word_for_team():
    """French and Polish colours agree with their feminine word for team: "Équipe verte",
    "Drużyna zielona", on the kiosk as on the pages. Composed of the colour's name ("Équipe
    {colour}" of "Vert"), a French Doubles game showed "Équipe Vert" and "Équipe Bleu"."""
    from engine.strategy.game import StrategyGame
    from ui.i18n import i18n
    from ui.words import TEAM_NAMES, team_name
    from web.words import said

    game = StrategyGame.new(4, "RY", ["beginner"] * 4, doubles=True, seed=3)
    expected = {"fr": ["Équipe rouge", "Équipe jaune", "Équipe verte", "Équipe bleue"],
                "pl": ["Drużyna czerwona", "Drużyna żółta", "Drużyna zielona", "Drużyna niebieska"]}
    try:
        for language, names in expected.items():
            i18n.language = language
            assert [team_name(game, colour) for colour in "RYGB"] == names, language
            assert [said(language, TEAM_NAMES[colour]) for colour in "RYGB"] == names, language
    finally:
        i18n.language = "en"
