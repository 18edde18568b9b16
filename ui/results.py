"""The end of a game, for every mode: who won, the places, the final position, and a replay.

::

    ResultsScreen(
        "gobbles",
        lambda: Words(_("Game over"), _("Ann wins!"),
                      [Standing(1, "Ann", rgba, _("all tiles placed")), Standing(2, "Robot", None, _("3 tiles left"))],
                      notes=[_("Best scores: ...")]),
        stage=board_view,            # any widget showing the final position (None: no picture)
        replay=GobblesReplay(...),   # a Replay: step back and forth through the game (None: none)
        celebrate=True, on_again=start_again, on_home=app.go_home)

The words are a function the screen calls again when staff switch the language while it is shown
(their web page, or their menu over it): the results then read as if opened in that language, the
replay's caption too (a :class:`Replay` words its caption as it shows a step).

A :class:`Replay` knows how many steps the game had and draws the position after any number of
them on the stage, returning a caption for that step ("Ann placed a tile"). The screen opens on
the final position; the buttons step back, forward, to the start and to the end, and the game
plays itself (play / pause) at a speed the players choose, so nobody has to tap through 56 steps.
Modes highlight what decided the game on their stage themselves (a winning line, the emptied
triangles...). With ``on_pick`` the standings rows can be tapped (a mode shows that player's part:
the strategy game traces that colour's best line); :meth:`ResultsScreen.select` marks the rows
shown. ``celebrate`` throws a short burst of confetti (a few seconds of animation, then nothing).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (Canvas, Color, Ellipse, Line, PopMatrix, PushMatrix, Rectangle, Rotate, RoundedRectangle,
                           Triangle)
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

from engine.board import Board, Placement
from engine.geometry import Cell

from . import theme
from .board import BoardView
from .hexes import corners
from .i18n import N_, _, follow_language
from .widgets import TButton, TLabel, fit_font, panel_background


@dataclass(frozen=True)
class Standing:
    """One row of the results: ``place`` (None: unplaced, e.g. a draw), ``name`` and ``detail``
    as shown (already translated), the player's colour if they have one."""

    place: int | None
    name: str
    rgba: theme.RGBA | None = None
    detail: str = ""


@dataclass(frozen=True)
class Words:
    """What a results screen says, in the current language: its title, the headline (who won,
    why the game ended), one :class:`Standing` per row (the same rows each time) and notes under
    them (best scores...)."""

    title: str
    headline: str
    standings: Sequence[Standing]
    notes: Sequence[str] = ()


class Replay(Protocol):
    """A finished game, step by step."""

    @property
    def steps(self) -> int:
        """How many steps the game had (positions 0..steps)."""
        ...

    def show(self, step: int) -> str:
        """Draw the position after ``step`` steps on the stage; the caption for that step."""
        ...


def ordinal(place: int) -> str:
    """A place as shown: "1st", "2nd"... (translated)."""
    words = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th"), 5: N_("5th"), 6: N_("6th")}
    return _(words[place]) if place in words else str(place)


MEDALS = {1: theme.rgb("#e8b923"), 2: theme.rgb("#c0c6cc"), 3: theme.rgb("#c27c3a")}


class StandingRow(ButtonBehavior, BoxLayout):
    """One standing; ``selected`` rows (what the stage shows) are framed in light."""

    selected = BooleanProperty(False)

    def __init__(self, standing: Standing, **kwargs: Any) -> None:
        u = theme.unit()
        super().__init__(spacing=u * 0.2, padding=[u * 0.15, 0], **kwargs)
        panel_background(self, theme.PANEL, radius=0.2)
        with self.canvas.after:
            self._frame_colour = Color(0, 0, 0, 0)
            self._frame = Line(width=max(1.5, u * 0.06))
        self.bind(pos=self._paint, size=self._paint, selected=self._paint)
        place = standing.place
        self.medal = medal = Label(bold=True, font_size=theme.font(1.05), size_hint=(None, 1), width=u * 1.3,
                                   color=theme.TABLE_DARK if place in MEDALS else theme.TEXT)
        with medal.canvas.before:
            Color(*MEDALS.get(place or 0, theme.BUTTON))
            disc = Ellipse()
        medal.bind(pos=lambda w, _p: _disc(w, disc), size=lambda w, _s: _disc(w, disc))
        self.add_widget(medal)
        if standing.rgba is not None:
            chip = Widget(size_hint=(None, 1), width=u * 0.5)
            with chip.canvas:
                Color(*standing.rgba)
                dot = Ellipse()
                Color(*theme.TEXT_DIM)
                rim = Line(width=1.3)

            def follow(w: Widget, *_args: Any) -> None:
                _disc(w, dot, 0.7)
                rim.circle = (dot.pos[0] + dot.size[0] / 2, dot.pos[1] + dot.size[1] / 2, dot.size[0] / 2)

            chip.bind(pos=follow, size=follow)
            self.add_widget(chip)
        self.name_label = Label(bold=True, font_size=theme.font(1.0), color=theme.TEXT,
                                halign="left", valign="middle", shorten=True)
        self.name_label.bind(size=self._fit_name)
        self.add_widget(self.name_label)
        self.detail = Label(font_size=theme.font(0.8), color=theme.TEXT_DIM, halign="right",
                            valign="middle", size_hint=(None, 1))
        self.add_widget(self.detail)
        self.bind(width=self._share)
        self.show(standing)

    def show(self, standing: Standing) -> None:
        """The row's words (its place, name and detail), in the current language."""
        self.medal.text = ordinal(standing.place) if standing.place else "-"
        self.name_label.text = standing.name
        self.detail.text = standing.detail
        self._share()
        self._fit_name(self.name_label, self.name_label.size)

    @staticmethod
    def _fit_name(label: Label, size: tuple[float, float]) -> None:
        """The name in a smaller font where the detail leaves it too little room ("Niebieskie" beside
        "4 pkt (-11)"), cut short only below that."""
        label.text_size = size
        fit_font(label, theme.font(1.0))

    def _share(self, *_args: Any) -> None:
        """The detail as wide as its words (up to half the row, where it wraps): the name gets the rest."""
        detail = self.detail
        detail.text_size = (None, None)
        detail.texture_update()
        most = self.width * 0.5
        detail.width = min(detail.texture_size[0], most)
        detail.text_size = (detail.width, None)

    def _paint(self, *_args: Any) -> None:
        self._frame_colour.rgba = theme.TEXT if self.selected else (0, 0, 0, 0)
        self._frame.rounded_rectangle = (self.x, self.y, self.width, self.height, theme.unit() * 0.2)


def _disc(widget: Widget, disc: Ellipse, share: float = 0.88) -> None:
    d = min(widget.width, widget.height) * share
    disc.pos = (widget.x + (widget.width - d) / 2, widget.y + (widget.height - d) / 2)
    disc.size = (d, d)


class IconButton(TButton):
    """A button drawn as an arrow: ``icon`` is "first", "back", "next", "last", "play" or "pause"."""

    icon = StringProperty("next")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._icon, size=self._icon, icon=self._icon, disabled=self._icon)
        self._icon()

    def _icon(self, *_args: Any) -> None:
        self.canvas.after.clear()
        s = min(self.width, self.height) * 0.24
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        forward = self.icon in ("next", "last", "play")
        d = 1 if forward else -1
        with self.canvas.after:
            Color(*(theme.TEXT if not self.disabled else theme.TEXT_DIM[:3] + (0.35,)))
            if self.icon == "pause":
                for x in (cx - s * 0.75, cx + s * 0.25):
                    Rectangle(pos=(x, cy - s), size=(s * 0.5, s * 2))
                return
            if self.icon == "play":
                s *= 1.25
            Triangle(points=[cx - d * s * 0.8, cy - s, cx - d * s * 0.8, cy + s, cx + d * s * 0.9, cy])
            if self.icon in ("first", "last"):
                Rectangle(pos=(cx + d * s * 0.95 - (0 if forward else s * 0.35), cy - s), size=(s * 0.35, s * 2))


SPEEDS = ((N_("Slow"), 1.6), (N_("Normal"), 0.8), (N_("Fast"), 0.35))
"""The replay's speeds: (name, seconds per step). A 56-tile game takes 90 s, 45 s or 20 s."""


class ReplayBar(BoxLayout):
    """Under the stage: "step n of m" with the caption, then the controls: first, back, play /
    pause, next, last, and the speed (tap to change). Playing stops at the end (play again starts
    from the beginning) and whenever a step button is tapped."""

    CAPTION_SCALE = 0.78
    """The caption's font (of the theme's), shrunk where it is long (:meth:`_fit_caption`)."""
    step = NumericProperty(0)
    playing = BooleanProperty(False)
    speed = NumericProperty(1)
    """Index into :data:`SPEEDS`."""

    def __init__(self, replay: Replay, **kwargs: Any) -> None:
        u = theme.unit()
        super().__init__(orientation="vertical", spacing=u * 0.08, **kwargs)
        self.replay = replay
        self.buttons: dict[str, IconButton] = {}
        top = BoxLayout(spacing=u * 0.15, size_hint=(1, 0.42))
        self.counter = TLabel(msg=N_("Step {step} of {steps}"), scale=0.72, color=theme.TEXT_DIM,
                              size_hint=(0.32, 1))
        self.caption = Label(font_size=theme.font(self.CAPTION_SCALE), color=theme.TEXT, halign="left", valign="middle",
                             shorten=True, shorten_from="right")
        self.caption.bind(size=lambda *_: self._fit_caption())
        top.add_widget(self.counter)
        top.add_widget(self.caption)
        self.add_widget(top)
        controls = BoxLayout(spacing=u * 0.15, size_hint=(1, 0.58))
        for icon in ("first", "back", "play", "next", "last"):
            button = IconButton(icon=icon, size_hint=(1, 1))
            button.bind(on_release=lambda b, icon=icon: self.go(icon))
            controls.add_widget(button)
            self.buttons[icon] = button
        self.speed_button = TButton(msg=N_("Speed"), subtitle=SPEEDS[self.speed][0], scale=0.72, size_hint=(1.6, 1))
        self.speed_button.bind(on_release=lambda *_: self.faster())
        controls.add_widget(self.speed_button)
        self.add_widget(controls)
        self._clock: Any = None
        self.step = replay.steps
        self.bind(step=self.refresh, playing=self._play, speed=self._play)
        self.refresh()

    def go(self, icon: str) -> None:
        """What the button ``icon`` does ("play" plays or pauses)."""
        if icon == "play":
            self.playing = not self.playing
            return
        self.playing = False
        last = self.replay.steps
        self.step = {"first": 0, "back": max(self.step - 1, 0), "next": min(self.step + 1, last), "last": last}[icon]

    def faster(self) -> None:
        """The next speed (after the fastest, the slowest again)."""
        self.speed = (self.speed + 1) % len(SPEEDS)
        self.speed_button.subtitle = SPEEDS[self.speed][0]

    def _play(self, *_args: Any) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None
        self.buttons["play"].icon = "pause" if self.playing else "play"
        if self.playing:
            if self.step >= self.replay.steps:
                self.step = 0
            self._clock = Clock.schedule_interval(self._advance, SPEEDS[self.speed][1])

    def _advance(self, _dt: float) -> None:
        self.step = min(self.step + 1, self.replay.steps)
        if self.step >= self.replay.steps:
            self.playing = False

    def refresh(self, *_args: Any) -> None:
        """Draw the current step (again: after the mode changed what it shows)."""
        step = int(self.step)
        self.caption.text = self.replay.show(step)
        self._fit_caption()
        self.counter.values = {"step": step, "steps": self.replay.steps}
        self.buttons["first"].disabled = self.buttons["back"].disabled = step == 0
        self.buttons["next"].disabled = self.buttons["last"].disabled = step == self.replay.steps


    def _fit_caption(self) -> None:
        """The caption whole on its line, in a smaller font where it is long ("Drużyna: Czerwone
        (robot): płytka w miejscu przymusu" on the 7" panel): who placed the tile is never cut off."""
        self.caption.text_size = self.caption.size
        fit_font(self.caption, theme.font(self.CAPTION_SCALE))


def _clipped(stage: Widget) -> StencilView:
    """``stage`` drawn only inside its own box: a board re-fitting (animated) between two replay
    steps never draws over the controls beside it."""
    clip = StencilView()
    clip.add_widget(stage)

    def follow(*_args: Any) -> None:
        stage.pos, stage.size = clip.pos, clip.size

    clip.bind(pos=follow, size=follow)
    return clip


class ResultsScreen(Screen):
    """See the module docstring. ``on_again`` (None: no button) starts the same game again."""

    def __init__(
        self,
        key: str,
        words: Callable[[], Words],
        on_home: Callable[[], None],
        on_again: Callable[[], object] | None = None,
        stage: Widget | None = None,
        replay: Replay | None = None,
        celebrate: bool = False,
        on_pick: Callable[[int], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(name=f"{key}-results", **kwargs)
        u = theme.unit()
        self.celebrate, self.words = celebrate, words
        said = words()
        # on a portrait panel the words go above the stage and the buttons under it, full width;
        # otherwise the words and buttons make a column beside the stage
        portrait = stage is not None and theme.portrait()
        root = BoxLayout(orientation="vertical" if portrait else "horizontal", padding=u * 0.25, spacing=u * 0.25)
        panel_background(root, theme.TABLE_DARK, radius=0)
        column = BoxLayout(orientation="vertical", spacing=u * 0.15,
                           size_hint=(0.42, 1) if stage is not None and not portrait else (1, 1))
        column.add_widget(Widget(size_hint=(1, None), height=u * 0.5))  # clear of the staff corner
        self.title = Label(bold=True, font_size=theme.font(1.5), color=theme.ACCENT,
                           size_hint=(1, None), height=u * 1.0, halign="center", valign="middle")
        self.title.bind(size=lambda w, s: setattr(w, "text_size", s))
        column.add_widget(self.title)
        self.headline = Label(bold=True, font_size=theme.font(1.0), color=theme.TEXT,
                              size_hint=(1, None), height=u * 1.3, halign="center", valign="middle")
        self.headline.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                           texture_size=lambda w, size: setattr(w, "height", max(u * 1.0, size[1] + u * 0.1)))
        column.add_widget(self.headline)
        row_height = min(u * 1.0, (u * 5.6) / max(len(said.standings), 1))
        self.rows = [StandingRow(s, size_hint=(1, None), height=row_height) for s in said.standings]
        for index, row in enumerate(self.rows):
            if on_pick is not None:
                row.bind(on_release=lambda _row, index=index: on_pick(index))
            column.add_widget(row)
        self.notes: list[Label] = []
        for _note in said.notes:
            label = Label(font_size=theme.font(0.8), color=theme.TEXT_DIM, size_hint=(1, None),
                          height=u * 0.65, halign="center", valign="middle")
            label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                       texture_size=lambda w, size: setattr(w, "height", max(u * 0.65, size[1] + u * 0.1)))
            column.add_widget(label)
            self.notes.append(label)
        buttons = BoxLayout(spacing=u * 0.2, size_hint=(1, None), height=u * 1.3)
        self.home_button = TButton(msg=N_("Home"), scale=1.0)
        self.home_button.bind(on_release=lambda *_: on_home())
        buttons.add_widget(self.home_button)
        self.again_button: TButton | None = None
        if on_again is not None:
            self.again_button = TButton(msg=N_("Play again"), scale=1.0, bold=True, bg=list(theme.GO))
            self.again_button.bind(on_release=lambda *_: on_again())
            buttons.add_widget(self.again_button)
        if portrait:  # the column as tall as what it holds
            column.size_hint_y = None
            column.bind(minimum_height=column.setter("height"))
        else:
            column.add_widget(Widget())
            column.add_widget(buttons)
        root.add_widget(column)
        self.replay_bar: ReplayBar | None = None
        if stage is not None:
            right = BoxLayout(orientation="vertical", spacing=u * 0.15,
                              size_hint=(1, 1) if portrait else (0.58, 1))
            right.add_widget(_clipped(stage))
            if replay is not None and replay.steps > 0:
                self.replay_bar = ReplayBar(replay, size_hint=(1, None), height=u * 2.0)
                right.add_widget(self.replay_bar)
            root.add_widget(right)
        if portrait:
            root.add_widget(buttons)
        self.add_widget(root)
        self.confetti: Confetti | None = None
        self._say(said)
        follow_language(self, lambda screen: screen._retranslate())

    def _say(self, said: Words) -> None:
        self.title.text, self.headline.text = said.title, said.headline
        for row, standing in zip(self.rows, said.standings):
            row.show(standing)
        for label, note in zip(self.notes, said.notes):
            label.text = note

    def _retranslate(self) -> None:
        """The words composed again in the language staff just switched to, and the replay's
        caption (a replay words it as it shows its step)."""
        self._say(self.words())
        if self.replay_bar is not None:
            self.replay_bar.refresh()

    def select(self, indices: Sequence[int]) -> None:
        """Frame the standings rows at ``indices`` (what the stage shows), and only those."""
        for index, row in enumerate(self.rows):
            row.selected = index in indices

    def on_leave(self, *_args: Any) -> None:
        if self.replay_bar is not None:
            self.replay_bar.playing = False

    def on_enter(self, *_args: Any) -> None:
        if self.celebrate and self.confetti is None:
            self.confetti = Confetti(size=self.size, pos=self.pos)
            self.add_widget(self.confetti)
            self.confetti.burst()


class Confetti(Widget):
    """A few seconds of falling confetti in the tile colours, then it removes itself. Its pieces
    fall over the widget's box as it is when drawn: one burst before its layer was laid out (a
    puzzle resumed solved) fell in a 100 px corner of the screen."""

    progress = NumericProperty(0.0)

    def burst(self, pieces: int = 60, seconds: float = 3.0) -> None:
        rng = random.Random(7)
        colours = list(theme.LINK.values())
        # (across, height, fall, drift) as shares of the box, the turn and its speed, the colour
        self._pieces = [
            (rng.uniform(0, 1), 1 + rng.uniform(0, 0.4), rng.uniform(0.5, 1.0) * 1.3, rng.uniform(-0.15, 0.15),
             rng.uniform(0, 360), rng.uniform(-540, 540), rng.choice(colours))
            for _ in range(pieces)
        ]
        self.bind(progress=self._draw, pos=self._draw, size=self._draw)
        anim = Animation(progress=1.0, d=seconds)
        anim.bind(on_complete=lambda *_: self.parent and self.parent.remove_widget(self))
        anim.start(self)

    def _draw(self, *_args: Any) -> None:
        t = self.progress
        size = theme.unit() * 0.22
        self.canvas.clear()
        with self.canvas:
            for x, y, fall, drift, angle, spin, colour in self._pieces:
                Color(*colour[:3], 1.0 - t * 0.6)
                px, py = self.x + (x + drift * t) * self.width, self.y + (y - fall * t) * self.height
                PushMatrix()
                Rotate(angle=angle + spin * t, origin=(px, py))
                Rectangle(pos=(px - size / 2, py - size / 4), size=(size, size / 2))
                PopMatrix()

    def on_touch_down(self, touch: Any) -> bool:
        return False


class StepMark:
    """The tile placed at a replay's step, outlined on ``view`` so the eye finds it: white inside a
    dark edge (seen against every link colour and the baize), amber with a "Forced" tag when it
    filled a forced space, so that shows without telling colours apart."""

    def __init__(self, view: BoardView) -> None:
        self.view = view
        self.cell: Cell | None = None
        self.forced = False
        self._tag: tuple[str, Any] | None = None  # the "Forced" tag's words and picture (drawn again in another language)
        self._canvas = Canvas()
        view.canvas.after.add(self._canvas)
        view.bind(size_px=self._draw, origin=self._draw, pos=self._draw, size=self._draw)

    def show(self, cell: Cell | None, forced: bool = False) -> None:
        """Mark ``cell`` (None: nothing)."""
        self.cell, self.forced = cell, forced
        if forced and (self._tag is None or self._tag[0] != _("Forced")):  # drawn anew after a switch
            label = CoreLabel(text=_("Forced"), font_size=theme.font(0.7), bold=True)
            label.refresh()
            self._tag = (_("Forced"), label.texture)
        self._draw()

    def _draw(self, *_args: Any) -> None:
        canvas = self._canvas
        canvas.clear()
        if self.cell is None:
            return
        s = self.view.size_px
        x, y = self.view.cell_centre(self.cell)
        ring = corners(x, y, s * 1.02)
        edge = max(2.5, s * 0.1)
        with canvas:
            Color(*theme.TILE_FACE)
            Line(points=ring, width=edge, close=True, joint="round")
            Color(*(theme.ACCENT if self.forced else theme.TEXT))
            Line(points=ring, width=edge * 0.55, close=True, joint="round")
            if self.forced and self._tag is not None:
                text = self._tag[1]
                w, h = text.width + theme.unit() * 0.25, text.height + theme.unit() * 0.08
                top = min(y + s * 1.05, self.view.top - h - 2)
                Color(*theme.TILE_FACE)
                RoundedRectangle(pos=(x - w / 2, top), size=(w, h), radius=[h / 2])
                Color(*theme.ACCENT)
                Line(rounded_rectangle=(x - w / 2, top, w, h, h / 2), width=1.5)
                Color(1, 1, 1, 1)
                Rectangle(texture=text, pos=(x - text.width / 2, top + (h - text.height) / 2), size=text.size)


class BoardReplay:
    """A Tantrix board replayed tile by tile (the order the tiles were placed)."""

    def __init__(self, view: BoardView, placements: list[Placement]) -> None:
        self.view, self.placements = view, placements

    @property
    def steps(self) -> int:
        return len(self.placements)

    def show(self, step: int) -> str:
        board = Board()
        for p in self.placements[:step]:
            board.push(p)
        self.view.show(board)
        self.view.recentre(animate=False, cells=[p.cell for p in self.placements])
        if step == 0:
            return _("The empty table")
        return _("Tile {tile} placed", tile=self.placements[step - 1].tile)
