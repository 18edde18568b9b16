"""Slow engine calls off the UI thread: a robot's choice, a puzzle's hint.

The screen keeps drawing while a robot thinks (a Pi 4 core is slow, and a frozen table looks
broken), so the thinking runs on a worker thread. Every screen does it the same way, through
:class:`Job`:

* the caller hands the job a **snapshot** it made on the UI thread (a copy of the game, a state), or
  keeps the live object untouched while :attr:`Job.busy`: the worker never races the screen;
* whatever the work returns **or raises** comes back on the Kivy clock, in the UI thread, as an
  :class:`Outcome`: a robot that fails can never leave the table waiting for ever;
* :meth:`Job.cancel` asks the work to stop (it is handed the :class:`threading.Event` to check)
  and marks the outcome as cancelled; :meth:`Job.forget` drops a result that no longer applies
  (the position changed, the screen was left), so it is never delivered.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from kivy.clock import Clock

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What a job came back with: its ``value``, or the ``error`` it raised (logged already);
    ``cancelled`` when :meth:`Job.cancel` was called meanwhile; ``seconds`` it took; ``frames``
    the UI drew meanwhile (the table kept moving)."""

    value: T | None
    error: BaseException | None
    cancelled: bool
    seconds: float
    frames: int


class Job(Generic[T]):
    """One slow call at a time on a worker thread, its :class:`Outcome` delivered on the clock.
    ``name`` names the thread and the log lines."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.busy = False
        """True from :meth:`start` until the outcome is delivered (or :meth:`forget`)."""
        self._generation = 0
        self._cancel = threading.Event()

    def start(self, work: Callable[[threading.Event], T], done: Callable[[Outcome[T]], None]) -> bool:
        """Run ``work(cancel_event)`` on a worker thread; ``done(outcome)`` runs on the Kivy clock.
        False (and nothing started) while a job is still running."""
        if self.busy:
            return False
        self._generation += 1
        generation = self._generation
        cancel = self._cancel = threading.Event()
        self.busy = True
        frames = [0]
        counter = Clock.schedule_interval(lambda dt: frames.__setitem__(0, frames[0] + 1), 0)

        def run() -> None:
            started = time.perf_counter()
            value: T | None = None
            error: BaseException | None = None
            try:
                value = work(cancel)
            except Exception as exc:  # noqa: BLE001 - delivered to ``done``: the screen decides what follows
                log.exception("%s failed", self.name)
                error = exc
            outcome = Outcome(value, error, cancel.is_set(), time.perf_counter() - started, frames[0])
            Clock.schedule_once(lambda dt: self._deliver(generation, outcome, done, counter), 0)

        threading.Thread(target=run, name=self.name, daemon=True).start()
        return True

    def _deliver(self, generation: int, outcome: Outcome[T], done: Callable[[Outcome[T]], None],
                 counter: object) -> None:
        counter.cancel()  # type: ignore[attr-defined]
        if generation != self._generation:
            return  # forgotten: a newer job runs, or the result no longer applies
        self.busy = False
        done(outcome)

    def cancel(self) -> None:
        """Ask the running work to stop; its outcome still comes, marked cancelled."""
        self._cancel.set()

    def forget(self) -> None:
        """Drop the running job's outcome (it is never delivered) and ask its work to stop."""
        self._cancel.set()
        self._generation += 1
        self.busy = False
