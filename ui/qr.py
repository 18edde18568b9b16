"""Take the game home: a QR code of the finished game (``engine.compact``) for a phone to open the
replay page with.

The code is drawn module by module with Kivy rectangles (dark on white, with the four-module quiet
zone the QR standard asks for), from the matrix ``segno`` makes: a pure-Python, maintained QR
encoder. ``[replay] url`` (``Settings.replay_url``) is where the club or the table's owner serves
``replay/index.html`` (any static host: the page needs nothing else); the game travels in the address's fragment, which a
browser never sends to the server.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import segno
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from engine.compact import REPLAY_URL

from . import theme
from .i18n import N_, i18n
from .widgets import TButton, TLabel, panel_background

QUIET = 4


def replay_address(code: str, base: str = REPLAY_URL, language: str = "en") -> str:
    """The replay page at ``base`` with the game ``code`` after "#"; ``language``, the one the table
    shows, as ``hl`` in its query (kept beside any query ``base`` has), for a phone that speaks
    none of the table's languages: the page then reads in the table's, not in English."""
    if language == "en":
        return f"{base}#{code}"
    parts = urllib.parse.urlsplit(base)
    query = urllib.parse.urlencode([*urllib.parse.parse_qsl(parts.query, keep_blank_values=True), ("hl", language)])
    return f"{urllib.parse.urlunsplit(parts._replace(query=query))}#{code}"


class QrCode(Widget):
    """A square QR code of ``text``, as big as the widget allows, on white."""

    def __init__(self, text: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = text
        self.qr = segno.make(text, error="m", micro=False)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        matrix = self.qr.matrix
        n = len(matrix) + 2 * QUIET
        module = max(1, int(min(self.width, self.height) // n))
        side = module * n
        x0 = int(self.x + (self.width - side) / 2)
        y0 = int(self.y + (self.height - side) / 2)
        self.canvas.clear()
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(pos=(x0, y0), size=(side, side))
            Color(0, 0, 0, 1)
            for row, bits in enumerate(matrix):
                y = y0 + (n - 1 - QUIET - row) * module
                col = 0
                while col < len(bits):  # one rectangle per run of dark modules
                    if bits[col]:
                        start = col
                        while col < len(bits) and bits[col]:
                            col += 1
                        Rectangle(pos=(x0 + (QUIET + start) * module, y), size=((col - start) * module, module))
                    else:
                        col += 1
        self.module_px = module


class TakeHome(FloatLayout):
    """The QR code over the screen, big, with what it is for, and a Close button (a tap anywhere
    closes it too: the button says that it can be closed)."""

    covers = True
    """It takes every touch in its box: what lies under it cannot be pressed (see :func:`ui.audit.crowded`)."""

    def __init__(self, text: str, caption: str = N_("Scan with your phone to replay this game."),
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        u = theme.unit()
        with self.canvas.before:
            Color(0, 0, 0, 0.75)
            self._shade = Rectangle()
        self.bind(pos=self._follow, size=self._follow)
        panel = BoxLayout(orientation="vertical", padding=u * 0.3, spacing=u * 0.15, size_hint=(None, 0.94),
                          pos_hint={"center_x": 0.5, "center_y": 0.5})
        panel_background(panel, theme.PANEL)
        self.code = QrCode(text)
        panel.add_widget(self.code)
        panel.add_widget(TLabel(msg=caption, scale=0.8, size_hint=(1, None), height=u * 0.9))
        self.close_button = TButton(msg=N_("Close"), scale=0.9, size_hint=(1, None), height=u * 1.0)
        panel.add_widget(self.close_button)
        self.panel = panel
        self.add_widget(panel)

    def _follow(self, *_args: Any) -> None:
        self._shade.pos, self._shade.size = self.pos, self.size
        self.panel.width = min(self.width * 0.9, self.height * 0.94 * 0.85)

    def on_touch_down(self, touch: Any) -> bool:
        if self.parent is not None:
            self.parent.remove_widget(self)
        return True


def add_take_home(screen: Any, record: dict[str, Any], base: str = REPLAY_URL) -> TButton:
    """A "Take it home" button beside a results screen's Home button, showing the game's QR code
    (the replay page at ``base``, in the table's language when it is tapped: staff may have
    switched it since the results opened)."""
    from engine.compact import encode, of_record

    game = encode(of_record(record))
    button = TButton(msg=N_("Take it home"), scale=0.9, bg=list(theme.rgb("#35607f")))
    button.bind(on_release=lambda *_: screen.add_widget(TakeHome(replay_address(game, base, i18n.language))))
    screen.home_button.parent.add_widget(button, index=len(screen.home_button.parent.children))
    screen.take_home_button = button
    return button
