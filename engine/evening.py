"""A club evening as a club's tables tell it: which tournament a table runs, which table plays which
pairing, which evening a table's players take part in.

One reading for every client: the kiosk's screens (``ui.tournament_store``) and its web page for
spectators (``web.evening``) ask these functions, so the table and the phones never disagree on
what is being played where.

What a table tells (its store's club evening, ``ui.services.TOURNAMENT``, which the firmware
publishes to the club as it is) is one of:

* ``{"tournament": Tournament.to_json(), "playing": ..., "names": {player: name}}``: it runs that
  tournament (``names`` for the tables that have not heard of a player yet);
* ``{"club": {"table": t, "id": i}, "playing": ...}``: it plays, or last played, a game of the
  tournament ``i`` that table ``t`` runs;
* ``{}``: no club evening there.

``playing`` is ``{"first": key, "second": key, ...}`` while one of the tournament's pairings is
being played at that table, else None.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .tournament import Tournament

Told = Mapping[str, Any]
"""What one table tells of its club evening (see the module's docstring)."""


def running(told: Told | None) -> Tournament | None:
    """The tournament ``told`` says its table runs; None when it runs none, or what it says cannot
    be read (a damaged word is no evening, never a crash)."""
    if not told or told.get("tournament") is None:
        return None
    try:
        return Tournament.from_json(told["tournament"])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def playing_at(tables: Mapping[str, Told], tournament: str, online: Callable[[str], bool]) -> dict[frozenset[str], str]:
    """The tables (of ``tables``, by name) playing a pairing of ``tournament`` now, by pairing: a
    table counts while it is connected to the club (one switched off mid-game plays nothing)."""
    found: dict[frozenset[str], str] = {}
    for table, told in tables.items():
        playing, runs, plays = told.get("playing"), told.get("tournament"), told.get("club")
        ours = any(isinstance(said, dict) and said.get("id") == tournament for said in (runs, plays))
        if isinstance(playing, dict) and ours and online(table):
            first, second = playing.get("first"), playing.get("second")
            if isinstance(first, str) and isinstance(second, str):
                found[frozenset((first, second))] = table
    return found


def played_last(here: Told | None) -> str | None:
    """The table whose tournament this table (telling ``here``) played a game of last."""
    club = here.get("club") if here else None
    table = club.get("table") if isinstance(club, dict) else None
    return table if isinstance(table, str) else None


def running_elsewhere(here: Told | None, tables: Mapping[str, Told]) -> str | None:
    """The table (of ``tables``) running an unfinished tournament: the one this table played a game
    of last first; None."""
    unfinished = [table for table, told in tables.items() if (found := running(told)) and not found.finished]
    last = played_last(here)
    return last if last in unfinished else next(iter(unfinished), None)


def taking_part(here: Told | None, tables: Mapping[str, Told]) -> tuple[str | None, Tournament] | None:
    """The club evening this table's players take part in: (None, the tournament this table runs),
    or (a table of the club, the tournament it runs: the one this table last played a game of, even
    finished, else one still running); None when there is none."""
    own = running(here)
    if own is not None:
        return None, own
    for table in (played_last(here), running_elsewhere(here, tables)):
        found = running(tables.get(table)) if table is not None else None
        if found is not None:
            return table, found
    return None
