"""Entry point of the kiosk (``tantrix-kiosk``, ``python -m firmware``).

    tantrix-kiosk [--config PATH] [--simulate] [--size WxH] [--fullscreen]   start the kiosk
    tantrix-kiosk hash-pin                  make the staff_pin line for the configuration
    tantrix-kiosk check-config [PATH]       list the configuration's problems (exit 1 if any)
    tantrix-kiosk self-test [--state DIR]   check this installation before it is switched to
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Callable, Iterator, Sequence

from engine.strategy.robots import configure as configure_robots
from ui.services import valid_pin

from .backoff import pace_start
from .config import config_path, load_config
from .logs import setup_logging
from .pin import hash_pin
from .runtime import Launch, Runtime

log = logging.getLogger("firmware")


def window_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> (1280, 800)."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit() and 100 <= int(width) <= 10000 and 100 <= int(height) <= 10000):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels such as 1280x800, got {text!r}")
    return int(width), int(height)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tantrix-kiosk", description="The Tantrix Table kiosk.")
    parser.add_argument("--config", metavar="PATH",
                        help="configuration file (default: $TANTRIX_KIOSK_CONFIG, else /etc/tantrix-kiosk/config.toml)")
    parser.add_argument("--simulate", action="store_true", help="simulated devices, even on a Raspberry Pi")
    parser.add_argument("--size", type=window_size, metavar="WxH", help="window size on a desktop: 800x480, 1024x600, 1280x800, 1920x1080, 720x1280 or any")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (as on the kiosk)")
    parser.set_defaults(run=run_kiosk)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    hashing = commands.add_parser("hash-pin", help="print the staff_pin line for a new staff PIN",
                                  description="Asks for a PIN (4-12 digits; read from stdin when it is not a "
                                              "terminal) and prints the staff_pin line for [kiosk].")
    hashing.set_defaults(run=run_hash_pin)
    checking = commands.add_parser("check-config", help="list the problems of a configuration file")
    checking.add_argument("path", nargs="?", help="the file (default: as for the kiosk)")
    checking.set_defaults(run=run_check_config)
    testing = commands.add_parser("self-test", help="check an installation before switching to it",
                                  description="Imports every module, reads the configuration, and opens a copy "
                                              "of the database (migrated on the copy only); exit 0 if all work.")
    testing.add_argument("--state", metavar="DIR", help="the state directory whose database is copied")
    testing.set_defaults(run=run_self_test)
    return parser


def run_kiosk(args: argparse.Namespace) -> int:
    setup_logging()
    signal.signal(signal.SIGTERM, _stop)  # systemctl stop: unwind, so the store closes cleanly
    # a tty hang-up too: its default would kill us on the spot, the store left unclosed; exit 0 is
    # still restarted (Restart=always)
    signal.signal(signal.SIGHUP, _stop)
    try:
        pace_start()  # slower and slower while every start fails soon after it
        with Runtime(Launch(args.config, args.simulate, args.size, args.fullscreen)) as runtime:
            logging.getLogger().setLevel(runtime.config.kiosk.log_level.upper())
            robots = runtime.config.robots
            configure_robots(master_seconds=robots.master_seconds, workers=robots.master_workers)
            return runtime.run()
    except Exception:
        log.critical("the kiosk stopped on an unexpected error", exc_info=True)
        return 1


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)


def run_hash_pin(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        pin = getpass.getpass("New staff PIN (4 to 12 digits): ")
        if getpass.getpass("The same PIN again: ") != pin:
            print("hash-pin: the two PINs differ; nothing changed", file=sys.stderr)
            return 2
    else:
        pin = sys.stdin.readline().strip()
    if not valid_pin(pin):
        print("hash-pin: a staff PIN is 4 to 12 digits", file=sys.stderr)
        return 2
    print(f'staff_pin = "{hash_pin(pin)}"')
    print("hash-pin: put this line in the [kiosk] table of the configuration file", file=sys.stderr)
    return 0


def run_check_config(args: argparse.Namespace) -> int:
    config = load_config(args.path or args.config)
    path, _ = config_path(args.path or args.config)
    for warning in config.warnings:
        print(warning)
    if not config.warnings:
        print(f"{path}: fine" if config.source else f"{path}: no such file; the built-in defaults apply")
    return 1 if config.warnings else 0


#: The packages a release installs (pyproject's [tool.setuptools.packages.find]): the kiosk's and
#: the web pages' (tantrix-web runs from the same release).
RELEASE_PACKAGES = ("engine", "hardware", "ui", "firmware", "web")
#: Modules that only an optional extra's users import, and that need that extra: engine.polish is
#: OR-Tools' (the extra "optimise"), which no kiosk installs; engine.optimise works without it.
OPTIONAL_MODULES = frozenset({"engine.polish"})


def release_modules() -> Iterator[str]:
    """The name of every module of a release that must import where the release runs: the
    self-test imports them all (with the package's own ``__init__`` first)."""
    import importlib
    import pkgutil

    for package in RELEASE_PACKAGES:
        yield package
        for found in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            if not found.name.endswith("__main__") and found.name not in OPTIONAL_MODULES:
                yield found.name


class CheckFailed(Exception):
    """A self-test check that failed, saying why in words (the file and the reason, where there is one)."""


def run_self_test(args: argparse.Namespace) -> int:
    """What install.sh runs in a new environment before switching the kiosk to it: the kiosk's
    modules import, the configuration loads, and the database opens (a copy: a schema migration
    must not touch the real one before the switch, or a rollback would find a newer schema). Each
    check is run and reported whatever the others gave (a database that cannot be read says which
    file and why, and the modules are still imported); any failure exits 1. The report goes to
    stdout: once Kivy is imported its logger holds stderr, and with its console log off (as under
    KIVY_NO_CONSOLELOG) a failure written there was never seen."""
    from engine.compiled import summary

    from .version import installed_version

    checks: list[tuple[str, Callable[[], str]]] = [
        ("every module imports", _import_release),
        ("the configuration loads", lambda: f"{len(load_config(args.config).warnings)} configuration warnings"),
        ("the database opens", lambda: _open_copy(Path(args.state) if args.state else None)),
    ]
    failed, told = 0, []
    for what, check in checks:
        try:
            told.append(check())
        except Exception as exc:  # every check is reported, whatever it raised; none stops the others
            failed += 1
            why = str(exc) if isinstance(exc, CheckFailed) else f"{type(exc).__name__}: {exc}"
            print(f"self-test: FAILED: {what}: {why}", flush=True)
        else:
            print(f"self-test: passed: {what}", flush=True)
    if failed:
        print(f"self-test: {failed} of {len(checks)} checks failed; {installed_version()} is not fit to run", flush=True)
        return 1
    print(f"self-test: {installed_version()} fine (engine {summary()}, {', '.join(told)})")
    return 0


def _import_release() -> str:
    """Import every module of the release (:func:`release_modules`); CheckFailed names each that fails, once
    all were tried."""
    import importlib

    broken, imported = [], 0
    for name in release_modules():
        imported += 1
        try:
            importlib.import_module(name)
        except Exception as exc:  # a module that fails to import, however it fails, is a failed check
            broken.append(f"{name} ({type(exc).__name__}: {exc})")
    if broken:
        raise CheckFailed("; ".join(broken))
    return f"{imported} modules imported"


def _open_copy(state: Path | None) -> str:
    """Open a copy of the database in ``state`` (none: a fresh one) in a scratch directory, write
    to it and read its statistics; CheckFailed when a file of it cannot be copied (naming it) or
    the store could only play in memory."""
    import tempfile

    from .store import DATABASE, SqliteStore

    with tempfile.TemporaryDirectory(prefix="tantrix-self-test-") as scratch:
        for original in (state / DATABASE, state / f"{DATABASE}-wal") if state is not None else ():
            try:  # copied, never opened: nothing is written there
                shutil.copyfile(original, Path(scratch) / original.name)
            except OSError as exc:
                source = exc.filename in (None, str(original))
                if source and isinstance(exc, FileNotFoundError):
                    continue  # no database yet, or no log beside it
                reason = exc.strerror or str(exc)
                raise CheckFailed(f"{original} cannot be read ({reason})" if source
                                  else f"cannot copy {original} to {exc.filename} ({reason})") from None
        notes: list[str] = []
        with SqliteStore(scratch, report=notes.append) as store:
            store.save_current({"kind": "self-test", "state": {}})
            store.clear_current()
            games = sum(store.statistics()["games"].values())
        for note in notes:
            print(f"self-test: note: {note}", flush=True)
        if store.in_memory:
            raise CheckFailed(store.memory_reason)
    return f"{games} games counted in the database"


def main(argv: Sequence[str] | None = None) -> int:
    # The command line is ours: Kivy, once imported (self-test imports every module), would parse it
    # too and fail on our --config. Its own test for pytest in sys.argv hid that from the suite.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
