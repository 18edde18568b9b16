"""Which engine runs: the source, or its hot modules compiled to C by mypyc (engine.compile).

The master robot's playouts spend their time in the evaluation and the board's rules (bench/RESULTS.md,
the profile), and a Pi 4 core is several times slower than a desktop's. mypyc compiles those
modules, from the very source in this package, into extension modules that sit beside it
(``evaluation.py`` and ``evaluation.cpython-311-aarch64-linux-gnu.so``), and Python imports an
extension module before a source file of the same name. Nothing else changes: every value comes
out the same to the last bit (tests/test_engine_compiled.py plays the same searches both ways).

A build writes a stamp: the digest of the sources it compiled and of each file it made. ``import
engine`` calls :func:`guard` before any of them loads, and it imports the sources instead of the
extension modules whenever the stamp does not match them, so an edited module is never shadowed by
a stale build, or when ``TANTRIX_PURE_PYTHON=1`` asks for the pure-Python path. (Compiled, the
board's class cannot be derived from or patched in Python: a tool that needs to does it with that
variable set.)
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# the evaluation (three quarters of the master's playouts, profile), the board under it (legal
# placements, the fill cascade, lines), and the geometry and tiles both read, compiled together so
# that their calls to one another are C calls. The board's refusals stay in Python
# (engine.refusals: the families derive their own from them); the club's ranking loop gained nothing.
MODULES = ("engine.geometry", "engine.tiles", "engine.board", "engine.strategy.robots.evaluation")
GROUP = "engine._compiled"  # the shared library the compiled modules live in
PURE = "TANTRIX_PURE_PYTHON"
PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
STAMP = PACKAGE / "compiled.stamp"


def source(module: str) -> Path:
    return ROOT / (module.replace(".", "/") + ".py")


def digest() -> str:
    """What the compiled modules must have been built from: their sources, this Python, and the
    build itself (engine/compile.py: a change of its compiler flags rebuilds them too)."""
    found = hashlib.sha256(sys.implementation.cache_tag.encode())
    for module in MODULES:
        found.update(source(module).read_bytes())
    found.update((PACKAGE / "compile.py").read_bytes())
    return found.hexdigest()


def built() -> list[str]:
    """Every extension module in the package (it has no others than a build's), relative to it."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*") if p.name.endswith(suffixes))


def _contents(files: list[str]) -> dict[str, str]:
    return {name: hashlib.sha256((PACKAGE / name).read_bytes()).hexdigest() for name in files}


def stamp(files: list[str]) -> None:
    STAMP.write_text(json.dumps({"digest": digest(), "files": _contents(files)}) + "\n")


def current(files: list[str] | None = None) -> bool:
    """Whether there is a build (``files``, or :func:`built`'s), made from these sources, with every
    file as the build left it: a build cut short (by a power cut, say) or damaged since must never
    be what crashes a start."""
    files = built() if files is None else files
    try:
        return bool(files) and json.loads(STAMP.read_text()) == {"digest": digest(), "files": _contents(files)}
    except (OSError, ValueError):
        return False


def status() -> str:
    """``compiled``, or why the sources run: ``pure`` (asked for), ``stale`` or ``not built``."""
    files = built()
    if not files:
        return "not built"
    if os.environ.get(PURE) == "1":
        return "pure"
    return "compiled" if current(files) else "stale"


_decided = "not built"  # what guard() found when ``import engine`` ran it: what this process runs


def summary() -> str:
    """How this process runs the engine, for the journal and the self-test: ``compiled``, or ``from
    source`` and why, as :func:`guard` decided at import (not checked again: the files are hashed
    once). An install that silently ran the source would make the robots think 1.6-1.9 times
    slower on a Pi, and nothing else would show it."""
    return _decided if _decided == "compiled" else f"from source ({_decided})"


class _Sources(importlib.abc.MetaPathFinder):
    """Finds an engine module's source ahead of an extension module beside it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> ModuleSpec | None:
        if not fullname.startswith("engine."):
            return None
        file = source(fullname)
        return importlib.util.spec_from_file_location(fullname, file) if file.exists() else None


def guard() -> None:
    """Import the sources, not the build, when the build is stale or the pure path is asked for."""
    global _decided
    now = _decided = status()
    if now in ("pure", "stale") and not any(isinstance(f, _Sources) for f in sys.meta_path):
        if now == "stale":
            warnings.warn("engine: the compiled modules do not match their sources; running the pure-Python "
                          "engine (python -m engine.compile rebuilds them)", RuntimeWarning, stacklevel=2)
        sys.meta_path.insert(0, _Sources())
