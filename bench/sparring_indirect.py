"""A second sparring robot for the ladder, written apart from engine.strategy.robots and from
bench/sparring_robot.py, from the booklets' strategy chapter (the French booklet's "Un peu de
stratégie et de tactique"): it counts a colour's **indirect** line, chains joined through the
empty cells a single tile could fill ("connecter indirectement"), keeps the ends of its line open
and fillable ("lignes bloquées"), counts a small loop closed while the bag holds tiles as a loss
("petites boucles", and forcing them on the opponent as a gain), and checks one reply. It speaks
the external robot protocol (engine.strategy.protocol) on stdin/stdout and uses only engine.board
and engine.tiles for the rules, so its mistakes are its own, not the project's robots':

    python -m engine match --robots master,"cmd:python bench/sparring_indirect.py" --games 20 --seed 1

A colour's worth is its best of: a loop (twice its length; a loop of 6 tiles or fewer closed before
the bag is empty only its length less 3), or a path of chains through joining cells, each chain
beyond a join counted at 3/4 (1/2 when a single unplaced tile can make the join), plus a point for
each outer end whose cell some unplaced tile can fill (a half more when three can) and a point and
a half less for a dead one while tiles remain. A position is worth its own colour's worth minus the
best opponent's. The reply check: for its six best placements by that judgement it lets the next
player answer with the placement best for them (a forced space first if one is open) and keeps the
placement whose answer leaves it best off.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.sparring_robot import position, serve  # noqa: E402
from engine.board import Board, fits  # noqa: E402
from engine.geometry import DIRECTIONS  # noqa: E402
from engine.tiles import FACES  # noqa: E402

CANDIDATES = 6
SMALL_LOOP = 6


def exits(board: Board, cells: tuple[tuple[int, int], ...], colour: str) -> list[tuple[tuple[int, int], int]]:
    """The empty cells an open chain's colour points into, with the direction it enters them by."""
    found = []
    for end in {cells[0], cells[-1]}:
        placed = board.at(end)
        assert placed is not None
        face = FACES[placed.tile][placed.rot]
        for d, (dq, dr) in enumerate(DIRECTIONS):
            cell = (end[0] + dq, end[1] + dr)
            if face[d] == colour and board.at(cell) is None:
                found.append((cell, (d + 3) % 6))
    return found


def fillers(board: Board, cell: tuple[int, int], spare: list[int], joining: tuple[int, int] | None = None,
            colour: str = "") -> int:
    """How many unplaced tiles fit ``cell`` (only those whose ``colour`` band joins both ``joining``
    directions, if given)."""
    need = board.requirement(cell)
    count = 0
    for tile in spare:
        for rot in fits(tile, need):
            face = FACES[tile][rot]
            if joining is None or (face[joining[0]] == colour and face[joining[1]] == colour):
                count += 1
                break
    return count


def worth(board: Board, colour: str, spare: list[int]) -> float:
    early = board.bag > 0
    best = 0.0
    chains = []
    for line in board.lines(colour):
        if line.loop:
            small = early and line.length <= SMALL_LOOP
            best = max(best, line.length - 3.0 if small else 2.0 * line.length)
        else:
            chains.append((line.length, exits(board, line.cells, colour)))
    # joins: two exits of different chains into the same empty cell
    by_cell: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, (_, outs) in enumerate(chains):
        for cell, d in outs:
            by_cell.setdefault(cell, []).append((i, d))
    joins: dict[int, list[tuple[int, float, tuple[int, int]]]] = {}
    for cell, meeting in by_cell.items():
        for a in range(len(meeting)):
            for b in range(a + 1, len(meeting)):
                (i, da), (j, db) = meeting[a], meeting[b]
                if i == j:
                    continue
                n = fillers(board, cell, spare, (da, db), colour)
                if n:
                    weight = 0.5 if n == 1 else 0.75
                    joins.setdefault(i, []).append((j, weight, cell))
                    joins.setdefault(j, []).append((i, weight, cell))
    open_value: dict[tuple[int, int], float] = {}

    def end_value(cell: tuple[int, int]) -> float:
        if cell not in open_value:
            n = fillers(board, cell, spare)
            open_value[cell] = (1.0 + (0.5 if n >= 3 else 0.0)) if n else (-1.5 if early else 0.0)
        return open_value[cell]

    def walk(first: int, i: int, used: set[int], cells: set[tuple[int, int]], total: float, depth: int) -> float:
        """The best path of chains from ``first`` on through ``i``: lengths so far, and its outer ends."""
        outer = {cell for k in {first, i} for cell, _ in chains[k][1] if cell not in cells}
        value = total + (sum(end_value(cell) for cell in outer) if early else 0.0)
        if depth < 4:
            for j, weight, cell in joins.get(i, []):
                if j not in used and cell not in cells:
                    value = max(value, walk(first, j, used | {j}, cells | {cell},
                                            total + weight * (chains[j][0] + 1), depth + 1))
        return value

    for i, (length, _) in enumerate(chains):
        best = max(best, walk(i, i, {i}, set(), float(length), 0))
    return best


def judge(board: Board, mine: str, others: list[str], spare: list[int]) -> float:
    return worth(board, mine, spare) - max((worth(board, c, spare) for c in others), default=0.0)


def choose(message: dict) -> dict:
    legal, board, colours = position(message)
    if len(legal) == 1:
        return legal[0].to_json()
    mine = message["colour"]
    others = [c for c in colours if c != mine]
    placed_hands = [t for h in message["hands"] for t in h]
    scored = []
    for p in legal:
        board.push(p)
        spare = [t for t in message["unseen"] + placed_hands if t != p.tile]
        scored.append((judge(board, mine, others, spare), p))
        board.undo()
    scored.sort(key=lambda item: -item[0])
    nxt = (message["seat"] + 1) % len(message["seats"])
    their_colour = message["seats"][nxt]["colour"]
    if their_colour == mine:
        return scored[0][1].to_json()
    their_hand = message["hands"][nxt]
    rivals = [c for c in colours if c != their_colour]
    best, best_value = scored[0][1], float("-inf")
    for value, p in scored[:CANDIDATES]:
        board.push(p)
        spare = [t for t in message["unseen"] + placed_hands if t != p.tile]
        forced = [s.cell for s in board.forced_spaces()]
        replies = board.legal_placements(their_hand, forced) if forced else []
        replies = replies or board.legal_placements(their_hand)
        answer, answer_value = None, float("-inf")
        for reply in replies:
            board.push(reply)
            v = judge(board, their_colour, rivals, [t for t in spare if t != reply.tile])
            board.undo()
            if v > answer_value:
                answer, answer_value = reply, v
        after = value
        if answer is not None:
            board.push(answer)
            after = judge(board, mine, others, [t for t in spare if t != answer.tile])
            board.undo()
        board.undo()
        if after > best_value:
            best, best_value = p, after
    return best.to_json()


if __name__ == "__main__":
    serve(choose, "sparring-indirect")
