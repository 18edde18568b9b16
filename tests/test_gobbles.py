"""Gobbles, the deterministic core (engine.gobble.gobbles): the deal, claims, gobbles and gifts,
going out, places, deadlock, records and save/restore."""

from __future__ import annotations

import json

import pytest

from engine.board import Placement
from engine.geometry import distance
from engine.gobble.gobbles import Ending, Gift, Gobbles, Level, Player
from engine.gobble.rules import Gobble
from engine.modes import Place, Refused, restore, save
from gobble_scenarios import board_of, misfits, scenario

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def race(neighbours: int, players: int = 3) -> tuple[Gobbles, list[Placement], Placement, list[int]]:
    """Player 0 holds the quiet placements of ``scenario(neighbours)``, then its filler, then two
    extras (one that fits nowhere, first); the others hold other tiles. Returns the game, the quiet
    placements, the fill and the extras."""
    s = scenario(neighbours)
    board = board_of(s.placements)
    quiet = list(s.placements[2:])
    lost = misfits(board, s.unused, (s.fill,))[0]
    other = next(t for t in s.unused if t != lost)
    extras = [lost, other]
    rest = [t for t in s.unused if t not in extras]
    size = len(quiet) + 3
    hands = [[p.tile for p in quiet] + [s.fill.tile] + extras]
    hands += [rest[i * size:(i + 1) * size] for i in range(players - 1)]
    return Gobbles(NAMES[:players], s.placements[:2], hands), quiet, s.fill, extras


def play_quiet(game: Gobbles, quiet: list[Placement], player: int = 0) -> None:
    for p in quiet:
        claimed = game.claim(player, p, game.now_ms + 100)
        assert claimed.gobble is Gobble.NONE and claimed.owes == 0


@pytest.mark.parametrize("n", range(2, 7))
def test_the_deal_is_equal_and_the_opening_pair_touches_and_matches(n):
    game = Gobbles.deal(NAMES[:n], seed=n)
    assert {len(h) for h in game.hands} == {54 // n}
    dealt = [t for h in game.hands for t in h]
    assert len(set(dealt)) == len(dealt) == 54 // n * n
    assert not set(dealt) & game.board.placed_tiles() and len(game.board) == 2
    a, b = game.start
    assert (a.q, a.r) == (0, 0) and distance(a.cell, b.cell) == 1 and not game.board.golden_rule_breaks()
    assert Gobbles.deal(NAMES[:n], seed=n).to_json() == game.to_json()


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="2 to 6 players"):
        Gobbles.deal(["Solo"])
    with pytest.raises(ValueError, match="2 to 6 players"):
        Gobbles.deal(NAMES + ["Gus"])
    with pytest.raises(ValueError, match="1 to 27"):
        Gobbles.deal(NAMES[:2], per_player=28)
    s = scenario(3)
    with pytest.raises(ValueError, match="same number"):
        Gobbles(NAMES[:2], s.placements[:2], [s.unused[:2], s.unused[2:5]])
    with pytest.raises(ValueError, match="dealt twice"):
        Gobbles(NAMES[:2], s.placements[:2], [s.unused[:2], s.unused[1:3]])


def test_claims_need_two_neighbours_and_matching_colours_and_are_all_recorded():
    game, quiet, fill, extras = race(3)
    first = quiet[0]
    board = game.board
    lonely = next(Placement(first.tile, *c, rot) for c in board.frontier()
                  if board.neighbour_count(c) == 1 for rot in board.fits(first.tile, c))
    wrong = next(first._replace(rot=r) for r in range(6) if r not in board.fits(first.tile, first.cell))
    refusals = []
    for p in (lonely, wrong, Placement(game.hands[1][0], first.q, first.r, 0)):
        with pytest.raises(Refused) as refused:
            game.claim(0, p, 10)
        refusals.append(refused.value.rule)
    assert refusals == ["two-neighbours", "golden-rule", "not-in-hand"]
    assert [e["result"] for e in game.events] == refusals and len(game.board) == 2
    claimed = game.claim(0, first, 20)
    assert claimed.seq == 4 and game.owner(first.cell) == 0 and first.tile not in game.hands[0]
    late = Placement(game.hands[1][0], first.q, first.r, 0)
    events = len(game.events)
    assert game.check(Place(late, 1)).rule == "taken" and len(game.events) == events  # asking records nothing
    with pytest.raises(Refused) as refused:
        game.claim(1, late, 30)
    assert refused.value.rule == "taken" and "Ann got there first" in refused.value.message
    with pytest.raises(ValueError, match="time order"):
        game.claim(1, first, 5)


@pytest.mark.parametrize("neighbours, earned", [(3, Gobble.GOBBLE), (4, Gobble.DOUBLE)])
def test_a_gobble_gives_tiles_to_the_chosen_opponent(neighbours, earned):
    game, quiet, fill, extras = race(neighbours)
    play_quiet(game, quiet)
    before = [list(h) for h in game.hands]
    claimed = game.claim(0, fill, game.now_ms + 100)
    assert claimed.gobble is earned and claimed.owes == int(earned)
    assert game.events[-1]["gobble"] == int(earned)
    with pytest.raises(Refused) as refused:
        game.claim(0, Placement(extras[1], 9, 9, 0), game.now_ms)
    assert refused.value.rule == "gift-pending"
    for gift, rule in [(Gift(0, tuple(extras[:int(earned)])), "gift-recipient"),
                       (Gift(2, tuple(extras[:int(earned)]) + (fill.tile,)), "gift-count"),
                       (Gift(2, tuple(game.hands[1][:int(earned)])), "not-in-hand")]:
        with pytest.raises(Refused) as refused:
            game.give(0, gift, game.now_ms)
        assert refused.value.rule == rule
    given = tuple(extras[:int(earned)])
    game.give(0, Gift(2, given), game.now_ms + 50)
    assert game.hands[0] == sorted(set(before[0]) - {fill.tile} - set(given))
    assert game.hands[2] == sorted(before[2] + list(given)) and game.hands[1] == before[1]
    assert game.events[-1]["gift"] == {"to": 2, "tiles": list(given)} and not game.pending
    with pytest.raises(Refused) as refused:
        game.give(0, Gift(2, given), game.now_ms)
    assert refused.value.rule == "no-gift"


def test_the_default_gift_is_the_most_awkward_tile_to_the_leader():
    game, quiet, fill, extras = race(3)
    play_quiet(game, quiet)
    game.claim(0, fill, game.now_ms + 100)
    lost = extras[0]  # fits nowhere: the most awkward tile of player 0
    assert game.suggest_gift(0) == Gift(1, (lost,))  # equal hands: the next seat clockwise
    leader = game.copy()
    leader.hands[2].pop()  # Cleo now holds the fewest tiles
    assert leader.suggest_gift(0) == Gift(2, (lost,))
    assert game.suggest_gift(0) == Gift(1, (lost,))  # the copy is independent
    with pytest.raises(ValueError, match="owes no gift"):
        game.suggest_gift(1)


def chain(count: int) -> tuple[tuple[Placement, ...], list[Placement]]:
    """An opening pair and ``count`` quiet placements, each legal after the ones before it."""
    s = scenario(5)
    return s.placements[:2], list(s.placements[2:2 + count])


def test_the_first_out_wins_and_the_others_play_on_for_places():
    start, q = chain(6)
    game = Gobbles(NAMES[:3], start, [[q[0].tile, q[2].tile], [q[1].tile, q[4].tile], [q[3].tile, q[5].tile]])
    for at, (player, p) in enumerate([(0, q[0]), (1, q[1]), (0, q[2])], 1):
        game.claim(player, p, at)
    assert game.out == [0] and not game.finished and not game.playing(0)
    with pytest.raises(Refused) as refused:
        game.claim(0, q[3], 4)
    assert refused.value.rule == "out"
    game.claim(2, q[3], 5)
    game.claim(1, q[4], 6)
    assert game.finished and game.ending is Ending.LAST_PLAYER
    assert game.standings() == [(0, 1, 0), (1, 2, 0), (2, 3, 1)]
    with pytest.raises(Refused) as refused:
        game.claim(2, q[5], 7)
    assert refused.value.rule == "game-over"


def test_without_playing_on_the_first_out_ends_the_game():
    start, q = chain(6)
    game = Gobbles(NAMES[:3], start, [[q[0].tile, q[2].tile], [q[1].tile, q[4].tile], [q[3].tile, q[5].tile]],
                   play_on=False)
    for at, (player, p) in enumerate([(0, q[0]), (1, q[1]), (0, q[2])], 1):
        game.claim(player, p, at)
    assert game.ending is Ending.FIRST_OUT
    assert game.standings() == [(0, 1, 0), (1, 2, 1), (2, 3, 2)]


def test_deadlock_ends_the_game_and_ranks_by_tiles_left_sharing_ties():
    start, q = chain(1)
    stuck = misfits(board_of(start), [t for t in range(1, 57) if t not in {p.tile for p in start + tuple(q)}], tuple(q))
    game = Gobbles(NAMES[:3], start, [[q[0].tile, stuck[0]], stuck[1:3], stuck[3:5]])
    assert not game.finished
    game.claim(0, q[0], 100)
    assert game.ending is Ending.DEADLOCK
    assert game.standings() == [(0, 1, 1), (1, 2, 2), (2, 2, 2)]
    frozen = Gobbles(NAMES[:2], start, [stuck[:2], stuck[2:4]])
    assert frozen.ending is Ending.DEADLOCK and frozen.events == []


def test_a_record_replays_to_the_identical_game_and_a_forged_one_is_refused():
    game, quiet, fill, extras = race(4)
    play_quiet(game, quiet[:3])
    with pytest.raises(Refused):
        game.claim(1, Placement(game.hands[1][0], 40, 40, 0), game.now_ms + 1)
    play_quiet(game, quiet[3:])
    game.claim(0, fill, game.now_ms + 100)
    game.give(0, Gift(1, tuple(extras)), game.now_ms + 100, auto=True)
    record = json.loads(json.dumps(game.to_json()))
    again = Gobbles.from_json(record)
    assert again.to_json() == record and again.board.to_json() == game.board.to_json()
    assert record["events"][3]["result"] == "two-neighbours" and record["events"][-1]["auto"] is True

    forged = json.loads(json.dumps(record))
    forged["events"][-1]["gift"]["to"] = 2
    with pytest.raises(ValueError, match="standings"):
        Gobbles.from_json(forged)
    forged = json.loads(json.dumps(record))
    forged["events"][0]["claim"]["rot"] = (forged["events"][0]["claim"]["rot"] + 1) % 6
    with pytest.raises(ValueError, match="event 1"):
        Gobbles.from_json(forged)
    forged = json.loads(json.dumps(record))
    forged["events"][3]["result"] = "placed"
    with pytest.raises(ValueError, match="event 4: recorded 'placed'"):
        Gobbles.from_json(forged)
    with pytest.raises(ValueError, match="bad record"):
        Gobbles.from_json({"players": "Ann"})


def test_save_and_restore_mid_game_with_a_gift_pending():
    game, quiet, fill, extras = race(3, players=2)
    play_quiet(game, quiet)
    game.claim(0, fill, game.now_ms + 100)
    again = restore(save(game))
    assert isinstance(again, Gobbles) and again.pending == game.pending and again.now_ms == game.now_ms
    for g in (game, again):
        g.give(0, g.suggest_gift(0), g.now_ms + 10)
    assert again.to_json() == game.to_json()


def test_players_can_be_robots_and_their_level_is_saved():
    game = Gobbles.deal([Player("Ann"), Player("R2", Level.EXPERT), ("R3", "beginner")], seed=1)
    assert [p.robot for p in game.players] == [None, Level.EXPERT, Level.BEGINNER]
    assert [p.robot for p in restore(save(game)).players] == [None, Level.EXPERT, Level.BEGINNER]
    with pytest.raises(ValueError):
        Gobbles.deal([Player("Ann"), Player("R2", "grandmaster")])
