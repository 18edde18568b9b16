"""Puzzles: the booklet's puzzles (Junior, Student, Professor, Master, Genius A and B) and the
rotation puzzles (pyramids of 3 to 8 rows, and the Great Pyramid of 45 tiles), each ticked once
solved, with its best time; and Four lines and Four loops (all 56 tiles, scored, the best kept:
``ui.modes.solo.four``).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, NamedTuple

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.solo.catalogue import PUZZLES
from engine.solo.rotation import GREAT_PYRAMID_ROWS, ROWS

from ... import solo_players, theme
from ...i18n import N_, _, follow_language, n_
from ...shell import Shell
from ...widgets import TButton, TLabel, panel_background
from ...navigation import family_screen
from . import four as solo_four
from ...words import format_time
from .common import TickButton, best_time, solved_puzzles
from .puzzle import TITLES, open_puzzle, show_howto as show_puzzle_howto
from .rotation import open_rotation, rotation_key, show_howto as show_rotation_howto

KEY = "puzzles"
BOOKLET = ("junior", "student", "professor", "master", "genius-a", "genius-b")
WHAT = {
    "junior": N_("one loop: which colour?"), "student": N_("one loop: which colour?"),
    "professor": N_("two loops at once"), "master": N_("one loop: which colour?"),
    "genius-a": N_("red and yellow lines"), "genius-b": N_("red and blue lines"),
}


ROW = 1.38
"""Height in touch units of a row of puzzles (at most: see :meth:`PuzzlesScreen._entry_row_units`)."""


def _section_units() -> float:
    """Height in touch units of a section's title row: its **How to play** a fingertip high."""
    return theme.min_target() / theme.unit()


class Entry(NamedTuple):
    """A puzzle in the list: its English title, the line under it (in words), and how to open it."""

    title: str
    subtitle: str
    open: Callable[[Any], Any]


def four_entries(store: Any) -> list[Entry]:
    """Four lines and Four loops (all 56 tiles, scored): their screen module's ``entries(store)``
    gives (title, line in words, open(app))."""
    return [Entry(*entry) for entry in solo_four.entries(store)]


@family_screen(KEY)
def puzzles_screen(app: Shell) -> Screen:
    return PuzzlesScreen(app)


class PuzzlesScreen(Screen):
    """The list (see the module docstring); ``buttons`` holds each entry's button by key."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        super().__init__(name=KEY, **kwargs)
        u = theme.unit()
        self.app = app
        self.buttons: dict[str, TButton] = {}
        root = BoxLayout(orientation="vertical", padding=[u * 0.25, u * 0.1, u * 0.25, u * 0.15],
                         spacing=theme.min_gap())  # the rows a finger apart; the screen's edge needs less
        panel_background(root, theme.TABLE_DARK, radius=0)
        top = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.2)
        top.add_widget(Widget(size_hint=(None, 1), width=u * 0.9))  # the staff corner
        top.add_widget(TLabel(msg=N_("Puzzles"), scale=1.3, bold=True, halign="left"))
        self.who = solo_players.who_plays_on_top(app, on_change=self.build)
        if self.who is not None and self.who.size_hint_x is None:
            top.add_widget(self.who)
        home = TButton(msg=N_("Home"), scale=0.9, size_hint=(None, 1), width=u * 2.4)
        home.bind(on_release=lambda *_: app.go_home())
        top.add_widget(home)
        root.add_widget(top)
        if self.who is not None and self.who.parent is None:
            root.add_widget(self.who)
        self.rows = BoxLayout(orientation="vertical", spacing=theme.min_gap())
        root.add_widget(self.rows)
        self.add_widget(root)
        self.build()
        # the entries' lines are composed ("12 tiles · two loops at once", best times): a language
        # staff switch to while the list shows is theirs at once, as its buttons' is
        follow_language(self, lambda screen: screen.build())

    def on_pre_enter(self, *_args: Any) -> None:
        self.build()

    def build(self) -> None:
        """Lay out the entries with the ticks and best times as they are now."""
        store = self.app.services.store
        solved = solved_puzzles(store)
        self.rows.clear_widgets()
        self.buttons.clear()
        player = solo_players.current(self.app)
        book = solo_players.book(self.app)
        mine = book.bests(player.id) if player is not None and book is not None else {}

        def with_mine(subtitle: str, mode: str) -> str:
            """The player's own best on a line of its own (their name and the time or score)."""
            if mode not in mine:
                return subtitle
            return f"{subtitle}\n{player.name} {solo_players.show_for(mode)(mine[mode])}"

        four = four_entries(store)
        self._entry_units = self._entry_row_units(entry_rows=2 + (2 if theme.portrait() else 1) + bool(four),
                                                  sections=2 + bool(four))

        def entry(key: str, title: str, subtitle: str, action: Callable[[], Any], scale: float = 1.0,
                  values: dict[str, Any] | None = None) -> TickButton:
            """A button: ``title`` English (its ``values`` filled in), ``subtitle`` already in words."""
            best = best_time(store, key)
            if best is not None:
                subtitle += "\n" + _("best {time}", time=format_time(best))
            subtitle = with_mine(subtitle, f"time:{key}")
            button = TickButton(msg=title, values=values or {}, subtitle=subtitle, scale=scale, bold=True,
                                done=key in solved)
            button.bind(on_release=lambda *_: action())
            self.buttons[key] = button
            return button

        self._section(N_("Loops and lines (the booklet's puzzles)"),
                      lambda: show_puzzle_howto(self.app, then=lambda: self.app.open_family(KEY)))
        for half in (BOOKLET[:3], BOOKLET[3:]):
            row = self._row(self._entry_units)
            for name in half:
                count = len(PUZZLES[name].tiles)
                subtitle = n_("{count} tile", "{count} tiles", count, count=count) + " · " + _(WHAT[name])
                row.add_widget(entry(name, TITLES[name], subtitle, partial(open_puzzle, self.app, name)))
        self._section(N_("Turn the tiles (the pyramids)"),
                      lambda: show_rotation_howto(self.app, then=lambda: self.app.open_family(KEY)))
        pyramids = list(ROWS)
        for part in (pyramids[:4], pyramids[4:]) if theme.portrait() else (pyramids,):  # narrow: two rows
            row = self._row(self._entry_units)
            for rows in part:
                tiles = n_("{count} tile", "{count} tiles", rows * (rows + 1) // 2, count=rows * (rows + 1) // 2)
                opener = (lambda r=rows: open_rotation(self.app, r))
                if rows == GREAT_PYRAMID_ROWS:
                    button = entry(rotation_key(rows), N_("Great Pyramid"), tiles, opener)
                    button.size_hint_x = 1.5
                else:
                    button = entry(rotation_key(rows), N_("{rows} rows"), tiles, opener, scale=0.8,
                                   values={"rows": rows})
                row.add_widget(button)
        if four:
            self._section(N_("All 56 tiles"), None)
            row = self._row(self._entry_units)
            for item, four_kind in zip(four, solo_four.MODES.values()):
                button = TButton(msg=item.title, subtitle=with_mine(item.subtitle, four_kind.KIND), scale=1.0,
                                 bold=True)
                button.bind(on_release=lambda _b, opener=item.open: opener(self.app))
                row.add_widget(button)
                self.buttons[item.title] = button
        self.rows.add_widget(Widget())

    def _section(self, title: str, howto: Callable[[], None] | None) -> None:
        u = theme.unit()
        row = self._row(_section_units())
        row.add_widget(TLabel(msg=title, scale=0.9, bold=True, color=theme.TEXT_DIM, halign="left"))
        if howto is not None:
            button = TButton(msg=N_("How to play"), scale=0.75, size_hint=(None, 1), width=u * 3.0,
                             bg=list(theme.rgb("#35607f")))
            button.bind(on_release=lambda *_: howto())
            row.add_widget(button)

    def _entry_row_units(self, entry_rows: int, sections: int) -> float:
        """The height (touch units) of a row of entries: :data:`ROW`, or as much lower as it takes
        for the whole list to fit the screen (the 7" panel), never below a fingertip and a bit."""
        from kivy.core.window import Window

        u = theme.unit()
        gap = theme.min_gap() / u  # between the rows: controls a finger apart
        own_row = 1.0 + gap if self.who is not None and self.who.size_hint_x is not None else 0.0  # who plays
        fixed = 1.0 + 0.1 + 0.15 + gap + own_row + _section_units() * sections + gap * (entry_rows + sections)  # and the filler
        room = (Window.height / u - fixed) / entry_rows
        return min(ROW, max(room, theme.min_target() * 1.1 / u))

    def _row(self, height: float) -> BoxLayout:
        u = theme.unit()
        row = BoxLayout(size_hint=(1, None), height=u * height, spacing=u * 0.15)
        self.rows.add_widget(row)
        return row
