"""What the UI shows of the devices: a badge when one is missing, and, with simulated devices, the
LED rings drawn on screen and a control that acts as the tile reader."""

from __future__ import annotations

import math
from typing import Any, Callable

from kivy.graphics import Color, Ellipse, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from . import theme
from .i18n import N_, _, follow_language
from .services import DeviceStatus, RingFrames
from .widgets import TButton

DEVICE_NAMES = {"button": N_("Bag button"), "reader": N_("Tile reader"), "rings": N_("LED rings"),
                "storage": N_("Saving games")}


class StatusBadge(Label):
    """A small red badge naming the devices that are not working; hidden while all are fine. Its
    red is solid and its words are in the ink that reads best on it (:func:`ui.theme.ink_on`):
    light words on it read at 3.4 : 1, under the 4.5 the audit asks for."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(color=theme.ink_on(theme.BAD), bold=True, halign="right", valign="middle", **kwargs)
        self.failing: dict[str, DeviceStatus] = {}
        with self.canvas.before:
            self._colour = Color(*theme.BAD)
            self._bg = RoundedRectangle(radius=[theme.unit() * 0.15])
        self.bind(pos=self._follow, size=self._follow, texture_size=self._follow)
        follow_language(self, lambda badge: badge._refresh())
        self._refresh()

    def update(self, status: DeviceStatus) -> None:
        if status.ok:
            self.failing.pop(status.name, None)
        else:
            self.failing[status.name] = status
        self._refresh()

    def _refresh(self) -> None:
        names = [_(DEVICE_NAMES.get(n, n)) for n in sorted(self.failing)]
        self.text = _("Not working: {devices}", devices=", ".join(names)) if names else ""
        self.font_size = theme.font(0.7)
        self.opacity = 1 if names else 0
        self._follow()

    def _follow(self, *_args: Any) -> None:
        self.texture_update()
        pad = theme.unit() * 0.2
        width = self.texture_size[0] + 2 * pad
        self.size = (width, theme.unit() * 0.7)
        parent = self.parent
        if parent is not None:
            self.pos = (parent.right - width - pad, parent.top - self.height - pad)
        self._bg.pos, self._bg.size = self.pos, self.size

    def on_touch_down(self, touch: Any) -> bool:
        return False


class RingsView(Widget):
    """The LED rings as rings of dots, as the last RingFrames showed them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.frames: RingFrames | None = None
        self.bind(pos=self._draw, size=self._draw)

    def show(self, frames: RingFrames) -> None:
        self.frames = frames
        self._draw()

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        frames = self.frames
        if frames is None or not frames.rings:
            return
        n = len(frames.rings)
        radius = min(self.height / 2 * 0.9, self.width / n / 2 * 0.9)
        with self.canvas:
            for i, ring in enumerate(frames.rings):
                cx = self.x + self.width * (i + 0.5) / n
                cy = self.center_y
                dot = max(2.0, radius * 0.28)
                for k, (r, g, b) in enumerate(ring):
                    a = math.radians(90 - 360 * k / max(len(ring), 1))
                    Color(max(r, 25) / 255, max(g, 25) / 255, max(b, 25) / 255, 1)
                    Ellipse(pos=(cx + radius * 0.75 * math.cos(a) - dot / 2, cy + radius * 0.75 * math.sin(a) - dot / 2),
                            size=(dot, dot))


class SimulatedPanel(BoxLayout):
    """Desktop controls for simulated devices: the rings, and "scan tile" (a tile number and a
    reader). The space bar is the bag button (see :class:`ui.app.KioskApp`). A strip across the
    bottom of the window, under the screens (the app lays them out above it): a maker's first look
    at the table on a laptop, so it covers none of their buttons, and its own are fingertip-sized
    and a finger's gap apart as the kiosk's are. The rings take what room the row has left."""

    READERS = (N_("Centre"), N_("Seat 1"), N_("Seat 2"), N_("Seat 3"), N_("Seat 4"))

    def __init__(self, scan: Callable[[int, int | None], None], **kwargs: Any) -> None:
        u = theme.unit()
        pad = u * 0.1
        super().__init__(orientation="horizontal", spacing=theme.min_gap(), padding=pad, size_hint=(1, None),
                         height=theme.min_target() + 2 * pad, **kwargs)
        with self.canvas.before:
            Color(0, 0, 0, 0.6)
            self._bg = RoundedRectangle(radius=[u * 0.15])
        self.bind(pos=self._follow, size=self._follow)
        self.rings = RingsView(size_hint=(1, 1))
        self.add_widget(self.rings)
        self.tile_input = TextInput(hint_text="1-56", multiline=False, input_filter="int",
                                    size_hint=(None, 1), width=u * 1.2, font_size=theme.font(0.7))
        self.add_widget(self.tile_input)
        # a tap steps to the next reader: Kivy's Spinner opened its list again while it was still
        # closing when a second finger tapped it (bench/ui_monkey.py), and the app stopped
        self.reader_index = 0
        self.reader = TButton(msg=self.READERS[0], scale=0.62, size_hint=(None, 1), width=u * 1.9)
        self.reader.bind(on_release=lambda *_: self.next_reader())
        self.add_widget(self.reader)
        self.scan_button = TButton(msg=N_("Scan tile"), scale=0.62, size_hint=(None, 1), width=u * 1.8)
        self.scan_button.bind(on_release=lambda *_: self._scan(scan))
        self.add_widget(self.scan_button)
        # the smallest words a maker reads (theme.min_text: 0.62 of the body's size on the denser
        # portrait panel), two lines wrapped to their width
        self.hint = Label(font_size=theme.font(0.62), color=theme.TEXT_DIM, size_hint=(None, 1), width=u * 3.4,
                          halign="left", valign="middle")
        self.hint.bind(size=lambda hint, size: setattr(hint, "text_size", size))
        self.add_widget(self.hint)
        follow_language(self, lambda panel: panel._retranslate())
        self._retranslate()

    def next_reader(self) -> None:
        """The next reader (the centre pad, then the seats, then the centre again)."""
        self.reader_index = (self.reader_index + 1) % len(self.READERS)
        self.reader.msg = self.READERS[self.reader_index]

    def _retranslate(self) -> None:
        self.hint.text = _("Space bar: bag button\n(hold: staff menu)")

    def _scan(self, scan: Callable[[int, int | None], None]) -> None:
        try:
            tile = int(self.tile_input.text)
        except ValueError:
            return
        if not 1 <= tile <= 56:
            return
        scan(tile, None if self.reader_index == 0 else self.reader_index - 1)

    def _follow(self, *_args: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
