"""The rule codes the solo modes refuse with beyond the board's and every mode's (see
:class:`engine.modes.Play`): a puzzle's shape and colour choice, the Discovery sequence, Solitaire's
forced spaces, a rotation puzzle's turns."""

from __future__ import annotations

from enum import StrEnum


class SoloRule(StrEnum):
    NO_SUCH_CHOICE = "no-such-choice"
    NOT_PLACED = "not-placed"
    OUTSIDE_SHAPE = "outside-shape"
    NO_NEXT_PUZZLE = "no-next-puzzle"
    NOT_SOLVED = "not-solved"
    UNFILLABLE_FORCED_SPACE = "unfillable-forced-space"
    NO_TURN = "no-turn"
