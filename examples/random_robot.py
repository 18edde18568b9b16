#!/usr/bin/env python3
"""A tiny external Tantrix robot speaking the engine's JSON-lines protocol (README, "Robots").

It needs nothing but Python: it reads one JSON object per line on stdin and answers on stdout.
On "hello" it says it is ready; on "move" it answers one of the legal placements it was sent, at
random (the optional argument seeds it); on "quit" it stops.

    python -m engine match --robots club,"cmd:python3 examples/random_robot.py 7" --games 10
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            answer = {"type": "ready", "name": "random robot"}
        elif message["type"] == "move":
            answer = rng.choice(message["legal"])
        elif message["type"] == "quit":
            return
        else:
            continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
