"""The club evening as the spectator page shows it: the round's pairings (with the table playing
each, or its result) and the standings, for the players' phones and a club's TV.

It is the evening this table's players take part in, read from the kiosk's database as the kiosk's
own screens read it (``engine.evening``): the one this table runs (``ui.services.TOURNAMENT``),
else the one a table of the club runs whose game was played here last, or one still running
(``firmware.club.CLUB_TOURNAMENTS``, what the other tables last said), with the results of the games
held here (``engine.evening.heard``). Pairings and standings are ``engine.tournament``'s; nothing
here decides either.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.evening import heard, playing_at, taking_part
from engine.ratings import ROBOT
from engine.tournament import Tournament
from firmware.club import CLUB_TOURNAMENTS, TOURNAMENT
from firmware.players import Players, UnknownPlayer

from .database import KioskDatabase


def evening_view(database: KioskDatabase) -> dict[str, Any] | None:
    """The page's view of the club evening (None: there is none)."""
    here = database.progress(TOURNAMENT)
    told = database.progress(CLUB_TOURNAMENTS).get("tables")
    tables = {table: said for table, said in told.items() if isinstance(said, dict)} if isinstance(told, dict) else {}
    found = taking_part(here, tables)
    if found is None:
        return None
    host, tournament = found
    if host is not None:  # as that table last told it, with the results this table holds
        tournament = heard(tournament, Players(database).tournament_entries)  # type: ignore[arg-type]  # reads only
    # the other tables playing its pairings, then this one (named "" for the page), by the same reading
    at = playing_at(tables, tournament.id, _online(database)) | playing_at({"": here}, tournament.id, lambda _: True)
    names = _names(database, tournament, (here if host is None else tables[host]).get("names"))
    return {"table": host, "round": len(tournament.played), "rounds": tournament.rounds,
            "finished": tournament.finished, "pairings": _pairings(tournament, names, at),
            "standings": _standings(tournament, names)}


def _online(database: KioskDatabase) -> Callable[[str], bool]:
    """Whether a table of the club is connected, as the kiosk's club link last told its status."""
    club = database.status().get("club")
    seen = club.get("tables") if isinstance(club, dict) else None
    tables: dict[str, Any] = seen if isinstance(seen, dict) else {}
    return lambda table: isinstance(tables.get(table), dict) and bool(tables[table].get("online"))


Shown = dict[str, str | None]
"""A player as the page names them: ``{"name": "Cleo"}``, ``{"robot": "club"}`` (the page words a
robot's level in its visitor's language) or ``{"name": None}`` for a player no table knows any more."""
_UNKNOWN: Shown = {"name": None}


def _names(database: KioskDatabase, tournament: Tournament, told: Any) -> dict[str, Shown]:
    """Each player: the name the table's own book has for a player it knows, else the one the
    running table gave; robots by level."""
    book = Players(database)  # type: ignore[arg-type]  # it only reads, through query()
    given = told if isinstance(told, dict) else {}
    names: dict[str, Shown] = {}
    for player in tournament.players:
        if player.startswith(ROBOT):
            names[player] = {"robot": player.removeprefix(ROBOT)}
            continue
        try:
            names[player] = {"name": book.get(player).name}
        except UnknownPlayer:
            names[player] = {"name": str(given[player]) if given.get(player) else None}
    return names


def _pairings(tournament: Tournament, names: Mapping[str, Shown], at: Mapping[frozenset[str], str]) -> list[dict[str, Any]]:
    """The round's pairings, then the round before's (its results), each with where it is played."""
    shown = []
    for number in range(len(tournament.played), max(0, len(tournament.played) - 2), -1):
        for game in tournament.played[number - 1]:
            shown.append({"round": number, "first": names.get(game.first, _UNKNOWN),
                          "second": names.get(game.second, _UNKNOWN) if game.second is not None else None,
                          "scores": list(game.scores) if game.scores is not None else None,
                          "at": None if game.played or game.second is None else at.get(frozenset((game.first, game.second))),
                          "forfeit": names.get(game.forfeit, _UNKNOWN) if game.forfeit is not None else None})
    return shown


def _standings(tournament: Tournament, names: Mapping[str, Shown]) -> list[dict[str, Any]]:
    """The standings, best first, with their places (those who left the evening said so)."""
    rows = []
    for place, row in tournament.placed():
        rows.append({"place": place, "name": names.get(row.player, _UNKNOWN), "points": row.points,
                     "buchholz": row.buchholz, "sonneborn_berger": row.sonneborn_berger,
                     "left": row.player in tournament.withdrawn})
    return rows
