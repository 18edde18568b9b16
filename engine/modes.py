"""What every playable mode has in common, so the UI and the firmware can drive any of them alike.

A mode (the strategy game, a Discovery puzzle, Solitaire, Gobbles, Tanagra, ...) is a state object:
it lists what may be done now, checks an action (None, or the :class:`Refused` naming the rule it
breaks) and applies it (or raises that same refusal and changes nothing), and saves its whole
state as JSON so that a power cut never loses a game. The firmware journals ``save(mode)`` after
every step and calls ``restore(...)`` at boot without knowing which mode it was. The actions and
the common rule codes are :mod:`engine.actions`'.

This module is the front door of every family: it imports each one's mode classes at the top and
lists them in :data:`MODES`, so :func:`restore` finds any kind. The families never import it (they
take :class:`Refused`, :class:`Play` and the actions from :mod:`engine.actions`, which imports only
the board), so the imports form no cycle; before, each family imported this module to register
itself and this module imported the families to have them register, a cycle hidden inside a
function. :func:`register` remains for modes defined elsewhere (tests, plug-ins).
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, Self, Sequence, TypeVar, runtime_checkable

from .actions import PickUp, Place, Play, Refused, Undo
from .four import FourLines, FourLoops
from .gobble.gobbles import Gobbles
from .gobble.solo import GobbleSolo
from .solo.puzzle import PuzzlePlay
from .solo.rotation import RotationPuzzle
from .solo.solitaire import Solitaire
from .strategy.game import StrategyGame
from .tanagra.game import Game as TanagraGame

__all__ = ["MODES", "Mode", "PickUp", "Place", "Play", "Refused", "Undo", "register", "restore", "save"]

A = TypeVar("A", contravariant=True)


@runtime_checkable
class Mode(Protocol[A]):
    """The shape shared by every mode's state object; ``A`` is the type of its actions."""

    KIND: ClassVar[str]

    @property
    def finished(self) -> bool:
        """Whether the game or puzzle is over (won, lost, drawn or solved)."""
        ...

    def legal_actions(self) -> Sequence[object]:
        """Actions that :meth:`check` allows now: every one where there are few, a fair sample where
        there is no end to them (moving a tile already down anywhere it fits)."""
        ...

    def check(self, action: A) -> Refused | None:
        """None if ``action`` may be done now, else why not. Changes nothing: a screen asks it on
        every hover, so it is quick."""
        ...

    def apply(self, action: A) -> object:
        """Do ``action``, or raise the :class:`Refused` that :meth:`check` returns for it and change
        nothing. What it returns (if anything) is the mode's own news, e.g. what a gobble earned."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The complete state: restoring it gives an identical mode (hands, bag order, turn, ...)."""
        ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild from :meth:`to_json`; raises ValueError naming what is wrong with bad data."""
        ...


MODES: tuple[type[Mode[Any]], ...] = (
    StrategyGame, PuzzlePlay, Solitaire, RotationPuzzle, FourLines, FourLoops, GobbleSolo, Gobbles, TanagraGame,
)
"""Every mode of the kiosk, one class per kind."""

_REGISTRY: dict[str, type[Mode[Any]]] = {cls.KIND: cls for cls in MODES}
M = TypeVar("M", bound=type[Mode[Any]])


def register(cls: M) -> M:
    """Class decorator: make ``cls`` restorable by its ``KIND`` (a mode defined outside the engine)."""
    kind = cls.KIND
    if kind in _REGISTRY and _REGISTRY[kind] is not cls:
        raise ValueError(f"two modes claim the kind {kind!r}")
    _REGISTRY[kind] = cls
    return cls


def save(mode: Mode[Any]) -> dict[str, Any]:
    """``{"kind": ..., "state": ...}``: what the firmware journals."""
    return {"kind": mode.KIND, "state": mode.to_json()}


def restore(data: dict[str, Any]) -> Mode[Any]:
    """The mode saved by :func:`save`; ValueError for an unknown kind or bad state."""
    kind = data.get("kind") if isinstance(data, dict) else None
    cls = _REGISTRY.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown mode kind {kind!r}")
    state = data.get("state")
    if not isinstance(state, dict):
        raise ValueError(f"saved {kind} mode has no state object")
    return cls.from_json(state)
