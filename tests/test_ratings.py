"""engine.ratings: OpenSkill's published example, robots at fixed ratings, Doubles teams, and the
ladder being a pure function of the games in order."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from engine.ratings import ROBOT_RATINGS, Ladder, Outcome, Rating, rate_games
from engine.strategy.game import Result, places
from engine.strategy.game import LEVELS
from engine.strategy.robots import robot_move


def test_a_team_game_is_rated_as_in_the_librarys_published_example():
    # openskill.py's README: a1 (default) and a2 beat b1 and b2. The README's numbers were published
    # before the library gained its default dynamics factor tau, so the model is built with tau=0.
    ladder = Ladder(model=PlackettLuce(tau=0.0))
    ladder.ratings.update(a1=Rating(), a2=Rating(32.444, 5.123), b1=Rating(43.381, 2.421),
                          b2=Rating(25.188, 6.211))
    ladder.add(Outcome("g", (("a1", "a2"), ("b1", "b2")), (1, 2)))
    expected = {"a1": (28.669648436582808, 8.071520788025197), "a2": (33.83086971107981, 5.062772998705765),
                "b1": (43.071274808241974, 2.4166900452721256), "b2": (23.149503312339064, 6.1378606973362135)}
    for key, (mu, sigma) in expected.items():
        assert ladder.ratings[key].mu == pytest.approx(mu, abs=1e-9)
        assert ladder.ratings[key].sigma == pytest.approx(sigma, abs=1e-9)


def test_robots_keep_their_fixed_rating_and_beating_a_stronger_one_is_worth_more():
    beat_beginner, _ = rate_games([Outcome("g", (("p",), ("robot:beginner",)), (1, 2))])
    beat_expert, _ = rate_games([Outcome("g", (("p",), ("robot:expert",)), (1, 2))])
    assert "robot:expert" not in beat_expert.ratings and beat_expert.rating("robot:expert") == ROBOT_RATINGS["expert"]
    assert beat_expert.ratings["p"].mu > beat_beginner.ratings["p"].mu > Rating().mu


def test_every_robot_level_a_player_can_pick_has_its_own_rating_in_order_of_strength():
    """A level missing here would count as club: beating a master would be worth a club's win."""
    assert tuple(ROBOT_RATINGS) == LEVELS
    mus = [ROBOT_RATINGS[level].mu for level in LEVELS]
    assert mus == sorted(mus) and len(set(mus)) == len(mus)


def test_a_person_climbs_by_beating_robots_and_a_guest_is_not_kept():
    outcomes = [Outcome(f"g{i}", (("p",), ("robot:club",), ("guest:1",)), (1, 2, 3)) for i in range(10)]
    ladder, history = rate_games(outcomes)
    points = [step.after.points for step in history]
    assert points == sorted(points) and points[-1] > points[0] > Rating().points
    assert set(ladder.ratings) == {"p"} and ladder.games["p"] == 10


def test_four_players_and_doubles_teams_are_rated_by_place():
    four, _ = rate_games([Outcome("g", (("a",), ("b",), ("c",), ("d",)), (1, 2, 2, 4))])
    a, b, c, d = (four.ratings[k].mu for k in "abcd")
    assert a > b > d and a > c > d and b == pytest.approx(c) and a > Rating().mu > d
    doubles, _ = rate_games([Outcome("h", (("a", "c"), ("b", "robot:club")), (1, 2))])
    assert doubles.ratings["a"] == doubles.ratings["c"] and doubles.ratings["a"].mu > Rating().mu
    assert doubles.ratings["b"].mu < Rating().mu and "robot:club" not in doubles.ratings


def test_places_from_scores_share_on_equal_scores_and_honour_a_named_winner():
    assert places(Result("all-placed", {"R": 12, "Y": 15, "G": 12}, "Y")) == {"R": 2, "Y": 1, "G": 2}
    assert places(Result("all-placed", {"R": 9, "Y": 9}, None)) == {"R": 1, "Y": 1}
    assert places(Result("first-out", {"R": 9, "Y": 9, "G": 3}, "Y")) == {"R": 2, "Y": 1, "G": 3}
    assert places(Result("deadlock", {"R": 9, "Y": 4}, None)) == {"R": 1, "Y": 1}


def test_a_loss_on_time_is_last_whatever_its_score_and_the_others_placed_among_themselves():
    assert places(Result("time", {"R": 12, "Y": 5}, "Y"), out="R") == {"R": 2, "Y": 1}
    # the two others tied: both first (no winner), the one out of time third
    assert places(Result("time", {"R": 15, "Y": 6, "G": 6}, None), out="R") == {"R": 3, "Y": 1, "G": 1}
    assert places(Result("time", {"R": 15, "Y": 9, "G": 6, "B": 2}, "Y"), out="G") == {"R": 2, "Y": 1, "G": 4, "B": 3}


def test_the_same_games_in_the_same_order_give_the_same_ladder():
    rng = random.Random(3)
    people = [f"p{i}" for i in range(6)] + ["robot:club", "robot:expert"]
    outcomes = []
    for i in range(60):
        sides = rng.sample(people, rng.choice((2, 3, 4)))
        outcomes.append(Outcome(f"g{i}", tuple((s,) for s in sides), tuple(rng.sample(range(1, len(sides) + 1), len(sides)))))
    once, _ = rate_games(outcomes)
    again, _ = rate_games(outcomes)
    assert once.ratings == again.ratings and len(once.ratings) == 6
    assert once.standings() == again.standings()


def test_an_outcome_without_two_sides_or_a_place_each_is_refused():
    with pytest.raises(ValueError, match="two or more sides"):
        Outcome("g", (("a",),), (1,))
    with pytest.raises(ValueError, match="two or more sides"):
        Outcome("g", (("a",), ("b",)), (1,))


def _finished(**setup):
    from engine.strategy.game import StrategyGame

    game = StrategyGame.new(**setup)
    while not game.finished:
        robot_move(game)
    return game.record()


def test_a_finished_records_outcome_has_a_side_per_colour_placed_by_the_result():
    from engine.ratings import outcome_of_record

    record = _finished(players=3, robots=["club", "beginner", "club"], seed=2)
    outcome = outcome_of_record("g", record, ["ana", None, None])
    place = places(Result.from_json(record["result"]))
    assert outcome.sides == (("robot:club",), ("robot:beginner",), ("robot:club",))  # robots at the end
    assert outcome.ranks == tuple(place[seat["colour"]] for seat in record["seats"])
    timed = {**record, "events": [*record["events"], {"time": outcome.ranks.index(1)}]}  # the winner's time ran out
    assert outcome_of_record("g", timed, ["ana", None, None]).ranks[outcome.ranks.index(1)] == 3
    record["seats"][0]["robot"] = None  # a person (Ana) at seat 0, a guest at seat 1
    record["seats"][1]["robot"] = None
    assert outcome_of_record("g", record, ["ana", None, None]).sides[:2] == (("ana",), ("guest:1",))
    record["events"].append({"seat": 0, "robot": "expert"})  # an expert robot took Ana's seat over
    assert outcome_of_record("g", record, ["ana", None, None]).sides[0] == ("robot:expert",)
    doubles = _finished(players=4, robots=["club", "beginner"] * 2, doubles=True, colours="BG", seed=1)
    teams = outcome_of_record("d", doubles, [None] * 4)
    assert teams.sides == (("robot:club", "robot:club"), ("robot:beginner", "robot:beginner"))
    del doubles["result"]
    assert outcome_of_record("d", doubles, [None] * 4) is None
