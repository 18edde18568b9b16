"""What every command line of the engine shares: one error type for bad input, reading JSON files,
number arguments, a parser whose refusals are one line, and the runner that prints JSON or one line
of error (:func:`run`). The programs (:mod:`engine.cli` and each family's ``cli``) import this
module, so the main program can import theirs at the top without a cycle.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence


class CliError(Exception):
    """A problem with the command's input, reported as one line and exit status 2."""


def load_json(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: bad JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise CliError(f"{path}: JSON nested too deep") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4300 digits)
        raise CliError(f"{path}: bad JSON: {str(exc)[:100]}") from None


def positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a finite number above zero of ``kind`` (int or float)."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text[:40]!r}") from None
        if not (0 < value < float("inf")):  # NaN fails this too
            raise argparse.ArgumentTypeError(f"expected a number above 0, got {text[:40]!r}")
        return value

    parse.__name__ = f"positive {kind.__name__}"
    return parse


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line like every other error of the command line
    (argparse's own print the usage first); its subcommands' parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {one_line(message)} (see: {self.prog} --help)\n")


def one_line(message: str) -> str:
    """``message`` with what the input smuggled in (newlines, control characters) made visible,
    so an answer is always one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Run one command of ``parser``: its JSON answer on stdout, or, for bad input
    (:class:`CliError`), one line on stderr and exit status 2. Every engine program uses it."""
    args = parser.parse_args(argv)
    try:
        result = args.run(args)
    except CliError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except (RecursionError, ValueError, TypeError, KeyError) as exc:  # input no check above foresaw
        print(f"error: the input cannot be used ({type(exc).__name__}: {one_line(str(exc))[:160]})",
              file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0
