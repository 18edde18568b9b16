"""The game-home code: the compact record round trip, the longest possible game in one QR code,
drawn by the kiosk at 800x480 and read back from the pixels by a QR decoder (zxing-cpp)."""

from __future__ import annotations

import os
import random

import pytest
from ui_harness import run_scenario

from engine.compact import Compact, decode, encode, of_record
from engine.strategy.game import StrategyGame
from engine.strategy.robots import robot_move


def _finished(**setup):
    game = StrategyGame.new(**setup)
    while not game.finished:
        robot_move(game)
    return game.record()


@pytest.mark.parametrize("setup", [dict(players=2, robots=["club", "beginner"], seed=4),
                                   dict(players=4, robots=["beginner"] * 4, doubles=True, colours="GB", seed=2)])
def test_a_finished_game_round_trips_through_its_code(setup):
    record = _finished(**setup)
    game = decode(encode(of_record(record)))
    assert game == of_record(record)
    assert [p[1:] for p in game.placements] == [(e["tile"], e["q"], e["r"], e["rot"]) for e in record["events"]
                                                 if "place" in e]
    assert game.scores == tuple(record["result"]["scores"][c] for c in game.colours)


def longest() -> Compact:
    """Every one of the 56 tiles placed, four players, the farthest cells and the extreme scores a
    code can hold."""
    rng = random.Random(5)
    cells = [(rng.randint(-64, 63), rng.randint(-64, 63)) for _ in range(56)]
    return Compact(4, False, tuple("RYGB"), (127, -128, 37, 0), 3,
                   tuple((i % 4, tile, q, r, i % 6) for i, (tile, (q, r)) in enumerate(zip(range(1, 57), cells))))


def test_the_longest_possible_game_fits_a_short_code():
    code = encode(longest())
    assert decode(code) == longest() and len(code) <= 250


def test_a_score_below_zero_round_trips():
    """Time penalties (engine.clock) take a score below 0: the code keeps it, not 0."""
    game = StrategyGame.new(3, robots=["beginner"] * 3, seed=1, end="first-out")
    for _ in range(30):
        game.time_penalty(0)
    while not game.finished:
        robot_move(game)
    record = game.record()
    assert record["result"]["scores"]["R"] < 0
    assert decode(encode(of_record(record))).scores == tuple(record["result"]["scores"][c] for c in "RYG")


def test_a_code_that_is_not_a_game_is_refused():
    for bad in ("", "!!!", encode(longest())[:20], "AAAA"):
        with pytest.raises(ValueError):
            decode(bad)


def scenario_qr_read_back(app):
    import numpy
    import zxingcpp
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.screenmanager import Screen
    from ui_harness import Pixels

    from ui.qr import QrCode, replay_address

    text = replay_address(encode(longest()), language="pl")  # the longest address: the table's language in it
    screen = Screen(name="qr-test")
    box = FloatLayout()
    qr = QrCode(text, size_hint=(None, None), size=(app.root.height * 0.6, app.root.height * 0.6),
                pos_hint={"center_x": 0.5, "center_y": 0.5})
    box.add_widget(qr)
    screen.add_widget(box)
    app.show(screen)
    yield 0.2
    pixels = Pixels(qr)
    image = numpy.frombuffer(pixels.data, dtype=numpy.uint8).reshape(pixels.height, pixels.width, 4)[:, :, :3].copy()
    found = zxingcpp.read_barcodes(image)
    return {"read": [r.text for r in found], "sent": text, "module_px": qr.module_px,
            "version": qr.qr.version}


def test_the_longest_games_qr_code_drawn_by_the_kiosk_reads_back():
    out = run_scenario("test_compact_qr", "scenario_qr_read_back", size=(800, 480))
    assert out["read"] == [out["sent"]]
    assert decode(out["read"][0].split("#", 1)[1]) == longest()
    assert out["module_px"] >= 3  # at 800x480: 3 px (about 0.6 mm) per module or more


def scenario_results_take_home(app):
    import numpy
    import zxingcpp
    from ui_harness import Pixels, tap

    from engine.strategy.robots import make_robot
    from ui.modes.strategy.results import show_results
    from ui.qr import TakeHome

    game = StrategyGame.new(3, robots=["club", "beginner", "club"], seed=6)
    robot = make_robot("beginner")
    while not game.finished:
        robot_move(game, robot)
    screen = show_results(app, game, again=None)
    yield 0.3
    assert screen.take_home_button.height >= 45
    yield from tap(screen.take_home_button)
    overlay = next(w for w in screen.children if isinstance(w, TakeHome))
    yield 0.2
    if os.environ.get("TANTRIX_SHOTS"):
        from kivy.core.window import Window

        app.root.export_to_png(os.path.join(os.environ["TANTRIX_SHOTS"], f"{Window.width}x{Window.height}-take-home.png"))
    pixels = Pixels(overlay.code)
    image = numpy.frombuffer(pixels.data, dtype=numpy.uint8).reshape(pixels.height, pixels.width, 4)[:, :, :3].copy()
    read = [r.text for r in zxingcpp.read_barcodes(image)]
    yield from tap((5, 5))  # a tap anywhere closes it
    assert overlay.parent is None
    yield from tap(screen.take_home_button)  # and its Close button, a finger wide
    overlay = next(w for w in screen.children if isinstance(w, TakeHome))
    yield 0.2
    assert overlay.close_button.height >= 45 and overlay.close_button.width >= 45
    yield from tap(overlay.close_button)
    assert overlay.parent is None
    return {"read": read, "record": game.record()}


def test_the_results_of_a_game_offer_its_code_to_take_home():
    out = run_scenario("test_compact_qr", "scenario_results_take_home", size=(800, 480),
                       settings={"replay_url": "http://club.example/replay.html"})
    assert len(out["read"]) == 1 and out["read"][0].startswith("http://club.example/replay.html#")  # [replay] url
    assert decode(out["read"][0].split("#", 1)[1]) == of_record(out["record"])
    # at a French table the address says so, for a phone that speaks none of the table's languages
    out = run_scenario("test_compact_qr", "scenario_results_take_home", size=(800, 480),
                       settings={"replay_url": "http://club.example/replay.html", "language": "fr"})
    assert len(out["read"]) == 1 and out["read"][0].startswith("http://club.example/replay.html?hl=fr#")
    assert decode(out["read"][0].split("#", 1)[1]) == of_record(out["record"])


def test_the_replay_address_names_the_tables_language_beside_any_query_of_its_own():
    from ui.qr import replay_address

    assert replay_address("CODE", "https://a.example/r/", "en") == "https://a.example/r/#CODE"
    assert replay_address("CODE", "https://a.example/r/", "pl") == "https://a.example/r/?hl=pl#CODE"
    assert replay_address("CODE", "https://a.example/r.html?club=x%20y&v=2", "nl") == \
        "https://a.example/r.html?club=x+y&v=2&hl=nl#CODE"
