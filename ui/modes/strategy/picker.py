"""Saying by touch which tile was drawn from the real bag, for a draw no reader reports: the
reader is missing or lost, the tile's tag is one the table has not learnt, or it does not read.

The player holding the tile sees the tiles still in the bag as pictures, in number order (the
number is printed on each tile's back), a page at a time, each a fingertip target; they touch the
one in their hand (it turns amber) and take it. Nothing here decides which tiles may be drawn: the
screen hands the picker the game's own list (:meth:`engine.strategy.game.StrategyGame.unseen`) and
reports the choice as it reports a scan (:meth:`ui.modes.strategy.play.StrategyScreen.report_draw`),
so the game judges, journals and records it exactly as a scanned draw.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from kivy.graphics import Color, Quad, RoundedRectangle
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scatter import Scatter
from kivy.uix.widget import Widget

from ... import theme, tileart
from ...hexes import SQRT3, rotated_quad
from ...i18n import N_
from ...results import IconButton
from ...widgets import TButton, TightGrid, TLabel, panel_background

CELL_HEIGHT = 1.3
"""A choice's height as a share of its width: the tile's picture, and its number under it."""


class TileChoice(ButtonBehavior, Widget):
    """One tile still in the bag: its face, its number under it, on amber while it is chosen."""

    tile = NumericProperty(0)
    chosen = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._back_colour = Color(*theme.BUTTON)
            self._back = RoundedRectangle(radius=[theme.unit() * 0.15])
            Color(1, 1, 1, 1)
            self._face = Quad(points=[0.0] * 8)
        self.number = Label(bold=True, halign="center", valign="middle")
        self.add_widget(self.number)
        self.bind(pos=self._draw, size=self._draw, tile=self._draw, chosen=self._draw)

    def _draw(self, *_args: Any) -> None:
        if not self.tile:
            return
        w, h = self.size
        self._back.pos, self._back.size = self.pos, self.size
        self._back_colour.rgba = theme.CHOSEN if self.chosen else theme.BUTTON
        label_h = h * 0.3
        radius = min(w * 0.92 / SQRT3, (h - label_h) * 0.92 / 2)
        cx, cy = self.center_x, self.y + label_h + (h - label_h) / 2
        self._face.texture = tileart.face(int(self.tile), radius)
        self._face.points = rotated_quad(cx, cy, radius, 0)
        number = self.number
        number.text = str(self.tile)
        number.font_size = label_h * 0.72
        number.color = theme.ON_CHOSEN if self.chosen else theme.TEXT
        number.pos, number.size = self.pos, (w, label_h)
        number.text_size = number.size


class DrawPicker(Scatter):
    """A card facing the player who draws: the tiles of ``tiles()`` (the bag, read again on each
    :meth:`update`) a page at a time, **Close**, the arrows to the other pages, and **Take tile
    n**, which calls ``on_take(n)`` once a tile is chosen. The screen turns it to face the player
    and gives it its length and room (:meth:`lay_out`); a touch anywhere on it stays on it (the
    board under it is not touched)."""

    covers = True
    """It takes every touch in its box: what lies under it cannot be pressed (see :func:`ui.audit.crowded`)."""

    def __init__(self, tiles: Callable[[], Sequence[int]], on_take: Callable[[int], None],
                 on_close: Callable[[], None], title: str = N_("Pick the tile you drew"), **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                         auto_bring_to_front=False, **kwargs)
        u = theme.unit()
        self._tiles, self._on_take = tiles, on_take
        self.shown: list[int] = list(tiles())
        """The tiles the picker offers now (the bag, when it was last read)."""
        self.chosen: int | None = None
        self.page = 0
        self.per_page = 1
        self.box = BoxLayout(orientation="vertical", padding=u * 0.15, spacing=theme.min_gap())  # Close, Take a finger off the tiles
        panel_background(self.box, theme.rgb("#1d2530"), radius=0.25)
        self.header = BoxLayout(spacing=u * 0.15, size_hint=(1, None))
        self.title = TLabel(msg=title, scale=0.85, bold=True, halign="left")
        self.close_button = TButton(msg=N_("Close"), scale=0.8, size_hint=(None, 1))
        self.close_button.bind(on_release=lambda *_: on_close())
        self.grid = TightGrid(size_hint=(1, None))  # choices: a slip is put right by the next touch
        self.footer = BoxLayout(spacing=u * 0.15, size_hint=(1, None))
        self.back_button = IconButton(icon="back", size_hint=(None, 1))
        self.next_button = IconButton(icon="next", size_hint=(None, 1))
        self.back_button.bind(on_release=lambda *_: self.show_page(self.page - 1))
        self.next_button.bind(on_release=lambda *_: self.show_page(self.page + 1))
        self.range_label = TLabel(msg="", scale=0.75, color=theme.TEXT_DIM, size_hint=(None, 1))
        self.take_button = TButton(msg=N_("Take tile {tile}"), values={"tile": ""}, scale=0.85, bold=True,
                                   bg=list(theme.GO), size_hint=(None, 1))
        self.take_button.bind(on_release=lambda *_: self.take())
        self.box.add_widget(self.header)
        self.box.add_widget(self.grid)
        self.add_widget(self.box)
        self.choices: list[TileChoice] = []
        self.laid_for: tuple[float, float] | None = None
        """The (length, room) of the last :meth:`lay_out`."""

    def lay_out(self, length: float, room: float) -> None:
        """Size the card ``length`` along its player's edge and as deep as its rows of choices
        need, at most ``room`` (unturned: the screen turns and places it), with as many choices a
        page as fit at fingertip size and no more rows than the whole bag fills. Where the card is
        long and shallow (a side seat of the portrait panel) the title, the arrows and **Take**
        share one row, which leaves the tiles another row."""
        u, finger = theme.unit(), theme.min_target()
        row = max(u * 1.0, finger + 2)
        cell = max(finger * 1.15, u * 1.1)
        high, gap = cell * CELL_HEIGHT, u * 0.1
        pad, spacing = self.box.padding[0], self.box.spacing
        inner = length - 2 * pad
        self.close_button.width = max(u * 2.0, finger)
        self.take_button.width = min(max(u * 3.2, finger), inner * 0.5)
        self.back_button.width = self.next_button.width = max(u * 0.9, finger)
        cols = max(int((inner + gap) // (cell + gap)), 1)
        needed = max(math.ceil(len(self.shown) / cols), 1)

        def rows(bars: int) -> int:
            fit = int((room - 2 * pad - bars * (row + spacing) + gap) // (high + gap))
            return max(min(fit, needed), 1)

        controls = self.close_button.width + self.take_button.width + 2 * self.back_button.width
        joined = inner - controls - 4 * self.header.spacing >= u * 3.5 and rows(1) > rows(2)
        count = rows(1 if joined else 2)
        self._arrange(joined, inner)
        self.laid_for = (length, room)
        self.rotation = 0.0
        depth = 2 * pad + (1 if joined else 2) * (row + spacing) + count * high + (count - 1) * gap
        self.size = self.box.size = (length, depth)
        self.box.pos = (0, 0)
        self.header.height = self.footer.height = row
        self.grid.cols, self.grid.spacing = cols, gap
        self.grid.padding = (max((inner - cols * cell - (cols - 1) * gap) / 2, 0), 0)
        self.grid.row_force_default, self.grid.row_default_height = True, high
        self.grid.col_force_default, self.grid.col_default_width = True, cell
        self.grid.height = count * high + (count - 1) * gap
        self.per_page = cols * count
        self.choices = [TileChoice(size_hint=(None, None), size=(cell, high)) for _ in range(self.per_page)]
        for choice in self.choices:
            choice.bind(on_release=lambda c: self.choose(int(c.tile)))
        self.update()

    def _arrange(self, joined: bool, inner: float) -> None:
        """The title and **Close** above the tiles, and under them the arrows, the page's first
        and last numbers (where the row has room for them) and **Take**; or (``joined``) the
        title, the arrows, **Take** and **Close** in one row above them."""
        u = theme.unit()
        for bar in (self.header, self.footer):
            bar.clear_widgets()
        if self.footer.parent is not None:
            self.box.remove_widget(self.footer)
        nav = (self.back_button, self.range_label, self.next_button)
        room = inner - self.take_button.width - 2 * self.back_button.width - 4 * self.footer.spacing
        self.range_label.width = room if room >= u * 2.4 and not joined else 0.0
        self.range_label.opacity = 1 if self.range_label.width else 0
        if joined:
            for widget in (self.title, *nav, self.take_button, self.close_button):
                self.header.add_widget(widget)
            return
        for widget in (self.title, self.close_button):
            self.header.add_widget(widget)
        for widget in (*nav, Widget(), self.take_button):
            self.footer.add_widget(widget)
        self.box.add_widget(self.footer)

    def update(self) -> None:
        """Read the bag again (a tile just drawn is offered no more) and show the page with the
        tile chosen, else the page shown, as far as there still is one."""
        self.shown = list(self._tiles())
        if self.chosen not in self.shown:
            self.chosen = None
        page = self.shown.index(self.chosen) // self.per_page if self.chosen is not None else self.page
        self.show_page(page)

    @property
    def pages(self) -> int:
        return max(math.ceil(len(self.shown) / self.per_page), 1)

    def show_page(self, page: int) -> None:
        """Show page ``page`` (0 first) of the tiles, clamped to the pages there are."""
        self.page = min(max(page, 0), self.pages - 1)
        first = self.page * self.per_page
        tiles = self.shown[first:first + self.per_page]
        self.grid.clear_widgets()
        for choice, tile in zip(self.choices, tiles):
            choice.tile, choice.chosen = tile, tile == self.chosen
            self.grid.add_widget(choice)
        several = self.pages > 1
        for button, usable in ((self.back_button, self.page > 0), (self.next_button, self.page < self.pages - 1)):
            button.opacity = 1 if several else 0
            button.disabled = not (several and usable)
        if tiles:
            self.range_label.values = {"first": tiles[0], "last": tiles[-1]}
            self.range_label.msg = N_("Tiles {first} to {last}")
        self._show_take()

    def choose(self, tile: int) -> None:
        """``tile`` is the one in the player's hand (not taken yet: a slip of the finger is put
        right with another touch)."""
        self.chosen = tile
        for choice in self.choices:
            choice.chosen = choice.tile == tile
        self._show_take()

    def _show_take(self) -> None:
        chosen = self.chosen
        self.take_button.disabled = chosen is None
        self.take_button.msg = N_("Take tile {tile}") if chosen is not None else N_("Take it")
        self.take_button.values = {"tile": chosen if chosen is not None else ""}

    def take(self) -> None:
        if self.chosen is not None:
            self._on_take(self.chosen)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        super().on_touch_down(touch)
        return True
