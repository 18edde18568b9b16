"""A monkey at the panel: random taps, drags, long presses, bag-button presses and tile scans on
the real kiosk (``firmware.runtime``: its SQLite store, settings and simulated devices), headless,
until something breaks. People at a café poke at everything; a crash is a restart in front of them.

    .venv/bin/python bench/ui_monkey.py [--runs 4] [--actions 600] [--seed 1] [--sizes 800x480,720x1280]
    .venv/bin/python bench/ui_monkey.py --cuts 5   # and power cuts
    .venv/bin/python bench/ui_monkey.py --tables   # at game tables with people seated

Each run is its own process (one Kivy app per process) on a fresh state directory. A run ends when
its actions are done, or when the app stops: an exception (printed with the last actions before it),
or staff quitting to the system (the monkey found the PIN 0000 and the way out; counted, not a
failure). With ``--cuts N`` the process is killed (SIGKILL, as a power cut) N times at random
moments and started again on the same state: the game the store holds must be offered, and Resume
must open it. Robots in every seat are often watched until the game ends (the results, Play again,
the records). Prints JSON: one line per process (seed, size, actions done, screens seen, watches that
lasted until the next screen, the games the store recorded and how many of them twice, what was
resumed, the failure if any).

With ``--tables`` it sits at game tables as café players do: at a setup it keeps a person in some
seat and starts; at a table with people (Tantrix, Gobbles, Tanagra, the solo games) it mostly plays:
a tile dragged from a hand to the board, turned first and aimed at a space the game takes (its
mode's legal actions) three times in four, else anywhere; two hands racing for a space at Gobbles;
Tanagra's pawns and triangles tapped, then where they go; the table's buttons (Confirm, Undo, the
coach, Hint; Leave now and then). The report adds the tables reached ("gobbles 3 (2 people)") and
the actions there by kind.
Actions are chosen by the seed, but robots think and clocks run in real time, so a run is not an
exact replay: the log of the last actions is what tells how a failure came about.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
from argparse import Namespace
from collections import Counter, deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

WEIGHTS = {"button": 50, "drag": 18, "two fingers": 6, "tap": 10, "long": 4, "bag": 5, "scan": 6, "staff": 1, "back": 2,
           "watch": 4}
"""How often each action is chosen: mostly what a person aims at (a button), often a drag (a tile
from the hand to the board, a pan), two fingers at once (two players racing at Gobbles, a pinch),
sometimes a stray touch, the devices, the staff corner; or it watches a while (robots play on).

A watch on a game played by robots in every seat lasts, more often than not, until another screen
shows (the game's end: the results, Play again, the records) or ``PATIENCE`` seconds pass."""

PATIENCE = 240.0


def robots(game: Any) -> list[bool]:
    """Whether a robot plays each seat of ``game`` (a strategy game's or Gobbles' seats say so in
    ``robot``, Tanagra's by their ``robot:`` labels; a solo game has none: [])."""
    seats = getattr(game, "seats", None) or getattr(game, "players", None) or ()
    return [bool(seat.startswith("robot:") if isinstance(seat, str) else getattr(seat, "robot", None))
            for seat in seats]


def robots_only(game: Any) -> bool:
    """Whether robots play every seat of ``game``: then it ends without anyone."""
    seated = robots(game)
    return bool(seated) and all(seated)


def table_name(screen: str, game: Any) -> str:
    """A table as the report counts it: its screen, seats and people ("strategy 4 (2 people,
    Doubles)"; a solo game: its screen alone)."""
    seated = robots(game)
    if not seated:
        return screen
    doubles = ", Doubles" if getattr(getattr(game, "options", None), "doubles", False) else ""
    return f"{screen} {len(seated)} ({seated.count(False)} people{doubles})"


def child(seed: int, size: tuple[int, int], actions: int, state: Path, after_cut: bool,
          tables: bool) -> dict[str, Any]:
    from kivy.config import Config

    Config.set("graphics", "multisamples", "0")
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.behaviors import ButtonBehavior

    from engine.board import Placement
    from firmware.runtime import Launch, Runtime
    from ui.board import HandView
    from ui.mode_target import ModeTarget
    from ui.services import BagButtonHeld, BagButtonPressed, TileScanned
    from ui.tanagra_board import TanagraBoard

    rng = random.Random(seed)
    config = state / "kiosk.toml"
    config.write_text(f'[storage]\ndirectory = "{state / "data"}"\n')
    log: deque[str] = deque(maxlen=40)
    seen: Counter[str] = Counter()
    done: dict[str, Any] = {"actions": 0, "quit": False, "resumed": None, "until": None}
    watched: Counter[str] = Counter()  # "strategy -> results": a watch that lasted until the next screen
    reached: Counter[str] = Counter()  # "gobbles 3 (2 people)": the tables with people the run sat at
    at_tables: Counter[str] = Counter()  # and the actions there, by kind
    games_seen: set[int] = set()

    def visible(widget: Any) -> bool:
        node = widget
        while node is not None and node.parent is not node:
            if getattr(node, "opacity", 1) <= 0 or getattr(node, "disabled", False):
                return False
            node = node.parent
        x, y = widget.to_window(*widget.center)
        return bool(0 <= x < size[0] and 0 <= y < size[1])

    def shown() -> list[Any]:
        """Every widget a finger could land on."""
        return [w for root in EventLoop.window.children for w in root.walk(restrict=True) if visible(w)]

    def point() -> tuple[float, float]:
        return rng.uniform(0, size[0] - 1), rng.uniform(0, size[1] - 1)

    def press(x: float, y: float) -> None:
        finger = UnitTestTouch(x, y)
        finger.touch_down()
        finger.touch_up()

    def slide(screen: str, kind: str, moves: list[tuple[Any, Any]]) -> None:
        """Fingers down at each move's start, moved together in a few steps to its end, let go in
        any order."""
        log.append(f"{screen}: {kind} " + ", ".join(f"{s[0]:.0f},{s[1]:.0f} -> {e[0]:.0f},{e[1]:.0f}" for s, e in moves))
        fingers = [(UnitTestTouch(*start), start, end) for start, end in moves]
        for finger, _s, _e in fingers:
            finger.touch_down()
        steps = rng.randint(1, 10)
        for i in range(1, steps + 1):
            for finger, (sx, sy), (ex, ey) in fingers:
                finger.touch_move(sx + (ex - sx) * i / steps, sy + (ey - sy) * i / steps)
        for finger, _s, _e in rng.sample(fingers, len(fingers)):  # let go in any order
            finger.touch_up()

    def legal(hand: Any) -> list[Any]:
        """The placements the game would take now from ``hand`` (the legal actions of the mode it
        plays to: its own target's, else its board's)."""
        actions = (hand.target or hand.board.target).mode.legal_actions()
        return [p for p in (a if isinstance(a, Placement) else getattr(a, "placement", None) for a in actions)
                if isinstance(p, Placement) and p.tile in hand.tiles]

    def aim(hand: Any, placement: Any, screen: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where a finger lifts ``placement``'s tile (turned to its rotation by taps first) and
        where it lets go for the tile to land on its space (the hand's own lift above the finger);
        a space out of the open table is panned to first, mostly, as a player would."""
        tile, board = placement.tile, hand.board
        start = tuple(hand.to_window(*hand.slot_centre(hand.tiles.index(tile))))
        for _ in range((placement.rot - hand.rotation(tile)) % 6):
            press(*start)
        log.append(f"{screen}: turns tile {tile} to {placement.rot}, aims at {placement.cell}")

        def finger() -> tuple[float, float]:
            x, y = board.window_cell_centre(placement.cell)
            lx, ly = hand._lifted(Namespace(pos=hand.to_widget(x, y)))
            return 2 * x - lx, 2 * y - ly

        end = finger()
        if not board.takes_drop(end, board.window_cell_centre(placement.cell)) and rng.random() < 0.8:
            board.look_at(placement.cell, animate=False)
            end = finger()
        return start, end

    def table_move(app: Any, screen: str) -> float | None:
        """What players do at a table with people: a tile dragged from a person's hand to the
        board (mostly to a legal space, else anywhere), two of them racing at Gobbles, a Tanagra
        pawn or triangle tapped then its target; None: nothing of the kind here now."""
        here = app.manager.current_screen
        board = getattr(here, "board", None)
        if isinstance(board, TanagraBoard):
            if not here.human_turn() or rng.random() < 0.2:
                return None
            action = rng.choice(here.game.legal_actions() or [None])
            cells = [getattr(action, name) for name in ("origin", "target", "centre") if hasattr(action, name)]
            log.append(f"{screen}: {action} by taps")
            for cell in cells:
                press(*board.to_window(*board.cell_point(cell)))
            at_tables["tanagra taps"] += 1
            return 0.3
        hands = [w for w in shown() if isinstance(w, HandView) and w.tiles and w.board is not None
                 and isinstance(w.target or w.board.target, ModeTarget)]
        playable = [(hand, placements) for hand in hands if hand.active and (placements := legal(hand))]
        if len(playable) > 1 and screen == "gobbles" and rng.random() < 0.35:  # two people race
            (first, mine), (second, theirs) = rng.sample(playable, 2)
            aimed = rng.choice(mine)
            same = [p for p in theirs if p.cell == aimed.cell]
            moves = [aim(first, aimed, screen), aim(second, rng.choice(same or theirs), screen)]
            slide(screen, "race", moves)
            at_tables["races"] += 1
            return 0.2
        if playable and rng.random() < 0.75:
            hand, placements = rng.choice(playable)
            slide(screen, "play", [aim(hand, rng.choice(placements), screen)])
            at_tables["legal drags"] += 1
            return rng.choice((0.1, 0.4))
        if hands:
            hand = rng.choice(hands)
            start = hand.to_window(*hand.slot_centre(rng.randrange(len(hand.tiles))))
            slide(screen, "drag from a hand", [(tuple(start), point())])
            at_tables["wild drags"] += 1
            return 0.1
        return None

    def act(app: Any) -> float:
        """One action; returns how long to wait before the next."""
        screen = app.manager.current
        if screen.startswith("_screen"):  # a screen shown without a name: its class says which
            screen = type(app.manager.current_screen).__name__
        seen[screen] += 1
        kind = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        game = getattr(app.manager.current_screen, "game", None)
        if robots_only(game) and rng.random() < 0.3:
            kind = "watch"  # robots play: people mostly watch them
        game = game or getattr(app.manager.current_screen, "mode", None)  # a puzzle's screen holds its mode
        table = tables and game is not None and not robots_only(game) and not getattr(game, "finished", False)
        if table:
            if id(game) not in games_seen:
                games_seen.add(id(game))
                reached[table_name(screen, game)] += 1
            if rng.random() < 0.55 and (wait := table_move(app, screen)) is not None:
                return wait
        if kind == "button":
            buttons = [w for w in shown() if isinstance(w, ButtonBehavior)]
            if screen == "staff-pin" and rng.random() < 0.85:  # mostly the PIN 0000: the staff pages too
                key = "0" if len(app.pin.keypad.entered) < 4 else "OK"
                buttons = [w for w in buttons if getattr(w, "msg", "") == key] or buttons
            elif table:  # Confirm, Undo, Hint, the coach, Draw...; Leave now and then
                buttons = [w for w in buttons if getattr(w, "msg", "") != "Leave" or rng.random() < 0.15] or buttons
                at_tables["buttons"] += 1
            elif tables and screen.endswith("-setup"):  # a person in some seat, the table's size, then Start
                seats = getattr(app.manager.current_screen, "seats", [])
                if seats and all(s.robot for s in seats):
                    buttons = [w for w in buttons if getattr(w, "msg", "") == "Person"] or buttons
                elif rng.random() < 0.3:
                    buttons = [w for w in buttons if getattr(w, "msg", "") == "Start"] or buttons
                else:
                    buttons = [w for w in buttons if getattr(w, "msg", "") not in ("Back", "Start")] or buttons
            elif rng.random() < 0.08:  # people leave a screen too (many buttons make Back rare)
                buttons = [w for w in buttons if getattr(w, "msg", "") in ("Back", "Home", "Close")] or buttons
            elif screen.endswith("-setup") and rng.random() < 0.6:  # robots in every seat, then Start:
                buttons = [w for w in buttons  # games played to their end, and their endings
                           if getattr(w, "msg", "") in ("Robot", "Beginner", "Start")] or buttons
            if buttons:
                button = rng.choice(buttons)
                x, y = button.to_window(*button.center)
                log.append(f"{screen}: tap {type(button).__name__} {getattr(button, 'text', '')!r} at {x:.0f},{y:.0f}")
                press(x, y)
                return rng.choice((0.05, 0.2, 0.6))
            kind = "tap"
        if kind == "tap":
            x, y = point()
            log.append(f"{screen}: tap at {x:.0f},{y:.0f}")
            press(x, y)
            return 0.1
        if kind in ("drag", "two fingers"):  # from a widget (a tile in a hand) or anywhere, to anywhere
            leaves = [w for w in shown() if not w.children]
            moves = []
            for _ in range(1 if kind == "drag" else 2):
                leaf = rng.choice(leaves) if leaves and rng.random() < 0.7 else None
                moves.append((tuple(leaf.to_window(*leaf.center)) if leaf is not None else point(), point()))
            slide(screen, kind, moves)
            return 0.1
        if kind == "watch":
            if robots_only(getattr(app.manager.current_screen, "game", None)) and rng.random() < 0.8:
                log.append(f"{screen}: watches until another screen shows")
                done["until"] = (app.manager.current_screen, screen, time.monotonic() + PATIENCE)
                return 1.0
            log.append(f"{screen}: watches")
            return rng.uniform(3, 15)
        if kind == "long":
            x, y = point()
            log.append(f"{screen}: long press at {x:.0f},{y:.0f}")
            finger = UnitTestTouch(x, y)
            finger.touch_down()
            Clock.schedule_once(lambda _dt, finger=finger: finger.touch_up(), rng.uniform(0.6, 2.5))
            return 0.1
        if kind == "bag":
            held = rng.random() < 0.03
            log.append(f"{screen}: bag button {'held' if held else 'pressed'}")
            app.post(BagButtonHeld() if held else BagButtonPressed())
            return 0.2
        if kind == "scan":
            tile, reader = rng.randint(1, 56), rng.choice((None, 0, 1, 2, 3))
            log.append(f"{screen}: tile {tile} scanned on reader {reader}")
            app.post(TileScanned(tile, reader))
            return 0.1
        if kind == "staff":
            log.append(f"{screen}: staff corner held")
            app.open_staff()
            return 0.3
        log.append(f"{screen}: Escape")
        EventLoop.window.dispatch("on_keyboard", 27, 0, "", [])
        return 0.1

    def resume_check(app: Any) -> None:
        """After a power cut: the game the store holds is offered, and Resume opens it."""
        saved = runtime.store.load_current()
        if saved is None:
            done["resumed"] = "nothing saved"
            print("RESUMED nothing saved", flush=True)
            return
        assert app.manager.current == "resume", f"a game was saved but {app.manager.current!r} shows"
        app.resume()
        assert app.manager.current != "resume", \
            f"Resume refused a {saved.get('kind')!r} game: {app.manager.get_screen('resume').children}"
        done["resumed"] = f"{saved.get('kind')} on {app.manager.current}"
        print("RESUMED " + done["resumed"], flush=True)  # before the next cut, which prints nothing else

    def step(_dt: float) -> None:
        app = App.get_running_app()
        if app is None:
            return
        if after_cut and done["resumed"] is None:
            resume_check(app)
        if done["until"] is not None:
            watching, name, deadline = done["until"]
            if app.manager.current_screen is watching and time.monotonic() < deadline:
                Clock.schedule_once(step, 1.0)
                return
            done["until"] = None
            watched[f"{name} -> {app.manager.current if app.manager.current_screen is not watching else 'still'}"] += 1
        if done["actions"] >= actions:
            app.stop()
            return
        done["actions"] += 1
        Clock.schedule_once(step, act(app))

    runtime = Runtime(Launch(config=str(config), simulate=True, size=size))
    Clock.schedule_once(step, 1.0)
    failure = None
    finished: Counter[str] = Counter()
    try:
        with runtime:
            done["quit"] = runtime.run() != 0
            records = runtime.store.records(limit=10_000)
            finished.update(kind for _n, kind, _r in records)
            # a game ended once is recorded once, power cuts or not (two robot games never match)
            bodies = Counter(json.dumps(record, sort_keys=True) for _n, _k, record in records)
            done["recorded_twice"] = sum(count - 1 for count in bodies.values())
    except BaseException:  # noqa: BLE001 - the finding
        failure = traceback.format_exc()
    return {"seed": seed, "size": f"{size[0]}x{size[1]}", "actions": done["actions"], "resumed": done["resumed"],
            "quit_by_staff": done["quit"], "screens": dict(seen), "watched": dict(watched),
            "tables": dict(reached), "at_tables": dict(at_tables),
            "games_recorded": dict(finished), "recorded_twice": done.get("recorded_twice"), "failure": failure,
            "last_actions": list(log) if failure else []}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="800x480,720x1280,1280x800")
    parser.add_argument("--cuts", type=int, default=0,
                        help="power cuts a run (SIGKILL at a random moment, then a fresh start on the same state)")
    parser.add_argument("--tables", action="store_true",
                        help="sit at game tables: a person in some seat at a setup, then mostly what players do there")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        seed, width, height, actions, after_cut, tables, state = args.child.split(",", 6)
        print("MONKEY " + json.dumps(child(int(seed), (int(width), int(height)), int(actions), Path(state),
                                           after_cut == "1", tables == "1")), flush=True)
        return
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_NO_FILELOG="1", LP_NUM_THREADS="0")
    failures = 0
    for run in range(args.runs):
        width, height = sizes[run % len(sizes)]
        state = tempfile.mkdtemp(prefix="tantrix-monkey-")
        cut = random.Random(args.seed + run)
        for segment in range(args.cuts + 1):
            seed = args.seed + run + 1000 * segment
            process = subprocess.Popen(
                [sys.executable, __file__, "--child", f"{seed},{width},{height},{args.actions},{int(segment > 0)},{int(args.tables)},{state}"],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:  # a power cut at a random moment, except in the last segment
                out, err = process.communicate(timeout=cut.uniform(8, 90) if segment < args.cuts else None)
            except subprocess.TimeoutExpired:
                process.kill()
                out, err = process.communicate()
                if "MONKEY " not in out:
                    resumed = [line[len("RESUMED "):] for line in out.splitlines() if line.startswith("RESUMED ")]
                    print(json.dumps({"seed": seed, "size": f"{width}x{height}", "power_cut": True,
                                      "resumed": resumed[0] if resumed else None}), flush=True)
                    continue
            lines = [line for line in out.splitlines() if line.startswith("MONKEY ")]
            if lines:
                result = json.loads(lines[-1][len("MONKEY "):])
            else:
                result = {"seed": seed, "size": f"{width}x{height}",
                          "failure": f"exit {process.returncode}: {err[-3000:]}"}
            failures += bool(result.get("failure"))
            print(json.dumps(result), flush=True)
            if result.get("failure"):
                break
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
