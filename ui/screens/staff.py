"""The staff menu, behind a PIN: language, settings (LED brightness, the coach), hardware, tag
enrolment, statistics, reset, quit to the system. It is the only way out of the app."""

from __future__ import annotations

import math
from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.slider import Slider

from engine.tiles import ALL_NUMBERS

from .. import theme
from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, follow_language, n_
from ..services import DeviceStatus, EnrolmentProgress, Settings, StickerProgress, UnknownTag
from ..devices_view import DEVICE_NAMES
from ..qr import TakeHome
from ..shell import Shell
from ..widgets import ChipRow, FlagButton, Keypad, OneLine, TButton, TLabel, panel_background
from .statistics import statistics_page
from .stickers import StickerPage


class PinScreen(Screen):
    """A numeric keypad; the right PIN opens the staff menu, a wrong one is refused. After wrong
    PINs the keypad is locked for a while and says for how long, counting down; Cancel goes back
    to the screen that was showing."""

    def __init__(self, settings: Settings, on_open: Callable[[], None], on_cancel: Callable[[], None],
                 **kwargs: Any) -> None:
        super().__init__(name="staff-pin", **kwargs)
        u = theme.unit()
        self._settings, self._on_open = settings, on_open
        root = BoxLayout(orientation="horizontal", padding=u * 0.4, spacing=u * 0.5)
        panel_background(root, theme.TABLE_DARK, radius=0)
        left = BoxLayout(orientation="vertical", spacing=u * 0.3)
        left.add_widget(TLabel(msg=N_("Staff"), scale=1.6, bold=True))
        self.prompt = TLabel(msg=N_("Enter the staff PIN"))
        left.add_widget(self.prompt)
        self.dots = Label(font_size=theme.font(1.6), color=theme.TEXT)
        left.add_widget(self.dots)
        cancel = TButton(msg=N_("Cancel"), size_hint=(1, None), height=u * 1.3)
        cancel.bind(on_release=lambda *_: on_cancel())
        left.add_widget(cancel)
        root.add_widget(left)
        self.keypad = Keypad(self._enter, size_hint=(None, 1), width=u * 5.2)
        self.keypad.bind(entered=lambda _k, value: setattr(self.dots, "text", "\u2022" * len(value)))
        root.add_widget(self.keypad)
        self.add_widget(root)
        self._countdown = Clock.schedule_interval(lambda dt: self._show_state(), 1.0)
        self._countdown.cancel()

    def on_pre_enter(self, *_args: Any) -> None:
        self.keypad.entered = ""
        self._show_state()

    def on_leave(self, *_args: Any) -> None:
        self._countdown.cancel()

    def _enter(self, pin: str) -> None:
        if self._settings.check_pin(pin):
            self._on_open()
        else:
            self._show_state(wrong=True)

    def _show_state(self, wrong: bool = False) -> None:
        """The prompt: no PIN set, locked (with the time left), wrong, or enter the PIN."""
        wait = self._settings.pin_wait()
        self.keypad.disabled = wait > 0 or not self._settings.staff_pin_set
        if not self._settings.staff_pin_set:
            self._say(N_("No staff PIN is set on this table. Set one with install.sh."), theme.BAD)
        elif wait > 0:
            self._say(N_("Too many wrong PINs. Try again in {time}."), theme.BAD, time=wait_text(wait))
            self._countdown()
            return
        elif wrong:
            self._say(N_("Wrong PIN. Try again."), theme.BAD)
        else:
            self._say(N_("Enter the staff PIN"), theme.TEXT)
        self._countdown.cancel()

    def _say(self, msg: str, color: Any, **values: Any) -> None:
        self.prompt.msg, self.prompt.values, self.prompt.color = msg, values, color


def wait_text(seconds: float) -> str:
    """``"45 s"``, ``"2 min 5 s"``, ``"1 h 0 min"``: the time left, rounded up to the second."""
    whole = math.ceil(seconds)
    if whole >= 3600:
        return f"{whole // 3600} h {whole % 3600 // 60} min"
    if whole >= 60:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole} s"


PAGES = ("language", "settings", "hardware", "tags", "stickers", "statistics", "system")
"""The menu's pages, one button each in a column that must keep every button at least 9 mm tall
on the 800x480 panel (with Close and, where players are kept, Players): room for no more."""
PAGE_TITLES = {
    "language": N_("Language"), "settings": N_("Settings"), "hardware": N_("Hardware"),
    "tags": N_("Tag enrolment"), "stickers": N_("Write stickers"), "statistics": N_("Statistics"), "system": N_("System"),
}


COMPOSED = ("hardware", "tags", "statistics")
"""Pages whose words are composed as they are laid out (the devices' states, the enrolment's
progress, the statistics' sentences and dates): laid out again when the language is switched
while one shows (on the staff web page). The others' words are translated widgets, which follow
by themselves, and they keep what staff set on them (the first sticker's number)."""

PAIRED = (("tags", "stickers"), ("statistics", "system"), ("language", "settings"))
"""Pages that share a row of the menu, in this order, while the panel is too short for each page a
row a fingertip high (9 mm: the 7" portrait panel turned on its side)."""


class StaffScreen(Screen):
    """The staff menu: a column of pages on the left, the open page on the right."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        super().__init__(name="staff", **kwargs)
        self.app = app
        u = theme.unit()
        root = BoxLayout(orientation="horizontal", padding=u * 0.3, spacing=u * 0.3)
        panel_background(root, theme.TABLE_DARK, radius=0)
        nav = BoxLayout(orientation="vertical", size_hint=(None, 1), width=u * 4.2, spacing=theme.min_gap())
        self.nav: dict[str, TButton] = {}
        for page in PAGES:
            button = TButton(msg=PAGE_TITLES[page], scale=0.85)
            button.bind(on_release=lambda _b, p=page: self.open_page(p))
            nav.add_widget(button)
            self.nav[page] = button
        close = TButton(msg=N_("Close"), scale=0.85, bg=list(theme.rgb("#2e7d32")))
        close.bind(on_release=lambda *_: app.leave_staff())
        nav.add_widget(close)
        self.nav_column = nav
        root.add_widget(nav)
        self.content = BoxLayout(orientation="vertical", padding=u * 0.4, spacing=u * 0.25)
        panel_background(self.content)
        root.add_widget(self.content)
        self.add_widget(root)
        self.fit_nav()
        self.page = ""
        self.enrolment: EnrolmentProgress | None = None
        self.unknown_tag: UnknownTag | None = None
        self.sticker_progress: StickerProgress | None = None
        self.open_page("hardware")
        follow_language(self, lambda screen: screen._retranslate())

    def on_pre_enter(self, *_args: Any) -> None:
        self.open_page(self.page or "hardware")

    # ------------------------------------------------------------------ pages

    def fit_nav(self) -> None:
        """Pair pages in a row (:data:`PAIRED`, in turn) while the menu's rows would be under a
        fingertip high; called again when a row is added (Players and Club evening)."""
        from kivy.core.window import Window

        u = theme.unit()
        column = self.nav_column
        for first, second in PAIRED:
            rows = len(column.children)
            if (Window.height - u * 0.6 - (rows - 1) * column.spacing) / rows >= theme.min_target():
                return
            a, b = self.nav[first], self.nav[second]
            if a.parent is not column or b.parent is not column:
                continue  # paired already
            index = column.children.index(b)  # children run bottom up: the row goes where the second was
            column.remove_widget(a)
            column.remove_widget(b)
            row = BoxLayout(spacing=column.spacing)
            row.add_widget(a)
            row.add_widget(b)
            column.add_widget(row, index=index)

    def open_page(self, page: str) -> None:
        self.page = page
        for name, button in self.nav.items():
            button.bg = list(theme.BUTTON_DOWN if name == page else theme.BUTTON)
        self.content.clear_widgets()
        self.content.add_widget(TLabel(msg=PAGE_TITLES[page], scale=1.3, bold=True, size_hint=(1, None),
                                       height=theme.unit() * 1.0))
        getattr(self, f"_page_{page}")()

    def _retranslate(self) -> None:
        if self.page in COMPOSED:
            self.open_page(self.page)

    def _row(self, units: float = 1.3, **kwargs: Any) -> BoxLayout:
        """A row of the page ``units`` touch units tall (a button row's 1.3 by default)."""
        row = BoxLayout(size_hint=(1, None), height=theme.unit() * units, spacing=theme.unit() * 0.25, **kwargs)
        self.content.add_widget(row)
        return row

    def _text(self, text: str, **kwargs: Any) -> Label:
        label = Label(text=text, font_size=theme.font(), color=theme.TEXT, halign="left", valign="top", **kwargs)
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.content.add_widget(label)
        return label

    def _page_language(self) -> None:
        for language in LANGUAGES:
            row = self._row()
            flag = FlagButton(language=language, size_hint=(None, 1), width=theme.unit() * 1.8)
            button = TButton(text=LANGUAGE_NAMES[language])  # each language named in itself
            for widget in (flag, button):
                widget.bind(on_release=lambda _w, lang=language: self.app.set_language(lang))
            row.add_widget(flag)
            row.add_widget(button)
        self.content.add_widget(BoxLayout())

    def _page_settings(self) -> None:
        """What staff tune for their room and their players: the rings' brightness, and whether
        strategy games offer the coach's Hint (a club may want it off for rated evenings)."""
        settings, u = self.app.services.settings, theme.unit()
        row = self._row(0.9)
        row.add_widget(TLabel(msg=N_("LED brightness"), halign="left"))
        value = TLabel(msg=N_("{percent} %"), values={"percent": round(settings.brightness * 100)}, scale=1.2,
                       size_hint=(None, 1), width=u * 2.4)
        row.add_widget(value)
        slider = Slider(min=0, max=100, step=5, value=round(settings.brightness * 100), size_hint=(1, None),
                        height=u * 1.3, cursor_size=(u * 0.9, u * 0.9))

        def changed(_slider: Any, percent: float) -> None:
            settings.set_brightness(percent / 100)
            value.values = {"percent": int(percent)}

        slider.bind(value=changed)
        self.brightness_slider = slider
        self.content.add_widget(slider)
        self.content.add_widget(TLabel(msg=N_("Strategy games: the Hint button, which shows what the master robot "
                                              "would play"), halign="left", size_hint=(1, None), height=u * 1.1))
        self.coach_choice = ChipRow(((True, N_("Offered")), (False, N_("Not offered"))), settings.coach,
                                    settings.set_coach, size_hint=(1, None), height=u * 1.2)
        self.content.add_widget(self.coach_choice)
        self.content.add_widget(BoxLayout())

    def _page_hardware(self) -> None:
        lines = [_("Version: {version}", version=self.app.services.settings.version)]
        lines += [self._status_line(s) for s in self.app.services.devices.status()]
        warnings = self.app.services.settings.warnings
        if warnings:
            lines += ["", _("Configuration problems:")] + [f"  {w}" for w in warnings]
        self._text("\n".join(lines))

    @staticmethod
    def _status_line(status: DeviceStatus) -> str:
        name = _(DEVICE_NAMES.get(status.name, status.name))
        state = _("working") if status.ok else _("NOT WORKING")
        detail = f" ({status.detail})" if status.detail else ""
        return f"{name}: {state}  [{status.backend}]{detail}"

    def _page_tags(self) -> None:
        row = self._row()
        start = TButton(msg=N_("Start: all 56 tiles"), bg=list(theme.rgb("#2e7d32")))
        cancel = TButton(msg=N_("Cancel enrolment"))
        start.bind(on_release=lambda *_: self.app.services.devices.start_enrolment(list(ALL_NUMBERS)))
        cancel.bind(on_release=lambda *_: self._cancel_enrolment())
        row.add_widget(start)
        row.add_widget(cancel)
        self.enrolment_label = self._text("")
        self._show_enrolment()

    def _cancel_enrolment(self) -> None:
        self.app.services.devices.cancel_enrolment()
        self.enrolment = None
        self._show_enrolment()

    def _show_enrolment(self) -> None:
        progress, lines = self.enrolment, []
        if progress is None:
            lines.append(_("Enrolment teaches the reader the tags of a new set of tiles."))
        elif progress.next_tile is None:
            lines.append(n_("Done: {count} tile learned.", "Done: {count} tiles learned.", progress.learned,
                            count=progress.learned))
        else:
            lines.append(_("{count} of 56 learned. Put tile {tile} on the reader.",
                           count=progress.learned, tile=progress.next_tile))
        if progress is not None and progress.error:
            lines.append(progress.error)
        if self.unknown_tag is not None:
            lines.append(_("Unknown tag read: {uid}", uid=self.unknown_tag.uid))
        self.enrolment_label.text = "\n".join(lines)

    def _page_stickers(self) -> None:
        self.stickers = StickerPage(self.app.services.devices, self.sticker_progress)
        self.content.add_widget(self.stickers)

    def _page_statistics(self) -> None:
        self.content.add_widget(statistics_page(self.app))

    def _page_system(self) -> None:
        """What staff rarely need and must not do by accident: forget the game in progress, and
        close the kiosk for the operating system; and where spectators find this table's web page. With
        none to show, it says phones cannot reach the spectators' page (it is off, or listens on this
        machine only) or there is no network yet (``web_address`` is "" for each), not that the web
        pages are off: with ``spectators = false`` the staff page is still served, and staff were
        told it was not."""
        self.content.add_widget(TLabel(msg=N_("Forget the game in progress (it cannot be resumed afterwards)."), scale=0.9, halign="left", size_hint=(1, 0.3)))
        row = self._row()
        clear = TButton(msg=N_("Clear the current game"), bg=list(theme.rgb("#8e2b2b")))
        done = TLabel(msg="", size_hint=(1, 0.3))

        def clear_current(*_args: Any) -> None:
            self.app.forget_current()
            self.app.staff_return = "home"
            done.msg = N_("The current game was cleared.")

        clear.bind(on_release=clear_current)
        row.add_widget(clear)
        self.content.add_widget(done)
        self.content.add_widget(TLabel(msg=N_("Close the kiosk and return to the operating system."), scale=0.9, halign="left", size_hint=(1, 0.3)))
        row = self._row()
        leave = TButton(msg=N_("Quit to the system"), bg=list(theme.rgb("#8e2b2b")))
        leave.bind(on_release=lambda *_: self.app.services.quit_to_system())
        row.add_widget(leave)
        address = self.app.services.settings.web_address
        row = self._row()  # last: the texts above share what the rows leave
        if address:
            # the address is one unbroken line for a visitor to type: beside the button, or on a
            # narrow (portrait) page under it, across the page
            beside = not theme.portrait()
            show = TButton(msg=N_("Spectators' QR code"), size_hint=(0.5 if beside else 1, 1))
            show.bind(on_release=lambda *_: self.add_widget(
                TakeHome(address, caption=N_("Scan with your phone to watch this table."))))
            row.add_widget(show)
            (row if beside else self._row(0.8)).add_widget(OneLine(text=address, scale=0.8,
                                                                   size_hint=(0.5 if beside else 1, 1)))
        else:
            row.add_widget(TLabel(msg=N_("Phones cannot reach the spectators' page (the configuration's [web]) or there is no network yet."), scale=0.8,
                                  color=theme.TEXT_DIM))

    # --------------------------------------------------------------- events

    def on_device_event(self, event: Any) -> None:
        if isinstance(event, StickerProgress):
            self.sticker_progress = event
            if self.page == "stickers":
                self.stickers.show(event)
            return
        if isinstance(event, EnrolmentProgress):
            self.enrolment = event
        elif isinstance(event, UnknownTag):
            self.unknown_tag = event
        else:
            if isinstance(event, DeviceStatus) and self.page == "hardware":
                self.open_page("hardware")
            return
        if self.page == "tags":
            self._show_enrolment()

