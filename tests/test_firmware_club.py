"""firmware.club: a club's tables as one, through a real Mosquitto on 127.0.0.1 (each table its own
password, an access list letting it write under its own name only). Three simulated tables (each its
own SQLite store) play games; one is cut off and comes back, the broker goes away and comes back;
every table ends with the same players, games, records and ratings, none counted twice. Every wait
is for a condition (``wait_until``), never for a time."""

from __future__ import annotations

import json
import socket
import sqlite3
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from engine.ratings import outcome_of_record
from firmware.club import ClubLink, open_club
from firmware.config import ClubConfig, load_config
from firmware.players import Players
from firmware.runtime import Launch, Runtime
from firmware.store import SqliteStore
from web.database import KioskDatabase
import mqtt_broker
from mqtt_broker import Broker, certificate_authority, free_port, wait_until

@pytest.fixture
def broker(tmp_path):
    with Broker(tmp_path / "broker") as broker:
        yield broker


class Table:
    """One kiosk's part in the club: its store, its players, its link (None while cut off)."""

    def __init__(self, directory: Path, broker: Broker, name: str) -> None:
        self.name, self.broker = name, broker
        self.reports: list[str] = []  # what staff are told, by the link and by the store
        self.store = SqliteStore(directory / name, report=self.reports.append)
        self.players = Players(self.store)
        self.link: ClubLink | None = None

    def connect(self, password_file: Path | None = None, ca_file: Path | None = None) -> ClubLink:
        """Join the club (over TLS, trusting ``ca_file``, when given)."""
        config = ClubConfig(enabled=True, broker="127.0.0.1", port=self.broker.port, table=self.name,
                            password_file=str(password_file or self.broker.password_file(self.name)),
                            tls=ca_file is not None, ca_file=str(ca_file or ""))
        self.link = ClubLink(config, self.players, self.reports.append, store=self.store, reconnect=(1, 2),
                             poll=0.05)
        assert self.link.start()
        return self.link

    def cut_off(self) -> None:
        assert self.link is not None
        self.link.close()
        self.link = None

    def status(self) -> dict[str, Any]:
        assert self.link is not None
        return self.link.status()

    def play(self, *seats: str | None, winner: int = 0, tournament: dict[str, Any] | None = None,
             finished: float | None = None) -> str:
        """A finished two-seat game as the strategy screen keeps it: its record (with its result in
        a ``tournament``, if it is one's game), then its rating. ``seats``: player ids, or None for
        the robot (club level); ``finished``: the table's clock at the end (None: now)."""
        colours = ("R", "Y")
        record: dict[str, Any] = {
            "seats": [{"colour": c, "robot": None if s else "club"} for c, s in zip(colours, seats)],
            "events": [], "result": {"reason": "all-placed", "winner": colours[winner],
                                     "scores": {c: 10 if i == winner else 7 for i, c in enumerate(colours)}}}
        if tournament is not None:
            record["tournament"] = tournament
        record_id = self.store.add_record("tantrix", record)
        outcome = outcome_of_record(uuid.uuid4().hex, record, list(seats))
        assert outcome is not None
        self.players.record_game("tantrix", outcome, record_id, finished)
        return outcome.game

    def view(self) -> tuple[Any, ...]:
        """What must be the same on every table: players, games with their records, the ladder."""
        games = [(g.id, g.kind, g.finished, g.outcome, g.record) for g in self.players.shared_games()]
        ladder = [(row.player.id, row.player.name, row.rating, row.games) for row in self.players.ladder()]
        return sorted(self.players.all(), key=lambda p: p.id), games, ladder

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        self.store.close()


@pytest.fixture
def tables(tmp_path, broker):
    made = [Table(tmp_path, broker, name) for name in broker.tables]
    yield made
    for table in made:
        table.close()


def all_alike(tables: list[Table], games: int) -> bool:
    if any(table.players.stale() for table in tables):
        return False  # games taken, their ratings not yet computed again
    views = [table.view() for table in tables]
    return len(views[0][1]) == games and all(view == views[0] for view in views)


def test_three_tables_one_cut_off_end_with_the_same_games_and_ladder(tables):
    one, two, three = tables
    for table in tables:
        table.connect()
    ana, bo = one.players.create("Ana"), one.players.create("Bo")
    cy = two.players.create("Cy")
    di = three.players.create("Di", "blue:star")
    wait_until(lambda: all(len(t.players.all()) == 4 for t in tables), "every table to know the 4 players")
    one.play(ana.id, bo.id)
    two.play(cy.id, ana.id, winner=1)  # Ana, of table 1, plays at table 2
    three.play(di.id, None)
    wait_until(lambda: all_alike(tables, 3), "the first 3 games everywhere")

    three.cut_off()  # its Wi-Fi is gone: it keeps playing alone, from its own database
    eve = one.players.create("Eve")
    one.play(ana.id, eve.id)
    two.players.rename(cy.id, "Cyril")
    offline = [three.play(di.id, bo.id), three.play(ana.id, di.id, winner=1)]
    eve_again = three.players.create("Eve")  # Eve signs up again here, which cannot know her
    offline.append(three.play(eve_again.id, di.id))
    assert three.players.unshared()[0] and len(three.players.shared_games()) == 6

    three.connect()  # back: it publishes what it kept and receives what it missed
    wait_until(lambda: all_alike(tables, 7), "all 7 games, and the same ladder, on the three tables")
    wait_until(lambda: three.status()["unsent"] == 0, "table 3 to have nothing left to send")
    players, games, ladder = one.view()
    assert len({game[0] for game in games}) == 7 and set(offline) <= {game[0] for game in games}
    assert sorted(p.name for p in players) == ["Ana", "Bo", "Cyril", "Di", "Eve", "Eve"]
    by_id = {game[0]: game for game in games}
    kept_at_three = {g.id: g.record for g in three.players.shared_games()}
    assert all(by_id[game][4] == kept_at_three[game] and by_id[game][4]["seats"] for game in offline)
    assert {row[0]: row[3] for row in ladder}[di.id] == 4  # Di's games from both sides of the cut
    for table in tables:  # the ladder is the one the games in order give
        before = table.view()[2]
        table.players.recompute()
        assert table.view()[2] == before
        assert table.status()["dropped"] == 0

    # staff at table 1 see Eve twice and merge her: every table follows, ratings recomputed
    one.players.merge(eve_again.id, eve.id)
    wait_until(lambda: all(len(t.players.all()) == 5 for t in tables) and all_alike(tables, 7),
               "the merge on every table")
    rows = {row[0]: row for row in one.view()[2]}
    assert eve_again.id not in rows and rows[eve.id][3] == 2


def test_the_broker_away_and_back_loses_and_doubles_nothing(broker, tables):
    one, two, _ = tables
    one.connect(), two.connect()
    ana = one.players.create("Ana")
    wait_until(lambda: two.players.all() == [ana], "Ana at table 2")
    broker.stop()
    wait_until(lambda: one.status()["state"] == "retrying" and two.status()["state"] == "retrying",
               "both tables to notice the broker is gone")
    played = one.play(ana.id, None)
    bo = two.players.create("Bo")
    two.play(bo.id, ana.id)
    wait_until(lambda: one.status()["unsent"] == 1 and two.status()["unsent"] == 2, "the unsent work counted")
    assert one.players.ladder()[0].games == 1  # the table's own ladder goes on meanwhile

    broker.start()  # same port, its retained messages kept on disk
    wait_until(lambda: all_alike([one, two], 2) and len(one.players.all()) == 2, "both tables to catch up")
    wait_until(lambda: one.status()["state"] == "connected" and one.status()["unsent"] == 0, "table 1 settled")
    assert [game[0] for game in one.view()[1]].count(played) == 1
    assert {row[0]: row[3] for row in two.view()[2]}[ana.id] == 2


def raw_client(broker: Broker, table: str) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"raw-{table}")
    client.username_pw_set(table, broker.password(table))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    wait_until(client.is_connected, "the raw client to connect")
    return client


def test_redelivered_forged_and_garbled_messages_count_once_or_not_at_all(broker, tables):
    _, two, _ = tables
    two.connect()
    sender = raw_client(broker, "table-1")
    try:
        game = {"id": "g1", "kind": "tantrix", "finished": 1000.0, "origin": "table-1",
                "outcome": {"game": "g1", "sides": [["p-ana"], ["robot:club"]], "ranks": [1, 2]}, "record": None}
        ana = {"id": "p-ana", "name": "Ana", "avatar": "green:star", "created": 1.0, "updated": 1.0,
               "merged_into": None, "deleted": None}
        publish = lambda topic, payload: sender.publish(  # noqa: E731
            topic, payload if isinstance(payload, str) else json.dumps(payload), qos=1, retain=True).wait_for_publish(30)
        publish("tantrix/table-1/player/p-ana", ana)
        publish("tantrix/table-1/game/g1", game)
        publish("tantrix/table-1/game/g1", game)  # delivered twice
        publish("tantrix/table-1/game/g2", "{not json")
        publish("tantrix/table-1/game/g3", {**game, "id": "g3", "origin": "table-3",
                                            "outcome": {**game["outcome"], "game": "g3"}})  # claims another origin
        publish("tantrix/table-1/player/p-bad", {**ana, "id": "p-bad", "name": "<script>"})
        publish("tantrix/table-3/game/g4", {**game, "id": "g4", "origin": "table-3",
                                            "outcome": {**game["outcome"], "game": "g4"}})  # the broker refuses it
        publish("tantrix/table-1/player/p-last", {**ana, "id": "p-last", "name": "Last"})  # comes after all
        wait_until(lambda: any(p.name == "Last" for p in two.players.all()), "the last message")
        assert [g.id for g in two.players.shared_games()] == ["g1"]
        assert two.players.ladder()[0].games == 1 and two.status()["dropped"] == 3
        assert {p.name for p in two.players.all()} == {"Ana", "Last"}
        two.cut_off()  # the retained messages all come again on reconnection: still once
        link = two.connect()
        wait_until(lambda: link.status()["received_players"] >= 2, "the retained messages again")
        assert [g.id for g in two.players.shared_games()] == ["g1"] and two.players.ladder()[0].games == 1
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_no_broker_leaves_the_table_playing_and_counting_what_waits(tmp_path):
    store = SqliteStore(tmp_path / "alone")
    players = Players(store)
    config = ClubConfig(enabled=True, broker="127.0.0.1", port=free_port(), table="table-9")
    link = ClubLink(config, players, reconnect=(1, 2), poll=0.05)
    try:
        assert link.start()
        wait_until(lambda: link.status()["state"] == "retrying", "the link to retry")
        ana = players.create("Ana")
        players.record_game("tantrix", outcome_of_record("g1", {
            "seats": [{"colour": "R", "robot": None}, {"colour": "Y", "robot": "club"}], "events": [],
            "result": {"reason": "all-placed", "winner": "R", "scores": {"R": 3, "Y": 1}}}, [ana.id]))
        wait_until(lambda: link.status()["unsent"] == 2, "the game and the player waiting")
        assert players.ladder()[0].games == 1 and "cannot reach 127.0.0.1" in link.status()["detail"]
        assert not link.connected()  # the screens say this table is the one away
    finally:
        link.close()
        store.close()
    assert link.status()["state"] == "off" and not link.connected()


def test_a_wrong_password_is_refused_and_shown(tmp_path, broker, tables):
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-password")
    link = tables[0].connect(password_file=wrong)
    wait_until(lambda: link.status()["state"] == "refused", "the refusal")
    assert "refused" in link.status()["detail"]


def test_over_tls_a_table_trusts_only_its_clubs_certificate(tmp_path):
    """A broker that listens with TLS: tables that trust the club's authority share a game; one
    given another authority refuses the broker (and says so) rather than talk unchecked, and a
    table that expects TLS from a broker without it says that instead."""
    with Broker(tmp_path / "broker", tls=True) as broker:
        tables = [Table(tmp_path, broker, name) for name in broker.tables]
        try:
            for table in tables[:2]:
                table.connect(ca_file=broker.ca_file)
            wait_until(lambda: all(t.status()["state"] == "connected" for t in tables[:2]), "the TLS links")
            stranger, _key = certificate_authority(tmp_path, "another-ca")
            wary = tables[2].connect(ca_file=stranger)
            wait_until(lambda: wary.status()["state"] == "refused", "the untrusted broker to be refused")
            assert "not trusted" in wary.status()["detail"] and "ca_file" in wary.status()["detail"]
            tables[0].play("ana", None)
            wait_until(lambda: all_alike(tables[:2], 1), "the game over TLS")
            assert wary.status()["state"] == "refused" and tables[2].players.shared_games() == []
        finally:
            for table in tables:
                table.close()


def test_a_table_that_expects_tls_from_a_broker_without_it_says_so(tmp_path, broker, tables):
    authority, _key = certificate_authority(tmp_path, "club-ca")
    link = tables[0].connect(ca_file=authority)
    wait_until(lambda: "closed the connection at the TLS greeting" in link.status()["detail"],
               "the plain broker's answer to be told")
    assert link.status()["state"] == "retrying"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_a_broken_club_table_turns_the_link_off_never_weaker(tmp_path):
    good = '[club]\nenabled = true\nbroker = "club.local"\ntable = "table-2"\ntls = true\n'
    config = load_config(write(tmp_path, good), environ={})
    assert config.club.enabled and config.club.tls and config.warnings == ()
    config = load_config(write(tmp_path, good.replace("tls = true", 'tls = "yes"')), environ={})
    path = tmp_path / "config.toml"
    assert not config.club.enabled
    assert config.warnings == (f'{path}: club.tls = "yes": expected true or false; using the default false',
                               f"{path}: [club] club.tls refused: the club link stays off until the table is fixed "
                               f"(never run with a weaker setting)")
    config = load_config(write(tmp_path, good.replace('table = "table-2"', 'table = "table 2!"')), environ={})
    assert not config.club.enabled and "club.table" in config.warnings[0] and "letters, digits" in config.warnings[0]
    config = load_config(write(tmp_path, '[club]\nenabled = true\nbroker = "club.local"\n'), environ={})
    assert not config.club.enabled and config.warnings == (
        f"{path}: [club] club.table not given: the club link stays off until the table is fixed "
        f"(never run with a weaker setting)",)
    config = load_config(write(tmp_path, good.replace("tls = true", 'password_file = "secret.txt"')), environ={})
    assert not config.club.enabled and "club.password_file" in config.warnings[0] and "absolute path" in config.warnings[0]


def test_files_the_link_cannot_read_keep_the_table_alone(tmp_path):
    store = SqliteStore(tmp_path / "state")
    reports: list[str] = []
    try:
        missing = ClubConfig(enabled=True, broker="127.0.0.1", table="table-1", password_file=str(tmp_path / "none"))
        assert open_club(missing, Players(store), reports.append) is None
        assert len(reports) == 1 and str(tmp_path / "none") in reports[0] and "plays alone" in reports[0]
        no_ca = ClubConfig(enabled=True, broker="127.0.0.1", table="table-1", tls=True, ca_file=str(tmp_path / "ca.pem"))
        link = ClubLink(no_ca, Players(store), reports.append)
        assert not link.start() and link.status()["state"] == "off" and len(reports) == 2
        assert open_club(ClubConfig(), Players(store), reports.append) is None  # the default: no link at all
    finally:
        store.close()


def test_the_kiosk_joins_its_club_and_leaves_the_link_for_the_staff_page(tmp_path, broker):
    config = write(tmp_path, f'[storage]\ndirectory = "{tmp_path / "state"}"\n[club]\nenabled = true\n'
                             f'broker = "127.0.0.1"\nport = {broker.port}\ntable = "table-1"\n'
                             f'password_file = "{broker.password_file("table-1")}"\n')
    with Runtime(Launch(str(config), simulate=True), environ={}) as runtime:
        assert runtime.club is not None
        wait_until(lambda: runtime.club.status()["state"] == "connected", "the kiosk's link")
        runtime.status.tick()  # what the UI's clock does once a second
        club = KioskDatabase(tmp_path / "state").status()["club"]
        assert club["state"] == "connected" and club["table"] == "table-1" and club["unsent"] == 0
    assert runtime.club.status()["state"] == "off"  # closed with the kiosk
    alone_config = write(tmp_path, f'[storage]\ndirectory = "{tmp_path / "alone"}"\n')
    with Runtime(Launch(str(alone_config), simulate=True), environ={}) as alone:
        alone.status.tick()
        assert alone.club is None and KioskDatabase(alone.store.path.parent).status()["club"] is None


def test_poisoned_messages_among_good_ones_are_dropped_alone(broker: Broker, tables: list[Table]) -> None:
    """Messages that parse as JSON but cannot be kept (a place of Infinity, a participant the
    database cannot store, thousands of participants, a player merged into itself, a null name)
    are each dropped and counted, and the good ones sent in the same burst are all kept: one bad
    message used to take its whole batch with it, on every reconnection."""
    _, two, _ = tables
    two.connect()
    wait_until(lambda: two.status()["state"] == "connected", "table 2's link")
    sender = raw_client(broker, "table-1")
    try:
        def game(game_id: str, sides: Any = (["p-ana"], ["robot:club"]), ranks: Any = (1, 2)) -> str:
            return json.dumps({"id": game_id, "kind": "tantrix", "finished": 1000.0, "origin": "table-1",
                               "outcome": {"game": game_id, "sides": sides, "ranks": ranks}, "record": None})

        ana = {"id": "p-ana", "name": "Ana", "avatar": "green:star", "created": 1.0, "updated": 1.0,
               "merged_into": None, "deleted": None}
        messages = [("player/p-ana", json.dumps(ana)), ("game/g1", game("g1")),
                    ("game/bad1", game("bad1", ranks=[1, "INF"]).replace('"INF"', "Infinity")),
                    ("game/bad2", game("bad2", sides=[["\\ud800"], ["robot:club"]]).replace("\\\\", "\\")),
                    ("game/bad3", game("bad3", sides=[[f"p{i}" for i in range(5000)], ["robot:club"]])),
                    ("player/p-self", json.dumps({**ana, "id": "p-self", "merged_into": "p-self"})),
                    ("player/p-null", json.dumps({**ana, "id": "p-null", "name": None})),
                    ("game/g2", game("g2"))]
        sent = [sender.publish(f"tantrix/table-1/{topic}", payload, qos=1, retain=True) for topic, payload in messages]
        for info in sent:
            info.wait_for_publish(30)
        wait_until(lambda: two.status()["dropped"] == 5 and len(two.players.shared_games()) == 2,
                   "the 5 bad messages dropped and both good games kept")
        wait_until(lambda: not two.players.stale() and two.players.ladder()[0].games == 2, "Ana's 2 games rated")
        assert [p.name for p in two.players.all()] == ["Ana"]
        assert "unexpected" not in two.status()["detail"]
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_a_garbled_club_evening_among_games_costs_itself_only(broker: Broker, tables: list[Table]) -> None:
    """A table's club evening whose games are not objects, or whose score or clock is Infinity,
    is dropped and counted; the games sent around it are all kept (such an evening used to raise
    past the checks and take its whole batch with it, on every reconnection)."""
    _, two, _ = tables
    two.connect()
    wait_until(lambda: two.status()["state"] == "connected", "table 2's link")
    sender = raw_client(broker, "table-1")
    try:
        def game(n: int) -> str:
            return json.dumps({"id": f"g{n}", "kind": "tantrix", "finished": 1000.0 + n, "origin": "table-1",
                               "outcome": {"game": f"g{n}", "sides": [["p-ana"], ["robot:club"]], "ranks": [1, 2]},
                               "record": None})

        ana = {"id": "p-ana", "name": "Ana", "avatar": "green:star", "created": 1.0, "updated": 1.0,
               "merged_into": None, "deleted": None}
        evening = {"players": ["p-ana", "p-bo"], "rounds": 2, "minutes": 15, "played": [[["p-ana", "p-bo"]]]}
        garbled = [evening, {**evening, "played": [[{"first": "p-ana", "second": "p-bo", "scores": "[1e999, 0]"}]]},
                   {**evening, "played": [], "minutes": "NaN"}]
        messages = [("player/p-ana", json.dumps(ana)), *((f"game/g{n}", game(n)) for n in (1, 2, 3))]
        for said in garbled:
            messages += [("tournament", json.dumps({"tournament": said}).replace('"[1e999, 0]"', "[1e999, 0]")
                          .replace('"NaN"', "NaN"))]
        messages += [(f"game/g{n}", game(n)) for n in (4, 5, 6)]
        sent = [sender.publish(f"tantrix/table-1/{topic}", payload, qos=1, retain=True) for topic, payload in messages]
        for info in sent:
            info.wait_for_publish(30)
        wait_until(lambda: two.status()["dropped"] == 3 and len(two.players.shared_games()) == 6,
                   "the 3 garbled evenings dropped and the 6 games kept")
        assert two.link is not None and two.link.tournaments() == {}
        assert "unexpected" not in two.status()["detail"]
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_a_club_evening_naming_players_as_no_table_would_is_dropped(broker: Broker, tables: list[Table]) -> None:
    """A table's club evening may name players this table has not heard of yet. Those names were
    held to 64 characters of anything: a right-to-left override in one turned the spectator page's
    pairing "Eve – Ann" into "EvennA –", and 64 letters without a space pushed the standings'
    points off a phone's screen (the kiosk's own screens showed them too). A name must now be one
    the table's own keyboard could have typed (``engine.players.clean_name``); an evening naming
    anyone otherwise is dropped and counted, like any other that does not read."""
    from engine.tournament import Tournament
    from firmware.club import CLUB_TOURNAMENTS, TOURNAMENT
    from web.evening import evening_view

    _, two, _ = tables
    two.connect()
    wait_until(lambda: two.status()["state"] == "connected", "table 2's link")
    tournament = Tournament(("p-eve", "p-ann", "p-bo", "p-cy"), rounds=2)
    tournament.pair_next_round()
    two.store.set_progress(TOURNAMENT, {"club": {"table": "table-1", "id": tournament.id}, "playing": None})
    sender = raw_client(broker, "table-1")
    try:
        for names in ({"p-eve": "Eve\u202e", "p-ann": "Ann"}, {"p-bo": "W" * 64}, {"p-cy": "Cy\nLee"}):
            said = {"tournament": tournament.to_json(), "playing": None, "names": names}
            sender.publish("tantrix/table-1/tournament", json.dumps(said), qos=1, retain=True).wait_for_publish(30)
        assert two.link is not None
        wait_until(lambda: two.status()["dropped"] == 3 or two.link.tournaments(), "the evenings read")
        assert two.link.tournaments() == {} and two.status()["dropped"] == 3
        assert two.store.progress(CLUB_TOURNAMENTS).get("tables", {}) == {}
        assert evening_view(KioskDatabase(two.store.path.parent)) is None  # nothing for the spectator page
        said = {"tournament": tournament.to_json(), "playing": None, "names": {"p-eve": "Ève", "p-ann": "Ann-Marie O'Neil"}}
        sender.publish("tantrix/table-1/tournament", json.dumps(said), qos=1, retain=True).wait_for_publish(30)
        wait_until(lambda: "table-1" in two.link.tournaments(), "a well-named evening kept")
        assert two.link.tournaments()["table-1"]["names"] == said["names"]
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_a_rename_after_a_table_whose_clock_is_ahead_wins_on_every_table(tables: list[Table],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Table 1's clock runs a day ahead when its staff rename Ana; staff at table 2, whose clock is
    right, rename her afterwards. The later rename must win on both tables (it used to be stamped
    earlier than the name it replaced, so each table kept its own)."""
    one, two, _ = tables
    one.connect(), two.connect()
    ana = one.players.create("Ana")
    wait_until(lambda: two.players.all() == [ana], "Ana at table 2")
    ahead = time.time() + 86400
    monkeypatch.setattr("firmware.players.time", SimpleNamespace(time=lambda: ahead))
    one.players.rename(ana.id, "Anna")
    monkeypatch.undo()
    wait_until(lambda: two.players.get(ana.id).name == "Anna", "Anna at table 2")
    two.players.rename(ana.id, "Ana Lee")
    wait_until(lambda: one.players.get(ana.id).name == two.players.get(ana.id).name == "Ana Lee",
               "the later rename on both tables")


def test_a_message_that_passes_the_checks_but_cannot_be_kept_costs_itself_only(
        broker: Broker, tables: list[Table], monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a bug nobody foresaw makes of one message (here the store refusing game g2), the
    batch it came in is kept one by one around it, and it is dropped and counted."""
    _, two, _ = tables
    take = two.players.take

    def refuses_g2(players: Any = (), games: Any = ()) -> tuple[int, int]:
        games = list(games)
        if any(game.id == "g2" for game in games):
            raise sqlite3.InterfaceError("a value the database cannot bind")
        return take(players, games)

    monkeypatch.setattr(two.players, "take", refuses_g2)
    two.connect()
    wait_until(lambda: two.status()["state"] == "connected", "table 2's link")
    sender = raw_client(broker, "table-1")
    try:
        ana = {"id": "p-ana", "name": "Ana", "avatar": "green:star", "created": 1.0, "updated": 1.0,
               "merged_into": None, "deleted": None}
        messages = [("player/p-ana", json.dumps(ana))] + [
            (f"game/g{n}", json.dumps({"id": f"g{n}", "kind": "tantrix", "finished": 1000.0 + n, "origin": "table-1",
                                       "outcome": {"game": f"g{n}", "sides": [["p-ana"], ["robot:club"]],
                                                   "ranks": [1, 2]}, "record": None})) for n in (1, 2, 3)]
        sent = [sender.publish(f"tantrix/table-1/{topic}", payload, qos=1, retain=True) for topic, payload in messages]
        for info in sent:
            info.wait_for_publish(30)
        wait_until(lambda: two.status()["dropped"] == 1 and len(two.players.shared_games()) == 2,
                   "g2 dropped, g1 and g3 kept")
        assert [game.id for game in two.players.shared_games()] == ["g1", "g3"]
        assert [p.name for p in two.players.all()] == ["Ana"] and "unexpected" not in two.status()["detail"]
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_two_tables_apart_merging_two_players_into_each_other_agree_on_one(tables: list[Table]) -> None:
    """Table 1, cut off, merges Ana into Anna; table 2, cut off too, merges Anna into Ana. Back
    together, each player is merged into the other: a circle, which hid both everywhere (setup,
    ladder, staff). Every table must keep the same one of them, with both players' games."""
    one, two, three = tables
    for table in tables:
        table.connect()
    ana, anna = one.players.create("Ana"), one.players.create("Anna")
    wait_until(lambda: all(len(t.players.all()) == 2 for t in tables), "both players everywhere")
    one.play(ana.id, None)
    two.play(anna.id, None)
    one.players.add_best(ana.id, "solitaire", 30)
    wait_until(lambda: all_alike(tables, 2), "both games everywhere")
    one.cut_off(), two.cut_off()
    one.players.merge(ana.id, anna.id)
    two.players.merge(anna.id, ana.id)
    one.connect(), two.connect()
    kept = min(ana.id, anna.id)  # the circle's smallest id: the same choice on every table
    wait_until(lambda: all_alike(tables, 2) and all([p.id for p in t.players.all()] == [kept] for t in tables),
               "one player, the same, on every table")
    for table in tables:
        assert [(row.player.id, row.games) for row in table.players.ladder()] == [(kept, 2)]
        assert len(table.players.results(kept)) == 2 and table.players.get(kept).id == kept
    assert one.players.bests(kept) == {"solitaire": 30}  # the best followed the merges at table 1


@pytest.mark.parametrize("earlier", [True, False], ids=["its-version-wins", "the-genuine-wins"])
def test_a_game_id_sent_again_with_other_content_leaves_one_version_on_every_table(
        broker: Broker, tables: list[Table], earlier: bool) -> None:
    """Table 1, cut off, plays a game; meanwhile a rogue with table 3's password sends another
    game under that game's id (Bo winning, dated ``earlier`` or later). Table 2 gets the rogue's
    first, table 1 its own: each used to keep the first it had, so their ladders differed. Every
    table, and one that joins afterwards, must keep the same version (the one that finished
    first), and staff are told."""
    one, two, three = tables
    one.connect(), two.connect()
    ana, bo = one.players.create("Ana"), one.players.create("Bo")
    wait_until(lambda: len(two.players.all()) == 2, "both players at table 2")
    one.cut_off()
    game = one.play(ana.id, bo.id)
    genuine = one.players.shared_games()[0]
    rogue = {"id": game, "kind": "tantrix", "finished": genuine.finished + (-60 if earlier else 60),
             "origin": "table-3", "outcome": {"game": game, "sides": [[bo.id], [ana.id]], "ranks": [1, 2]},
             "record": {"forged": True}}
    sender = raw_client(broker, "table-3")
    try:
        sender.publish(f"tantrix/table-3/game/{game}", json.dumps(rogue), qos=1, retain=True).wait_for_publish(30)
        wait_until(lambda: len(two.players.shared_games()) == 1, "the rogue's version at table 2")
        one.connect()  # it gets the rogue's version after its own, and table 2 the genuine after the rogue's
        kept = rogue["outcome"]["sides"][0] if earlier else [ana.id]
        winner = lambda table: [g.outcome.sides[0] for g in table.players.shared_games()] == [tuple(kept)]  # noqa: E731
        wait_until(lambda: all_alike([one, two], 1) and winner(one), "one version of the game at tables 1 and 2")
        wait_until(lambda: one.status()["unsent"] == 0, "table 1 to have shared what it keeps")
        three.connect()  # joins afterwards: it has only what the broker retains
        wait_until(lambda: all_alike(tables, 1) and winner(three), "the same version at table 3")
        assert one.players.ladder()[0].player.id == (bo.id if earlier else ana.id)
        told = one.reports if earlier else two.reports
        assert any(game in report and "two versions" in report for report in told)
        assert all(table.status()["dropped"] == 0 for table in tables)
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_a_club_evening_runs_on_two_tables(broker: Broker, tables: list[Table]) -> None:
    """Table 1 runs a tournament; table 2 hears of it, says which pairing it plays, and plays it while
    table 1 is cut off; table 1, back, finds the result in the game's record (once, however often it
    looks), and pairs the next round when its own game ends the first, which table 2 then sees. Table
    2 restarted with no broker still knows the evening; a garbled evening is dropped and counted."""
    from types import SimpleNamespace

    from engine.strategy.game import StrategyGame
    from engine.tournament import Tournament, entry
    from ui import tournament_store

    one, two, _ = tables
    one.connect()
    two.connect()
    ids = [one.players.create(name).id for name in ("Ana", "Bo", "Cy", "Di")]
    host: Any = SimpleNamespace(services=SimpleNamespace(store=one.store, players=one.players, club=one.link))
    guest: Any = SimpleNamespace(services=SimpleNamespace(store=two.store, players=two.players, club=two.link))
    tournament = Tournament(tuple(ids), rounds=2, minutes=0, started=time.time())
    tournament.pair_next_round()
    tournament_store.save(host, tournament)
    assert two.link is not None and one.link is not None
    wait_until(lambda: "table-1" in two.link.tournaments(), "table 2 to hear of the evening")
    shown = two.link.tournaments()["table-1"]
    assert Tournament.from_json(shown["tournament"]).played == tournament.played
    assert shown["names"] == {i: n for i, n in zip(ids, ("Ana", "Bo", "Cy", "Di"))}
    assert tournament_store.running_elsewhere(guest) == "table-1"
    mine, theirs = tournament.played[0]
    game = StrategyGame.new(2, "RY", [None, None], seed=5)
    tournament_store.start_game(guest, tournament, "table-1", theirs.first, theirs.second, game)
    wait_until(lambda: tournament_store.playing_at(host, tournament.id) == {
        frozenset((theirs.first, theirs.second)): "table-2"}, "table 1 to see the game at table 2")
    one.cut_off()
    two.play(theirs.first, theirs.second, winner=1, tournament=entry(tournament.id, 1, theirs.first, theirs.second,
                                                                     (7, 10)))
    tournament_store.report(guest, {"id": tournament.id})  # the game's end at table 2: nothing more to keep
    assert two.store.progress("tournament") == {"club": {"table": "table-1", "id": tournament.id}, "playing": None}
    one.connect()
    wait_until(lambda: (tournament_store.load(host) or tournament).played[0][1].scores is not None,
               "table 1 to enter table 2's result")
    kept = tournament_store.load(host)
    assert kept is not None and kept.played[0][1].scores == (7, 10) and len(kept.played) == 1
    # table 1's own game ends the round: the next is paired, and table 2 sees it
    one.play(mine.first, mine.second, tournament=entry(tournament.id, 1, mine.first, mine.second, (10, 7)))
    tournament_store.follow(host)
    kept = tournament_store.load(host)
    assert kept is not None and len(kept.played) == 2 and [s.points for s in kept.standings()][:2] == [1.0, 1.0]
    assert tournament_store.load(host) == kept  # found again among the games: entered once
    wait_until(lambda: len(two.link.tournaments()["table-1"]["tournament"]["played"]) == 2,
               "table 2 to see the second round")
    # a garbled evening from table 3 is dropped and counted; table 1's stays
    sender = raw_client(broker, "table-3")
    try:
        before = two.status()["dropped"]
        sender.publish("tantrix/table-3/tournament", json.dumps({"tournament": {"players": ["a"], "rounds": 1}}),
                       qos=1, retain=True).wait_for_publish(30)
        crowd = Tournament(tuple(f"p{i}" for i in range(300)), rounds=1).to_json()  # a screen of 300 rows
        sender.publish("tantrix/table-3/tournament", json.dumps({"tournament": crowd}), qos=1,
                       retain=True).wait_for_publish(30)
        wait_until(lambda: two.status()["dropped"] == before + 2, "the garbled evenings dropped")
    finally:
        sender.loop_stop()
        sender.disconnect()
    assert set(two.link.tournaments()) == {"table-1"}
    # table 2 restarted with the broker away still knows the evening (a link that never connects)
    alone = ClubLink(ClubConfig(enabled=True, broker="127.0.0.1", port=free_port(), table="table-2"), two.players,
                     store=two.store)
    assert len(alone.tournaments()["table-1"]["tournament"]["played"]) == 2
    # table 1 ends it: the club hears that too
    tournament_store.save(host, None)
    wait_until(lambda: "table-1" not in two.link.tournaments() and "table-1" not in ClubLink(
        ClubConfig(enabled=True, table="table-2"), two.players, store=two.store).tournaments(),
        "table 2 to hear the evening's end, and keep it")


def test_an_evening_word_keeps_how_often_it_was_taken_over_and_refuses_a_garbled_count() -> None:
    """What a table hears of another's evening (``club_evening``) keeps its ``generation``, which
    decides between two tables that both say they run it (``engine.evening.runner``)."""
    from engine.tournament import Tournament
    from firmware.club import BadShare, club_evening

    tournament = Tournament(("a", "b"), rounds=1)
    tournament.pair_next_round()
    said = {"tournament": tournament.to_json(), "playing": None}
    assert "generation" not in club_evening(said) and "generation" not in club_evening({**said, "generation": 0})
    assert club_evening({**said, "generation": 3})["generation"] == 3
    for garbled in (-1, "2", 2.5, True, 10**9):
        with pytest.raises(BadShare):
            club_evening({**said, "generation": garbled})
    tournament.withdraw("a")  # who left and the game they forfeited travel with the evening
    heard = club_evening({"tournament": tournament.to_json()})["tournament"]
    assert heard["withdrawn"] == ["a"] and heard["played"][0][0]["forfeit"] == "a"
    with pytest.raises(BadShare):
        club_evening({"tournament": {**tournament.to_json(), "withdrawn": ["nobody"]}})
    # the evenings a table ended after taking them over travel too, checked
    notes = [{"id": tournament.id, "generation": 2}]
    assert club_evening({"ended": notes}) == {"ended": notes}
    assert club_evening({**said, "ended": [{**notes[0], "by": "x"}]})["ended"] == notes
    for garbled in ({"id": tournament.id}, {"id": "", "generation": 1}, {"id": "x" * 65, "generation": 1},
                    {"id": tournament.id, "generation": -1}, "an id"):
        with pytest.raises(BadShare):
            club_evening({"ended": [garbled]})
    with pytest.raises(BadShare):
        club_evening({"ended": notes * 257})


def _kiosk(table: Table) -> Any:
    """``table`` as ``ui.tournament_store`` reads it (the kiosk's services)."""
    return SimpleNamespace(services=SimpleNamespace(store=table.store, players=table.players, club=table.link))


def _evening_run_by_table_1(tables, rounds: int):
    """Three connected tables; table 1 runs a club evening of four players, its first round paired,
    and tables 2 and 3 have heard of it: each table's kiosk services, and the evening."""
    from engine.tournament import Tournament
    from ui import tournament_store

    one, two, three = tables
    for table in tables:
        table.connect()
    ids = [one.players.create(name).id for name in ("Ana", "Bo", "Cy", "Di")]
    kiosks = _kiosk(one), _kiosk(two), _kiosk(three)
    tournament = Tournament(tuple(ids), rounds=rounds, minutes=0, started=time.time())
    tournament.pair_next_round()
    tournament_store.save(kiosks[0], tournament)
    wait_until(lambda: all("table-1" in t.link.tournaments() and len(t.players.all()) == 4 for t in (two, three)),
               "tables 2 and 3 to hear of the evening")
    return kiosks, tournament


def test_a_result_played_while_the_broker_is_away_shows_where_it_was_played_and_counts_once(
        broker: Broker, tables: list[Table]) -> None:
    """The broker goes away mid-evening; table 2 plays its pairing meanwhile, table 1 its own. Each
    table's evening (its screen, its spectator page) shows the result played there at once, not the
    pairing still waiting with Play as if nobody had played it; back, table 1 enters table 2's
    result once, pairs the next round, and every table shows the same standings."""
    from engine.strategy.game import StrategyGame
    from engine.tournament import entry
    from ui import tournament_store
    from web.evening import evening_view

    one, two, three = tables
    (host, guest, watcher), tournament = _evening_run_by_table_1(tables, rounds=2)
    assert two.link is not None and two.link.connected()
    mine, theirs = tournament.played[0]
    tournament_store.start_game(guest, tournament, "table-1", theirs.first, theirs.second,
                                StrategyGame.new(2, "RY", [None, None], seed=5))
    broker.stop()
    two.play(theirs.first, theirs.second, winner=1,
             tournament=entry(tournament.id, 1, theirs.first, theirs.second, (7, 10)))
    tournament_store.report(guest, {"id": tournament.id})
    one.play(mine.first, mine.second, tournament=entry(tournament.id, 1, mine.first, mine.second, (10, 7)))
    tournament_store.follow(host)

    def shown(kiosk: Any) -> tuple[list[Any], list[float]]:
        """The round's results and the points, as the tournament screen shows them."""
        found = tournament_store.club_tournament(kiosk, "table-1")
        assert found is not None
        return [g.scores for g in found[0].played[0]], sorted(s.points for s in found[0].standings())

    # table 2 shows the result its players just made (before: their pairing still waiting, with
    # Play), and so does the spectator page at table 2; table 3 has heard nothing, nor paired
    assert shown(guest) == ([None, (7, 10)], [0.0, 0.0, 0.0, 1.0])
    page = evening_view(KioskDatabase(two.store.path.parent))
    assert page is not None and [p["scores"] for p in page["pairings"]] == [None, [7, 10]]
    assert sorted(row["points"] for row in page["standings"]) == [0.0, 0.0, 0.0, 1.0]
    assert shown(watcher) == ([None, None], [0.0, 0.0, 0.0, 0.0])
    broker.start()
    wait_until(lambda: len((tournament_store.load(host) or tournament).played) == 2, "table 1 to pair round 2", 60)
    kept = tournament_store.load(host)
    assert kept is not None and [g.scores for g in kept.played[0]] == [(10, 7), (7, 10)]
    assert sorted(s.points for s in kept.standings()) == [0.0, 0.0, 1.0, 1.0]  # each result once
    for table, kiosk in ((two, guest), (three, watcher)):
        wait_until(lambda: len(table.link.tournaments()["table-1"]["tournament"]["played"]) == 2,
                   f"{table.name} to hear round 2", 60)
        found = tournament_store.club_tournament(kiosk, "table-1")
        assert found is not None and found[0].standings() == kept.standings() and found[0].played == kept.played


def test_a_result_played_at_a_table_whose_clock_is_a_month_behind_counts(
        broker: Broker, tables: list[Table]) -> None:
    """Table 2 has no battery clock and the club's network no time server: it runs on the time it
    saved when it was last switched off, a month ago. Its game of table 1's evening finished, by its
    clock, a month before the evening began (before: table 1 never entered the result, the round
    waited for ever, and table 2's own screen showed the pairing still to play)."""
    from engine.tournament import entry
    from ui import tournament_store

    one, two, _ = tables
    (host, guest, _watcher), tournament = _evening_run_by_table_1(tables, rounds=2)
    mine, theirs = tournament.played[0]
    month_ago = time.time() - 30 * 86400
    game = two.play(theirs.first, theirs.second, winner=1, finished=month_ago,
                    tournament=entry(tournament.id, 1, theirs.first, theirs.second, (7, 10)))
    wait_until(lambda: game in {g.id for g in one.players.shared_games()}, "table 1 to hold table 2's game")
    one.play(mine.first, mine.second, tournament=entry(tournament.id, 1, mine.first, mine.second, (10, 7)))
    tournament_store.follow(host)
    kept = tournament_store.load(host)
    assert kept is not None and [g.scores for g in kept.played[0]] == [(10, 7), (7, 10)] and len(kept.played) == 2
    found = tournament_store.club_tournament(guest, "table-1")
    assert found is not None and found[0].played[0][1].scores == (7, 10)


def test_an_evening_ended_at_the_table_that_took_it_over_stays_ended_when_its_first_table_returns(
        broker: Broker, tables: list[Table]) -> None:
    """Table 1 runs a three-round evening and breaks; table 2 takes it over, plays round 1, and its
    staff end the evening early, then start next week's. Table 1, switched on again days later,
    still holds the old evening: it must give it up, not run it again (before: it did, and every
    table's home screen and spectator page showed last week's evening, round 2 of 3, waiting)."""
    from engine.tournament import Tournament, entry
    from ui import tournament_store
    from web.evening import evening_view

    one, two, three = tables
    (first, taker, watcher), old = _evening_run_by_table_1(tables, rounds=3)
    one.cut_off()  # its screen broke
    taken = tournament_store.take_over(taker, "table-1")
    assert taken is not None and taken.id == old.id
    for game in taken.played[0]:
        two.play(game.first, game.second, tournament=entry(old.id, 1, game.first, game.second, (10, 7)))
    tournament_store.follow(taker)
    assert len((tournament_store.load(taker) or old).played) == 2
    tournament_store.save(taker, None)  # staff end it after round 1
    new = Tournament(old.players[:2], rounds=1, minutes=0, started=time.time())  # next week's
    new.pair_next_round()
    tournament_store.save(taker, new)
    wait_until(lambda: (three.link.tournaments().get("table-2") or {}).get("tournament", {}).get("id") == new.id,
               "table 3 to hear of the new evening")
    one.connect()  # back, days later
    first.services.club = one.link
    wait_until(lambda: (one.link.tournaments().get("table-2") or {}).get("tournament", {}).get("id") == new.id,
               "table 1 to hear of the new evening", 60)
    assert tournament_store.load(first) is None  # the old evening is over here too
    wait_until(lambda: (three.link.tournaments().get("table-1") or {}).get("tournament") is None,
               "table 3 to hear table 1 gave it up", 60)
    for kiosk in (first, taker, watcher):
        found = tournament_store.evening(kiosk)
        assert found is not None and found[1].id == new.id, kiosk.services.club.table
    for table in tables:
        page = evening_view(KioskDatabase(table.store.path.parent))
        assert page is not None and page["table"] in (None, "table-2") and page["rounds"] == 1, table.name


def test_a_broker_whose_port_another_took_meanwhile_listens_on_another_port(tmp_path, monkeypatch):
    """The tests' ``Broker`` took a connection to its port as mosquitto listening; a port another
    program took between ``free_port`` and mosquitto's bind (the other xdist worker's broker)
    made the test talk to that other broker, this one having exited. It now waits for its own
    mosquitto's word, and trades the taken port for another."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        ports = iter([taken.getsockname()[1]])
        monkeypatch.setattr(mqtt_broker, "free_port", lambda: next(ports, None) or free_port())
        with Broker(tmp_path / "broker", tables=("table-1",)) as broker:
            assert broker.port != taken.getsockname()[1]
            client = raw_client(broker, "table-1")  # this broker: it knows table 1's password
            client.loop_stop()
            client.disconnect()
