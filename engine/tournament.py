"""A club evening: a Swiss tournament of two-player games, its pairings and standings.

Pairing: each round pairs players with equal or close tournament points who have not met yet, the
standard aim of Swiss systems. It is solved as a maximum-weight perfect matching (Edmonds' blossom
algorithm, ``networkx.max_weight_matching``), the method many Swiss pairing programs use for the
Dutch system's first criteria: a pair's weight is high when the two have not met and falls with the
square of their points' difference, so the matching keeps score groups together, never repeats a
pairing while any pairing of everyone without repeats exists, and otherwise pairs those who met
the fewest times (so two players of a quiet club evening can play three rounds: a best of three). With
an odd number of players the lowest-placed player among those with the fewest byes gets one (a win,
no opponent).

A tournament may be played on several tables of a club at once (``ui.tournament_store``): its
``id`` names it in each game's record (:func:`entry`, like the Event and Round of a chess
game's header), the records travel between the tables with the rated games, and the table that
runs the tournament enters the results it finds (:meth:`Tournament.enter`, once each, whatever table
sent them) and pairs the next round as soon as the last game of a round has its result
(:meth:`Tournament.advance`).

Players come and go as at a club: one who leaves (:meth:`Tournament.withdraw`) is paired no more
and keeps the points earned, and a game of theirs not yet played is lost by forfeit (the round can
then end without them); one who arrives late (:meth:`Tournament.join`) is paired from the next
round on, with no points for the rounds before.

Standings: tournament points (win 1, draw 1/2, bye 1), then the usual tie-breaks in order:
Buchholz (the sum of the opponents' points), Sonneborn-Berger (the points of the opponents beaten,
plus half of those drawn with), the total score margin of the games, then the player's key (so the
order is always complete and the same on every table).
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    import networkx as nx

BYE = None


@dataclass(frozen=True, slots=True)
class Game:
    """One pairing of a round and, once played, its final (penalised) scores; or the player who
    left the tournament before playing it (``forfeit``: the other wins, no score)."""

    first: str
    second: str | None  # None: a bye
    scores: tuple[int, int] | None = None
    forfeit: str | None = None

    @property
    def played(self) -> bool:
        return self.second is None or self.scores is not None or self.forfeit is not None

    def points(self, player: str) -> float:
        """Tournament points ``player`` earned here (1 win, 1/2 draw, 0 loss; a bye is a win, so is
        a game the other player left)."""
        if self.second is None:
            return 1.0
        if self.forfeit is not None:
            return 0.0 if player == self.forfeit else 1.0
        if self.scores is None:
            return 0.0
        mine, theirs = self.scores if player == self.first else self.scores[::-1]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    def opponent(self, player: str) -> str | None:
        return self.second if player == self.first else self.first

    def margin(self, player: str) -> int:
        if self.second is None or self.scores is None:
            return 0
        mine, theirs = self.scores if player == self.first else self.scores[::-1]
        return mine - theirs

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"first": self.first, "second": self.second,
                                 "scores": list(self.scores) if self.scores else None}
        if self.forfeit is not None:
            shown["forfeit"] = self.forfeit
        return shown

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        if not isinstance(data, Mapping):
            raise TypeError(f"a game that is not an object: {data!r:.40}")
        scores, second, forfeit = data.get("scores"), data.get("second"), data.get("forfeit")
        game = cls(str(data["first"]), None if second is None else str(second),
                   (int(_finite(scores[0])), int(_finite(scores[1]))) if scores else None,
                   None if forfeit is None else str(forfeit))
        if game.forfeit is not None and (game.forfeit not in (game.first, game.second) or game.scores is not None):
            raise ValueError("a game forfeited by neither of its players, or played as well")
        return game


def entry(tournament: str, number: int, first: str, second: str, scores: tuple[int, int]) -> dict[str, Any]:
    """What a game of round ``number`` of ``tournament`` (its id) between ``first`` and ``second``
    that ended with ``scores`` (``first``'s, ``second``'s) writes in its record, for
    :meth:`Tournament.enter` at the table that runs the tournament."""
    return {"id": tournament, "round": number, "first": first, "second": second,
            "scores": [int(scores[0]), int(scores[1])]}


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    points: float
    buchholz: float
    sonneborn_berger: float
    margin: int


@dataclass
class Tournament:
    """``players`` (keys: player ids), ``rounds`` to play, ``minutes`` per player per game; ``id``
    names it in its games' records, ``started`` (seconds since the epoch) is when it began;
    ``withdrawn``: the players who left it (:meth:`withdraw`), paired no more but still ranked."""

    players: tuple[str, ...]
    rounds: int
    minutes: float = 15.0
    played: list[list[Game]] = field(default_factory=list)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    started: float = 0.0
    withdrawn: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players) or len(self.players) < 2:
            raise ValueError("a tournament needs two or more different players")
        if self.rounds < 1:
            raise ValueError(f"a tournament needs one round or more, got {self.rounds}")

    @property
    def rounds_without_repeats(self) -> int:
        """The most rounds in which nobody meets anyone twice (more rounds repeat some pairings)."""
        return len(self.players) - 1 + len(self.players) % 2

    @property
    def active(self) -> tuple[str, ...]:
        """The players still taking part (paired in the rounds to come)."""
        return tuple(p for p in self.players if p not in self.withdrawn)

    @property
    def finished(self) -> bool:
        """Every round played; or fewer than two players left to pair once a round is complete."""
        complete = not self.played or all(g.played for g in self.played[-1])
        return complete and (len(self.played) == self.rounds or (bool(self.played) and len(self.active) < 2))

    def withdraw(self, player: str) -> None:
        """``player`` leaves the evening: not paired again, still in the standings with the points
        earned; their game of the current round, if not played yet, is lost by forfeit (so the round
        can end without them)."""
        if player not in self.active:
            raise ValueError(f"{player} does not take part in the tournament")
        self.withdrawn += (player,)
        current = self.played[-1] if self.played else []
        for i, game in enumerate(current):
            if player in (game.first, game.second) and not game.played:
                current[i] = Game(game.first, game.second, forfeit=player)

    def join(self, player: str) -> None:
        """``player`` joins late: paired from the next round on, with no points for the rounds
        before (a withdrawn player may come back the same way)."""
        if player in self.active:
            raise ValueError(f"{player} takes part in the tournament already")
        if player in self.withdrawn:
            self.withdrawn = tuple(p for p in self.withdrawn if p != player)
        else:
            self.players += (player,)

    def pair_next_round(self) -> list[Game]:
        """Pair the next round (the previous one must be complete) and return its games."""
        if self.played and not all(g.played for g in self.played[-1]):
            raise ValueError("the round in progress has games without a result")
        if len(self.played) >= self.rounds:
            raise ValueError("every round has been played")
        if len(self.active) < 2:
            raise ValueError("fewer than two players are left to pair")
        standings = self.standings()
        points = {s.player: s.points for s in standings}
        order = [s.player for s in standings if s.player not in self.withdrawn]
        waiting = list(order)
        games: list[Game] = []
        if len(waiting) % 2:
            byes = {p: 0 for p in order}
            for game in (g for rnd in self.played for g in rnd if g.second is None and g.first in byes):
                byes[game.first] += 1
            fewest = min(byes.values())
            bye = next(p for p in reversed(order) if byes[p] == fewest)
            waiting.remove(bye)
            games.append(Game(bye, BYE))
        # networkx (14 MB resident) is loaded here, where a round is paired: the web pages' process
        # only reads standings and never needs it
        import networkx as nx

        met = self._met()
        graph: nx.Graph[str] = nx.Graph()
        spread = max(len(self.played), 1)
        for i, a in enumerate(waiting):
            for b in waiting[i + 1:]:
                times = met.get(frozenset((a, b)), 0)
                closeness = (spread * 2) ** 2 - (2 * (points[a] - points[b])) ** 2
                # each earlier meeting costs more than any gain in closeness could make up for
                weight = 1 + closeness + (spread - times) * 100 * (spread * 2) ** 2 * len(waiting)
                graph.add_edge(a, b, weight=weight)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        rank = {p: i for i, p in enumerate(order)}
        pairs = sorted((tuple(sorted(pair, key=rank.__getitem__)) for pair in matching), key=lambda p: rank[p[0]])
        games = [Game(a, b) for a, b in pairs] + games
        self.played.append(games)
        return games

    def report(self, first: str, second: str, scores: tuple[int, int]) -> None:
        """The result of the current round's game between ``first`` and ``second``."""
        current = self.played[-1] if self.played else []
        for i, game in enumerate(current):
            if {game.first, game.second} == {first, second}:
                ordered = scores if game.first == first else (scores[1], scores[0])
                current[i] = Game(game.first, game.second, (int(ordered[0]), int(ordered[1])))
                return
        raise ValueError(f"{first} and {second} do not play each other this round")

    def advance(self) -> bool:
        """Pair the next round if the current one is complete and rounds remain (whether it did)."""
        if self.finished or (self.played and not all(g.played for g in self.played[-1])):
            return False
        self.pair_next_round()
        return True

    def enter(self, entry: Mapping[str, Any]) -> bool:
        """Put a game's result (its record's :func:`entry`) in the tournament, once: whether the
        tournament holds it now (entered now or before; a round is complete before the next is
        paired, so only the current one takes results). False, changing nothing, for another
        tournament's game, a pairing not made, a second game of a pairing with another result (the
        first entered stays), an entry that does not hold together."""
        try:
            first, second, number = entry["first"], entry["second"], entry["round"]
            scores = tuple(int(s) for s in entry["scores"])
        except (KeyError, TypeError, ValueError):
            return False
        if entry.get("id") != self.id or not isinstance(number, int) or not 1 <= number <= len(self.played) \
                or len(scores) != 2 or not isinstance(first, str) or not isinstance(second, str):
            return False
        game = next((g for g in self.played[number - 1] if {g.first, g.second} == {first, second}), None)
        if game is None or game.forfeit is not None:  # a game one of them left before it was played
            return False
        ordered = (scores[0], scores[1]) if game.first == first else (scores[1], scores[0])
        if game.scores is not None:
            return game.scores == ordered
        games = self.played[number - 1]
        games[games.index(game)] = Game(game.first, game.second, ordered)
        return True

    def standings(self) -> list[Standing]:
        """Everyone, best first, with their tie-break values."""
        games = [g for rnd in self.played for g in rnd if g.played]
        points = {p: 0.0 for p in self.players}
        margin = {p: 0 for p in self.players}
        for game in games:
            for player in (game.first, game.second):
                if player is not None:
                    points[player] += game.points(player)
                    margin[player] += game.margin(player)
        rows = []
        for player in self.players:
            buchholz = sonneborn = 0.0
            for game in games:
                if player not in (game.first, game.second) or game.second is None:
                    continue
                other = game.opponent(player)
                assert other is not None
                buchholz += points[other]
                sonneborn += points[other] * game.points(player)
            rows.append(Standing(player, points[player], buchholz, sonneborn, margin[player]))
        return sorted(rows, key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, -s.margin, s.player))

    def placed(self) -> list[tuple[int, Standing]]:
        """The standings with each one's place: players level on every criterion but the key share
        the better place (1, 2, 2, 4), as a club's wall chart shows them."""
        rows: list[tuple[int, Standing]] = []
        for index, row in enumerate(self.standings(), 1):
            level = rows and _level(rows[-1][1], row)
            rows.append((rows[-1][0] if level else index, row))
        return rows

    def _met(self) -> dict[frozenset[str], int]:
        """How often each pair has met."""
        met: dict[frozenset[str], int] = {}
        for game in (g for rnd in self.played for g in rnd):
            if game.second is not None:
                pair = frozenset((game.first, game.second))
                met[pair] = met.get(pair, 0) + 1
        return met

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "rounds": self.rounds, "minutes": self.minutes,
                "played": [[g.to_json() for g in rnd] for rnd in self.played], "id": self.id,
                "started": self.started, "withdrawn": list(self.withdrawn)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        """The tournament ``to_json`` gave (one kept before tournaments had ids gets a new one);
        KeyError, TypeError or ValueError, and only these, for one that does not hold together
        (what another table of the club says is read here: a game that is a list, a score or a
        clock of Infinity must be refused as such, not raise what its readers do not expect)."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a tournament that is not an object: {data!r:.40}")
        minutes = _finite(data["minutes"])
        if minutes < 0:
            raise ValueError(f"a clock of {minutes} minutes")
        tournament = cls(tuple(str(p) for p in data["players"]), int(_finite(data["rounds"])), minutes,
                         [[Game.from_json(g) for g in rnd] for rnd in data["played"]],
                         str(data.get("id") or uuid.uuid4().hex), _finite(data.get("started", 0.0)),
                         tuple(str(p) for p in data.get("withdrawn") or ()))
        named = set(tournament.players)
        if not set(tournament.withdrawn) <= named or len(set(tournament.withdrawn)) != len(tournament.withdrawn):
            raise ValueError("a player withdrawn who is not in the tournament, or twice")
        for rnd in tournament.played:
            for game in rnd:
                if game.first not in named or (game.second is not None and game.second not in named):
                    raise ValueError("a game between players not in the tournament")
        return tournament


def _finite(value: Any) -> float:
    """``value`` as a finite number; ValueError for Infinity, NaN (which a JSON reader accepts) and
    an integer too large for a float."""
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{value!r:.40} is not a finite number") from None
    if not math.isfinite(number):
        raise ValueError(f"{value!r} is not a finite number")
    return number


def _level(a: Standing, b: Standing) -> bool:
    """Whether two standings tie on every criterion before the player's key."""
    return (a.points, a.buchholz, a.sonneborn_berger, a.margin) == (b.points, b.buchholz, b.sonneborn_berger, b.margin)
