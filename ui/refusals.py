"""Plain words for the rules a placement breaks, keyed by the engine's stable rule codes.

Modes refuse with :class:`engine.modes.Refused` (``rule``, English ``message``, ``cells``); the
board's own Violations carry :class:`engine.board.Rule` codes. Both are worded here, translated;
a code without an entry (a mode's own rule) falls back to the mode's English message, so a new
rule is never silent. Mode screens add their codes to :data:`RULE_MESSAGES`.
"""

from __future__ import annotations

from engine.board import Violation
from engine.modes import Refused

from .i18n import N_, _

RULE_MESSAGES: dict[str, str] = {
    "golden-rule": N_("The golden rule: where two tiles touch, their edges must show the same colour."),
    "restriction-1": N_(
        "Not while tiles are left in the bag (restriction 1): this would make a forced space with three "
        "sides of one colour, which no tile can ever fill."
    ),
    "restriction-2": N_(
        "Not while tiles are left in the bag (restriction 2): a space would be surrounded by four tiles."
    ),
    "restriction-3": N_(
        "Not while tiles are left in the bag (restriction 3): this is a controlled side. Once the forced "
        "spaces beside it are filled, a space would have four tiles around it."
    ),
    "contact": N_("A tile must touch a tile that is already on the table."),
    "first-tile": N_("The first tile goes in the middle of the table."),
    "occupied": N_("That space already holds a tile."),
    "tile-already-placed": N_("That tile is already on the table."),
    "no-such-tile": N_("That is not a tile of this game."),
}


def refused(violation: Violation) -> Refused:
    """The board's Violation as the Refused every mode raises (one shape for the UI)."""
    return Refused(violation.rule.value, violation.message, violation.cells)


def explain(refusal: Refused, board_empty: bool = False) -> str:
    """The refusal in plain words in the current language."""
    rule = "first-tile" if refusal.rule == "contact" and board_empty else refusal.rule
    message = RULE_MESSAGES.get(rule)
    return _(message) if message else refusal.message
