"""The kiosk installs and runs without the optimiser's solver (OR-Tools, 245 MB with pandas and
numpy): it is the optional extra ``optimise``, which ``./dev test`` installs and the Pi does not."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ortools_is_an_optional_extra_only():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(dep.startswith("ortools") for dep in project["dependencies"])
    assert [dep.split(">")[0] for dep in project["optional-dependencies"]["optimise"]] == ["ortools"]


def test_the_self_test_imports_every_package_a_release_installs():
    from firmware.__main__ import OPTIONAL_MODULES, RELEASE_PACKAGES

    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    assert [name.rstrip("*") for name in found["include"]] == list(RELEASE_PACKAGES)
    assert all((ROOT / f"{name.replace('.', '/')}.py").is_file() for name in OPTIONAL_MODULES)


def test_every_kiosk_module_imports_and_the_optimiser_runs_without_ortools():
    code = """
import importlib, sys
sys.modules["ortools"] = None  # as if it were not installed: any import of it fails
from firmware.__main__ import release_modules
for name in release_modules():  # what the installed release's self-test imports
    importlib.import_module(name)
from engine import optimise
assert optimise.polish is None
score, board = optimise.optimise("loops", seconds=1.0, workers=1, seed=3)
print("ok", score)
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "SDL_VIDEODRIVER": "offscreen",
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[0] == "ok" and int(done.stdout.split()[1]) > 0  # the beam search alone
