"""The compiled engine (engine.compiled): built where it can be, the same answers as the source to the
last bit, and never used once its source has changed."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from engine import compiled

ROOT = Path(__file__).resolve().parent.parent

# Plays club games of 2, 3, 4 players and Doubles and, at every 5th decision, lists the legal
# placements, the club's ranking and a short master search with every value it found; prints
# their digest and where the evaluation came from.
PLAY = """
import hashlib, json, random
import engine.strategy.robots.evaluation as evaluation
from engine.strategy.game import StrategyGame
from engine.strategy.robots import robot_move
from engine.strategy.robots.club import ranked
from engine.strategy.robots.evaluation import TUNED
from engine.strategy.robots.master import Master
found = hashlib.sha256()
decisions = 0
for players, doubles, seed in ((2, False, 1), (3, False, 2), (4, False, 3), (4, True, 4)):
    game = StrategyGame.new(players=players, doubles=doubles, seed=seed, robots=["club"] * players)
    while not game.finished:
        legal = game.legal()
        if len(legal) > 1:
            decisions += 1
            if decisions % 5 == 0:
                view = game.view()
                search = Master(iterations=16, workers=1).search(view, random.Random(decisions))
                found.update(repr((legal, ranked(view, TUNED), [(c.placement, c.values) for c in search.children],
                                   search.choice)).encode())
        robot_move(game)
    found.update(repr(game.result.scores).encode())
print(json.dumps({"digest": found.hexdigest(), "decisions": decisions, "evaluation": evaluation.__file__}))
"""


def play(pure: bool, cwd: Path = ROOT) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE}
    if pure:
        env[compiled.PURE] = "1"
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def is_extension(path: object) -> bool:
    return str(path).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_the_compiled_engine_is_built_and_used_where_a_c_compiler_is():
    headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
    if shutil.which("gcc") and headers:  # ./dev builds it whenever it can (else the source runs)
        assert compiled.status() == "compiled", "run: python -m engine.compile"
        import engine.geometry
        import engine.strategy.robots.evaluation
        assert is_extension(engine.geometry.__file__) and is_extension(engine.strategy.robots.evaluation.__file__)
    else:
        assert compiled.status() in ("not built", "pure")


def test_compiled_and_pure_engines_play_the_same_to_the_last_bit():
    fast, pure = play(pure=False), play(pure=True)
    assert pure["evaluation"] == str(ROOT / "engine" / "strategy" / "robots" / "evaluation.py")
    assert is_extension(fast["evaluation"]) == (compiled.status() == "compiled")
    assert isinstance(pure["decisions"], int) and pure["decisions"] > 100
    assert fast["digest"] == pure["digest"] and fast["decisions"] == pure["decisions"]


def probe(tree: Path) -> tuple[str, str, str]:
    """Where ``tree``'s engine takes its evaluation from, its status and the warnings printed."""
    code = "import engine.strategy.robots.evaluation as e, engine.compiled as c; print(e.__file__, c.status())"
    env = {k: v for k, v in os.environ.items() if k not in (compiled.PURE, "PYTHONPATH")}
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], cwd=tree, env=env, capture_output=True,
                          text=True, check=True)
    file, state = done.stdout.split()
    return file, state, done.stderr


def test_a_build_that_does_not_match_its_sources_is_never_used(tmp_path):
    """In copies of the package: a source edited after the build, the build's own flags changed
    since (engine/compile.py), an extension module the build did not make (one left from an older
    build) and one damaged since, each make the engine run from source, with a warning, instead of
    failing to import."""
    source = Path("engine", "strategy", "robots", "evaluation.py")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for case in ("edited", "built-otherwise", "left-over", "damaged"):
        tree = tmp_path / case
        shutil.copytree(ROOT / "engine", tree / "engine", ignore=shutil.ignore_patterns("__pycache__"))
        file, state, _ = probe(tree)
        assert file.startswith(str(tree)) and state == compiled.status()
        if case == "edited":
            with (tree / source).open("a") as edit:
                edit.write("\n# an edit after the build\n")
        elif case == "built-otherwise":
            with (tree / "engine" / "compile.py").open("a") as edit:
                edit.write("\n# another compiler flag since the build\n")
        elif case == "left-over":
            (tree / "engine" / ("actions" + suffix)).write_bytes(b"not a module")
        else:
            for made in compiled.built():
                (tree / "engine" / made).write_bytes(b"damaged")
        file, state, warned = probe(tree)
        assert file == str(tree / source)
        if compiled.built() or case == "left-over":
            assert state == "stale" and "do not match their sources" in warned
