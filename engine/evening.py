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

A table that runs a tournament also tells its ``generation``: 0 for the table where staff started
it, one more each time staff at another table take the evening over (its table broken or gone for
the night, :func:`runner`). When two tables say they run the same tournament, the one of the higher
generation runs it (on a tie, the first by name) and the other gives it up: no clock decides, so
tables whose clocks disagree still agree. A table whose staff end an evening that had been taken
over keeps telling it, beside whatever it tells next: ``"ended": [{"id": i, "generation": g},
...]`` (the last few); an end at a generation as high as any table's that runs it is that evening's
end on every table, so its first table, coming back with it days later, gives it up instead of
running it again.

The results are in the games' records (``engine.tournament.entry``), which travel to every table
with the rated games: the table running the tournament enters them and pairs on; every other table
shows the tournament as that table last told it, with the results it holds itself entered too
(:func:`heard`), so a game played there while the running table is out of reach shows its result
at once instead of its pairing waiting to be played.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from .tournament import Tournament

Told = Mapping[str, Any]
"""What one table tells of its club evening (see the module's docstring)."""
Entries = Callable[[str], Iterable[Mapping[str, Any]]]
"""How a table finds the results its games hold: tournament id -> the entries, in the ladder's order
(``firmware.players.Players.tournament_entries``)."""


def results(tournament: Tournament, find: Entries) -> list[Mapping[str, Any]]:
    """The results of ``tournament``'s games among those a table holds (``find``), found by its id
    alone: no clock decides (a table without a battery clock may be days behind the others)."""
    return list(find(tournament.id))


def heard(tournament: Tournament, find: Entries) -> Tournament:
    """``tournament`` as the table running it last told it, with the results of the games this
    table holds (``find``) that it has not told yet, entered as it will enter them (once each; of
    two results of one pairing, the first in the ladder's order). No round is paired: only the
    running table pairs."""
    shown = Tournament.from_json(tournament.to_json())
    for found in results(shown, find):
        shown.enter(found)
    return shown


def running(told: Told | None) -> Tournament | None:
    """The tournament ``told`` says its table runs; None when it runs none, or what it says cannot
    be read (a damaged word is no evening, never a crash)."""
    if not told or told.get("tournament") is None:
        return None
    try:
        return Tournament.from_json(told["tournament"])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def generation(told: Told | None) -> int:
    """How many times the tournament ``told`` says its table runs was taken over before it."""
    value = told.get("generation") if told else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def ended(told: Told | None) -> list[tuple[str, int]]:
    """The tournaments ``told`` says its table ended, each with its generation then (the last few:
    see the module's docstring); what does not read is left out."""
    notes = told.get("ended") if told else None
    return [(note["id"], note["generation"]) for note in notes if isinstance(note, dict)
            and isinstance(note.get("id"), str) and generation(note) == note.get("generation")] \
        if isinstance(notes, list) else []


def _latest(tables: Mapping[str, Told], tournament: str) -> tuple[str, bool] | None:
    """The table (of ``tables``) whose word on ``tournament`` is the latest, and whether it runs it
    (else it ended it): the highest generation first; on a tie an end first (one of two tables that
    both took the evening over ended it), then the first by name. None when no table says either."""
    words = [(-generation(told), 1, table) for table, told in tables.items()
             if (found := running(told)) is not None and found.id == tournament]
    words += [(-taken, 0, table) for table, told in tables.items() for which, taken in ended(told) if which == tournament]
    if not words:
        return None
    _, runs, table = min(words)
    return table, bool(runs)


def runner(tables: Mapping[str, Told], tournament: str) -> str | None:
    """The table (of ``tables``) that runs ``tournament``: of those that say they do, the one of the
    highest generation, the first by name on a tie; None when none does, or when staff ended it at a
    table that ran it as late (a first table coming back with an evening taken over and ended since
    runs it no more)."""
    latest = _latest(tables, tournament)
    return latest[0] if latest is not None and latest[1] else None


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


def played_last(here: Told | None, tables: Mapping[str, Told]) -> str | None:
    """The table (of ``tables``) running the tournament this table (telling ``here``) played a game
    of last: the one that took it over (or ended it) since, if one did."""
    club = here.get("club") if here else None
    if not isinstance(club, dict):
        return None
    table, tournament = club.get("table"), club.get("id")
    latest = _latest(tables, tournament) if isinstance(tournament, str) else None
    return latest[0] if latest is not None else table if isinstance(table, str) else None


def running_elsewhere(here: Told | None, tables: Mapping[str, Told]) -> str | None:
    """The table (of ``tables``) running an unfinished tournament: the one this table played a game
    of last first; None."""
    unfinished = [table for table, told in tables.items() if (found := running(told)) and not found.finished
                  and runner(tables, found.id) == table]
    last = played_last(here, tables)
    return last if last in unfinished else next(iter(unfinished), None)


def superseded(here: Told | None, table: str, tables: Mapping[str, Told]) -> str | None:
    """The table of the club that took over the tournament this table (``table``, telling ``here``)
    runs, or ended it after taking it over, which this table must then give up; None while it is
    still this table's to run."""
    own = running(here)
    if own is None:
        return None
    latest = _latest({**tables, table: here} if here else tables, own.id)
    return latest[0] if latest is not None and latest[0] != table else None


def taking_part(here: Told | None, tables: Mapping[str, Told]) -> tuple[str | None, Tournament] | None:
    """The club evening this table's players take part in: (None, the tournament this table runs),
    or (a table of the club, the tournament it runs: the one this table last played a game of, even
    finished, else one still running); None when there is none."""
    own = running(here)
    if own is not None:
        return None, own
    for table in (played_last(here, tables), running_elsewhere(here, tables)):
        found = running(tables.get(table)) if table is not None else None
        if found is not None:
            return table, found
    return None
