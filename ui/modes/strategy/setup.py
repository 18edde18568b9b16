"""Tantrix, the strategy game, at the kiosk: its setup, its "how to play", and the doors into a game.

The home button opens the setup: 2, 3 or 4 players or Doubles (two teams of two: partners sit
opposite and share a colour), each seat a person or a robot (beginner, club, expert, master) with its own
colour (tap the colour to change it), the end of the game (all tiles placed, or the first player
out) and where tiles are drawn from (the screen's own bag, or the real bag with tiles scanned at
each seat). The defaults come from the table's settings. The game itself is
:class:`ui.modes.strategy.play.StrategyScreen`; a game restored after a power cut opens there in
exactly its state. Other screens open a game by name: ``"learning-game"`` (:func:`learning_game`)
is the Learn family's last step, a friendly game for two against a beginner robot; ``"tantrix-game"``
(:func:`set_game`) a game set up elsewhere (a tournament's pairing).
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line
from kivy.uix.screenmanager import Screen

from engine.strategy.game import StrategyGame

from ... import theme
from ...howto import HowToPlayScreen, TileStage
from ...i18n import N_
from ...seat_players import remember
from ...setup import Choice, Seat, SeatColour, Setup, SetupScreen, SetupSpec
from ...shell import Shell
from ...widgets import Chip
from ...words import COLOUR_NAMES, TEAM_NAMES
from ...navigation import destination, family_screen, kind_screen
from .howto import script
from .clock import set_clocks
from .play import LEARNING, StrategyScreen, begin, open_game
from .seats import STRATEGY_LEVELS

KIND = "strategy"
FAMILY = "tantrix"
DOUBLES = "doubles"
"""The value of the "2 teams" chip on the players row."""

PALETTE = tuple(SeatColour(c, theme.LINK[c], COLOUR_NAMES[c]) for c in "RYGB")


def palette(players: int) -> tuple[SeatColour, ...]:
    return PALETTE


def spec(settings: Any) -> SetupSpec:
    """The setup, its rule options defaulting to the table's settings."""
    return SetupSpec(
        key=FAMILY, title=N_("Tantrix"), players=(2, 4), default_players=2, levels=STRATEGY_LEVELS,
        default_level="beginner", robots=(1,), palette=palette, choose_colours=True,
        options=(
            Choice("end", N_("The game ends"), (("all-placed", N_("All tiles placed")),
                                                ("first-out", N_("First player out"))), settings.end_rule),
            Choice("bag", N_("Tiles are drawn"), ((False, N_("By the screen")), (True, N_("From the real bag"))),
                   bool(settings.physical_bag)),
        ),
        blurb=N_("The longest line or loop of your colour wins."),
    )


class TantrixSetupScreen(SetupScreen):
    """The shared setup with Doubles: a "2 teams" chip beside the player counts seats four players,
    partners (seats 0 and 2, 1 and 3) opposite each other, sharing a colour, their cards framed in
    it."""

    def __init__(self, spec: SetupSpec, **kwargs: Any) -> None:
        self.doubles = False
        super().__init__(spec, **kwargs)
        assert self.count is not None
        self.teams_chip = Chip(msg=N_("2 teams"), value=DOUBLES, scale=1.0)
        self.teams_chip.bind(on_release=lambda chip: self.count.choose(chip.value))
        self.count.add_widget(self.teams_chip)
        self.count.chips.append(self.teams_chip)

    def set_players(self, players: Any) -> None:
        self.doubles = players == DOUBLES
        self.options["doubles"] = self.doubles
        super().set_players(4 if self.doubles else players)
        if self.doubles:
            for seat in (2, 3):
                self.seats[seat].colour = self.seats[seat - 2].colour
            self._name_teams()
            if self.count is not None:  # the strategy game always offers 2 to 4 players
                self.count.chip(4).selected = False
            self.teams_chip.selected = True
        self._mark_teams()

    def next_colour(self, index: int) -> None:
        if not self.doubles:
            super().next_colour(index)
            self._mark_teams()
            return
        partner = self.seats[(index + 2) % 4]
        taken = self.seats[(index + 1) % 4].colour
        colours = list(PALETTE)
        colour = self.seats[index].colour
        assert colour is not None, "every seat of the strategy game has a colour"
        at = colours.index(colour)
        chosen = next(c for c in colours[at + 1:] + colours[:at + 1] if c != taken)
        self.seats[index].colour = partner.colour = chosen
        self._name_teams()
        self._mark_teams()

    def seat_title(self, index: int, seat: Seat) -> tuple[str, dict[str, Any]]:
        """In Doubles a card names its seat's team ("Red team", as the table's plates do), whatever
        else it shows: on the kiosk a person's card offers a name to pick and a robot's its levels,
        where the words saying who plays with whom would be."""
        if not self.doubles or seat.colour is None:
            return super().seat_title(index, seat)
        return TEAM_NAMES[seat.colour.key], {}

    def _name_teams(self) -> None:
        for i, seat in enumerate(self.seats):
            if i < len(self.cards):
                self.cards[i].hint.msg = N_("Plays with the seat opposite, as a team")
                self.cards[i].show(seat)

    def _mark_teams(self) -> None:
        """Frame each card in its team's colour (Doubles), so partners see at once who they are."""
        for card, seat in zip(self.cards, self.seats):
            card.canvas.after.clear()
            if not self.doubles or seat.colour is None:
                continue
            with card.canvas.after:
                Color(*seat.colour.rgba)
                frame = Line(width=max(2.0, theme.unit() * 0.07))

            def follow(widget: Any, *_args: Any, frame: Line = frame) -> None:
                frame.rounded_rectangle = (widget.x, widget.y, widget.width, widget.height, theme.unit() * 0.2)

            card.bind(pos=follow, size=follow)
            follow(card)

    def start(self) -> None:
        self.options["doubles"] = self.doubles
        super().start()


@family_screen(FAMILY)
def open_setup(app: Shell) -> Screen:
    return TantrixSetupScreen(spec(app.services.settings), on_start=lambda setup: start(app, setup),
                              on_back=app.go_home, on_howto=lambda: show_howto(app),
                              orientation=app.services.settings.orientation)


def show_howto(app: Shell) -> HowToPlayScreen:
    stage = TileStage(hands=2)
    steps, reset = script(stage)
    screen = HowToPlayScreen(FAMILY, N_("Tantrix"), stage, steps, reset, on_done=lambda: app.show(open_setup(app)))
    app.show(screen)
    return screen


def game_of(setup: Setup) -> StrategyGame:
    """The game a finished setup asks for."""
    seats, options = setup.seats, setup.options
    doubles = bool(options.get("doubles"))
    colours = "".join(s.colour.key for s in (seats[:2] if doubles else seats) if s.colour is not None)
    return StrategyGame.new(len(seats), colours, [s.robot for s in seats], doubles=doubles,
                            end=options.get("end", "all-placed"), physical_bag=bool(options.get("bag")))


def start(app: Shell, setup: Setup) -> StrategyScreen:
    game = game_of(setup)
    remember(app, game, setup.seats)
    set_clocks(app, game, app.services.settings.clock_minutes)
    return open_game(app, game)


@kind_screen(KIND)
def resume(app: Shell, game: StrategyGame) -> Screen:
    """A restored game, exactly as it stood (a robot to move thinks again; a draw owed is asked
    again; Learn's first game still explains each step)."""
    return StrategyScreen(app, game, learning=bool(app.services.store.progress(LEARNING).get("learning")))


@destination("learning-game")
def learning_game(app: Shell, seed: int | None = None) -> StrategyScreen:
    """Learn's last step, "the game": you (red) against a beginner robot (yellow), the screen drawing
    the tiles, each step explained as it comes."""
    return begin(app, StrategyGame.new(2, "RY", [None, "beginner"], seed=seed), learning=True)


@destination("tantrix-game")
def set_game(app: Shell, game: StrategyGame, minutes: int) -> StrategyScreen:
    """``game`` (new, its seats already taken) with ``minutes`` per player on its clocks (0: none)."""
    set_clocks(app, game, minutes)
    return begin(app, game)
