"""The master robot and the coach: legal play at every table size, the same choice for the same
seed and work whatever the worker count, work bounded by iterations, worker processes that end with
a killed kiosk, a partner never counted as an opponent, and a coach whose reason describes the
move it shows."""

from __future__ import annotations

import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.strategy.game import FILL_STEPS, StrategyGame
from engine.strategy.robots import make_robot, robot_move
from engine.strategy.robots.club import evaluator, perspective, ranked
from engine.strategy.robots.coach import HELPING, NOTHING, REASONS, advise, explain
from engine.strategy.robots import master as master_module
from engine.strategy.robots.master import Master


@pytest.mark.parametrize("setup", [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=4, doubles=True),
], ids=["2p", "3p", "4p", "doubles"])
def test_the_master_plays_only_legal_moves_through_whole_games(setup):
    """Every seat is a master (a few iterations each), so each game is all master placements: the
    free moves, the fills and the endgame's, each checked against the view and made by the game,
    which refuses anything illegal."""
    master = Master(iterations=3, batch=3)
    game = StrategyGame.new(**setup, robots=["master"] * setup["players"], seed=11)
    placements = 0
    while not game.finished:
        view = game.view()
        choice = master.choose(view, game.robot_rng())
        assert choice in view.legal()
        placements += 1
        game.place(choice)
    assert placements == len(game.board) >= 50 and game.result is not None


def test_the_master_makes_exactly_its_iterations_and_the_same_choice_for_the_same_seed():
    game = StrategyGame.new(2, robots=["club", "club"], seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    view = game.view()
    one = Master(iterations=12, batch=4)
    first = one.search(view, random.Random(7))
    assert first.iterations == 12 and sum(len(c.values) for c in first.children) == 12
    assert 2 <= sum(1 for c in first.children if c.values) < len(first.children)  # widened, not all
    again = Master(iterations=12, batch=4).search(game.view(), random.Random(7))
    assert again.choice == first.choice
    assert [c.values for c in again.children] == [c.values for c in first.children]
    pooled = Master(iterations=12, batch=4, workers=2)
    try:
        assert [c.values for c in pooled.search(view, random.Random(7)).children] == \
            [c.values for c in first.children]
    finally:
        pooled.close()


def _stat(pid: int) -> tuple[int, int] | None:
    """A live process's parent and start time (which tells it from a later one given its number),
    None once it has ended (a zombie holds no memory)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None  # ended meanwhile
    return None if fields[0] == "Z" else (int(fields[1]), int(fields[19]))


def _descendants(root: int | None = None) -> dict[int, int]:
    """The live processes below ``root`` (this one by default), with their start times (workers
    hang below multiprocessing's fork server)."""
    stats = {int(path.name): _stat(int(path.name)) for path in Path("/proc").glob("[0-9]*")}
    live = {pid: stat for pid, stat in stats.items() if stat is not None}
    found: dict[int, int] = {}
    frontier = {os.getpid() if root is None else root}
    while frontier:
        frontier = {pid for pid, (parent, _) in live.items() if parent in frontier and pid not in found}
        found.update((pid, live[pid][1]) for pid in frontier)
    return found


def test_every_master_of_a_process_shares_one_set_of_workers():
    """The kiosk makes a Master for each game screen and one for the coach: their worker processes
    are one set, not one set each left idle behind every screen."""
    game = StrategyGame.new(2, robots=["club", "club"], seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    masters = [Master(iterations=8, batch=4, workers=2) for _ in range(3)]
    try:
        masters[0].search(game.view(), random.Random(1))
        running = _descendants()
        for master in masters[1:]:
            master.search(game.view(), random.Random(1))
        assert _descendants() == running
    finally:
        masters[0].close()


def test_a_worker_killed_while_the_master_thinks_costs_neither_this_move_nor_the_next(caplog):
    """A worker killed mid-search (the OOM killer): the search still makes all its iterations and
    the same choice as without workers, the loss is logged, and the next search runs on fresh
    worker processes, where a broken pool used to fail every master move of the kiosk after it."""
    game = StrategyGame.new(2, robots=["club", "club"], seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    alone = Master(iterations=600, batch=6, cap=600).search(game.view(), random.Random(3))
    pooled = Master(iterations=600, batch=6, workers=2, cap=600)
    killed: list[int] = []

    def kill_a_worker() -> None:
        while not (pool := master_module._POOLS.get(2)) or not pool._processes:  # type: ignore[attr-defined]
            time.sleep(0.001)
        killed.append(next(iter(pool._processes)))  # type: ignore[attr-defined]
        os.kill(killed[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_a_worker)
    try:
        killer.start()
        with caplog.at_level(logging.WARNING, logger=master_module.__name__):
            search = pooled.search(game.view(), random.Random(3))
        killer.join()
        assert search.iterations == 600 and search.choice == alone.choice
        assert [c.values for c in search.children] == [c.values for c in alone.children]
        assert any("ended abruptly" in r.getMessage() for r in caplog.records)
        caplog.clear()
        again = pooled.search(game.view(), random.Random(3))
        assert again.choice == alone.choice and not caplog.records
        fresh = set(master_module._POOLS[2]._processes)  # type: ignore[attr-defined]
        assert len(fresh) == 2 and killed[0] not in fresh
    finally:
        pooled.close()


def test_workers_that_never_answer_hold_the_master_no_longer_than_its_cap(caplog):
    """Worker processes frozen mid-search (stopped, stuck in swap): the search used to wait for
    them for ever, and the table with it; now its cap bounds the wait too, it plays the best
    placement found so far (here, with no visit made, the club's) and says why in the log."""
    game = StrategyGame.new(2, robots=["club", "club"], seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    master = Master(iterations=60, batch=6, workers=2, cap=1.0)
    master.search(game.view(), random.Random(1))  # the workers are up
    frozen = list(master_module._POOLS[2]._processes)  # type: ignore[attr-defined]
    found: list[master_module.Search] = []
    searching = threading.Thread(target=lambda: found.append(master.search(game.view(), random.Random(2))))
    try:
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        with caplog.at_level(logging.WARNING, logger=master_module.__name__):
            searching.start()
            searching.join(60)  # only stops a broken test hanging: the cap is one second
        assert found, "the search still waits for its frozen workers"
        assert found[0].iterations == 0 and found[0].choice == ranked(game.view(), master.weights)[0][1]
        assert any("did not answer" in r.getMessage() for r in caplog.records)
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
        searching.join()
        master.close()


_SEARCHING = """
import random, sys
from engine.strategy.game import StrategyGame
from engine.strategy.robots import master as master_module
from engine.strategy.robots.master import Master
Master(iterations=8, batch=4, workers=2).search(StrategyGame.new(2, robots=["club", "club"], seed=5).view(),
                                                random.Random(1))
print("searched", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_workers_end_when_their_kiosk_is_killed_outright():
    """A kiosk killed by SIGKILL outside systemd (the OOM killer, kill -9 under ./dev run): its
    worker processes, and the fork server and resource tracker behind them, end by themselves
    instead of holding memory until someone finds them."""
    kiosk = subprocess.Popen([sys.executable, "-c", _SEARCHING], cwd=Path(__file__).resolve().parent.parent,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert kiosk.stdout is not None and kiosk.stdout.readline() == "searched\n"
        below = _descendants(kiosk.pid)
        assert len(below) >= 3  # two workers and the fork server (and the resource tracker)
    finally:
        kiosk.send_signal(signal.SIGKILL)
        kiosk.wait()  # not communicate(): workers left running would hold its pipes open
        kiosk.stdin.close()
        kiosk.stdout.close()

    def running() -> set[int]:
        return {pid for pid, start in below.items() if (stat := _stat(pid)) is not None and stat[1] == start}

    deadline = time.monotonic() + 60  # only stops a broken test hanging: they end within moments
    while running() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = running()
    for pid in left:  # a failure leaves nothing behind
        os.kill(pid, signal.SIGKILL)
    assert not left, "still running after the kiosk was killed"


@pytest.mark.parametrize("setup, made", [
    (dict(players=3), 8),
    (dict(players=4), 6),
    (dict(players=4, doubles=True), 12),
], ids=["3p", "4p", "doubles"])
def test_the_masters_work_is_scaled_to_the_colours_in_play(setup, made):
    """A playout judges every colour, so 3 and 4 colours get 2/3 and 1/2 of the two-colour count
    (the time per placement stays that of two players); Doubles' two teams get all of it."""
    game = StrategyGame.new(**setup, robots=["club"] * setup["players"], seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    search = Master(iterations=12, batch=4).search(game.view(), random.Random(7))
    assert search.iterations == made == sum(len(c.values) for c in search.children)


def test_the_masters_safety_cap_stops_the_search_early():
    game = StrategyGame.new(2, robots=["club", "club"], seed=5)
    while len(game.board) < 12 or len(game.legal()) < 3:
        robot_move(game)
    master = Master(iterations=1000, cap=0.0)
    search = master.search(game.view(), random.Random(1))
    assert search.iterations == 0 and search.choice == ranked(game.view(), master.weights)[0][1]


def test_in_doubles_the_partner_is_no_opponent():
    game = StrategyGame.new(4, colours="RB", doubles=True, robots=["club"] * 4, seed=3)
    robot_move(game)
    mine, others = perspective(game.view())
    partner_seat = (game.turn + 2) % 4
    assert game.colour_of(partner_seat) == mine and mine not in others and others == ["B" if mine == "R" else "R"]


def test_the_master_is_a_level_whose_time_budget_is_a_safety_cap():
    assert make_robot("master").name == "master" and make_robot("master", budget=2.5).cap == 2.5


def test_the_coach_suggests_the_masters_move_with_a_reason_that_describes_it():
    codes = set()
    for seed in (2, 8):
        game = StrategyGame.new(2, robots=["club", "club"], seed=seed)
        while not game.finished and len(game.board) < 30:
            advice = advise(game, Master(iterations=4))
            assert advice.placement == Master(iterations=4).choose(game.view(), game.robot_rng())
            reason = advice.reason
            assert reason.code in REASONS
            mine, _ = perspective(game.view())
            colour = reason.params.get("colour")
            board = game.board.copy()
            board.push(advice.placement)
            cell = advice.placement.cell
            if reason.code in ("extend", "extend-block", "link", "link-block", "closes-loop"):
                assert colour == mine
                line = next(l for l in board.lines(mine) if cell in l.cells)
                assert line.length == reason.params["length"] and line.loop == (reason.code == "closes-loop")
            if reason.code in ("fill", "fill-block"):
                assert game.board.is_forced(cell)
            if "other" in reason.params:
                assert reason.params["other"] != mine
            codes.add(reason.code)
            game.place(advice.placement)
            while not game.finished and game.turn != 0:
                robot_move(game)
    assert len(codes) >= 3  # the reasons differ with the move


def test_the_coach_says_what_a_quiet_move_does_for_the_lines():
    """The reasons for moves that extend, link or block nothing, each checked on the board after
    the placement (and after the others it is compared with) by the evaluation's full judgement,
    not the incremental one the coach reads: "starts" a line the colour did not have, "grow" raises
    the mover's potential, "safe" and "fill-safe" give the named opponent nothing where another
    placement (on the same space; any fill) would have helped it, "quiet" changes no colour's."""
    seen = set()
    for seed in range(3):
        game = StrategyGame.new(2, robots=["club", "club"], seed=seed)
        while not game.finished and len(game.board) < 40:
            view = game.view()
            if len(view.legal()) > 1:
                search = Master(iterations=2).search(view, random.Random(seed))
                reason, choice = explain(view, search), search.choice
                mine, _ = perspective(view)
                judge = evaluator(view)
                board = view.board.copy()

                def potential_after(placement, colour):
                    board.push(placement)
                    try:
                        return judge.potential(board, colour)
                    finally:
                        board.undo()

                if reason.code == "start":
                    assert reason.params["colour"] == mine and not list(board.lines(mine))
                if reason.code == "grow":
                    assert potential_after(choice, mine) - judge.potential(board, mine) >= HELPING
                if reason.code == "quiet":
                    colours = [mine, *(c for c in view.colours() if c != mine)]
                    assert all(abs(potential_after(choice, c) - judge.potential(board, c)) <= NOTHING for c in colours)
                if reason.code in ("safe", "fill-safe"):
                    other = reason.params["other"]
                    assert other != mine and board.is_forced(choice.cell) == (reason.code == "fill-safe")
                    before = judge.potential(board, other)
                    assert potential_after(choice, other) - before <= NOTHING
                    alternatives = [p for p in view.legal() if p != choice
                                    and (reason.code == "fill-safe" or p.cell == choice.cell)]
                    assert max(potential_after(p, other) for p in alternatives) - before >= HELPING
                seen.add(reason.code)
            robot_move(game)
    assert {"start", "grow", "safe", "fill-safe", "quiet"} <= seen


def small_own_loops(club, seeds) -> int:
    """How many loops of six tiles or fewer the players close in their own colour before the bag
    is empty, over club self-play games on ``seeds``."""
    closed = 0
    for seed in seeds:
        game = StrategyGame.new(2, robots=["club", "club"], seed=seed)
        while not game.finished:
            colour = game.colour_of(game.turn)
            early = game.bag_count > 0
            before = sum(1 for line in game.board.lines(colour) if line.loop and line.length <= 6)
            robot_move(game, club)
            after = sum(1 for line in game.board.lines(colour) if line.loop and line.length <= 6)
            closed += early and after > before
    return closed


def test_the_club_closes_fewer_small_loops_of_its_own_than_without_the_booklets_warning():
    from engine.strategy.robots.club import Club
    from engine.strategy.robots.evaluation import Weights

    careless = small_own_loops(Club(Weights(small_loop=0.0)), range(1, 9))
    careful = small_own_loops(Club(), range(1, 9))
    assert careful < careless, (careful, careless)



def test_each_playout_horizon_gives_the_same_values_for_the_same_seed_and_the_two_differ():
    game = StrategyGame.new(2, robots=["club", "club"], seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    view = game.view()
    found = {}
    for horizon in (1, 2):
        first = Master(iterations=8, horizon=horizon).search(view, random.Random(7))
        again = Master(iterations=8, horizon=horizon).search(game.view(), random.Random(7))
        found[horizon] = [c.values for c in first.children]
        assert [c.values for c in again.children] == found[horizon]
    assert found[1] != found[2]


def _midgame(players: int) -> StrategyGame:
    game = StrategyGame.new(players, robots=["club"] * players, seed=5)
    while len(game.board) < 12 or game.step in FILL_STEPS or len(game.legal()) < 10:
        robot_move(game)
    return game


def test_a_playout_plays_as_many_replies_as_asked_and_with_two_players_the_one_there_is():
    from engine.strategy.robots.master import rollout

    two, four = _midgame(2).view(), _midgame(4).view()
    seeds = range(6)
    for view, asked in ((two, (1, None)), (four, (1, 3, None))):
        placement = view.legal()[0]
        found = {replies: [rollout(view, placement, seed, replies=replies) for seed in seeds] for replies in asked}
        if view.players == 2:  # one opponent: their reply is every other turn
            assert found[1] == found[None]
        else:  # three opponents: the next one's reply alone is another playout; all three are all of them
            assert found[3] == found[None] and found[1] != found[None]
