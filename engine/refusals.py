"""The shape every refusal of the rules takes, and the board's two errors.

They live apart from engine.board so that they stay ordinary Python classes when the board runs
compiled (engine.compiled): the families derive their own refusals from :class:`Refused`, and a
compiled class cannot have subclasses written in Python. engine.board re-exports all three.
"""

from __future__ import annotations

from enum import StrEnum

from .geometry import Cell


class Refused(ValueError):
    """An action or placement the rules do not allow now: the one shape every refusal takes, from
    the board's own verdicts to a mode's turn order (as python-chess raises one ``IllegalMoveError``).

    ``rule`` is a stable code from one of the rule vocabularies (:class:`engine.board.Rule`, the modes'
    :class:`engine.modes.Play`, each family's own); the UI words it from that code, in the player's
    language. ``cells`` are the board cells a player should look at; ``message`` says it in plain
    English for logs, the command line and the external robots' protocol."""

    def __init__(self, rule: StrEnum, message: str, cells: tuple[Cell, ...] = ()) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.cells = cells

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"

    def reworded(self, message: str) -> Refused:
        """The same refusal in other words (same rule and cells)."""
        return Refused(self.rule, message, self.cells)


class IllegalPlacement(Refused):
    """Raised by :meth:`engine.board.Board.place` for a placement the rules refuse: the refusal, and
    the placement (an engine.board.Placement: tile, q, r, rot)."""

    def __init__(self, placement: tuple[int, int, int, int], refusal: Refused) -> None:
        super().__init__(refusal.rule, refusal.message, refusal.cells)
        self.placement = placement

    def __str__(self) -> str:
        tile, q, r, rot = self.placement
        return f"tile {tile} at ({q}, {r}) rot {rot}: {self.rule}: {self.message}"


class PositionError(ValueError):
    """A position (JSON) that is malformed or breaks the golden rule."""
