"""Cards that ask or tell one thing: the interrupted-game prompt."""

from __future__ import annotations

from typing import Any, Callable

from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from .. import theme
from ..i18n import N_
from ..widgets import Confirm, TButton, TLabel, panel_background


def card(screen: Screen, *rows: Any, buttons: list[TButton]) -> BoxLayout:
    """Put a centred card holding ``rows`` and a row of ``buttons`` on ``screen``."""
    u = theme.unit()
    outer = AnchorLayout()
    panel_background(outer, theme.TABLE_DARK, radius=0)
    box = BoxLayout(orientation="vertical", size_hint=(0.82, 0.8), padding=u * 0.4, spacing=u * 0.25)
    panel_background(box)
    for row in rows:
        box.add_widget(row)
    bar = BoxLayout(size_hint=(1, None), height=u * 1.5, spacing=u * 0.4)
    for button in buttons:
        bar.add_widget(button)
    box.add_widget(bar)
    outer.add_widget(box)
    screen.add_widget(outer)
    return box


class ResumeScreen(Screen):
    """"A game was interrupted — resume?" with Resume and Discard."""

    def __init__(self, on_resume: Callable[[], None], on_discard: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(name="resume", **kwargs)
        self.title = TLabel(msg=N_("A game was interrupted"), scale=1.6, bold=True)
        self.detail = TLabel(msg=N_("The table was switched off during a game. Resume it where it stopped?"))
        self.resume_button = TButton(msg=N_("Resume"), bg=list(theme.rgb("#2e7d32")), scale=1.2)
        self.discard_button = TButton(msg=N_("Discard"), bg=list(theme.rgb("#8e2b2b")), scale=1.2)
        self._on_discard = on_discard
        self.resume_button.bind(on_release=lambda *_: on_resume())
        self.discard_button.bind(on_release=lambda *_: self.discard())
        card(self, self.title, self.detail, buttons=[self.discard_button, self.resume_button])

    def discard(self) -> None:
        """Discard asks first while the game can be resumed: a passer's stray touch must not end a
        family's game (as Leave asks during play); a game that cannot be read goes at once."""
        if self.resume_button.disabled:
            self._on_discard()
        else:
            self.add_widget(Confirm(N_("Discard this game? It cannot be resumed."), N_("Discard"), N_("Keep it"),
                                    self._on_discard))

    def cannot_resume(self, reason: str) -> None:
        """The saved game could not be restored: say so and leave only Discard."""
        self.title.msg = N_("This game cannot be resumed")
        self.detail.msg = N_("The saved game could not be read ({reason}). Discard it to play again.")
        self.detail.values = {"reason": reason}
        self.resume_button.disabled = True
        self.resume_button.opacity = 0
