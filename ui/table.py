"""Seats around the table: where each player's hand goes and which way it faces.

With the screen lying flat, players sit around it: each hand lies along its player's edge and faces
them (the far side turned 180 degrees, the short sides 90 when a hand fits along them). On a portrait
panel two players sit at the short ends, three or four around the edges, five or six two to each
long side. Upright
(``settings.orientation == "upright"``) every hand sits at the bottom. :func:`seat_boxes` decides
the geometry (a pure function, so it can be checked without a screen); :class:`TableLayout` puts a
board and the hands on screen accordingly, and shows each player's messages facing them.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Collection, Iterable, Iterator, Literal, NamedTuple, Sequence

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.scatter import Scatter
from kivy.uix.widget import Widget

from engine.geometry import Cell
from engine.modes import Refused

from .countdown import Countdown
from . import theme
from .board import BoardView, DragLayer, HandView
from .hexes import SQRT3, extent
from .i18n import N_, Translated, Words, follow_language
from .refusals import explain
from .widgets import fit_font


def crosswise(angle: float) -> bool:
    """Whether something turned ``angle`` degrees to face a player sits at a side edge of the
    screen (its length runs up the screen, not across it)."""
    return abs(math.sin(math.radians(angle))) > 0.5


class SeatBox(NamedTuple):
    """A hand's box: its centre, its length along the player's edge and its depth, and the angle
    (degrees counter-clockwise) it is turned so that it faces its player (0: bottom edge)."""

    cx: float
    cy: float
    length: float
    depth: float
    angle: float

    def up(self) -> tuple[float, float]:
        """The direction away from the player, towards the middle of the table."""
        a = math.radians(self.angle)
        return -math.sin(a), math.cos(a)

    @property
    def across(self) -> bool:
        """Whether the hand lies along a side edge (:func:`crosswise`)."""
        return crosswise(self.angle)

    def rect(self, x: float = 0.0, y: float = 0.0) -> Rect:
        """Where the box lies (x, y, width, height), upright or turned, moved by (``x``, ``y``):
        its layout's position, for the coordinates the layout's parent uses."""
        w, h = (self.depth, self.length) if self.across else (self.length, self.depth)
        return x + self.cx - w / 2, y + self.cy - h / 2, w, h


BOTTOM, LEFT, TOP, RIGHT = 0.0, -90.0, 180.0, 90.0
NEWS_SECONDS = 8.0
"""How long table-wide news (who starts, who is out, the bag is empty) stays at every seat."""
NEWS_LINES = 2
"""The lines table-wide news takes at a seat's tag, at most, where controls make room for it."""


def hand_depth(width: float, height: float) -> float:
    """Depth of a one-row hand strip: tiles of about 0.72 touch units circumradius."""
    return min(width, height) / 10 * 0.72 * 2.15


ROW_DEPTH = 0.62
"""Each extra row of tiles deepens a hand by this share of a one-row hand's depth."""
_ROW_HEIGHT = 2 * 1.02 / 0.94
"""A row of tiles' share of a hand's depth, in circumradii (as :class:`HandView` lays them)."""


def seat_boxes(
    players: int,
    width: float,
    height: float,
    orientation: Literal["flat", "upright"] = "flat",
    hand_tiles: int = 6,
    rows: int = 1,
    min_radius: float = 0.0,
    beside: tuple[float, float] = (0.0, 0.0),
) -> tuple[list[SeatBox], tuple[float, float, float, float]]:
    """The hands' boxes, in seating order (clockwise seen from above, starting at the bottom), and
    the rectangle (x, y, w, h) left free for the board. ``rows``: rows of tiles a hand wraps into;
    a hand is deep enough for its rows of tiles of circumradius ``min_radius`` (a fingertip's: on a
    dense panel, such as the 7" portrait one, a big deal's rows need more than their share).
    ``beside``: the room a screen wants along the edge at a flat hand's right and left (its
    plate, its buttons), where they cost the board nothing: a hand alone on its edge that has
    that room, but not at its right once centred, moves towards its player's left (:func:`_aside`)."""
    one_row = hand_depth(width, height)
    factor = 1 + ROW_DEPTH * (rows - 1)
    depth = max(one_row * factor, rows * min_radius * _ROW_HEIGHT)
    radius = one_row / 2.15
    wanted = math.ceil(hand_tiles / rows) * SQRT3 * radius * 1.1
    if players <= 0:
        return [], (0.0, 0.0, width, height)
    if orientation == "upright":
        return _upright(players, width, height, one_row, wanted, factor)
    # clockwise from above: bottom edge right-to-left, left edge, top edge left-to-right, right edge
    def along(count: int, span: float) -> list[tuple[float, float]]:
        """(offset from the edge's middle, length) for ``count`` hands shared along an edge."""
        length = min(wanted, span / count * 0.96)
        slots = [(i - (count - 1) / 2) * span / count for i in range(count)]
        return [(s, length) for s in slots]

    sides_fit = wanted <= height - 2 * depth * 0.15
    if players <= 2:
        plan = {BOTTOM: 1, TOP: players - 1}
    elif height > width and players >= 5:  # portrait: the long sides take two each
        plan = {BOTTOM: 1, LEFT: 2, TOP: players - 4 - (players >= 6), RIGHT: 1 + (players >= 6)}
    elif sides_fit:
        plan = {BOTTOM: 1 + (players >= 5), LEFT: 1, TOP: players - 3 - (players >= 5), RIGHT: 1}
    else:
        plan = {BOTTOM: (players + 1) // 2, TOP: players // 2}
    # the corners belong to the side hands, if any; on a portrait panel to the (short) ends
    portrait = height > width
    sides = depth if plan.get(LEFT) and not portrait else 0.0
    ends = depth if plan.get(LEFT) and portrait else 0.0
    boxes: list[SeatBox] = []
    for edge in (BOTTOM, LEFT, TOP, RIGHT):
        count = plan.get(edge, 0)
        if not count:
            continue
        span = width - 2 * sides if edge in (BOTTOM, TOP) else height - 2 * ends
        for offset, length in along(count, span):
            if edge == BOTTOM:
                box = SeatBox(width / 2 - offset, depth / 2, length, depth, edge)
            elif edge == TOP:
                box = SeatBox(width / 2 + offset, height - depth / 2, length, depth, edge)
            elif edge == LEFT:
                box = SeatBox(depth / 2, height / 2 + offset, length, depth, edge)
            else:
                box = SeatBox(width - depth / 2, height / 2 - offset, length, depth, edge)
            boxes.append(_aside(box, span, *beside) if count == 1 else box)
    left = depth if plan.get(LEFT) else 0.0
    right = depth if plan.get(RIGHT) else 0.0
    bottom = depth if plan.get(BOTTOM) else 0.0
    top = depth if plan.get(TOP) else 0.0
    return boxes, (left, bottom, width - left - right, height - bottom - top)


def _aside(box: SeatBox, span: float, right: float, left: float) -> SeatBox:
    """``box``, centred on an edge ``span`` long, moved towards its player's left just enough to
    leave ``right`` at its right, when the edge has room for ``right`` and ``left`` both: at a
    table of three or four the plates then lie beside the hands, not along the board's edges (the
    board had 25 % less width on the 7" portrait panel, 25 % less height on the 15.6" one)."""
    room = span - box.length
    if room / 2 >= right or room < right + left:
        return box
    shift, a = right - room / 2, math.radians(box.angle)
    return box._replace(cx=box.cx - math.cos(a) * shift, cy=box.cy - math.sin(a) * shift)


def _upright(
    players: int, width: float, height: float, depth: float, wanted: float, factor: float = 1.0
) -> tuple[list[SeatBox], tuple[float, float, float, float]]:
    """Every hand at the bottom, in as few rows as keep the tiles at least 80 % of their full size
    (hands never take more than 45 % of the height). ``factor``: a hand's depth in one-row depths."""

    def radius(rows: int) -> float:
        largest = depth / 2.15
        length = width / math.ceil(players / rows) * 0.96
        return min(largest, largest * length / wanted, height * 0.45 / rows / 2.15 / factor)

    rows = next((k for k in range(1, players + 1) if radius(k) >= 0.8 * depth / 2.15),
                max(range(1, players + 1), key=radius))
    per_row = math.ceil(players / rows)
    row_depth = radius(rows) * 2.15 * factor
    boxes = []
    for i in range(players):
        row, col = divmod(i, per_row)
        in_row = min(per_row, players - row * per_row)
        length = width / in_row * 0.96
        cx = width / in_row * (col + 0.5)
        cy = row_depth * (rows - row - 0.5)
        boxes.append(SeatBox(cx, cy, length, row_depth, BOTTOM))
    used = row_depth * rows
    return boxes, (0.0, used, width, height - used)


def _tile_radius(box: SeatBox, tiles: int, rows: int) -> float:
    """The tile size a hand of ``tiles`` in ``rows`` gets in ``box`` (as :class:`HandView` lays it)."""
    wide, high = extent(-box.angle)
    cols = math.ceil(tiles / rows)
    return min(box.depth * 0.94 / (high * rows * 1.02), box.length / (cols * wide * 1.06))


def least_depth(box: SeatBox, tiles: int, most_rows: int, radius: float) -> float:
    """The least depth of ``box`` in which a hand of ``tiles`` (wrapped into up to ``most_rows``
    rows, as :class:`HandView` does) keeps tiles of circumradius ``radius``, at most its own depth:
    the fewest rows its length allows, each a tile deep."""
    wide, high = extent(-box.angle)
    for rows in range(1, max(most_rows, 1) + 1):
        if box.length / (math.ceil(max(tiles, 1) / rows) * wide * 1.06) >= radius:
            return min(box.depth, radius * 1.01 * high * rows * 1.02 / 0.94)  # a hair over: no rounding under
    return box.depth


Rect = tuple[float, float, float, float]
"""x, y, width, height."""


def overlaps(a: Rect, b: Rect) -> bool:
    """Whether ``a`` and ``b`` share more than an edge (a rectangle laid against another, its side
    computed from a centre and a length, may pass it by a rounding error)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    slack = 1e-6
    return ax + slack < bx + bw and bx + slack < ax + aw and ay + slack < by + bh and by + slack < ay + ah


def clearing_shift(rects: Sequence[Rect], away: Sequence[Rect], within: Rect,
                   gap: float = 0.0) -> tuple[float, float] | None:
    """The shortest move (dx, dy) that puts every one of ``rects`` whole inside ``within`` and
    ``gap`` or more clear of each of ``away``; None where no move does. The shortest lies where
    some rectangle's side meets a side of ``within`` or of an obstacle (or does not move): only
    those moves are tried."""
    wx, wy, ww, wh = within
    xs, ys = {0.0}, {0.0}
    for x, y, w, h in rects:
        xs |= {wx - x, wx + ww - x - w}
        ys |= {wy - y, wy + wh - y - h}
        for ax, ay, aw, ah in away:
            xs |= {ax + aw + gap - x, ax - gap - x - w}
            ys |= {ay + ah + gap - y, ay - gap - y - h}
    slack = 1e-6  # a side moved onto a side stays on it, whatever the rounding

    def clear(dx: float, dy: float) -> bool:
        for x, y, w, h in rects:
            x, y = x + dx, y + dy
            if x < wx - slack or y < wy - slack or x + w > wx + ww + slack or y + h > wy + wh + slack:
                return False
            if any(overlaps((x + slack, y + slack, w - 2 * slack, h - 2 * slack), ringed(other, gap))
                   for other in away):
                return False
        return True

    moves = sorted(((dx, dy) for dx in xs for dy in ys), key=lambda m: math.hypot(*m))
    return next((move for move in moves if clear(*move)), None)


def ringed(rect: Rect, gap: float) -> Rect:
    """``rect`` with a ring ``gap`` wide round it."""
    x, y, w, h = rect
    return x - gap, y - gap, w + 2 * gap, h + 2 * gap


def crowds(a: Rect, b: Rect) -> bool:
    """Whether controls ``a`` and ``b`` lie closer than a finger's gap (:func:`ui.theme.min_gap`),
    or over each other: a finger aimed at one of them may land on the other (the rule
    :func:`ui.audit.crowded` checks on screen, and :func:`clear_spot` keeps)."""
    return overlaps(ringed(a, theme.min_gap()), b)


def clear_spot(size: tuple[float, float], corners: Sequence[str], taken: Sequence[Rect],
               screen: tuple[float, float], table: Rect, inner: Sequence[float] | None = None,
               soft: Sequence[Rect] = (), board: Sequence[Rect] = (), controls: Sequence[Rect] = (),
               forced: Sequence[Rect] = ()) -> tuple[float, float]:
    """Where a control of ``size`` covers none of ``taken`` nor ``soft`` (places something may
    appear later) and lies a finger's gap (:func:`ui.theme.min_gap`) or more from each of the
    ``controls`` already on the table: the first free corner of the ``screen`` (between the
    hands) in the order of ``corners`` ("bottom-left", "bottom-right", "top-right", "top-left"),
    else of the free ``table``, else a place along the edges of ``inner`` (the table less what
    lies along its edges; default ``table``), then of ``table``. Where every place covers
    something, the one covering least of ``taken`` and the controls' gaps, of those the one
    covering least of the board's ``forced`` spaces (a player must see them to fill them), and of
    those the one covering least of ``soft`` and the ``board``'s tiles (shown now, where ``soft``
    may only come later), these counting ten times: a control goes over tiles rather than against
    another control, over a hand or over a forced space (at a crowded table Leave lay against the
    zoom's - and +, the gap round them weighing less than a tile, and a finger meant for one
    pressed the other; the Confirm bar lay 4 px over the + on the turned 7" panel, there a tile's
    weight against a bar's)."""
    u = theme.unit()
    w, h = size
    width, height = screen
    fx, fy, fw, fh = table
    gap = u * 0.04
    spots = {"bottom-left": (gap, gap), "bottom-right": (width - w - gap, gap),
             "top-right": (width - w - gap, height - h - gap), "top-left": (gap, height - h - gap)}
    at_table = {"bottom-left": (fx + gap, fy + gap), "bottom-right": (fx + fw - w - gap, fy + gap),
                "top-right": (fx + fw - w - gap, fy + fh - h - gap), "top-left": (fx + gap, fy + fh - h - gap)}
    step = u * 0.5
    edges = []
    for ex, ey, ew, eh in (inner or table, table) if inner else (table,):
        edges += [(ex + gap + i * step, y) for i in range(int(max(ew - w, 0) / step) + 1)
                  for y in (ey + gap, ey + eh - h - gap)]
        edges += [(x, ey + gap + i * step) for i in range(int(max(eh - h, 0) / step) + 1)
                  for x in (ex + gap, ex + ew - w - gap)]
    candidates = [spots[c] for c in corners] + [at_table[c] for c in corners] + edges

    hard = [(1.0, r) for r in [*taken, *(ringed(c, theme.min_gap()) for c in controls)]]
    weighted = [(10.0, r) for r in board] + [(1.0, r) for r in soft]
    tiers = [hard, [(1.0, r) for r in forced], weighted]
    best, least = candidates[0], [math.inf] * len(tiers)
    for x, y in candidates:  # the first of the least covering: the first covering nothing ends the search
        covered: list[float] = []
        for tier, rects in enumerate(tiers):  # each tier counts only between places tied on those before
            covered.append(_covered((x, y, w, h), rects, least[tier] if covered == least[:tier] else math.inf))
            if covered > least:
                break
        if covered < least:
            best, least = (x, y), covered
            if not any(least):
                break
    return best


def _covered(box: Rect, weighted: Sequence[tuple[float, Rect]], limit: float) -> float:
    """How much of ``weighted`` (each rectangle with its weight) ``box`` covers, each area times its
    weight; the count stops once past ``limit``."""
    x, y, w, h = box
    covered = 0.0
    for weight, (rx, ry, rw, rh) in weighted:
        if rx < x + w and x < rx + rw and ry < y + h and y < ry + rh:
            covered += weight * (min(x + w, rx + rw) - max(x, rx)) * (min(y + h, ry + rh) - max(y, ry))
            if covered > limit:
                break
    return covered


def facing_places(box: SeatBox, size: tuple[float, float], base: float, span: tuple[float, float] | None,
                  reach: float, against: Sequence[Rect] = ()) -> Iterator[tuple[tuple[float, float], Rect]]:
    """Where a card facing ``box``'s player may go, its ``size`` being (length along the hand's
    edge, depth away from it), nearest first, as (centre, rectangle): ``base`` beyond the hand's
    centre, slid along the edge within ``span`` (the free table along it, as (low, high); None: not
    slid) and moved further out by up to ``reach``. The first is the place slid within ``span``;
    made as they are asked for (the search often ends at one of the first). Along the edge, the
    places laid just against one of ``against`` (the card's end at its side) come too: the steps
    alone may pass by the one place where a card fits between two things."""
    u = theme.unit()
    length, depth = size
    ux, uy = box.up()
    w, h = (depth, length) if box.across else (length, depth)
    low, high = span if span is not None else (-math.inf, math.inf)
    middle = box.cy if box.across else box.cx  # on the screen's axis along the edge (whichever way the hand faces)
    slid = min(max(middle, low + length / 2), high - length / 2)
    step = u * 0.25
    room = int(max(high - low - length, 0.0) / step) if span is not None else 0
    axis = 1 if box.across else 0
    ends = [edge for rect in against for edge in (rect[axis] - length / 2 - 0.01,
                                                  rect[axis] + rect[axis + 2] + length / 2 + 0.01)]
    spots = sorted({min(max(spot, low + length / 2), high - length / 2)
                    for spot in [slid + k * step for k in range(-room, room + 1)] + (ends if span is not None else [])},
                   key=lambda spot: abs(spot - slid))
    for rise in (base + k * step for k in range(round(reach / step) + 1)):
        for spot in spots:
            cx, cy = (box.cx + ux * rise, spot + uy * rise) if box.across else (spot + ux * rise, box.cy + uy * rise)
            yield (cx, cy), (cx - w / 2, cy - h / 2, w, h)


def facing_spot(box: SeatBox, size: tuple[float, float], base: float, span: tuple[float, float] | None,
                avoid: Sequence[Sequence[Rect]], reach: float) -> tuple[float, float]:
    """Where the centre of a card facing ``box``'s player goes: the nearest of its
    :func:`facing_places` that covers none of ``avoid``: groups of rectangles, the most important
    first. Where no place clears every group the last one is given up, and so on; where none
    clears even the first, the place slid within ``span``."""
    places = list(facing_places(box, size, base, span, reach, [r for group in avoid for r in group]))
    for kept in range(len(avoid), 0, -1):
        clear = first_clear(places, [r for group in avoid[:kept] for r in group])
        if clear is not None:
            return clear
    return places[0][0]


def first_clear(places: Iterable[tuple[tuple[float, float], Rect]], rects: Sequence[Rect]) -> tuple[float, float] | None:
    """The centre of the first of ``places`` (as :func:`facing_places` gives them) whose rectangle
    covers none of ``rects``; None where each covers one."""
    return next((centre for centre, rect in places if not any(overlaps(rect, r) for r in rects)), None)


class Banner(Scatter):
    """A message turned to face one player, shown for a few seconds, just beyond their hand: no
    longer than the free table along their edge (it wraps into more lines instead, in a smaller
    font where that edge is short), and slid along the edge, or further out, clear of the
    controls it must not cover. A language switch while it shows says it again in the new
    language, laid out again as it was placed, for the rest of its time."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False,
                         size_hint=(None, None), auto_bring_to_front=False, **kwargs)
        self.label = Label(halign="center", valign="middle", color=theme.TEXT)
        self.add_widget(self.label)
        with self.canvas.before:
            self._colour = Color(0, 0, 0, 0)
            self._bg = RoundedRectangle(radius=[12])
        self._hide = Countdown(self.hide, 5.5)
        self.opacity = 0
        self._words: Words = str  # nothing said yet: ""
        self._where: tuple[SeatBox, Rect | None, Sequence[Sequence[Rect]], tuple[float, float] | None] | None = None
        """Where it was last placed (:meth:`place`'s arguments), to lay it out again in another language."""
        follow_language(self, lambda banner: banner._reword())

    def say(self, words: Words, box: SeatBox, good: bool = False, table: Rect | None = None,
            avoid: Sequence[Sequence[Rect]] = (), along: tuple[float, float] | None = None) -> None:
        """Show ``words`` for a few seconds, placed as :meth:`place` says."""
        self._words = words
        self.label.text = words()
        self._colour.rgba = theme.GOOD[:3] + (0.95,) if good else (0.55, 0.08, 0.08, 0.95)
        self.label.color = theme.ON_CHOSEN if good else theme.TEXT  # dark ink on the light green: 10:1
        self.place(box, table, avoid, along)
        self.opacity = 1
        self._hide.start()

    def _reword(self) -> None:
        """The message shown, in the language switched to, where it was placed (a longer text
        may need more lines); its time runs on."""
        if self.opacity > 0 and self._where is not None:
            self.label.text = self._words()
            self.place(*self._where)

    def place(self, box: SeatBox, table: Rect | None = None, avoid: Sequence[Sequence[Rect]] = (),
              along: tuple[float, float] | None = None) -> None:
        """Lay the words out beyond ``box`` (the hand, deepened by what lies at its inner edge),
        within the free ``table`` along that edge, over none of ``avoid`` where it can: groups of
        rectangles, the most important first, given up from the last (the first being the controls,
        drawn above it: they would hide its words; then what it points at; then what the other
        players are told). For each set of groups kept it lies right beyond the hand, slid along
        it, in the longest lines that clear them, else in shorter lines (down to 4 units); else
        still right beyond the hand (closer to it) but slid further, within ``along`` (the screen
        along that edge: the free table may be narrower than the room beyond the hand, a button
        standing in it); else further out: a message is best read near its player. The controls
        are cleared whatever it takes: in shorter lines, else nearer the hand (in longer lines,
        fewer of them, up to the table's length), else further out on the free table."""
        self._where = (box, table, avoid, along)
        u = theme.unit()
        span = ((table[1], table[1] + table[3]) if box.across else (table[0], table[0] + table[2])) if table else None
        low, high = span or (-math.inf, math.inf)
        longest = min(max(box.length * 1.05, u * 7), u * 9, high - low)  # a short hand still gets readable lines
        shorter = [u * k for k in range(math.ceil(longest / u) - 1, 3, -1)]  # down to 4 units
        longer = [u * k / 2 for k in range(math.floor(longest / u * 2) + 1, math.floor((high - low) / u * 2) + 1)] \
            if table else []  # by half units: the longest that still fits between two controls
        self.rotation = 0.0
        depths: dict[float, float] = {}

        def places(length: float, reach: float, gap: float,
                   room: tuple[float, float] | None = span) -> Iterator[tuple[tuple[float, float], Rect]]:
            if length not in depths:
                depths[length] = self._lay_out(length)
            depth = depths[length]
            return facing_places(box, (length, depth), box.depth / 2 + depth / 2 + gap, room, reach)

        def on_table(rect: Rect) -> bool:
            x, y, w, h = rect
            return table is None or (table[0] <= x and x + w <= table[0] + table[2]
                                     and table[1] <= y and y + h <= table[1] + table[3])

        # (what to clear, length, how far out, whether it must lie on the free table, gap to the hand,
        # the room along the edge), in order
        near, far = u * 3, max(table[2], table[3]) if table else 0.0
        wider = along is not None and span is not None and (along[0] < low or along[1] > high)
        rooms = [(0.0, span, u * 0.25), *([(0.0, along, u * 0.05)] if wider else []), (near, span, u * 0.25)]
        tries = [([r for group in avoid[:kept] for r in group], length, reach, False, gap, room)
                 for kept in range(len(avoid), 0, -1) for reach, room, gap in rooms for length in [longest] + shorter]
        if avoid:
            tries += [(list(avoid[0]), length, near, False, u * 0.05, span) for length in [longest] + longer + shorter]
            tries += [(list(avoid[0]), length, far, True, u * 0.25, span) for length in [longest] + shorter]
        def covered(rect: Rect) -> float:
            """How much of the first group ``rect`` covers (where nothing clears it: the least)."""
            x, y, w, h = rect
            return sum(max(0.0, min(x + w, rx + rw) - max(x, rx)) * max(0.0, min(y + h, ry + rh) - max(y, ry))
                       for rx, ry, rw, rh in (avoid[0] if avoid else ()))

        chosen, least = (longest, next(places(longest, 0.0, u * 0.25))[0]), math.inf
        for rects, length, reach, whole, gap, room in tries:
            clear = next((centre for centre, rect in places(length, reach, gap, room)
                          if (on_table(rect) or not whole) and not any(overlaps(rect, r) for r in rects)), None)
            if clear is not None:
                chosen, least = (length, clear), 0.0
                break
        if least:  # nothing clears the controls: where it covers least of them, near its hand
            for length in [longest] + longer + shorter:
                for centre, rect in places(length, near, u * 0.05):
                    cover = covered(rect)
                    if cover < least:
                        chosen, least = (length, centre), cover
        length, centre = chosen
        self._lay_out(length)
        self._bg.size = self.size
        self._bg.pos = (0, 0)
        self.rotation = box.angle
        self.center = centre

    def _lay_out(self, length: float) -> float:
        """Lay the words out in lines ``length`` long; the banner's depth (as tall as its lines)."""
        u = theme.unit()
        self.label.text_size = (length - u * 0.4, None)
        self.label.font_size = theme.font(0.95 if length >= u * 6 else 0.8)
        self.label.texture_update()  # as tall as its lines need: a long message never spills out
        self.size = (length, max(u * 1.5, self.label.texture_size[1] + u * 0.4))
        self.label.size = self.size
        return float(self.height)

    def hide(self) -> None:
        self._hide.cancel()
        self.opacity = 0

    def on_touch_down(self, touch: Any) -> bool:
        return False


def _inside(point: tuple[float, float], rect: Rect) -> bool:
    """Whether ``point`` lies in ``rect``."""
    x, y, w, h = rect
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _crossing(a: Widget, b: Widget) -> bool:
    """Whether two turned widgets' bounding boxes overlap."""
    (x, y), (w, h) = a.bbox
    (x2, y2), (w2, h2) = b.bbox
    return overlaps((x, y, w, h), (x2, y2, w2, h2))


class TagPlan(NamedTuple):
    """Where a seat's tag goes (:meth:`SeatTag.plan`), before it is moved there."""

    text: str
    box: SeatBox
    rgba: theme.RGBA | None
    news: bool
    size: tuple[float, float]
    """Along the seat's edge, and its depth."""
    centre: tuple[float, float]
    clear: bool
    """Whether it lies clear of all it was to avoid."""

    def rect(self) -> Rect:
        """The box it covers on the table."""
        (x, y), (length, depth) = self.centre, self.size
        w, h = (depth, length) if round(self.box.angle) % 180 == 90 else (length, depth)
        return x - w / 2, y - h / 2, w, h


class SeatTag(Scatter):
    """A small label at a hand's inner edge, on its player's left, facing them: who sits there,
    how many tiles they hold, their place... or, for a while, the table's news (``news``: longer,
    wrapped, on the colour of good news)."""

    NEWS_FONT = 0.8
    """The news's font (:func:`ui.theme.font`); a seat's own text is a little smaller."""

    @staticmethod
    def rise(box: SeatBox, height: float) -> float:
        """How far from ``box``'s centre, towards the table's middle, a tag ``height`` deep lies."""
        return box.depth / 2 + height / 2 + theme.unit() * 0.05

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(do_rotation=False, do_scale=False, do_translation=False,
                         size_hint=(None, None), auto_bring_to_front=False, **kwargs)
        self.label = Label(halign="left", valign="middle", color=theme.TEXT, bold=True, shorten=True)
        self.add_widget(self.label)
        with self.canvas.before:
            self._colour = Color(0, 0, 0, 0.45)
            self._bg = RoundedRectangle(radius=[6])
        self.opacity = 0
        self._angle: float | None = None
        """The angle it was last turned to (Scatter's ``rotation``, read back, comes out of its matrix)."""

    def plan(self, text: str, box: SeatBox, rgba: theme.RGBA | None = None, news: bool = False,
             avoid: Sequence[Rect] = ()) -> TagPlan:
        """Where to say ``text`` at ``box``'s inner edge (:meth:`put` lays it there): at its
        player's left, or slid along the edge to the first place clear of ``avoid`` (the tags laid
        before it: at a corner of the table two players' tags would otherwise lie over one another);
        at the left where none is clear. News as long as the edge, which cannot slide, is made
        narrower (on more lines) until it lies clear: six seats' news met at the corners of the 7"
        panel's table. Worked out as numbers: moving a turned widget costs a millisecond, and a
        crowded table tries many places."""
        u = theme.unit()
        self._letter(text, news)
        if news:
            widest = min(max(box.length, u * 5), u * 9)
            widths = [widest * share for share in (1.0, 0.9, 0.8, 0.7, 0.6, 0.5)]
        else:  # its words whole where the edge has room (a robot's strip is short), else the usual share
            narrow = min(box.length * 0.6, u * 6)
            whole = min(max(narrow, self._whole_width()), box.length, u * 6)
            widths = [whole, narrow] if whole > narrow else [narrow]
        for width in widths:
            size = self._size(width, news)
            centre = self._place(size, box, avoid)
            if centre is not None:
                return TagPlan(text, box, rgba, news, size, centre, True)
        size = self._size(widths[0], news)
        return TagPlan(text, box, rgba, news, size, self._place(size, box, ()) or (box.cx, box.cy), False)

    def put(self, plan: TagPlan) -> None:
        """Lay the tag as ``plan`` says."""
        u = theme.unit()
        label, news = self.label, plan.news
        self._letter(plan.text, news)
        label.color = theme.ON_CHOSEN if news else theme.TEXT  # dark ink on the light green: 10:1
        if news:
            self._colour.rgba = theme.GOOD[:3] + (0.95,)
        else:
            self._colour.rgba = (plan.rgba[:3] + (0.85,)) if plan.rgba is not None else (0, 0, 0, 0.45)
        self.size = plan.size  # its own size, whichever way it is turned
        label.text_size = (plan.size[0] - u * 0.3, None if news else plan.size[1])
        label.size = plan.size
        if not news:  # a smaller font rather than "Joueur 1 · tui..."
            fit_font(label, label.font_size)
        self._bg.pos, self._bg.size = (0, 0), plan.size
        if plan.box.angle != self._angle:  # turning it again to the same angle costs as much
            self.rotation = self._angle = plan.box.angle
        self.center = plan.centre
        self.opacity = 1 if plan.text else 0

    def _letter(self, text: str, news: bool) -> None:
        """Write ``text`` on the label as the tag shows it: news larger, wrapped whole (and measured
        so); a seat's own words on one line, shortened rather than wrapped."""
        label = self.label
        label.padding = [theme.unit() * 0.15, 0]
        label.font_size = theme.font(self.NEWS_FONT if news else 0.7)
        label.shorten = not news
        label.text = text

    def _whole_width(self) -> float:
        """How long a tag must be to show the label's words (:meth:`_letter`) whole, on one line."""
        label = self.label
        label.text_size = (None, None)
        label.texture_update()
        return label.texture_size[0] + theme.unit() * 0.3

    def _size(self, width: float, news: bool) -> tuple[float, float]:
        """The tag's size ``width`` long: news as many lines deep as it takes (nothing of it is cut)."""
        u = theme.unit()
        if not news:
            return width, u * 0.6
        label = self.label
        label.text_size = (width - u * 0.3, None)
        label.texture_update()
        return width, max(u * 0.6, label.texture_size[1] + u * 0.15)

    def _place(self, size: tuple[float, float], box: SeatBox, avoid: Sequence[Rect]) -> tuple[float, float] | None:
        """Where a tag of ``size`` (along the edge, depth) facing ``box``'s player is centred: the
        first place along the box's inner edge, from its player's left, clear of ``avoid``; None
        where there is none."""
        u = theme.unit()
        length, depth = size
        a = math.radians(box.angle)
        along, up = (math.cos(a), math.sin(a)), box.up()
        rise = self.rise(box, depth)
        w, h = (depth, length) if round(box.angle) % 180 == 90 else (length, depth)

        def centre(shift: float) -> tuple[float, float]:
            return box.cx + along[0] * shift + up[0] * rise, box.cy + along[1] * shift + up[1] * rise

        def clear(shift: float) -> bool:
            x, y = centre(shift)
            return not any(overlaps((x - w / 2, y - h / 2, w, h), rect) for rect in avoid)

        left, right, step = -box.length / 2 + length / 2, box.length / 2 - length / 2, u * 0.25
        shifts = [left + i * step for i in range(int(max(right - left, 0) / step) + 1)] + [right]
        return next((centre(shift) for shift in shifts if clear(shift)), None)

    def on_touch_down(self, touch: Any) -> bool:
        return False


class TableMask(Widget):
    """The table's colour over everything outside the board's ``fit_area``: a board larger than
    the free table (tiles kept big) is cut at the hands' edges instead of showing through them."""

    def __init__(self, board: BoardView, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = board
        with self.canvas:
            Color(*theme.TABLE)
            self._parts = [Rectangle() for _ in range(4)]
        board.bind(fit_area=self._redraw, pos=self._redraw, size=self._redraw)

    def _redraw(self, *_args: Any) -> None:
        board = self.board
        x0, y0, x1, y1 = board.x, board.y, board.right, board.top
        fx, fy, fw, fh = board.fit_area or (x0, y0, board.width, board.height)
        spans = [((x0, y0), (x1 - x0, fy - y0)), ((x0, fy + fh), (x1 - x0, y1 - fy - fh)),
                 ((x0, fy), (fx - x0, fh)), ((fx + fw, fy), (x1 - fx - fw, fh))]
        for part, (pos, size) in zip(self._parts, spans):
            part.pos, part.size = pos, (max(0.0, size[0]), max(0.0, size[1]))


class BagBadge(Translated, Label):
    """How many tiles are left in the bag."""


class TableLayout(FloatLayout):
    """A board with the players' hands around it (or below it, upright).

    Call :meth:`seat` with the hands in seating order; the layout turns each to face its player,
    wires it to the board and the drag layer, shows a refused drop's reason facing the player who
    made it, and keeps the board's ``fit_area`` on the free table. ``bag`` (-1 hides it) is the
    number of tiles left to draw. :meth:`tag` labels a seat (name, tiles held, place);
    :meth:`announce` gives the whole table its news, once, at every seat.
    """

    _tile_rows = 1

    orientation = OptionProperty("flat", options=["flat", "upright"])
    bag = NumericProperty(-1)
    news = StringProperty("")
    """Table-wide news (see :meth:`announce`), for :data:`NEWS_SECONDS`; "" when there is none."""
    makes_room = BooleanProperty(False)
    """Whether the view slides when a message to a player points at board cells (a refused
    space, the tile whose edge it clashes with) that it cannot leave in sight from anywhere, or
    that a control covers: a table where one player acts at a time. Not in a race, where everyone
    watches the board."""
    hand_rows = NumericProperty(1)
    """The most rows of tiles a hand may wrap into (deeper hands, larger tiles: a Gobbles deal is
    up to 27 tiles a hand); the layout uses more rows only when that keeps tiles clearly larger,
    and follows the hands as they grow and shrink."""
    beside = ObjectProperty((0.0, 0.0))
    """The room (pixels) a screen wants along the edge at each flat hand's right and left, for
    what it lays beside the hands (:func:`seat_boxes`)."""

    def __init__(self, board: BoardView | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = board or BoardView()
        self.board.size_hint = (1, 1)
        self.add_widget(self.board)
        self.board.bind(on_placed=lambda *_: self.refresh_hints())
        self.hands: list[HandView] = []
        self.boxes: list[SeatBox] = []
        self.keep_clear: list[Widget] = []
        """Controls a screen lays over the table (zoom, Leave, bars): messages are placed clear
        of them where they can."""
        self.raised: dict[int, float] = {}
        """Per seat, how far a control lying at the hand's inner edge reaches (a screen's own):
        that seat's messages are shown beyond it."""
        self._tags: list[SeatTag] = []
        self._tag_texts: list[tuple[str, theme.RGBA | None]] = []
        self._holders: list[Scatter] = []
        self._banners: list[Banner] = []
        self._refusing: set[int] = set()  # the seats whose message is why their drop was refused
        self._about: dict[int, tuple[Cell, ...]] = {}  # per seat, the cells its message speaks of
        self.bag_badge = BagBadge(msg=N_("Bag: {count}"), values={"count": 0}, size_hint=(None, None),
                                  color=theme.TEXT, bold=True)
        self.add_widget(self.bag_badge)
        self.drag_layer = DragLayer(size_hint=(1, 1))
        self.add_widget(self.drag_layer)
        self.bind(size=self._relayout, pos=self._relayout, orientation=self._relayout, bag=self._relayout,
                  hand_rows=self._relayout, beside=self._relayout)
        self._hands_changed = Clock.create_trigger(self._follow_hands)
        self._news_ends = Countdown(lambda: setattr(self, "news", ""), NEWS_SECONDS)
        self._news_words: Words = str  # no news yet: ""
        self._news_to: Callable[[int], str] | None = None  # the news as said to a seat, where it differs
        self._news_read: set[int] = set()
        """The seats whose player touched their hand or their news since it came (:meth:`on_touch_down`)."""
        self.bind(news=lambda *_: self._show_tags())
        follow_language(self, lambda layout: layout._reword_news())

    def seat(self, hands: Sequence[HandView]) -> None:
        """Seat ``hands`` (seating order) around the table."""
        for holder in self._holders:
            self.remove_widget(holder)
        for banner in self._banners:
            self.remove_widget(banner)
        for tag in self._tags:
            self.remove_widget(tag)
        self.hands = list(hands)
        self._tags = [SeatTag() for _ in self.hands]
        self._tag_texts = [("", None) for _ in self.hands]
        for tag in self._tags:
            self.add_widget(tag)
        self._holders, self._banners, self._about = [], [], {}
        self.remove_widget(self.drag_layer)
        for index, hand in enumerate(self.hands):
            holder = Scatter(do_rotation=False, do_scale=False, do_translation=False,
                             size_hint=(None, None), auto_bring_to_front=False)
            holder.add_widget(hand)
            hand.board = self.board
            hand.drag_layer = self.drag_layer
            hand.bind(on_refused=lambda h, refusal, i=index: self._refused(i, refusal),
                      on_played=lambda h, placement, i=index: self._accepted(i))
            hand.bind(tiles=lambda *_: self._hands_changed())
            self.add_widget(holder)
            self._holders.append(holder)
            banner = Banner()
            banner.bind(opacity=lambda *_, i=index: self._tag_under_message(i),
                        pos=lambda *_, i=index: self._tag_under_message(i))
            self._banners.append(banner)
        for banner in self._banners:
            self.add_widget(banner)
        self.add_widget(self.drag_layer)
        self.board.shields = [*self.hands, *(s for s in self.board.shields if not isinstance(s, HandView))]
        self._relayout()

    def tag(self, seat: int, text: str, rgba: theme.RGBA | None = None) -> None:
        """Label ``seat`` with ``text`` (on a background of ``rgba``), until told otherwise."""
        if 0 <= seat < len(self._tags) and self._tag_texts[seat] != (text, rgba):
            self._tag_texts[seat] = (text, rgba)
            if seat < len(self.boxes) and not self.news_for(seat):  # shown now, not after the news
                self._show_tags()  # the later seats' tags may slide back where this one was

    def announce(self, words: Words, said_to: Callable[[int], str] | None = None) -> None:
        """Table-wide news ("Red starts", "Player 2 is out"), given once and read from every side:
        for :data:`NEWS_SECONDS` each seat's own label (its tag here; a screen with plates binds
        :attr:`news` to show there :meth:`news_for` its seat) says it, facing that seat's player, at
        the table's edge and not over the board's middle; in the language staff switch to while it
        shows. ``said_to`` words it for the player at a seat, where the table's words would not say
        whom it is about ("Red team starts": which partner?)."""
        self._news_words, self._news_to = words, said_to
        self._news_read.clear()
        self.news = words()
        self._news_ends.start()

    def news_for(self, seat: int) -> str:
        """The news as the player at ``seat`` reads it ("" when there is none, or once they read it)."""
        if seat in self._news_read:
            return ""
        return self._news_to(seat) if self.news and self._news_to is not None else self.news

    def on_touch_down(self, touch: Any) -> bool:
        """A player who touches their hand or their seat's news has read it: at that seat it gives
        way at once, not after its time, to what the seat shows otherwise (its tag, its plate).
        News lies beyond the hand, over the table; with six people round the upright 7" panel, the
        two middle seats' news covered the race's first tile, which they could not see until it
        went."""
        if self.news:
            for seat, box in enumerate(self.boxes[:len(self._tags)]):
                on_tag = self._tags[seat].opacity > 0 and self._tags[seat].collide_point(*touch.pos)
                if seat not in self._news_read and (on_tag or _inside(touch.pos, self._placed(box).rect())):
                    self._news_read.add(seat)
                    self.property("news").dispatch(self)  # what shows the news (tags, a screen's plates) follows
        return super().on_touch_down(touch)

    def _reword_news(self) -> None:
        """The news shown, in the language switched to; its time runs on."""
        if self.news:
            self.news = self._news_words()

    def _show_tags(self) -> None:
        """Each labelled seat's tag: the news while there is some, else its own text; each clear of
        the tags laid before it, of the controls over the table (:attr:`keep_clear`: where the table
        has no room for the zoom clear of where news comes, the news gives way) and of the other
        seats' hands (a side seat's edge runs past its neighbours' hands at the corners: six
        people's news on the 7" panel lay over their end tiles). They are laid in seat order;
        where one finds no clear place, again with that one first, as long as that leaves fewer
        without one (at a crowded corner the side seat's news, boxed in between two hands, goes
        before its neighbours', which can slide along theirs)."""
        seats = list(range(min(len(self.boxes), len(self._tags))))
        order, plans = seats, self._plan_tags(seats)
        for _attempt in seats:
            stuck = [seat for seat in order if not plans[seat].clear]
            if not stuck:
                break
            tried = [stuck[0]] + [seat for seat in order if seat != stuck[0]]
            again = self._plan_tags(tried)
            if sum(not again[seat].clear for seat in seats) >= len(stuck):
                break
            order, plans = tried, again
        for seat in seats:
            self._tags[seat].put(plans[seat])
            self._tag_under_message(seat)

    def _plan_tags(self, order: Sequence[int]) -> dict[int, TagPlan]:
        """Where the seats' tags go, laid in ``order`` (:meth:`_show_tags`)."""
        hands = [self._placed(box).rect() for box in self.boxes]
        controls = self._kept_clear()
        laid: list[Rect] = []
        plans = {}
        for seat in order:
            tag, (text, rgba) = self._tags[seat], self._tag_texts[seat]
            avoid = laid + controls + [hand for other, hand in enumerate(hands) if other != seat]
            news = bool(self.news_for(seat) and text)
            plans[seat] = plan = tag.plan(self.news_for(seat) if news else text, self._beyond_raised(seat), rgba,
                                          news, avoid)
            if text:
                laid.append(plan.rect())
            else:
                plans[seat] = plan._replace(clear=True)  # an empty tag is not shown
        return plans

    def _tag_under_message(self, seat: int) -> None:
        """A seat's tag under its own player's message (it may lie there, where the message is best
        read: :meth:`_said`) is out of sight until the message goes, not half read around it."""
        if seat < min(len(self._tags), len(self._banners), len(self.boxes)):
            tag, banner = self._tags[seat], self._banners[seat]
            covered = banner.opacity > 0 and _crossing(banner, tag)
            tag.opacity = 1 if self._tag_texts[seat][0] and not covered else 0

    def tell(self, seat: int, words: Words, good: bool = False, about: Sequence[Cell] = ()) -> None:
        """Show ``words`` to the player in ``seat``, facing them (clear of what :attr:`raised`
        says lies at that seat's inner edge), over none of the controls (:attr:`keep_clear`: they
        would hide its words), none of the cells it is ``about`` (a tile put down and not yet
        played: a message over what it speaks of hides it) and none of the cells the board marks
        (a refusal points at them) where it can; where it cannot clear them, or a control covers
        them, the view makes room (:attr:`makes_room`), the cells it is about first. What was said
        to them goes early with :meth:`hush`."""
        self._refusing.discard(seat)
        if 0 <= seat < len(self._banners):
            self._about[seat] = tuple(about)
            table, controls, marks = self._message_room()
            banner = self._banners[seat]
            box = self._beyond_raised(seat)
            banner.say(words, box, good, table, [controls, self._marks(seat, marks), *self._said(seat)],
                       self._along(box))
            self._give_way(seat, table, controls, marks)
            if self.makes_room:
                self._make_room(banner, controls, self._marks(seat, marks))

    def reflow(self) -> None:
        """Lay the seats' tags again, and place the messages shown again, each with its words and
        the rest of its time: a control has come where one may lie (a gift card, :attr:`keep_clear`),
        or moved (the tags, laid as the free table changed, lay round where the zoom had been and
        stayed under it once it moved there)."""
        self._show_tags()
        table, controls, marks = self._message_room()
        for seat, banner in enumerate(self._banners):
            if banner.opacity > 0 and seat < len(self.boxes):
                self._place(seat, table, controls, marks)

    def _give_way(self, seat: int, table: Rect | None, controls: list[Rect], marks: list[Rect]) -> None:
        """The message just told to ``seat`` could not keep clear of another player's (told first, it
        took the room it liked best): that one is laid out again, clear of the new one where it can
        be, and the new one again after it. Words over words are read by no one."""
        new = self._banners[seat]
        for other, banner in enumerate(self._banners):
            if other == seat or banner.opacity <= 0 or other >= len(self.boxes) or not _crossing(new, banner):
                continue
            self._place(other, table, controls, marks)
            self._place(seat, table, controls, marks)

    def _place(self, seat: int, table: Rect | None, controls: list[Rect], marks: list[Rect]) -> None:
        """Lay the message shown to ``seat`` out again where :meth:`Banner.place` finds room for it now."""
        box = self._beyond_raised(seat)
        self._banners[seat].place(box, table, [controls, self._marks(seat, marks), *self._said(seat)], self._along(box))

    def _marks(self, seat: int, marks: list[Rect]) -> list[Rect]:
        """What the message to ``seat`` must leave in sight: the cells it is about, then ``marks``."""
        return self._cells(self._about.get(seat, ())) + marks

    def _message_room(self) -> tuple[Rect | None, list[Rect], list[Rect]]:
        """Where the messages lie: the free table; what they must not cover, the controls (they
        would go under them) and the hands with what lies at their edges; and the cells the board
        marks (what a message points at)."""
        fit = self.board.fit_area
        table = (fit[0], fit[1], fit[2], fit[3]) if fit else None
        hands = [self._beyond_raised(seat).rect() for seat in range(len(self.boxes))]
        return table, self._kept_clear() + hands, self._cells(self.board.highlighted)

    def _said(self, seat: int) -> list[list[Rect]]:
        """What a message to ``seat`` had better not cover, where it can, most important first:
        the messages shown to the other players (words over words are read by no one), then their
        seat tags (who sits there, the table's news). Its own player's tag it may cover for a while:
        it lies just where the message is best read."""
        def shown(widgets: Sequence[Widget]) -> list[Rect]:
            boxes = [widget.bbox for other, widget in enumerate(widgets) if other != seat and widget.opacity > 0]
            return [(x, y, w, h) for (x, y), (w, h) in boxes]

        return [shown(self._banners), shown(self._tags)]

    def _make_room(self, banner: Banner, controls: list[Rect], marks: list[Rect]) -> None:
        """Where ``banner`` or a control (or a hand) covers the first of the ``marks`` (the space
        refused, the forced space to fill), slide the view the least that shows every mark (else
        that first one) clear of them, on the free table; nothing where no slide does."""
        (x, y), (w, h) = banner.bbox
        covering = [(x, y, w, h), *controls]
        if not marks or not any(overlaps(cover, marks[0]) for cover in covering) or not self.board.fit_area:
            return
        fx, fy, fw, fh = self.board.fit_area
        table = (*self.board.to_window(fx, fy), fw, fh)
        gap = theme.unit() * 0.1
        shift = clearing_shift(marks, covering, table, gap) or clearing_shift(marks[:1], covering, table, gap)
        if shift is not None:
            self.board.pan(*shift)

    def hush(self, seat: int) -> None:
        """The message shown to the player in ``seat`` goes before its time: what it was about is
        over (a refused drop followed by an accepted one, a provisional tile confirmed or taken
        back, a solo game's next step)."""
        self._refusing.discard(seat)
        if 0 <= seat < len(self._banners):
            self._banners[seat].hide()

    def _refused(self, seat: int, refusal: Refused) -> None:
        """A drop from ``seat``'s hand was refused: the rule it breaks, in words, facing them."""
        empty = len(self.board.board) == 0  # as it was refused: the board fills on
        self.tell(seat, lambda: explain(refusal, empty))
        self._refusing.add(seat)

    def _accepted(self, seat: int) -> None:
        """A drop from ``seat``'s hand was accepted: why an earlier one was refused is over (what
        the drop itself made the screen say stays)."""
        if seat in self._refusing:
            self.hush(seat)

    def facing(self, seat: int, size: tuple[float, float], cells: Iterable[Cell] = (),
               clear_of_controls: bool = True) -> tuple[float, float]:
        """Where the centre of a card of ``size`` (length along the edge, depth away from it)
        facing the player in ``seat`` goes, in this layout's parent's coordinates: beyond their
        hand and what :attr:`raised` says lies at its edge, whole on the screen and over none of
        ``cells`` (what the card is about) and, where it can be, over none of the controls
        (:attr:`keep_clear`) nor a finger's gap round them (its buttons beside Leave or the zoom:
        a finger meant for one lands on the other, or on the control under the card), then over
        none of the other hands; as near the hand as that allows. ``clear_of_controls`` False: a
        card the controls are laid out round once it is placed (they keep clear of it)."""
        box, base, span, avoid, reach = self._facing_search(seat, size, cells, () if clear_of_controls else None)
        return facing_spot(box, size, base, span, avoid, reach)

    def facing_near(self, seat: int, size: tuple[float, float], cells: Iterable[Cell] = (),
                    movable: Collection[Widget] = ()) -> tuple[float, float] | None:
        """Where :meth:`facing` puts a card of ``size`` when that place covers nothing it keeps
        off (the screen's edge, ``cells``, the controls and a finger's gap round them, the other
        hands) and its edge nearest its player lies on their half of the screen; None where no
        such place is. The ``movable`` controls it may cover: they are laid out again off it. A
        card that may be made shorter (and deeper) tries this at each length: at the longest the
        table gives along a side seat's edge it fitted nowhere near its player, and
        :meth:`facing` gave up the other hands, or sent it across the table."""
        box, base, span, avoid, _reach = self._facing_search(seat, size, cells, movable)
        ux, uy = box.up()
        middle = abs((self.x + self.width / 2 - box.cx) * ux + (self.y + self.height / 2 - box.cy) * uy)
        rects = [r for group in avoid for r in group]
        return first_clear(facing_places(box, size, base, span, max(middle + size[1] / 2 - base, 0.0), rects), rects)

    def _facing_search(self, seat: int, size: tuple[float, float], cells: Iterable[Cell], movable: Collection[Widget] | None
                       ) -> tuple[SeatBox, float, tuple[float, float], list[list[Rect]], float]:
        """What :meth:`facing` searches: ``seat``'s box beyond what is raised at its edge, how far
        beyond its centre the nearest place is, the span along its edge, what to keep off (groups,
        the most important first: the controls but the ``movable`` ones, None: none of them) and
        how much further out the card may go."""
        u = theme.unit()
        box = self._beyond_raised(seat)
        x, y, w, h = self.x + u * 0.1, self.y + u * 0.1, self.width - u * 0.2, self.height - u * 0.2
        far = max(w, h) * 2
        off_screen = [(x - far, y - far, far, h + 2 * far), (x + w, y - far, far, h + 2 * far),
                      (x - far, y - far, w + 2 * far, far), (x - far, y + h, w + 2 * far, far)]
        gap = theme.min_gap()
        controls = self._kept_clear(movable) if movable is not None else []
        rings = [ringed(control, gap) for control in controls]
        hands = [self._beyond_raised(other).rect() for other in range(len(self.boxes)) if other != seat]
        span = (y, y + h) if box.across else (x, x + w)
        return (box, box.depth / 2 + size[1] / 2 + u * 0.25, span, [off_screen + self._cells(cells), controls, hands, rings],
                max(w, h))

    def room_along(self, seat: int) -> float:
        """How long a card facing ``seat`` (:meth:`facing`) can be and still lie over none of the
        other hands: the screen along that player's edge less the hands (and what :attr:`raised`
        says lies at their edges) that reach across it from either end. A side seat's edge on the
        wide panel is short."""
        u = theme.unit()
        box = self._beyond_raised(seat)
        turned = box.across
        axis = 1 if turned else 0
        start, end = (self.y, self.y + self.height) if turned else (self.x, self.x + self.width)
        low, high, middle = start + u * 0.1, end - u * 0.1, (start + end) / 2
        for other in range(len(self.boxes)):
            rect = self._beyond_raised(other).rect()
            across = self.boxes[other].across
            if other == seat or across == turned:  # a hand along a parallel edge lies beyond, not beside
                continue
            near, far = rect[axis], rect[axis] + rect[axis + 2]
            if (near + far) / 2 < middle:
                low = max(low, far)
            else:
                high = min(high, near)
        return high - low - u * 0.2

    def _along(self, box: SeatBox) -> tuple[float, float]:
        """The screen along the edge of the hand ``box`` (on the screen's axis along it), a tenth of a
        unit off each end: where a message right beyond that hand may slide (the hands are kept
        clear apart)."""
        u = theme.unit()
        start, end = (self.y, self.y + self.height) if box.across else (self.x, self.x + self.width)
        return start + u * 0.1, end - u * 0.1

    def _kept_clear(self, but: Collection[Widget] = ()) -> list[Rect]:
        """Where the :attr:`keep_clear` controls shown lie (``but`` those), and the table's own bag count."""
        return [(*w.bbox[0], *w.bbox[1]) if isinstance(w, Scatter) else (w.x, w.y, w.width, w.height)
                for w in [*self.keep_clear, self.bag_badge] if w.opacity > 0 and w.parent is not None and w not in but]

    def _cells(self, cells: Iterable[Cell]) -> list[Rect]:
        """The rectangles round ``cells`` (pointy-top hexagons) on the board where its view
        settles (it may be moving)."""
        return [(x - r * SQRT3 / 2, y - r, r * SQRT3, 2 * r)
                for x, y, r in (self.board.settled_cell(cell) for cell in cells)]


    def _placed(self, box: SeatBox) -> SeatBox:
        """``box`` in the coordinates of this layout's parent (boxes are relative to the layout)."""
        return box._replace(cx=self.x + box.cx, cy=self.y + box.cy)

    def tag_reach(self, seat: int) -> Rect:
        """Where ``seat``'s tag may come to lie (in the coordinates of this layout's parent): along
        the whole of its box's inner edge, as deep as news of :data:`NEWS_LINES` lines. A control
        placed for good keeps clear of it: the tag slides along that edge and news comes later,
        wider and deeper than the tag (the overview map once hid the end of "No turns...")."""
        box = self._beyond_raised(seat)
        depth = NEWS_LINES * theme.font(SeatTag.NEWS_FONT) * 1.2 + theme.unit() * 0.15  # lines, padding
        (ux, uy), rise = box.up(), SeatTag.rise(box, depth)
        return box._replace(cx=box.cx + ux * rise, cy=box.cy + uy * rise, depth=depth).rect()

    def _beyond_raised(self, seat: int) -> SeatBox:
        """``seat``'s box placed (:meth:`_placed`), deepened by what :attr:`raised` says lies at
        its inner edge: what is shown at that edge (tag, messages) lies beyond it."""
        box = self._placed(self.boxes[seat])
        return box._replace(depth=box.depth + 2 * self.raised.get(seat, 0.0))

    def refresh_hints(self) -> None:
        """Mark, in every hand, the tiles that fit a forced space."""
        for hand in self.hands:
            hand.marked = sorted(self.board.fitting_forced(hand.tiles, hand.target))

    def _layout(self) -> tuple[int, list[SeatBox], tuple[float, float, float, float]]:
        """The tile rows, the hands' boxes and the free table for the hands as they are now.
        Another row (a deeper hand, less board) is taken for clearly larger tiles, or for any larger
        tiles while fewer rows leave them under a fingertip (:func:`ui.theme.min_tile_radius`)."""
        width, height = self.size
        most = max(max((len(h.tiles) for h in self.hands), default=6), 6)
        fingertip = theme.min_tile_radius()
        best: tuple[float, int, list[SeatBox], tuple[float, float, float, float]] | None = None
        for rows in range(1, max(int(self.hand_rows), 1) + 1):
            boxes, free = seat_boxes(len(self.hands), width, height, self.orientation, most, rows, fingertip,
                                     self.beside)
            radius = min((_tile_radius(box, most, rows) for box in boxes), default=0.0)
            if best is None or radius > best[0] * (1.0 if best[0] < fingertip else 1.15):
                best = (radius, rows, boxes, free)
        assert best is not None
        return best[1], best[2], best[3]

    def _follow_hands(self, *_args: Any) -> None:
        """A hand grew or shrank: lay the table out again if that changes the hands' boxes."""
        rows, boxes, _free = self._layout()
        if rows != self._tile_rows or boxes != self.boxes:
            self._relayout()

    def _relayout(self, *_args: Any) -> None:
        rows, self.boxes, free = self._layout()
        self._tile_rows = rows
        for hand, holder, box in zip(self.hands, self._holders, self.boxes):
            hand.max_rows = rows
            holder.rotation = 0
            holder.size = (box.length, box.depth)
            hand.size = (box.length, box.depth)
            hand.pos = (0, 0)
            hand.seat_angle = box.angle
            holder.rotation = box.angle
            holder.center = (self.x + box.cx, self.y + box.cy)
        self._show_tags()
        fx, fy, fw, fh = free
        self.board.fit_area = [self.x + fx, self.y + fy, fw, fh]
        badge = self.bag_badge
        badge.opacity = 1 if self.bag >= 0 else 0
        badge.values = {"count": max(int(self.bag), 0)}
        badge.font_size = theme.font(0.9)
        badge.texture_update()
        badge.size = (badge.texture_size[0] + theme.unit() * 0.4, theme.unit() * 0.8)
        badge.pos = (self.x + fx + fw - badge.width - theme.unit() * 0.2, self.y + fy + fh - badge.height - theme.unit() * 0.1)
