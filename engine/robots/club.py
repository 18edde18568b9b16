"""The club robot: one ply, every legal placement judged by the evaluation (engine.robots.evaluation).

It tries each placement the turn allows, judges the position after it by its own colour's potential
minus the strongest opponent's, and plays the best (ties broken at random). That single look already
extends its own line, keeps its ends open, links segments through connection cells, blocks the
opponents' ends and forces their small loops.
"""

from __future__ import annotations

import random

from ..board import Placement
from ..game import StrategyGame
from ..tiles import FACES
from .evaluation import WEIGHTS, ColourAnalysis, Evaluator, Weights


def perspective(view: StrategyGame) -> tuple[str, list[str]]:
    """The colour of the seat to move and the colours it plays against (partners share one)."""
    assert view.turn is not None
    mine = view.colour_of(view.turn)
    return mine, [c for c in view.colours() if c != mine]


def evaluator(view: StrategyGame, weights: Weights = WEIGHTS) -> Evaluator:
    """An evaluator for the tiles a player at the table knows are still to come (hands and bag)."""
    placed = view.board.placed_tiles()
    unplaced = [t for t in range(1, 57) if t not in placed]
    return Evaluator(unplaced, view.bag_count, weights)


def ranked(view: StrategyGame, weights: Weights = WEIGHTS) -> list[tuple[float, Placement]]:
    """Every legal placement with the value of the position after it, best first."""
    mine, others = perspective(view)
    judge = evaluator(view, weights)
    own = ColourAnalysis(judge, view.board, mine)
    theirs = [ColourAnalysis(judge, view.board, c) for c in others]
    scored = []
    for placement in view.legal():
        face = FACES[placement.tile][placement.rot]
        cell = placement.cell
        value = own.after(cell, face) - max(t.after(cell, face) for t in theirs)
        scored.append((value, placement))
    scored.sort(key=lambda item: -item[0])
    return scored


class Club:
    name = "club"

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.weights = weights

    def choose(self, view: StrategyGame, rng: random.Random) -> Placement:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        scored = ranked(view, self.weights)
        best = scored[0][0]
        return rng.choice([p for value, p in scored if value >= best - 1e-9])
