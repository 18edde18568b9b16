"""Whether a table's controls keep a finger's gap apart through whole games, measured with
:func:`ui.audit.audit`'s rule for two controls (``crowded``: closer than :func:`ui.theme.min_gap`,
1.5 mm, or overlapping), and what they lie over.

    SDL_VIDEODRIVER=offscreen .venv/bin/python bench/ui_controls_gap.py [--game strategy|gobbles] \\
        [--sizes 800x480,480x800,720x1280,1024x600,1280x800] [--seeds 1,2] [--coach-every 4]

Each size is a headless kiosk of its own (Kivy takes its window's size once a process). At each,
flat and upright (``settings.orientation``), for each seed:

- ``strategy`` (Leave, the zoom buttons and the map, the bars (Confirm / Take back, Hint), the
  plates' buttons, the bag count and the coach's card's buttons): a whole game at 2, 3 and 4
  players and Doubles (``kiosk_steps.people_games``), every seat a person whose moves a club robot
  chooses, each move made through the screen as a finger's would end: put down (``put``: the
  confirm bar shows), then ``confirm``. The table is checked with the tile put down and again once
  it is confirmed (the next player's turn, their Hint shown); every ``--coach-every`` placements
  the coach's card is brought up too (the robot's next move as the master's suggestion) and
  checked, then closed. Told: controls over a hand or a plate.
- ``gobbles`` (Leave, the zoom buttons and the map, the cues to forced spaces, the gift card's
  chips and Give): a whole race with people at 2 to 6 seats, and with robots (expert) beside them
  (:data:`GOBBLES_TABLES`), on a clock the sweep moves (0.3 s a round, the robots' looks falling
  due); each round a person in turn drops a tile as a finger's drag ends (a gobble where one is on
  offer, else a seeded choice), every :data:`TAKEN_EVERY` placements another person's drop on
  that space is refused ("Taken!"), and every gift card up is given as it suggests. Checked as
  dealt, after each placement and after each gift. Told: controls over a hand, a seat's tag or a
  gift card.

Prints every case under the gap (size, orientation, table, seed, move, when, the two controls and
their gap), every case told, and a RESULT line of JSON: cases under the gap out of cases checked,
per size and in all, and how often (and how much, in px²) the controls the table places lie over
each thing (forced spaces counted, not told). About 2 minutes a size and game on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk_steps import DOUBLES, child_result, kiosk, people_games, run_steps  # noqa: E402  (bench/ is the script's directory)

SIZES = "800x480,480x800,720x1280,1024x600,1280x800"
TABLES = (2, 3, 4, DOUBLES)


def crowded_now(screen: Any) -> list[str]:
    """The pairs of controls on ``screen`` under the finger's gap, as :func:`ui.audit.audit` says."""
    from kivy.core.window import Window

    from ui import audit, theme

    return [str(p) for p in audit.audit(screen, tuple(Window.size), theme.min_target()) if p.kind == "crowded"]


def covering(screen: Any, controls: list[Any], under: dict[str, list[tuple[float, float, float, float]]]) -> dict[str, float]:
    """How much of each of ``under`` (name: window rectangles x, y, w, h: the hands, the plates, the
    seats' tags, the board's forced spaces) the ``controls`` the table places (the bag count, Leave,
    the zoom buttons, the map while shown) lie over, in px²: what a fix for their gap must not make
    worse."""
    from ui.table import _covered

    boxes = [rect(c) for c in controls if c.get_root_window() is not None and c.opacity > 0]
    return {name: sum(_covered(box, [(1.0, r) for r in rects], math.inf) for box in boxes) for name, rects in under.items()}


def rect(widget: Any) -> tuple[float, float, float, float]:
    """``widget``'s window box as x, y, w, h (through any scatter that turns it)."""
    from ui import audit

    x0, y0, x1, y1 = audit.window_box(widget)
    return x0, y0, x1 - x0, y1 - y0


class Sweep:
    """The cases one size found: every pair under the gap and every control over something it must
    leave clear (``told``: each case printed; the others only counted), and how many states were checked."""

    def __init__(self, size: str, told: tuple[str, ...]) -> None:
        self.size, self.told = size, told
        self.found: list[dict[str, Any]] = []
        self.checked = 0
        self.covered: dict[str, list[float]] = {}  # name: [cases, px²]

    def check(self, screen: Any, case: dict[str, Any], controls: list[Any],
              under: Callable[[], dict[str, list[tuple[float, float, float, float]]]]) -> None:
        """Check ``screen`` as the next frame shows it: ``case`` says which state it is, ``controls``
        the controls the table places, ``under`` (taken once the frame is settled) what they must
        leave clear."""
        self.checked += 1
        crowded = crowded_now(screen)  # first: the audit lets the next frame's layout settle
        for name, area in covering(screen, controls, under()).items():
            counts = self.covered.setdefault(name, [0, 0.0])
            if area > 1.0:
                counts[0] += 1
                counts[1] += area
                if name in self.told:
                    self.found.append({**case, "problem": f"controls over {name}: {round(area)} px\u00b2"})
        for problem in crowded:
            self.found.append({**case, "problem": problem})

    def result(self) -> str:
        cases = {json.dumps({k: v for k, v in f.items() if k != "problem"}) for f in self.found
                 if f["problem"].startswith("crowded")}
        return "RESULT " + json.dumps({"size": self.size, "under_gap": len(cases), "checked": self.checked,
                                       "found": self.found, "covering": self.covered})


def strategy_child(size: str, seeds: list[int], coach_every: int) -> int:
    """Sweep the strategy table at one size (this process's window) and print its cases and RESULT line."""
    width, height = (int(v) for v in size.split("x"))
    app, services = kiosk((width, height))
    from engine.strategy.robots.coach import Advice, Reason
    from ui.jobs import Outcome

    sweep = Sweep(size, ("hands", "plates"))

    def check(screen: Any, case: dict[str, Any]) -> None:
        controls = [screen.leave_button, screen.bag_label, screen.view_controls.row, screen.view_controls.map]
        sweep.check(screen, case, controls, lambda: {
            "hands": [rect(hand) for hand in screen.hands],
            "plates": [(*plate.parent.to_window(*plate.bbox[0]), *plate.bbox[1]) for plate in screen.plates
                       if plate.parent is not None],
            "forced": [screen._space(space.cell) for space in screen.board.board.forced_spaces()]})

    at = {"seed": seeds[0], "move": 0}  # the game played and its placement

    def place(game: Any, screen: Any, choice: Any) -> Iterator[float]:
        at["move"] += 1
        case = {"size": size, "orientation": services.settings.orientation,
                "table": DOUBLES if game.options.doubles else str(game.players), **at}
        if coach_every and at["move"] % coach_every == 0 and screen.coaching:
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

    def ended(_game: Any) -> None:
        at["move"] = 0

    def steps() -> Iterator[float]:
        for orientation in ("flat", "upright"):
            services.settings.orientation = orientation
            for seed in seeds:
                at["seed"] = seed
                yield from people_games(app, TABLES, seed, place, ended)
    run_steps(app, steps())
    print(sweep.result())
    return 0


GOBBLES_TABLES = ("2", "3", "4", "5", "6", "2+1", "3+2", "2+4")
"""People at 2 to 6 seats, then people with robots after them ("3+2": three people, two robots)."""
TAKEN_EVERY = 5
"""Every so many placements, another person's drop on the space just filled is refused ("Taken!")."""


def gobbles_child(size: str, seeds: list[int]) -> int:
    """Sweep the Gobbles table at one size (this process's window) and print its cases and RESULT line."""
    width, height = (int(v) for v in size.split("x"))
    app, services = kiosk((width, height))
    import random

    from engine.board import Placement
    from engine.gobble import rules
    from engine.gobble.gobbles import Gobbles, Level, Player
    from engine.gobble.table import ManualClock
    from ui.modes.gobble import gobbles

    sweep = Sweep(size, ("hands", "tags", "cards"))

    def check(screen: Any, case: dict[str, Any]) -> None:
        layout, board = screen.layout, screen.layout.board
        controls = [screen.leave_button, screen.view_controls.row, screen.view_controls.map]
        sweep.check(screen, case, controls, lambda: {
            "hands": [rect(hand) for hand in screen.hands],
            "tags": [rect(tag) for tag in layout._tags if tag.opacity > 0 and tag.parent is not None],
            "cards": [rect(card) for card in screen.gifts.values() if card.parent is not None],
            "forced": [_cell_rect(board, space.cell) for space in board.board.forced_spaces()]})

    def steps() -> Iterator[float]:
        yield 0.3
        for orientation in ("flat", "upright"):
            services.settings.orientation = orientation
            for table in GOBBLES_TABLES:
                people, _plus, robots = table.partition("+")
                for seed in seeds:
                    rng = random.Random(seed)
                    players = [Player(f"Player {i + 1}") for i in range(int(people))] + \
                        [Player(f"Robot {int(people) + i + 1}", Level.EXPERT) for i in range(int(robots or 0))]
                    game = Gobbles.deal(players, seed=seed)
                    clock = ManualClock()
                    screen = gobbles.GobblesScreen(app, game, clock=clock, robot_seed=seed)
                    app.show(screen)
                    yield 0.4
                    move = 0
                    check(screen, {"size": size, "orientation": orientation, "table": table, "seed": seed,
                                   "move": 0, "when": "dealt"})
                    for _round in range(400):
                        if game.finished:
                            break
                        clock.advance(300)
                        screen.tick()  # the robots' looks and late gifts fall due
                        seats = [s for s in range(len(players)) if players[s].robot is None and game.playing(s)
                                 and s not in game.pending and game.legal_placements(s)]
                        if not seats:
                            yield 0
                            continue
                        move += 1
                        case = {"size": size, "orientation": orientation, "table": table, "seed": seed, "move": move}
                        seat = seats[move % len(seats)]
                        options = game.legal_placements(seat)
                        gobbling = [p for p in options if rules.gobble_of(game.board, p.cell) is not rules.Gobble.NONE]
                        choice = rng.choice(gobbling or options)
                        hand = screen.hands[seat]
                        hand.target.place(choice)  # a finger's drop on the board, as it ends
                        hand.dispatch("on_played", choice)
                        rivals = [s for s in seats if s != seat and game.hands[s]]
                        if move % TAKEN_EVERY == 0 and rivals:
                            rival = screen.hands[rivals[0]]  # a drop there lifted just after: lost the race
                            refusal = rival.target.check(Placement(game.hands[rivals[0]][0], *choice.cell, 0))
                            if refusal is not None:
                                rival.dispatch("on_refused", refusal)
                        yield 0
                        check(screen, {**case, "when": "placed"})
                        for giver in list(screen.gifts):
                            screen.gifts[giver].give()
                            yield 0
                            check(screen, {**case, "when": "given"})
                    screen.leave()
                    yield 0.3

    run_steps(app, steps())
    print(sweep.result())
    return 0


def _cell_rect(board: Any, cell: Any) -> tuple[float, float, float, float]:
    """A space of ``board`` as a window box x, y, w, h (the hexagon's bounding box, where the view settles)."""
    from ui.hexes import SQRT3

    x, y, r = board.settled_cell(cell)
    return x - r * SQRT3 / 2, y - r, r * SQRT3, 2 * r


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=SIZES)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--coach-every", type=int, default=4)
    parser.add_argument("--game", choices=("strategy", "gobbles"), default="strategy")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.child:
        return gobbles_child(args.child, seeds) if args.game == "gobbles" else \
            strategy_child(args.child, seeds, args.coach_every)
    totals = {"under_gap": 0, "checked": 0}
    per_size: dict[str, str] = {}
    over: dict[str, list[float]] = {}  # name: [cases, px²], all sizes
    for size in args.sizes.split(","):
        result = json.loads(child_result(__file__, "--child", size, "--seeds", args.seeds,
                                         "--coach-every", str(args.coach_every), "--game", args.game))
        for case in result["found"]:
            print(" ".join(f"{key}={value}" for key, value in case.items() if key != "problem") + f": {case['problem']}")
        per_size[size] = f"{result['under_gap']} / {result['checked']}"
        totals["under_gap"] += result["under_gap"]
        totals["checked"] += result["checked"]
        for name, (cases, area) in result["covering"].items():
            counts = over.setdefault(name, [0, 0.0])
            counts[0] += cases
            counts[1] += area
    print(json.dumps({"cases_under_gap": f"{totals['under_gap']} / {totals['checked']}", "per_size": per_size,
                      "controls_over": {name: f"{cases} cases, {round(area)} px²" for name, (cases, area) in over.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
