"""What a screen may ask of the app: the :class:`Shell` protocol.

Every screen gets the app as a ``Shell`` (never as ``ui.app.KioskApp``): it reads the table's
:class:`ui.services.Services`, shows a screen, goes home, journals the mode in play after every
step, and the staff menu's few requests. :class:`ui.app.KioskApp` implements it; mypy checks that
wherever the app hands itself to a screen (``AttractScreen(self)``, ``screen_factory(name)(self)``...),
so a screen that asks for more than this fails the type check rather than a visitor's game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from engine.modes import Mode

from .services import Services

if TYPE_CHECKING:
    from kivy.uix.screenmanager import Screen

    from .modes import Family


class Shell(Protocol):
    """The app as its screens see it."""

    @property
    def services(self) -> Services:
        """The table's storage, devices, settings and players (given by the firmware)."""

    def show(self, screen: Screen) -> None:
        """Show ``screen``, replacing any screen of the same name."""

    def go_home(self) -> None:
        """Back to the home screen (the families)."""

    def wake(self) -> None:
        """Someone is back at the attract screen: to a saved game's resume card, else home."""

    def open(self, name: str, **args: Any) -> Screen:
        """Show the screen registered as ``name`` in :mod:`ui.navigation`, built with ``args``."""

    def open_family(self, fam: Family | str) -> Screen:
        """Show the family's own screen (its setup, or its list of puzzles)."""

    def journal(self, mode: Mode[Any]) -> None:
        """Save ``mode``'s whole state, so that a power cut resumes it (after every step)."""

    def discard(self) -> None:
        """Forget the game in progress and go home (a game that cannot go on)."""

    def forget_current(self) -> None:
        """Forget the game in progress, unfinished (a Leave, a Discard, staff's Clear), and all that
        spoke of it as being played here."""

    # ------------------------------------------------------------------ the staff menu

    staff_return: str
    """The screen the staff menu's Cancel and Close go back to ("home" once the game is cleared)."""

    @property
    def staff(self) -> Screen:
        """The staff menu (its sub-pages go back to it)."""

    def leave_staff(self) -> None:
        """Close the staff menu: back to :attr:`staff_return`, or home if that screen is gone."""

    def set_language(self, language: str) -> None:
        """Switch every word on screen to ``language`` and keep it as the table's language."""
