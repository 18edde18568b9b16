"""The game setup every mode shares: who sits where (a person or a robot of some level), their
colours, the mode's options, how to play, and Start.

A mode describes its setup with a :class:`SetupSpec` and gets a :class:`Setup` back::

    spec = SetupSpec(
        key="gobbles", title=N_("Gobbles"), players=(2, 6), default_players=2,
        levels=(("beginner", N_("Beginner")), ("casual", N_("Casual")), ("expert", N_("Expert"))),
        options=(Choice("play_on", N_("When someone is out"), ((True, N_("Play on")), (False, N_("Stop"))), True),),
    )
    app.show(SetupScreen(spec, on_start=start_game, on_back=app.go_home, on_howto=show_howto,
                         orientation=app.services.settings.orientation))

    def start_game(setup: Setup) -> None:
        setup.seats      # one Seat per player, in seating order: .robot (a level key, or None for a
                         # person), .colour (a SeatColour or None), .player (who sits there)
        setup.options    # {"play_on": True, ...}

Flat (the screen lying on the table) each seat's card lies where that player's hand will lie in the
game (:func:`ui.table.seat_boxes`), turned to face them, so everyone sets up their own seat and
sees where they will sit; upright the cards are a list beside the options. A card toggles
Person / Robot; a robot card shows the mode's levels as chips. With ``choose_colours`` a tap on a
seat's colour gives it the next colour nobody else has. A mode for one player (no robots, one seat)
gets no cards: its setup is a start card, with ``extra`` (e.g. its best scores) beside Start.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Literal, Sequence, cast

from kivy.graphics import Color, Ellipse, InstructionGroup, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.scatter import Scatter
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from . import theme
from .audit import fonts
from .i18n import N_, _, follow_language
from .seat_players import who_button
from .table import seat_boxes
from .widgets import ChipRow, TButton, TLabel, panel_background

PORTRAIT_COLUMN = 0.6
"""The share of a portrait panel's width the seats' column takes when the seats are upright."""


@dataclass(frozen=True)
class SeatColour:
    """A colour a seat may play: ``key`` is what the mode gets ("black", "R"...), ``rgba`` how it is
    drawn, ``name`` its English name (translated where shown)."""

    key: str
    rgba: theme.RGBA
    name: str


@dataclass(frozen=True)
class Choice:
    """A mode option: ``values`` are (value, English label) pairs, one chip each."""

    key: str
    label: str
    values: tuple[tuple[Any, str], ...]
    default: Any


@dataclass(frozen=True)
class SetupSpec:
    """What a mode's setup offers.

    ``players``: (fewest, most); ``levels``: the robots' (key, English label), none for a mode
    without robots; ``palette(players)``: the colours seats play with that many players, seat
    ``i`` taking the ``i``-th by default (None: seats are numbered, not coloured); ``robots``:
    the seats that are robots by default (someone alone at the table plays robots at once);
    ``piece(canvas, centre, radius, rgba)``: how the mode draws a seat's piece, marks and all, so
    that the seat's icon shows what its pieces will (None: a plain disc).
    """

    key: str
    title: str
    players: tuple[int, int]
    default_players: int
    levels: tuple[tuple[str, str], ...] = ()
    default_level: str = ""
    robots: tuple[int, ...] = ()
    palette: Callable[[int], Sequence[SeatColour]] | None = None
    piece: Callable[[InstructionGroup, tuple[float, float], float, theme.RGBA], None] | None = None
    choose_colours: bool = False
    options: tuple[Choice, ...] = ()
    blurb: str = ""


@dataclass
class Seat:
    robot: str | None = None
    colour: SeatColour | None = None
    player: Any = None
    """The ``engine.players.Player`` sitting here (``ui.seat_players``), None for a guest."""

    @property
    def is_robot(self) -> bool:
        return self.robot is not None


@dataclass
class Setup:
    seats: list[Seat] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


def seat_words(index: int, colour: SeatColour | None) -> tuple[str, dict[str, Any]]:
    """How a seat is called on screen: its colour's name, else "Player n", as a translated label's
    ``msg`` and ``values`` (it follows a language switch)."""
    return (colour.name, {}) if colour is not None else (N_("Player {number}"), {"number": index + 1})


class SeatCard(BoxLayout):
    """One seat: its colour and name, Person / Robot, and the robot's level. A ``compact`` card
    (many seats in a column) is one row: Person or one chip per robot level."""

    def __init__(self, screen: SetupScreen, index: int, compact: bool = False, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        u = theme.unit()
        self.screen, self.index, self.compact = screen, index, compact
        self.padding = u * 0.12
        self.spacing = theme.min_gap()  # Person / Robot over the levels or the name: two rows of controls
        panel_background(self, theme.PANEL, radius=0.2)
        top = BoxLayout(spacing=u * 0.12)
        self.swatch = ColourSwatch(piece=screen.spec.piece, size_hint=(None, 1), width=u * 0.9)
        self.swatch.bind(on_touch_down=self._swatch_touched)
        top.add_widget(self.swatch)
        self.title = TLabel(scale=0.85, bold=True, halign="left")
        top.add_widget(self.title)
        levels = screen.spec.levels
        self.who: ChipRow | None = None
        if compact:
            self.who = ChipRow(((None, N_("Person")), *levels), None, self._set_level, scale=0.72,
                               size_hint=(None, 1))
            top.add_widget(self.who)
        self.kind = ChipRow(((False, N_("Person")), (True, N_("Robot"))), False, self._set_robot, scale=0.8,
                            size_hint=(None, 1), width=u * 3.6)
        if not compact:
            top.add_widget(self.kind)
        self.add_widget(top)
        self.top_row = top
        self.beside = self.who or self.kind
        """The chips beside the seat's name."""
        self.bind(width=self._share_top)
        self.title.bind(text=self._share_top)
        self.bottom = BoxLayout(spacing=u * 0.1)
        if not compact:
            self.add_widget(self.bottom)
        self.levels = ChipRow(levels, screen.spec.default_level or (levels[0][0] if levels else None),
                              self._set_level, scale=0.72) if levels else None
        self.hint = TLabel(msg=N_("Plays with their fingers"), scale=0.72, color=theme.TEXT_DIM)
        self.seat: Seat | None = None
        follow_language(self, lambda card: card._name())  # a title's fields are words too

    def _share_top(self, *_args: Any) -> None:
        """The top row's chips beside the seat's name (:attr:`beside`) take what the name leaves,
        so that it reads whole at its size: Person / Robot up to about half the row, a compact
        card's chips all of it; never less than a fingertip-wide chip each."""
        u = theme.unit()
        name = fonts.width(self.title.text, theme.font(self.title.scale), True, self.title.font_name)
        padding = cast(list[float], self.padding)  # Kivy's: (left, top, right, bottom)
        room = self.width - padding[0] - padding[2] - self.swatch.width - 2 * self.top_row.spacing
        chips = len(self.beside.chips)
        # each chip a fingertip wide, and wide enough for its longest word at the legible size
        # (fit_font shrank "Gemiddeld", "Człowiek" to 10.6 px where 2.5 mm is 12.5); a chip of a
        # short word ("Mens") no wider, so that the seat's name keeps its room
        widths = [max(theme.min_target() * 1.04, max((fonts.width(word, theme.min_text(), chip.bold, chip.font_name)
                                                      for word in _(chip.msg).split()), default=0.0) / 0.92 + 2)
                  for chip in self.beside.chips]  # a chip's words span 92 % of it
        self.beside.cols_minimum = dict(enumerate(widths))
        least = sum(widths) + (chips - 1) * self.beside.spacing[0]
        most = room if self.compact else min(u * 3.6, self.width * 0.52)
        self.beside.width = max(least, min(most, room - name - u * 0.1))

    def _name(self) -> None:
        if self.seat is not None:
            msg, values = self.screen.seat_title(self.index, self.seat)
            self.title.say(msg, **values)

    def show(self, seat: Seat) -> None:
        self.seat = seat
        self._name()
        self.swatch.rgba = seat.colour.rgba if seat.colour else theme.TEXT_DIM
        self.swatch.number = "" if seat.colour else str(self.index + 1)
        self.swatch.arcs = theme.SEAT_ARCS.get(seat.colour.key, 1) if seat.colour else 1
        self.swatch.redraw()
        self.kind.disabled = self.levels is None
        self.kind.opacity = 1 if self.levels is not None else 0
        for chip in self.kind.chips:
            chip.selected = chip.value == seat.is_robot
        if self.who is not None:
            for chip in self.who.chips:
                chip.selected = chip.value == seat.robot
        self.bottom.clear_widgets()
        if seat.is_robot and self.levels is not None:
            for chip in self.levels.chips:
                chip.selected = chip.value == seat.robot
            self.bottom.add_widget(self.levels)
        else:
            self.bottom.add_widget(who_button(self.screen, self.index, seat) or self.hint)

    def _set_robot(self, robot: bool) -> None:
        level = (self.levels.value or self.levels.chips[0].value) if robot and self.levels else None
        self.screen.set_seat(self.index, robot=level)

    def _set_level(self, level: str | None) -> None:
        self.screen.set_seat(self.index, robot=level)

    def _swatch_touched(self, swatch: Widget, touch: Any) -> bool:
        if swatch.collide_point(*touch.pos) and self.screen.spec.choose_colours:
            self.screen.next_colour(self.index)
            return True
        return False


class ColourSwatch(Widget):
    """A seat's colour as a big round pawn (drawn by the mode's ``piece``, with its marks, if it
    has one), or its number when seats have no colour. The pawn's rim is cut in ``arcs`` as the
    seat's LED ring is lit (:data:`ui.theme.SEAT_ARCS`): the colour has a shape as well as a hue."""

    def __init__(self, piece: Callable[[InstructionGroup, tuple[float, float], float, theme.RGBA], None] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.piece = piece
        self.rgba: theme.RGBA = theme.TEXT_DIM
        self.number = ""
        self.arcs = 1
        self._label = TLabel(scale=0.9, bold=True, color=theme.TABLE_DARK)
        self.add_widget(self._label)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        d = min(self.width, self.height) * 0.86
        cx, cy = self.x + self.width / 2, self.y + self.height / 2  # not .center: stale in a size callback
        if self.piece is not None and not self.number:
            self.piece(self.canvas.before, (cx, cy), d / 2, self.rgba)
        else:
            with self.canvas.before:
                Color(*self.rgba)
                Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))
                Color(1, 1, 1, 0.85)
                Line(circle=(cx, cy, d / 2), width=1.5)
        with self.canvas.before:
            if self.arcs > 1:  # the gaps between the arcs, from LED 0 at the top, clockwise
                Color(*theme.TABLE_DARK)
                for k in range(self.arcs):
                    a = math.radians(90 - 360 * k / self.arcs)
                    Line(points=[cx + d * 0.25 * math.cos(a), cy + d * 0.25 * math.sin(a),
                                 cx + d * 0.51 * math.cos(a), cy + d * 0.51 * math.sin(a)], width=max(2.0, d * 0.05))
        self._label.text = self.number
        self._label.pos, self._label.size = self.pos, self.size


class SetupScreen(Screen):
    """The setup of one mode (see the module docstring). ``on_howto`` (None: no button) opens the
    mode's "how to play"; ``extra`` is shown beside the buttons (e.g. best scores)."""

    def __init__(
        self,
        spec: SetupSpec,
        on_start: Callable[[Setup], object],
        on_back: Callable[[], None],
        on_howto: Callable[[], None] | None = None,
        orientation: Literal["flat", "upright"] = "flat",
        extra: Widget | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(name=f"{spec.key}-setup", **kwargs)
        u = theme.unit()
        self.spec, self.orientation = spec, orientation
        self._on_start = on_start
        self.options: dict[str, Any] = {c.key: c.default for c in spec.options}
        self.seats: list[Seat] = []
        self.root = FloatLayout()
        panel_background(self.root, theme.TABLE_DARK, radius=0)
        self.add_widget(self.root)
        self.cards: list[SeatCard] = []
        self._holders: list[Scatter] = []
        self.middle = BoxLayout(orientation="vertical", spacing=u * 0.15, padding=u * 0.1, size_hint=(None, None))
        self.middle.add_widget(Widget())  # spacers above and below keep the rows in the middle
        self.title = TLabel(msg=spec.title, scale=1.5, bold=True, size_hint=(1, None), height=u * 1.0)
        self.middle.add_widget(self.title)
        self.blurb: TLabel | None = None
        if spec.blurb:
            self.blurb = TLabel(msg=spec.blurb, scale=0.9, color=theme.TEXT_DIM, size_hint=(1, None), height=u * 0.9)
            self.middle.add_widget(self.blurb)
        self.count: ChipRow | None = None
        from kivy.core.window import Window

        narrow = Window.height > Window.width  # portrait: the middle is narrow, tall
        lo, hi = spec.players
        if hi > lo:
            self.count = ChipRow(tuple((n, str(n)) for n in range(lo, hi + 1)), spec.default_players,
                                 self.set_players, scale=1.0)
            self.middle.add_widget(_labelled(N_("Players"), self.count, narrow))
        self.choices: dict[str, ChipRow] = {}
        for choice in spec.options:
            row = ChipRow(choice.values, choice.default, partial(self.options.__setitem__, choice.key),
                          scale=0.85)
            self.choices[choice.key] = row
            self.middle.add_widget(_labelled(choice.label, row, narrow))
        if extra is not None:
            self.middle.add_widget(extra)
        buttons = BoxLayout(spacing=u * 0.2, size_hint=(1, None), height=u * 1.25)
        self.back_button = TButton(msg=N_("Back"), scale=0.95, size_hint=(0.7, 1))
        self.back_button.bind(on_release=lambda *_: on_back())
        buttons.add_widget(self.back_button)
        self.howto_button: TButton | None = None
        if on_howto is not None:
            self.howto_button = TButton(msg=N_("How to play"), scale=0.95, bg=list(theme.rgb("#35607f")))
            self.howto_button.bind(on_release=lambda *_: on_howto())
            buttons.add_widget(self.howto_button)
        self.start_button = TButton(msg=N_("Start"), scale=1.15, bold=True, bg=list(theme.GO))
        self.start_button.bind(on_release=lambda *_: self.start())
        if narrow:  # Start gets a row of its own
            start_row = BoxLayout(size_hint=(1, None), height=u * 1.25)
            start_row.add_widget(self.start_button)
            self.middle.add_widget(start_row)
        else:
            buttons.add_widget(self.start_button)
        self.middle.add_widget(buttons)
        self.middle.add_widget(Widget())
        self._heights = {row: row.height for row in self.middle.children if row.size_hint_y is None}
        self.root.add_widget(self.middle)
        self.root.bind(size=lambda *_: self._layout(), pos=lambda *_: self._layout())
        self.set_players(spec.default_players)

    # ------------------------------------------------------------------ the seats

    def set_players(self, players: int) -> None:
        """Seat ``players`` players (seats already set up keep their choices)."""
        spec = self.spec
        palette = list(spec.palette(players)) if spec.palette else []
        seats = []
        for i in range(players):
            old = self.seats[i] if i < len(self.seats) else None
            if old is not None:
                robot = old.robot
            elif spec.levels and i in spec.robots:
                robot = spec.default_level or spec.levels[0][0]
            else:
                robot = None
            colour = palette[i] if i < len(palette) else None
            if old is not None and old.colour in palette and spec.choose_colours:
                colour = old.colour
            seats.append(Seat(robot, colour, old.player if old is not None else None))
        if spec.choose_colours:  # keep colours unique after a change of player count
            taken: set[str] = set()
            for seat in seats:
                if seat.colour is not None and seat.colour.key in taken:
                    seat.colour = next(c for c in palette if c.key not in taken)
                if seat.colour is not None:
                    taken.add(seat.colour.key)
        self.seats = seats
        if self.count is not None:
            for chip in self.count.chips:
                chip.selected = chip.value == players
        self._build_cards()

    def seat_title(self, index: int, seat: Seat) -> tuple[str, dict[str, Any]]:
        """The title of seat ``index``'s card as a label's ``msg`` and ``values``, made again after
        a language switch (:func:`seat_words`; a mode with teams names the seat's team)."""
        return seat_words(index, seat.colour)

    def set_seat(self, index: int, robot: str | None) -> None:
        """Make seat ``index`` a person (None) or a robot of level ``robot``."""
        self.seats[index].robot = robot
        self.cards[index].show(self.seats[index])

    def next_colour(self, index: int) -> None:
        """Give seat ``index`` the next colour of the palette that no other seat plays."""
        palette = list(self.spec.palette(len(self.seats))) if self.spec.palette else []
        seat = self.seats[index]
        if not palette or seat.colour is None:
            return
        taken = {s.colour.key for s in self.seats if s is not seat and s.colour is not None}
        start = next(i for i, c in enumerate(palette) if c.key == seat.colour.key)
        for step in range(1, len(palette) + 1):
            candidate = palette[(start + step) % len(palette)]
            if candidate.key not in taken:
                seat.colour = candidate
                break
        self.cards[index].show(seat)

    def start(self) -> None:
        self._on_start(Setup([Seat(s.robot, s.colour, s.player) for s in self.seats], dict(self.options)))

    # ------------------------------------------------------------------ layout

    @property
    def has_cards(self) -> bool:
        return self.spec.players[1] > 1 or bool(self.spec.levels)

    def _build_cards(self) -> None:
        for holder in self._holders:
            self.root.remove_widget(holder)
        self.cards, self._holders = [], []
        if self.has_cards:
            from kivy.core.window import Window  # the screen fills the window, laid out or not yet

            compact = self.orientation == "upright" and self._column_card_height(Window.height) < theme.unit() * 1.8
            for i, seat in enumerate(self.seats):
                card = SeatCard(self, i, compact=compact and bool(self.spec.levels))
                card.show(seat)
                holder = Scatter(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                                 auto_bring_to_front=False)
                holder.add_widget(card)
                self.root.add_widget(holder)
                self.cards.append(card)
                self._holders.append(holder)
        self._layout()

    def _column_card_height(self, height: float) -> float:
        """A card's height when the cards stand in a column (upright): two rows of fingertip chips
        (:class:`SeatCard`) where the column has the room."""
        u = theme.unit()
        two_rows = 2 * theme.min_target() * 1.04 + 2 * u * 0.12 + theme.min_gap()
        return min(max(u * 2.3, two_rows), (height - u * 0.3) / max(len(self.seats), 1) - u * 0.12)

    def _fit_middle(self) -> None:
        """Shrink the middle's rows when the table between the cards is short: first drop the
        blurb, then the title (the home screen's button said it), then make the rows lower, never
        below a fingertip (:func:`ui.theme.min_target`)."""
        u = theme.unit()
        for row in self._heights:
            if hasattr(row, "chip_row"):
                _wrap(row)
                self._heights[row] = row.height
        rows = dict(self._heights)
        gaps = self.middle.spacing * (len(self.middle.children) - 1) + 2 * u * 0.1
        for optional in (self.blurb, self.title):
            if optional is None:
                continue
            fits = sum(rows.values()) + gaps <= self.middle.height
            optional.opacity = 1 if fits else 0
            if not fits:
                rows[optional] = 0
        scale = min(1.0, (self.middle.height - gaps) / max(sum(rows.values()), 1))
        floor = theme.min_target() * 1.04
        for row, base in rows.items():
            lowest = getattr(row, "lowest", floor)
            row.height = base if base == 0 or row is self.title else max(base * scale, min(base, lowest))
        if self.blurb is not None and self.blurb.opacity and not self._fits_at_smallest(self.blurb):
            self.blurb.opacity = 0  # a long translation on a narrow panel: the title and choices say enough

    def _fits_at_smallest(self, label: TLabel) -> bool:
        """Whether ``label``'s text fits its row of the middle even in the smallest font
        :func:`ui.widgets.fit_font` would shrink it to."""
        from kivy.core.text import Label as CoreLabel

        from .widgets import SMALLEST_FONT

        width = self.middle.width - 2 * self.middle.padding[0]
        core = CoreLabel(text=label.text, font_size=theme.font(label.scale) * SMALLEST_FONT, bold=label.bold,
                         font_name=label.font_name, text_size=(width, None), halign=label.halign)
        core.refresh()
        return core.texture.size[1] <= label.height + 1

    def _layout(self) -> None:
        u = theme.unit()
        width, height = self.root.size
        if width <= 1 or height <= 1:
            return
        self._layout_cards(width, height, u)
        self._fit_middle()

    def _layout_cards(self, width: float, height: float, u: float) -> None:
        if not self.has_cards:
            self.middle.size = (min(width * 0.8, u * 13), height * 0.86)
            self.middle.center = self.root.center
            return
        if self.orientation == "flat":
            boxes, (fx, fy, fw, fh) = seat_boxes(len(self.seats), width, height, "flat", hand_tiles=10, rows=2)
            for holder, card, box in zip(self._holders, self.cards, boxes):
                holder.rotation = 0
                holder.size = card.size = (box.length, box.depth)
                card.pos = (0, 0)
                holder.rotation = box.angle
                holder.center = (self.root.x + box.cx, self.root.y + box.cy)
            self.middle.size = (min(fw - u * 0.3, u * 12.5), fh - u * 0.2)
            self.middle.center = (self.root.x + fx + fw / 2, self.root.y + fy + fh / 2)
            return
        # upright: the cards in a column on the left, everything else on the right (on a portrait
        # panel the cards take more than half: a seat's name and its chips share a narrow row,
        # while the middle's rows wrap into three chips a line)
        column = min(width * (PORTRAIT_COLUMN if width < height else 0.5), u * 8.5)
        card_height = self._column_card_height(height)
        top = self.root.top - u * 0.2
        for holder, card in zip(self._holders, self.cards):
            holder.rotation = 0
            holder.size = card.size = (column - u * 0.3, card_height)
            card.pos = (0, 0)
            holder.pos = (self.root.x + u * 0.2, top - card_height)
            top -= card_height + u * 0.12
        self.middle.size = (width - column - u * 0.3, height - u * 0.3)
        self.middle.pos = (self.root.x + column + u * 0.1, self.root.y + u * 0.15)


def _labelled(label: str, row: Widget, stacked: bool = False) -> BoxLayout:
    """A setup row: what is chosen (left, or above when the middle is narrow) and its chips."""
    u = theme.unit()
    if stacked:
        box = BoxLayout(orientation="vertical", spacing=u * 0.05, size_hint=(1, None))
        box.add_widget(TLabel(msg=label, scale=0.85, size_hint=(1, None), height=u * 0.65))
        box.chip_row = row
        box.add_widget(row)
        _wrap(box)
        return box
    box = BoxLayout(spacing=u * 0.2, size_hint=(1, None))
    box.add_widget(TLabel(msg=label, scale=0.85, halign="right", size_hint=(0.34, 1)))
    box.chip_row = row
    box.add_widget(row)
    _wrap(box)
    return box


def _wrap(box: BoxLayout) -> None:
    """A row's chips in one line beside the label, or, stacked, two or three to a line (a mode may add chips after the setup is
    built), and its full height (what :meth:`SetupScreen._fit_middle` lowers it from when the
    middle is short): ``box.lowest`` is the least that keeps each chip a fingertip high."""
    u = theme.unit()
    row = box.chip_row
    chips = len(row.chips)
    if box.orientation == "horizontal":  # beside its label: one line of chips
        row.cols = max(chips, 1)
        box.height = u * 1.05
        return
    row.cols = (3 if chips > 4 else 2) if chips >= 4 else max(chips, 1)
    lines = math.ceil(chips / row.cols) if chips else 1
    box.height = u * (0.7 + 1.1 * lines)
    box.lowest = u * 0.5 + lines * (theme.min_target() * 1.04 + row.spacing[1])
