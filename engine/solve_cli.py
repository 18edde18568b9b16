"""``python -m engine solve PUZZLE``: solve a booklet puzzle and print the answer as JSON.

    python -m engine solve discovery-12            # one loop, in the colour of tile 12's back
    python -m engine solve junior                   # which colours work, and a solution
    python -m engine solve professor --colour YB    # a given choice (letters or names)
    python -m engine solve discovery-10 --count     # hole-free solutions, up to turning/shifting
    python -m engine solve pyramid --seed 3         # build a Great Pyramid and solve it
    python -m engine solve four-loops --timeout 600 # search for a high score (default 60 s)

The answer holds ``puzzle``, ``solved`` (null when the time limit stopped the search),
``colours`` (the choices that work, when the player may choose and no --colour is given),
``colour`` (the goal colours of ``position`` and ``count``), ``position`` (a solution in the
rules.md position format), ``count`` (with --count) and ``seconds``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from .board import Placement
from .commandline import CliError
from .solo.catalogue import PUZZLES, Puzzle, parse_colours
from .solver import Control, Interrupted, Outcome, Result, count, fill, solve

Handler = Callable[[argparse.Namespace, Control], dict[str, Any]]


def _four(args: argparse.Namespace, control: Control) -> dict[str, Any]:
    from .optimise import solve_command  # the optimiser loads only when asked for

    return solve_command(args, control)


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("solve", help="solve a booklet puzzle", description=__doc__.split("\n")[0])
    p.add_argument("puzzle", help="one of: " + ", ".join(_names()))
    p.add_argument("--colour", help="goal colour(s): R, Y, G, B or names; two for Professor, e.g. YB")
    p.add_argument("--count", action="store_true", help="count the hole-free solutions")
    p.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (and of the pyramid's layout)")
    p.set_defaults(run=run)


def _names() -> list[str]:
    return ["discovery-3..discovery-30"] + [n for n in PUZZLES if not n.startswith("discovery-")] + list(OTHER_PUZZLES)


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.timeout is not None and not 0 < args.timeout < float("inf"):
        raise CliError(f"--timeout must be a positive number of seconds, not {args.timeout}")
    control = Control(timeout=args.timeout)
    started = time.monotonic()
    target = OTHER_PUZZLES.get(args.puzzle)
    if target is not None:
        answer = target(args, control)
    elif args.puzzle in PUZZLES:
        answer = _solve_goal(PUZZLES[args.puzzle], args, control)
    else:
        raise CliError(f"no puzzle {args.puzzle!r}; puzzles are " + ", ".join(_names()))
    return {"puzzle": args.puzzle, **answer, "seconds": round(time.monotonic() - started, 3)}


def _solve_goal(found: Puzzle, args: argparse.Namespace, control: Control) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    if args.colour is not None:
        try:
            goals = [found.goal(parse_colours(args.colour))]
        except ValueError as exc:
            raise CliError(str(exc)) from None
    elif len(found.choices) > 1:
        goals = [found.goal(c) for c in found.choices]
    else:
        goals = [found.goal()]
    results = [(goal, solve(goal, control=control, seed=args.seed)) for goal in goals]
    if any(r.solved is None for _, r in results):
        return {**answer, "solved": None, "stopped": _stopped(results)}
    working = [(goal, r) for goal, r in results if r.solved]
    if args.colour is None and len(found.choices) > 1:
        answer["colours"] = ["".join(goal.colours) for goal, _ in working]
    answer["solved"] = bool(working)
    if working:
        goal, result = working[0]
        answer["colour"] = "".join(goal.colours)
        answer["position"] = _position(result.solution or [])
        if args.count:
            counted = count(goal, control=control)
            answer["count"] = counted.count if counted.outcome is Outcome.COUNTED else None
            if counted.outcome is not Outcome.COUNTED:
                answer["stopped"] = counted.outcome.value
    elif args.count:
        answer["count"] = 0
    return answer


def _stopped(results: list[tuple[Any, Result]]) -> str:
    return next(r.outcome.value for _, r in results if r.solved is None)


def _position(placements: list[Placement]) -> dict[str, Any]:
    return {"tiles": [p.to_json() for p in placements], "bag": 0}


def solve_pyramid(args: argparse.Namespace, control: Control) -> dict[str, Any]:
    """The Great Pyramid: build a layout (``--seed``), turn its tiles at random, then solve it
    again from the tiles' positions alone. ``count`` (with --count): every way to turn them."""
    from .solo.rotation import RotationPuzzle

    try:
        game = RotationPuzzle.start(seed=args.seed, control=control)
        layout = {cell: t for t, cell in game.cells.items()}
        found = fill(layout, tiles=layout, control=control)
        answer: dict[str, Any] = {"solved": bool(found), "position": _position(found[0] if found else [])}
        if args.count:
            answer["count"] = len(fill(layout, tiles=layout, limit=None, control=control))
    except Interrupted as stop:
        return {"solved": None, "stopped": stop.reason}
    return answer


OTHER_PUZZLES: dict[str, Handler] = {"pyramid": solve_pyramid, "four-lines": _four, "four-loops": _four}
"""Puzzles answered by something other than the goal solver. A handler takes the parsed arguments
and a :class:`Control` and returns the JSON fields of its answer (at least ``solved``, ``position``
and, for optimisation puzzles, ``score``); ``puzzle`` and ``seconds`` are added by :func:`run`."""
