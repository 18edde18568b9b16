"""The dependency rules of the layout: engine is pure Python, hardware knows nothing of ours, ui
never reaches into firmware. Checked on the source (imports anywhere in a file) and at run time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engine": {"kivy", "gpiozero", "serial", "rpi_ws281x", "spidev", "ui", "firmware", "hardware"},
    "hardware": {"kivy", "engine", "ui", "firmware"},
    "ui": {"firmware"},
    # MicroPython on the reader controller: none of ours, no CPython-only library
    "controller": {"kivy", "gpiozero", "serial", "engine", "ui", "firmware", "hardware", "typing", "dataclasses"},
    "web": {"kivy", "ui"},
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_packages_import_only_what_the_layering_allows():
    for package, forbidden in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            bad = imported_roots(path) & forbidden
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_importing_the_whole_engine_loads_no_device_or_ui_library():
    code = (
        "import pkgutil, importlib, sys, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "bad = [m for m in ('kivy', 'gpiozero', 'serial', 'rpi_ws281x') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
