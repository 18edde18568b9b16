"""engine.clock with simulated time, and engine.tournament: Swiss pairings without repeats,
standings with tie-breaks."""

from __future__ import annotations

import random

import pytest

from engine.clock import Clocks, penalised_scores
from engine.strategy.game import StrategyGame
from engine.modes import Refused
from engine.ratings import outcome_of_record
from engine.strategy.record import replay
from engine.tournament import Game, Tournament, entry
from engine.strategy.robots import robot_move

# ------------------------------------------------------------------------------------ clocks


def test_only_the_seat_to_act_uses_time_and_a_pause_stops_everyone():
    clocks = Clocks(2, limit=900.0)
    clocks.switch(0, now=100.0)
    assert clocks.left(0, now=130.0) == 870.0 and clocks.left(1, now=130.0) == 900.0
    clocks.switch(1, now=160.0)
    clocks.switch(None, now=200.0)  # paused
    assert clocks.used_at(0, 10_000.0) == 60.0 and clocks.used_at(1, 10_000.0) == 40.0


def test_time_penalties_count_as_the_online_tournament_rules_do():
    clocks = Clocks(2, limit=900.0)
    clocks.switch(1, now=0.0)
    assert [clocks.penalties(1, t) for t in (899.9, 900.0, 959.9, 960.0, 1079.0)] == [0, 1, 1, 2, 3]
    assert clocks.lost_on_time(2000.0) is None  # "penalty": the game goes on
    assert penalised_scores([20, 18], [0, 2]) == [22, 16]  # two players: the opponent gains them
    assert penalised_scores([20, 18, 9], [0, 2, 1]) == [20, 16, 8]


def test_with_loss_on_time_the_running_seat_whose_time_is_up_loses():
    clocks = Clocks(3, limit=60.0, overtime="loss")
    clocks.switch(2, now=0.0)
    assert clocks.lost_on_time(59.0) is None and clocks.lost_on_time(60.0) == 2


def test_a_journaled_clock_resumes_without_counting_the_time_the_table_was_off():
    clocks = Clocks(2, limit=300.0)
    clocks.switch(0, now=10.0)
    saved = clocks.to_json(now=70.0)
    again = Clocks.from_json(saved, now=5000.0)  # after a power cut, the monotonic clock started anew
    assert again.running == 0 and again.used_at(0, 5030.0) == 90.0 and again.left(1, 5030.0) == 300.0


def test_a_clock_refuses_a_bad_setting():
    with pytest.raises(ValueError, match="limit"):
        Clocks(2, limit=0)
    with pytest.raises(ValueError, match="overtime"):
        Clocks(2, overtime="sudden")  # type: ignore[arg-type]


# -------------------------------------------------------------------------------- tournament


def _play_round(tournament: Tournament, rng: random.Random) -> None:
    for game in tournament.played[-1]:
        if game.second is not None:
            tournament.report(game.first, game.second, (rng.randint(5, 30), rng.randint(5, 30)))


@pytest.mark.parametrize("seed", range(25))
def test_eight_players_over_four_rounds_never_meet_twice(seed):
    rng = random.Random(seed)
    tournament = Tournament(tuple(f"p{i}" for i in range(8)), rounds=4)
    met: set[frozenset[str]] = set()
    for _round in range(4):
        games = tournament.pair_next_round()
        assert sorted(p for g in games for p in (g.first, g.second)) == sorted(tournament.players)
        for game in games:
            pair = frozenset((game.first, game.second))
            assert pair not in met, f"{set(pair)} met twice (seed {seed})"
            met.add(pair)
        _play_round(tournament, rng)
    assert tournament.finished and len(met) == 16


def test_players_with_equal_points_are_paired_together():
    tournament = Tournament(tuple(f"p{i}" for i in range(8)), rounds=3)
    for game in tournament.pair_next_round():
        tournament.report(game.first, game.second, (20, 10))  # the first-named wins
    points = {s.player: s.points for s in tournament.standings()}
    for game in tournament.pair_next_round():
        assert points[game.first] == points[game.second]


def test_an_odd_field_gives_one_bye_per_player_at_most():
    tournament = Tournament(tuple(f"p{i}" for i in range(5)), rounds=5)
    byes = []
    rng = random.Random(1)
    for _round in range(5):
        games = tournament.pair_next_round()
        byes += [g.first for g in games if g.second is None]
        _play_round(tournament, rng)
    assert len(byes) == 5 and len(set(byes)) == 5


def test_two_players_play_a_best_of_three():
    tournament = Tournament(("ana", "bo"), rounds=3)
    assert tournament.rounds_without_repeats == 1
    for scores in ((20, 10), (8, 12), (15, 11)):
        (game,) = tournament.pair_next_round()
        assert {game.first, game.second} == {"ana", "bo"}
        tournament.report("ana", "bo", scores)
    assert tournament.finished
    assert [(s.player, s.points) for s in tournament.standings()] == [("ana", 2.0), ("bo", 1.0)]


def test_more_rounds_than_opponents_repeat_as_few_pairings_as_they_must():
    rng = random.Random(4)
    tournament = Tournament(("a", "b", "c", "d"), rounds=5)
    met: dict[frozenset[str], int] = {}
    for _round in range(5):
        for game in tournament.pair_next_round():
            pair = frozenset((game.first, game.second))
            met[pair] = met.get(pair, 0) + 1
        _play_round(tournament, rng)
    # 3 rounds meet everyone once; the 2 more repeat two pairings each, none a third time
    assert len(met) == 6 and sorted(met.values()) == [1, 1, 2, 2, 2, 2]


def test_an_odd_field_over_more_rounds_spreads_the_byes():
    tournament = Tournament(("a", "b", "c"), rounds=5)
    rng = random.Random(2)
    byes: list[str] = []
    for _round in range(5):
        byes += [g.first for g in tournament.pair_next_round() if g.second is None]
        _play_round(tournament, rng)
    assert sorted(byes.count(p) for p in "abc") == [1, 2, 2]


def test_standings_use_points_then_buchholz_sonneborn_berger_and_margin():
    t = Tournament(("a", "b", "c", "d"), rounds=2)
    t.played = [[Game("a", "b", (20, 10)), Game("c", "d", (15, 15))],
                [Game("a", "c", (10, 12)), Game("b", "d", (18, 8))]]
    rows = {s.player: s for s in t.standings()}
    assert [rows[p].points for p in "abcd"] == [1.0, 1.0, 1.5, 0.5]
    assert rows["a"].buchholz == 1.0 + 1.5 and rows["b"].buchholz == 1.0 + 0.5
    assert rows["c"].sonneborn_berger == 0.5 * 0.5 + 1.0 and rows["a"].margin == 8
    assert [s.player for s in t.standings()] == ["c", "a", "b", "d"]
    assert Tournament.from_json(t.to_json()).standings() == t.standings()


def test_a_tournament_refuses_what_cannot_be_played():
    with pytest.raises(ValueError, match="different players"):
        Tournament(("a", "a"), rounds=1)
    with pytest.raises(ValueError, match="one round or more"):
        Tournament(("a", "b"), rounds=0)
    t = Tournament(("a", "b", "c", "d"), rounds=1)
    t.pair_next_round()
    with pytest.raises(ValueError, match="without a result"):
        t.pair_next_round()
    with pytest.raises(ValueError, match="do not play each other"):
        t.report("a", "zz", (1, 2))


def test_results_found_in_records_are_entered_once_and_pair_the_next_round():
    t = Tournament(("a", "b", "c", "d"), rounds=2)
    (first, second) = t.pair_next_round()
    mine = entry(t.id, 1, first.second or "", first.first, (9, 12))  # named the other way round
    assert t.enter(mine) and t.played[0][0].scores == (12, 9)
    assert t.enter(mine) and t.played[0][0].scores == (12, 9)  # the same game found again: once
    assert not t.enter({**mine, "scores": [12, 9]})  # a second game of the pairing: the first stays
    assert not t.advance()  # the round is not complete
    for wrong in ({**mine, "id": "another"}, {**mine, "round": 2}, {**mine, "round": "1"},
                  {**mine, "second": "zz"}, {**mine, "scores": [1]}, {**mine, "scores": ["x", 2]},
                  {"id": t.id}, entry(t.id, 1, first.first, second.first, (1, 2))):
        assert not t.enter(wrong), wrong  # another tournament's, a round not played, a pairing not made...
    assert t.played[0][1].scores is None
    assert t.enter(entry(t.id, 1, second.first, second.second or "", (5, 5)))
    assert t.advance() and len(t.played) == 2  # the last result pairs the next round
    assert t.enter(mine)  # round 1's result, found again after round 2 was paired: still there
    assert not t.enter({**mine, "scores": [1, 2]})
    copy = Tournament.from_json(t.to_json())
    assert copy.id == t.id and copy.played == t.played and copy.started == t.started


def test_a_tournament_kept_damaged_does_not_read_and_an_old_one_gets_an_id():
    t = Tournament(("a", "b"), rounds=1)
    t.pair_next_round()
    kept = t.to_json()
    old = {k: v for k, v in kept.items() if k not in ("id", "started")}
    assert Tournament.from_json(old).id and Tournament.from_json(old).id != Tournament.from_json(old).id
    for damaged in ({**kept, "played": [[{"first": "a", "second": "zz", "scores": None}]]},
                    {**kept, "played": [[{"first": "a", "second": "b", "scores": ["x", 1]}]]},
                    {**kept, "players": ["a"]}, {**kept, "rounds": "many"},
                    {**kept, "played": [[["a", "b"]]]}, {**kept, "played": "ab"}, {**kept, "played": [[None]]},
                    {**kept, "played": [[{"first": "a", "second": "b", "scores": [float("inf"), 1]}]]},
                    {**kept, "played": [[{"first": "a", "second": "b", "scores": [10 ** 400, 1]}]]},
                    {**kept, "minutes": float("nan")}, {**kept, "minutes": -5}, {**kept, "rounds": float("inf")},
                    {**kept, "started": float("inf")}, ["a", "b"]):
        with pytest.raises((ValueError, TypeError, KeyError)):  # only these: what its readers expect
            Tournament.from_json(damaged)  # type: ignore[arg-type]


# ------------------------------------------------------------------- clocks in the strategy game


def _played(moves: int, players: int = 2, seed: int = 3, **options: object) -> StrategyGame:
    game = StrategyGame.new(players, "RYGB"[:players] if not options.get("doubles") else "RY",
                            ["beginner"] * players, seed=seed, robot_seed=seed, **options)  # type: ignore[arg-type]
    for _ in range(moves):
        robot_move(game)
    return game


def _to_the_end(game: StrategyGame) -> StrategyGame:
    while not game.finished:
        robot_move(game)
    return game


def test_time_penalties_change_the_final_scores_and_replay_from_the_record():
    plain = _to_the_end(_played(0))
    late = _played(0)
    late.time_penalty(0)
    late.time_penalty(0)
    late.time_penalty(1)
    _to_the_end(late)
    board = {c: late.board.score(c) for c in "RY"}
    assert board == plain.result.scores  # same seeds: the same game; only the penalties differ
    assert late.penalties() == [2, 1]
    assert late.result.scores == {"R": board["R"] - 2 + 1, "Y": board["Y"] - 1 + 2}
    assert replay(late.record()).result == late.result


def test_in_doubles_a_seats_penalty_is_its_teams():
    game = _played(4, players=4, doubles=True)
    game.time_penalty(2)  # seat 2 is Red's partner
    _to_the_end(game)
    assert game.penalties() == [0, 0, 1, 0]
    assert game.result.scores == {"R": game.board.score("R") - 1, "Y": game.board.score("Y") + 1}


def test_a_seat_out_of_time_loses_and_ranks_last_even_when_ahead():
    game = _played(16, players=3)
    leader = max(range(3), key=lambda seat: game.board.score(game.colour_of(seat)))
    game.time_out(leader)
    assert game.finished and game.result.reason == "time"
    assert game.result.winner != game.colour_of(leader)
    outcome = outcome_of_record("g", game.record(), [None, None, None])
    assert outcome.ranks[game.colours().index(game.colour_of(leader))] == 3
    assert replay(game.record()).result == game.result
    with pytest.raises(Refused):
        game.time_penalty(0)  # the game is over
    with pytest.raises(Refused):
        _played(0).time_out(5)


def test_what_the_club_tables_tell_is_read_one_way_and_a_damaged_word_is_no_evening():
    from engine.evening import playing_at, running, running_elsewhere, taking_part

    ours = Tournament(("a", "b", "c", "d"), rounds=2)
    first, second = ours.pair_next_round()
    theirs = Tournament(("x", "y"), rounds=1)
    theirs.pair_next_round()
    done = Tournament(("p", "q"), rounds=1)
    (game,) = done.pair_next_round()
    done.report(game.first, game.second, (3, 1))
    tables = {"t1": {"tournament": theirs.to_json(), "playing": None},
              "t2": {"tournament": done.to_json(), "playing": None},
              "t3": {"club": {"table": "here", "id": ours.id}, "playing": {"first": first.first, "second": first.second}},
              "t4": {"club": {"table": "here", "id": "another"}, "playing": {"first": second.first, "second": second.second}},
              "t5": {"tournament": {"players": 7}}, "t6": {"tournament": "x", "playing": {"first": 1}}}
    assert done.finished and running(tables["t5"]) is None and running(tables["t6"]) is None and running(None) is None
    # only a connected table playing a pairing of this very tournament counts
    assert playing_at(tables, ours.id, lambda table: True) == {frozenset((first.first, first.second)): "t3"}
    assert playing_at(tables, ours.id, lambda table: table != "t3") == {}
    here = {"tournament": ours.to_json(), "playing": None}
    assert taking_part(here, tables) == (None, ours)  # this table's own first
    # else the table whose game was played here last, even finished; else one still running
    assert taking_part({"club": {"table": "t2", "id": done.id}, "playing": None}, tables) == ("t2", done)
    assert taking_part({}, tables) == ("t1", theirs) and running_elsewhere({}, tables) == "t1"
    assert running_elsewhere({"club": {"table": "t2", "id": done.id}}, tables) == "t1"  # t2's has ended
    assert taking_part({}, {"t2": tables["t2"], "t5": tables["t5"]}) is None
    assert taking_part({"club": "t1"}, tables) == ("t1", theirs)  # a damaged word of its own: as none


def test_standings_share_a_place_only_when_level_on_every_criterion():
    tournament = Tournament(("a", "b", "c", "d"), rounds=1)
    one, two = tournament.pair_next_round()
    tournament.report(one.first, one.second, (5, 5))
    tournament.report(two.first, two.second, (5, 5))
    places = [place for place, _row in tournament.placed()]
    assert places == [1, 1, 1, 1]
    tournament = Tournament(("a", "b", "c", "d"), rounds=1)
    one, two = tournament.pair_next_round()
    tournament.report(one.first, one.second, (9, 5))
    tournament.report(two.first, two.second, (7, 5))
    placed = tournament.placed()
    assert [place for place, _row in placed] == [1, 2, 3, 4]  # the margins part them
    assert [row for _place, row in placed] == tournament.standings()


def test_an_evening_taken_over_is_run_by_the_latest_taker_whatever_the_clocks():
    from engine.evening import generation, played_last, runner, running_elsewhere, superseded, taking_part

    tournament = Tournament(("a", "b", "c", "d"), rounds=2)
    tournament.pair_next_round()
    first = {"tournament": tournament.to_json(), "playing": None}  # table-1, where staff started it
    second = {**first, "generation": 1}  # table-2, whose staff took it over while table-1 was away
    assert generation(first) == 0 and generation(second) == 1 and generation({"generation": "9"}) == 0
    tables = {"table-1": first, "table-2": second}
    assert runner(tables, tournament.id) == "table-2" and runner(tables, "another") is None
    # table-1 back: it gives the evening up; table-2 keeps it
    assert superseded(first, "table-1", {"table-2": second}) == "table-2"
    assert superseded(second, "table-2", {"table-1": first}) is None
    assert superseded({}, "table-3", tables) is None
    # two tables taking it over at once: the first by name runs it, on every table alike
    assert superseded(second, "table-9", {"table-2": second}) == "table-2"
    assert superseded(second, "table-2", {"table-9": second}) is None
    # a table that played a game of table-1's follows the evening to table-2, once only
    pointer = {"club": {"table": "table-1", "id": tournament.id}, "playing": None}
    assert played_last(pointer, tables) == "table-2" and running_elsewhere(pointer, tables) == "table-2"
    assert taking_part(pointer, tables) == ("table-2", tournament)
    assert running_elsewhere({}, tables) == "table-2"


def test_an_evening_ended_where_it_was_taken_over_is_run_nowhere_however_late_its_first_table_returns():
    from engine.evening import ended, played_last, runner, running_elsewhere, superseded, taking_part

    tournament = Tournament(("a", "b", "c", "d"), rounds=3)
    tournament.pair_next_round()
    first = {"tournament": tournament.to_json(), "playing": None}  # table-1, broken with it
    next_week = Tournament(("a", "b"), rounds=1)
    next_week.pair_next_round()
    # table-2 took it over and its staff ended it, then started next week's
    over = {"tournament": next_week.to_json(), "ended": [{"id": tournament.id, "generation": 1}]}
    tables = {"table-1": first, "table-2": over}
    assert ended(over) == [(tournament.id, 1)] and ended(first) == []
    assert ended({"ended": [{"id": 7, "generation": 1}, {"id": "x", "generation": True}, "y"]}) == []
    assert runner(tables, tournament.id) is None and runner(tables, next_week.id) == "table-2"
    assert superseded(first, "table-1", {"table-2": over}) == "table-2"  # table-1 back: it gives it up
    assert running_elsewhere({}, tables) == "table-2"  # the other tables show next week's, not the old
    pointer = {"club": {"table": "table-1", "id": tournament.id}, "playing": None}  # played a game of it
    assert played_last(pointer, tables) == "table-2" and taking_part(pointer, tables) == ("table-2", next_week)
    # an end told at a lower generation than a table that runs it ends nothing: a later taker runs it
    later = {**first, "generation": 2}
    assert runner({**tables, "table-3": later}, tournament.id) == "table-3"
    assert superseded(later, "table-3", tables) is None
    # two tables that took it over at once, one of them ended it: it is over on both
    assert superseded({**first, "generation": 1}, "table-0", {"table-2": over}) == "table-2"


def test_a_player_who_leaves_forfeits_the_game_waiting_and_is_paired_no_more_and_a_late_one_joins():
    tournament = Tournament(("a", "b", "c", "d"), rounds=4)
    first_round = tournament.pair_next_round()
    decided, waiting = first_round
    tournament.report(decided.first, decided.second, (9, 4))
    leaver = waiting.second
    assert leaver is not None
    tournament.withdraw(leaver)  # left before playing: the round ends, the other wins it
    (left,) = [g for g in tournament.played[0] if g.forfeit is not None]
    assert left.forfeit == leaver and left.points(waiting.first) == 1.0 and left.points(leaver) == 0.0
    assert left.margin(waiting.first) == 0
    assert not tournament.enter(entry(tournament.id, 1, waiting.first, leaver, (3, 8)))  # played anyway: too late
    with pytest.raises(ValueError, match="does not take part"):
        tournament.withdraw(leaver)
    assert tournament.advance()  # three left: two play, one has a bye
    second_round = tournament.played[1]
    assert all(leaver not in (g.first, g.second) for g in second_round)
    assert sum(g.second is None for g in second_round) == 1
    assert leaver in [s.player for s in tournament.standings()]  # still ranked, with the point earned so far
    tournament.join("e")  # a latecomer: paired from the next round on, no points before
    with pytest.raises(ValueError, match="already"):
        tournament.join("e")
    for game in tournament.played[1]:
        if game.second is not None:
            tournament.report(game.first, game.second, (5, 5))
    assert tournament.advance()
    third = tournament.played[2]
    paired = {p for g in third for p in (g.first, g.second) if p is not None}
    assert "e" in paired and leaver not in paired and len(third) == 2
    again = Tournament.from_json(tournament.to_json())  # kept and told as it is
    assert again == tournament and again.withdrawn == (leaver,)
    for garbled in ({"withdrawn": ["z"]}, {"withdrawn": [leaver, leaver]}):
        with pytest.raises(ValueError):
            Tournament.from_json({**tournament.to_json(), **garbled})
    bad = tournament.to_json()
    bad["played"][0][1]["forfeit"] = "z"
    with pytest.raises(ValueError):
        Tournament.from_json(bad)


def test_a_tournament_all_but_one_left_ends_once_its_round_is_complete():
    tournament = Tournament(("a", "b", "c"), rounds=3)
    tournament.pair_next_round()
    tournament.withdraw("a")
    tournament.withdraw("b")
    assert tournament.finished and not tournament.advance()
    with pytest.raises(ValueError, match="fewer than two"):
        tournament.pair_next_round()
