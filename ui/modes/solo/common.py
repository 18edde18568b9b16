"""What the solo screens (Learn, Puzzles, Solitaire) share: the rules in plain words, colour and goal
words, the puzzle clock, best times, progress along the Learn path, the hint worker and the cards
shown over a screen (thinking, solved).

Progress lives in the store (``services.store``), which commits before it returns:

* ``progress("learn")``: ``{"discovery": [3, 4, ...], "rainbow": ["rainbow-green", ...],
  "solitaire": true}``; the last step, the game, is done once the store holds a finished game's
  record;
* ``progress("puzzles")``: ``{"solved": ["junior", "rotation-9", ...]}``;
* best times are high scores of mode ``"time:<puzzle>"`` holding *minus* the seconds, so that the
  store's highest-first order (and its pruning of the lowest) keeps the fastest times;
* ``progress("solo-clock")``: the running puzzle's clock, saved with every journaled step so a
  power cut does not reset it;
* ``progress("solitaire-from-learn")``: whether the Solitaire game in progress was started from
  the Learn path, so that, resumed after a power cut, it still leads back there.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from engine.strategy.game import StrategyGame

from ... import theme
from ...i18n import N_, _
from ...widgets import TButton, TLabel, panel_background
from ...words import COLOUR_WORDS



# ------------------------------------------------------------------------------ words

CHAINS = {
    ("R", True): N_("Red loop"), ("Y", True): N_("Yellow loop"),
    ("G", True): N_("Green loop"), ("B", True): N_("Blue loop"),
    ("R", False): N_("Red line"), ("Y", False): N_("Yellow line"),
    ("G", False): N_("Green line"), ("B", False): N_("Blue line"),
}
"""A chain's name by (colour, loop): whole phrases, so each language agrees its own adjectives."""
ONE_CHAIN = {
    ("R", True): N_("One red loop through all {count} tiles."),
    ("Y", True): N_("One yellow loop through all {count} tiles."),
    ("G", True): N_("One green loop through all {count} tiles."),
    ("B", True): N_("One blue loop through all {count} tiles."),
    ("R", False): N_("One red line through all {count} tiles."),
    ("Y", False): N_("One yellow line through all {count} tiles."),
    ("G", False): N_("One green line through all {count} tiles."),
    ("B", False): N_("One blue line through all {count} tiles."),
}


def colour_name(colour: str) -> str:
    return _(COLOUR_WORDS[colour])


def colours_name(colours: Sequence[str]) -> str:
    """"Red", or "Red + yellow" (translated)."""
    text = " + ".join(colour_name(c) for c in colours)
    return text[:1].upper() + text[1:]


def chain_name(colour: str, loop: bool) -> str:
    return _(CHAINS[(colour, loop)])


# ----------------------------------------------------------------------- progress, times


def time_score(seconds: float) -> int:
    """A solving time as a best is kept: minus the whole seconds (at least one)."""
    return -max(1, round(seconds))


def record_time(store: Any, key: str, seconds: float) -> None:
    """Keep a solving time for ``key`` (a puzzle name, "rotation-9"...) among the best times."""
    store.add_score(f"time:{key}", time.strftime("%Y-%m-%d"), time_score(seconds))


def best_time(store: Any, key: str) -> int | None:
    """The fastest time kept for ``key``, in seconds (None: never solved)."""
    found = store.high_scores(f"time:{key}", 1)
    return -found[0][1] if found else None


@dataclass(frozen=True)
class LearnProgress:
    """Where a player is on the booklets' path (see the module docstring)."""

    discovery: frozenset[int]
    rainbow: frozenset[str]
    solitaire: bool
    game: bool

    @classmethod
    def load(cls, store: Any) -> LearnProgress:
        """The game step is done once a strategy game has been played to its end at this table (its
        record is kept only then), whoever started it."""
        saved = store.progress("learn")
        played = bool(store.records(StrategyGame.KIND, 1))
        return cls(frozenset(int(n) for n in saved.get("discovery", [])),
                   frozenset(str(n) for n in saved.get("rainbow", [])),
                   bool(saved.get("solitaire")), played)


def _learn_update(store: Any, change: Callable[[dict[str, Any]], None]) -> None:
    saved = store.progress("learn")
    change(saved)
    store.set_progress("learn", saved)


def record_solved(store: Any, key: str) -> None:
    """Remember that the puzzle ``key`` was solved: on the Learn path (Discovery, Rainbow) or in the
    puzzles' list (the booklet puzzles, "rotation-<rows>")."""
    if key.startswith("discovery-"):
        size = int(key.split("-", 1)[1])
        _learn_update(store, lambda s: s.__setitem__("discovery", sorted({*s.get("discovery", []), size})))
    elif key.startswith("rainbow-"):
        _learn_update(store, lambda s: s.__setitem__("rainbow", sorted({*s.get("rainbow", []), key})))
    else:
        saved = store.progress("puzzles")
        saved["solved"] = sorted({*saved.get("solved", []), key})
        store.set_progress("puzzles", saved)


def record_solitaire_won(store: Any) -> None:
    _learn_update(store, lambda s: s.__setitem__("solitaire", True))


def solved_puzzles(store: Any) -> set[str]:
    return set(store.progress("puzzles").get("solved", []))


# ----------------------------------------------------------------------------- the clock


class Stopwatch:
    """The seconds spent on one puzzle (``ident``), running only while its screen is shown. It is
    saved (``save``) with every journaled step, and a resumed puzzle goes on from what was saved."""

    KEY = "solo-clock"

    def __init__(self, store: Any, ident: str, resume: bool) -> None:
        self.store, self.ident = store, ident
        saved = store.progress(self.KEY) if resume else {}
        self._base = float(saved.get("seconds", 0.0)) if saved.get("id") == ident else 0.0
        self._since: float | None = None
        self.stopped = False

    @property
    def seconds(self) -> float:
        running = time.monotonic() - self._since if self._since is not None else 0.0
        return self._base + running

    def run(self) -> None:
        if self._since is None and not self.stopped:
            self._since = time.monotonic()

    def pause(self) -> None:
        self._base = self.seconds
        self._since = None

    def stop(self) -> None:
        """The puzzle is solved: the time stays as it is."""
        self.pause()
        self.stopped = True

    def save(self) -> None:
        self.store.set_progress(self.KEY, {"id": self.ident, "seconds": round(self.seconds, 1)})


HINT_SECONDS = 30.0
"""The longest a hint may think (Genius from an empty table takes 5-10 s on the Pi)."""


# ------------------------------------------------------------------------------- widgets


class Spinner(Widget):
    """A turning arc: something is being worked on. It turns only while ``spinning``."""

    angle = NumericProperty(0.0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._tick: Any = None
        with self.canvas:
            Color(*theme.TEXT_DIM[:3], 0.35)
            self._ring = Line(width=2.0)
            Color(*theme.ACCENT)
            self._arc = Line(width=4.0, cap="round")
        self.bind(pos=self._draw, size=self._draw, angle=self._draw)

    def _draw(self, *_args: Any) -> None:
        r = min(self.width, self.height) * 0.4
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        self._ring.circle = (cx, cy, r)
        self._arc.width = max(2.0, r * 0.14)
        self._arc.circle = (cx, cy, r, self.angle, self.angle + 110)

    def start(self) -> None:
        if self._tick is None:
            self._tick = Clock.schedule_interval(lambda dt: setattr(self, "angle", (self.angle + 360 * dt) % 360), 1 / 30)

    def stop(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    @property
    def spinning(self) -> bool:
        return self._tick is not None


class Modal(FloatLayout):
    """A card in the middle of the screen over a dark shade; touches never reach what lies under
    it. Add it to a screen's FloatLayout; ``dismiss`` removes it."""

    covers = True
    """It takes every touch in its box: what lies under it cannot be pressed (see :func:`ui.audit.crowded`)."""

    def __init__(self, width: float, height: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        u = theme.unit()
        with self.canvas.before:
            Color(0, 0, 0, 0.55)
            self._shade = Rectangle()
        self.bind(pos=self._follow, size=self._follow)
        self.box = BoxLayout(orientation="vertical", size_hint=(None, None), size=(width, height), padding=u * 0.3,
                             spacing=u * 0.2, pos_hint={"center_x": 0.5, "center_y": 0.5})
        panel_background(self.box, theme.rgb("#1d2530"))
        self.add_widget(self.box)

    def _follow(self, *_args: Any) -> None:
        self._shade.pos, self._shade.size = self.pos, self.size
        self.box.width = min(self.box.width, self.width * 0.94)

    def dismiss(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return True


class ThinkingCard(Modal):
    """"Looking for a hint..." with a spinner and Cancel, while a worker thinks."""

    def __init__(self, on_cancel: Callable[[], None], **kwargs: Any) -> None:
        u = theme.unit()
        super().__init__(u * 8.0, u * 4.2, **kwargs)
        row = BoxLayout(spacing=u * 0.3)
        self.spinner = Spinner(size_hint=(None, 1), width=u * 1.6)
        row.add_widget(self.spinner)
        self.label = TLabel(msg=N_("Looking for a hint..."), scale=1.1, bold=True, halign="left")
        row.add_widget(self.label)
        self.box.add_widget(row)
        self.cancel_button = TButton(msg=N_("Cancel"), scale=1.0, size_hint=(1, None), height=u * 1.3,
                                     bg=list(theme.STOP))

        def cancel(*_args: Any) -> None:
            self.cancelling()
            on_cancel()

        self.cancel_button.bind(on_release=cancel)
        self.box.add_widget(self.cancel_button)
        self.spinner.start()

    def cancelling(self) -> None:
        self.label.msg = N_("Stopping...")
        self.cancel_button.disabled = True

    def dismiss(self) -> None:
        self.spinner.stop()
        super().dismiss()


class ChoiceCard(Modal):
    """A question with one big button per answer (the colour of a puzzle, ...): ``answers`` are
    (value, text already translated or English msg, colour or None)."""

    def __init__(self, title: str, question: str, answers: Sequence[tuple[Any, str, theme.RGBA | None]],
                 on_answer: Callable[[Any], None], columns: int = 2, **kwargs: Any) -> None:
        u = theme.unit()
        rows = math.ceil(len(answers) / columns)
        super().__init__(u * 12.5, u * (3.1 + rows * 1.35), **kwargs)
        self.box.add_widget(TLabel(msg=title, scale=1.25, bold=True, size_hint=(1, None), height=u * 0.9))
        self.box.add_widget(TLabel(msg=question, scale=0.9, color=theme.TEXT_DIM, size_hint=(1, None), height=u * 1.2))
        grid = BoxLayout(orientation="vertical", spacing=u * 0.15)
        self.buttons: dict[Any, TButton] = {}
        for start in range(0, len(answers), columns):
            line = BoxLayout(spacing=u * 0.2)
            for value, text, rgba in answers[start:start + columns]:
                button = TButton(msg=text, scale=0.95, bold=True, bg=list(rgba or theme.BUTTON),
                                 color=theme.ink_on(rgba or theme.BUTTON))

                def answer(_button: Any, v: Any = value) -> None:
                    self.dismiss()
                    on_answer(v)

                button.bind(on_release=answer)
                line.add_widget(button)
                self.buttons[value] = button
            grid.add_widget(line)
        self.box.add_widget(grid)


class SolvedCard(BoxLayout):
    """The in-place celebration under a solved puzzle: a title, a few lines (time, best time) and
    the ways on (``buttons``: (English label, action, is the main one))."""

    def __init__(self, title: str, lines: Sequence[str], buttons: Sequence[tuple[str, Callable[[], object], bool]],
                 **kwargs: Any) -> None:
        u = theme.unit()
        super().__init__(orientation="vertical", padding=u * 0.2, spacing=u * 0.12, size_hint=(None, None), **kwargs)
        panel_background(self, theme.rgb("#1d2530", 0.96))
        self.title = TLabel(msg=title, scale=1.35, bold=True, color=theme.GOOD, size_hint=(1, None), height=u * 0.9)
        self.add_widget(self.title)
        self.lines = TLabel(text="   ".join(lines), scale=0.9, size_hint=(1, None), height=u * 0.7)
        self.add_widget(self.lines)
        row = BoxLayout(spacing=u * 0.2, size_hint=(1, None), height=u * 1.25)
        self.buttons: dict[str, TButton] = {}
        for label, action, main in buttons:
            button = TButton(msg=label, scale=0.9, bold=main, bg=list(theme.GO if main else theme.BUTTON))
            button.bind(on_release=lambda *_a, act=action: act())
            row.add_widget(button)
            self.buttons[label] = button
        self.add_widget(row)
        self.height = u * 0.4 + u * 0.9 + u * 0.7 + u * 1.25 + u * 0.24


DONE_BG = theme.rgb("#1f5a3a")
"""A solved entry's button: green, so the progress shows from across the table."""


class TickButton(TButton):
    """A choice on a path or in a list: ``done`` puts a green tick in its lower corner (and, unless it
    has a colour of its own, turns it green), ``next_up`` an amber ring round it (play this next)."""

    def __init__(self, done: bool = False, next_up: bool = False, **kwargs: Any) -> None:
        self.done, self.next_up = done, next_up
        self._own_bg = "bg" in kwargs
        super().__init__(**kwargs)
        self.bind(pos=self._marks, size=self._marks)
        self.set_marks(done, next_up)

    def set_marks(self, done: bool, next_up: bool) -> None:
        self.done, self.next_up = done, next_up
        if not self._own_bg:
            self.bg = list(DONE_BG if done else theme.BUTTON)
        self._marks()

    def _marks(self, *_args: Any) -> None:
        self.canvas.after.clear()
        u = theme.unit()
        with self.canvas.after:
            if self.next_up:  # just outside the button: it shows on a light button too
                Color(*theme.ACCENT)
                gap = u * 0.07
                Line(rounded_rectangle=(self.x - gap, self.y - gap, self.width + 2 * gap, self.height + 2 * gap,
                                        u * 0.26), width=max(2.0, u * 0.06))
            if self.done:
                r = min(u * 0.28, self.height * 0.3)
                cx, cy = self.right - r * 0.8, self.y + r * 0.8  # low in the corner: clear of the title
                Color(*theme.GO)
                Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
                Color(1, 1, 1, 1)
                Line(points=[cx - r * 0.5, cy, cx - r * 0.1, cy - r * 0.42, cx + r * 0.55, cy + r * 0.4],
                     width=max(1.5, r * 0.18), cap="round", joint="round")


class TopLabel(TLabel):
    """A translated label whose words start at its top (and wrap at its width)."""

    def _fit(self, *_args: Any) -> None:
        self.font_size = theme.font(self.scale)
        self.text_size = (self.width, self.height)


class SidePanel(BoxLayout):
    """The column beside the board of every solo screen: the title and "?" (how to play), the goal,
    ``extra`` widgets, progress lines, the clock, rows of buttons. The goal takes the room left and
    its words get smaller when a language needs more of it, so nothing is ever cut off.

    On a portrait panel it is a band above the table instead (see :func:`ui.widgets.beside`): the words on
    the left, the buttons on the right, as tall as the taller of the two needs."""

    GOAL_SCALES = (0.85, 0.78, 0.72, 0.66, 0.6)
    GOAL_ROOM = 1.8
    """The least room (touch units) the goal's words get in the portrait band."""

    def __init__(self, on_howto: Callable[[], None], width: float = 5.0, **kwargs: Any) -> None:
        u = theme.unit()
        band = theme.portrait()
        super().__init__(orientation="horizontal" if band else "vertical",
                         size_hint=(1, None) if band else (None, 1), width=u * width, padding=u * 0.2,
                         spacing=u * 0.2 if band else u * 0.1, **kwargs)
        panel_background(self, theme.TABLE_DARK, radius=0)
        words = BoxLayout(orientation="vertical", spacing=u * 0.1, size_hint=(0.55, 1)) if band else self
        head = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.1)
        self.title = TLabel(scale=0.95, bold=True, halign="left")  # a long title wraps onto two lines
        head.add_widget(self.title)
        self.howto_button = TButton(text="?", scale=1.1, bold=True, size_hint=(None, 1), width=u * 1.0,
                                    bg=list(theme.rgb("#35607f")))
        self.howto_button.bind(on_release=lambda *_: on_howto())
        head.add_widget(self.howto_button)
        words.add_widget(head)
        self.goal = TopLabel(scale=self.GOAL_SCALES[0], halign="left", valign="top")
        self.goal.bind(size=self._fit_goal, text=self._fit_goal)
        words.add_widget(self.goal)
        self.extra = BoxLayout(orientation="vertical", size_hint=(1, None), height=0, spacing=u * 0.1)
        words.add_widget(self.extra)
        self.lines = BoxLayout(orientation="vertical", size_hint=(1, None), height=0)
        words.add_widget(self.lines)
        self.clock = TLabel(scale=0.85, halign="left", color=theme.TEXT_DIM, size_hint=(1, None), height=u * 0.5)
        words.add_widget(self.clock)
        self.buttons = BoxLayout(orientation="vertical", size_hint=(1, None), height=0, spacing=theme.min_gap())
        if band:
            self.add_widget(words)
            column = BoxLayout(orientation="vertical", size_hint=(0.45, 1))
            column.add_widget(Widget())
            column.add_widget(self.buttons)
            self.add_widget(column)
            for part in (head, self.extra, self.lines, self.clock, self.buttons):
                part.bind(height=self._fit_band)
            self._fit_band()
        else:
            self.add_widget(self.buttons)

    def _fit_band(self, *_args: Any) -> None:
        """The portrait band's height: what its words (the goal at least :data:`GOAL_ROOM`) or its
        buttons need, whichever is more."""
        u = theme.unit()
        words = self.goal.parent
        shown = [w for w in words.children if w is not self.goal]
        needed = sum(w.height for w in shown) + u * self.GOAL_ROOM + words.spacing * len(shown)
        self.height = max(needed, self.buttons.height) + 2 * self.padding[1]

    def _fit_goal(self, *_args: Any) -> None:
        """The largest goal words that fit the room the goal has (measured, not guessed)."""
        goal = self.goal
        if goal.width <= 1 or goal.height <= 1 or not goal.text:
            return
        for scale in self.GOAL_SCALES:
            probe = CoreLabel(text=goal.text, font_size=theme.font(scale), text_size=(goal.width, None))
            probe.refresh()
            if probe.texture.size[1] <= goal.height:
                break
        goal.scale = scale

    def set_lines(self, lines: Sequence[tuple[str, theme.RGBA | None]]) -> None:
        """Progress lines: (text already translated, colour of its swatch or None); a long line wraps."""
        u = theme.unit()
        self.lines.clear_widgets()
        for text, rgba in lines:
            row = BoxLayout(spacing=u * 0.12, size_hint=(1, None), height=u * 0.5)
            if rgba is not None:
                swatch = Widget(size_hint=(None, 1), width=u * 0.22)
                panel_background(swatch, rgba, radius=0.08)
                row.add_widget(swatch)
            label = TLabel(text=text, scale=0.8, halign="left")
            label.bind(texture_size=lambda w, size, r=row: self._fit_line(r, size[1]))
            row.add_widget(label)
            self.lines.add_widget(row)
        self._fit_line(None, 0)

    def _fit_line(self, row: BoxLayout | None, text_height: float) -> None:
        u = theme.unit()
        if row is not None:
            row.height = max(u * 0.5, text_height + u * 0.08)
        self.lines.height = sum(r.height for r in self.lines.children)

    def add_extra(self, widget: Widget) -> None:
        self.extra.add_widget(widget)
        children = self.extra.children
        self.extra.height = sum(w.height for w in children) + self.extra.spacing * (len(children) - 1)

    def add_row(self, *buttons: TButton, height: float = 1.0) -> BoxLayout:
        u = theme.unit()
        row = BoxLayout(spacing=theme.min_gap(), size_hint=(1, None), height=u * height)
        for button in buttons:
            row.add_widget(button)
        self.buttons.add_widget(row)
        rows = self.buttons.children
        self.buttons.height = sum(r.height for r in rows) + self.buttons.spacing * (len(rows) - 1)
        return row
