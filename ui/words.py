"""The table's shared words: link colours, robot levels and game modes, each named once (English,
marked for translation) for every screen that shows them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from .i18n import N_, _

if TYPE_CHECKING:
    from engine.strategy.game import StrategyGame

COLOUR_NAMES: Mapping[str, str] = {"R": N_("Red"), "Y": N_("Yellow"), "G": N_("Green"), "B": N_("Blue")}
"""A link colour or a seat's colour as a name ("Red wins!", a seat's plate)."""

COLOUR_WORDS: Mapping[str, str] = {"R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue")}
"""A link colour inside a sentence ("Colour: red", "the longest red line")."""

TEAM_NAMES: Mapping[str, str] = {"R": N_("Red team"), "Y": N_("Yellow team"), "G": N_("Green team"),
                                 "B": N_("Blue team")}
"""A Doubles team by its colour. One message per team, not "{colour} team" of the colour's name:
a language's colour agrees with its word for team ("Équipe verte", "Drużyna zielona"), which the
colour's name alone ("Vert", "Zielone") cannot."""


def colour_name(colour: str) -> str:
    """A link colour's name in the current language (:data:`COLOUR_NAMES`)."""
    return _(COLOUR_NAMES[colour])


def team_name(game: StrategyGame, colour: str) -> str:
    """The side playing ``colour`` in a Tantrix game: the colour ("Red"), or in Doubles, where the
    two partners opposite share it, its team ("Red team"). The one place the kiosk decides it: the
    seats (:func:`seat_name`) and the results' standings and headline take it from here. The web
    pages, which may not import ``ui``, compose the same words from their own catalogue
    (``web/static/words.js`` ``colourName``, of the same messages); a test holds the two equal in
    every language."""
    return _(TEAM_NAMES[colour]) if game.options.doubles else colour_name(colour)


def seat_name(game: StrategyGame, seat: int, robot_mark: bool = True, to: int | None = None,
              names: Sequence[str | None] = (), robot: bool | None = None) -> str:
    """A Tantrix game's seat as shown: its side's name (:func:`team_name`: "Red", "Red team"), and
    "(robot)" for a robot's seat (unless ``robot_mark`` is False). ``to`` is the seat the words are
    said to: said to its partner, a Doubles seat is "Red team (your partner)", as the team's name
    alone names the listener's own team too ("Red team draws now, not you", said to Red).
    ``names`` are the names of the people at the seats as picked at setup (None: a guest;
    :func:`ui.seat_players.seated_names`): a named seat is its player, "Ana", or "Ana (your
    partner)", which tells the two partners of a Doubles team apart in words short enough for
    a plate or the replay's caption on the 7" panel. ``robot`` says whether a robot played the seat
    at the moment spoken of (a replay's step; default: whether one plays it now): a seat a robot
    took over is the robot's, "Red team (robot)", never named after the person who left it."""
    name = team_name(game, game.seats[seat].colour)
    robot = game.seats[seat].robot is not None if robot is None else robot
    player = names[seat] if seat < len(names) and not robot else None
    if to is not None and to != seat and game.seats[to].colour == game.seats[seat].colour:
        return _("{name} (your partner)", name=player or name)
    if player:
        return player
    return _("{name} (robot)", name=name) if robot_mark and robot else name


LEVEL_NAMES: Mapping[str, str] = {"beginner": N_("Beginner"), "casual": N_("Casual"), "club": N_("Club"),
                                  "expert": N_("Expert"), "master": N_("Master")}
"""Every robot level of every game (each game offers its own, in this order)."""


def levels(*keys: str) -> tuple[tuple[str, str], ...]:
    """(key, name) of the levels a game offers, for its setup."""
    return tuple((key, LEVEL_NAMES[key]) for key in keys)


MODE_NAMES: Mapping[str, str] = {
    "strategy": N_("Tantrix"), "gobbles": N_("Gobbles"), "gobble-solo": N_("Gobble solo"), "solitaire": N_("Solitaire"),
    "tanagra": N_("Tanagra"), "puzzle": N_("Puzzles"), "rotation": N_("Great Pyramid"), "four-lines": N_("Four lines"),
    "four-loops": N_("Four loops"),
}
"""A mode's ``KIND`` as its players know it (the staff statistics)."""


def format_time(seconds: float) -> str:
    """0:42, 12:05, 1:02:03."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
