"""The strategy game's clocks at the table: one per seat, shown on the seats' plates.

:class:`engine.clock.Clocks` counts the time; this module ties it to the table:

* which clock runs: the seat that must act, and only while the game is on screen, so leaving it
  (the staff menu, the attract screen) pauses every clock, and so does a power cut;
* where it is kept: the store's progress key :data:`CLOCKS`, with the game's fingerprint (its
  record's header, as :mod:`ui.seat_players` keeps who sits where), so a clock never applies to
  another game. It is saved with every step, in the journal's transaction (so a step never comes
  back with the clocks of before it), and every :data:`SAVE_EVERY` seconds while it runs: a power
  cut costs the player to act at most that much of their time, never anyone else's;
* what happens when a player's time is up: the game's :meth:`~engine.strategy.game.StrategyGame.time_penalty`
  or :meth:`~engine.strategy.game.StrategyGame.time_out`, as the table's ``[rules] time_out`` says (the
  game decides what either does to the result).

Time is read from :func:`monotonic` (tests replace it with simulated time).
"""

from __future__ import annotations

import logging
import math
from time import monotonic

from engine.clock import Clocks, Overtime
from engine.strategy.game import StrategyGame

from ...seat_players import fingerprint
from ...shell import Shell

log = logging.getLogger(__name__)

CLOCKS = "strategy-clocks"
"""The store's progress key holding the clocks of the game in progress."""
SAVE_EVERY = 10.0
"""Seconds between two saves of a running clock (besides the save after every step)."""


def set_clocks(app: Shell, game: StrategyGame, minutes: int, overtime: Overtime | None = None) -> None:
    """Give ``game`` (about to start) clocks of ``minutes`` per player, or none for 0;
    ``overtime`` defaults to the table's ``[rules] time_out``."""
    store = app.services.store
    if minutes <= 0:
        store.set_progress(CLOCKS, {})
        return
    clocks = Clocks(game.players, minutes * 60.0, overtime or app.services.settings.time_out)
    store.set_progress(CLOCKS, {"of": fingerprint(game.record()), "clocks": clocks.to_json(0.0)})


def format_clock(seconds: float) -> str:
    """``14:05``, or ``-0:12`` once the time is up (whole seconds, rounded up: 0:00 is the limit)."""
    whole = math.ceil(seconds)
    sign = "-" if whole < 0 else ""
    minutes, secs = divmod(abs(whole), 60)
    return f"{sign}{minutes}:{secs:02d}"


class TableClocks:
    """The clocks of the game on screen; :meth:`load` gives None when it has no clocks."""

    def __init__(self, app: Shell, game: StrategyGame, clocks: Clocks) -> None:
        self.app, self.game, self.clocks = app, game, clocks
        self._saved_at = monotonic()

    @classmethod
    def load(cls, app: Shell, game: StrategyGame) -> TableClocks | None:
        """The clocks kept for ``game`` (none kept, another game's, or unreadable: None). The time
        the table was off is counted against nobody."""
        saved = app.services.store.progress(CLOCKS)
        if not saved or saved.get("of") != fingerprint(game.record()):
            return None
        try:
            clocks = Clocks.from_json(saved["clocks"], monotonic())
            if clocks.seats != game.players or clocks.running not in (None, *range(game.players)):
                raise ValueError(f"clocks for {clocks.seats} seats, running {clocks.running!r}")
        except (KeyError, TypeError, ValueError) as error:
            app.services.store.set_progress(CLOCKS, {})  # damaged: the game goes on without clocks
            log.warning("the game's clocks cannot be read (%s); it goes on without", error)
            return None
        return cls(app, game, clocks)

    def run(self, seat: int | None) -> None:
        """Run ``seat``'s clock (None: stop them all) and keep the clocks."""
        if seat != self.clocks.running:
            self.clocks.switch(seat, monotonic())
        self.save()

    def save(self) -> None:
        now = monotonic()
        self._saved_at = now
        self.app.services.store.set_progress(CLOCKS, {"of": fingerprint(self.game.record()),
                                                      "clocks": self.clocks.to_json(now)})

    def forget(self) -> None:
        """The game is over: its clocks are no longer kept."""
        self.clocks.switch(None, monotonic())
        self.app.services.store.set_progress(CLOCKS, {})

    def text(self, seat: int) -> str:
        """What ``seat``'s plate shows: its time left."""
        return format_clock(self.clocks.left(seat, monotonic()))

    def check(self) -> bool:
        """Charge the game with what the time now calls for (a time penalty due, a loss on time);
        save a running clock now and then. True when the game changed (it must be journaled)."""
        game, now = self.game, monotonic()
        if game.finished:
            return False
        out = self.clocks.lost_on_time(now)
        if out is not None:
            game.time_out(out)
            return True
        changed = False
        if self.clocks.overtime == "penalty":
            for seat, charged in enumerate(game.penalties()):
                for _ in range(self.clocks.penalties(seat, now) - charged):
                    game.time_penalty(seat)
                    changed = True
        if not changed and self.clocks.running is not None and now - self._saved_at >= SAVE_EVERY:
            self.save()
        return changed
