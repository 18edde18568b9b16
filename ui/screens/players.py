"""Who sits at a seat: a guest, one of the table's players (big name buttons, newest first), or a
new player made on the spot with the table's own keyboard and an avatar.

The screens talk to the players book the firmware hands the UI (``services.players``, see
:class:`ui.services.PlayerBook`); names are checked by ``engine.players`` and a refusal is shown
as the book words it, so one place decides what a name may be.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from kivy.graphics import Color, Line, Mesh
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.players import ACCENTED, COLOURS, DEFAULT_AVATAR, NAME_MAX, SYMBOLS, BadName, Player

from .. import theme
from ..i18n import N_, i18n
from ..widgets import Chip, TButton, TightGroup, TLabel, panel_background, scrolling_grid

KEY_ROWS = ("QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM-.")
NAME_RULES = {
    "empty": N_("A name needs at least one letter."),
    "too-long": N_("A name has at most {max} characters."),
    "characters": N_("A name cannot contain {chars}"),
    "taken": N_("{name} is already a player here: pick that name, or another one."),
}
"""What the player reads when ``engine.players`` refuses a name, by the rule it breaks."""


def symbol_points(symbol: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The outline of an avatar symbol of radius ``r`` around (cx, cy)."""
    def ring(n: int, start: float, radius: float = r) -> list[tuple[float, float]]:
        return [(cx + radius * math.cos(start + 2 * math.pi * i / n), cy + radius * math.sin(start + 2 * math.pi * i / n))
                for i in range(n)]

    if symbol == "square":
        return ring(4, math.pi / 4, r * 1.05)
    if symbol == "triangle":
        return ring(3, math.pi / 2, r * 1.1)
    if symbol == "diamond":
        return ring(4, math.pi / 2)
    if symbol == "hexagon":
        return ring(6, 0)
    if symbol == "star":
        outer, inner = ring(5, math.pi / 2, r * 1.1), ring(5, math.pi / 2 + math.pi / 5, r * 0.45)
        return [p for pair in zip(outer, inner) for p in pair]
    return ring(32, 0)


class AvatarMark(Widget):
    """A player's avatar: a symbol in the player's colour (two cues, never colour alone)."""

    def __init__(self, avatar: str = DEFAULT_AVATAR, selected: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.avatar, self.selected = avatar, selected
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        colour, _, symbol = self.avatar.partition(":")
        r = min(self.width, self.height) * 0.36
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        points = symbol_points(symbol, cx, cy, r)
        vertices = [cx, cy, 0, 0]
        for x, y in [*points, points[0]]:
            vertices += [x, y, 0, 0]
        self.canvas.clear()
        with self.canvas:
            if self.selected:
                Color(*theme.CHOSEN)
                Line(circle=(cx, cy, min(self.width, self.height) * 0.48), width=max(2.0, r * 0.12))
            Color(*(c / 255 for c in COLOURS.get(colour, COLOURS["grey"])))
            Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)), mode="triangle_fan")
            Color(*theme.TABLE_DARK)
            Line(points=[c for p in [*points, points[0]] for c in p], width=1.2)


class Avatar(ButtonBehavior, AvatarMark):
    """An avatar to tap (the new player's choice of colour and symbol)."""

    def __init__(self, avatar: str = DEFAULT_AVATAR, selected: bool = False, **kwargs: Any) -> None:
        super().__init__(avatar=avatar, selected=selected, **kwargs)


class PlayerButton(TButton):
    """A big name button with the player's avatar at its left."""

    def __init__(self, player: Player, **kwargs: Any) -> None:
        super().__init__(text=player.name, **kwargs)
        self.player = player
        self.avatar = AvatarMark(player.avatar)  # a mark, not a button: a tap on it is the name's
        self.add_widget(self.avatar)
        self.bind(pos=self._place_avatar, size=self._place_avatar)
        self.padding = [0, 0, 0, 0]

    def _place_avatar(self, *_args: Any) -> None:
        side = self.height * 0.8
        self.avatar.size = (side, side)
        self.avatar.pos = (self.x + self.height * 0.1, self.y + self.height * 0.1)
        self.text_size = (max(1, self.width), None)  # the lines: what the padding leaves, the avatar's left
        self.padding = [self.height * 0.95, 0, self.height * 0.1, 0]


def _top_bar(title: str, on_back: Callable[[], None], u: float) -> tuple[BoxLayout, TLabel]:
    top = BoxLayout(size_hint=(1, None), height=u * 1.15, spacing=u * 0.25)
    back = TButton(msg=N_("Back"), scale=0.95, size_hint=(None, 1), width=u * 2.6)
    back.bind(on_release=lambda *_: on_back())
    top.add_widget(back)
    heading = TLabel(msg=title, scale=1.3, bold=True, halign="left")
    top.add_widget(heading)
    return top, heading


class PlayerPickerScreen(Screen):
    """Pick who sits at a seat: ``on_pick(player)`` with a :class:`Player`, or None for a guest."""

    def __init__(self, book: Any, on_pick: Callable[[Player | None], None], on_back: Callable[[], None],
                 **kwargs: Any) -> None:
        super().__init__(name="players-pick", **kwargs)
        u = theme.unit()
        self.book, self._on_pick, self._on_back = book, on_pick, on_back
        root = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.25)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, self.heading = _top_bar(N_("Who sits here?"), on_back, u)
        root.add_widget(top)
        scroll, self.grid = scrolling_grid(3, u * 1.3, u * 0.2)
        root.add_widget(scroll)
        self.add_widget(root)
        # names on two lines at most, a word never broken: fewer, wider buttons on a narrow panel
        self.bind(width=lambda *_: setattr(self.grid, "cols", 4 if self.width > u * 20 else 3 if self.width > u * 12
                                           else 2))
        self.refresh()

    def refresh(self) -> None:
        """The buttons as the book is now (a player just made comes first)."""
        self.grid.clear_widgets()
        guest = TButton(msg=N_("Guest"), subtitle=N_("not on the ladder"), scale=1.0, bg=list(theme.rgb("#35607f")))
        guest.bind(on_release=lambda *_: self._on_pick(None))
        self.grid.add_widget(guest)
        new = TButton(msg=N_("New player"), scale=1.0, bold=True, bg=list(theme.GO))
        new.bind(on_release=lambda *_: self.new_player())
        self.grid.add_widget(new)
        self.buttons: list[PlayerButton] = []
        for player in self.book.all():
            button = PlayerButton(player, scale=1.0)
            button.bind(on_release=lambda b: self._on_pick(b.player))
            self.grid.add_widget(button)
            self.buttons.append(button)

    def new_player(self) -> None:
        from kivy.app import App

        app = App.get_running_app()

        def made(player: Player) -> None:
            self.refresh()
            self._on_pick(player)

        app.show(NewPlayerScreen(self.book, on_made=made, on_back=lambda: app.show(self)))


class NewPlayerScreen(Screen):
    """A name typed on the table's keyboard (letters of the four languages; the accent row follows
    the language chosen, and each language's accents stay one tap away), and an avatar."""

    def __init__(self, book: Any, on_made: Callable[[Player], None], on_back: Callable[[], None],
                 renaming: Player | None = None, **kwargs: Any) -> None:
        super().__init__(name="players-new", **kwargs)
        u = theme.unit()
        self.book, self._on_made, self.renaming = book, on_made, renaming
        self.name_text = renaming.name if renaming else ""
        self.upper = not self.name_text
        self.accents = i18n.language if i18n.language in ACCENTED else "fr"
        self.avatar = renaming.avatar if renaming else DEFAULT_AVATAR
        root = BoxLayout(orientation="vertical", padding=[u * 0.25, u * 0.2], spacing=theme.min_gap())
        panel_background(root, theme.TABLE_DARK, radius=0)
        top, _heading = _top_bar(N_("Rename") if renaming else N_("New player"), on_back, u)
        self.shown = TLabel(text="", scale=1.2, bold=True, halign="left", padding=[u * 0.2, 0])
        panel_background(self.shown, theme.PANEL, radius=0.15)
        top.add_widget(self.shown)
        self.ok = TButton(msg=N_("OK"), scale=1.0, bold=True, bg=list(theme.GO), size_hint=(None, 1), width=u * 2.2)
        self.ok.bind(on_release=lambda *_: self.submit())
        top.add_widget(self.ok)
        root.add_widget(top)
        self.message = TLabel(text="", scale=0.75, color=theme.ACCENT, size_hint=(1, None), height=u * 0.5)
        root.add_widget(self.message)
        # keys a fingertip wide (9 mm): a row too long for the panel (the portrait one) is split in two
        self.across = max(5, int((Window.width - u * 0.5 + u * 0.1) // (theme.min_target() + u * 0.1)))
        self.keys: dict[str, TButton] = {}
        self.keyboard = TightGroup(orientation="vertical", spacing=u * 0.12)  # its keys: one keyboard
        root.add_widget(self.keyboard)
        for row in KEY_ROWS:
            keys: list[Widget] = [self._key(char) for char in row]
            if row == KEY_ROWS[-1]:
                erase = TButton(msg=N_("Erase"), scale=0.8, bg=list(theme.STOP), size_hint=(1.6, 1))
                erase.bind(on_release=lambda *_: self.erase())
                keys.append(erase)
            self._lay_out(self.keyboard, keys)
        self.accent_rows = BoxLayout(orientation="vertical", spacing=u * 0.12)
        self.keyboard.add_widget(self.accent_rows)
        self.avatars = TightGroup(spacing=u * 0.1, size_hint=(1, 1.1))
        root.add_widget(self.avatars)
        self.symbols = self.avatars  # the symbols beside the colours, or under them when the panel is narrow
        if len(COLOURS) + len(SYMBOLS) + 1 > self.across:
            self.symbols = TightGroup(spacing=u * 0.1, size_hint=(1, 1.1))
            root.add_widget(self.symbols)
        self.add_widget(root)
        self._fill_accents()
        self._fill_avatars()
        self._show()

    # ------------------------------------------------------------------ typing

    def _lay_out(self, into: BoxLayout, keys: list[Widget]) -> None:
        """``keys`` as one row of ``into``, or as two or more as even as can be when they do not fit
        across the panel a fingertip wide each."""
        rows = -(-len(keys) // self.across)
        size = -(-len(keys) // rows)
        for start in range(0, len(keys), size):
            line = BoxLayout(spacing=theme.unit() * 0.1)
            for key in keys[start:start + size]:
                line.add_widget(key)
            into.add_widget(line)

    def _key(self, char: str, **kwargs: Any) -> TButton:
        key = TButton(text=char, scale=1.0, **kwargs)
        key.char = char
        key.bind(on_release=lambda b: self.type(b.char))
        self.keys[char] = key
        return key

    def type(self, char: str) -> None:
        """One key: letters come capitalised at the start of each word, small after."""
        if len(self.name_text) >= NAME_MAX:
            return
        letter = char.upper() if self.upper else char.lower()
        self.name_text += letter
        self.upper = char in " -"
        self._show()

    def erase(self) -> None:
        self.name_text = self.name_text[:-1]
        self.upper = not self.name_text or self.name_text[-1] in " -"
        self._show()

    def _fill_accents(self) -> None:
        """The accents of the chosen language: up to ten on their own row, the rest beside the
        language chips and Space (so every key stays a finger wide at 800x480; the portrait panel
        splits each row in two)."""
        for char in set(self.keys) - set("".join(KEY_ROWS)):
            del self.keys[char]
        self.accent_rows.clear_widgets()
        letters = ACCENTED[self.accents]
        self._lay_out(self.accent_rows, [self._key(char) for char in letters[:10]])
        row: list[Widget] = []
        for code in ACCENTED:
            chip = Chip(text=code.upper(), value=code, scale=0.75, selected=code == self.accents)
            chip.bind(on_release=lambda _b, c=code: self._switch_accents(c))
            row.append(chip)
        row.extend(self._key(char) for char in letters[10:])
        space = TButton(msg=N_("Space"), scale=0.8, size_hint=(2.5, 1))
        space.bind(on_release=lambda *_: self.type(" "))
        self._lay_out(self.accent_rows, [*row, space])
        self.accent_rows.size_hint_y = len(self.accent_rows.children)  # a key row's height each
        self.keyboard.size_hint_y = sum(row.size_hint_y for row in self.keyboard.children)

    def _switch_accents(self, code: str) -> None:
        self.accents = code
        self._fill_accents()
        self._show()

    def _show(self) -> None:
        self.shown.text = (self.name_text or "") + "_"
        for char, key in self.keys.items():
            key.text = char.upper() if self.upper else char.lower()

    # ------------------------------------------------------------------ avatar, OK

    def _fill_avatars(self) -> None:
        self.avatars.clear_widgets()
        self.symbols.clear_widgets()
        colour, _, symbol = self.avatar.partition(":")
        for name in COLOURS:
            a = Avatar(f"{name}:{symbol}", selected=name == colour)
            a.bind(on_release=lambda _a, n=name: self.choose_avatar(f"{n}:{symbol}"))
            self.avatars.add_widget(a)
        self.symbols.add_widget(Widget(size_hint=(0.3 if self.symbols is self.avatars else 1, 1)))
        for name in SYMBOLS:
            a = Avatar(f"{colour}:{name}", selected=name == symbol)
            a.bind(on_release=lambda _a, n=name: self.choose_avatar(f"{colour}:{n}"))
            self.symbols.add_widget(a)
        if self.symbols is not self.avatars:
            self.symbols.add_widget(Widget())  # the symbols centred under the colours

    def choose_avatar(self, avatar: str) -> None:
        self.avatar = avatar
        self._fill_avatars()

    def submit(self) -> None:
        try:
            if self.renaming is not None:
                player = self.book.rename(self.renaming.id, self.name_text, self.avatar)
            else:
                player = self.book.create(self.name_text, self.avatar)
        except BadName as refused:
            self.message.say(NAME_RULES.get(refused.rule, "{reason}"), reason=str(refused), **refused.values)
            return
        self._on_made(player)
