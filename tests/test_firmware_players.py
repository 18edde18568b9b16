"""firmware.players: players in the kiosk's database, staff's rename/merge/delete/export, ratings
kept game by game equal to ratings recomputed from the stored games, and the migration of a
database written by the release before players existed."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.players import BadName
from engine.ratings import Outcome, Rating, rate_games
from firmware.players import Players, UnknownPlayer
from firmware.store import SCHEMA_VERSION, SqliteStore

RELEASE_DB = Path(__file__).parent / "data" / "kiosk-release-schema3.db"
"""Written by the release's firmware/store.py (schema 3): two robot games, a solitaire record, three
high scores, puzzle progress, a game in progress and a tile tag."""


@pytest.fixture
def store(tmp_path):
    with SqliteStore(tmp_path) as store:
        yield store


def test_a_database_of_the_release_gains_players_and_keeps_everything(tmp_path):
    shutil.copy(RELEASE_DB, tmp_path / "kiosk.db")
    with sqlite3.connect(tmp_path / "kiosk.db") as old:
        assert old.execute("PRAGMA user_version").fetchone()[0] == 3
    reports: list[str] = []
    with SqliteStore(tmp_path, report=reports.append) as store:
        assert reports == [] and not store.in_memory
        assert store.query("PRAGMA user_version") == [(SCHEMA_VERSION,)] and SCHEMA_VERSION == 7
        kinds = [kind for _, kind, _ in store.records()]
        assert kinds == ["solitaire", "tantrix", "tantrix"]
        assert store.records("tantrix")[0][2]["result"]["winner"] in ("R", "Y", "B", "G")
        assert store.high_scores("solitaire:tantrix:loops") == [("2026-11-20", 41), ("2026-11-21", 37)]
        assert store.high_scores("time:puzzle:7") == [("2026-11-22", -95)]
        assert store.progress("puzzles") == {"solved": [1, 2, 3]}
        assert store.load_current() == {"kind": "tantrix", "state": {"x": 1}}
        assert store.statistics()["games"] == {"tantrix": 2, "solitaire": 1}
        assert store.query("SELECT uid, tile FROM tile_tags") == [("04a1b2c3", 12)]
        players = Players(store)
        assert players.all() == [] and players.ladder() == []
        ana = players.create("Ana")
        players.record_game("tantrix", Outcome("g1", ((ana.id,), ("robot:club",)), (1, 2)))
    with SqliteStore(tmp_path) as again:  # and it all survives a restart
        assert Players(again).all() == [ana] and Players(again).rating(ana.id).mu > Rating().mu
        assert len(again.records()) == 3


def test_players_are_listed_newest_first_and_names_are_checked(store):
    players = Players(store)
    first = players.create("Zoë", "green:star")
    second = players.create("  Łucja   Ząb ", "blue:triangle")
    assert [p.name for p in players.all()] == ["Łucja Ząb", "Zoë"]
    assert players.get(first.id) == first and second.symbol == "triangle" and second.colour == (0, 114, 178)
    for name, rule, reason in [("", "empty", "at least one letter"), ("12", "empty", "at least one letter"),
                               ("A" * 17, "too-long", "at most 16"), ("Bob<script>", "characters", "cannot contain < >"),
                               ("zoë", "taken", "already a player")]:
        with pytest.raises(BadName, match=reason) as refused:
            players.create(name)
        assert refused.value.rule == rule
    with pytest.raises(ValueError, match="avatar 'pink:circle'"):
        players.create("Pat", "pink:circle")
    assert players.create("Ĳsbrand Çédric").name == "Ĳsbrand Çédric"  # Dutch and French letters


def test_ratings_kept_game_by_game_equal_those_recomputed_from_the_games(store):
    players = Players(store)
    ids = [players.create(name).id for name in ("Ana", "Bo", "Cy", "Di")]
    outcomes = [
        Outcome("g1", ((ids[0],), ("robot:beginner",)), (1, 2)),
        Outcome("g2", ((ids[0],), (ids[1],), ("guest:1",)), (2, 1, 3)),
        Outcome("g3", ((ids[0], ids[2]), (ids[1], ids[3])), (1, 2)),
        Outcome("g4", ((ids[3],), ("robot:expert",), (ids[2],), (ids[1],)), (1, 2, 2, 4)),
    ]
    for n, outcome in enumerate(outcomes):
        steps = players.record_game("tantrix", outcome, finished=1000.0 + n)
        assert {s.key for s in steps} == {k for side in outcome.sides for k in side if len(k) == 32}
    kept = {row.player.id: row.rating for row in players.ladder()}
    expected, _ = rate_games(outcomes)
    assert kept == expected.ratings
    recomputed = players.recompute()
    assert {row.player.id: row.rating for row in players.ladder()} == kept == recomputed.ratings
    assert [r.mu for r in players.history(ids[0])] == pytest.approx(
        [s.after.mu for s in rate_games(outcomes)[1] if s.key == ids[0]])
    assert [(r.game, r.place, r.sides) for r in players.results(ids[1])] == [("g4", 4, 4), ("g3", 2, 2), ("g2", 1, 3)]


def test_a_game_arriving_out_of_order_is_rated_in_its_place(store):
    players = Players(store)
    a, b = players.create("Ana").id, players.create("Bo").id
    late = Outcome("g0", ((a,), (b,)), (2, 1))
    later = [Outcome(f"g{i}", ((a,), (b,)), (1, 2)) for i in (1, 2)]
    players.record_game("tantrix", later[0], finished=20.0)
    players.record_game("tantrix", later[1], finished=30.0)
    players.record_game("tantrix", late, finished=10.0)
    assert {r.player.id: r.rating for r in players.ladder()} == rate_games([late, *later])[0].ratings


def test_a_game_ended_after_the_clock_went_back_is_rated_and_listed_after_the_ones_before(store):
    """A Pi has no battery clock: after a power cut it boots on the time it last saved (up to an hour
    behind), and plays on until the network gives the time. A game ended then was dated before the
    games played before the cut, so rated before them: the change the result screen showed was not
    the ladder's, and the player's games listed it below older ones."""
    now = [2_000_000_000.0]
    players = Players(store, clock=lambda: now[0])
    ana, bo = players.create("Ana").id, players.create("Bo").id
    players.record_game("tantrix", Outcome("before", ((ana,), (bo,)), (1, 2)))
    now[0] -= 3600  # the cut, and the boot on the time saved an hour before it
    shown = players.record_game("tantrix", Outcome("after", ((bo,), (ana,)), (1, 2)))
    assert [r.game for r in players.results(ana)] == ["after", "before"]
    assert {s.key: s.after for s in shown} == {ana: players.rating(ana), bo: players.rating(bo)}
    assert players.history(ana)[-1] == players.rating(ana)


@pytest.mark.parametrize("damage", ['{"game": "g2", "sides": [["a"], ["b"]], "ranks": [1, 2]#', '[1, 2]',
                                    '{"game": "g2", "sides": [["a"]], "ranks": [1]}', b"\xff",
                                    '{"game": "g2", "sides": [["a"], ["b"]], "ranks": [1, Infinity]}'])
def test_one_damaged_game_is_left_out_and_told_never_a_crash(tmp_path, damage):
    reports: list[str] = []
    with SqliteStore(tmp_path, report=reports.append) as store:
        players = Players(store)
        ana, bo, cy = (players.create(name) for name in ("Ana", "Bo", "Cy"))
        for number in (1, 2, 3):
            players.record_game("tantrix", Outcome(f"g{number}", ((ana.id,), (bo.id,)), (1, 2)), finished=number * 10.0)
        store.transaction(lambda db: db.execute("UPDATE games SET outcome = ?, record = '{' WHERE id = 'g2'",
                                                (damage,)))
        players = Players(store)  # a kiosk started after the damage
        # a game whose end the clock puts before the others: every game is rated again
        players.record_game("tantrix", Outcome("g0", ((bo.id,), (cy.id,)), (1, 2)), finished=5.0)
        kept = [Outcome(game, ((ana.id,), (bo.id,)), (1, 2)) for game in ("g1", "g3")]
        expected = rate_games([Outcome("g0", ((bo.id,), (cy.id,)), (1, 2)), *kept])[0].ratings
        assert {row.player.id: row.rating for row in players.ladder()} == expected
        assert [result.game for result in players.results(ana.id)] == ["g3", "g1"]
        assert len(players.export()["players"]) == 3 and players.recompute().ratings == expected
        assert [game.id for game in players.shared_games()] == ["g0", "g1", "g3"]
        assert [game.id for game in players.unshared()[0]] == ["g0", "g1", "g3"]
        players.delete(cy.id)
        players.rerate()
        assert [result.game for result in players.results(bo.id)] == ["g3", "g1", "g0"]
        told = [report for report in reports if "g2" in report]
        assert len(told) == 1 and "cannot be read back (its outcome" in told[0] and "left out" in told[0]


def test_staff_rename_merge_and_delete(store):
    players = Players(store)
    ana, ana2, bo = (players.create(n) for n in ("Ana", "Anna", "Bo"))
    players.record_game("tantrix", Outcome("g1", ((ana.id,), (bo.id,)), (1, 2)), finished=1.0)
    players.record_game("tantrix", Outcome("g2", ((ana2.id,), (bo.id,)), (1, 2)), finished=2.0)
    players.add_best(ana.id, "solitaire", 30)
    players.add_best(ana2.id, "solitaire", 35)
    players.add_best(ana2.id, "time:puzzle:3", -80)
    assert not players.add_best(ana2.id, "solitaire", 20) and players.bests(ana2.id)["solitaire"] == 35

    renamed = players.rename(ana.id, "Ana Maria", "purple:hexagon")
    assert renamed.name == "Ana Maria" and renamed.avatar == "purple:hexagon"
    with pytest.raises(BadName, match="already a player"):
        players.rename(ana.id, "bo")

    players.merge(ana2.id, into=ana.id)
    assert [p.name for p in players.all()] == ["Bo", "Ana Maria"]
    with pytest.raises(UnknownPlayer):
        players.get(ana2.id)
    assert players.bests(ana.id) == {"solitaire": 35, "time:puzzle:3": -80}
    both = rate_games([Outcome("g1", ((ana.id,), (bo.id,)), (1, 2)), Outcome("g2", ((ana.id,), (bo.id,)), (1, 2))])[0]
    assert players.rating(ana.id) == both.ratings[ana.id] and len(players.history(ana.id)) == 2
    assert [r.game for r in players.results(ana.id)] == ["g2", "g1"]

    players.delete(ana.id)
    assert [p.name for p in players.all()] == ["Bo"] and players.bests(ana.id) == {}
    assert players.rating(ana.id) == Rating() and players.history(ana.id) == []
    names = [row[0] for row in store.query("SELECT name FROM players")]
    assert "Ana Maria" not in names and "Anna" not in names
    alone = rate_games([Outcome("g1", (("guest:a",), (bo.id,)), (1, 2)), Outcome("g2", (("guest:b",), (bo.id,)), (1, 2))])[0]
    assert players.rating(bo.id) == alone.ratings[bo.id]


def test_export_holds_each_players_data_as_json(store):
    players = Players(store)
    ana, bo = players.create("Ana", "sky:star"), players.create("Bo")
    players.record_game("tantrix", Outcome("g1", ((ana.id,), (bo.id,)), (1, 2)))
    players.add_best(bo.id, "four-lines", 21)
    exported = json.loads(json.dumps(players.export()))
    assert exported["format"] == "tantrix-table-players/1"
    by_name = {p["name"]: p for p in exported["players"]}
    assert by_name["Ana"]["avatar"] == "sky:star" and by_name["Ana"]["games"][0]["place"] == 1
    assert by_name["Bo"]["bests"] == {"four-lines": 21} and by_name["Bo"]["rating"]["points"] < 1000 < by_name["Ana"]["rating"]["points"]


def test_an_export_the_card_cannot_take_whole_leaves_the_previous_one_intact_and_no_part(tmp_path):
    # written in place, a card that filled up mid-way left a cut-short file that looks like an
    # export (and an export made in the same second as the previous one cut that one short)
    import errno
    import os
    import resource
    import signal
    import time

    with SqliteStore(tmp_path) as store:
        players = Players(store)
        players.create("Ana")
        previous = Path(players.export_file())
        kept = previous.read_bytes()
        for n in range(60):  # an export far larger than the card's room left
            players.create(f"Player {n}")
        store.wait_for_backup()
    before = sorted(tmp_path.iterdir())
    child = os.fork()
    if child == 0:  # pragma: no cover - the child never returns
        try:
            with SqliteStore(tmp_path) as store:
                store.wait_for_backup()
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                limit = len(kept) + 512  # "the card is full" past this many bytes of a file
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
                time.strftime = lambda _format, *_args: previous.name  # the same second as the previous
                Players(store).export_file()
        except OSError as exc:
            os._exit(17 if exc.errno == errno.EFBIG else 1)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.WEXITSTATUS(status) == 17  # the failure is raised to the caller (the Export button says it)
    assert sorted(tmp_path.iterdir()) == before and previous.read_bytes() == kept


def test_views_of_a_player_join_the_same_in_any_order():
    from itertools import permutations

    from firmware.players import SharedPlayer, joined
    views = [SharedPlayer("p1", "Ana", "orange:circle", 1.0, 1.0),
             SharedPlayer("p1", "Anna", "blue:star", 1.0, 5.0),
             SharedPlayer("p1", "Ana", "orange:circle", 1.0, 3.0, merged_into="p2", merged_at=3.0),
             SharedPlayer("p1", "Ana", "orange:circle", 1.0, 3.5, merged_into="p0", merged_at=3.5),
             SharedPlayer("p1", "", "", 1.0, 4.0, deleted=4.0)]
    results = set()
    for order in permutations(views):
        result = order[0]
        for view in order[1:]:
            result = joined(result, view)
        results.add(result)
    # the later merge, though into the smaller id; a view without one never undoes it
    assert results == {SharedPlayer("p1", "", "", 1.0, 5.0, merged_into="p0", deleted=4.0, merged_at=3.5)}
    assert joined(views[0], views[1]) == views[1] == joined(views[1], views[0])


def test_a_later_merge_of_a_circles_survivor_is_not_undone_by_the_older_merges(tmp_path):
    """Two tables apart merge A into B and B into A: a circle, kept as A (its smallest id). Staff at
    table 1 then merge A into C, an id smaller still. The older merges reaching table 1 again, and
    table 1's reaching table 2, must leave both tables with C alone: the join kept the merge into
    the greater id, which put the circle back and C beside it at one table."""
    from firmware.players import SharedPlayer

    def sync(sender: Players, receiver: Players) -> None:
        games, players = sender.unshared()
        receiver.take(players, games)
        sender.mark_shared([*games, *players])

    with SqliteStore(tmp_path / "one") as store_one, SqliteStore(tmp_path / "two") as store_two:
        one, two = Players(store_one), Players(store_two)
        people = [SharedPlayer(key, name, "orange:circle", 1.0, 1.0) for key, name in
                  (("0c", "Cy"), ("a1", "Ana"), ("b1", "Anna"))]
        for table in (one, two):
            table.take(people)
        one.merge("a1", "b1")
        two.merge("b1", "a1")
        sync(one, two), sync(two, one)
        assert [p.id for p in one.all()] == [p.id for p in two.all()] == ["0c", "a1"]  # the circle: A kept
        one.merge("a1", "0c")
        stale = [SharedPlayer("a1", "Ana", "orange:circle", 1.0, 2.0, "b1", None, 2.0),
                 SharedPlayer("b1", "Anna", "orange:circle", 1.0, 2.0, "a1", None, 2.0)]
        one.take(stale)  # the older merges, delivered again (the broker's retained copies)
        sync(one, two), sync(two, one)
        for table in (one, two):
            assert [p.id for p in table.all()] == ["0c"], table


def test_games_taken_out_of_order_are_rated_again_off_the_lock_as_if_in_order(store, monkeypatch):
    from firmware.players import SharedGame
    monkeypatch.setattr("firmware.players.REWIND", 0)  # more rated games after it than take() rates in place
    players = Players(store)
    ana, bo = players.create("Ana"), players.create("Bo")
    late = Outcome("g2", ((ana.id,), (bo.id,)), (1, 2))
    players.record_game("tantrix", late, finished=200.0)
    assert not players.stale()
    early = SharedGame("g1", "tantrix", 100.0, "table-2", Outcome("g1", ((bo.id,), (ana.id,)), (1, 2)), {"x": 1})
    assert players.take([], [early, early]) == (0, 1)  # twice in one delivery: kept once
    assert players.take([], [early]) == (0, 0) and players.stale()
    players.rerate()
    assert not players.stale()
    in_order = rate_games([early.outcome, late])[0]
    assert players.rating(ana.id) == in_order.rating(ana.id) and players.ladder()[0].games == 2
    assert [g.id for g in players.shared_games()] == ["g1", "g2"] and players.shared_games()[0].record == {"x": 1}


def test_a_merge_chain_ends_at_one_player_even_when_it_closes_in_a_circle():
    from itertools import permutations

    from firmware.players import chain_ends
    rows = [("a", "b", None), ("b", "a", None),  # merged into each other by two tables apart
            ("c", "a", None),  # merged into one of them
            ("d", "e", None), ("e", "f", None), ("f", "d", None), ("g", "f", None), ("e2", "e", 7.0),
            ("h", "i", None), ("i", "h", 5.0),  # a circle with a deletion: deleted, whichever id
            ("j", "z", None),  # into an id not known here (yet): that player
            ("k", None, 3.0)]
    expected = {"a": "a", "b": "a", "c": "a", "d": "d", "e": "d", "f": "d", "g": "d", "e2": None,
                "h": None, "i": None, "j": "z", "k": None}
    first = {key: expected[key] for key, _, _ in rows[:6]}
    assert all(chain_ends(order) == first for order in permutations(rows[:6]))  # whatever order they come in
    assert chain_ends(rows) == chain_ends(reversed(rows)) == expected


def test_a_game_dated_years_ahead_costs_each_later_ending_the_games_after_it_not_all(store, monkeypatch):
    """A table whose clock is years ahead shares a game dated then: every ending after it lands
    before it in the ladder's order. Each used to rate every game again (on the UI's thread, under
    the store's lock); now only the games after its place are, here the one from the future."""
    from engine.ratings import Ladder
    from firmware.players import SharedGame
    players = Players(store)
    ana, bo = players.create("Ana"), players.create("Bo")
    for n in range(40):
        players.record_game("tantrix", Outcome(f"g{n:02}", ((ana.id,), (bo.id,)), (1 + n % 2, 2 - n % 2)),
                            finished=1000.0 + n)
    ahead = SharedGame("future", "tantrix", 2e9, "table-9", Outcome("future", ((bo.id,), (ana.id,)), (1, 2)))
    assert players.take([], [ahead]) == (0, 1) and not players.stale()
    rated: list[str] = []
    add = Ladder.add
    monkeypatch.setattr(Ladder, "add", lambda ladder, outcome: rated.append(outcome.game) or add(ladder, outcome))
    for n in range(3):
        steps = players.record_game("tantrix", Outcome(f"h{n}", ((ana.id,), (bo.id,)), (1, 2)), finished=2000.0 + n)
        assert {step.game for step in steps} == {f"h{n}"} and len(steps) == 2
    other = SharedGame("r1", "tantrix", 3000.0, "table-2", Outcome("r1", ((bo.id,), (ana.id,)), (1, 2)))
    assert players.take([], [other]) == (0, 1)
    if players.stale():
        players.rerate()
    assert rated == ["h0", "future", "h1", "future", "h2", "future", "r1", "future"]
    monkeypatch.undo()
    kept = [(row.player.id, row.rating, row.games) for row in players.ladder()]
    history = players.history(ana.id)
    players.recompute()  # the same as every game rated again in order
    assert [(row.player.id, row.rating, row.games) for row in players.ladder()] == kept
    assert players.history(ana.id) == history and kept[0][2] == 45


@pytest.mark.parametrize("seed", range(4))
def test_games_rated_in_their_place_give_the_ladder_all_games_in_order_give(store, seed):
    """Endings and received games in any order of their dates (some years ahead), each rated in
    its place by taking back the games after it: the ratings, games and history are always those
    of every game rated again in order."""
    import random

    from firmware.players import SharedGame
    draw = random.Random(seed)
    players = Players(store)
    ids = [players.create(name).id for name in ("Ana", "Bo", "Cy", "Di")]
    for n in range(30):
        sides = tuple((key,) for key in draw.sample([*ids, "robot:club", "guest:1"], draw.choice((2, 3))))
        outcome = Outcome(f"g{n}", sides, tuple(draw.sample(range(1, len(sides) + 1), len(sides))))
        finished = draw.choice((100.0 + n, draw.uniform(0, 200), 2e9 + n))
        if draw.random() < 0.5:
            players.record_game("tantrix", outcome, finished=finished)
        else:
            players.take([], [SharedGame(outcome.game, "tantrix", finished, "table-2", outcome)])
        if players.stale():
            players.rerate()
        kept = ([(row.player.id, row.rating, row.games) for row in players.ladder()],
                [players.history(key) for key in ids])
        players.recompute()
        assert kept == ([(row.player.id, row.rating, row.games) for row in players.ladder()],
                        [players.history(key) for key in ids])


def test_two_versions_of_one_game_leave_the_same_one_whatever_came_first(tmp_path):
    """One game id with two contents: every order of arrival keeps the one that ended first, and
    staff are told once; this table's own game, when it loses, stays its own and is shared again
    (the broker's acknowledgement of the losing version marks nothing); an ending reported twice
    is no second version."""
    from firmware.players import SharedGame, SharedPlayer
    ends: list[tuple[object, ...]] = []
    for order in range(3):
        reports: list[str] = []
        with SqliteStore(tmp_path / str(order), report=reports.append) as store:
            players = Players(store)
            ana, bo = (SharedPlayer(f"p-{name}", name, "orange:circle", 1.0, 1.0) for name in ("Ana", "Bo"))
            players.take([ana, bo])
            own = Outcome("g1", ((ana.id,), (bo.id,)), (1, 2))
            rogue = SharedGame("g1", "tantrix", 50.0, "table-3", Outcome("g1", ((bo.id,), (ana.id,)), (1, 2)), {"x": 1})
            if order == 0:
                players.record_game("tantrix", own, finished=100.0)
                sent = players.unshared()[0]
                players.take([], [rogue, rogue])
                players.mark_shared(sent)  # the losing version's acknowledgement comes late
                assert players.unshared()[0] == [SharedGame("g1", "tantrix", 50.0, "", rogue.outcome, {"x": 1})]
            elif order == 1:
                players.take([], [rogue])
                assert players.record_game("tantrix", own, finished=100.0) == []
            else:
                players.take([], [SharedGame("g1", "tantrix", 100.0, "table-1", own), rogue])
            assert players.record_game("tantrix", own) == [] and not players.stale()
            ends.append((players.ladder(), [(g.id, g.finished, g.outcome, g.record) for g in players.shared_games()]))
            assert len([report for report in reports if "two versions" in report]) == 1
    assert ends[0] == ends[1] == ends[2] and ends[0][0][0].player.name == "Bo"


def test_an_export_that_loses_the_database_part_way_fails_and_writes_nothing(tmp_path):
    """A page of the database that could not be read while the export read it made that read
    give nothing: the export was written without those players, as a whole file that said it
    held them all. It fails now, saying why, and no file is written."""
    from store_damage import damage_page_holding
    from ui.services import StoreUnreadable

    with SqliteStore(tmp_path) as store:
        players = Players(store)
        for n in range(80):
            players.create(f"Player {n:02d}")
        store.wait_for_backup()
    with SqliteStore(tmp_path) as store:
        damage_page_holding(store.path, b"Player 40")
        before = sorted(tmp_path.iterdir())
        with pytest.raises(StoreUnreadable, match="cannot be read .*malformed"):
            Players(store).export_file()
        assert sorted(tmp_path.iterdir()) == before  # no export, whole or short
