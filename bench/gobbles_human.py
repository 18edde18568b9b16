"""Benchmark: how often a first-time player beats each Gobbles robot, on the 800x480 panel.

A scripted person (seat 0) races one robot (seat 1) through whole 2-player games on the table's
simulated clock. The person's reaction model (:mod:`engine.gobble.pace`, literature cited there):

* search: compares (tile, space) pairs at random until one that fits is recognised, 600 ms a
  comparison (log-normal, sigma 0.35; Cooper & Shepard 1973: 0.5-1 s to judge a turned shape),
  overlooks 20 % of fitting pairs, tries a tile the table outlines in amber first;
* decision: 300 ms (Card, Moran & Newell 1983: perceive 100 + a few 70 ms cycles);
* movement: points at the tile in the hand (Fitts: 100 ms + log2(D/W+1) / 6.95 bit/s, the
  throughput of a finger on a touchscreen, MacKenzie 2015), then drags it to the space (dragging
  is slower than pointing, MacKenzie, Sellen & Buxton 1991: 150 ms + ID / 5 bit/s); distances and
  widths in px at 800x480 (hand tiles 55 px; ``--tile-px``: board tiles across flats);
* aim: the finger lands with a scatter of 1.6 mm standard deviation (95 % within about 4 mm,
  Holz & Baudisch 2010), 8.3 px on the 7" panel; beyond half a tile it hits the next space and is
  refused: reading the refusal and dragging again costs a decision and a drag;
* races: the person picks their target when the search ends; if the table filled it meanwhile,
  they are told "taken" and search again;
* gifts: choosing who gets the gobble tiles takes 4 s (median), at most the kiosk's 10 s.

    nice -n 19 .venv/bin/python bench/gobbles_human.py [--games 200] [--tile-px 45]

Prints JSON: per robot level the person's win rate (with a 95 % Wilson interval), the median game
length and the median time the person took per placement.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Placement  # noqa: E402
from engine.gobble import rules  # noqa: E402
from engine.gobble.gobbles import Gobbles, Level, Player  # noqa: E402
from engine.gobble.pace import Pace, duration, fitts_ms, search, sight  # noqa: E402
from engine.gobble.table import GIFT_TIMEOUT_MS, GobblesTable, ManualClock  # noqa: E402
from engine.intervals import wilson  # noqa: E402

FIRST_TIMER = Pace(compare_ms=600, overlook=0.2, decide_ms=300, move_ms=0)
HAND_PX, REACH_PX, DRAG_PX = 55.0, 120.0, 200.0
"""Hand tile width, finger travel to the hand tile, and hand-to-space drag at 800x480 (px)."""
AIM_SD_PX = 8.3
GIFT_MS = 4000
STEP_MS = 100


class Person:
    """The scripted first-time player of the module docstring."""

    def __init__(self, rng: random.Random, tile_px: float) -> None:
        self.rng, self.tile_px = rng, tile_px
        self.target: Placement | None = None
        self.due = 0
        self.gift_at: int | None = None
        self.took: list[int] = []
        self._since = 0

    def movement_ms(self) -> float:
        reach = fitts_ms(REACH_PX, HAND_PX, 100, 6.95)
        drag = fitts_ms(DRAG_PX, self.tile_px, 150, 5.0)
        return duration(reach, self.rng) + duration(drag, self.rng)

    def misses(self) -> bool:
        """Whether the finger lands outside the space (2-D Gaussian scatter, inradius W/2)."""
        r = self.tile_px / 2
        return self.rng.random() < math.exp(-r * r / (2 * AIM_SD_PX ** 2))

    def plan(self, game: Gobbles, now: int) -> None:
        found = search(FIRST_TIMER, sight(game, 0), self.rng)
        self.target = None
        if found.found:
            options = game.legal_placements(0)
            forced = [p for p in options if game.board.neighbour_count(p.cell) >= 3]
            self.target = self.rng.choice(forced or options)
            self.due = now + round(found.ms + duration(FIRST_TIMER.decide_ms, self.rng) + self.movement_ms())
        else:
            self.due = now + found.ms

    def act(self, table: GobblesTable, game: Gobbles, now: int) -> None:
        target = self.target
        if target is None:
            self.plan(game, now)
            return
        if target.tile not in game.hands[0] or rules.refusal(game.board, target) is not None:
            self.plan(game, now)  # taken (or no longer fits): search again
            return
        if self.misses():
            self.due = now + round(duration(FIRST_TIMER.decide_ms, self.rng) + self.movement_ms())
            return
        table.claim(0, target)
        self.took.append(now - self._since)
        self._since = now
        self.plan(game, now)


def play(level: Level, seed: int, tile_px: float) -> tuple[bool, float, list[int]]:
    """One game: whether the person won, its length (s), the person's times per placement (ms)."""
    clock = ManualClock()
    game = Gobbles.deal([Player("Person"), Player("Robot", level)], seed=seed)
    table = GobblesTable(game, clock, seed=seed)
    person = Person(random.Random(seed * 7919 + 1), tile_px)
    person.plan(game, 0)
    while not game.finished:
        clock.advance(STEP_MS)
        table.tick()
        now = table.now_ms()
        if game.finished:
            break
        if now > 3_600_000:
            raise RuntimeError(f"seed {seed}: no end after a simulated hour")
        if 0 in game.pending:
            if person.gift_at is None:
                person.gift_at = now + round(duration(GIFT_MS, person.rng))
            if person.gift_at < game.pending[0].since + GIFT_TIMEOUT_MS and now >= person.gift_at:
                gift = game.suggest_gift(0)
                table.give(0, gift.to, gift.tiles)
            continue
        if person.gift_at is not None:
            person.gift_at = None
            person.plan(game, now)
        if game.playing(0) and now >= person.due:
            person.act(table, game, now)
    first = [s.player for s in game.standings() if s.place == 1]
    return first == [0], game.now_ms / 1000, person.took


def main(games: int, tile_px: float) -> dict[str, object]:
    out: dict[str, object] = {"games_per_level": games, "board_tile_px": tile_px}
    for level in Level:
        wins, lengths, took = 0, [], []
        for seed in range(games):
            won, length, times = play(level, seed, tile_px)
            wins += won
            lengths.append(length)
            took += times
        out[str(level)] = {
            "person_wins": round(wins / games, 3), "wins_95": wilson(wins, games),
            "median_game_s": round(statistics.median(lengths), 1),
            "person_median_s_per_placement": round(statistics.median(took) / 1000, 2),
        }
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tile-px", type=float, default=45.0)
    args = parser.parse_args()
    print(json.dumps(main(args.games, args.tile_px), indent=1))
