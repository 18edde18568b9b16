"""Small widgets the screens share: big rounded buttons, choice chips, translated labels, flags, a
PIN keypad, a yes/no question over the screen.

Every touch target is at least one touch unit (:func:`ui.theme.unit`, 48 px on the 800x480 panel)
in both directions; text sizes follow the same unit so both kiosk screens look alike.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from kivy.clock import Clock
from kivy.graphics import Color, Mesh, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from . import theme
from .i18n import LANGUAGE_NAMES, N_, Translated, _, follow_language, i18n
from .services import PIN_DIGITS


SMALLEST_FONT = 0.62
"""How far :func:`fit_font` may shrink a text (of its size in the theme) to make it fit its box."""


def fit_font(label: Label, base: float) -> None:
    """Set ``label``'s font to ``base``, or smaller until the text fits its box and its longest word
    its line: a long word in another language neither spills out nor breaks in the middle. The
    legible size (:func:`ui.theme.min_text`) is one of the sizes it tries: its steps of 12 % went
    from 13.7 px to 12.1 px on the 7" panel, past "Gemiddeld" fitting at 12.5. Under it, a text is
    shrunk only where nothing else fits, and :mod:`ui.audit` reports it."""
    from .audit import fonts, shortened, words

    legible = theme.min_text()
    size = base
    for _attempt in range(7):  # down to SMALLEST_FONT, the legible size on the way
        label.font_size = size
        if isinstance(label, TButton):
            label.resize_subtitle(size)
        if label.width <= 1 or label.height <= 1 or not label.text:
            return
        label.texture_update()
        tw, th = label.texture_size
        line = (label.text_size[0] or label.width) - label.padding[0] - label.padding[2]  # within the padding
        # a label that shortens its text ("Play...") fits its box whatever its length: its whole text
        # is measured instead, so it shrinks before it cuts (and cuts only what is longer still)
        fits = not shortened(label) and tw <= label.width + 1 and th <= label.height + 1 and all(
            fonts.width(word, w_size, bold, label.font_name) <= line
            for word, w_size, bold in words(label))
        if fits or size <= base * SMALLEST_FONT:
            return
        smaller = max(size * 0.88, base * SMALLEST_FONT)
        size = legible if smaller < legible < size else smaller


def text_height(text: str, font_size: float, width: float, bold: bool = False) -> float:
    """How high ``text`` stands in ``font_size``, wrapped to lines ``width`` wide: the room a box
    must give it for it to be read at its size rather than shrunk (:func:`fit_font`)."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=text, font_size=font_size, bold=bold, text_size=(max(width, 1), None))
    core.refresh()
    return float(core.texture.size[1])


class TLabel(Translated, Label):
    """A label whose text follows ``msg`` in the current language, in the theme's font size or as
    much smaller as it takes to fit (:func:`fit_font`)."""

    scale = NumericProperty(1.0)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(**kwargs)
        self._refit = Clock.create_trigger(lambda _dt: fit_font(self, theme.font(self.scale)), -1)
        self.bind(size=self._fit, scale=self._fit, text=lambda *_: self._refit())
        self._fit()

    def _fit(self, *_args: Any) -> None:
        self.font_size = theme.font(self.scale)
        self.text_size = (self.width, None)
        self._refit()


class OneLine(Label):
    """Text that must read as one unbroken line, such as a web address a visitor types: in the
    theme's size ``scale``, or as much smaller as its width needs. Unlike a :class:`TLabel` it is
    never wrapped (an address has no place to break), and its text is shown as given."""

    scale = NumericProperty(1.0)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        super().__init__(**kwargs)
        self.bind(size=self._fit, text=self._fit, scale=self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        from .audit import fonts

        base = theme.font(self.scale)
        wide = fonts.width(self.text, base, self.bold, self.font_name)
        room = self.width - self.padding[0] - self.padding[2] - 2  # a hair inside: no rounding over
        self.font_size = base if wide <= room else base * max(room, 1) / wide


def scrolling_grid(cols: int, row_height: float, spacing: float | tuple[float, float]) -> tuple[ScrollView, GridLayout]:
    """Rows of a fixed height that scroll up and down once they outgrow their room (the players,
    the ladder, a tournament's pairings and standings): the view to lay out and the grid to fill."""
    u = theme.unit()
    grid = GridLayout(cols=cols, spacing=spacing, size_hint=(1, None), row_default_height=row_height,
                      row_force_default=True)
    grid.bind(minimum_height=grid.setter("height"))
    view = ScrollView(do_scroll_x=False, bar_width=u * 0.15)
    view.add_widget(grid)
    return view, grid


def panel_background(widget: Widget, colour: theme.RGBA = theme.PANEL, radius: float = 0.25) -> None:
    """Give ``widget`` a rounded background that follows its position and size."""
    with widget.canvas.before:
        Color(*colour)
        rect = RoundedRectangle(radius=[theme.unit() * radius])

    def follow(*_args: Any) -> None:
        rect.pos, rect.size = widget.pos, widget.size

    widget.bind(pos=follow, size=follow)
    follow()


DISABLED_ALPHA = 0.35
"""How much of a disabled button's colour shows: only its words faded once, and a solved puzzle's
amber Hint still called to be tapped, doing nothing."""


class TButton(Translated, ButtonBehavior, Label):
    """A big rounded button with translated text. ``bg`` is its colour; ``subtitle`` (English,
    translated, its fields filled from ``subtitle_values``) is an optional smaller second line, in
    ``subtitle_ink`` (hex: a light grey, a dark one on a light button). A disabled button fades
    (:data:`DISABLED_ALPHA`), its colour with its words."""

    bg = ListProperty(list(theme.BUTTON))
    scale = NumericProperty(1.0)
    subtitle = StringProperty("")
    subtitle_values = DictProperty({})
    subtitle_ink = StringProperty("d8dde2")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        kwargs.setdefault("markup", True)
        self._refit = Clock.create_trigger(lambda _dt: fit_font(self, theme.font(self.scale)), -1)
        super().__init__(**kwargs)
        with self.canvas.before:
            self._colour = Color(*self.bg)
            self._rect = RoundedRectangle(radius=[theme.unit() * 0.22])
        self.bind(pos=self._follow, size=self._follow, state=self._follow, bg=self._follow, disabled=self._follow,
                  scale=self._retranslate, subtitle=self._retranslate, subtitle_values=self._retranslate,
                  subtitle_ink=self._retranslate)
        self._follow()

    def _retranslate(self, *args: Any) -> None:
        super()._retranslate(*args)
        self.font_size = theme.font(self.scale)
        self.resize_subtitle(self.font_size)
        self._refit()

    def resize_subtitle(self, font_size: float) -> None:
        """Write the subtitle line at 72 % of ``font_size`` (:func:`fit_font` shrinks both lines),
        never under the smallest legible size (:func:`ui.theme.min_text`): the replay's speed,
        "Normal" under "Speed", was drawn at 11 px on the 7" panel."""
        if self.subtitle:
            title = _(self.msg, **self.values) if self.msg else self.text.split("\n")[0]
            small = min(max(int(font_size * 0.72), math.ceil(theme.min_text())), math.ceil(font_size))
            self.text = (f"{title}\n[size={small}][color={self.subtitle_ink}]{_(self.subtitle, **self.subtitle_values)}"
                         "[/color][/size]")

    def _follow(self, *_args: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size
        r, g, b, a = self.bg
        if self.state == "down":
            r, g, b = min(r * 1.35 + 0.08, 1), min(g * 1.35 + 0.08, 1), min(b * 1.35 + 0.08, 1)
        self._colour.rgba = (r, g, b, a * DISABLED_ALPHA if self.disabled else a)
        self.text_size = (self.width * 0.92, None)
        self._refit()


class Chip(TButton):
    """One choice of several (a robot level, a player count...): ``selected`` chips are amber."""

    selected = BooleanProperty(False)
    value = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(selected=self._paint)
        self._paint()

    def _paint(self, *_args: Any) -> None:
        self.bg = list(theme.CHOSEN if self.selected else theme.BUTTON)
        self.color = theme.ON_CHOSEN if self.selected else theme.TEXT


class ChipRow(GridLayout):
    """A row of chips, one per ``(value, English label)``; exactly one is selected. Tapping one
    selects it and calls ``on_choose(value)``. Where a row is narrow, ``cols`` wraps the chips into
    more rows (each chip stays a fingertip wide). Its chips are one control (``close_targets``, see
    :func:`ui.audit.crowded`): they may sit closer than separate controls."""

    close_targets = True

    def __init__(self, choices: Sequence[tuple[Any, str]], selected: Any, on_choose: Callable[[Any], None],
                 scale: float = 0.9, cols: int | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", theme.unit() * 0.12)
        super().__init__(cols=cols or max(len(choices), 1), **kwargs)
        self._on_choose = on_choose
        self.chips: list[Chip] = []
        for value, label in choices:
            chip = Chip(msg=label, value=value, scale=scale, selected=value == selected)
            chip.bind(on_release=lambda c: self.choose(c.value))
            self.add_widget(chip)
            self.chips.append(chip)

    @property
    def value(self) -> Any:
        return next((c.value for c in self.chips if c.selected), None)

    def choose(self, value: Any) -> None:
        for chip in self.chips:
            chip.selected = chip.value == value
        self._on_choose(value)

    def chip(self, value: Any) -> Chip:
        return next(c for c in self.chips if c.value == value)


class Confirm(FloatLayout):
    """A question over the whole screen with two answers (add it to a screen; it removes itself).
    Touches never reach what lies under it. The question and answers are English, translated
    where shown (the question's fields filled from ``values``): they follow a language switch."""

    covers = True
    """It takes every touch in its box: what lies under it cannot be pressed (see :func:`ui.audit.crowded`)."""

    def __init__(self, question: str, yes: str, no: str, on_yes: Callable[[], None],
                 values: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        u = theme.unit()
        with self.canvas.before:
            Color(0, 0, 0, 0.6)
            self._shade = Rectangle()
        self.bind(pos=self._follow, size=self._follow)
        box = BoxLayout(orientation="vertical", size_hint=(None, None), size=(u * 9, u * 4.2), padding=u * 0.3,
                        spacing=u * 0.3, pos_hint={"center_x": 0.5, "center_y": 0.5})
        panel_background(box, theme.rgb("#1d2530"))
        box.add_widget(TLabel(msg=question, values=values or {}, scale=1.1, bold=True))
        row = BoxLayout(size_hint=(1, None), height=u * 1.4, spacing=u * 0.3)
        self.no_button = TButton(msg=no, scale=1.05)
        self.yes_button = TButton(msg=yes, scale=1.05, bg=list(theme.STOP))
        self.no_button.bind(on_release=lambda *_: self.dismiss())

        def confirmed(*_args: Any) -> None:
            self.dismiss()
            on_yes()

        self.yes_button.bind(on_release=confirmed)
        row.add_widget(self.no_button)
        row.add_widget(self.yes_button)
        box.add_widget(row)
        self.add_widget(box)

    def _follow(self, *_args: Any) -> None:
        self._shade.pos, self._shade.size = self.pos, self.size

    def dismiss(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return True



class Overlay(FloatLayout):
    """A screen's top layer, where its questions (:class:`Confirm`) and what comes and goes over
    the table live. An open question stays on top of whatever is added after it: the coach's card,
    a robot's flying tile or a results card arriving while players were asked whether to leave
    were drawn over the question and took the touches meant for it."""

    def add_widget(self, widget: Any, index: int = 0, canvas: str | None = None) -> None:
        if index == 0 and not isinstance(widget, Confirm):
            index = sum(isinstance(child, Confirm) for child in self.children)  # just beneath them
        super().add_widget(widget, index, canvas)


def put_away(widget: Widget, parent: Widget, away: bool) -> None:
    """Take ``widget`` off the screen (``away``) or give it back to ``parent``. Put away it is out
    of the widget tree, where no touch reaches it: a widget made transparent and disabled still
    takes every touch that lands on its box (Kivy keeps a touch on a disabled widget, so that a
    tap on a greyed button does not fall through), and the board or the hand under it went dead
    there. Nothing is laid out round it meanwhile, nor audited. It comes back drawn where it was,
    over the widget it lay on (under a card opened since)."""
    if away:
        if widget.parent is not None:
            siblings = widget.parent.children
            below = siblings[siblings.index(widget) + 1:]
            widget.put_away_over = below[0] if below else None
            widget.parent.remove_widget(widget)
        return
    if widget.parent is None:
        under = getattr(widget, "put_away_over", None)
        parent.add_widget(widget, index=parent.children.index(under) if under in parent.children else 0)


def confirm_leave(screen: Any) -> None:
    """Ask before a game is abandoned (leaving forgets its journal, so it cannot be resumed): a
    stray touch on Leave must not end a game; on yes, ``screen.leave()``. ``screen`` has an
    ``overlay`` layer for questions."""
    screen.overlay.add_widget(Confirm(N_("Leave this game? It cannot be resumed."), N_("Leave"), N_("Stay"),
                                      screen.leave))


class FlagButton(ButtonBehavior, Widget):
    """A language's flag; the current language is outlined."""

    language = StringProperty("en")
    selected = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, selected=self._draw, state=self._draw)
        follow_language(self, lambda flag: setattr(flag, "selected", i18n.language == flag.language))
        self.selected = i18n.language == self.language

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        pad = self.height * 0.12
        x, y, w, h = self.x + pad, self.y + pad, self.width - 2 * pad, self.height - 2 * pad
        with self.canvas:
            if self.selected:
                Color(*theme.ACCENT)
                RoundedRectangle(pos=(self.x, self.y), size=self.size, radius=[pad])
            _FLAGS[self.language](x, y, w, h)
            if self.state == "down":
                Color(1, 1, 1, 0.3)
                Rectangle(pos=(x, y), size=(w, h))

    @property
    def title(self) -> str:
        return LANGUAGE_NAMES[self.language]


def _stripes(x: float, y: float, w: float, h: float, colours: list[str], vertical: bool) -> None:
    n = len(colours)
    for i, colour in enumerate(colours):
        Color(*theme.rgb(colour))
        if vertical:
            Rectangle(pos=(x + w * i / n, y), size=(w / n + 0.5, h))
        else:
            Rectangle(pos=(x, y + h - h * (i + 1) / n), size=(w, h / n + 0.5))


def _diagonal(x: float, y: float, w: float, h: float, half: float, rising: bool) -> None:
    """A band of half-width ``half`` along a diagonal of the rectangle, cut to the rectangle."""
    length = math.hypot(w, h)
    a, b = half * length / h, half * length / w  # where the band's edges cross the rectangle's sides
    if rising:
        points = [x, y, x + a, y, x + w, y + h - b, x + w, y + h, x + w - a, y + h, x, y + b]
    else:
        points = [x, y + h, x, y + h - b, x + w - a, y, x + w, y, x + w, y + b, x + a, y + h]
    vertices: list[float] = []
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0.0, 0.0]
    Mesh(vertices=vertices, indices=list(range(6)), mode="triangle_fan")


def _union_jack(x: float, y: float, w: float, h: float) -> None:
    Color(*theme.rgb("#012169"))
    Rectangle(pos=(x, y), size=(w, h))
    t = h / 15
    for rising in (True, False):
        Color(1, 1, 1, 1)
        _diagonal(x, y, w, h, t * 1.5, rising)
        Color(*theme.rgb("#c8102e"))
        _diagonal(x, y, w, h, t * 0.55, rising)
    Color(1, 1, 1, 1)
    Rectangle(pos=(x + w / 2 - t * 2.5, y), size=(t * 5, h))
    Rectangle(pos=(x, y + h / 2 - t * 2.5), size=(w, t * 5))
    Color(*theme.rgb("#c8102e"))
    Rectangle(pos=(x + w / 2 - t * 1.5, y), size=(t * 3, h))
    Rectangle(pos=(x, y + h / 2 - t * 1.5), size=(w, t * 3))


_FLAGS: dict[str, Callable[[float, float, float, float], None]] = {
    "en": _union_jack,
    "fr": lambda x, y, w, h: _stripes(x, y, w, h, ["#0055a4", "#ffffff", "#ef4135"], True),
    "nl": lambda x, y, w, h: _stripes(x, y, w, h, ["#ae1c28", "#ffffff", "#21468b"], False),
    "pl": lambda x, y, w, h: _stripes(x, y, w, h, ["#ffffff", "#dc143c"], False),
}


class FlagBar(BoxLayout):
    """The four flags; a tap switches the language at once (``on_language`` is told)."""

    def __init__(self, on_language: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=theme.unit() * 0.15, **kwargs)
        for language in LANGUAGE_NAMES:
            flag = FlagButton(language=language)
            flag.bind(on_release=lambda f: on_language(f.language))
            self.add_widget(flag)


class TightGroup(BoxLayout):
    """Controls that are one control to a player, as a keyboard's keys or a row of avatars to
    choose from (``close_targets``, see :func:`ui.audit.crowded`): they may sit closer than
    separate controls, a tap on the wrong one showing at once and undone by the next."""

    close_targets = True


class TightGrid(GridLayout):
    """A :class:`TightGroup` in rows and columns: choices that only select (a tile drawn, shown
    chosen until **Take**), one control to a player."""

    close_targets = True


class Keypad(GridLayout):
    """A numeric keypad for the staff PIN: digits, clear, OK. ``on_enter(pin)`` gets the digits. Its
    keys are one control (``close_targets``, see :func:`ui.audit.crowded`)."""

    close_targets = True

    entered = StringProperty("")

    def __init__(self, on_enter: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(cols=3, spacing=theme.unit() * 0.15, **kwargs)
        self._on_enter = on_enter
        for key in ["1", "2", "3", "4", "5", "6", "7", "8", "9", N_("Clear"), "0", N_("OK")]:
            button = TButton(msg=key, scale=1.2)
            if key == "OK":
                button.bg = list(theme.rgb("#2e7d32"))
            button.bind(on_release=lambda b, k=key: self.press(k))
            self.add_widget(button)

    def press(self, key: str) -> None:
        if key == "Clear":
            self.entered = ""
        elif key == "OK":
            pin, self.entered = self.entered, ""
            self._on_enter(pin)
        elif len(self.entered) < PIN_DIGITS[1]:
            self.entered += key


def beside(play_area: Widget, panel: Widget) -> BoxLayout:
    """A solo screen's play area and its panel: side by side, or on a portrait panel the panel
    above, full width, so that the table keeps the whole width for its tiles."""
    if theme.portrait():
        root = BoxLayout(orientation="vertical")
        root.add_widget(panel)
        root.add_widget(play_area)
    else:
        root = BoxLayout()
        root.add_widget(play_area)
        root.add_widget(panel)
    return root
