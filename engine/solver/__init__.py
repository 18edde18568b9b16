"""The puzzle solver: loops and lines through tile sets, rotation puzzles, hints.

* :func:`solve` finds one arrangement reaching a :class:`Goal` (or proves there is none),
  :func:`count` counts the hole-free ones, :func:`hint` suggests the player's next move;
* :func:`fill` solves rotation puzzles and builds their layouts;
* every search takes a :class:`Control`: a time limit, a cancel flag and a progress callback.
"""

from .control import Control, Interrupted, Progress
from .fill import fill
from .goal import ChainProgress, Goal, Status, status
from .search import Hint, HintKind, Outcome, Result, count, hint, solve

__all__ = [
    "ChainProgress", "Control", "Goal", "Hint", "HintKind", "Interrupted", "Outcome", "Progress",
    "Result", "Status", "count", "fill", "hint", "solve", "status",
]
