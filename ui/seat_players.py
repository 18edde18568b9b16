"""Who plays at which seat, from the setup to the rating of the finished game.

The setup's person cards get a "who" button (:func:`who_button`) that opens the player picker; the
game's start keeps the seats' players in the store (:func:`remember`, beside the journal, so a game
resumed after a power cut is still rated for the right people), and the game's end rates it once
(:func:`rate_finished`; the game's id is made at the start, so a finish seen twice counts once).
Nothing here shows when the firmware hands the UI no players book (``services.players`` is None).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any, Sequence

from kivy.app import App
from kivy.uix.widget import Widget

from engine.ratings import outcome_of_record

from . import theme
from .i18n import N_
from .shell import Shell
from .widgets import TButton

SEATED = "seated"
"""The store's progress key holding the players of the game in progress."""


def _book() -> Any:
    app = App.get_running_app()
    return getattr(getattr(app, "services", None), "players", None)


def who_button(screen: Any, index: int, seat: Any) -> Widget | None:
    """The person card's button naming who sits there (a guest until someone picks a name), or
    None without a players book."""
    book = _book()
    if book is None:
        return None
    player = getattr(seat, "player", None)
    if player is None:
        button = TButton(msg=N_("Guest: tap to pick your name"), scale=0.72, bg=list(theme.rgb("#35607f")))
    else:
        button = TButton(text=player.name, scale=0.85, bold=True, bg=list(theme.rgb("#35607f")))
    button.bind(on_release=lambda *_: pick(screen, index))
    return button


def pick(screen: Any, index: int) -> None:
    """Open the picker for seat ``index`` of a setup screen, and come back to it."""
    from .screens.players import PlayerPickerScreen

    app = App.get_running_app()

    def chosen(player: Any) -> None:
        for i, other in enumerate(screen.seats):  # one person, one seat
            if i != index and player is not None and getattr(other, "player", None) is not None \
                    and other.player.id == player.id:
                other.player = None
                screen.cards[i].show(other)
        screen.seats[index].player = player
        app.show(screen)
        screen.cards[index].show(screen.seats[index])

    app.show(PlayerPickerScreen(_book(), on_pick=chosen, on_back=lambda: app.show(screen)))


def fingerprint(record: dict[str, Any]) -> str:
    """What identifies a game from its first step on: its record without events and result."""
    header = {k: v for k, v in record.items() if k not in ("events", "result")}
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode()).hexdigest()


def remember(app: Shell, game: Any, seats: list[Any]) -> None:
    """Keep who sits where for ``game`` (a strategy game just started from ``seats``)."""
    seat_again(app, game, [p.id if p is not None else None for p in (getattr(s, "player", None) for s in seats)])


def seated(app: Shell, game: Any) -> list[str | None]:
    """The player ids at ``game``'s seats (None: a guest), as kept at its start."""
    kept = _kept(app, game)
    return [None] * len(game.seats) if kept is None else kept[1]


def seated_names(app: Shell, game: Any, people: Sequence[str | None] | None = None) -> list[str | None]:
    """The names of the people at ``game``'s seats, as typed when they were made and picked at
    setup (``people``: their ids, else those kept for ``game``): what tells the two partners of a
    Doubles team apart (:func:`ui.words.seat_name`). None for a guest, a seat set up for a robot
    and a player deleted or merged since (named as they can be, never a crash)."""
    book = app.services.players
    people = seated(app, game) if people is None else people
    robots = [seat["robot"] for seat in game.record()["seats"]]  # the seats as set up
    names: list[str | None] = []
    for person, robot in zip(people, robots):
        name = None
        if book is not None and person is not None and robot is None:
            try:
                name = str(book.get(person).name)
            except LookupError:  # deleted or merged since
                pass
        names.append(name)
    return names


def _kept(app: Shell, game: Any) -> tuple[str, list[str | None]] | None:
    """The rating's game id and the seats' player ids kept for ``game``; None when none are kept
    for it, or what is kept does not hold together (a damaged value: the game is then simply not
    rated, never a crash at its end)."""
    kept = app.services.store.progress(SEATED)
    if not kept or kept.get("of") != fingerprint(game.record()):
        return None
    rating_id, people = kept.get("game"), kept.get("players")
    if not isinstance(rating_id, str) or not isinstance(people, list) or len(people) != len(game.seats) \
            or not all(p is None or isinstance(p, str) for p in people):
        return None
    return rating_id, people


def seat_again(app: Shell, game: Any, people: list[str | None]) -> None:
    """Keep ``people`` (player ids, None for a guest) at ``game``'s seats: a new game's, or the
    next game's when "Play again" keeps the same people in their places."""
    if app.services.players is None or all(p is None for p in people):
        app.services.store.set_progress(SEATED, {})
        return
    app.services.store.set_progress(SEATED, {"game": uuid.uuid4().hex, "of": fingerprint(game.record()),
                                             "players": people})


def rate_finished(app: Shell, game: Any, record_id: int | None) -> None:
    """Rate a finished strategy game if players sat at it (once: its id is kept from the start)."""
    book, store = app.services.players, app.services.store
    kept = _kept(app, game)
    if book is None or kept is None:
        return
    outcome = outcome_of_record(kept[0], game.record(), kept[1])
    if outcome is not None:
        book.record_game(game.KIND, outcome, record_id)
    store.set_progress(SEATED, {})
