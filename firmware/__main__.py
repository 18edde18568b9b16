"""Entry point of the kiosk (``tantrix-kiosk``, ``python -m firmware``).

Until the touchscreen UI lands this prints one random legal game from the engine's demo.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from engine.cli import main as engine_main

    return engine_main(["demo", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    sys.exit(main())
