"""What Gobble (solo) and Gobbles (the race) share on screen: the rules in plain words and the
"how to play" scripts.

The scripts show real positions: every placement in them is legal in Gobble (and the refused one
refused for touching only one tile), which the tests check against :mod:`engine.gobble.rules`.
"""

from __future__ import annotations

from typing import Any

from engine.board import Placement as P

from ...howto import Step, TileStage
from ...i18n import N_


# --------------------------------------------------------------------------- the scripts

OPENING = (P(54, 0, 0, 1), P(45, 1, -1, 4))
BUILD = (P(36, 0, -1, 1), P(40, -1, 0, 4), P(2, -1, -1, 3), P(37, 1, -2, 5))
ONE_NEIGHBOUR = P(46, 0, 1, 1)
"""Refused after OPENING + BUILD: it touches only one tile."""
NOWHERE = 6
"""Fits nowhere after OPENING + BUILD (discarded); fits at REWARD after GOBBLE."""
GOBBLE = P(56, 0, -2, 1)
"""Fills a space with three tiles around it after OPENING + BUILD."""
REWARD = P(6, 1, -3, 3)
RACE = (P(16, 1, 0, 2), P(18, 1, 0, 4))
"""Two players, one space (after OPENING + BUILD): the first gets it, the second is too late."""
GIFT = 3

_FRAME = [p.cell for p in (*OPENING, *BUILD, ONE_NEIGHBOUR, GOBBLE, REWARD, RACE[0])]


def solo_script(stage: TileStage) -> tuple[list[Step], Any]:
    """Gobble solo's "how to play": (steps, reset)."""
    hand = [p.tile for p in (*OPENING, *BUILD)] + [ONE_NEIGHBOUR.tile, NOWHERE, GOBBLE.tile]

    def reset() -> None:
        stage.reset((), [hand], _FRAME)

    def opening() -> None:
        stage.slide(0, OPENING[0])
        stage.slide(0, OPENING[1], delay=1.1)

    def build() -> None:
        for i, p in enumerate(BUILD):
            stage.slide(0, p, seconds=0.6, delay=i * 0.8)

    steps = [
        Step(N_("Gobble: put all 56 tiles on the table. The first two go together in the middle."), opening, 3.2),
        Step(N_("Each new tile must touch two tiles, and colours must match wherever tiles touch."), build, 4.2),
        Step(N_("Touching only one tile is not allowed."), lambda: stage.slide(0, ONE_NEIGHBOUR, refused=True), 3.4),
        Step(N_("A tile that fits nowhere goes on the discard pile."), lambda: stage.discard(0, NOWHERE), 3.0),
        Step(N_("Fill a space with three tiles around it: a gobble! Your reward: play the top discard."),
             lambda: (stage.slide(0, GOBBLE), stage.play_discard(REWARD, delay=1.4)), 4.4),
        Step(N_("Drag a tile with your finger, tap it to turn it. There is no undo: a placed tile stays."),
             lambda: None, 3.0),
    ]
    return steps, reset


def race_script(stage: TileStage) -> tuple[list[Step], Any]:
    """Gobbles' "how to play": (steps, reset). Hand 0 is left of the board, hand 1 right of it."""
    mine = [BUILD[0].tile, BUILD[3].tile, RACE[0].tile, GOBBLE.tile, GIFT]
    theirs = [BUILD[1].tile, BUILD[2].tile, RACE[1].tile, 8, 51]

    def reset() -> None:
        stage.reset(OPENING, [mine, theirs], _FRAME)

    steps = [
        Step(N_("Gobbles: everyone plays at the same time. There are no turns!"),
             lambda: (stage.slide(0, BUILD[0]), stage.slide(1, BUILD[1], delay=0.5)), 3.2),
        Step(N_("A tile must touch two tiles, and every colour must match."),
             lambda: (stage.slide(1, BUILD[2]), stage.slide(0, BUILD[3], delay=0.4)), 3.2),
        Step(N_("Two fingers, one space: the first one there gets it. The other one is told: taken!"),
             lambda: (stage.slide(0, RACE[0], seconds=0.8), stage.slide(1, RACE[1], refused=True, seconds=1.2)), 4.0),
        Step(N_("Fill a space with three tiles around it: gobble! Give one of your tiles to an opponent."),
             lambda: (stage.slide(0, GOBBLE), stage.give(0, 1, GIFT, delay=1.3)), 4.2),
        Step(N_("The first to place all their tiles wins. Drag with your finger, tap a tile to turn it."),
             lambda: None, 3.0),
    ]
    return steps, reset
