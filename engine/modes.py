"""What every playable mode has in common, so the UI and the firmware can drive any of them alike.

A mode (the strategy game, a Discovery puzzle, Solitaire, Gobbles, Tanagra, ...) is a state object:
it says what may be done now, applies an action or refuses it with the rule it breaks, and saves its
whole state as JSON so that a power cut never loses a game. The firmware journals
``save(mode)`` after every step and calls ``restore(...)`` at boot without knowing which mode it was.

Modes register themselves with :func:`register` under a stable ``KIND`` string; :func:`restore`
imports the modules that define them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from .board import Refused

__all__ = ["Mode", "Play", "Refused", "register", "restore", "save"]

class Play(StrEnum):
    """Rule codes every mode may refuse with (a family's own codes live with it: the strategy game's
    in :mod:`engine.strategy.game`, the solo modes' in :mod:`engine.solo`, Gobble's in
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


@runtime_checkable
class Mode(Protocol):
    """The shape shared by every mode's state object."""

    KIND: ClassVar[str]

    @property
    def finished(self) -> bool:
        """Whether the game or puzzle is over (won, lost, drawn or solved)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The complete state: restoring it gives an identical mode (hands, bag order, turn, ...)."""
        ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild from :meth:`to_json`; raises ValueError naming what is wrong with bad data."""
        ...


_REGISTRY: dict[str, type[Mode]] = {}
M = TypeVar("M", bound=type)


def register(cls: M) -> M:
    """Class decorator: make ``cls`` restorable by its ``KIND``."""
    kind = cls.KIND  # type: ignore[attr-defined]
    if kind in _REGISTRY and _REGISTRY[kind] is not cls:
        raise ValueError(f"two modes claim the kind {kind!r}")
    _REGISTRY[kind] = cls
    return cls


def save(mode: Mode) -> dict[str, Any]:
    """``{"kind": ..., "state": ...}``: what the firmware journals."""
    return {"kind": mode.KIND, "state": mode.to_json()}


def restore(data: dict[str, Any]) -> Mode:
    """The mode saved by :func:`save`; ValueError for an unknown kind or bad state."""
    _load_modes()
    kind = data.get("kind") if isinstance(data, dict) else None
    cls = _REGISTRY.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown mode kind {kind!r}")
    state = data.get("state")
    if not isinstance(state, dict):
        raise ValueError(f"saved {kind} mode has no state object")
    return cls.from_json(state)


def _load_modes() -> None:
    """Import every module that defines a mode: each registers its classes as it is imported (here,
    not at the top, because they import this module)."""
    from . import four  # noqa: F401
    from .strategy import game  # noqa: F401
    from .gobble import gobbles, solo as gobble_solo  # noqa: F401
    from .solo import puzzle, rotation, solitaire  # noqa: F401
    from .tanagra import game as tanagra_game  # noqa: F401
