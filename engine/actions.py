"""What a player does in a mode, and the rule codes every mode may refuse it with.

Every mode (see :mod:`engine.modes`) takes its actions through two methods: ``check(action)``
says whether the rules allow it now (None) or which rule it breaks (a :class:`Refused`), and
``apply(action)`` does it, or raises that same refusal and changes nothing. The actions several
modes share live here; a family's own (a rotation puzzle's ``Turn``, Gobble's ``Discard``, a
physical bag's ``Draw``, Tanagra's pawn moves) live with it.

This module imports only the board: every family imports it, and :mod:`engine.modes` imports every
family, so anything here that needed a family would close a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .board import Placement, Refused

__all__ = ["PickUp", "Place", "Play", "Refused", "Undo", "placing"]


class Play(StrEnum):
    """Rule codes every mode may refuse with (a family's own codes live with it: the strategy game's
    in :mod:`engine.strategy.game`, the solo modes' in :mod:`engine.solo.rules`, Gobble's in
    :mod:`engine.gobble.rules`, Four lines' in :mod:`engine.four`, Tanagra's in
    :mod:`engine.tanagra.rules`; the board's placement rules are :class:`engine.board.Rule`)."""

    GAME_OVER = "game-over"
    NOT_YOUR_TURN = "not-your-turn"
    NOT_IN_HAND = "not-in-hand"
    MUST_FILL_FORCED = "must-fill-forced"
    NOTHING_TO_UNDO = "nothing-to-undo"
    NO_UNDO = "no-undo"
    NO_SUCH_OPTION = "no-such-option"
    NO_GAME = "no-game"


@dataclass(frozen=True, slots=True)
class Place:
    """Put a tile down as ``placement`` says: from the hand (or tray), or, in the modes where tiles
    down may be moved, a tile already down moved or turned there. ``seat`` is who places it where
    that matters (a table of several players); None means whoever is to act. A bare
    :class:`~engine.board.Placement` is accepted as ``Place(placement)``."""

    placement: Placement
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class PickUp:
    """Take the tile ``tile`` back off the table into the hand (the modes that allow it)."""

    tile: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last action, where the mode allows it (else refused with ``no-undo``)."""


def placing(action: object) -> Place | None:
    """``action`` as a :class:`Place` (a bare Placement is one, by whoever is to act), or None when
    it places nothing."""
    if isinstance(action, Place):
        return action
    if isinstance(action, Placement):
        return Place(action)
    return None

