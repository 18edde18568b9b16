"""``python -m hardware selftest``: see ``hardware.selftest``."""

import sys

from .selftest import main

sys.exit(main())
