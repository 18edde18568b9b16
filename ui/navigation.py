"""Where a screen sends the player, by name: the destinations screens register and the app opens.

A screen never imports the screen it goes to (that is how the solo screens came to import each
other to go "back"): it asks the app, ``app.open(name, **args)`` (a family's own screen is the
destination named by the family's key, ``app.open_family(key)``), and the app builds the screen with
the factory registered here under that name and shows it. The modules that register are imported
by :func:`ui.modes.load_screens`; this module imports none of them.

* ``@destination("tournament")`` on ``factory(app, **args) -> Screen``: a screen other screens go to;
* ``@family_screen("tantrix")``: what the family's home button opens (its setup, its list of
  puzzles...), the destination named by the family's key;
* ``@kind_screen("strategy")`` on ``factory(app, mode) -> Screen``: the screen that plays a mode
  object of that ``KIND``, used to resume a game restored with ``engine.modes.restore`` after a
  power cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

if TYPE_CHECKING:
    from kivy.uix.screenmanager import Screen

Factory = Callable[..., "Screen"]
"""``factory(app, **args)`` builds a destination's screen (the app shows it)."""
KindFactory = Callable[[Any, Any], "Screen"]
F = TypeVar("F", bound=Callable[..., Any])

_destinations: dict[str, Factory] = {}
_kind_screens: dict[str, KindFactory] = {}


def destination(name: str) -> Callable[[F], F]:
    """Decorator: ``factory(app, **args)`` builds the screen named ``name``. A name is registered
    once: two screens claiming one name is a mistake, said at import."""

    def register(factory: F) -> F:
        known = _destinations.setdefault(name, factory)
        if known is not factory:
            raise ValueError(f"two screens are registered as {name!r}: {known.__qualname__} and {factory.__qualname__}")
        return factory

    return register


def family_screen(key: str) -> Callable[[F], F]:
    """Decorator: ``factory(app)`` builds the screen family ``key``'s home button opens."""
    return destination(key)


def kind_screen(kind: str) -> Callable[[F], F]:
    """Decorator: ``factory(app, mode)`` builds the screen that plays a mode of ``KIND`` ``kind``."""

    def register(factory: F) -> F:
        _kind_screens[kind] = factory
        return factory

    return register


def factory(name: str) -> Factory:
    """The factory of destination ``name`` (LookupError, naming it, if no screen registered it)."""
    try:
        return _destinations[name]
    except KeyError:
        raise LookupError(f"no screen is registered as {name!r} (known: {', '.join(sorted(_destinations))})") from None


def kind_factory(kind: str) -> KindFactory | None:
    """The factory of the screen that plays a restored mode of ``kind`` (None if there is none)."""
    return _kind_screens.get(kind)
