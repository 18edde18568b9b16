"""The club evening's tournament as the store keeps it (progress key :data:`TOURNAMENT`): the
tournament in progress and the game at the table that belongs to it, whose result goes into the
tournament when it ends (:func:`report`, called by the game's screen: a game resumed after a power
cut reports too). The tournament's screens are :mod:`ui.screens.tournament`.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.strategy.game import StrategyGame
from engine.tournament import Tournament

from .seat_players import fingerprint
from .shell import Shell

TOURNAMENT = "tournament"
"""The store's progress key: {"tournament": Tournament.to_json(), "playing": the game at the table}."""

log = logging.getLogger(__name__)


def load(app: Shell) -> Tournament | None:
    """The tournament in progress, or None (none, or unreadable: then it is dropped, said in the log)."""
    kept = app.services.store.progress(TOURNAMENT)
    if not kept:
        return None
    try:
        return Tournament.from_json(kept["tournament"])
    except (KeyError, TypeError, ValueError) as error:
        log.warning("the tournament kept cannot be read (%s); it is dropped", error)
        app.services.store.set_progress(TOURNAMENT, {})
        return None


def save(app: Shell, tournament: Tournament | None, playing: dict[str, Any] | None = None) -> None:
    app.services.store.set_progress(TOURNAMENT, {} if tournament is None else
                                    {"tournament": tournament.to_json(), "playing": playing})


def report(app: Shell, game: StrategyGame) -> bool:
    """If ``game`` (just finished) is the tournament's game at the table, put its result in the
    tournament; True when it was."""
    kept = app.services.store.progress(TOURNAMENT)
    playing = kept.get("playing") if kept else None
    tournament = load(app)
    if tournament is None or not isinstance(playing, dict) or playing.get("of") != fingerprint(game.record()) \
            or game.result is None:
        return False
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
        tournament.report(playing["first"], playing["second"], (first, second))
    except (KeyError, TypeError, ValueError) as error:  # damaged: a finished game must still end
        log.warning("the tournament's game kept cannot be matched (%s); its result is not entered", error)
        return False
    save(app, tournament)
    return True
