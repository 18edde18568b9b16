"""The club robot: one ply, every legal placement judged by the evaluation (engine.strategy.robots.evaluation).

It tries each placement the turn allows, judges the position after it by its own colour's potential
minus the strongest opponent's, and plays the best (ties broken at random). That single look already
extends its own line, keeps its ends open, links segments through connection cells, blocks the
opponents' ends and forces their small loops; a free move that makes forced spaces is judged with
the fills it obliges played out, and it does not close a small loop of its own early.
"""

from __future__ import annotations

import math
import random

from ...board import Board, Placement
from ..game import StrategyGame, Step
from ...geometry import Cell, neighbours
from ...tiles import FACES
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


def ranked(view: StrategyGame, weights: Weights = WEIGHTS, fills: bool = True) -> list[tuple[float, Placement]]:
    """Every legal placement with the value of the position after it, best first.

    A free move that makes a forced space is judged with the fills it obliges from the rest of
    the hand played out (step 3 of the turn), and closing one's own small loop while tiles remain
    to be drawn costs ``weights.small_loop`` (leaving a forced space that will close one costs it
    times the chance a tile fills that space): the two ways the one-ply judgement used to mislead.
    ``fills=False`` skips playing out the fills (the fast policy of the master's playouts)."""
    mine, others = perspective(view)
    judge = evaluator(view, weights)
    board = view.board
    own = ColourAnalysis(judge, board, mine)
    theirs = [ColourAnalysis(judge, board, c) for c in others]
    assert view.turn is not None
    hand = view.hands[view.turn]
    early = view.bag_count > 0
    small = weights.small_loop_tiles
    free = fills and view.step is Step.FREE and len(hand) > 1
    looping = any(a == b for a, b in own.ends)  # an own line both of whose ends face one cell
    scored = []
    for placement in view.legal():
        face = FACES[placement.tile][placement.rot]
        cell = placement.cell
        value = own.after(cell, face) - max(t.after(cell, face) for t in theirs)
        loop = own.closes_loop(cell, face)
        if free and _makes_forced_space(board, cell):
            value, loop, threat = _after_fills(board, placement, hand, judge, own, others, small, (value, loop),
                                               early, cell in own.ends_at or looping)
            value -= weights.small_loop * threat
        if early and 0 < loop <= small:
            value -= weights.small_loop
        scored.append((value, placement))
    scored.sort(key=lambda item: -item[0])
    return scored


def _makes_forced_space(board: Board, cell: Cell) -> bool:
    """Whether a tile on ``cell`` turns an empty neighbour into a forced space."""
    return any(n not in board and board.neighbour_count(n) == 2 for n in neighbours(cell))


def _after_fills(board: Board, placement: Placement, hand: list[int], judge: Evaluator, own: ColourAnalysis,
                 others: list[str], small: int, quiet: tuple[float, int], early: bool, faced: bool,
                 ) -> tuple[float, int, float]:
    """The value after ``placement`` and the forced fills the rest of ``hand`` must then make
    (each chosen greedily by the evaluation), the length of the smallest own loop they close (0
    for none), and the threat left behind: the chance that a forced space joining both ends of
    one own line closes a small loop anyway (the tile drawn next, or the next fill, will go
    there). The board is left as it was.

    Analysing a board is what costs here, so it is done only where needed. ``own`` is the
    mover's analysis before the placement and ``quiet`` the value and closed loop it gives the
    placement alone: what this returns when no fill follows (the incremental judgement equals
    judging the board after it). A fill step with a choice judges its options incrementally, and
    the best one's value is the board's after it; a fill with no choice is made unjudged. A
    threat counts only while tiles are to come (``early``); ``faced`` False says none can be
    left without fills (no own line faces one cell, and the placement extends none)."""
    mine = own.colour
    rest = [t for t in hand if t != placement.tile]
    value: float | None = quiet[0]  # None: not judged yet (a fill with no choice was made)
    loop = quiet[1]
    board.push(placement)
    made = {placement.cell}
    pushed = 1
    try:
        while rest:
            forced = [s.cell for s in board.forced_spaces()]
            options = board.legal_placements(rest, forced) if forced else []
            if not options:
                break
            best = options[0]
            if len(options) == 1:  # no choice: judged with the board it leaves, below
                value = None
            else:
                mover = ColourAnalysis(judge, board, mine)
                theirs = [ColourAnalysis(judge, board, c) for c in others]
                top = -math.inf
                for option in options:  # the first best, as max() would give
                    if (found := _value_with(mover, theirs, option)) > top:
                        top, best = found, option
                value = top
            board.push(best)
            made.add(best.cell)
            pushed += 1
            rest.remove(best.tile)
            faced = True
        if pushed > 1:  # a loop through none of the tiles just placed was there before
            closed = [line.length for line in board.lines(mine) if line.loop and not made.isdisjoint(line.cells)]
            loop = min((n for n in closed if n <= small), default=0)
        threatened = early and faced
        if value is None or threatened:
            after = ColourAnalysis(judge, board, mine)
            if value is None:
                value = after.potential - max((ColourAnalysis(judge, board, c).potential for c in others), default=0.0)
            if threatened:
                return value, loop, max((judge.chance(board.requirement(cell), 2) for cell, chains in after.ends_at.items()
                                         if len(chains) == 2 and chains[0] == chains[1]
                                         and after.lengths[chains[0]] < small and board.is_forced(cell)), default=0.0)
        return value, loop, 0.0
    finally:
        for _ in range(pushed):
            board.undo()


def _value_with(own: ColourAnalysis, theirs: list[ColourAnalysis], placement: Placement) -> float:
    face = FACES[placement.tile][placement.rot]
    cell = placement.cell
    return own.after(cell, face) - max(t.after(cell, face) for t in theirs)


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
