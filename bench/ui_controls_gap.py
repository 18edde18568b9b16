"""Whether the strategy table's controls keep a finger's gap apart through whole games: Leave, the
zoom buttons and the map, the bars (Confirm / Take back, Hint), the plates' buttons, the bag count
and the coach's card's buttons, measured with :func:`ui.audit.audit`'s rule for two controls
(``crowded``: closer than :func:`ui.theme.min_gap`, 1.5 mm, or overlapping).

    SDL_VIDEODRIVER=offscreen .venv/bin/python bench/ui_controls_gap.py \\
        [--sizes 800x480,480x800,720x1280,1024x600,1280x800] [--seeds 1,2] [--coach-every 4]

Each size is a headless kiosk of its own (Kivy takes its window's size once a process). At each,
flat and upright (``settings.orientation``), a whole game at 2, 3 and 4 players and Doubles for
each seed, every seat a person whose moves a club robot chooses, each move made through the
screen as a finger's would end: put down (``put``: the confirm bar shows), then ``confirm``. The
table is checked with the tile put down and again once it is confirmed (the next player's turn,
their Hint shown); every ``--coach-every`` placements the coach's card is brought up too (the
robot's next move as the master's suggestion) and checked, then closed. Prints every case under
the gap (size, orientation, table, seed, move, when, the two controls and their gap), every case
of a control over a hand or a plate, and a RESULT line of JSON: cases under the gap out of cases
checked, per size and in all, and how often (and how much, in px²) the controls the table places
lie over a hand, a plate or a forced space. About 2 minutes a size on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import child_result, kiosk, run_steps  # noqa: E402  (bench/ is the script's directory)

SIZES = "800x480,480x800,720x1280,1024x600,1280x800"
TABLES = ("2", "3", "4", "doubles")


def crowded_now(screen: Any) -> list[str]:
    """The pairs of controls on ``screen`` under the finger's gap, as :func:`ui.audit.audit` says."""
    from kivy.core.window import Window

    from ui import audit, theme

    return [str(p) for p in audit.audit(screen, tuple(Window.size), theme.min_target()) if p.kind == "crowded"]


def covering(screen: Any) -> dict[str, float]:
    """How much of the hands, the plates and the board's forced spaces the controls the table
    places (the bag count, Leave, the zoom buttons, the map while shown) lie over, in px²: what a
    fix for their gap must not make worse."""
    from ui import audit
    from ui.table import _covered

    def rect(widget: Any) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = audit.window_box(widget)
        return x0, y0, x1 - x0, y1 - y0

    controls = [screen.leave_button, screen.bag_label, screen.view_controls.row, screen.view_controls.map]
    boxes = [rect(c) for c in controls if c.get_root_window() is not None and c.opacity > 0]
    under = {"hands": [rect(hand) for hand in screen.hands],
             "plates": [(*plate.parent.to_window(*plate.bbox[0]), *plate.bbox[1]) for plate in screen.plates
                        if plate.parent is not None],
             "forced": [screen._space(space.cell) for space in screen.board.board.forced_spaces()]}
    return {name: sum(_covered(box, [(1.0, r) for r in rects], math.inf) for box in boxes) for name, rects in under.items()}


def child(size: str, seeds: list[int], coach_every: int) -> int:
    """Sweep one size (this process's window) and print its cases and RESULT line."""
    width, height = (int(v) for v in size.split("x"))
    app, services = kiosk((width, height))
    from engine.strategy.game import StrategyGame
    from engine.strategy.robots import make_robot, robot_choice
    from engine.strategy.robots.coach import Advice, Reason
    from ui.jobs import Outcome
    from ui.modes.strategy import play as strategy_play

    found: list[dict[str, Any]] = []
    checked = 0
    covered = {"hands": [0, 0.0], "plates": [0, 0.0], "forced": [0, 0.0]}  # name: [cases, px²]

    def check(screen: Any, case: dict[str, Any]) -> None:
        nonlocal checked
        checked += 1
        for name, area in covering(screen).items():
            if area > 1.0:
                covered[name][0] += 1
                covered[name][1] += area
                if name != "forced":  # the controls over a hand or a plate: each case told
                    found.append({**case, "problem": f"controls over {name}: {round(area)} px\u00b2"})
        for problem in crowded_now(screen):
            found.append({**case, "problem": problem})

    def steps() -> Iterator[float]:
        yield 0.3
        robot = make_robot("club")
        for orientation in ("flat", "upright"):
            services.settings.orientation = orientation
            for table in TABLES:
                for seed in seeds:
                    players = 4 if table == "doubles" else int(table)
                    game = StrategyGame.new(players, "RY" if table == "doubles" else "RYGB"[:players],
                                            [None] * players, doubles=table == "doubles", seed=seed)
                    screen = strategy_play.open_game(app, game)
                    yield 0.4
                    move = 0
                    while not game.finished:
                        move += 1
                        case = {"size": size, "orientation": orientation, "table": table, "seed": seed, "move": move}
                        choice = robot_choice(game, robot)
                        if coach_every and move % coach_every == 0 and screen.coaching:
                            seat = screen.actor()
                            position = (len(game.board), game.turn, game.step)
                            advice = Advice(choice, Reason("outlook", {"tries": 120, "ahead": 15}), 1)
                            screen._advised(seat, position, Outcome(advice, None, False, 0.0, 0))
                            yield 0
                            if screen.coach_card is not None:
                                check(screen, {**case, "when": "coach card"})
                            screen.close_coach()
                        screen.put(game.turn, choice)
                        yield 0
                        check(screen, {**case, "when": "put"})
                        screen.confirm()
                        yield 0
                        check(screen, {**case, "when": "confirmed"})
                    screen.leave()
                    yield 0.3

    run_steps(app, steps())
    cases = {json.dumps({k: v for k, v in f.items() if k != "problem"}) for f in found
             if f["problem"].startswith("crowded")}
    print("RESULT " + json.dumps({"size": size, "under_gap": len(cases), "checked": checked, "found": found,
                                  "covering": covered}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=SIZES)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--coach-every", type=int, default=4)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.child:
        return child(args.child, seeds, args.coach_every)
    totals = {"under_gap": 0, "checked": 0}
    per_size: dict[str, str] = {}
    over = {"hands": [0, 0.0], "plates": [0, 0.0], "forced": [0, 0.0]}  # name: [cases, px²], all sizes
    for size in args.sizes.split(","):
        result = json.loads(child_result(__file__, "--child", size, "--seeds", args.seeds,
                                         "--coach-every", str(args.coach_every)))
        for case in result["found"]:
            print(" ".join(f"{key}={value}" for key, value in case.items() if key != "problem") + f": {case['problem']}")
        per_size[size] = f"{result['under_gap']} / {result['checked']}"
        totals["under_gap"] += result["under_gap"]
        totals["checked"] += result["checked"]
        for name, (cases, area) in result["covering"].items():
            over[name][0] += cases
            over[name][1] += area
    print(json.dumps({"cases_under_gap": f"{totals['under_gap']} / {totals['checked']}", "per_size": per_size,
                      "controls_over": {name: f"{cases} cases, {round(area)} px²" for name, (cases, area) in over.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
