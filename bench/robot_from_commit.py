"""An earlier version's robot as a sparring partner, through the external robot protocol.

    git archive f57921b engine | (mkdir -p /tmp/v && tar -x -C /tmp/v)
    python -m engine match --robots master,"cmd:.venv/bin/python bench/robot_from_commit.py /tmp/v expert" ...

Arguments: ``TREE LEVEL [SEED]`` (SEED, default 0, seeds the robot's own random choices).
``TREE`` holds the ``engine`` package of that version (``git archive``), and this program imports
only it, never today's engine: the robot plays exactly as it did then. Each ``move`` message is
rebuilt as that version's game (the position, every hand, the unseen tiles as the bag, the seat to
move and the step of its turn), the level chooses on its view, and its placement is answered. A
placement that version finds but today's rules do not list is answered as the first legal one and
counted on standard error (none is expected: the rules have not changed).

Why: issue 31's independent robot scored about even with the expert of f57921b (the project's
expert then took 0.55 [0.48, 0.62] of the points against it), so that expert is the nearest
stand-in for it that can be run here.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any


def main() -> None:
    tree, level = Path(sys.argv[1]).resolve(), sys.argv[2]
    sys.path.insert(0, str(tree))
    from engine.game import StrategyGame, Step  # type: ignore[import-not-found]  # that version's
    from engine.robots import make_robot  # type: ignore[import-not-found]

    robot = make_robot(level)
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    strays = 0
    for line in sys.stdin:
        message: dict[str, Any] = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "ready", "name": f"{level}@{tree.name}"}), flush=True)
        elif message["type"] == "quit":
            break
        elif message["type"] == "move":
            colours = "".join(dict.fromkeys(seat["colour"] for seat in message["seats"]))
            options = message["options"]
            game = StrategyGame.from_position(message["position"], message["hands"], message["unseen"],
                                              turn=message["seat"], colours=colours,
                                              doubles=options["doubles"], end=options["end"])
            game.step, game._legal = Step(message["step"]), None  # mid-turn, as the message says
            legal = [(p["tile"], p["q"], p["r"], p["rot"]) for p in message["legal"]]
            choice = tuple(robot.choose(game.view(), rng))
            if choice not in legal:
                strays += 1
                print(f"{level}@{tree.name}: {choice} is not among today's legal placements ({strays} so far)",
                      file=sys.stderr, flush=True)
                choice = legal[0]
            tile, q, r, rot = choice
            print(json.dumps({"tile": tile, "q": q, "r": r, "rot": rot}), flush=True)


if __name__ == "__main__":
    main()
