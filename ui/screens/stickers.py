"""Staff menu page "Write stickers": tile numbers written on blank NFC stickers, one after another.

Staff pick the first number (1 for a new set), press Start, then put blank stickers on the reader
one by one: each becomes the next tile, and the page says so in big type, so the sticker goes
under the right tile. A set prepared once plays on every table, with no enrolment. Progress
arrives as ``StickerProgress`` events (:meth:`StickerPage.show`); a reader that cannot write
(an RDM6300, a seat controller) says so here instead.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from .. import theme
from ..i18n import N_
from ..services import Devices, StickerProgress
from ..widgets import TButton, TLabel

LAST_TILE = 56


class StickerPage(BoxLayout):
    """The page's widgets; ``show(progress)`` for each ``StickerProgress``."""

    def __init__(self, devices: Devices, progress: StickerProgress | None = None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=theme.unit() * 0.25, **kwargs)
        u = theme.unit()
        self.devices = devices
        self.first_tile = 1
        self.headline = TLabel(msg="", scale=1.5, bold=True, size_hint=(1, None), height=u * 1.6)
        self.add_widget(self.headline)
        self.detail = TLabel(msg="", size_hint=(1, None), height=u * 1.2)
        self.add_widget(self.detail)
        self.less = TButton(text="-", scale=1.4, size_hint=(None, 1), width=u * 1.3)
        self.more = TButton(text="+", scale=1.4, size_hint=(None, 1), width=u * 1.3)
        self.less.bind(on_release=lambda *_: self._choose(-1))
        self.more.bind(on_release=lambda *_: self._choose(+1))
        self.start = TButton(msg=N_("Write"), bg=list(theme.rgb("#2e7d32")))
        self.stop = TButton(msg=N_("Stop"))
        self.start.bind(on_release=lambda *_: self.devices.start_writing(self.first_tile))
        self.stop.bind(on_release=lambda *_: self._stop())
        # a portrait panel's page is too narrow for four buttons a row: Write and Stop go below
        rows = ((self.less, self.more), (self.start, self.stop)) if theme.portrait() else \
            ((self.less, self.more, self.start, self.stop),)
        for buttons in rows:
            row = BoxLayout(size_hint=(1, None), height=u * 1.3, spacing=u * 0.25)
            for widget in buttons:
                row.add_widget(widget)
            self.add_widget(row)
        self.add_widget(BoxLayout(size_hint=(1, None), height=u * 0.2))
        # as tall as its lines: a narrow page wraps the words into more of them
        note = TLabel(msg=N_("Each blank sticker put on the reader gets the next number: stick it under "
                             "that tile. A set written once plays on every table."),
                      scale=0.85, color=theme.TEXT_DIM, size_hint=(1, None), height=u * 1.4)
        note.bind(texture_size=lambda label, size: setattr(label, "height", size[1]))
        self.add_widget(note)
        self.add_widget(BoxLayout())
        self.progress = progress
        self.show(progress)

    def show(self, progress: StickerProgress | None) -> None:
        """Say where the writing is: which tile the sticker on the reader now is, what comes next."""
        self.progress = progress
        writing = progress is not None and progress.next_tile is not None
        self.less.disabled = self.more.disabled = self.start.disabled = writing
        self.stop.disabled = not writing
        self.headline.color = theme.TEXT
        if progress is not None and progress.last_tile is not None:
            self.headline.msg, self.headline.values = N_("This sticker is now tile {tile}."), {
                "tile": progress.last_tile}
        elif writing:
            self.headline.msg, self.headline.values = N_("Put a blank sticker on the reader."), {}
        else:
            self.headline.msg, self.headline.values = N_("First sticker: tile {tile}"), {"tile": self.first_tile}
        if progress is not None and progress.error:
            self.detail.msg, self.detail.values, self.detail.color = progress.error, {}, theme.BAD
        elif writing:
            assert progress is not None
            self.detail.msg, self.detail.values = N_("{count} written. The next blank sticker becomes tile {tile}."), {
                "count": progress.written, "tile": progress.next_tile}
            self.detail.color = theme.ACCENT
        elif progress is not None and progress.written:
            self.detail.msg, self.detail.values = N_("Done: {count} stickers written."), {"count": progress.written}
            self.detail.color = theme.GOOD
        else:
            self.detail.msg, self.detail.values = N_("Choose the first number with - and +, then press Write."), {}
            self.detail.color = theme.TEXT

    def _choose(self, step: int) -> None:
        self.first_tile = (self.first_tile - 1 + step) % LAST_TILE + 1
        self.show(None)

    def _stop(self) -> None:
        self.devices.cancel_writing()
        self.show(StickerProgress(self.progress.written if self.progress else 0, None))
