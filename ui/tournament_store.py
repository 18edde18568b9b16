"""The club evening as the store keeps it (progress key :data:`ui.services.TOURNAMENT`), on one table
or on several tables of a club.

What the key holds, and how what the club's tables tell of theirs is read, is
:mod:`engine.evening`'s (the web page reads it the same way).

The firmware shows the key to the club's other tables as it is. A game of the tournament writes its
result in its own record (:func:`entry_of`, ``engine.tournament.entry``), so the result travels with
the rated game to every table, through the same path that shares the ladder, and survives a power
cut or a broker away as the game does. The table that runs the tournament enters the results it
finds among its games (:func:`load`: its own and the other tables', each once) and pairs the next
round as soon as a round is complete; :func:`follow` does so about once a second (``KioskApp``),
so that the other tables see the next round even while a game is played here. A game left
unfinished (Leave, Discard, staff's Clear) is no longer said played here (:func:`given_up`).
Staff may run here an evening whose table is gone (:func:`take_over`); a table that hears another
took its evening over gives it up (:func:`load`).
The tournament's screens are :mod:`ui.screens.tournament`.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from engine import evening as evening_told
from engine.evening import running
from engine.strategy.game import StrategyGame
from engine.ratings import ROBOT
from engine.tournament import Tournament, entry

from .seat_players import fingerprint
from .services import TOURNAMENT
from .shell import Shell

log = logging.getLogger(__name__)

ENDED_KEPT = 8
"""How many evenings ended here after being taken over a table keeps telling (``save``): their
first tables come back within days, not after many evenings."""


def load(app: Shell) -> Tournament | None:
    """The tournament this table runs, with every result found among the games entered and the next
    round paired when one is complete (and kept so); None: none here, or unreadable (then it is
    dropped, said in the log)."""
    kept = app.services.store.progress(TOURNAMENT)
    if not kept or kept.get("tournament") is None:
        return None
    try:
        tournament = Tournament.from_json(kept["tournament"])
    except (KeyError, TypeError, ValueError, IndexError) as error:
        log.warning("the tournament kept cannot be read (%s); it is dropped", error)
        _tell(app, {})
        return None
    playing = _playing(kept)
    club = app.services.club
    taken = evening_told.superseded(kept, club.table, club.tournaments()) if club is not None else None
    if taken is not None:  # staff at another table took the evening over while this one was away
        log.info("table %s took over the tournament %s; this table plays its games now", taken, tournament.id)
        _tell(app, {"club": {"table": taken, "id": tournament.id}, "playing": playing})
        return None
    if _catch_up(app, tournament) or kept["tournament"].get("id") != tournament.id:  # or it was kept without one
        save(app, tournament, playing)
    return tournament


def _playing(kept: dict[str, Any]) -> dict[str, Any] | None:
    """The game of the evening being played at this table, as ``kept`` (the store's key) says."""
    playing = kept.get("playing")
    return playing if isinstance(playing, dict) else None


def follow(app: Shell) -> None:
    """The table's tick: enter the results other tables sent, pair the next round when it is time."""
    if app.services.players is not None:  # results come with rated games: none without players
        load(app)


def _catch_up(app: Shell, tournament: Tournament) -> bool:
    """Enter the results found among the games, pairing each round once the one before is complete;
    whether anything changed."""
    book = app.services.players
    entries = evening_told.results(tournament, book.tournament_entries) if book is not None else []
    before = tournament.to_json()
    while True:
        for found in entries:
            tournament.enter(found)
        if not tournament.advance():
            return tournament.to_json() != before


def save(app: Shell, tournament: Tournament | None, playing: dict[str, Any] | None = None) -> None:
    """Keep the tournament this table runs (None: staff ended it), with the game it plays now. An
    evening that had been taken over is told ended from then on (``engine.evening.ended``): the
    table it came from, coming back with it, gives it up instead of running it again."""
    kept = app.services.store.progress(TOURNAMENT)
    if tournament is None:
        own, taken = running(kept), evening_told.generation(kept)
        notes = [{"id": which, "generation": generation} for which, generation in evening_told.ended(kept)]
        if own is not None and taken:
            notes = [{"id": own.id, "generation": taken}, *notes][:ENDED_KEPT]
        app.services.store.set_progress(TOURNAMENT, {"ended": notes} if notes else {})
        return
    was = kept.get("tournament")
    same = isinstance(was, dict) and was.get("id") == tournament.id
    _keep(app, tournament, playing, kept.get("names") if same else None, evening_told.generation(kept) if same else 0)


def _keep(app: Shell, tournament: Tournament, playing: dict[str, Any] | None, told: Any, taken: int) -> None:
    """Keep ``tournament`` as this table's, with the names ``told`` by the table it came from for
    the players this table has not heard of, and how often it was taken over."""
    value: dict[str, Any] = {"tournament": tournament.to_json(), "playing": playing,
                             "names": _names(app, tournament, told if isinstance(told, dict) else {})}
    if taken:
        value["generation"] = taken
    _tell(app, value)


def _tell(app: Shell, value: dict[str, Any]) -> None:
    """Keep ``value`` as this table's club evening, with the evenings it ended after they had been
    taken over (``save``), which it keeps telling whatever it tells next."""
    notes = app.services.store.progress(TOURNAMENT).get("ended")
    app.services.store.set_progress(TOURNAMENT, {**value, "ended": notes} if isinstance(notes, list) and notes
                                    else value)


def withdraw(app: Shell, player: str) -> Tournament | None:
    """``player`` leaves the evening this table runs (``Tournament.withdraw``); the next round is
    paired if that completed this one. None when this table runs none."""
    return _change(app, lambda tournament: tournament.withdraw(player))


def join(app: Shell, player: str) -> Tournament | None:
    """``player`` joins the evening this table runs late, or comes back (``Tournament.join``)."""
    return _change(app, lambda tournament: tournament.join(player))


def _change(app: Shell, how: Callable[[Tournament], None]) -> Tournament | None:
    tournament = load(app)
    if tournament is None:
        return None
    kept = app.services.store.progress(TOURNAMENT)
    how(tournament)
    _catch_up(app, tournament)
    save(app, tournament, _playing(kept))
    return tournament


def take_over(app: Shell, host: str) -> Tournament | None:
    """Staff run here the evening the club's table ``host`` ran (broken, or gone for the night):
    this table pairs its next rounds from now on, with every result it has heard; ``host`` gives it
    up when it comes back (``engine.evening.superseded``). None when ``host`` runs none."""
    told = _told(app)
    tournament = running(told.get(host))
    if tournament is None:
        return None
    latest = told.get(evening_told.runner(told, tournament.id) or host)
    kept = app.services.store.progress(TOURNAMENT)
    playing = _playing(kept)
    _keep(app, tournament, playing, (told.get(host) or {}).get("names"), evening_told.generation(latest) + 1)
    return load(app)


def names_kept(app: Shell) -> dict[str, str]:
    """The players' names this table's tournament keeps: for one taken over from another table,
    those of players this table has not heard of yet."""
    names = app.services.store.progress(TOURNAMENT).get("names")
    return {k: v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {}


def _names(app: Shell, tournament: Tournament, told: dict[str, Any]) -> dict[str, str]:
    """The players' names, for the club's tables that have not heard of a player yet: this table's,
    else those ``told`` by the table the tournament came from."""
    book = app.services.players
    names = {player: name for player, name in told.items() if player in tournament.players and isinstance(name, str)}
    for player in tournament.players:
        if book is not None and not player.startswith(ROBOT):
            try:
                names[player] = str(book.get(player).name)
            except Exception:  # deleted since: the tables name it as they can
                continue
    return names


def start_game(app: Shell, tournament: Tournament, host: str | None, first: str, second: str,
               game: StrategyGame) -> None:
    """Keep ``game`` (just started) as the tournament's game between ``first`` and ``second``, of
    the tournament this table runs (``host`` None) or of the one ``host`` runs."""
    playing = {"first": first, "second": second, "round": len(tournament.played), "of": fingerprint(game.record())}
    if host is None:
        save(app, tournament, playing)
    else:
        _tell(app, {"club": {"table": host, "id": tournament.id},
                                                     "playing": playing})


def given_up(app: Shell) -> None:
    """The game in progress at this table is forgotten unfinished: if it was the tournament's game,
    none is played here now, so the club's tables stop showing its pairing as being played at this
    table (its Play was never taken away: the pairing can be started again, here or elsewhere)."""
    kept = app.services.store.progress(TOURNAMENT)
    if kept and kept.get("playing") is not None:
        app.services.store.set_progress(TOURNAMENT, {**kept, "playing": None})


def entry_of(app: Shell, game: StrategyGame) -> dict[str, Any] | None:
    """What ``game`` (just finished) writes in its record if it is the tournament's game at this
    table: its result in the tournament (``engine.tournament.entry``); None otherwise."""
    kept = app.services.store.progress(TOURNAMENT)
    playing = kept.get("playing") if kept else None
    if not isinstance(playing, dict) or playing.get("of") != fingerprint(game.record()) or game.result is None:
        return None
    owner = kept.get("tournament") if kept.get("tournament") is not None else kept.get("club")
    number = playing.get("round")
    if not isinstance(owner, dict) or not isinstance(owner.get("id"), str):
        return None
    if not isinstance(number, int):  # a game started before games knew their round: the current one
        number = len(owner.get("played") or [])
    result = game.result
    first, second = result.scores.get(game.colour_of(0), 0), result.scores.get(game.colour_of(1), 0)
    # the places decide, as on the results screen and in the ratings: a loss on time loses whatever
    # the score
    place = game.places()
    if place[game.colour_of(0)] < place[game.colour_of(1)]:
        second = min(second, first - 1)
    elif place[game.colour_of(1)] < place[game.colour_of(0)]:
        first = min(first, second - 1)
    try:
        return entry(owner["id"], number, str(playing["first"]), str(playing["second"]), (first, second))
    except KeyError as error:  # damaged: a finished game must still end
        log.warning("the tournament's game kept cannot be matched (%s); its result is not entered", error)
        return None


def report(app: Shell, found: dict[str, Any] | None) -> bool:
    """The game at this table whose record holds ``found`` (:func:`entry_of`) has ended: enter its
    result in the tournament this table runs, or let the table that runs it find it in the record;
    True when the game was a tournament's."""
    if found is None:
        return False
    kept = app.services.store.progress(TOURNAMENT)
    if kept.get("club") is not None:
        _tell(app, {"club": kept["club"], "playing": None})
        return True
    tournament = load(app)  # which may have found it among the games already
    if tournament is None:  # ended by staff meanwhile; or taken over elsewhere, which finds it in the record
        return app.services.store.progress(TOURNAMENT).get("club") is not None
    if not tournament.enter(found):
        # one of its players left the evening meanwhile (a forfeit), or staff started another
        # tournament: the result counts for nothing, but the game was the evening's, so the table
        # says it plays it no more and its players go back to the evening's screen
        log.warning("the tournament's game is not one it awaits (%s); its result is not entered", found)
        save(app, tournament)
        return True
    _catch_up(app, tournament)
    save(app, tournament)
    return True


def club_tournament(app: Shell, host: str) -> tuple[Tournament, dict[str, str], dict[frozenset[str], str]] | None:
    """The tournament ``host`` (another table of the club) runs, as it last said: the tournament,
    its players' names, and the tables playing its pairings now; None when it runs none."""
    told = _told(app).get(host) or {}
    tournament = running(told)
    if tournament is None:
        return None
    return _heard(app, tournament), dict(told.get("names") or {}), playing_at(app, tournament.id)


def _heard(app: Shell, tournament: Tournament) -> Tournament:
    """Another table's ``tournament`` with the results this table holds entered
    (``engine.evening.heard``): a game played here shows its result while that table is out of reach."""
    book = app.services.players
    return evening_told.heard(tournament, book.tournament_entries) if book is not None else tournament


def runs_now(app: Shell, tournament: str) -> str | None:
    """The table of the club that runs ``tournament`` now (another took it over, perhaps)."""
    return evening_told.runner(_told(app), tournament)


def playing_at(app: Shell, tournament: str) -> dict[frozenset[str], str]:
    """The other tables of the club playing a pairing of ``tournament`` now, by pairing."""
    club = app.services.club
    return evening_told.playing_at(club.tournaments(), tournament, club.online) if club is not None else {}


def running_elsewhere(app: Shell) -> str | None:
    """The table of the club running an unfinished tournament, the one this table played a game of
    last first; None."""
    return evening_told.running_elsewhere(app.services.store.progress(TOURNAMENT), _told(app))


def evening(app: Shell) -> tuple[str | None, Tournament] | None:
    """The club evening this table's players take part in (``engine.evening.taking_part``), this
    table's own with every result found entered, another's with the results held here."""
    here = load(app)
    if here is not None:
        return None, here
    found = evening_told.taking_part(app.services.store.progress(TOURNAMENT), _told(app))
    return None if found is None else (found[0], _heard(app, found[1]))


def _told(app: Shell) -> dict[str, dict[str, Any]]:
    """What each other table of the club last told of its club evening, by table ({} alone)."""
    club = app.services.club
    return club.tournaments() if club is not None else {}
