"""The solo modes' bests named in words, for the ladder's page of a player's solo bests: the keys
are the high scores' (each screen keeps its bests under its own key)."""

from __future__ import annotations

from engine.solo.catalogue import PUZZLES

from ...i18n import _
from . import four as solo_four, solitaire
from .puzzle import puzzle_title
from .rotation import rotation_title


def mode_title(mode: str) -> str:
    """A solo mode's best, named in words ("Solitaire · Two in hand · Red loop", "Junior",
    "5 rows"): the keys are the high scores' (see the modes)."""

    if mode == "gobble-solo":
        return _("Gobble solo")
    if mode.startswith("solitaire:"):
        _kind, rules, aim = (mode.split(":") + ["", ""])[:3]
        words = [_(text) for key, text in (*solitaire.RULES, *solitaire.AIMS) if key in (rules, aim)]
        return " · ".join([_("Solitaire"), *words])
    for goal, four in solo_four.MODES.items():
        if mode == four.KIND:
            return _(solo_four.TITLES[goal])
    name = mode.removeprefix("time:")
    if name in PUZZLES:
        return puzzle_title(PUZZLES[name])
    if name.startswith("rotation-") and name[9:].isdigit():
        return rotation_title(int(name[9:]))
    return name
