"""A Tanagra game as a screen drives it: the current state, undo, and a JSON record.

A :class:`Game` wraps a :class:`~engine.tanagra.rules.State` with the list of actions played so far
and a snapshot before each, so :meth:`Game.undo` restores the previous position exactly. Its record
(:meth:`Game.to_json`) holds the options, the seats, the start position when it is not the usual
empty table, every action and the final position; :meth:`Game.from_json` replays a record action by
action through the referee, so a saved game comes back with its undo history, and a record with an
illegal action is refused with the step number and the rule it breaks (:class:`RecordError`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Sequence

from ..actions import Play, Refused, Undo
from .lattice import Cell
from .rules import (
    Action,
    IllegalAction,
    Options,
    Phase,
    PositionError,
    Result,
    State,
    action_from_json,
    action_to_json,
)

RECORD_FORMAT = "tanagra-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record that does not replay: the step (1-based index into its actions) and why."""

    def __init__(self, step: int | None, message: str, refusal: Refused | None = None) -> None:
        super().__init__(message if step is None else f"step {step}: {message}")
        self.step = step
        self.refusal = refusal


class Game:
    """One game: options, seat names, the current state, the actions played and undo.

    ``seats`` are free labels (player names, ``"robot:expert"``...): the engine only stores them.
    ``start`` is a position to begin from instead of the empty table (puzzles, tests). A mode of
    the kiosk (engine.modes): its record is its saved state.
    """

    KIND: ClassVar[str] = "tanagra"

    def __init__(
        self,
        options: Options | None = None,
        seats: Sequence[str] | None = None,
        start: State | None = None,
    ) -> None:
        if start is not None and options is not None and start.options != options:
            raise PositionError("the start position was built for other options")
        self.options = start.options if start is not None else (options or Options())
        players = self.options.players
        self.seats = list(seats) if seats is not None else [f"seat {i}" for i in range(players)]
        if len(self.seats) != players or not all(isinstance(s, str) for s in self.seats):
            raise PositionError(f"{players} players need a list of {players} seat names")
        self._start = start.copy() if start is not None else None
        self.state = start.copy() if start is not None else State(self.options)
        self.actions: list[Action] = []
        self._before: list[State] = []

    # -------------------------------------------------------------- what the screen asks

    @property
    def turn(self) -> int:
        """The seat to act now (in phase ``change`` still the player who just moved)."""
        return self.state.turn

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def finished(self) -> bool:
        return self.state.result is not None

    @property
    def pending_change(self) -> Cell | None:
        """The centre of the piece the mover emptied and must now leave, move or remove; else None."""
        return self.state.pending

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def check(self, action: Action | Undo) -> Refused | None:
        """None when ``action`` is legal now (the referee decides, :meth:`State.check`), or why not;
        :class:`~engine.actions.Undo` whenever an action has been played."""
        if isinstance(action, Undo):
            return None if self.actions else Refused(Play.NOTHING_TO_UNDO, "there is nothing to take back")
        return self.state.check(action)

    # ----------------------------------------------------------------------- changing it

    def apply(self, action: Action | Undo) -> None:
        """Play ``action``; raises :class:`IllegalAction` with the refusal of :meth:`check`,
        changing nothing."""
        if isinstance(action, Undo):
            self.undo()
            return
        before = self.state.copy()
        self.state.apply(action)
        self._before.append(before)
        self.actions.append(action)

    @property
    def can_undo(self) -> bool:
        return self.check(Undo()) is None

    def undo(self) -> Action:
        """Take back the last action (the position before it comes back exactly); returns it.
        Raises :class:`Refused` (``nothing-to-undo``) at the start."""
        refusal = self.check(Undo())
        if refusal is not None:
            raise refusal
        self.state = self._before.pop()
        return self.actions.pop()

    # ------------------------------------------------------------------------- records

    def to_json(self) -> dict[str, Any]:
        """The game's record: options, seats, start (if any), actions, final position."""
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "options": self.options.to_json(),
            "seats": list(self.seats),
        }
        if self._start is not None:
            record["start"] = self._start.to_json()
        record["actions"] = [action_to_json(a) for a in self.actions]
        record["final"] = self.state.to_json()
        return record

    @classmethod
    def from_json(cls, record: Any) -> Game:
        """Replay a record. Raises :class:`RecordError` for a malformed record, an illegal action
        (with its step number and refusal) or a final position that differs from the replay."""
        if not isinstance(record, Mapping):
            raise RecordError(None, "a record must be a JSON object")
        if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
            raise RecordError(None, f"not a {RECORD_FORMAT} version {RECORD_VERSION} record")
        try:
            options = Options.from_json(record.get("options", {}))
            start = State.from_json(record["start"]) if record.get("start") is not None else None
            game = cls(options, record.get("seats"), start)
        except PositionError as exc:
            raise RecordError(None, str(exc)) from None
        actions = record.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(None, "actions must be a list")
        for step, data in enumerate(actions, 1):
            try:
                game.apply(action_from_json(data))
            except PositionError as exc:
                raise RecordError(step, str(exc)) from None
            except IllegalAction as exc:
                raise RecordError(step, str(exc), exc) from None
        final = record.get("final")
        if final is not None and final != game.state.to_json():
            raise RecordError(None, "the replayed final position differs from the recorded one")
        return game
