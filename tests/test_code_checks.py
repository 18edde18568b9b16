"""The type checker and the linter, run by the test command so that a wrong type or an undefined
name fails the suite like a wrong rule: mypy in strict mode over all our packages (``engine/``,
``hardware/``, ``ui/``, ``firmware/``, ``web/``; their settings, the two strict checks Kivy's untyped
classes rule out in ``ui/``, and the third-party modules that ship no types are in pyproject.toml)
and ruff's error rules over the whole tree. mypy keeps its cache in the project's ``.mypy_cache``:
a run after a small change checks only what it touches."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_our_packages_type_check_strictly():
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_ruff_finds_no_errors():
    done = run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr
