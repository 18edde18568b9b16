"""Cooperative control of a long search: a time limit, a cancel flag and progress reports.

Searches call :meth:`Control.tick` once per node. Every ``every`` ticks it looks at the clock and
the cancel flag and reports progress; a stop raises :class:`Interrupted`, which unwinds the search
and leaves the board as it was. A kiosk UI runs a search in a worker thread and sets the flag (a
``threading.Event``) when the player walks away: the search then ends within a few milliseconds,
and the UI thread is never blocked.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Protocol


class Flag(Protocol):
    """Anything with ``is_set()``, such as ``threading.Event``."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Progress:
    """What a search reports now and then: nodes visited, solutions found, seconds spent."""

    nodes: int
    solutions: int
    seconds: float


class Interrupted(Exception):
    """The search was stopped by its time limit (``reason == "timeout"``) or cancelled."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Control:
    """Time limit, cancel flag and progress callback for one search (or a series of them)."""

    def __init__(
        self,
        timeout: float | None = None,
        cancel: Flag | None = None,
        progress: Callable[[Progress], None] | None = None,
        every: int = 1024,
    ) -> None:
        self.started = time.monotonic()
        self.deadline = None if timeout is None else self.started + timeout
        self.cancel = cancel
        self.progress = progress
        self.every = every
        self.nodes = 0
        self.solutions = 0
        self._next = every

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def tick(self) -> None:
        """Count one node; now and then check the clock and the flag, and report progress."""
        self.nodes += 1
        if self.nodes >= self._next:
            self._next = self.nodes + self.every
            self.check()

    def check(self) -> None:
        """Raise :class:`Interrupted` if the search must stop now; otherwise report progress."""
        if self.cancel is not None and self.cancel.is_set():
            raise Interrupted("cancelled")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Interrupted("timeout")
        if self.progress is not None:
            self.progress(Progress(self.nodes, self.solutions, self.seconds))

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without a time limit)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


class Patience:
    """When an anytime search (one that always holds an answer and keeps improving it) should stop:
    at its deadline, when cancelled, or once ``stall`` seconds have passed since its last better
    answer (:meth:`improved`). The stall limit is what lets a search that has stopped gaining hand
    its time to a fresh start. ``clock`` is ``time.monotonic``; tests pass a manual one."""

    def __init__(self, seconds: float, cancel: Flag | None = None, stall: float = math.inf,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.deadline = clock() + seconds
        self.cancel = cancel
        self.stall = stall
        self.better_at = clock()

    def improved(self) -> None:
        """The search has just found a better answer."""
        self.better_at = self.clock()

    def over(self) -> bool:
        """True once the search should stop."""
        now = self.clock()
        return (
            now >= self.deadline
            or now - self.better_at > self.stall
            or (self.cancel is not None and self.cancel.is_set())
        )


class Enough(Exception):
    """A search has found every solution it was asked for: unwind."""


class OverBudget(Exception):
    """One pass of a restarting search has spent its node budget: start another."""


def restarting(one_pass: Callable[[int | None], None], budget: int, randomised: bool) -> None:
    """Run a search pass by pass. A randomised search (shuffled choices) gets a node budget that
    grows by half after each pass that overruns it (raises :class:`OverBudget`): a fresh random
    order often finds at once what an unlucky one takes ages over, and since the budget grows the
    last pass completes, so an empty answer is still a proof. A deterministic search runs once,
    unbounded. :class:`Enough` ends it early."""
    while True:
        try:
            one_pass(budget if randomised else None)
            return
        except Enough:
            return
        except OverBudget:
            budget = budget * 3 // 2
