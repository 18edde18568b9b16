"""A club's tables through a real Mosquitto: what the link costs a table, and how fast it catches up.

Starts Debian's Mosquitto on 127.0.0.1 (as the tests do: passwords and the access list), then:

1. *publish*: a table that kept ``--games`` rated games (``--players`` players) alone joins the club
   and publishes them all (the first connection of a table with history);
2. *catch-up*: a fresh table joins and receives them all, while a thread stands for the kiosk's UI
   journalling a step every 50 ms into the same store: the longest such save is what a player could
   feel during a catch-up (the store's lock is held per batch of received messages);
3. *latency*: games finished one by one at one table, timed until the other table has rated them;
4. *evening*: table 1 runs a club evening of 8 players; table 2 plays round 1's pairings one by one
   (each game's result in its record, as the strategy screen keeps it), timed until table 1 has
   entered the result (its tick, ``ui.tournament_store.follow``, once a second as the kiosk's UI
   calls it) and until table 2 has heard of it; and what that tick costs table 1's UI thread; then
   table 2's staff take the evening over, timed until table 1's tick has given it up; and what the
   spectator page's view of the evening (``web.evening``) costs to build;
5. *idle*: the connected link's CPU over ``--seconds`` with nothing to do, the process's memory,
   and the broker's.

    nice -n 19 .venv/bin/python bench/club_sync.py [--games 1000] [--players 30] [--seconds 20]

Prints JSON. Goals (for a Pi 4, which this machine is not): a catch-up never blocks a journal save
for more than a frame budget's worth (~100 ms) per batch; a game at another table within a second;
a club evening's result on every table within a few seconds, its tick a few milliseconds; an idle
link well under 1 % of a core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

for name in ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG"):  # the evening's tick imports the UI's store
    os.environ.setdefault(name, "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from engine.ratings import Outcome  # noqa: E402
from firmware.club import ClubLink  # noqa: E402
from firmware.config import ClubConfig  # noqa: E402
from firmware.players import Players  # noqa: E402
from firmware.store import SqliteStore  # noqa: E402
from mqtt_broker import Broker, wait_until  # noqa: E402

LIMIT = 600.0


def rss_mb(pid: str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def link(broker: Broker, name: str, players: Players, store: SqliteStore) -> ClubLink:
    config = ClubConfig(enabled=True, broker="127.0.0.1", port=broker.port, table=name,
                        password_file=str(broker.password_file(name)))
    made = ClubLink(config, players, store=store)
    made.start()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--latency-games", type=int, default=20)
    args = parser.parse_args()
    out: dict[str, object] = {"games": args.games, "players": args.players}
    with tempfile.TemporaryDirectory(prefix="club-bench-") as scratch, Broker(Path(scratch) / "broker") as broker:
        try:
            run(args, Path(scratch), broker, out)
        except AssertionError:
            print((Path(scratch) / "broker" / "mosquitto.log").read_text()[-3000:], file=sys.stderr)
            raise
    print(json.dumps(out, indent=1))


def run(args: argparse.Namespace, root: Path, broker: Broker, out: dict[str, object]) -> None:
    rng = random.Random(1)
    one_store, two_store = SqliteStore(root / "table-1"), SqliteStore(root / "table-2")
    one, two = Players(one_store), Players(two_store)
    ids = [one.create(f"Player {i}").id for i in range(args.players)]
    start = time.perf_counter()
    first = time.time() - 60 * args.games  # a game a minute, ended before now
    for n in range(args.games):
        a, b = rng.sample(ids, 2)
        one.record_game("tantrix", Outcome(uuid.uuid4().hex, ((a,), (b,), ("robot:club",)),
                                           tuple(rng.sample((1, 2, 3), 3))), finished=first + 60 * n)
    out["played_alone_s"] = round(time.perf_counter() - start, 2)

    cpu = time.process_time()
    start = time.perf_counter()
    link_one = link(broker, "table-1", one, one_store)
    wait_until(lambda: link_one.status()["state"] == "connected" and link_one.status()["unsent"] == 0
               and link_one.status()["published"] >= args.games, "table 1 to publish", LIMIT)
    out["publish_s"] = round(time.perf_counter() - start, 2)
    out["publish_cpu_s"] = round(time.process_time() - cpu, 2)

    saves: list[float] = []
    stop = threading.Event()

    def journal() -> None:  # the kiosk's UI saving a step every 50 ms
        step = 0
        while not stop.is_set():
            began = time.perf_counter()
            two_store.save_current({"kind": "bench", "state": {"step": step}})
            saves.append(time.perf_counter() - began)
            step += 1
            stop.wait(0.05)

    held: list[float] = []
    plain = two_store.transaction

    def timed(change):  # how long each of the link's transactions holds the store
        began = time.perf_counter()
        try:
            return plain(change)
        finally:
            held.append(time.perf_counter() - began)

    two_store.transaction = timed  # type: ignore[method-assign]
    journaller = threading.Thread(target=journal, daemon=True)
    journaller.start()
    cpu = time.process_time()
    start = time.perf_counter()
    link_two = link(broker, "table-2", two, two_store)
    wait_until(lambda: len(two.shared_games()) == args.games and len(two.all()) == args.players,
               "table 2 to catch up", LIMIT)
    out["catch_up_s"] = round(time.perf_counter() - start, 2)
    out["catch_up_cpu_s"] = round(time.process_time() - cpu, 2)
    stop.set()
    journaller.join()
    out["journal_save_ms_during_catch_up"] = {"median": round(1000 * statistics.median(saves), 1),
                                               "max": round(1000 * max(saves), 1), "saves": len(saves)}
    out["link_transaction_ms_during_catch_up"] = {"median": round(1000 * statistics.median(held), 1),
                                                  "max": round(1000 * max(held), 1), "transactions": len(held)}
    two_store.transaction = plain  # type: ignore[method-assign]
    out["same_ladder"] = [(r.player.id, r.rating) for r in one.ladder()] == \
                         [(r.player.id, r.rating) for r in two.ladder()]

    latencies = []
    for n in range(args.latency_games):
        a, b = rng.sample(ids, 2)
        game = uuid.uuid4().hex
        began = time.perf_counter()
        one.record_game("tantrix", Outcome(game, ((a,), (b,)), (1, 2)))
        wait_until(lambda: two_store.query("SELECT 1 FROM games WHERE id = ?", (game,)), "the game at table 2", LIMIT)
        latencies.append(time.perf_counter() - began)
    out["game_to_other_table_ms"] = {"median": round(1000 * statistics.median(latencies)),
                                     "max": round(1000 * max(latencies)), "games": len(latencies)}

    evening(ids, one_store, one, link_one, two_store, two, link_two, out)

    time.sleep(1.0)
    cpu = time.process_time()
    time.sleep(args.seconds)
    out["two_idle_links_cpu_percent_of_a_core"] = round(100 * (time.process_time() - cpu) / args.seconds, 2)
    out["bench_process_rss_mb"] = round(rss_mb(), 1)
    out["bench_process_max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    assert broker.process is not None
    out["mosquitto_rss_mb"] = round(rss_mb(str(broker.process.pid)), 1)
    link_one.close(), link_two.close()
    one_store.close(), two_store.close()


def evening(ids: list[str], one_store: SqliteStore, one: Players, link_one: ClubLink, two_store: SqliteStore,
            two: Players, link_two: ClubLink, out: dict[str, object]) -> None:
    """Round 1 of a club evening run at table 1, its games played at table 2 (module docstring, 5)."""
    from types import SimpleNamespace

    from engine.tournament import Tournament, entry
    from ui import tournament_store

    host: Any = SimpleNamespace(services=SimpleNamespace(store=one_store, players=one, club=link_one))
    tournament = Tournament(tuple(ids[:8]), rounds=2, minutes=0, started=time.time())
    tournament.pair_next_round()
    tournament_store.save(host, tournament)
    stop = threading.Event()
    ticks: list[float] = []

    def tick() -> None:  # table 1's UI clock
        while not stop.is_set():
            began = time.perf_counter()
            tournament_store.follow(host)
            ticks.append(time.perf_counter() - began)
            stop.wait(1.0)

    ticking = threading.Thread(target=tick, daemon=True)
    ticking.start()
    wait_until(lambda: "table-1" in link_two.tournaments(), "table 2 to hear of the evening", LIMIT)
    entered, heard = [], []
    record = {"seats": [{"colour": c, "robot": None} for c in "RY"], "events": [],
              "result": {"reason": "all-placed", "winner": "R", "scores": {"R": 12, "Y": 9}}}
    for number, game in enumerate(tournament.played[0]):
        assert game.second is not None
        began = time.perf_counter()
        record_id = two_store.add_record("strategy", {**record, "tournament": entry(
            tournament.id, 1, game.first, game.second, (12, 9))})
        two.record_game("strategy", Outcome(uuid.uuid4().hex, ((game.first,), (game.second,)), (1, 2)), record_id)
        wait_until(lambda: one_store.progress("tournament")["tournament"]["played"][0][number]["scores"],
                   "table 1 to enter the result (its tick, not this wait, does)", LIMIT)
        entered.append(time.perf_counter() - began)
        wait_until(lambda: any(g["scores"] for g in link_two.tournaments()["table-1"]["tournament"]["played"][0]
                               if {g["first"], g["second"]} == {game.first, game.second}),
                   "table 2 to hear of it", LIMIT)
        heard.append(time.perf_counter() - began)
    wait_until(lambda: len(link_two.tournaments()["table-1"]["tournament"]["played"]) == 2,
               "table 2 to see round 2", LIMIT)
    # the spectator page's view of the evening at table 1 (web.evening), rebuilt at every commit
    from web.database import KioskDatabase
    from web.evening import evening_view

    page = KioskDatabase(one_store.path.parent)
    views = []
    for _ in range(50):
        began = time.perf_counter()
        view = evening_view(page)
        views.append(time.perf_counter() - began)
        assert view is not None and len(view["standings"]) == 8
    page.close()
    out["evening_spectator_view_ms"] = {"median": round(1000 * statistics.median(views), 2),
                                        "max": round(1000 * max(views), 2)}
    # table 2's staff take the evening over (as if table 1 had gone): timed until table 1 gives it up
    guest: Any = SimpleNamespace(services=SimpleNamespace(store=two_store, players=two, club=link_two))
    began = time.perf_counter()
    taken = tournament_store.take_over(guest, "table-1")
    assert taken is not None and taken.id == tournament.id
    wait_until(lambda: one_store.progress("tournament").get("club", {}).get("table") == "table-2",
               "table 1 to give the evening up (its tick, not this wait, does)", LIMIT)
    out["evening_taken_over_given_up_at_table_1_ms"] = round(1000 * (time.perf_counter() - began))
    stop.set()
    ticking.join()
    out["evening_result_entered_at_table_1_ms"] = {"median": round(1000 * statistics.median(entered)),
                                                    "max": round(1000 * max(entered)), "games": len(entered)}
    out["evening_result_back_at_table_2_ms"] = {"median": round(1000 * statistics.median(heard)),
                                                 "max": round(1000 * max(heard))}
    out["evening_tick_ms_at_table_1"] = {"median": round(1000 * statistics.median(ticks), 2),
                                         "max": round(1000 * max(ticks), 2), "ticks": len(ticks)}


if __name__ == "__main__":
    main()
