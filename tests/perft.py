"""The move-generation table (as chess engines pin theirs with perft): positions, hands and the
exact set of legal placements, worked out by the literal reference rules (``tantrix_reference``)
and stored in ``perft.json``; ``test_engine_perft.py`` checks the engine against every entry.

    .venv/bin/python tests/perft.py      # write tests/perft.json again (only when a case is added)

Positions: the empty board, positions of random legal games at several stages with the bag full
or empty, and crafted positions no game reaches (made with the restrictions off, then judged with
tiles in the bag): a dead forced space, a space with four neighbours, a controlled side.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import tantrix_reference as ref  # noqa: E402
from engine.board import Board, Status  # noqa: E402
from engine.strategy.playout import playout  # noqa: E402
from engine.tiles import ALL_NUMBERS  # noqa: E402

TABLE = HERE / "perft.json"


def crafted(flag: Status, first_seed: int = 1) -> Board:
    """A position with exactly the status ``flag``, from random unrestricted play; for a space with
    four neighbours, one where some tile fits that space (so the table shows it can be filled)."""
    for seed in range(first_seed, first_seed + 5000):
        rng = random.Random(seed)
        board = Board(0)
        tiles = list(ALL_NUMBERS)
        rng.shuffle(tiles)
        while len(board) < 30:
            moves = board.legal_placements([t for t in tiles if t not in board.placed_tiles()][:6], restricted=False)
            if not moves:
                break
            board.push(rng.choice(moves))
            board.bag = 10
            unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
            if board.status() == flag and (flag is not Status.FOUR_NEIGHBOURS or board.legal_placements(unplaced)):
                return board  # the table itself comes from the reference rules
            board.bag = 0
    raise LookupError(f"no position with status {flag!r}")


def cases() -> list[tuple[str, Board, list[int]]]:
    found: list[tuple[str, Board, list[int]]] = []
    found.append(("empty board", Board(50), [1, 9, 17, 30, 44, 56]))
    for seed, size in ((1, 1), (2, 5), (3, 12), (4, 20), (5, 28), (6, 40), (7, 47)):
        board = playout(random.Random(seed), stop_after=size)
        unplaced = [t for t in ALL_NUMBERS if t not in board.placed_tiles()]
        board.bag = max(0, len(unplaced) - 6)
        found.append((f"game {seed} after {size} tiles, bag {board.bag}", board, unplaced))
        if size in (20, 40):
            endgame = board.copy()
            endgame.bag = 0
            found.append((f"game {seed} after {size} tiles, bag empty", endgame, unplaced))
    for flag in (Status.DEAD_FORCED_SPACE, Status.FOUR_NEIGHBOURS, Status.CONTROLLED_SIDE):
        board = crafted(flag)
        found.append((f"crafted: {flag.name.lower()}", board, [t for t in ALL_NUMBERS if t not in board.placed_tiles()]))
    return found


def reference_set(board: Board, hand: list[int]) -> list[list[int]]:
    position = {p.cell: (p.tile, p.rot) for p in board.placements()}
    return sorted(list(p) for p in ref.legal_placements(position, hand, board.restricted))


def main() -> None:
    entries = []
    for name, board, hand in cases():
        legal = reference_set(board, hand)
        entries.append({"name": name, "position": board.to_json(), "hand": hand, "status": int(board.status()),
                        "count": len(legal), "legal": legal})
        print(f"{name}: {len(legal)} legal placements", file=sys.stderr)
    TABLE.write_text(json.dumps(entries, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
