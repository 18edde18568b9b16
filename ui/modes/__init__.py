"""The game families on the home screen and the registry that mode screens plug into.

Each family's screens live in one sub-package: ``strategy`` (the Tantrix game: setup, play, results,
clocks, coach), ``solo`` (Learn, Puzzles, Solitaire, Four lines and loops, the pyramids), ``gobble``
(Gobble solo and the Gobbles race) and ``tanagra``. :func:`load_screens` imports the modules that open
a family or resume a mode; such a module registers:

* ``@family_screen("tantrix")`` on ``factory(app) -> Screen``: what the family's home button opens
  (its setup: players, robots, puzzle choice...);
* ``@kind_screen("strategy")`` on ``factory(app, mode) -> Screen``: the screen that plays a mode
  object of that ``KIND``, used to resume a game restored with ``engine.modes.restore`` after a
  power cut.

The screens get the :class:`ui.app.KioskApp` (``app.services``, ``app.show(screen)``,
``app.go_home()``, ``app.journal(mode)``) and receive device events in ``on_device_event(event)``.
"""

from __future__ import annotations

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
    (translated where shown)."""

    key: str
    title: str
    players: str
    blurb: str


FAMILIES: tuple[Family, ...] = (
    Family("tantrix", N_("Tantrix"), N_("2 to 4 players, or Doubles"),
           N_("The strategy game: the longest line or loop of your colour wins.")),
    Family("gobbles", N_("Gobbles"), N_("2 to 6 players"),
           N_("Everyone plays at once: be the first to place all your tiles.")),
    Family("learn", N_("Learn"), N_("1 player, then friends"),
           N_("Discovery, Rainbow and Solitaire puzzles, then the game.")),
    Family("puzzles", N_("Puzzles"), N_("1 player"),
           N_("The booklet's puzzles: loops, lines and the great pyramid.")),
    Family("solitaire", N_("Solitaire"), N_("1 player"),
           N_("Draw one tile at a time and make one red line through all.")),
    Family("gobble-solo", N_("Gobble solo"), N_("1 player"),
           N_("Place every tile, each touching two.")),
    Family("tanagra", N_("Tanagra"), N_("2 to 4 players"),
           N_("Triangles and pawns: the second game in the box.")),
)
"""The families, in home-screen order."""

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


def load_screens() -> None:
    """Import every family's screen module: each registers its screens as it is imported (here,
    not at the package's import, because they import the decorators above)."""
    from .gobble import gobbles, solo as gobble_solo  # noqa: F401
    from .solo import learn, puzzles, solitaire  # noqa: F401
    from .strategy import setup  # noqa: F401
    from .tanagra import play  # noqa: F401


def entry(fam: Family) -> FamilyFactory:
    """The factory of the family's first screen."""
    load_screens()
    return _family_screens[fam.key]


def resume_factory(kind: str) -> KindFactory | None:
    """The factory of the screen that plays a restored mode of ``kind`` (None if there is none)."""
    load_screens()
    return _kind_screens.get(kind)
