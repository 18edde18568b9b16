"""Build the compiled engine (engine.compiled): ``python -m engine.compile [--if-stale | --clean]``.

``./dev`` and systemd/install.sh run it. It needs mypy (mypyc ships with it), gcc and the Python
headers, which a Pi has for rpi-ws281x anyway; where the build fails the source runs as before.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .compiled import GROUP, MODULES, PACKAGE, ROOT, built, current, source, stamp, status


def build() -> None:
    """Compile :data:`engine.compiled.MODULES` (type-checked by mypy on the way), put the extension
    modules beside their sources, and stamp them. The work happens on a copy of the package's
    sources in a scratch directory, so it builds the same from a checkout and in an installed
    release's site-packages (where mypy would take every other installed module for ours)."""
    from mypyc.build import mypycify  # build-time only: the kiosk never imports mypy
    from setuptools import Distribution

    clean()
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as work:
        for file in PACKAGE.rglob("*.py"):
            copy = Path(work, "engine", file.relative_to(PACKAGE))
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(file, copy)
        os.chdir(work)
        try:
            paths = [str(source(m).relative_to(ROOT)) for m in MODULES]
            extensions = mypycify([*paths, "--cache-dir", "cache"], group_name=GROUP)
            for extension in extensions:
                # GCC fuses a * b + c into one rounding where the CPU can (a Pi's arm64 does; x86-64
                # without -mfma does not): the Pi's compiled robots then judged differently from the
                # source and from every other machine. Python rounds each operation; so must we.
                extension.extra_compile_args = [*extension.extra_compile_args, "-ffp-contract=off"]
            dist = Distribution({"ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = "lib"
            command.build_temp = "temp"
            dist.run_command("build_ext")
            for made in Path("lib").rglob("*"):
                if made.is_file():  # a new file renamed into place: a running process keeps the old one
                    target = ROOT / made.relative_to("lib")
                    staged = target.with_name(target.name + ".new")
                    shutil.copy2(made, staged)
                    os.replace(staged, target)
        finally:
            os.chdir(here)
    stamp(built())


def clean() -> None:
    """Remove every extension module of the package and the stamp: the sources run again."""
    for name in [*built(), "compiled.stamp"]:
        (PACKAGE / name).unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.compile", description=__doc__.split("\n")[0])
    parser.add_argument("--if-stale", action="store_true", help="build only when no current build is there")
    parser.add_argument("--clean", action="store_true", help="remove the build instead")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
    elif not (args.if_stale and current()):
        build()
    print(f"engine: {status()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
