"""A sparring robot for the ladder, written apart from engine.strategy.robots from the booklets' strategy
chapter: a static evaluation of each colour's potential and a one-reply check. It speaks the
external robot protocol (engine.strategy.protocol) on stdin/stdout, so it plays like any outside program:

    python -m engine match --robots master,"cmd:python bench/sparring_robot.py" --games 20 --seed 1

Its evaluation, per colour: the best line's length plus, while tiles remain, one point per end that
points into a space some unseen tile can still fill; a loop counts double, but a small loop closed
before the bag is empty counts only its length (the booklets' first warning). A position is worth
its own colour's potential minus the best opponent's. The one-reply check: for its four best
placements by that judgement it lets the next opponent answer with the reply best for them, and
keeps the placement whose worst case is best. It uses only engine.board for the rules.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import Board, Placement  # noqa: E402
from engine.geometry import DIRECTIONS  # noqa: E402
from engine.tiles import FACES  # noqa: E402

CANDIDATES = 4


def potential(board: Board, colour: str, unseen: list[int]) -> float:
    best = 0.0
    early = board.bag > 0
    for line in board.lines(colour):
        if line.loop:
            value = 2.0 * line.length if (not early or line.length >= 6) else float(line.length)
        else:
            value = float(line.length)
            if early:
                for end in {line.cells[0], line.cells[-1]}:
                    tile, q, r, rot = board.at(end)  # type: ignore[misc]
                    face = FACES[tile][rot]
                    for d, (dq, dr) in enumerate(DIRECTIONS):
                        cell = (q + dq, r + dr)
                        if face[d] == colour and cell not in board:
                            if any(board.fits(t, cell) for t in unseen):
                                value += 1.0
        best = max(best, value)
    return best


def judge(board: Board, mine: str, others: list[str], unseen: list[int]) -> float:
    return potential(board, mine, unseen) - max(potential(board, c, unseen) for c in others)


def position(message: dict) -> tuple[list[Placement], Board, list[str]]:
    """A ``move`` message's legal placements, its board (with the bag's count, which the
    restrictions depend on) and the colours in play."""
    legal = [Placement(p["tile"], p["q"], p["r"], p["rot"]) for p in message["legal"]]
    board = Board.from_json(message["position"])
    board.bag = len(message["unseen"])
    return legal, board, list(dict.fromkeys(s["colour"] for s in message["seats"]))


def choose(message: dict) -> dict:
    legal, board, colours = position(message)
    if len(legal) == 1:
        return legal[0].to_json()
    mine = message["colour"]
    others = [c for c in colours if c != mine]
    unseen = message["unseen"] + [t for h in message["hands"] for t in h]
    scored = []
    for p in legal:
        board.push(p)
        scored.append((judge(board, mine, others, unseen), p))
        board.undo()
    scored.sort(key=lambda item: -item[0])
    seat = message["seat"]
    nxt = (seat + 1) % len(message["seats"])
    their_hand = message["hands"][nxt]
    their_colour = message["seats"][nxt]["colour"]
    if their_colour == mine:
        return scored[0][1].to_json()
    best, best_value = scored[0][1], -1e9
    for value, p in scored[:CANDIDATES]:
        board.push(p)
        worst = value
        rivals = [c for c in colours if c != their_colour]
        replies = board.legal_placements(their_hand)
        reply_best = None
        for reply in replies:
            board.push(reply)
            v = judge(board, their_colour, rivals, unseen)
            board.undo()
            if reply_best is None or v > reply_best[0]:
                reply_best = (v, reply)
        if reply_best is not None:
            board.push(reply_best[1])
            worst = judge(board, mine, others, unseen)
            board.undo()
        board.undo()
        if worst > best_value:
            best, best_value = p, worst
    return best.to_json()


def serve(choose: Callable[[dict], dict], name: str) -> None:
    """Answer the external robot protocol on stdin/stdout with ``choose`` until ``quit``."""
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            print(json.dumps({"type": "ready", "name": name}), flush=True)
        elif kind == "move":
            print(json.dumps(choose(message)), flush=True)
        elif kind == "quit":
            return


if __name__ == "__main__":
    serve(choose, "sparring")
