"""The beginner robot: legal and obligatory moves chosen with little thought, a fair game for a child.

Half the time it simply plays any legal placement; otherwise it plays one that makes its own
colour's score largest right now, the way a child grows the line in front of them and never looks
at anyone else's.
"""

from __future__ import annotations

import random

from ...board import Placement
from ..game import StrategyGame


class Beginner:
    name = "beginner"

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        legal = view.legal()
        if len(legal) == 1 or rng.random() < 0.5:
            return rng.choice(legal)
        assert view.turn is not None
        colour = view.colour_of(view.turn)
        board = view.board
        scored = []
        for placement in legal:
            board.push(placement)
            scored.append((board.score(colour), placement))
            board.undo()
        best = max(score for score, _ in scored)
        return rng.choice([p for score, p in scored if score == best])
