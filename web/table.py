"""The game in progress as the spectator page draws it, from what the kiosk journals.

The kiosk saves ``engine.modes.save(mode)`` after every step; :func:`table_view` restores that with
the engine and keeps what the table shows: the placed tiles (each side's colour and the coloured
links joining sides, so the page draws a tile without knowing the tile set), and for the strategy
game the seats with their colours, robots, hands and scores, whether partners share a colour as
a team (Doubles), whose turn it is and the result. The
page does only geometry; every rule stays in the engine.
"""

from __future__ import annotations

from typing import Any

from engine.board import Board, Placement
from engine.strategy.game import StrategyGame
from engine.modes import restore
from engine.tiles import tile


def table_view(saved: dict[str, Any] | None, updated: float | None = None) -> dict[str, Any]:
    """The page's view of ``saved`` (None: no game); ``updated`` is when the kiosk saved it. A game
    that cannot be restored is shown by its ``error`` (what is wrong, which the page words in
    its visitor's language), never as a crash of the feed."""
    if saved is None:
        return {"kind": None, "updated": updated}
    try:
        mode = restore(saved)
    except (ValueError, KeyError, TypeError) as exc:
        return {"kind": str(saved.get("kind")), "error": str(exc), "updated": updated}
    view: dict[str, Any] = {"kind": mode.KIND, "finished": mode.finished, "updated": updated}
    board = getattr(mode, "board", None)
    if isinstance(board, Board):
        view["tiles"] = [_placed(p) for p in board.placements()]
    if isinstance(mode, StrategyGame):
        view.update(_strategy(mode))
    return view


def _placed(placement: Placement) -> dict[str, Any]:
    face = tile(placement.tile)
    return {"n": placement.tile, "q": placement.q, "r": placement.r, "face": face.face(placement.rot),
            "links": [[link.colour, (link.a + placement.rot) % 6, (link.b + placement.rot) % 6]
                      for link in face.links]}


def _strategy(game: StrategyGame) -> dict[str, Any]:
    scores = game.scores()
    return {
        "seats": [{"colour": seat.colour, "robot": seat.robot, "score": scores.get(seat.colour, 0),
                   "hand": [_placed(Placement(number, 0, 0, 0)) for number in game.hands[i]]}
                  for i, seat in enumerate(game.seats)],
        "doubles": game.options.doubles,
        "turn": game.turn,
        "step": str(game.step) if game.step is not None else None,
        "bag": game.bag_count,
        "result": game.result.to_json() if game.result is not None else None,
    }
