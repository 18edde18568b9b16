"""Plain words for the rules a placement breaks, keyed by the engine's rule codes.

Every refusal is an :class:`engine.modes.Refused` whose ``rule`` is a code from one of the engine's
rule vocabularies (the board's :class:`~engine.board.Rule`, every mode's :class:`~engine.modes.Play`
and each family's own). :data:`RULE_MESSAGES` words each code once, in English to be translated; it
is built here, whole, and read-only, so that no screen can reword another's rules (as each screen
once did by adding its own entries when it was imported). A code without an entry falls back to the
engine's English message, so a new rule is never silent; a test keeps every code worded.
Tanagra's pawn rules are worded by its own screen (:mod:`ui.modes.tanagra.play`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from engine.board import Rule
from engine.four import FourRule
from engine.strategy.game import StrategyRule
from engine.gobble.rules import GobbleRule
from engine.modes import Play, Refused
from engine.solo.rules import SoloRule

from .i18n import N_, _

RULE_MESSAGES: Mapping[str, str] = MappingProxyType({
    # the board (engine.board.Rule)
    Rule.GOLDEN_RULE: N_("The golden rule: where two tiles touch, their edges must show the same colour."),
    Rule.DEAD_FORCED_SPACE: N_(
        "Not while tiles are left in the bag (restriction 1): this would make a forced space with three "
        "sides of one colour, which no tile can ever fill."
    ),
    Rule.FOUR_NEIGHBOURS: N_(
        "Not while tiles are left in the bag (restriction 2): a space would be surrounded by four tiles."
    ),
    Rule.CONTROLLED_SIDE: N_(
        "Not while tiles are left in the bag (restriction 3): after this tile, filling the forced spaces one "
        "by one would end with a space surrounded by four tiles."
    ),
    Rule.CONTACT: N_("A tile must touch a tile that is already on the table."),
    Rule.OCCUPIED: N_("That space already holds a tile."),
    Rule.TILE_ALREADY_PLACED: N_("That tile is already on the table."),
    Rule.NO_SUCH_TILE: N_("That is not a tile of this game."),
    # every mode (engine.modes.Play)
    Play.GAME_OVER: N_("The game is over."),
    Play.NOT_YOUR_TURN: N_("Wait for your turn."),
    Play.NOT_IN_HAND: N_("That tile is not in your hand."),
    # said where a newcomer first meets the booklet's term: what and where a forced space is
    Play.MUST_FILL_FORCED: N_("First fill the forced space (the orange space with three or more tiles around "
                              "it): a tile in your hand fits it, outlined in orange."),
    Play.NOTHING_TO_UNDO: N_("There is nothing to take back."),
    Play.NO_UNDO: N_("In this game a tile stays where it is put: there is no taking back."),
    Play.NO_SUCH_OPTION: N_("This game does not offer that choice."),
    Play.NO_GAME: N_("No game is being played."),
    # the strategy game (engine.strategy.game.StrategyRule)
    StrategyRule.DRAW_PENDING: N_("First draw a tile from the bag and scan it."),
    StrategyRule.NOT_PLAYING: N_("First everyone draws a tile from the bag."),
    StrategyRule.NO_DRAW_DUE: N_("No tile is to be drawn now."),
    StrategyRule.NOT_YOUR_DRAW: N_("Another player draws now."),
    StrategyRule.NOT_IN_BAG: N_("That tile is not in the bag: draw another one."),
    StrategyRule.NO_SUCH_SEAT: N_("There is no such seat at this table."),
    StrategyRule.NOT_A_ROBOT: N_("A person plays this seat."),
    StrategyRule.ROBOT_SEAT: N_("A robot plays this seat. Hold the name by the hand to take the seat back."),
    # the solo modes (engine.solo.rules.SoloRule)
    SoloRule.OUTSIDE_SHAPE: N_("In this puzzle the tiles stay inside the pyramid (the outlined spaces)."),
    SoloRule.NOT_PLACED: N_("That tile is not on the table."),
    SoloRule.NO_SUCH_CHOICE: N_("This puzzle does not offer that colour."),
    SoloRule.NO_NEXT_PUZZLE: N_("That was the last Discovery puzzle: with tile 31 no loop can be made."),
    SoloRule.NOT_SOLVED: N_("Solve this puzzle first."),
    SoloRule.UNFILLABLE_FORCED_SPACE: N_("Not now: this would make a forced space that no tile in your hand fits."),
    SoloRule.NO_TURN: N_("Turn the tile by tapping it."),
    # Gobble (engine.gobble.rules.GobbleRule)
    GobbleRule.TWO_NEIGHBOURS: N_("In Gobble a tile must touch at least two tiles already on the table."),
    GobbleRule.MUST_PLACE: N_("This tile fits on the table (see the marked spaces): it must be placed, not "
                              "discarded."),
    GobbleRule.NOT_DRAWN: N_("Place the tile you drew."),
    GobbleRule.REWARD_PENDING: N_("First play the top discard, or return it to the bag."),
    GobbleRule.NO_REWARD: N_("Only filling a space with three or more tiles around it earns the top discard."),
    GobbleRule.TAKEN: N_("Taken! Someone else was quicker to that space."),
    GobbleRule.GIFT_PENDING: N_("Gobble! First choose who gets your tiles."),
    GobbleRule.OUT: N_("You have placed all your tiles."),
    GobbleRule.GIFT_RECIPIENT: N_("Give the tiles to an opponent who is still playing."),
    GobbleRule.GIFT_COUNT: N_("Choose exactly as many tiles as you owe."),
    GobbleRule.NO_GIFT: N_("Only a gobble gives tiles away."),
    # Four lines and Four loops (engine.four.FourRule)
    FourRule.ONE_ARRANGEMENT: N_("The tiles must stay in one arrangement: this would leave them in two pieces."),
    FourRule.EMPTY_CELL: N_("There is no tile on that space."),
})
"""Each rule code's words (English, marked for translation)."""

FIRST_TILE = N_("The first tile goes in the middle of the table.")
"""The contact rule's words on an empty table, where no tile can be touched yet."""


def explain(refusal: Refused, board_empty: bool = False) -> str:
    """The refusal in plain words in the current language."""
    if refusal.rule == Rule.CONTACT and board_empty:
        return _(FIRST_TILE)
    message = RULE_MESSAGES.get(refusal.rule)
    return _(message) if message else refusal.message
