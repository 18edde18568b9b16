"""A delayed action whose every start counts the whole delay again from now.

Why not Kivy's ``Clock.create_trigger`` alone: a trigger called while it is pending keeps its first
deadline. A message said 4 s after another vanished 1.5 s later, and the cells of a refusal made
soon after a first went with the first's (the second's marks never had their few seconds).
"""

from __future__ import annotations

from typing import Callable

from kivy.clock import Clock


class Countdown:
    """``action()`` once ``seconds`` have passed since the latest :meth:`start`, unless cancelled."""

    def __init__(self, action: Callable[[], object], seconds: float) -> None:
        self._event = Clock.create_trigger(lambda dt: action(), seconds)

    def start(self) -> None:
        """(Re)start the count: ``action`` runs the full delay from now, once."""
        self._event.cancel()
        self._event()

    def cancel(self) -> None:
        self._event.cancel()
