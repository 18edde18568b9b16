"""Computer players for Gobbles: how quickly they see a spot, and how cunningly they play and give.

A robot is paced like a person (:mod:`engine.gobble.pace`): after each action it plans its next
one from the table as it stands, taking as long as a player of its kind would to find a fitting
pair of tile and space, decide and drag. When that time is up it *looks*: if its search found
something it places one tile (from the table as it is then), else it searches again. The table
(:mod:`engine.gobble.table`) runs the looks on a clock the caller controls, so tests and
benchmarks need no real waiting.

Levels, as kinds of player, calibrated against the benchmark's first-time player (600 ms a
comparison, overlooks 20 % of fits, drags in about 1 s at 800x480; ``bench/gobbles_human.py``
measures who wins): the person should beat the beginner most of the time, the casual robot about
half the time and the expert rarely but sometimes.

* beginner: a hesitant player (900 ms a comparison, overlooks 30 %), random spot and gift;
* casual:   a bit slower than a first-timer (800 ms, overlooks 25 %), takes a gobble half the time,
  random gift;
* expert:   searches at about a first-timer's pace (650 ms, overlooks 20 %) but never lets a gobble
  go (always the biggest) and gives its most awkward tiles to the leader: its play, not its
  speed, makes it hard to beat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..board import Placement
from . import pace, rules
from .gobbles import Gift, Gobbles, Level
from .pace import Pace


@dataclass(frozen=True, slots=True)
class Style:
    pace: Pace
    greed: float
    """Chance to go for the biggest gobble."""
    cunning: bool
    """Gives its gobble tiles as :meth:`Gobbles.suggest_gift` does (awkward tiles to the leader)."""


STYLES: dict[Level, Style] = {
    Level.BEGINNER: Style(Pace(compare_ms=900, overlook=0.3, decide_ms=400, move_ms=1200), 0.0, False),
    Level.CASUAL: Style(Pace(compare_ms=800, overlook=0.25, decide_ms=350, move_ms=1100), 0.5, False),
    Level.EXPERT: Style(Pace(compare_ms=650, overlook=0.2, decide_ms=300, move_ms=950), 1.0, True),
}


class GobbleRobot:
    """The robot in seat ``seat``; ``rng`` makes its delays and choices reproducible."""

    def __init__(self, seat: int, level: Level, rng: random.Random) -> None:
        self.seat = seat
        self.level = Level(level)
        self.style = STYLES[self.level]
        self.rng = rng
        self.seen = False
        """Whether the search planned by :meth:`reaction_ms` finds a spot."""

    def reaction_ms(self, game: Gobbles) -> int:
        """Plan the next look on the table as it is now: how long until it (at least 100 ms)."""
        style, rng = self.style.pace, self.rng
        found = pace.search(style, pace.sight(game, self.seat), rng)
        self.seen = found.found
        if not found.found:
            return max(100, found.ms)
        return max(100, round(found.ms + pace.duration(style.decide_ms, rng) + pace.duration(style.move_ms, rng)))

    def look(self, game: Gobbles) -> Placement | None:
        """The placement the robot goes for now, or None when its search saw nothing."""
        if not self.seen:
            return None
        options = game.legal_placements(self.seat)
        if not options:
            return None
        if self.rng.random() < self.style.greed:
            best = max(rules.gobble_of(game.board, p.cell) for p in options)
            options = [p for p in options if rules.gobble_of(game.board, p.cell) == best]
        return self.rng.choice(options)

    def choose_gift(self, game: Gobbles) -> Gift:
        """Who gets the robot's gobble tiles, and which."""
        if self.style.cunning:
            return game.suggest_gift(self.seat)
        owed = game.pending[self.seat].count
        n = len(game.players)
        opponents = [p for p in range(n) if p != self.seat and game.playing(p)]
        tiles = self.rng.sample(game.hands[self.seat], owed)
        return Gift(self.rng.choice(opponents), tuple(sorted(tiles)))
