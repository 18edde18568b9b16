"""Learn: the booklets' four steps to Tantrix, as a path with ticks.

1. Discovery (tiles 1..3 up to 1..30, one loop each), 2. Rainbow (five puzzles, tiles sorted by the
colour of their backs), 3. Solitaire (tiles 1..14 drawn one by one), 4. the game, against a
friendly robot. The path shows what is done (ticks, from ``services.store.progress("learn")``) and
rings the next step; touching a step shows its puzzles below, each ticked once solved. The fourth
step is played by the strategy-game screens (the ``"learning-game"`` they register).
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.graphics import Color, Triangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from engine.solo.catalogue import DISCOVERY_SIZES, PUZZLES

from ... import solo_players, theme
from ...i18n import N_
from ...shell import Shell
from ...widgets import TButton, TLabel, panel_background
from ...navigation import family_screen
from . import solitaire
from .common import DONE_BG, LearnProgress, TickButton
from .puzzle import open_puzzle, show_howto as show_puzzle_howto

KEY = "learn"

DISCOVERY_STEP_DONE = 10
"""Discovery counts as learnt once 3..10 are solved: past ten tiles the loop's colour no longer
changes with every tile (the booklets' own turning point); 11..30 stay there for rainy weekends."""

RAINBOW = (
    ("rainbow-green", N_("Green tiles"), N_("a loop"), theme.LINK["G"]),
    ("rainbow-yellow", N_("Yellow tiles"), N_("a loop"), theme.LINK["Y"]),
    ("rainbow-white", N_("White tiles"), N_("a loop: which colour?"), theme.rgb("#ecebe4")),
    ("rainbow-blue", N_("Blue tiles"), N_("a pyramid"), theme.LINK["B"]),
    ("rainbow-red", N_("Red tiles"), N_("a pyramid"), theme.LINK["R"]),
)
"""The Rainbow puzzles in the booklets' order: name, the colour of the tiles' backs, what to make."""

STEPS = (N_("Discovery"), N_("Rainbow"), N_("Solitaire"), N_("The game"))
SELECTED = theme.rgb("#35607f")
"""The step whose puzzles are shown below the path."""


@family_screen(KEY)
def learn_screen(app: Shell) -> Screen:
    return LearnScreen(app)


def steps_done(progress: LearnProgress) -> list[bool]:
    """Whether each of the four steps is done."""
    return [
        all(n in progress.discovery for n in range(DISCOVERY_SIZES.start, DISCOVERY_STEP_DONE + 1)),
        all(name in progress.rainbow for name, *_rest in RAINBOW),
        progress.solitaire,
        progress.game,
    ]


def next_step(progress: LearnProgress) -> int:
    """The first step not done (the game, once everything before it is)."""
    done = steps_done(progress)
    return next((i for i, d in enumerate(done) if not d), 3)


class Arrow(Widget):
    """A chevron between two steps of the path."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        s = min(self.width, self.height) * 0.35
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        with self.canvas:
            Color(*theme.TEXT_DIM[:3], 0.6)
            Triangle(points=[cx - s * 0.5, cy - s, cx - s * 0.5, cy + s, cx + s * 0.6, cy])


class LearnScreen(Screen):
    """The path (see the module docstring). ``select(step)`` shows a step's puzzles below it."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        super().__init__(name=KEY, **kwargs)
        u = theme.unit()
        self.app = app
        root = BoxLayout(orientation="vertical", padding=[u * 0.25, u * 0.15, u * 0.25, u * 0.25], spacing=u * 0.18)
        panel_background(root, theme.TABLE_DARK, radius=0)
        top = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.2)
        top.add_widget(Widget(size_hint=(None, 1), width=u * 0.9))  # the staff corner
        top.add_widget(TLabel(msg=N_("Learn Tantrix in four steps"), scale=1.25, bold=True, halign="left"))
        self.who = solo_players.who_plays_on_top(app)
        if self.who is not None and self.who.size_hint_x is None:
            top.add_widget(self.who)
        home = TButton(msg=N_("Home"), scale=0.9, size_hint=(None, 1), width=u * 2.4)
        home.bind(on_release=lambda *_: app.go_home())
        top.add_widget(home)
        root.add_widget(top)
        if self.who is not None and self.who.parent is None:
            root.add_widget(self.who)
        path = BoxLayout(size_hint=(1, None), height=u * 1.9, spacing=u * 0.05)
        self.step_buttons: list[TickButton] = []
        for index, title in enumerate(STEPS):
            if index:
                path.add_widget(Arrow(size_hint=(None, 1), width=u * 0.45))
            button = TickButton(msg=title, scale=1.0, bold=True)
            button.bind(on_release=lambda _b, i=index: self.select(i))
            path.add_widget(button)
            self.step_buttons.append(button)
        root.add_widget(path)
        self.detail = BoxLayout(orientation="vertical", spacing=u * 0.15, padding=u * 0.2)
        panel_background(self.detail, theme.PANEL)
        root.add_widget(self.detail)
        self.add_widget(root)
        self.selected = -1
        self.refresh()

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Read the progress again, mark the path, and show the next step's puzzles."""
        self.progress = LearnProgress.load(self.app.services.store)
        done = steps_done(self.progress)
        self.next = next_step(self.progress)
        counts: list[tuple[str, dict[str, Any]]] = [  # translated by the buttons: a switch is theirs at once
            (N_("{solved} of {total} solved"), {"solved": len(self.progress.discovery & set(DISCOVERY_SIZES)),
                                                "total": len(DISCOVERY_SIZES)}),
            (N_("{solved} of {total} solved"), {"solved": len(self.progress.rainbow & {r[0] for r in RAINBOW}),
                                                "total": len(RAINBOW)}),
            (N_("Won!") if self.progress.solitaire else N_("One red line"), {}),
            (N_("Against a friendly robot"), {}),
        ]
        for index, button in enumerate(self.step_buttons):
            message, values = counts[index]
            button.subtitle_values = values  # first: the message is filled in as it is set
            button.subtitle = message
            button.set_marks(done[index], index == self.next)
        self.select(self.next)

    def select(self, step: int) -> None:
        self.selected = step
        done = steps_done(self.progress)
        for index, button in enumerate(self.step_buttons):
            button.bg = list(SELECTED if index == step else DONE_BG if done[index] else theme.BUTTON)
        self.detail.clear_widgets()
        (self._discovery, self._rainbow, self._solitaire, self._game)[step]()

    # ----------------------------------------------------------------- the steps

    def _header(self, text: str, howto: Callable[[], None] | None) -> None:
        u = theme.unit()
        row = BoxLayout(size_hint=(1, None), height=u * 1.0, spacing=u * 0.2)
        row.add_widget(TLabel(msg=text, scale=0.85, halign="left"))
        if howto is not None:
            button = TButton(msg=N_("How to play"), scale=0.8, size_hint=(None, 1), width=u * 3.2,
                             bg=list(theme.rgb("#35607f")))
            button.bind(on_release=lambda *_: howto())
            row.add_widget(button)
        self.detail.add_widget(row)

    def _puzzle_howto(self) -> None:
        show_puzzle_howto(self.app, then=lambda: self.app.open_family(KEY))

    def _discovery(self) -> None:
        self._header(N_("Make one loop with tiles 1 to N, in the colour of the number on the back of tile N."),
                     self._puzzle_howto)
        grid = GridLayout(cols=7, spacing=theme.min_gap())
        solved = self.progress.discovery
        first_open = next((n for n in DISCOVERY_SIZES if n not in solved), None)
        self.discovery_buttons: dict[int, TickButton] = {}
        for n in DISCOVERY_SIZES:
            colour = PUZZLES[f"discovery-{n}"].goal().colours[0]  # a Discovery puzzle has its colour
            button = TickButton(text=str(n), scale=1.0, bold=True, done=n in solved, next_up=n == first_open)
            button.bind(on_release=lambda _b, size=n: open_puzzle(self.app, f"discovery-{size}"))
            _colour_stripe(button, theme.LINK[colour])
            grid.add_widget(button)
            self.discovery_buttons[n] = button
        self.detail.add_widget(grid)

    def _rainbow(self) -> None:
        self._header(N_("Sort the tiles by the colour of their backs: five puzzles."), self._puzzle_howto)
        u = theme.unit()
        row = BoxLayout(spacing=u * 0.2)
        solved = self.progress.rainbow
        first_open = next((r[0] for r in RAINBOW if r[0] not in solved), None)
        self.rainbow_buttons: dict[str, TickButton] = {}
        for name, back, what, rgba in RAINBOW:
            button = TickButton(msg=back, subtitle=what, scale=1.0, bold=True, bg=list(rgba), done=name in solved,
                                next_up=name == first_open)
            button.color = theme.ink_on(rgba)  # both lines: the light grey subtitle read at 1.8 : 1 on green
            button.subtitle_ink = theme.hex_of(button.color)
            button.bind(on_release=lambda _b, puzzle=name: open_puzzle(self.app, puzzle))
            row.add_widget(button)
            self.rainbow_buttons[name] = button
        self.detail.add_widget(row)
        self.detail.add_widget(Widget(size_hint=(1, 0.35)))

    def _solitaire(self) -> None:
        self._header(N_("Draw tiles 1 to 14 one by one and make one red line through all of them."),
                     lambda: solitaire.show_howto(self.app, then=lambda: self.app.open_family(KEY)))
        self._big_button(N_("Play Solitaire"), lambda: solitaire.start(self.app, from_learn=True))

    def _game(self) -> None:
        self._header(N_("Now the real game, against a friendly robot: the longest line or loop of your colour wins."),
                     None)
        self._big_button(N_("Play the game"), self.play_game)

    def play_game(self) -> None:
        self.app.open("learning-game")

    def _big_button(self, label: str, action: Callable[[], Any]) -> None:
        u = theme.unit()
        box = BoxLayout(padding=[u * 2, u * 0.4])
        self.play_button = TButton(msg=label, scale=1.3, bold=True, bg=list(theme.GO))
        self.play_button.bind(on_release=lambda *_: action())
        box.add_widget(self.play_button)
        self.detail.add_widget(box)


def _colour_stripe(button: TButton, rgba: theme.RGBA) -> None:
    """A bar in the colour of the loop along the bottom of a Discovery number."""
    from kivy.graphics import RoundedRectangle

    with button.canvas.before:
        Color(*rgba)
        bar = RoundedRectangle(radius=[theme.unit() * 0.06])

    def follow(*_args: Any) -> None:
        bar.pos = (button.x + button.width * 0.2, button.y + button.height * 0.1)
        bar.size = (button.width * 0.6, max(3.0, button.height * 0.09))

    button.bind(pos=follow, size=follow)
    follow()
