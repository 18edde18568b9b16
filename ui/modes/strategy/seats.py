"""The strategy game's widgets at each seat, facing its player: the seat's plate (who plays, the
score, what to do), a short note (a forced space's review), the bars of big buttons (Confirm and
Take back), and the card where a robot takes the seat over or gives it back. The screen that lays
them out around the table is :mod:`.play`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from kivy.clock import Clock, ClockEvent
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Canvas, Color, Ellipse, InstructionGroup, Line, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scatter import Scatter

from ... import theme, tileart
from ...audit import SHORTEN_MARGIN
from ...countdown import Countdown
from ...i18n import N_, Words, follow_language, i18n
from ...table import SeatBox
from ...widgets import ChipRow, TButton, TLabel, fit_font, panel_background
from ...words import levels, seat_name

if TYPE_CHECKING:
    from .play import StrategyScreen

LONG_PRESS = 1.2
"""Holding a seat's plate this long opens its card (a robot takes over, or gives the seat back)."""
STRATEGY_LEVELS = levels("beginner", "club", "expert", "master")
"""The strategy game's robots, weakest first."""


def ink(colour: str) -> theme.RGBA:
    """What reads on the bright link colour ``colour`` (a seat's disc): dark on yellow and green."""
    return theme.TABLE_DARK if colour in "YG" else theme.TEXT


DISC = 0.72 * 0.66
"""A plate's colour disc across, in touch units."""
EDGE = 0.12
"""From a plate's end to its disc, in touch units."""
PAD = 0.14
"""Between a plate's disc, clock, name and instruction, and after the last, in touch units."""
GLYPH_SHARE = 0.8
"""The glyph of who plays a seat, as a share of its disc's width: inside the marking's ring."""
NAME_SHRINK = 0.75
"""The smallest share of its own font a plate's name and score shrink to, on one line, before
they give way (never under the legible size)."""


@dataclass(frozen=True)
class PlateName:
    """Who a plate's seat is and its score, in each wording its plate may show: the one place that
    words them."""

    name: str
    """The seat's name as shown, "(robot)" included (:func:`ui.words.seat_name`)."""
    plain: str
    """The seat's name without the robot's mark."""
    score: str
    """The seat's score (its longest line, or loop counted double)."""

    @property
    def lines(self) -> tuple[str, str, str]:
        """The wordings on one line, longest first, each ending in the score: the last, the score
        alone."""
        return f"{self.name} · {self.score}", f"{self.plain} · {self.score}", self.score

    @property
    def stacked(self) -> str:
        """The name over the score, on two lines: what the acting seat's plate shows where the two
        on one line leave what to do no room (Doubles' "Drużyna czerwona" gave way to the score
        alone, and the table did not say whose turn it was)."""
        return f"{self.plain}\n{self.score}"


def _wide(text: str, font_size: float) -> float:
    """How wide ``text`` is, on one line, in the plates' bold font of ``font_size``."""
    return float(CoreLabel(font_size=font_size, bold=True).get_extents(text)[0])


def _two_line_width(text: str, font_size: float) -> float:
    """How wide ``text`` is at its narrowest on two lines (broken between two words), in the
    plates' bold font of ``font_size``: infinite for a single word."""
    words = text.split()
    return min((max(_wide(" ".join(words[:i]), font_size), _wide(" ".join(words[i:]), font_size))
                for i in range(1, len(words))), default=math.inf)


class SeatPlate(Scatter):
    """By a hand, facing its player: a colour disc, ringed with its colour's marking, showing who
    plays the seat (a person or a robot's head), the seat's name and score, and, lit in the seat's
    colour while they are to act, what to do. A tap on the disc, or holding the plate anywhere, opens the seat's card (who plays it)."""

    def __init__(self, on_long_press: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                         auto_bring_to_front=False, **kwargs)
        self.colour = "R"
        self.lit = False
        self.name_label = Label(bold=True, halign="left", valign="middle", shorten=True, shorten_from="right")
        self.step_label = Label(bold=True, halign="right", valign="middle")
        self.clock_label = Label(bold=True, halign="left", valign="middle")
        with self.canvas.before:
            self._bg_colour = Color(0, 0, 0, 0.5)
            self._bg = RoundedRectangle(radius=[8])
            self._disc_colour = Color(1, 1, 1, 1)
            self._disc = Ellipse()
            self._marking = Canvas()
            self._ring_colour = Color(1, 1, 1, 0.9)
            self._ring = Line(circle=(0, 0, 1), width=1.4)
            self._glyph = InstructionGroup()
        self.add_widget(self.name_label)
        self.add_widget(self.step_label)
        self.add_widget(self.clock_label)
        self._open = on_long_press
        self.hold_seconds = LONG_PRESS
        """How long a finger holds the plate to open its card."""
        self._disc_end = 0.0  # a touch up to here (plate coordinates) is a tap on the disc
        self._presses: dict[Any, tuple[bool, ClockEvent]] = {}
        """Each finger on the plate: whether it came down on the disc, and its long press to come.
        One finger's own: another finger landing on the plate, or lifting, must not cancel it or
        take its tap (a tap on the disc was lost while a second finger rested on the plate)."""
        self.clock_shown = False
        self._marked: tuple[Any, ...] | None = None
        """What the disc's marking was last drawn for (colour, centre x and y, diameter)."""
        self._angle = 0.0
        """The angle the plate is turned (as last set: reading a Scatter's rotation works it out)."""
        self._shown: tuple[Any, ...] | None = None
        """What the plate was last laid out with (:meth:`show`'s arguments, the unit, the
        language): the screen shows its plates again on each of its changes, several in one turn."""

    def _draw_glyph(self, cx: float, cy: float, d: float, robot: bool, ink_rgba: theme.RGBA) -> None:
        """Who plays the seat, drawn in the disc: a robot's head (antenna, two eyes) or a person."""
        g = self._glyph
        g.clear()
        g.add(Color(*ink_rgba))
        if robot:
            w = d * 0.5
            g.add(RoundedRectangle(pos=(cx - w / 2, cy - w * 0.55), size=(w, w * 0.8), radius=[w * 0.18]))
            g.add(Line(points=[cx, cy + w * 0.25, cx, cy + w * 0.5], width=max(1.0, d * 0.05)))
            g.add(Ellipse(pos=(cx - d * 0.05, cy + w * 0.45), size=(d * 0.1, d * 0.1)))
            g.add(Color(*theme.LINK[self.colour]))
            for dx in (-w * 0.2, w * 0.2):
                g.add(Ellipse(pos=(cx + dx - d * 0.05, cy - w * 0.2), size=(d * 0.1, d * 0.1)))
        else:
            g.add(Ellipse(pos=(cx - d * 0.12, cy + d * 0.02), size=(d * 0.24, d * 0.24)))
            g.add(Line(ellipse=(cx - d * 0.22, cy - d * 0.36, d * 0.44, d * 0.4, -90, 90), width=max(1.2, d * 0.06)))

    def _draw_marking(self, cx: float, cy: float, d: float) -> None:
        """The colour's marking round the disc's rim, drawn as a link of that colour is drawn on the
        tiles (:func:`ui.tileart.draw_link`: red dots, blue dashes...), on a tile as wide as the disc
        (its band then a fifth of the disc): a disc of plain colour told the plates apart only by
        hue, which players who confuse colours cannot read."""
        rim = 0.38  # the band's middle, in the tile's circumradius: its outer edge inside the disc
        steps = 48
        path = [(rim * math.cos(2 * math.pi * i / steps), rim * math.sin(2 * math.pi * i / steps))
                for i in range(steps + 1)]

        def flat(points: list[tileart.Point]) -> list[float]:
            return [c for x, y in points for c in (cx + x * d, cy + y * d)]

        drawn = (self.colour, cx, cy, d)
        if drawn == self._marked:  # the same again: a lit plate shown with other words keeps its disc
            return
        self._marked = drawn
        self._marking.clear()
        with self._marking:
            tileart.draw_link(self.colour, path, flat, d)

    def show(self, angle: float, centre: tuple[float, float], size: tuple[float, float], colour: str,
             words: PlateName, step: str, lit: bool, robot: bool = False, clock: str | None = None,
             shorter: str = "") -> None:
        """Lay the plate out: ``size`` (length along the edge, depth), centred on ``centre``, turned
        ``angle`` degrees to face its player, with the seat's ``clock`` (its time left, when the
        game has clocks) after the disc, then the seat's name and score (``words``) in the longest
        wording that fits (:meth:`_fit_name`). A deep plate (beside a hand) puts the instruction on
        a second line; a thin one (along the hand's inner edge) puts it at the far end, or its
        ``shorter`` wording where the instruction leaves the acting seat's name no room.
        Shown again as it is, it does nothing: measuring its words is most of what opening a game
        costs, and a screen shows its plates again on every change of its table."""
        u = theme.unit()
        shown = (angle, centre, size, colour, words, step, lit, robot, clock, shorter, u, i18n.language)
        if shown == self._shown:
            return
        self._shown = shown
        length, height = size
        self.colour, self.lit = colour, lit
        self.size = size  # its own, unturned: a plate turned as it was stays so (turning a Scatter is costly)
        self._bg.pos, self._bg.size = (0, 0), self.size
        self._bg.radius = [min(height, u * 0.72) * 0.3]
        self._bg_colour.rgba = theme.PLATE[colour][:3] + (0.95,) if lit else (0.04, 0.1, 0.08, 0.82)
        two_lines = height >= u * 1.2
        d = u * DISC
        disc_y = height - u * 0.36 - d / 2 if two_lines else (height - d) / 2
        self._disc.pos, self._disc.size = (u * EDGE, disc_y), (d, d)
        self._disc_colour.rgba = theme.LINK[colour]
        self._ring_colour.rgba = theme.TEXT if lit else theme.TEXT_DIM
        self._ring.circle = (u * EDGE + d / 2, disc_y + d / 2, d / 2)
        self._draw_marking(u * EDGE + d / 2, disc_y + d / 2, d)
        self._draw_glyph(u * EDGE + d / 2, disc_y + d / 2, d * GLYPH_SHARE, robot, ink(colour))
        self._disc_end = u * EDGE + d + u * 0.25
        self.disc_centre = (u * EDGE + d / 2, disc_y + d / 2)
        """The disc's centre, in the plate's own (turned) coordinates."""
        self.disc_radius = d / 2
        """The disc's radius (pixels)."""
        pad = u * PAD
        left = u * EDGE + d + pad
        text = theme.TEXT  # white reads on every lit plate (theme.PLATE) and on the dark one
        step_label, name_label = self.step_label, self.name_label
        step_label.text, step_label.color = step, text
        name_label.color = text
        name_label.font_size = theme.font(0.72)
        clock_label = self.clock_label
        clock_label.font_size, clock_label.color = theme.font(0.72), text
        clock_label.text = clock or ""
        # room for the widest time it shows, so the plate stays as it is while the clock runs
        clock_w = CoreLabel(font_size=clock_label.font_size, bold=True).get_extents("-88:88")[0] if clock else 0.0
        left += clock_w + (pad if clock is not None else 0.0)
        share = length - 2 * pad if two_lines else (length - left - pad) * 0.72
        step_label.font_size = theme.font(0.85 if two_lines else 0.82)
        step_label.text_size = (None, None)
        step_label.texture_update()
        wide = step_label.texture_size[0]
        room = share
        smallest = max(step_label.font_size * 0.6, theme.min_text())  # never under the legible size
        # the acting seat's name over its score, on two lines, where one line leaves no room
        stack_font = self._stack_font(u * 0.72 if two_lines else height) if lit else 0.0
        if not two_lines and step:
            # the colour's name (for colour-blind players) before a large instruction, as long as
            # the instruction still fits in the smallest font it shrinks to (measured: a text's
            # width is not quite in proportion to its font size, and "Thinking..." was cut by 2 px),
            # and the score alone at the legible size: past that the instruction takes two lines
            # (the score beside "Comblez l'Espace Forcé orange" was 15.2 px on the 7" portrait
            # panel, where 2.5 mm is 19.7 px). The acting seat's plate keeps its name rather: its
            # instruction on two lines, else the name in a smaller font, else over the score: its
            # score alone ("linia 0" beside "Zapełnij miejsce przymusu") did not say whose turn it was
            least = _wide(step, smallest) + 1
            two = _two_line_width(step, smallest) + 1 if lit else math.inf
            avail = length - left - 2 * pad  # the name's box and the instruction's
            margin = SHORTEN_MARGIN + 1
            one_line = _wide(words.lines[1], name_label.font_size)
            named = one_line + pad
            taken = [named]  # what the name takes in each form it may take, the plate's own first
            if lit:
                taken.append(one_line * max(NAME_SHRINK, theme.min_text() / name_label.font_size) + margin)
                if stack_font:
                    taken.append(self._stack_width(words, theme.min_text()) + margin)
            score = _wide(words.score, theme.min_text()) + margin + pad
            found = next((r for r in (min(share, avail - w) for w in taken) if least <= r or two <= r), None)
            if found is None and lit and shorter:
                self.show(angle, centre, size, colour, words, shorter, lit, robot, clock)
                self._shown = shown  # laid out for these arguments, in its other wording
                return
            room = found if found is not None else max(min(share, avail - named), min(least, share, avail - score))
        while step and wide > room and step_label.font_size > smallest:
            # shrink a long instruction rather than cut it (a text's width is not quite in
            # proportion to its font size: shrink again while it is still too wide)
            step_label.font_size = max(smallest, step_label.font_size * room / wide * 0.98)
            step_label.texture_update()
            wide = step_label.texture_size[0]
        if step and wide > room:
            # still too long at the legible size (a short plate beside the Hint button, on the
            # denser portrait panel): on two lines, rather than at 10.6 px in one
            step_label.text_size = (room, None)
            step_label.texture_update()
            wide = step_label.texture_size[0]
        step_w = min(wide, room) if step else 0.0
        if two_lines:
            name_label.size = (max(length - left - pad, 1), u * 0.72)
            name_label.pos = (left, height - u * 0.72)
            clock_label.size, clock_label.pos = (clock_w, u * 0.72), (left - clock_w - pad, height - u * 0.72)
            step_label.size = (step_w, height - u * 0.72)
            step_label.pos = ((length - step_w) / 2, 0)
        else:
            step_label.size = (step_w, height)
            step_label.pos = (length - pad - step_w, 0)
            name_label.size = (max(length - left - pad - step_w - pad, 1), height)
            name_label.pos = (left, 0)
            clock_label.size, clock_label.pos = (clock_w, height), (left - clock_w - pad, 0)
        clock_label.text_size = clock_label.size
        nameless = self._fit_name(words, lit, stack_font)
        if clock is not None and (name_label.texture_size[0] > name_label.width or (nameless and not lit)):
            # too narrow for both (a waiting seat's plate in an upright bar): the colour's name and
            # the score before the clock, which is not running; the plate shows it again once the
            # seat is to act
            self.show(angle, centre, size, colour, words, step, lit, robot, None, shorter)
            self._shown = shown  # laid out for these arguments, in its other wording
            return
        self.clock_shown = clock is not None
        name_label.text_size = name_label.size
        fit_font(name_label, name_label.font_size)  # even the score alone: smaller rather than cut
        if angle != self._angle:
            self.rotation, self._angle = angle, angle
        self.center = centre

    def _fit_name(self, words: PlateName, lit: bool, stack_font: float) -> bool:
        """Put the seat's name and score in the name's box: the longest wording on one line that
        fits whole in the plate's font (the score is never cut), else the name and score in a font
        down to :data:`NAME_SHRINK` of its own, never under the legible size (the colour's name,
        for colour-blind players: the disc's marking tells the colour too), else, on the acting
        seat's plate, the name over the score in ``stack_font`` (0: none) where that is legible and
        fits, else the score alone. Whether the name gave way to the score alone."""
        label = self.name_label
        label.shorten, label.text_size = True, (None, None)
        for wording in words.lines:
            label.text = wording
            label.texture_update()
            if label.texture_size[0] <= label.width:
                break
        if label.text != words.score:
            return False
        label.text = words.lines[1]
        label.texture_update()
        scale = (label.width - SHORTEN_MARGIN - 1) / label.texture_size[0]  # Kivy's rule
        if scale >= max(NAME_SHRINK, theme.min_text() / label.font_size):
            label.font_size *= scale
            label.texture_update()
            return False
        size = stack_font
        while lit and size >= theme.min_text() and self._stack_width(words, size) + SHORTEN_MARGIN + 1 > label.width:
            size = max(size * 0.97, theme.min_text()) if size > theme.min_text() else 0.0  # down to the legible size
        if lit and size >= theme.min_text():
            label.shorten = False  # Kivy's shortening puts the two lines on one
            label.text, label.font_size = words.stacked, size
        else:
            label.text = words.score
        label.texture_update()
        return label.text == words.score

    @staticmethod
    def _stack_width(words: PlateName, font_size: float) -> float:
        """How wide the name over the score (:attr:`PlateName.stacked`) is in ``font_size``."""
        return max(_wide(words.plain, font_size), _wide(words.score, font_size))

    @staticmethod
    def _stack_font(depth: float) -> float:
        """The font the name and score take on two lines in a box ``depth`` deep: the plate's own,
        or smaller to fit; 0 where that would be under the legible size."""
        size = theme.font(0.72)
        while 2 * CoreLabel(font_size=size, bold=True).get_extents("Ág")[1] > depth and size >= theme.min_text():
            size *= 0.97
        return size if size >= theme.min_text() else 0.0

    @staticmethod
    def length_for(words: str) -> float:
        """How long a thin plate must be (along its edge) to show ``words`` alone, whole, after its
        disc, in the plate's font: what :meth:`show` leaves the name (its paddings, Kivy's
        shortening margin) with no instruction nor clock beside it."""
        u = theme.unit()
        text = CoreLabel(font_size=theme.font(0.72), bold=True).get_extents(words)[0]
        return u * (EDGE + DISC + 3 * PAD) + text + SHORTEN_MARGIN + 1

    def set_clock(self, clock: str) -> None:
        """The seat's time left, as the clock runs (the layout stays: its room is kept)."""
        if self.clock_shown:
            self.clock_label.text = clock

    # a tap on the disc or a long press anywhere: the seat's card
    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        touch.grab(self)
        on_disc = self.to_local(*touch.pos)[0] <= self._disc_end
        self._presses[touch.uid] = (on_disc, Clock.schedule_once(lambda dt: self._open(), self.hold_seconds))
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self and not self.collide_point(*touch.pos) and touch.uid in self._presses:
            self._presses[touch.uid][1].cancel()
        return touch.grab_current is self

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            on_disc, hold = self._presses.pop(touch.uid, (False, None))
            held = hold is None or not hold.is_triggered  # its long press came (or was cancelled)
            if hold is not None:
                hold.cancel()
            if on_disc and self.collide_point(*touch.pos) and not held:
                self._open()
            return True
        return False


class Bubble(Scatter):
    """A short note turned to face one player (a forced space's review), for a few seconds, in the
    language staff switch to while it shows; it ignores touches."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                         auto_bring_to_front=False, **kwargs)
        self.label = Label(halign="center", valign="middle", color=theme.TEXT)
        self.add_widget(self.label)
        with self.canvas.before:
            Color(*theme.rgb("#3b2a05", 0.95))
            self._bg = RoundedRectangle(radius=[10])
            Color(*theme.ACCENT)
            self._edge = Line(rounded_rectangle=(0, 0, 1, 1, 10), width=1.6)
        self._hide = Countdown(self.hide, 6.0)
        self.opacity = 0
        self.text = ""
        self._words: Words = str  # nothing said yet: ""
        self._where: tuple[float, tuple[float, float], tuple[float, float]] = (0.0, (0.0, 0.0), (0.0, 0.0))
        follow_language(self, lambda bubble: bubble._reword())

    def say(self, words: Words, angle: float, centre: tuple[float, float], bounds: tuple[float, float]) -> None:
        self._words, self._where = words, (angle, centre, bounds)
        self._lay_out()
        self.opacity = 1
        self._hide.start()

    def _reword(self) -> None:
        """The note shown, in the language switched to; its time runs on."""
        if self.opacity > 0:
            self._lay_out()

    def _lay_out(self) -> None:
        angle, centre, bounds = self._where
        u = theme.unit()
        self.text = self._words()
        self.rotation = 0.0
        self.size = (u * 6.4, u * 1.6)
        self.label.size = self.size
        self.label.text_size = (self.width - u * 0.4, None)
        self.label.font_size = theme.font(0.8)
        self.label.text = self.text
        self._bg.pos, self._bg.size = (0, 0), self.size
        self._edge.rounded_rectangle = (0, 0, self.width, self.height, 10)
        self.rotation = angle
        half_w, half_h = (self.bbox[1][0] / 2, self.bbox[1][1] / 2)
        x = min(max(centre[0], half_w), bounds[0] - half_w)
        y = min(max(centre[1], half_h), bounds[1] - half_h)
        self.center = (x, y)

    def hide(self) -> None:
        self.opacity = 0
        self.text = ""

    def on_touch_down(self, touch: Any) -> bool:
        return False


BAR_BESIDE = 3.4
"""The room (touch units) beside a hand, along its edge, that takes a seat's bars there, off the table."""
PLATE_BESIDE = 3.6
"""The room (touch units) beside a hand, along its edge, that takes its plate there, off the table."""
EDGE_PLATE = 0.85
"""How far (touch units) a plate along a hand's inner edge reaches into the table."""


class SeatBar(Scatter):
    """A bar of big buttons at one player's seat, facing them, rimmed in the seat's colour; the
    buttons are (message, action, share of the length, background) in reading order. Hidden, it
    takes no touch."""

    def __init__(self, buttons: list[tuple[str, Callable[[], None], float, theme.RGBA]], rim: float = 0.08,
                 **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                         auto_bring_to_front=False, **kwargs)
        u = theme.unit()
        self.rim = u * rim
        """The margin (pixels) between the bar's rim and its buttons."""
        self.box = BoxLayout(spacing=u * 0.15, padding=self.rim)
        panel_background(self.box, (0.02, 0.06, 0.05, 0.9), radius=0.25)
        self.buttons: list[TButton] = []
        for msg, action, share, bg in buttons:
            button = TButton(msg=msg, scale=0.85, bold=True, size_hint=(share, 1), bg=list(bg))
            button.bind(on_release=lambda *_, act=action: act())
            self.box.add_widget(button)
            self.buttons.append(button)
        self.add_widget(self.box)
        with self.box.canvas.after:  # the bar's rim in the seat's colour: whose bar it is
            self._edge_colour = Color(1, 1, 1, 1)
            self._edge = Line(rounded_rectangle=(0, 0, 1, 1, 1), width=2.0)
        self.opacity = 0
        self.disabled = True
        self._laid: tuple[Any, ...] | None = None
        """What :meth:`show` last laid the bar out for."""
        self._angle = 0.0
        """The angle the bar is turned (as last set: reading a Scatter's rotation works it out)."""

    def show(self, angle: float, centre: tuple[float, float], size: tuple[float, float], colour: str) -> None:
        """Show the bar ``size`` (length, depth) centred on ``centre``, turned ``angle`` degrees to
        face the seat of ``colour``. Laid out again only when one of these changed: a screen shows
        its bars again on every change of its table, and turning a Scatter is costly."""
        u = theme.unit()
        laid = (angle, tuple(centre), tuple(size), colour, u)
        if laid != self._laid:
            self._laid = laid
            self.size = self.box.size = size  # its own, unturned: a bar turned as it was stays so
            self.box.pos = (0, 0)
            self._edge_colour.rgba = theme.LINK[colour]
            self._edge.rounded_rectangle = (0, 0, size[0], size[1], u * 0.25)
            if angle != self._angle:
                self.rotation, self._angle = angle, angle
            self.center = centre
        self.opacity, self.disabled = 1, False

    def hide(self) -> None:
        self.opacity, self.disabled = 0, True

    @property
    def shown(self) -> bool:
        return self.opacity > 0

    def on_touch_down(self, touch: Any) -> bool:
        return self.shown and super().on_touch_down(touch)


class ConfirmBar(SeatBar):
    """At the seat of a player whose tile lies provisionally on the table: **Take back** and a big
    green **Confirm**. Only a confirmed tile is played (journaled, replaced from the bag, the turn
    moving on); until then it can be turned, moved or taken back."""

    def __init__(self, on_confirm: Callable[[], None], on_take_back: Callable[[], None], **kwargs: Any) -> None:
        super().__init__([(N_("Take back"), on_take_back, 0.42, theme.BUTTON),
                          (N_("Confirm"), on_confirm, 0.58, theme.GO)], **kwargs)
        self.back_button, self.confirm_button = self.buttons


class TakeOverCard(Scatter):
    """Facing one seat: who plays it, a person or a robot of some level, chosen with one tap."""

    def __init__(self, screen: StrategyScreen, seat: int, **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None),
                         auto_bring_to_front=False, **kwargs)
        u = theme.unit()
        self.screen, self.seat = screen, seat
        game = screen.game
        self.box = BoxLayout(orientation="vertical", padding=u * 0.15, spacing=theme.min_gap())  # Close a finger off the choices
        panel_background(self.box, theme.rgb("#1d2530", 0.97), radius=0.25)
        top = BoxLayout(spacing=u * 0.1)
        top.add_widget(TLabel(msg=N_("Who plays for {name}?"),
                              values={"name": seat_name(game, seat, robot_mark=False)},
                              scale=0.85, bold=True, halign="left"))
        self.close_button = TButton(msg=N_("Close"), scale=0.8, size_hint=(None, 1), width=u * 2.0)
        self.close_button.bind(on_release=lambda *_: self.close())
        top.add_widget(self.close_button)
        self.box.add_widget(top)
        choices = ((None, N_("Person")),) + STRATEGY_LEVELS
        self.choices = ChipRow(choices, game.seats[seat].robot, self._choose, scale=0.75)
        self.box.add_widget(self.choices)
        self.add_widget(self.box)

    def _choose(self, level: str | None) -> None:
        self.close()
        self.screen.set_robot(self.seat, level)

    @staticmethod
    def size_for(box: SeatBox) -> tuple[float, float]:
        """The card's size facing ``box``'s player: (length along their edge, depth)."""
        u = theme.unit()
        return min(box.length, u * 9.5), u * 2.5

    def place(self, box: SeatBox, centre: tuple[float, float]) -> None:
        self.rotation = 0.0
        self.size = self.box.size = self.size_for(box)
        self.box.pos = (0, 0)
        self.rotation = box.angle
        self.center = centre

    def close(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)
        if self.screen.card is self:
            self.screen.card = None
