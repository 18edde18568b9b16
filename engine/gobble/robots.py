"""Computer players for Gobbles: how quickly they react, how often they overlook a spot, and how
cunningly they play and give.

A robot does not think continuously: it *looks* at the table once per reaction time (a random
delay in its level's range), and then either places one tile or, having seen nothing (a miss, or
no spot for any of its tiles), waits for its next look. The table (:mod:`engine.gobble.table`)
schedules the looks on a clock the caller controls, so tests and benchmarks need no real waiting.

Levels (reaction range, chance to miss, greed = chance to go for the biggest gobble, cunning = play
its most awkward tile first and give awkward tiles to the leader):

* beginner: 5-9 s, misses 30 %, random spot, random gift;
* casual:   2.5-5 s, misses 10 %, takes a gobble half the time, random gift;
* expert:   1-2 s, never misses, always takes the biggest gobble, cunning.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..board import Placement
from . import rules
from .gobbles import Gift, Gobbles, Level


@dataclass(frozen=True, slots=True)
class Style:
    fastest_ms: int
    slowest_ms: int
    miss: float
    greed: float
    cunning: bool


STYLES: dict[Level, Style] = {
    Level.BEGINNER: Style(5000, 9000, 0.3, 0.0, False),
    Level.CASUAL: Style(2500, 5000, 0.1, 0.5, False),
    Level.EXPERT: Style(1000, 2000, 0.0, 1.0, True),
}


class GobbleRobot:
    """The robot in seat ``seat``; ``rng`` makes its delays and choices reproducible."""

    def __init__(self, seat: int, level: Level, rng: random.Random) -> None:
        self.seat = seat
        self.level = Level(level)
        self.style = STYLES[self.level]
        self.rng = rng

    def reaction_ms(self) -> int:
        """How long until the next look."""
        return self.rng.randint(self.style.fastest_ms, self.style.slowest_ms)

    def look(self, game: Gobbles) -> Placement | None:
        """The placement the robot goes for now, or None when it sees nothing."""
        if self.rng.random() < self.style.miss:
            return None
        options = game.legal_placements(self.seat)
        if not options:
            return None
        if self.rng.random() < self.style.greed:
            best = max(rules.gobble_of(game.board, p.cell) for p in options)
            options = [p for p in options if rules.gobble_of(game.board, p.cell) == best]
        if self.style.cunning:
            spots: dict[int, int] = {}
            for p in game.legal_placements(self.seat):
                spots[p.tile] = spots.get(p.tile, 0) + 1
            fewest = min(spots[p.tile] for p in options)
            options = [p for p in options if spots[p.tile] == fewest]
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
