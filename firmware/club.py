"""A club's tables as one: players, rated games and so the ladder, shared through an MQTT broker.

Why MQTT, Mosquitto and Paho: MQTT is the messaging protocol made for fleets of small devices on
unreliable networks (retained messages, a last will, acknowledged delivery); Mosquitto is the broker
Debian packages (``apt install mosquitto``), small enough to run on one of the tables; Eclipse Paho
is the reference Python client, with its own network thread and reconnection.

The broker is the club's ledger. Every message is published with QoS 1 (acknowledged) and
*retained*, one topic per thing, so a table that joins late, or comes back, receives everything
the club holds when it subscribes::

    <topic>/<table>/game/<game id>     a rated game played at <table> (firmware.players.SharedGame)
    <topic>/<table>/player/<id>        <table>'s view of a player (firmware.players.SharedPlayer)
    <topic>/<table>/state              {"online": bool, "at": t}; the broker says false (the last
                                       will) when the table drops off without saying goodbye;
                                       status() shows when each was heard here
    <topic>/<table>/tournament         <table>'s club evening as its store keeps it (the progress
                                       key ui.services.TOURNAMENT): the tournament it runs, or the
                                       game of another table's tournament it plays; {} for none

A club evening thus runs on several tables: each shows the tournaments the others run
(:meth:`ClubLink.tournaments`) and plays their pairings; a game's result travels in its record
with the rated game, and the table running the tournament enters it (``ui.tournament_store``).
What the other tables said of their tournaments is kept in the store (``CLUB_TOURNAMENTS``), so a
table restarted while the broker is away still shows them.

A table writes only under its own name, so the broker's access control can give each table its
own credentials and let it write nothing else (README: "A club's tables"); a game whose ``origin``
is not the table it came from is dropped. Everything received is checked and a message that does
not fit is dropped and counted; nothing received can raise here.

Nothing is counted twice: a game's id is its key in the database, so a game received twice (a
redelivery, our own message coming back, two tables' catch-ups crossing) is kept once; an id sent again with other content (a forged game,
a table restored from an old copy finishing a game again) leaves the same version on every table,
whatever arrived first (``players.SharedGame.version``), and staff are told. Nothing is
lost while the broker is away: the database marks what the broker has acknowledged
(``players.unshared``), so a table that was offline, or powered off, publishes what it missed from
its SQLite store when it is back; and its retained messages bring it what the others played.

Threads: Paho's network thread only queues what arrives; one worker thread of ours writes to the
store (many received messages in one transaction, the ratings computed once they are all in and
outside the store's lock: ``Players.rerate``) and publishes. The UI thread never waits for the
network: :meth:`ClubLink.start` resolves and connects nothing itself, and a broker that is down is
retried with a growing delay (``reconnect``, 1 s doubling to 2 minutes), its state in
:meth:`ClubLink.status` (the staff web page).
"""

from __future__ import annotations

import json
import logging
import queue
import ssl
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine.players import BadName, clean_name
from engine.tournament import Tournament
from ui.services import TOURNAMENT as TOURNAMENT  # re-exported: the web page reads the key too

from .config import ClubConfig
from .players import BadShare, Players, SharedGame, SharedPlayer
from .store import SqliteStore

log = logging.getLogger(__name__)

MAX_PAYLOAD = 256 * 1024
"""The largest message taken (a long game's record is a few kB)."""
BATCH = 50
"""Received messages kept in one transaction (catching up is one write per batch, not per game)."""
POLL_SECONDS = 0.5
"""How often the worker looks for games and players changed here (a query of a partial index)."""
KEEPALIVE_SECONDS = 30
CLUB_TOURNAMENTS = "club-tournaments"
"""The store's progress key of what the other tables last said of their club evenings."""
MAX_ID = 64
"""The longest tournament id an evening said ended may carry (ids are 32 hex digits)."""
MAX_NAMES = 256
"""The most players (and rounds) a table's club evening may carry: a club's evening is far smaller,
and a table ranks every player of it on screen each second."""


class ClubLink:
    """This table's link to the club's broker. ``report`` receives problems for staff (once each).

    ``reconnect`` is the first and the longest delay between attempts to reach the broker."""

    def __init__(self, config: ClubConfig, players: Players, report: Callable[[str], None] = lambda m: None,
                 *, store: SqliteStore | None = None, reconnect: tuple[int, int] = (1, 120),
                 poll: float = POLL_SECONDS) -> None:
        self.config = config
        self._players = players
        self._store = store  # None: no club evening shown or kept (the players' part alone)
        kept = store.progress(CLUB_TOURNAMENTS) if store is not None else {}
        self._tournaments: dict[str, dict[str, Any]] = {}
        for table, shown in (kept.get("tables") or {}).items() if isinstance(kept.get("tables"), dict) else ():
            try:
                self._tournaments[str(table)] = club_evening(shown)
            except BadShare:
                continue  # damaged since: the table says it again when the broker is back
        self._tournaments_changed = False
        self._shown_sent: str | None = None
        self._report = report
        self._reconnect = reconnect
        self._poll = poll
        self._events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._in_flight: dict[int, SharedGame | SharedPlayer] = {}
        self._lock = threading.Lock()
        self._state = "off"
        self._detail = ""
        self._since = time.time()
        self._counts = {"received games": 0, "received players": 0, "published": 0, "dropped": 0}
        self._tables: dict[str, dict[str, Any]] = {}
        self._unsent = 0
        self._client: mqtt.Client | None = None
        self._worker: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def prefix(self) -> str:
        return f"{self.config.topic}/{self.config.table}"

    @property
    def table(self) -> str:
        return self.config.table

    def tournaments(self) -> dict[str, dict[str, Any]]:
        """What each other table last said of its club evening (``ui.services.ClubView``)."""
        with self._lock:
            return {table: dict(shown) for table, shown in sorted(self._tournaments.items()) if shown}

    def online(self, table: str) -> bool:
        with self._lock:
            return bool(self._tables.get(table, {}).get("online"))

    def connected(self) -> bool:
        """Whether this table is connected to the broker now (``ui.services.ClubView``)."""
        with self._lock:
            return self._state == "connected"

    # ---------------------------------------------------------------------------- life

    def start(self) -> bool:
        """Begin connecting in the background; False (and a report) if the link cannot be set up
        here (the password file or the CA file cannot be read): the table then plays alone."""
        try:
            client = self._make_client()
        except (OSError, ValueError, ssl.SSLError) as exc:
            self._set_state("off", f"the club link cannot start: {exc}")
            self._report(f"[club]: the club link cannot start ({exc}); this table plays alone")
            return False
        self._client = client
        self._set_state("connecting", f"{self.config.broker}:{self.config.port}")
        client.connect_async(self.config.broker, self.config.port, keepalive=KEEPALIVE_SECONDS)
        client.loop_start()
        self._worker = threading.Thread(target=self._work, name="club-link", daemon=True)
        self._worker.start()
        return True

    def close(self) -> None:
        """Say goodbye to the club (this table is offline) and stop both threads."""
        self._stopping.set()
        self._events.put(("stop", None))
        if self._worker is not None:
            self._worker.join()
        client = self._client
        if client is not None:
            if client.is_connected():
                info = client.publish(self._state_topic(), self._state_payload(False), qos=1, retain=True)
                try:
                    info.wait_for_publish(timeout=2.0)
                except (RuntimeError, ValueError):
                    pass  # the goodbye is a courtesy: the last will says the same
            client.disconnect()
            client.loop_stop()
        self._set_state("off", "stopped")

    def __enter__(self) -> ClubLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def status(self) -> dict[str, Any]:
        """The link as staff see it: ``state`` (connecting, connected, retrying, refused, off), why,
        since when, what is not yet acknowledged, what came and what was dropped, the other tables."""
        with self._lock:
            return {"table": self.config.table, "broker": f"{self.config.broker}:{self.config.port}",
                    "tls": self.config.tls, "state": self._state, "detail": self._detail, "since": self._since,
                    "unsent": self._unsent, **{k.replace(" ", "_"): v for k, v in self._counts.items()},
                    "tables": {name: dict(seen) for name, seen in sorted(self._tables.items())}}

    # ------------------------------------------------------------------------ the client

    def _make_client(self) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"tantrix-{self.config.table}",
                             protocol=mqtt.MQTTv311)
        if self.config.password_file:
            password = Path(self.config.password_file).read_text(encoding="utf-8").strip()
            client.username_pw_set(self.config.table, password)
        else:
            client.username_pw_set(self.config.table)
        if self.config.tls:
            client.tls_set(ca_certs=self.config.ca_file or None, cert_reqs=ssl.CERT_REQUIRED,
                           tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.will_set(self._state_topic(), self._state_payload(False), qos=1, retain=True)
        client.enable_logger(log)
        client.reconnect_delay_set(*self._reconnect)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        return client

    # Paho's callbacks run on its network thread: they note and queue, nothing more.

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self._set_state("refused", f"the broker refused this table: {reason}")
            return
        self._set_state("connected", f"{self.config.broker}:{self.config.port}")
        topic = self.config.topic
        client.subscribe([(f"{topic}/+/game/+", 1), (f"{topic}/+/player/+", 1), (f"{topic}/+/state", 1),
                          (f"{topic}/+/tournament", 1)])
        client.publish(self._state_topic(), self._state_payload(True), qos=1, retain=True)
        self._events.put(("connected", None))

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        # Paho calls this while it handles the connection's OSError: that error says what staff
        # must fix. A broker whose certificate the table does not trust is refused (never a
        # fallback to an unchecked link); Paho keeps trying, so a fixed certificate connects.
        error = sys.exc_info()[1]
        where = f"{self.config.broker}:{self.config.port}"
        if isinstance(error, ssl.SSLCertVerificationError):
            self._set_state("refused", f"the certificate of {where} is not trusted ({error.verify_message}): "
                                       f"check [club] ca_file and broker")
        elif isinstance(error, ssl.SSLError):
            self._set_state("refused", f"no secure connection with {where} ({error.reason or error}): "
                                       f"does it listen with TLS on that port?")
        elif isinstance(error, ConnectionResetError) and self.config.tls:  # a plain listener drops the greeting
            self._set_state("retrying", f"{where} closed the connection at the TLS greeting: does it listen "
                                        f"with TLS on that port? Trying again")
        else:
            self._set_state("retrying", f"cannot reach {where}; trying again")

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if not self._stopping.is_set() and self._state != "refused":  # a refusal stays shown until a success
            self._set_state("retrying", f"lost the broker ({reason}); trying again")

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._events.put(("message", (message.topic, message.payload)))

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._events.put(("acknowledged", mid))

    # --------------------------------------------------------------------------- the worker

    def _work(self) -> None:
        """Take what arrived, mark what the broker acknowledged, publish what it lacks."""
        while True:
            try:
                events = [self._events.get(timeout=self._poll)]
            except queue.Empty:
                events = []
            while len(events) < BATCH:
                try:
                    events.append(self._events.get_nowait())
                except queue.Empty:
                    break
            if any(kind == "stop" for kind, _ in events):
                return
            if any(kind == "connected" for kind, _ in events):
                self._shown_sent = None  # say it again: the broker may have lost it
            try:
                self._take([value for kind, value in events if kind == "message"])
                self._players.mark_shared([self._in_flight.pop(mid) for kind, mid in events
                                           if kind == "acknowledged" and mid in self._in_flight])
                if self._events.empty() and self._players.stale():
                    self._players.rerate()  # once what arrived is in: the ratings, off the store's lock
                self._keep_tournaments()
                self._publish_unshared()
                self._publish_shown()
            except Exception:  # never let the worker die: the table keeps playing, staff see it
                log.exception("club link: unexpected error")
                self._set_state(self._state, "an unexpected error in the club link (see the log)")

    def _take(self, messages: list[tuple[str, bytes]]) -> None:
        players: list[SharedPlayer] = []
        games: list[SharedGame] = []
        for topic, payload in messages:
            try:
                found = self._read(topic, payload)
            except BadShare as exc:
                self._dropped(f"a message on {topic[:120]}", exc)
                continue
            except Exception as exc:  # a check nobody foresaw failing: the message costs itself, not its batch
                log.exception("club link: reading a message on %s failed", topic[:120])
                self._dropped(f"a message on {topic[:120]}", exc)
                continue
            if isinstance(found, SharedPlayer):
                players.append(found)
            elif isinstance(found, SharedGame):
                games.append(found)
        if not players and not games:
            return
        try:
            new = self._players.take(players, games)[1]
        except Exception:  # one passed the checks yet cannot be kept: keep the others one by one
            log.exception("club link: a batch of %d messages could not be kept whole", len(players) + len(games))
            every: list[SharedPlayer | SharedGame] = [*players, *games]
            new = sum(self._take_one(shared) for shared in every)
        with self._lock:
            self._counts["received players"] += len(players)
            self._counts["received games"] += new

    def _take_one(self, shared: SharedPlayer | SharedGame) -> int:
        """Keep one player or one game alone (how many games were new); one that cannot be kept is
        dropped and counted, so a message nobody foresaw costs itself only, never its batch."""
        players: list[SharedPlayer] = [shared] if isinstance(shared, SharedPlayer) else []
        games: list[SharedGame] = [shared] if isinstance(shared, SharedGame) else []
        try:
            return self._players.take(players, games)[1]
        except Exception as exc:
            self._dropped(f"{type(shared).__name__} {shared.id}", exc)
            return 0

    def _dropped(self, what: str, why: Exception) -> None:
        with self._lock:
            self._counts["dropped"] += 1
        log.warning("club link: dropped %s: %s", what, why)

    def _read(self, topic: str, payload: bytes) -> SharedGame | SharedPlayer | None:
        """One message, checked against its topic; BadShare names what does not fit; None for a
        table's state (noted here) or a cleared topic."""
        words = topic.split("/")
        base = self.config.topic.split("/")
        if words[:len(base)] != base or len(words) not in (len(base) + 2, len(base) + 3):
            raise BadShare("a topic this table does not use")
        table, *rest = words[len(base):]
        if not payload:  # a retained message cleared by an administrator
            if rest == ["tournament"]:
                self._heard_of_evening(table, {})
            return None
        if len(payload) > MAX_PAYLOAD:
            raise BadShare(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
        try:
            data = json.loads(payload)
        except (ValueError, RecursionError):
            raise BadShare("not JSON") from None
        if not isinstance(data, dict):
            raise BadShare("not a JSON object")
        if rest == ["tournament"]:
            self._heard_of_evening(table, club_evening(data))
            return None
        if rest == ["state"]:
            if not isinstance(data.get("online"), bool) or not isinstance(data.get("at"), (int, float)):
                raise BadShare("a state without online and at")
            if table != self.config.table:
                with self._lock:
                    self._tables[table] = {"online": data["online"], "heard": time.time()}
            return None
        if len(rest) != 2 or rest[0] not in ("game", "player"):
            raise BadShare("a topic this table does not use")
        if rest[0] == "game":
            game = SharedGame.from_json(data)
            if game.id != rest[1] or game.origin != table:
                raise BadShare(f"game {game.id} of {game.origin} published as {table}'s game {rest[1]}")
            return game
        player = SharedPlayer.from_json(data)
        if player.id != rest[1]:
            raise BadShare(f"player {player.id} published as player {rest[1]}")
        return player

    def _heard_of_evening(self, table: str, shown: dict[str, Any]) -> None:
        if table != self.config.table:
            with self._lock:
                if self._tournaments.get(table) != shown:
                    self._tournaments[table] = shown
                    self._tournaments_changed = True

    def _publish_unshared(self) -> None:
        games, players = self._players.unshared()
        with self._lock:
            self._unsent = len(games) + len(players)
        client = self._client
        if client is None or not client.is_connected():
            return
        waiting = {self._key(item) for item in self._in_flight.values()}
        to_send: list[SharedGame | SharedPlayer] = [*players, *games]
        for item in to_send:
            if self._key(item) in waiting:
                continue  # Paho sends it again after a reconnection; its acknowledgement will come
            if isinstance(item, SharedGame):
                topic = f"{self.prefix}/game/{item.id}"
                payload = {**item.to_json(), "origin": self.config.table}  # "" in the database: here
            else:
                topic, payload = f"{self.prefix}/player/{item.id}", item.to_json()
            info = client.publish(topic, json.dumps(payload, separators=(",", ":")), qos=1, retain=True)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break  # disconnected meanwhile: the rest waits for the next connection
            self._in_flight[info.mid] = item
            with self._lock:
                self._counts["published"] += 1

    def _publish_shown(self) -> None:
        """Tell the club this table's club evening when it changed (retained: a table joining later
        hears it too)."""
        client = self._client
        if self._store is None or client is None or not client.is_connected():
            return
        text = json.dumps(self._store.progress(TOURNAMENT), sort_keys=True, separators=(",", ":"))
        if text == self._shown_sent:
            return
        info = client.publish(f"{self.prefix}/tournament", text, qos=1, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            self._shown_sent = text
            with self._lock:
                self._counts["published"] += 1

    def _keep_tournaments(self) -> None:
        """Keep what the other tables said of their club evenings, when it changed."""
        with self._lock:
            if not self._tournaments_changed or self._store is None:
                return
            self._tournaments_changed = False
            tables = {table: dict(shown) for table, shown in self._tournaments.items()}
        self._store.set_progress(CLUB_TOURNAMENTS, {"tables": tables})

    @staticmethod
    def _key(item: SharedGame | SharedPlayer) -> str:
        return json.dumps([type(item).__name__, item.to_json()], sort_keys=True)

    # ------------------------------------------------------------------------------ helpers

    def _state_topic(self) -> str:
        return f"{self.prefix}/state"

    @staticmethod
    def _state_payload(online: bool) -> str:
        return json.dumps({"online": online, "at": time.time()})

    def _set_state(self, state: str, detail: str) -> None:
        with self._lock:
            if state != self._state:
                self._since = time.time()
                log.info("club link: %s (%s)", state, detail)
            self._state, self._detail = state, detail


def club_evening(data: Any) -> dict[str, Any]:
    """A table's club evening as received, checked (BadShare says what does not fit): a
    ``tournament`` that reads as one (and how often it was taken over, ``generation``), the
    ``playing`` pairing, the ``club`` tournament it plays in, the evenings it ``ended`` after they
    had been taken over, the players' ``names``; {} for none."""
    if not isinstance(data, dict):
        raise BadShare("a club evening that is not a JSON object")
    shown: dict[str, Any] = {}
    if data.get("tournament") is not None:
        try:
            tournament = Tournament.from_json(data["tournament"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BadShare(f"a tournament that does not read ({exc})") from None
        if len(tournament.players) > MAX_NAMES or tournament.rounds > MAX_NAMES:  # the screen ranks them all
            raise BadShare(f"a tournament of {len(tournament.players)} players over {tournament.rounds} rounds")
        shown["tournament"] = tournament.to_json()
        taken = data.get("generation", 0)
        if not _count(taken):
            raise BadShare(f"a tournament taken over {taken!r} times")
        if taken:
            shown["generation"] = taken
    playing = data.get("playing")
    if playing is not None:
        if not isinstance(playing, dict) or not all(isinstance(playing.get(k), str) for k in ("first", "second")):
            raise BadShare("a pairing played without its two players")
        shown["playing"] = {"first": playing["first"], "second": playing["second"]}
        if isinstance(playing.get("round"), int):
            shown["playing"]["round"] = playing["round"]
    club = data.get("club")
    if club is not None:
        if not isinstance(club, dict) or not all(isinstance(club.get(k), str) for k in ("table", "id")):
            raise BadShare("a club tournament without its table and id")
        shown["club"] = {"table": club["table"], "id": club["id"]}
    notes = data.get("ended") or []
    if not isinstance(notes, list) or len(notes) > MAX_NAMES or not all(
            isinstance(note, dict) and isinstance(note.get("id"), str) and 0 < len(note["id"]) <= MAX_ID
            and _count(note.get("generation")) for note in notes):
        raise BadShare("evenings said ended that do not read")
    if notes:
        shown["ended"] = [{"id": note["id"], "generation": note["generation"]} for note in notes]
    names = data.get("names") or {}
    if not isinstance(names, dict) or len(names) > MAX_NAMES \
            or not all(isinstance(k, str) and _typed_here(v) for k, v in names.items()):
        raise BadShare("players' names that do not read, or that no table's keyboard types")
    if names:
        shown["names"] = dict(names)
    return shown


def _count(taken: Any) -> bool:
    """Whether ``taken`` reads as how often an evening was taken over (``engine.evening.generation``)."""
    return isinstance(taken, int) and not isinstance(taken, bool) and 0 <= taken <= MAX_NAMES


def _typed_here(name: Any) -> bool:
    """Whether ``name`` is one a table's own keyboard could have typed (``engine.players``), as every
    name a table tells is: shown on the kiosk's screens and the spectator page, it must not reorder
    the text beside it (a right-to-left override) nor run past a phone's screen."""
    try:
        return isinstance(name, str) and clean_name(name) == name
    except BadName:
        return False


def open_club(config: ClubConfig, players: Players, report: Callable[[str], None],
              store: SqliteStore | None = None) -> ClubLink | None:
    """The started link when ``[club]`` is enabled (None: the table plays alone, and ``report``
    has said why if it was meant to join its club); with the kiosk's ``store``, the link also
    shares this table's club evening and keeps the others'."""
    if not config.enabled:
        return None
    link = ClubLink(config, players, report, store=store)
    return link if link.start() else None
