"""The game families on the home screen, and the loading of the screens that plug into the app.

Each family's screens live in one sub-package: ``strategy`` (the Tantrix game: setup, play, results,
clocks, coach), ``solo`` (Learn, Puzzles, Solitaire, Four lines and loops, the pyramids), ``gobble``
(Gobble solo and the Gobbles race) and ``tanagra``. A family imports nothing of another family's:
what two families share lives in ``ui/`` itself. :func:`load_screens` imports the modules that
register screens with :mod:`ui.navigation` (``@family_screen(key)``, ``@kind_screen(KIND)``,
``@destination(name)``): the app opens them by name.

The screens get the app as a :class:`ui.shell.Shell` (``app.services``, ``app.show(screen)``,
``app.open(name, **args)``, ``app.open_family(key)``, ``app.go_home()``, ``app.journal(mode)``) and
receive device events in ``on_device_event(event)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_
from ..navigation import Factory, KindFactory, factory, kind_factory


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


def family(key: str) -> Family:
    return next(f for f in FAMILIES if f.key == key)


def load_screens() -> None:
    """Import every module that registers screens: each registers them as it is imported (in a
    function, not at this package's import: importing any family's module runs this package first,
    which must not import that module back half-way)."""
    from ..screens import staff_players, tournament  # noqa: F401
    from .gobble import gobbles, solo as gobble_solo  # noqa: F401
    from .solo import learn, puzzles, solitaire  # noqa: F401
    from .strategy import setup  # noqa: F401
    from .tanagra import play  # noqa: F401


def screen_factory(name: str) -> Factory:
    """The factory of the screen registered as ``name`` (LookupError if none is)."""
    load_screens()
    return factory(name)


def resume_factory(kind: str) -> KindFactory | None:
    """The factory of the screen that plays a restored mode of ``kind`` (None if there is none)."""
    load_screens()
    return kind_factory(kind)
