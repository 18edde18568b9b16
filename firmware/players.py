"""The table's players, their games, ratings and solo bests, in the store's SQLite database.

Tables (added by :func:`schema`, one step of ``firmware.store.MIGRATIONS``, so an old installation
keeps every record and score and gains empty ones):

* ``players``: id (a random UUID), name, avatar, created; ``merged_into`` and ``deleted`` keep the
  id of a merged or deleted player as a tombstone, so that games naming it stay meaningful and a
  later sync between tables can pass the change on (``merged_at``: when the merge was made, so the
  latest of two made differently wins everywhere);
* ``games``: one row per rated game: a random UUID, the kind, when it finished, the store's record id
  and the outcome (``engine.ratings.Outcome`` as JSON: sides of participant keys and their places).
  These rows are the truth: the ratings are computed from them alone, in the order (finished, id);
* ``ratings`` and ``rating_steps``: the current ratings and each game's change per player, a cache
  that :meth:`Players.recompute` rebuilds from ``games`` (after a merge or a delete; a game arriving
  out of order has the games after it rated again), giving the same numbers as the game-by-game
  updates; the steps are kept in the games' order;
* ``bests``: each player's best score per solo mode (higher is better; times are stored negated, as
  the store's high scores are).

Participant keys in an outcome: a player's id, ``robot:<level>``, ``guest:<n>``. A merged player's
id counts as the player its merges lead to (:func:`chain_ends`); a deleted player's as a guest; an id the table has not
heard of yet as a player of its own (a player of another table of the club, whose row comes later).

A club's tables share players and rated games (``firmware.club``). Schema step 5 (:func:`club_schema`)
gives each game its ``origin`` (the table it was played at, "" for this one) and its ``record`` (the
finished game's JSON, so a game is whole without the records table, which prunes), and both tables a
``shared`` mark: 0 until the broker has acknowledged what this table holds. A player's ``updated``
orders concurrent changes: two tables' views of one player are joined by :func:`joined`, which gives
the same result in any order, so every table ends with the same players. A game's id makes a game
arriving twice count once, and an id sent again with other content leaves the same version
everywhere (:attr:`SharedGame.version`); the ratings are computed from the games alone, in the
order (finished, id), so the same games give the same ladder on every table.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from engine.players import DEFAULT_AVATAR, BadName, Player, check_avatar, clean_name, new_id
from engine.ratings import GUEST, ROBOT, Ladder, Outcome, Rating, Step, is_rated
from ui.files import write_whole

from .stored import read_json

if TYPE_CHECKING:
    from .store import SqliteStore

EXPORT_FORMAT = "tantrix-table-players/1"
RERATE = "club-rerate"
"""The progress key that says the ratings wait for :meth:`Players.rerate` (kept over a restart)."""
_CHANGES = ("SELECT (SELECT count(*) FROM games), (SELECT max(rowid) FROM games),"
            " (SELECT count(*) FROM players), (SELECT total(updated) FROM players)")
"""What moves when a game or a player's change is kept (rerate checks nothing moved meanwhile): a
game replaced by another version of it takes a new rowid."""
REWIND = 50
"""The most games already rated that :meth:`Players.take` rates again in place to put the games it
takes before them (a few dozen ratings are milliseconds under the store's lock); a table catching up
on more leaves them to :meth:`Players.rerate`, off the lock."""
MAX_PARTICIPANTS = 8
"""The most participant keys a shared game's outcome may name (Gobbles, the largest, seats 6): rating a
game costs time under the store's lock, so a message naming thousands would freeze the UI."""

FOLLOWED = "SELECT id, merged_into, deleted FROM players WHERE merged_into IS NOT NULL OR deleted IS NOT NULL"
"""The rows :func:`chain_ends` follows: every other player counts as itself."""


def schema(db: sqlite3.Connection) -> None:
    """Schema step 4: players, their rated games, ratings and solo bests."""
    db.execute("CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, avatar TEXT NOT NULL,"
               " created REAL NOT NULL, merged_into TEXT, deleted REAL)")
    db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, finished REAL NOT NULL,"
               " record_id INTEGER, outcome TEXT NOT NULL)")
    db.execute("CREATE INDEX games_in_order ON games (finished, id)")
    db.execute("CREATE TABLE ratings (player TEXT PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL,"
               " games INTEGER NOT NULL)")
    db.execute("CREATE TABLE rating_steps (seq INTEGER PRIMARY KEY, game TEXT NOT NULL, player TEXT NOT NULL,"
               " mu REAL NOT NULL, sigma REAL NOT NULL)")
    db.execute("CREATE INDEX rating_steps_by_player ON rating_steps (player, seq)")
    db.execute("CREATE TABLE bests (player TEXT NOT NULL, mode TEXT NOT NULL, score INTEGER NOT NULL,"
               " created REAL NOT NULL, PRIMARY KEY (player, mode))")


def club_schema(db: sqlite3.Connection) -> None:
    """Schema step 5: what a club's tables share (module docstring). Games and players kept before
    are marked unshared, so a table joining a club brings its history."""
    db.execute("ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE games ADD COLUMN record TEXT")
    db.execute("ALTER TABLE games ADD COLUMN shared INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX games_unshared ON games (id) WHERE shared = 0")
    db.execute("ALTER TABLE players ADD COLUMN updated REAL NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE players ADD COLUMN shared INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE players SET updated = coalesce(deleted, created)")
    db.execute("UPDATE games SET record = (SELECT r.record FROM records r WHERE r.id = games.record_id)")


def merge_stamps(db: sqlite3.Connection) -> None:
    """Schema step 6: when each merge was made (``merged_at``; a merge kept before counts as made
    when its row last changed)."""
    db.execute("ALTER TABLE players ADD COLUMN merged_at REAL NOT NULL DEFAULT 0")
    db.execute("UPDATE players SET merged_at = updated WHERE merged_into IS NOT NULL")


TOURNAMENT_ID = "CASE WHEN json_valid(record) THEN json_extract(record, '$.tournament.id') END"
"""The tournament a rated game's record names (``engine.tournament.entry``), NULL for none or a damaged
record: the expression of the index :meth:`Players.tournament_entries` searches by (a query must
spell it the same for SQLite to use the index)."""


def tournament_index(db: sqlite3.Connection) -> None:
    """Schema step 7: the games by the tournament their records name, so an evening's results are found
    by its id alone. Found by their end time instead (near the evening's start), the games of a table
    whose clock was behind (no battery clock, no time server on the club's network) were never found."""
    db.execute(f"CREATE INDEX games_by_tournament ON games (({TOURNAMENT_ID}))")


TABLES: dict[str, tuple[str, ...]] = {
    "players": ("CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, avatar TEXT NOT NULL,"
                " created REAL NOT NULL, merged_into TEXT, deleted REAL, updated REAL NOT NULL DEFAULT 0,"
                " shared INTEGER NOT NULL DEFAULT 0, merged_at REAL NOT NULL DEFAULT 0)",),
    "games": ("CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, finished REAL NOT NULL,"
              " record_id INTEGER, outcome TEXT NOT NULL, origin TEXT NOT NULL DEFAULT '', record TEXT,"
              " shared INTEGER NOT NULL DEFAULT 0)",
              "CREATE INDEX games_in_order ON games (finished, id)",
              "CREATE INDEX games_unshared ON games (id) WHERE shared = 0",
              f"CREATE INDEX games_by_tournament ON games (({TOURNAMENT_ID}))"),
    "bests": ("CREATE TABLE bests (player TEXT NOT NULL, mode TEXT NOT NULL, score INTEGER NOT NULL,"
              " created REAL NOT NULL, PRIMARY KEY (player, mode))",),
    "ratings": ("CREATE TABLE ratings (player TEXT PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL,"
                " games INTEGER NOT NULL)",),
    "rating_steps": ("CREATE TABLE rating_steps (seq INTEGER PRIMARY KEY, game TEXT NOT NULL, player TEXT NOT NULL,"
                     " mu REAL NOT NULL, sigma REAL NOT NULL)",
                     "CREATE INDEX rating_steps_by_player ON rating_steps (player, seq)"),
}
"""Each table of :func:`schema`, :func:`club_schema`, :func:`merge_stamps` and :func:`tournament_index` as they leave it, in salvage order (people
and the games that are the ratings' truth before the ratings, a cache of them): the store's
``TABLES`` include these, so a damaged database healed from its last-known-good copy, and a store
in memory, keep the players, their games, ratings and bests like every other table."""


class BadShare(ValueError):
    """A shared game or player that does not hold together (the message says what is wrong)."""


def _ident(value: Any, what: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", value):
        raise BadShare(f"{what}: expected 1 to 64 letters, digits, - or _, got {str(value)[:40]!r}")
    return value


def _participant(value: str) -> None:
    """A shared outcome's participant key: a player's id, ``robot:<level>`` or ``guest:<n>``, each
    part an identifier, so nothing the database cannot store (a lone surrogate) ever reaches it."""
    for prefix in (ROBOT, GUEST):
        if value.startswith(prefix):
            _ident(value[len(prefix):], "outcome: a participant")
            return
    _ident(value, "outcome: a participant")


def _time(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise BadShare(f"{what}: expected a time in seconds since 1970, got {str(value)[:40]!r}")
    return float(value)


@dataclass(frozen=True, slots=True)
class SharedPlayer:
    """A player as tables share it: the row of ``players`` without this table's marks."""

    id: str
    name: str
    avatar: str
    created: float
    updated: float
    merged_into: str | None = None
    deleted: float | None = None
    merged_at: float = 0.0
    """When the merge into ``merged_into`` was made (0 with none, or from a table that does not say)."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "avatar": self.avatar, "created": self.created,
                "updated": self.updated, "merged_into": self.merged_into, "deleted": self.deleted,
                "merged_at": self.merged_at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SharedPlayer:
        """A player from another table, checked as a name typed here would be; BadShare if not."""
        deleted = None if data.get("deleted") is None else _time(data["deleted"], "deleted")
        merged = None if data.get("merged_into") is None else _ident(data["merged_into"], "merged_into")
        if merged is not None and merged == data.get("id"):
            raise BadShare("merged_into: a player cannot be merged into itself")
        name, avatar = data.get("name"), data.get("avatar")
        if deleted is not None:
            name, avatar = "", ""
        elif not isinstance(name, str) or not isinstance(avatar, str):  # a null name is no player "None"
            raise BadShare("player: expected a name and an avatar as text")
        else:
            try:
                name, avatar = clean_name(name), check_avatar(avatar)
            except ValueError as exc:
                raise BadShare(f"player: {exc}") from None
        merged_at = 0.0 if merged is None else _time(data.get("merged_at", 0.0), "merged_at")
        return cls(_ident(data.get("id"), "id"), name, avatar, _time(data.get("created"), "created"),
                   _time(data.get("updated"), "updated"), merged, deleted, merged_at)


def chain_ends(rows: Iterable[tuple[str, str | None, float | None]]) -> dict[str, str | None]:
    """Where each player's merge chain ends: the player each id of ``rows`` (id, merged_into,
    deleted) counts as now, None when one on the way is deleted; an id not in ``rows``, or merged
    into an id not known here (a player of another table whose row comes later), is that player.
    This is the one place that follows merges: who is live (listed, on the ladder, a name taken),
    whose games and bests are whose, and each game's participants all come from it.

    Two tables apart can merge two players into each other (A into B at one, B into A at the
    other): once they have synced, the chain closes in a circle. Its smallest id ends it, so that
    every table, holding the same rows, keeps the same player with both players' games whatever
    order the merges came in; ids never change, where a stamp would (``updated`` moves with a
    rename, and a survivor chosen by it would swap at the next one)."""
    links = {key: (merged, deleted) for key, merged, deleted in rows}
    ends: dict[str, str | None] = {}
    for start in links:
        path: list[str] = []
        key, end = start, None
        while key in links and key not in ends and key not in path:
            merged, deleted = links[key]
            path.append(key)
            if deleted is not None or merged is None:
                end = None if deleted is not None else key
                break
            key = merged
        else:
            end = ends[key] if key in ends else min(path[path.index(key):]) if key in path else key
        ends.update(dict.fromkeys(path, end))
    return ends


def _live(ends: Mapping[str, str | None], player_id: str) -> bool:
    """Whether ``player_id`` is a player of its own (not merged into another, not deleted)."""
    return ends.get(player_id, player_id) == player_id


def _aliases(ends: Mapping[str, str | None], player_id: str) -> list[str]:
    """The ids that count as ``player_id``: its own and those merged into it, however indirectly."""
    return [player_id, *sorted(key for key, end in ends.items() if end == player_id and key != player_id)]


def joined(a: SharedPlayer, b: SharedPlayer) -> SharedPlayer:
    """Two views of one player made one, the same in any order (a join): the latest name and
    avatar, the earliest deletion (which forgets both), and of two merges made differently the
    latest (then the one into the greater id): a merge is never undone by a view that has none, and
    staff merging a player again, after a sync, into another (say the survivor of two players
    merged into each other by two tables apart) are not undone by the older merge."""
    newer = max(a, b, key=lambda p: (p.updated, p.name, p.avatar))
    deleted = min((d for d in (a.deleted, b.deleted) if d is not None), default=None)
    merged_at, merged = max(((p.merged_at, p.merged_into) for p in (a, b) if p.merged_into is not None),
                            default=(0.0, None))
    gone = deleted is not None
    return SharedPlayer(a.id, "" if gone else newer.name, "" if gone else newer.avatar, min(a.created, b.created),
                        max(a.updated, b.updated), merged, deleted, merged_at)


@dataclass(frozen=True, slots=True)
class SharedGame:
    """A rated game as tables share it: its outcome, where and when it ended, and its record."""

    id: str
    kind: str
    finished: float
    origin: str
    outcome: Outcome
    record: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "finished": self.finished, "origin": self.origin,
                "outcome": self.outcome.to_json(), "record": self.record}

    @property
    def version(self) -> tuple[float, str]:
        """What puts first one of two versions of a game (its id sent again with other content), the
        same on every table: the earlier ending, then the smaller content. Not the origin: one game
        shared by two tables is one game."""
        return self.finished, json.dumps([self.kind, self.outcome.to_json(), self.record], sort_keys=True,
                                         separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SharedGame:
        """A game from another table; BadShare if any part does not fit."""
        game = _ident(data.get("id"), "id")
        record = data.get("record")
        if record is not None and not isinstance(record, dict):
            raise BadShare("record: expected a JSON object or null")
        outcome = data.get("outcome")
        try:
            parsed = Outcome.from_json(outcome) if isinstance(outcome, dict) else None
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:  # ArithmeticError: a place of Infinity
            raise BadShare(f"outcome: {exc}") from None
        if parsed is None or parsed.game != game:
            raise BadShare("outcome: expected the game's sides and places, with the game's id")
        if sum(len(side) for side in parsed.sides) > MAX_PARTICIPANTS:
            raise BadShare(f"outcome: more than {MAX_PARTICIPANTS} participants")
        for side in parsed.sides:
            for key in side:
                _participant(key)
        return cls(game, _ident(data.get("kind"), "kind"), _time(data.get("finished"), "finished"),
                   _ident(data.get("origin"), "origin"), parsed, record)


class UnknownPlayer(LookupError):
    """No (live) player has this id."""


@dataclass(frozen=True, slots=True)
class LadderRow:
    player: Player
    rating: Rating
    games: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """One rated game as one player saw it."""

    game: str
    kind: str
    finished: float
    place: int
    sides: int
    record_id: int | None


class Players:
    """The players of one table, kept in ``store``'s database. Every method commits before it
    returns (through the store, so a failing disk is handled as for every other write). ``clock``:
    the wall clock (seconds since the epoch) the table's stamps are taken from."""

    def __init__(self, store: SqliteStore, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self._told: set[str] = set()

    # ---------------------------------------------------------------------------- players

    def create(self, name: str, avatar: str = DEFAULT_AVATAR) -> Player:
        """A new player; :class:`engine.players.BadName` if the name cannot be taken (the
        message says why) or is already a live player's (names are how people find themselves)."""
        player = Player(new_id(), clean_name(name), check_avatar(avatar), self._clock())

        def add(db: sqlite3.Connection) -> None:
            self._check_free(db, player.name)
            db.execute("INSERT INTO players (id, name, avatar, created, updated) VALUES (?, ?, ?, ?, ?)",
                       (player.id, player.name, player.avatar, player.created, player.created))

        self._store.transaction(add)
        return player

    def all(self) -> list[Player]:
        """The live players, newest first (the setup's name buttons)."""
        ends = chain_ends(self._store.query(FOLLOWED))
        rows = self._store.query("SELECT id, name, avatar, created FROM players ORDER BY created DESC, id")
        return [Player(*row) for row in rows if _live(ends, row[0])]

    def get(self, player_id: str) -> Player:
        rows = self._store.query("SELECT id, name, avatar, created FROM players WHERE id = ?", (player_id,))
        if not rows or not _live(chain_ends(self._store.query(FOLLOWED)), player_id):
            raise UnknownPlayer(player_id)
        return Player(*rows[0])

    def rename(self, player_id: str, name: str, avatar: str | None = None) -> Player:
        """Staff: a new name (and avatar) for a player; their games and ratings stay theirs."""
        name = clean_name(name)
        old = self.get(player_id)
        avatar = old.avatar if avatar is None else check_avatar(avatar)

        def change(db: sqlite3.Connection) -> None:
            self._check_free(db, name, player_id)
            db.execute("UPDATE players SET name = ?, avatar = ?, updated = ?, shared = 0 WHERE id = ?",
                       (name, avatar, self._stamp(db, [player_id]), player_id))

        self._store.transaction(change)
        return self.get(player_id)

    def merge(self, duplicate: str, into: str) -> None:
        """Staff: ``duplicate`` was the same person as ``into``: its games, bests and rating history
        become ``into``'s and the ladder is recomputed."""
        if duplicate == into:
            raise ValueError("a player cannot be merged into itself")
        self.get(duplicate), self.get(into)

        def change(db: sqlite3.Connection) -> None:
            ids = _aliases(chain_ends(db.execute(FOLLOWED)), duplicate)
            stamp = self._stamp(db, ids)
            db.execute("UPDATE players SET merged_into = ?, merged_at = ?, updated = ?, shared = 0"
                       " WHERE id IN (SELECT value FROM json_each(?))", (into, stamp, stamp, json.dumps(ids)))
            self._gather_bests(db)
            self._recompute(db)

        self._store.transaction(change)

    def delete(self, player_id: str) -> None:
        """Staff: forget a player: name, avatar, bests and ratings go; the games they played stay
        (the others' ratings depend on them) with the player counted as a guest."""
        self.get(player_id)

        def change(db: sqlite3.Connection) -> None:
            ids = _aliases(chain_ends(db.execute(FOLLOWED)), player_id)
            db.execute("UPDATE players SET name = '', avatar = '', deleted = ?, updated = ?, shared = 0"
                       " WHERE id IN (SELECT value FROM json_each(?))", (self._clock(), self._stamp(db, ids), json.dumps(ids)))
            self._gather_bests(db)
            self._recompute(db)

        self._store.transaction(change)

    # ------------------------------------------------------------------------ games, ratings

    def record_game(self, kind: str, outcome: Outcome, record_id: int | None = None,
                    finished: float | None = None) -> list[Step]:
        """Keep a finished game's outcome (with its record, ``record_id`` in the store's records)
        and rate it; returns each rated player's change (none for a game already kept: each counts
        once). ``finished`` None: it ends now, or just after the last game this table ended when its
        clock is behind that one's (a Pi has no battery clock: after a power cut it boots on the
        time it last saved): the games are rated, and listed, in the order (finished, id), and a
        game dated before the ones played here before it was rated before them, so the change its
        result screen showed was not the ladder's."""

        def add(db: sqlite3.Connection) -> list[Step]:
            row = db.execute("SELECT record FROM records WHERE id = ?", (record_id,)).fetchone()
            text = row[0] if row else None
            last = db.execute("SELECT finished FROM games WHERE origin = '' ORDER BY finished DESC LIMIT 1").fetchone()
            ended = self._after(last[0] if last else None) if finished is None else finished
            game = SharedGame(outcome.game, kind, ended, "", outcome, self._record(outcome.game, text))
            since = self._keep_game(db, game, record_id, text)
            if since is None:
                return []  # counted once, however often its end is reported
            return [s for s in self._rate(db, since) if s.game == outcome.game]

        return self._store.transaction(add)

    def _keep_game(self, db: sqlite3.Connection, game: SharedGame, record_id: int | None,
                   record: str | None) -> tuple[float, str] | None:
        """Keep one game, not rated yet (``game.origin`` "" for this table's own, with ``record_id``
        and its record's text): the place (finished, id) from which the ratings must be made again,
        None when nothing changed.

        A game's id is its key: kept once, however often it comes. The same id with other content
        (a rogue table's, or a table restored from an old copy that finished the game again) is two
        versions of one game: each table keeping the first it had gave each its own ladder, so the
        one :attr:`SharedGame.version` puts first is kept, whatever came first, and staff are told.
        This table's own game stays its own when another version wins, unshared again, so that the
        broker also holds the winner under this table's name, where a table joining later looks."""
        outcome = json.dumps(game.outcome.to_json())
        kept = db.execute("SELECT kind, finished, origin, outcome, record FROM games WHERE id = ?",
                          (game.id,)).fetchone()
        if kept is None:
            db.execute("INSERT INTO games (id, kind, finished, record_id, outcome, origin, record, shared)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (game.id, game.kind, game.finished, record_id, outcome,
                                                            game.origin, record, int(bool(game.origin))))
            return game.finished, game.id
        kind, finished, origin, text, stored = kept
        if (kind, finished, text, stored) == (game.kind, game.finished, outcome, record) or not (origin or game.origin):
            return None  # the same game again, or this table's ending reported again
        old = self._shared([(game.id, *kept)])  # none: a damaged row, which the version received heals
        if old and old[0].version <= game.version:
            if old[0].version < game.version:
                self._tell_versions(game.id, old[0].origin, game.origin)
            return None
        if old:
            self._tell_versions(game.id, game.origin, old[0].origin)
        mine = not (origin and game.origin)
        db.execute("UPDATE games SET rowid = (SELECT max(rowid) FROM games) + 1, kind = ?, finished = ?,"  # _CHANGES
                   " record_id = ?, outcome = ?, origin = ?, record = ?, shared = ? WHERE id = ?",
                   (game.kind, game.finished, record_id, outcome, "" if mine else game.origin, record, int(not mine),
                    game.id))
        return min((finished, game.id), (game.finished, game.id))

    def _tell_versions(self, game: str, kept: str, other: str) -> None:
        kept, other = kept or "this table", other or "this table"
        self._tell(f"versions {game}", f"the rated game {game} came in two versions, from {kept} and from {other} "
                                       f"(a table restored from an old copy, or one sending forged games): every "
                                       f"table keeps the same one, {kept}'s (the one that ended first)")

    def _rate(self, db: sqlite3.Connection, since: tuple[float, str]) -> list[Step]:
        """Rate the games from ``since`` (finished, id) on, in order, the ones before kept as rated:
        the steps of the later games are taken back (the rating steps are kept in the games' order,
        so each player's last step left is their rating before ``since``) and made again. So the
        ladder is always the one the games in order give, and a game kept in its place costs the
        games after it, not all: an ending after one dated years ahead by a wrong clock rates that
        one again, where every ending used to rate every game again (under the store's lock)."""
        later = db.execute("SELECT id, outcome FROM games WHERE (finished, id) >= (?, ?) ORDER BY finished, id",
                           since).fetchall()
        ids = json.dumps([game for game, _ in later])
        for (player,) in db.execute("SELECT DISTINCT player FROM rating_steps"
                                    " WHERE game IN (SELECT value FROM json_each(?))", (ids,)).fetchall():
            db.execute("DELETE FROM rating_steps WHERE player = ? AND game IN (SELECT value FROM json_each(?))",
                       (player, ids))
            last = db.execute("SELECT mu, sigma, (SELECT count(*) FROM rating_steps WHERE player = ?) FROM rating_steps"
                              " WHERE player = ? ORDER BY seq DESC LIMIT 1", (player, player)).fetchone()
            if last is None:
                db.execute("DELETE FROM ratings WHERE player = ?", (player,))
            else:
                db.execute("UPDATE ratings SET mu = ?, sigma = ?, games = ? WHERE player = ?", (*last, player))
        ladder, steps, ends = self._ladder(db), [], chain_ends(db.execute(FOLLOWED))
        for game, text in later:
            outcome = self._outcome(game, text)
            if outcome is not None:
                added = ladder.add(self._resolved(ends, outcome))
                self._save_steps(db, ladder, added)
                steps.extend(added)
        return steps

    def ladder(self) -> list[LadderRow]:
        """The live players with a rated game, best first (by the conservative estimate)."""
        rows = self._store.query(
            "SELECT p.id, p.name, p.avatar, p.created, r.mu, r.sigma, r.games FROM ratings r"
            " JOIN players p ON p.id = r.player")
        ends = chain_ends(self._store.query(FOLLOWED))
        ladder = [LadderRow(Player(*row[:4]), Rating(row[4], row[5]), row[6]) for row in rows if _live(ends, row[0])]
        return sorted(ladder, key=lambda row: (-row.rating.ordinal, row.player.id))

    def rating(self, player_id: str) -> Rating:
        rows = self._store.query("SELECT mu, sigma FROM ratings WHERE player = ?", (player_id,))
        return Rating(*rows[0]) if rows else Rating()

    def history(self, player_id: str) -> list[Rating]:
        """The player's rating after each of their games, oldest first (the ladder's chart)."""
        rows = self._store.query("SELECT mu, sigma FROM rating_steps WHERE player = ? ORDER BY seq",
                                 (player_id,))
        return [Rating(*row) for row in rows]

    def results(self, player_id: str) -> list[GameResult]:
        """The player's rated games (under any id merged into theirs), newest first."""
        ids = set(_aliases(chain_ends(self._store.query(FOLLOWED)), player_id))
        found = []
        for game, kind, finished, record_id, text in self._store.query(
                "SELECT id, kind, finished, record_id, outcome FROM games ORDER BY finished DESC, id DESC"):
            outcome = self._outcome(game, text)
            if outcome is None:
                continue
            for side, place in zip(outcome.sides, outcome.ranks):
                if ids & set(side):
                    found.append(GameResult(game, kind, finished, place, len(outcome.sides), record_id))
        return found

    def recompute(self) -> Ladder:
        """Rate every stored game again, in order, and keep the result (the cache made anew)."""
        return self._store.transaction(lambda db: self._recompute(db)[0])

    # ------------------------------------------------------------------------- a club's tables

    def take(self, players: Iterable[SharedPlayer] = (), games: Iterable[SharedGame] = ()) -> tuple[int, int]:
        """Keep what other tables shared (``firmware.club``), in one transaction: each player's view
        joined into this table's (a joined view that differs from the one received is unshared, so
        the broker gets it), then the games not kept yet, rated at once in their place (with the
        games after it, up to :data:`REWIND` of them). Games that come before more, or a merge or
        deletion learnt here (which also moves bests), leave the ratings :meth:`stale` until
        :meth:`rerate`, which the link runs off the store's lock once it has taken what arrived.
        Returns how many players changed here and how many games were new."""
        players, games = list(players), list(games)

        def take(db: sqlite3.Connection) -> tuple[int, int]:
            rated = db.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None
            again, changed, followed = False, 0, False
            for player in players:
                mine = self._shared_player(db, player.id)
                new = player if mine is None else joined(mine, player)
                if new == mine:
                    continue
                changed += 1
                db.execute("INSERT INTO players (id, name, avatar, created, updated, merged_into, deleted, merged_at,"
                           " shared) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                           " name = excluded.name, avatar = excluded.avatar, created = excluded.created,"
                           " updated = excluded.updated, merged_into = excluded.merged_into,"
                           " deleted = excluded.deleted, merged_at = excluded.merged_at, shared = excluded.shared",
                           (new.id, new.name, new.avatar, new.created, new.updated, new.merged_into, new.deleted,
                            new.merged_at, int(new == player)))
                if (new.merged_into, new.deleted) != ((None, None) if mine is None else (mine.merged_into, mine.deleted)):
                    followed = True
                    again = again or rated
            if followed:
                self._gather_bests(db)
            count = "SELECT count(*) FROM games"
            before = db.execute(count).fetchone()[0]
            places = [since for game in games if (since := self._keep_game(
                db, game, None, None if game.record is None else json.dumps(game.record, separators=(",", ":"))))]
            if places and not again:
                since = min(places)
                after = db.execute(f"{count} WHERE (finished, id) >= (?, ?)", since).fetchone()[0]
                again = after - len(places) > REWIND or db.execute(
                    "SELECT 1 FROM progress WHERE key = ?", (RERATE,)).fetchone() is not None
                if not again:
                    self._rate(db, since)
            if again:
                db.execute("INSERT OR REPLACE INTO progress (key, value) VALUES (?, '{}')", (RERATE,))
            return changed, db.execute(count).fetchone()[0] - before

        return self._store.transaction(take)

    def unshared(self) -> tuple[list[SharedGame], list[SharedPlayer]]:
        """What the broker does not hold yet as this table holds it: the games played here and the
        players changed here (or joined here from two views) since the last acknowledgement."""
        games = self._shared(self._store.query(
            "SELECT id, kind, finished, origin, outcome, record FROM games WHERE shared = 0 ORDER BY finished, id"))
        players = [SharedPlayer(*row) for row in self._store.query(
            "SELECT id, name, avatar, created, updated, merged_into, deleted, merged_at FROM players WHERE shared = 0"
            " ORDER BY created, id")]
        return games, players

    def mark_shared(self, acknowledged: Iterable[SharedGame | SharedPlayer]) -> None:
        """The broker acknowledged these: marked as held there (one transaction), each unless its
        row changed since it was sent (a game's, when another version of it won meanwhile)."""
        acknowledged = list(acknowledged)

        def mark(db: sqlite3.Connection) -> None:
            for shared in acknowledged:
                if isinstance(shared, SharedGame):
                    if self._shared(db.execute("SELECT id, kind, finished, origin, outcome, record FROM games"
                                               " WHERE id = ?", (shared.id,))) == [shared]:
                        db.execute("UPDATE games SET shared = 1 WHERE id = ?", (shared.id,))
                elif self._shared_player(db, shared.id) == shared:
                    db.execute("UPDATE players SET shared = 1 WHERE id = ?", (shared.id,))

        if acknowledged:
            self._store.transaction(mark)

    def shared_games(self) -> list[SharedGame]:
        """Every rated game kept here, in the ladder's order, with its record (here or elsewhere)."""
        return self._shared(self._store.query(
            "SELECT id, kind, finished, origin, outcome, record FROM games ORDER BY finished, id"))

    def tournament_entries(self, tournament: str) -> list[dict[str, Any]]:
        """The tournament entries in the records of the rated games that name ``tournament``
        (``engine.tournament.entry``: a club evening's results, from whichever table played them),
        in the ladder's order. Found by the tournament's id alone (an index), never by when the
        games finished: the tables' clocks may be days apart; a damaged record is passed over."""
        entries = []
        for (text,) in self._store.query(f"SELECT record FROM games WHERE {TOURNAMENT_ID} = ?"
                                         " ORDER BY finished, id", (tournament,)):
            try:
                entry = json.loads(text).get("tournament")
            except (ValueError, AttributeError, RecursionError):
                continue
            if isinstance(entry, dict) and entry.get("id") == tournament:
                entries.append(entry)
        return entries

    def _shared(self, rows: Iterable[tuple[Any, ...]]) -> list[SharedGame]:
        """The games of ``rows`` (id, kind, finished, origin, outcome, record) as shared, those whose
        outcome is damaged left out, a damaged record shared as none."""
        games = []
        for game, kind, finished, origin, text, record in rows:
            outcome = self._outcome(game, text)
            if outcome is not None:
                games.append(SharedGame(game, kind, finished, origin, outcome, self._record(game, record)))
        return games

    @staticmethod
    def _shared_player(db: sqlite3.Connection, player_id: str) -> SharedPlayer | None:
        row = db.execute("SELECT id, name, avatar, created, updated, merged_into, deleted, merged_at FROM players"
                         " WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else SharedPlayer(*row)

    # ------------------------------------------------------------------------------ solo bests

    def add_best(self, player_id: str, mode: str, score: int) -> bool:
        """Keep ``score`` as the player's best in ``mode`` if it beats the one kept; returns whether
        it did (times: pass minus the seconds, as for the store's high scores)."""
        self.get(player_id)
        return self._store.transaction(lambda db: self._keep_best(db, player_id, mode, score, self._clock()))

    def bests(self, player_id: str) -> dict[str, int]:
        return dict(self._store.query("SELECT mode, score FROM bests WHERE player = ? ORDER BY mode", (player_id,)))

    # ----------------------------------------------------------------------------- export

    def export(self) -> dict[str, Any]:
        """Everything the table keeps about its players, as JSON (staff's export; nothing else of
        a person is stored)."""
        players = []
        for player in self.all():
            players.append({**player.to_json(), "rating": _rating_json(self.rating(player.id)),
                            "bests": self.bests(player.id),
                            "games": [{"game": r.game, "kind": r.kind, "finished": r.finished, "place": r.place,
                                       "sides": r.sides} for r in self.results(player.id)]})
        return {"format": EXPORT_FORMAT, "exported": self._clock(), "players": players}

    def export_file(self) -> str:
        """Write :meth:`export` next to the database (staff copy it from there); returns its path.
        Written whole or not at all (:func:`ui.files.write_whole`): written in place, a card that filled up
        mid-way left a file cut short that looked like an export, and an export made in the same
        second as the one before cut that one short. OSError says why (the Export button shows it);
        StoreUnreadable when the database cannot be read to the end (then nothing is written: the
        players a failed read gave none of were left out of a file that looked whole)."""
        path = self._store.path.with_name(time.strftime("players-export-%Y%m%d-%H%M%S.json"))
        with self._store.exporting():
            exported = self.export()
        write_whole(path, json.dumps(exported, ensure_ascii=False, indent=1).encode("utf-8"))
        return str(path)

    # ---------------------------------------------------------------------------- internals

    def _check_free(self, db: sqlite3.Connection, name: str, own_id: str | None = None) -> None:
        ends = chain_ends(db.execute(FOLLOWED))
        rows = db.execute("SELECT id FROM players WHERE lower(name) = lower(?) AND id IS NOT ?", (name, own_id))
        if any(_live(ends, row[0]) for row in rows):
            raise BadName("taken", f"{name} is already a player here: choose that name, or another one", name=name)

    def _stamp(self, db: sqlite3.Connection, ids: list[str]) -> float:
        """The ``updated`` of a change staff make here to the players ``ids`` (a player and those
        merged into it): now, or just after the latest change this table holds of them when its
        clock is behind another table's. :func:`joined` keeps the latest view, so a change made
        after seeing another must be later than it, or the tables keep different names (each its
        own, none republished)."""
        row = db.execute("SELECT max(updated) FROM players WHERE id IN (SELECT value FROM json_each(?))",
                         (json.dumps(ids),)).fetchone()
        return self._after(row[0])

    def _after(self, latest: float | None) -> float:
        """Now, or just after ``latest`` (a stamp this table holds) when the clock is behind it."""
        now = self._clock()
        return now if latest is None else max(now, math.nextafter(latest, math.inf))

    @staticmethod
    def _keep_best(db: sqlite3.Connection, player: str, mode: str, score: int, created: float) -> bool:
        cursor = db.execute("INSERT INTO bests (player, mode, score, created) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT (player, mode) DO UPDATE SET score = excluded.score,"
                            " created = excluded.created WHERE excluded.score > bests.score",
                            (player, mode, score, created))
        return cursor.rowcount > 0

    def _gather_bests(self, db: sqlite3.Connection) -> None:
        """Each best kept under the player its holder counts as now (after a merge, however
        learnt, the better of two is kept), and forgotten with a deletion."""
        ends = chain_ends(db.execute(FOLLOWED))
        for (holder,) in db.execute("SELECT DISTINCT player FROM bests").fetchall():
            end = ends.get(holder, holder)
            if end != holder:
                if end is not None:
                    for mode, score, created in db.execute("SELECT mode, score, created FROM bests WHERE player = ?",
                                                           (holder,)).fetchall():
                        self._keep_best(db, end, mode, score, created)
                db.execute("DELETE FROM bests WHERE player = ?", (holder,))

    @staticmethod
    def _resolved(ends: Mapping[str, str | None], outcome: Outcome) -> Outcome:
        """The outcome with merged ids replaced by the surviving player's (:func:`chain_ends`) and
        deleted ones (or an id seen twice in one game) by guests. An id not known here stays a
        player: one of another table, whose row has not arrived yet."""
        seen: set[str] = set()
        sides = []
        for side in outcome.sides:
            keys = []
            for key in side:
                if is_rated(key):
                    found = ends.get(key, key)
                    if found is None or found in seen:
                        key = f"{GUEST}{key}"
                    else:
                        key = found
                        seen.add(key)
                keys.append(key)
            sides.append(tuple(keys))
        return Outcome(outcome.game, tuple(sides), outcome.ranks)

    @staticmethod
    def _ladder(db: sqlite3.Connection) -> Ladder:
        ladder = Ladder()
        for player, mu, sigma, games in db.execute("SELECT player, mu, sigma, games FROM ratings"):
            ladder.ratings[player] = Rating(mu, sigma)
            ladder.games[player] = games
        return ladder

    @staticmethod
    def _save_steps(db: sqlite3.Connection, ladder: Ladder, steps: Iterable[Step]) -> None:
        for step in steps:
            db.execute("INSERT INTO ratings (player, mu, sigma, games) VALUES (?, ?, ?, ?) ON CONFLICT (player)"
                       " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
                       (step.key, step.after.mu, step.after.sigma, ladder.games[step.key]))
            db.execute("INSERT INTO rating_steps (game, player, mu, sigma) VALUES (?, ?, ?, ?)",
                       (step.game, step.key, step.after.mu, step.after.sigma))

    def _recompute(self, db: sqlite3.Connection) -> tuple[Ladder, list[Step]]:
        games = db.execute("SELECT id, outcome FROM games ORDER BY finished, id").fetchall()
        ladder, history = self._rated(games, chain_ends(db.execute(FOLLOWED)))
        self._replace_ratings(db, ladder, history)
        return ladder, history

    def _rated(self, games: Iterable[tuple[str, Any]], ends: Mapping[str, str | None]) -> tuple[Ladder, list[Step]]:
        """Every game (its id and outcome's JSON, in order) rated from scratch: the ladder and each step."""
        ladder, history = Ladder(), []
        for game, text in games:
            outcome = self._outcome(game, text)
            if outcome is not None:
                history.extend(ladder.add(self._resolved(ends, outcome)))
        return ladder, history

    def _outcome(self, game: str, text: Any) -> Outcome | None:
        """A kept game's outcome, or None when its row is damaged (a flipped bit on the card, a hand
        edit): that game is left out of the ladder, the results and what is shared, and staff are
        told once, so one bad row never stops a game's ending, a staff action or the club link."""
        try:
            return Outcome.from_json(read_json(text))
        except (ValueError, TypeError, KeyError, AttributeError, ArithmeticError) as exc:  # a place of Infinity
            self._tell_damaged(game, f"its outcome ({type(exc).__name__}: {str(exc)[:80]})")
            return None

    def _record(self, game: str, text: Any) -> Any:
        """A kept game's record, or None when it has none or it is damaged (staff told once)."""
        if not text:
            return None
        try:
            return read_json(text)
        except ValueError as exc:
            self._tell_damaged(game, f"its record ({type(exc).__name__}: {str(exc)[:80]})")
            return None

    def _tell_damaged(self, game: str, what: str) -> None:
        self._tell(f"damaged {game}",
                   f"the rated game {game} in {self._store.path} cannot be read back ({what}); it is left out")

    def _tell(self, key: str, message: str) -> None:
        """Staff told ``message`` once for each ``key`` (a problem of one game)."""
        if key not in self._told:
            self._told.add(key)
            self._store.tell(message)

    @staticmethod
    def _replace_ratings(db: sqlite3.Connection, ladder: Ladder, history: list[Step]) -> None:
        db.execute("DELETE FROM ratings")
        db.execute("DELETE FROM rating_steps")
        final = {step.key: step.after for step in history}
        db.executemany("INSERT INTO ratings (player, mu, sigma, games) VALUES (?, ?, ?, ?)",
                       [(key, rating.mu, rating.sigma, ladder.games[key]) for key, rating in final.items()])
        db.executemany("INSERT INTO rating_steps (game, player, mu, sigma) VALUES (?, ?, ?, ?)",
                       [(step.game, step.key, step.after.mu, step.after.sigma) for step in history])
        db.execute("DELETE FROM progress WHERE key = ?", (RERATE,))

    def stale(self) -> bool:
        """Whether games kept by :meth:`take` wait for :meth:`rerate`."""
        return bool(self._store.query("SELECT 1 FROM progress WHERE key = ?", (RERATE,)))

    def rerate(self) -> None:
        """Rate every game again, in order, with the work done *off* the store's lock: read the
        games, rate them, then replace the ratings in one short transaction, unless a game or a
        player's merge or deletion arrived meanwhile (then again). So a table catching up on a
        club's thousands of games never makes its UI wait for the ratings, only for the writes."""
        while True:
            mark = self._store.query(_CHANGES)
            games = self._store.query("SELECT id, outcome FROM games ORDER BY finished, id")
            ladder, history = self._rated(games, chain_ends(self._store.query(FOLLOWED)))

            def replace(db: sqlite3.Connection) -> bool:
                if db.execute(_CHANGES).fetchall() != mark:
                    return False
                self._replace_ratings(db, ladder, history)
                return True

            if self._store.transaction(replace):
                return



def _rating_json(rating: Rating) -> dict[str, Any]:
    return {"mu": rating.mu, "sigma": rating.sigma, "points": rating.points}
