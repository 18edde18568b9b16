"""Per-player clocks (a chess clock with one face per seat), for tournaments and casual games.

The clock never reads the time itself: every call takes ``now`` (seconds from any monotonic
source), so the UI passes its own clock and tests pass simulated time. Only the seat to act runs.

When a player's time is up, :data:`Overtime` decides: ``"penalty"`` counts time penalties as the
Tantrix online tournament rules do (a player who has used the whole limit, 15:00 exactly included,
loses 1 point, and 1 more for every further full minute; in a two-player game the opponent gains
them), the game going on; ``"loss"`` ends it: the player whose time is up loses on time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

Overtime = Literal["penalty", "loss"]
TOURNAMENT_LIMIT = 15 * 60.0
"""The online tournaments' time per player per game."""
PENALTY_MINUTE = 60.0
CASUAL_MINUTES = (0, 10, 15, 20)
"""The clock settings a table offers for a casual game, minutes per player (0: no clock)."""


@dataclass
class Clocks:
    """The clocks of ``seats`` seats, ``limit`` seconds each."""

    seats: int
    limit: float = TOURNAMENT_LIMIT
    overtime: Overtime = "penalty"
    used: list[float] = field(default_factory=list)
    running: int | None = None
    _since: float = 0.0

    def __post_init__(self) -> None:
        if self.limit <= 0:
            raise ValueError(f"a clock's limit must be positive, not {self.limit}")
        if self.overtime not in ("penalty", "loss"):
            raise ValueError(f"overtime must be 'penalty' or 'loss', not {self.overtime!r}")
        if not self.used:
            self.used = [0.0] * self.seats

    def switch(self, seat: int | None, now: float) -> None:
        """Stop the running clock (its time is counted up to ``now``) and start ``seat``'s (None:
        all stopped, e.g. at the end or while the game is paused)."""
        if self.running is not None:
            self.used[self.running] += max(0.0, now - self._since)
        self.running, self._since = seat, now

    def used_at(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has used by ``now``."""
        extra = max(0.0, now - self._since) if seat == self.running else 0.0
        return self.used[seat] + extra

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left (negative once over the limit); what its plate shows."""
        return self.limit - self.used_at(seat, now)

    def penalties(self, seat: int, now: float) -> int:
        """Time penalties ``seat`` has incurred by ``now`` (0 below the limit)."""
        over = self.used_at(seat, now) - self.limit
        return 0 if over < 0 else 1 + int(over // PENALTY_MINUTE)

    def lost_on_time(self, now: float) -> int | None:
        """With ``overtime="loss"``: the seat whose time is up (the running one first), else None."""
        if self.overtime != "loss":
            return None
        order = ([self.running] if self.running is not None else []) + list(range(self.seats))
        return next((seat for seat in order if self.left(seat, now) <= 0), None)

    def to_json(self, now: float) -> dict[str, Any]:
        """The clocks as they stand at ``now`` (journaled with the game; after a power cut the
        time while the table was off is not counted against anyone)."""
        return {"limit": self.limit, "overtime": self.overtime,
                "used": [self.used_at(seat, now) for seat in range(self.seats)], "running": self.running}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], now: float) -> Clocks:
        used = [float(u) for u in data["used"]]
        clocks = cls(len(used), float(data["limit"]), data["overtime"], used)
        clocks.running, clocks._since = data.get("running"), now
        return clocks


def penalised_scores(scores: Sequence[int], penalties: Sequence[int]) -> list[int]:
    """Final scores after time penalties: each late seat loses its penalties; with two seats the
    opponent gains them (the online tournament rule)."""
    adjusted = [score - late for score, late in zip(scores, penalties)]
    if len(scores) == 2:
        adjusted = [adjusted[0] + penalties[1], adjusted[1] + penalties[0]]
    return adjusted
