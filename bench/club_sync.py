"""A club's tables through a real Mosquitto: what the link costs a table, and how fast it catches up.

Starts Debian's Mosquitto on 127.0.0.1 (as the tests do: passwords and the access list), then:

1. *publish*: a table that kept ``--games`` rated games (``--players`` players) alone joins the club
   and publishes them all (the first connection of a table with history);
2. *catch-up*: a fresh table joins and receives them all, while a thread stands for the kiosk's UI
   journalling a step every 50 ms into the same store: the longest such save is what a player could
   feel during a catch-up (the store's lock is held per batch of received messages);
3. *latency*: games finished one by one at one table, timed until the other table has rated them;
4. *idle*: the connected link's CPU over ``--seconds`` with nothing to do, the process's memory,
   and the broker's.

    nice -n 19 .venv/bin/python bench/club_sync.py [--games 1000] [--players 30] [--seconds 20]

Prints JSON. Goals (for a Pi 4, which this machine is not): a catch-up never blocks a journal save
for more than a frame budget's worth (~100 ms) per batch; a game at another table within a second;
an idle link well under 1 % of a core.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

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


def link(broker: Broker, name: str, players: Players) -> ClubLink:
    config = ClubConfig(enabled=True, broker="127.0.0.1", port=broker.port, table=name,
                        password_file=str(broker.password_file(name)))
    made = ClubLink(config, players)
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
    if True:
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
        link_one = link(broker, "table-1", one)
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
        link_two = link(broker, "table-2", two)
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


if __name__ == "__main__":
    main()
