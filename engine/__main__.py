"""``python -m engine``: the engine's machine-readable command line (see engine.cli)."""

import sys

from .cli import main

sys.exit(main())
