"""Take the game home: a QR code of the finished game (``engine.compact``) for a phone to open the
replay page with.

The code is drawn module by module with Kivy rectangles (dark on white, with the four-module quiet
zone the QR standard asks for), from the matrix ``segno`` makes: a pure-Python, maintained QR
encoder. ``REPLAY_URL`` is where the club or the table's owner serves ``replay/index.html`` (any
static host: the page needs nothing else); the game travels in the address's fragment, which a
browser never sends to the server.
"""

from __future__ import annotations

from typing import Any

import segno
from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget

REPLAY_URL = "https://tantrix-table.github.io/replay/"
QUIET = 4


def replay_address(code: str, base: str = REPLAY_URL) -> str:
    return f"{base}#{code}"


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
