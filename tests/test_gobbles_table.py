"""Gobbles in real time (engine.gobble.table, engine.gobble.robots): concurrent claims, robots on
a clock the test controls, the kiosk's gift timeout, and whole robot games that replay."""

from __future__ import annotations

import json
import random
import statistics
import threading

import pytest

from engine.board import Board, Placement
from engine.cli import main
from engine.gobble import pace, rules
from engine.gobble.gobbles import Gobbles, Level, Player
from engine.gobble.robots import STYLES, GobbleRobot
from engine.gobble.rules import Gobble
from engine.gobble.table import GobblesTable, ManualClock
from engine.modes import Refused, restore, save
from gobble_scenarios import board_of, scenario
from test_gobbles import play_quiet, race


def contested() -> tuple[tuple[Placement, ...], Placement, Placement, list[int]]:
    """An opening pair and two different tiles that both fit the same two-neighbour space."""
    s = scenario(3)
    board = board_of(s.placements[:2])
    for p in rules.legal_placements(board, s.unused):
        rival = next((q for q in rules.legal_placements(board, s.unused) if q.cell == p.cell and q.tile != p.tile), None)
        if rival is not None:
            return s.placements[:2], p, rival, [t for t in s.unused if t not in (p.tile, rival.tile)]
    raise AssertionError("no contested space")


def test_two_threads_claiming_one_space_exactly_one_wins_the_other_hears_taken():
    start, mine, theirs, spare = contested()
    for _ in range(20):
        game = Gobbles(["Ann", "Bob"], start, [[mine.tile, spare[0]], [theirs.tile, spare[1]]])
        table = GobblesTable(game, ManualClock())
        barrier = threading.Barrier(2)
        results: dict[int, object] = {}

        def claim(player: int, p: Placement) -> None:
            barrier.wait()
            try:
                results[player] = table.claim(player, p)
            except Refused as exc:
                results[player] = exc

        threads = [threading.Thread(target=claim, args=a) for a in ((0, mine), (1, theirs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        refused = [r for r in results.values() if isinstance(r, Refused)]
        won = [p for p, r in results.items() if not isinstance(r, Refused)]
        assert len(won) == 1 and len(refused) == 1 and refused[0].rule == "taken"
        assert [e["seq"] for e in game.events] == [1, 2]
        assert game.events[0]["player"] == won[0] and game.events[0]["result"] == "placed"
        assert game.events[1]["result"] == "taken" and len(game.board) == 3
        assert Gobbles.from_json(game.to_json()).to_json() == game.to_json()


def robot_table(level: Level, seed: int = 3) -> tuple[GobblesTable, ManualClock]:
    clock = ManualClock()
    game = Gobbles.deal([Player("Ann"), Player("Bot", level)], seed=seed)
    return GobblesTable(game, clock, seed=seed), clock


@pytest.mark.parametrize("level", list(Level))
def test_robots_act_when_the_look_they_planned_is_due(level):
    table, clock = robot_table(level)
    planner = GobbleRobot(1, level, random.Random(random.Random(3).getrandbits(64)))  # the table's robot, twin
    first = planner.reaction_ms(table.game.copy())
    clock.advance(first - 1)
    assert table.tick() == []
    for _ in range(240):  # a simulated minute, ticked every 250 ms
        clock.advance(250)
        for event in table.tick():
            assert event["player"] == 1 and event["at"] <= table.now_ms()
    times = [e["at"] for e in table.game.events if "claim" in e]
    assert times and times[0] >= first and (times[0] == first or not planner.seen)
    assert all(b - a >= 100 for a, b in zip(times, times[1:]))


def test_search_time_follows_the_table():
    """One comparison for a marked tile; longer searches when fewer pairs fit; a fruitless search
    gives up after ``patience`` comparisons."""
    style = STYLES[Level.CASUAL].pace
    rng = random.Random(5)
    assert pace.search(style, pace.Sight(300, 10, 2), rng).found
    marked = statistics.median(pace.search(style, pace.Sight(300, 10, 2), rng).ms for _ in range(200))
    many = statistics.mean(pace.search(style, pace.Sight(300, 60, 0), rng).ms for _ in range(400))
    few = statistics.mean(pace.search(style, pace.Sight(300, 6, 0), rng).ms for _ in range(400))
    assert 0.8 * style.compare_ms < marked < 1.25 * style.compare_ms
    assert many < few
    none = [pace.search(style, pace.Sight(300, 0, 0), rng) for _ in range(50)]
    assert not any(s.found for s in none)
    assert 0.7 * style.patience * style.compare_ms < statistics.mean(s.ms for s in none) < 1.5 * style.patience * style.compare_ms


def test_levels_are_paced_slowest_to_fastest_and_beginners_overlook_more():
    game = Gobbles.deal(["Ann", "Bob"], seed=4)
    for _ in range(6):  # a table with some tiles down
        game.claim(0, game.legal_placements(0)[0], game.now_ms + 1)
    plans: dict[Level, list[int]] = {}
    seen: dict[Level, float] = {}
    for level in Level:
        robot = GobbleRobot(1, level, random.Random(9))
        plans[level] = [robot.reaction_ms(game) for _ in range(300)]
        hard = pace.Sight(pairs=400, fits=8, marked=0)  # few fits among many pairs
        seen[level] = sum(pace.search(STYLES[level].pace, hard, robot.rng).found for _ in range(300)) / 300
    means = {level: statistics.mean(times) for level, times in plans.items()}
    assert means[Level.BEGINNER] > means[Level.CASUAL] > means[Level.EXPERT]
    assert seen[Level.BEGINNER] < seen[Level.EXPERT]
    robot = GobbleRobot(1, Level.EXPERT, random.Random(2))
    robot.seen = False
    assert robot.look(game) is None  # a search that found nothing places nothing


def test_the_expert_goes_for_the_biggest_gobble():
    game, quiet, fill, extras = race(4)
    play_quiet(game, quiet)
    game.hands[1].append(fill.tile)  # seat 1 now holds the double-gobble tile (a test-only deal)
    game.hands[0].remove(fill.tile)
    expert = GobbleRobot(1, Level.EXPERT, random.Random(1))
    expert.seen = True
    choice = expert.look(game)
    assert rules.gobble_of(game.board, choice.cell) is Gobble.DOUBLE
    options = game.legal_placements(1)
    assert any(rules.gobble_of(game.board, p.cell) is Gobble.NONE for p in options)
    beginner = GobbleRobot(1, Level.BEGINNER, random.Random(1))
    beginner.seen = True
    picks = {rules.gobble_of(game.board, p.cell) for p in (beginner.look(game) for _ in range(60)) if p}
    assert Gobble.NONE in picks  # a beginner does not hunt gobbles


def test_a_robot_gives_its_gobble_tiles_at_once():
    clock = ManualClock()
    game = Gobbles.deal([Player(f"R{i}", Level.EXPERT) for i in range(4)], seed=12)
    table = GobblesTable(game, clock, seed=5)
    while not game.finished and not any(e.get("gobble") for e in game.events):
        clock.advance(500)
        table.tick()
    gobble = next(i for i, e in enumerate(game.events) if e.get("gobble"))
    gift = game.events[gobble + 1]
    assert gift["gift"]["to"] != gift["player"] == game.events[gobble]["player"]
    assert gift["at"] == game.events[gobble]["at"] and gift["auto"] is False
    assert 1 <= len(gift["gift"]["tiles"]) <= game.events[gobble]["gobble"]


def test_a_person_who_does_not_choose_in_time_gives_the_default_gift():
    game, quiet, fill, extras = race(3)
    clock = ManualClock()
    table = GobblesTable(game, clock, gift_timeout_ms=8000)
    for p in quiet + [fill]:
        clock.advance(300)
        table.claim(0, p)
    deadline = table.gift_deadline(0)
    assert deadline == table.now_ms() + 8000
    expected = game.suggest_gift(0)
    clock.advance(7999)
    assert table.tick() == [] and 0 in game.pending
    clock.advance(1)
    (event,) = table.tick()
    assert event["gift"] == {"to": expected.to, "tiles": list(expected.tiles)} and event["auto"] is True
    assert event["at"] == deadline and table.gift_deadline(0) is None
    with pytest.raises(Refused) as refused:
        table.give(0, 1, [extras[1]])
    assert refused.value.rule == "no-gift"


def test_a_person_can_choose_the_gift_through_the_table():
    game, quiet, fill, extras = race(4)
    clock = ManualClock()
    table = GobblesTable(game, clock)
    for p in quiet + [fill]:
        clock.advance(200)
        table.claim(0, p)
    table.give(0, 2, extras)
    assert set(extras) <= set(game.hands[2]) and not game.pending


def robot_game(seed: int) -> Gobbles:
    clock = ManualClock()
    levels = [Level.EXPERT, Level.CASUAL, Level.BEGINNER, Level.EXPERT]
    game = Gobbles.deal([Player(f"R{i}", lv) for i, lv in enumerate(levels)], seed=seed)
    table = GobblesTable(game, clock, seed=seed)
    for _ in range(20_000):
        if game.finished:
            break
        clock.advance(250)
        table.tick()
    assert game.finished
    return game


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_robot_games_end_and_their_records_replay(seed):
    game = robot_game(seed)
    record = json.loads(json.dumps(save(game)))
    again = restore(record)
    assert again.to_json() == game.to_json() == record["state"]
    assert again.standings() == game.standings() and again.ending == game.ending
    placed = [e for e in game.events if e.get("result") == "placed"]
    assert len(game.board) == 2 + len(placed)
    assert sum(len(h) for h in game.hands) == 13 * 4 - len(placed)
    assert [e["seq"] for e in game.events] == list(range(1, len(game.events) + 1))
    assert all(a["at"] <= b["at"] for a, b in zip(game.events, game.events[1:]))
    rebuilt = Board()
    for p in game.board.placements():
        assert rules.refusal(rebuilt, p) is None
        rebuilt.push(p)


def test_a_restored_table_continues_the_clock():
    table, clock = robot_table(Level.CASUAL, seed=6)
    clock.advance(30_000)
    table.tick()
    game = restore(save(table.game))
    later = ManualClock(1000.0)
    again = GobblesTable(game, later, seed=1)
    assert again.now_ms() == game.now_ms > 0
    later.advance(500)
    assert again.now_ms() == game.now_ms + 500
    snap = again.snapshot()
    assert snap.to_json() == game.to_json() and snap is not game


def test_the_cli_replays_a_record(tmp_path, capsys):
    game = robot_game(3)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(save(game)))
    assert main(["gobbles-replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ending"] == str(game.ending) and out["tiles_placed"] == len(game.board)
    assert [s["player"] for s in out["standings"]] == [s.player for s in game.standings()]
    forged = game.to_json()
    forged["standings"][0]["place"] = 9
    path.write_text(json.dumps(forged))
    assert main(["gobbles-replay", str(path)]) == 2
    assert "replay gives" in capsys.readouterr().err
