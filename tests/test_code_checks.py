"""The type checker and the linter, run by the test command so that a wrong type or an undefined
name fails the suite like a wrong rule: mypy in strict mode over ``engine/`` and ``hardware/``
(their settings, and the third-party modules that ship no types, are in pyproject.toml) and ruff's
error rules over the whole tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_engine_and_hardware_type_check_strictly():
    done = run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_ruff_finds_no_errors():
    done = run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr
