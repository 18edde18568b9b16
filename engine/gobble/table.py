"""The real-time side of Gobbles: a table that people (UI thread) and robots share.

Every action goes through one lock. Under it the table reads its clock, stamps the action with the
milliseconds since the start, and hands it to the pure core (:class:`engine.gobble.gobbles.Gobbles`),
which appends it to the record with the next sequence number. Arrival order therefore is time
order is record order, and of two players claiming one space at once exactly one wins; the other
gets ``Refused(GobbleRule.TAKEN, ...)``.

Robots and kiosk timeouts run on the same clock, which the caller injects (``time.monotonic`` by
default; :class:`ManualClock` in tests and simulations). Nothing here sleeps or starts threads:
:meth:`GobblesTable.tick`, called from the UI's clock (e.g. every 100 ms), lets each robot whose
look is due act, stamped at the moment it was due, and settles gifts whose chooser ran out of time (with what they had chosen, if whole).
A human claim first catches up with everything due before it, so a robot that was quicker wins.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable, Iterable

from ..board import Placement
from .gobbles import Claimed, Gift, Give, Gobbles
from .robots import GobbleRobot

GIFT_TIMEOUT_MS = 10_000
"""How long a person has to choose who gets their gobble tiles before the kiosk gives them by
:meth:`Gobbles.suggest_gift` (an unattended table must never wait forever)."""


class ManualClock:
    """A clock that only moves when told to (seconds, like ``time.monotonic``)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, ms: float) -> None:
        self.now += ms / 1000


class GobblesTable:
    """A Gobbles game in real time: thread-safe claims and gifts, robots, gift timeouts.

    ``game.now_ms`` continues from where a restored game stopped (robots then plan their next look
    afresh from that moment). ``seed`` makes the robots' reaction times and choices reproducible.
    """

    def __init__(
        self,
        game: Gobbles,
        clock: Callable[[], float] = time.monotonic,
        gift_timeout_ms: int = GIFT_TIMEOUT_MS,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.gift_timeout_ms = gift_timeout_ms
        self._clock = clock
        self._origin = clock() - game.now_ms / 1000
        self._paused_at: float | None = None
        self._choices: dict[int, Gift] = {}
        self._lock = threading.Lock()
        rng = random.Random(seed)
        self.robots = {
            seat: GobbleRobot(seat, p.robot, random.Random(rng.getrandbits(64)))
            for seat, p in enumerate(game.players) if p.robot is not None
        }
        now = self._now()
        self._due = {seat: now + robot.reaction_ms(game) for seat, robot in self.robots.items()}

    def now_ms(self) -> int:
        """Milliseconds since the start of the game, by the table's clock."""
        with self._lock:
            return self._now()

    def claim(self, player: int, placement: Placement) -> Claimed:
        """``player`` places a tile now; raises :class:`Refused` (``"taken"`` when beaten to it)."""
        with self._lock:
            now = self._now()
            self._advance(now)
            return self.game.claim(player, placement, max(now, self.game.now_ms))

    def give(self, player: int, to: int, tiles: Iterable[int]) -> None:
        """``player`` gives their gobble tiles to ``to``; raises :class:`Refused` for a bad choice."""
        with self._lock:
            now = self._now()
            self._advance(now)
            self.game.give(player, Gift(to, tuple(tiles)), max(now, self.game.now_ms))
            self._choices.pop(player, None)

    def choose(self, player: int, gift: Gift) -> None:
        """What ``player``'s gift card shows chosen so far: if their time runs out, that is given
        for them while it is a valid gift (what a player saw picked is what goes), else
        :meth:`Gobbles.suggest_gift`."""
        with self._lock:
            self._choices[player] = gift

    def gift_deadline(self, player: int) -> int | None:
        """When (ms) the kiosk gives ``player``'s owed tiles for them, or None if nothing is owed."""
        with self._lock:
            owed = self.game.pending.get(player)
            return None if owed is None else owed.since + self.gift_timeout_ms

    def tick(self) -> list[dict[str, Any]]:
        """Let robots and timeouts act up to now; returns the events this recorded."""
        with self._lock:
            before = len(self.game.events)
            self._advance(self._now())
            return self.game.events[before:]

    def pause(self) -> None:
        """Stop the race's clock (the table was left for the staff menu): no robot plays and no
        gift countdown runs while nobody can see the table, not even its people's."""
        with self._lock:
            if self._paused_at is None:
                self._paused_at = self._clock()

    def resume(self) -> None:
        """Let the race's clock run on from where :meth:`pause` stopped it."""
        with self._lock:
            if self._paused_at is not None:
                self._origin += self._clock() - self._paused_at
                self._paused_at = None

    def snapshot(self) -> Gobbles:
        """A consistent copy of the game to read from another thread."""
        with self._lock:
            return self.game.copy()

    # ------------------------------------------------------------------------ inside the lock

    def _now(self) -> int:
        clock = self._paused_at if self._paused_at is not None else self._clock()
        return round((clock - self._origin) * 1000)

    def _advance(self, now: int) -> None:
        """Run everything due up to ``now`` in time order: gift timeouts, then robot looks (by
        seat on a tie), each stamped when it was due (but never before the last action)."""
        game = self.game
        while not game.finished:
            due = [(owed.since + self.gift_timeout_ms, 0, p) for p, owed in game.pending.items()
                   if p not in self.robots]
            due += [(t, 1, seat) for seat, t in self._due.items() if game.playing(seat)]
            if not due or min(due)[0] > now:
                return
            t, kind, seat = min(due)
            at = max(t, game.now_ms)
            if kind == 0:
                chosen = self._choices.pop(seat, None)
                valid = chosen is not None and game.check(Give(seat, chosen)) is None
                game.give(seat, chosen if chosen is not None and valid else game.suggest_gift(seat), at, auto=True)
                continue
            robot = self.robots[seat]
            placement = robot.look(game)
            if placement is not None:
                game.claim(seat, placement, at)
                if seat in game.pending:
                    game.give(seat, robot.choose_gift(game), at)
            self._due[seat] = at + robot.reaction_ms(game)
