"""``python -m engine.tanagra``: see engine.tanagra.cli."""

import sys

from .cli import main

sys.exit(main())
