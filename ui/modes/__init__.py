"""The game families on the home screen and the registry that mode screens plug into.

Each family names the engine modules its modes live in and is played by the screen module
``ui.modes.<key with _>`` (e.g. ``ui/modes/tantrix.py``, ``ui/modes/gobble_solo.py``). A family is
*ready* when both exist (checked at run time with ``importlib.util.find_spec``); until then the home
screen still shows it and routes to a "coming soon" card, so the card disappears by itself once the
mode has landed in the engine and its screen module exists. A screen module registers:

* ``@family_screen("tantrix")`` on ``factory(app) -> Screen``: what the family's home button opens
  (its setup: players, robots, puzzle choice...);
* ``@kind_screen("strategy")`` on ``factory(app, mode) -> Screen``: the screen that plays a mode
  object of that ``KIND``, used to resume a game restored with ``engine.modes.restore`` after a
  power cut.

The screens get the :class:`ui.app.KioskApp` (``app.services``, ``app.show(screen)``,
``app.go_home()``, ``app.journal(mode)``) and receive device events in ``on_device_event(event)``.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..i18n import N_

if TYPE_CHECKING:
    from kivy.uix.screenmanager import Screen

FamilyFactory = Callable[[Any], "Screen"]
KindFactory = Callable[[Any, Any], "Screen"]


@dataclass(frozen=True)
class Family:
    """A button of the home screen. ``title``, ``players`` and ``blurb`` are English messages
    (translated where shown); ``engine`` lists the engine modules its modes need."""

    key: str
    title: str
    players: str
    blurb: str
    engine: tuple[str, ...]

    @property
    def screen_module(self) -> str:
        return f"{__name__}.{self.key.replace('-', '_')}"


FAMILIES: tuple[Family, ...] = (
    Family("tantrix", N_("Tantrix"), N_("2 to 4 players, or Doubles"),
           N_("The strategy game: the longest line or loop of your colour wins."), ("engine.game",)),
    Family("gobbles", N_("Gobbles"), N_("2 to 6 players"),
           N_("Everyone plays at once: be the first to place all your tiles."),
           ("engine.gobble.gobbles", "engine.gobble.table")),
    Family("learn", N_("Learn"), N_("1 player, then friends"),
           N_("Discovery, Rainbow and Solitaire puzzles, then the game."),
           ("engine.solo.puzzle", "engine.solo.solitaire")),
    Family("puzzles", N_("Puzzles"), N_("1 player"),
           N_("The booklet's puzzles: loops, lines and the great pyramid."),
           ("engine.solo.puzzle", "engine.solo.rotation")),
    Family("solitaire", N_("Solitaire"), N_("1 player"),
           N_("Draw one tile at a time and make one red line through all."), ("engine.solo.solitaire",)),
    Family("gobble-solo", N_("Gobble solo"), N_("1 player"),
           N_("Place every tile, each touching two."), ("engine.gobble.solo",)),
    Family("tanagra", N_("Tanagra"), N_("2 to 4 players"),
           N_("Triangles and pawns: the second game in the box."), ("engine.tanagra.game",)),
)
"""The families, in home-screen order. The engine module names of modes not yet written are the
planned ones; the pass that wires a mode corrects its entry if the engine chose another name."""

_family_screens: dict[str, FamilyFactory] = {}
_kind_screens: dict[str, KindFactory] = {}


def family_screen(key: str) -> Callable[[FamilyFactory], FamilyFactory]:
    """Decorator: ``factory(app)`` builds the screen family ``key``'s home button opens."""

    def register(factory: FamilyFactory) -> FamilyFactory:
        _family_screens[key] = factory
        return factory

    return register


def kind_screen(kind: str) -> Callable[[KindFactory], KindFactory]:
    """Decorator: ``factory(app, mode)`` builds the screen that plays a mode of ``KIND`` ``kind``."""

    def register(factory: KindFactory) -> KindFactory:
        _kind_screens[kind] = factory
        return factory

    return register


def family(key: str) -> Family:
    return next(f for f in FAMILIES if f.key == key)


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def engine_ready(fam: Family) -> bool:
    """Whether every engine module the family needs is installed."""
    return all(_exists(m) for m in fam.engine)


def ready(fam: Family) -> bool:
    """Whether the family can be played: its engine modules and its screen module exist."""
    return engine_ready(fam) and _exists(fam.screen_module)


def load_screens() -> None:
    """Import the screen module of every ready family (they register themselves)."""
    for fam in FAMILIES:
        if ready(fam):
            importlib.import_module(fam.screen_module)


def entry(fam: Family) -> FamilyFactory | None:
    """The factory of the family's first screen, or None when it is not ready (coming soon)."""
    if not ready(fam):
        return None
    importlib.import_module(fam.screen_module)
    return _family_screens.get(fam.key)


def resume_factory(kind: str) -> KindFactory | None:
    """The factory of the screen that plays a restored mode of ``kind`` (None if there is none)."""
    load_screens()
    return _kind_screens.get(kind)
