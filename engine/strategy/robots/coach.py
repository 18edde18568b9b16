"""The coach: what the master would play here, and one short reason a learner can follow.

:func:`advise` runs the master's search on what the player to move can see and returns the
placement it chose with a :class:`Reason`: a code and its parameters (colours as letters, lengths
as numbers), never words, so that the kiosk words it in the player's language
(ui.modes.strategy.coach). The reason is read from the chosen placement's effect on the lines the
search judged (the mover's line it starts, extends, links, closes or gives room, the opponent's
potential it takes away or, where another placement would have added to it, leaves alone, the
forced space it fills) and, when none of those stands out, from the search itself (how many
sampled futures it tried and by how much this placement came out ahead).

Codes and their parameters:

* ``closes-loop``: colour, length: closes a loop of ``colour`` of ``length`` tiles;
* ``link`` / ``link-block``: colour, length (, other): joins two of its lines into one of
  ``length`` (and blocks ``other``);
* ``extend`` / ``extend-block``: colour, length (, other): extends its line to ``length`` (and
  blocks ``other``'s end);
* ``fill-block``: other: fills a forced space that would otherwise serve ``other``;
* ``block``: other: takes the most from ``other``'s best line;
* ``start``: colour: the first tile of ``colour``'s line;
* ``fill-safe``: other: fills a forced space in a way that gives ``other`` nothing, where
  another fill the rules allow now would have helped it;
* ``fill``: fills a forced space, as the rules oblige;
* ``only``: the only placement the rules allow;
* ``grow``: colour: ``colour``'s line gains room to grow (its potential rises) without the tile
  touching its ends, e.g. an end now in a space a tile will soon have to fill;
* ``safe``: other: put in a way that gives ``other`` nothing, where another tile or turn on that
  space would have helped it (the booklets: never extend an opponent's line for free);
* ``quiet``: tries: a free move that changes none of the lines in play (no colour's potential
  moves by more than :data:`NOTHING`), chosen by the search over ``tries`` sampled futures;
* ``outlook``: tries, ahead: the best outcome over ``tries`` sampled futures, ``ahead`` tenths of
  a point better than the next placement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...board import Placement
from ...tiles import FACES
from .club import evaluator, perspective
from .evaluation import ColourAnalysis
from .master import Master, Search

if TYPE_CHECKING:
    from ..game import StrategyGame

BLOCKING = 1.0  # potential an opponent must lose for the placement to count as a block
HELPING = 1.0  # potential a colour must gain for a placement to count as helping it (or growing)
NOTHING = 0.25  # at most this gain for every opponent: the placement gives them nothing
REASONS = ("closes-loop", "link", "link-block", "extend", "extend-block", "fill-block", "block", "start",
           "fill-safe", "fill", "only", "grow", "safe", "quiet", "outlook")


@dataclass(frozen=True)
class Reason:
    """Why: a code of :data:`REASONS` and its parameters (JSON-friendly)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Advice:
    """The placement the master suggests, why, and how much search stands behind it."""

    placement: Placement
    reason: Reason
    iterations: int


def advise(game: StrategyGame, master: Master | None = None) -> Advice:
    """The master's suggestion for the seat to move in ``game`` (which it does not change): the
    search sees only :meth:`StrategyGame.view` and uses the game's robot random source, so the
    advice is the move a master in that seat would make."""
    master = master if master is not None else Master()
    view = game.view()
    search = master.search(view, game.robot_rng())
    return Advice(search.choice, explain(view, search), search.iterations)


def explain(view: StrategyGame, search: Search) -> Reason:
    """The reason for ``search.choice`` in the position ``view`` (see the module's codes)."""
    placement = search.choice
    mine, others = perspective(view)
    judge = evaluator(view)
    board = view.board
    face = FACES[placement.tile][placement.rot]
    cell = placement.cell
    own = ColourAnalysis(judge, board, mine)
    loop = own.closes_loop(cell, face)
    if loop:
        return Reason("closes-loop", {"colour": mine, "length": loop})
    theirs = [ColourAnalysis(judge, board, c) for c in others]
    changes = [a.after(cell, face) - a.potential for a in theirs]  # what the placement does to each opponent
    loss, other = max(((-change, a.colour) for change, a in zip(changes, theirs)), default=(0.0, ""))
    blocked = {"other": other} if loss >= BLOCKING else {}
    attached = own.ends_at.get(cell, [])
    if mine in face and attached:
        board.push(placement)
        try:
            length = next(line.length for line in board.lines(mine) if cell in line.cells)
        finally:
            board.undo()
        code = "link" if len(attached) == 2 else "extend"
        return Reason(code + ("-block" if blocked else ""), {"colour": mine, "length": length, **blocked})
    forced = board.is_forced(cell)
    if blocked:
        return Reason("fill-block" if forced else "block", blocked)
    if mine in face and not own.lengths and not own.best_loop:
        return Reason("start", {"colour": mine})
    spared = _spared(view, placement, theirs, anywhere=forced) if all(c <= NOTHING for c in changes) else ""
    if forced:
        return Reason("fill-safe", {"other": spared}) if spared else Reason("fill")
    if len(search.children) == 1:
        return Reason("only")
    grown = own.after(cell, face) - own.potential
    if grown >= HELPING:
        return Reason("grow", {"colour": mine})
    if spared:
        return Reason("safe", {"other": spared})
    if abs(grown) <= NOTHING and all(abs(c) <= NOTHING for c in changes):
        return Reason("quiet", {"tries": search.iterations})
    tried = sorted((c for c in search.children if c.values), key=lambda c: -c.mean)
    ahead = tried[0].mean - tried[1].mean if len(tried) > 1 else 0.0
    return Reason("outlook", {"tries": search.iterations, "ahead": max(0, round(10 * ahead))})


def _spared(view: StrategyGame, placement: Placement, theirs: list[ColourAnalysis], anywhere: bool) -> str:
    """For a ``placement`` that gives the opponents nothing: the opponent colour another legal
    placement would have helped most (by at least :data:`HELPING`), or "" when none would. The
    others compared: every fill the rules allow now (``anywhere``: the few choices a
    fill has), else those on the same space, as a free move has a hundred and that one of them
    would help an opponent is true of almost any move and teaches nothing."""

    there = [(a.after(p.cell, FACES[p.tile][p.rot]) - a.potential, a.colour) for p in view.legal()
             if (anywhere or p.cell == placement.cell) and p != placement for a in theirs]
    gain, colour = max(there, default=(0.0, ""))
    return colour if gain >= HELPING else ""
