"""The home screen: one big button per game family, and the language flags (on a portrait panel
the heading has a row of its own and the buttons stand in two columns)."""

from __future__ import annotations

from typing import Any, Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from .. import theme
from ..i18n import N_
from ..modes import FAMILIES, Family
from ..widgets import FlagBar, TButton, TLabel, panel_background


class HomeScreen(Screen):
    """Pick a game. ``on_family(family)`` opens it; ``on_language(code)`` switches language."""

    def __init__(self, on_family: Callable[[Family], None], on_language: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(name="home", **kwargs)
        u = theme.unit()
        root = BoxLayout(orientation="vertical", padding=[u * 0.3, u * 0.2, u * 0.3, u * 0.3], spacing=u * 0.2)
        panel_background(root, theme.TABLE_DARK, radius=0)
        from kivy.core.window import Window

        portrait = Window.height > Window.width  # the heading gets a row of its own, the grid 2 columns
        top = BoxLayout(size_hint=(1, None), height=u * 1.2, spacing=u * 0.3)
        top.add_widget(BoxLayout(size_hint=(None, 1), width=u * 1.0))  # keep the staff corner clear
        self.heading = TLabel(msg=N_("Choose a game"), scale=1.5, bold=True, halign="left")
        # narrower flags upright: the row also holds the staff corner and the Ladder (a kiosk's players)
        self.flags = FlagBar(on_language, size_hint=(None, 1), width=u * (1.3 if portrait else 1.55) * 4)
        if portrait:
            top.add_widget(Widget())
            top.add_widget(self.flags)
            root.add_widget(top)
            self.heading.size_hint_y, self.heading.height, self.heading.halign = None, u * 1.2, "center"
            root.add_widget(self.heading)
        else:
            top.add_widget(self.heading)
            top.add_widget(self.flags)
            root.add_widget(top)
        grid = GridLayout(cols=2 if portrait else 4, spacing=u * 0.25)
        self.buttons: dict[str, TButton] = {}
        for fam in FAMILIES:
            button = TButton(msg=fam.title, subtitle=fam.players, scale=1.3, bold=True,
                             bg=list(theme.FAMILY_COLOURS[fam.key]))
            button.bind(on_release=lambda _b, f=fam: on_family(f))
            grid.add_widget(button)
            self.buttons[fam.key] = button
        root.add_widget(grid)
        self.add_widget(root)
