"""The table's players, their games, ratings and solo bests, in the store's SQLite database.

Tables (added by :func:`schema`, one step of ``firmware.store.MIGRATIONS``, so an old installation
keeps every record and score and gains empty ones):

* ``players``: id (a random UUID), name, avatar, created; ``merged_into`` and ``deleted`` keep the
  id of a merged or deleted player as a tombstone, so that games naming it stay meaningful and a
  later sync between tables can pass the change on;
* ``games``: one row per rated game: a random UUID, the kind, when it finished, the store's record id
  and the outcome (``engine.ratings.Outcome`` as JSON: sides of participant keys and their places).
  These rows are the truth: the ratings are computed from them alone, in the order (finished, id);
* ``ratings`` and ``rating_steps``: the current ratings and each game's change per player, a cache
  that :meth:`Players.recompute` rebuilds from ``games`` (after a merge or a delete, or when a game
  arrives out of order), giving the same numbers as the game-by-game updates;
* ``bests``: each player's best score per solo mode (higher is better; times are stored negated, as
  the store's high scores are).

Participant keys in an outcome: a player's id, ``robot:<level>``, ``guest:<n>``. A merged player's
id counts as the player it was merged into; a deleted player's as a guest.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from engine.players import DEFAULT_AVATAR, BadName, Player, check_avatar, clean_name, new_id
from engine.ratings import GUEST, Ladder, Outcome, Rating, Step, is_rated

if TYPE_CHECKING:
    from .store import SqliteStore

EXPORT_FORMAT = "tantrix-table-players/1"


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
    returns (through the store, so a failing disk is handled as for every other write)."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    # ---------------------------------------------------------------------------- players

    def create(self, name: str, avatar: str = DEFAULT_AVATAR) -> Player:
        """A new player; :class:`engine.players.BadName` if the name cannot be taken (the
        message says why) or is already a live player's (names are how people find themselves)."""
        player = Player(new_id(), clean_name(name), check_avatar(avatar), time.time())

        def add(db: sqlite3.Connection) -> None:
            self._check_free(db, player.name)
            db.execute("INSERT INTO players (id, name, avatar, created) VALUES (?, ?, ?, ?)",
                       (player.id, player.name, player.avatar, player.created))

        self._store.transaction(add)
        return player

    def all(self) -> list[Player]:
        """The live players, newest first (the setup's name buttons)."""
        rows = self._store.query("SELECT id, name, avatar, created FROM players"
                                 " WHERE merged_into IS NULL AND deleted IS NULL ORDER BY created DESC, id")
        return [Player(*row) for row in rows]

    def get(self, player_id: str) -> Player:
        rows = self._store.query("SELECT id, name, avatar, created FROM players"
                                 " WHERE id = ? AND merged_into IS NULL AND deleted IS NULL", (player_id,))
        if not rows:
            raise UnknownPlayer(player_id)
        return Player(*rows[0])

    def rename(self, player_id: str, name: str, avatar: str | None = None) -> Player:
        """Staff: a new name (and avatar) for a player; their games and ratings stay theirs."""
        name = clean_name(name)
        old = self.get(player_id)
        avatar = old.avatar if avatar is None else check_avatar(avatar)

        def change(db: sqlite3.Connection) -> None:
            self._check_free(db, name, player_id)
            db.execute("UPDATE players SET name = ?, avatar = ? WHERE id = ?", (name, avatar, player_id))

        self._store.transaction(change)
        return self.get(player_id)

    def merge(self, duplicate: str, into: str) -> None:
        """Staff: ``duplicate`` was the same person as ``into``: its games, bests and rating history
        become ``into``'s and the ladder is recomputed."""
        if duplicate == into:
            raise ValueError("a player cannot be merged into itself")
        self.get(duplicate), self.get(into)

        def change(db: sqlite3.Connection) -> None:
            db.execute("UPDATE players SET merged_into = ? WHERE id = ?", (into, duplicate))
            db.execute("UPDATE players SET merged_into = ? WHERE merged_into = ?", (into, duplicate))
            for mode, score, created in db.execute("SELECT mode, score, created FROM bests WHERE player = ?",
                                                   (duplicate,)).fetchall():
                self._keep_best(db, into, mode, score, created)
            db.execute("DELETE FROM bests WHERE player = ?", (duplicate,))
            self._recompute(db)

        self._store.transaction(change)

    def delete(self, player_id: str) -> None:
        """Staff: forget a player: name, avatar, bests and ratings go; the games they played stay
        (the others' ratings depend on them) with the player counted as a guest."""
        self.get(player_id)

        def change(db: sqlite3.Connection) -> None:
            db.execute("UPDATE players SET name = '', avatar = '', deleted = ? WHERE id = ? OR merged_into = ?",
                       (time.time(), player_id, player_id))
            db.execute("DELETE FROM bests WHERE player = ?", (player_id,))
            self._recompute(db)

        self._store.transaction(change)

    # ------------------------------------------------------------------------ games, ratings

    def record_game(self, kind: str, outcome: Outcome, record_id: int | None = None,
                    finished: float | None = None) -> list[Step]:
        """Keep a finished game's outcome and rate it; returns each rated player's change (none for
        a game already kept: each counts once). A game finished before the newest one kept (a clock set back) rates every game again in order."""
        finished = time.time() if finished is None else finished

        def add(db: sqlite3.Connection) -> list[Step]:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (outcome.game,)).fetchone() is not None:
                return []  # counted once, however often its end is reported
            latest = db.execute("SELECT max(finished) FROM games").fetchone()[0]
            db.execute("INSERT INTO games (id, kind, finished, record_id, outcome) VALUES (?, ?, ?, ?, ?)",
                       (outcome.game, kind, finished, record_id, json.dumps(outcome.to_json())))
            if latest is not None and finished < latest:
                ladder, history = self._recompute(db)
                return [s for s in history if s.game == outcome.game]
            ladder = self._ladder(db)
            steps = ladder.add(self._resolved(db, outcome))
            self._save_steps(db, ladder, steps)
            return steps

        return self._store.transaction(add)

    def ladder(self) -> list[LadderRow]:
        """The live players with a rated game, best first (by the conservative estimate)."""
        rows = self._store.query(
            "SELECT p.id, p.name, p.avatar, p.created, r.mu, r.sigma, r.games FROM ratings r"
            " JOIN players p ON p.id = r.player WHERE p.merged_into IS NULL AND p.deleted IS NULL")
        ladder = [LadderRow(Player(*row[:4]), Rating(row[4], row[5]), row[6]) for row in rows]
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
        ids = self._aliases(player_id)
        found = []
        for game, kind, finished, record_id, text in self._store.query(
                "SELECT id, kind, finished, record_id, outcome FROM games ORDER BY finished DESC, id DESC"):
            outcome = Outcome.from_json(json.loads(text))
            for side, place in zip(outcome.sides, outcome.ranks):
                if ids & set(side):
                    found.append(GameResult(game, kind, finished, place, len(outcome.sides), record_id))
        return found

    def recompute(self) -> Ladder:
        """Rate every stored game again, in order, and keep the result (the cache made anew)."""
        return self._store.transaction(lambda db: self._recompute(db)[0])

    # ------------------------------------------------------------------------------ solo bests

    def add_best(self, player_id: str, mode: str, score: int) -> bool:
        """Keep ``score`` as the player's best in ``mode`` if it beats the one kept; returns whether
        it did (times: pass minus the seconds, as for the store's high scores)."""
        self.get(player_id)
        return self._store.transaction(lambda db: self._keep_best(db, player_id, mode, score, time.time()))

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
        return {"format": EXPORT_FORMAT, "exported": time.time(), "players": players}

    def export_file(self) -> str:
        """Write :meth:`export` next to the database (staff copy it from there); returns its path."""
        path = self._store.path.with_name(time.strftime("players-export-%Y%m%d-%H%M%S.json"))
        path.write_text(json.dumps(self.export(), ensure_ascii=False, indent=1), encoding="utf-8")
        return str(path)

    # ---------------------------------------------------------------------------- internals

    def _check_free(self, db: sqlite3.Connection, name: str, own_id: str | None = None) -> None:
        row = db.execute("SELECT id FROM players WHERE lower(name) = lower(?) AND merged_into IS NULL"
                         " AND deleted IS NULL AND id IS NOT ?", (name, own_id)).fetchone()
        if row is not None:
            raise BadName("taken", f"{name} is already a player here: choose that name, or another one", name=name)

    def _aliases(self, player_id: str) -> set[str]:
        rows = self._store.query("SELECT id FROM players WHERE merged_into = ?", (player_id,))
        return {player_id, *(row[0] for row in rows)}

    @staticmethod
    def _keep_best(db: sqlite3.Connection, player: str, mode: str, score: int, created: float) -> bool:
        cursor = db.execute("INSERT INTO bests (player, mode, score, created) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT (player, mode) DO UPDATE SET score = excluded.score,"
                            " created = excluded.created WHERE excluded.score > bests.score",
                            (player, mode, score, created))
        return cursor.rowcount > 0

    @staticmethod
    def _resolved(db: sqlite3.Connection, outcome: Outcome) -> Outcome:
        """The outcome with merged ids replaced by the surviving player's and deleted ones (or an id
        seen twice in one game) by guests."""
        seen: set[str] = set()
        sides = []
        for side in outcome.sides:
            keys = []
            for key in side:
                if is_rated(key):
                    row = db.execute("SELECT merged_into, deleted FROM players WHERE id = ?", (key,)).fetchone()
                    if row is None or row[1] is not None or (row[0] or key) in seen:
                        key = f"{GUEST}{key}"
                    else:
                        key = row[0] or key
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
        db.execute("DELETE FROM ratings")
        db.execute("DELETE FROM rating_steps")
        ladder, history = Ladder(), []
        for (text,) in db.execute("SELECT outcome FROM games ORDER BY finished, id").fetchall():
            steps = ladder.add(self._resolved(db, Outcome.from_json(json.loads(text))))
            self._save_steps(db, ladder, steps)
            history.extend(steps)
        return ladder, history


def _rating_json(rating: Rating) -> dict[str, Any]:
    return {"mu": rating.mu, "sigma": rating.sigma, "points": rating.points}
