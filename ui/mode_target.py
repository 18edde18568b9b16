"""The one placement target: any mode on the board widget, through the mode's own check and apply.

The board widget (:class:`ui.board.BoardView`) asks its target whether a hovering tile fits
(``check``) and hands it the dropped placement (``place``). :class:`ModeTarget` answers both from
the mode (:class:`engine.modes.Mode`): the mode decides every rule, and each screen only says how a
dropped placement becomes its action (``Place(placement)``, or ``Place(placement, seat)`` at a
table of several) and what happens then. A screen may also say how the action is carried out when
that is more than the mode's ``apply`` (the strategy table's provisional tile, the Gobbles table's
timed claim), and put the table's own word on a verdict (who plays a seat; a race lost): no rule
of the game is decided here.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

from engine.board import Placement
from engine.modes import Mode, Refused

A = TypeVar("A")


class ModeTarget(Generic[A]):
    """``mode`` on the board widget (see the module docstring).

    ``action`` turns a dropped placement into the mode's action. ``apply`` carries it out (default:
    the mode's ``apply``), and ``after`` gets what that returned (e.g. what a gobble earned).
    ``vet(placement, verdict)`` lets the table add its own word to the mode's verdict."""

    def __init__(self, mode: Mode[A], action: Callable[[Placement], A], *,
                 apply: Callable[[A], object] | None = None,
                 after: Callable[[Any], None] | None = None,
                 vet: Callable[[Placement, Refused | None], Refused | None] | None = None) -> None:
        self.mode = mode
        self.action = action
        self._apply = apply if apply is not None else mode.apply
        self._after = after
        self._vet = vet

    def check(self, placement: Placement) -> Refused | None:
        """The mode's verdict on the action ``placement`` makes (changes nothing)."""
        verdict = self.mode.check(self.action(placement))
        return verdict if self._vet is None else self._vet(placement, verdict)

    def place(self, placement: Placement) -> None:
        """Carry out the action ``placement`` makes, or raise the :class:`Refused` and change nothing."""
        result = self._apply(self.action(placement))
        if self._after is not None:
            self._after(result)
