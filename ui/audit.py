"""What a newcomer at the table would stumble on, found in a rendered screen: text larger than its
box, cut short with an ellipsis or cut by the screen's edge, a word broken across two lines, a
control smaller than a fingertip, two controls so close that a finger meant for one lands on the
other, text too small or too faint to read.

:func:`audit` walks the widgets on screen and returns :class:`Problem` s (an empty list: nothing
found). The rules are the issue's: a control is at least 9 mm in both directions (45 px on the 7"
800x480 panel, :func:`ui.theme.min_target` at other densities), two controls keep
:data:`ui.theme.GAP_MM` (1.5 mm) apart (:func:`crowded`), text is at least :data:`ui.theme.TEXT_MM`
(2.5 mm, 12.5 px on that panel: :func:`smallest_size`), and text contrasts with what lies
under it by at least 4.5 : 1 (WCAG 2's level AA for body text), the background being the most
common colour in the label's box of the rendered picture. What lies under a card (:func:`uncovered`)
is neither a neighbour of the controls on it nor text to read: the card's shade dims it on purpose.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator, TypeVar

from . import theme
from .theme import contrast

MIN_CONTRAST = 4.5
TOLERANCE = 1.5
"""Pixels a box may be overrun by rounding."""

_TAG = re.compile(r"\[(/?)(\w+)(?:=([^\]]*))?\]")


@dataclass(frozen=True)
class Problem:
    kind: str  # "overflow", "shortened", "off-screen", "split-word", "small-control", "crowded", "small-text",
    # "contrast"
    widget: str  # class and text, to find it
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.widget}: {self.detail}"


def describe(widget: Any) -> str:
    text = getattr(widget, "text", "") or ""
    text = _TAG.sub("", text).replace("\n", " / ")
    return f"{type(widget).__name__}({text[:40]!r})" if text else type(widget).__name__


def window_box(widget: Any) -> tuple[float, float, float, float]:
    """The widget's box on the window (x0, y0, x1, y1), through any scatter that turns it."""
    corners = [widget.to_window(x, y) for x in (widget.x, widget.right) for y in (widget.y, widget.top)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def window_extent(widget: Any) -> tuple[float, float]:
    """The widget's width and height in window pixels (a scatter's scale counts)."""
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.y)
    x2, y2 = widget.to_window(widget.x, widget.top)
    return ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, ((x2 - x0) ** 2 + (y2 - y0) ** 2) ** 0.5


Box = tuple[float, float, float, float]


def shown(root: Any) -> Iterator[Any]:
    """The widgets a player sees under ``root``: not transparent, not disabled, not of zero size.
    Each is marked ``_audit_scrolled`` (inside a scroll view) and ``_audit_clip`` (the window box
    its scroll views show of it, None when it is not scrolled)."""
    from kivy.uix.scrollview import ScrollView

    def walk(widget: Any, clip: Box | None) -> Iterator[Any]:
        if widget.opacity <= 0.01:
            return
        widget._audit_scrolled = clip is not None
        widget._audit_clip = clip
        if widget.width >= 1 and widget.height >= 1:
            yield widget
        if isinstance(widget, ScrollView):
            clip = window_box(widget) if clip is None else _overlap(clip, window_box(widget))
        for child in reversed(widget.children):
            yield from walk(child, clip)

    yield from walk(root, None)


def _overlap(a: Box, b: Box) -> Box:
    """The part of box ``a`` inside box ``b`` (empty: x0 >= x1 or y0 >= y1)."""
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def squeezed(root: Any) -> Iterator[Any]:
    """The labels with text to show that were given no room for it (a box under a pixel wide or
    high: a column a layout left nothing): :func:`shown` passes them over, with the empty boxes."""
    from kivy.uix.label import Label

    def walk(widget: Any) -> Iterator[Any]:
        if widget.opacity <= 0.01:
            return
        if isinstance(widget, Label) and widget.text.strip() and widget.color[3] >= 0.05 \
                and (widget.width < 1 or widget.height < 1):
            yield widget
        for child in reversed(widget.children):
            yield from walk(child)

    yield from walk(root)


def is_control(widget: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.slider import Slider

    return isinstance(widget, (ButtonBehavior, Slider)) and not widget.disabled


def crowded(targets: list[tuple[Any, Box]], min_gap: float) -> list[Problem]:
    """Pairs of ``targets`` (each a control and its window box) closer than ``min_gap`` pixels (the
    distance between their boxes: across a corner, straight across otherwise), or overlapping.

    Controls of one deliberate group, a :class:`ui.widgets.Keypad`'s keys or a
    :class:`ui.widgets.ChipRow`'s chips (a container that says ``close_targets``), may sit closer:
    they are read as one control, pressed one key after another while looking at it, the way a
    phone's keypad is, but still must not overlap (a tap on the shared strip would press both). A
    control inside another (a card's button) is the card's own part, not a neighbour. The board's
    hex grid is not made of controls: its tiles are drawn, and picked by the hex a touch falls in.
    The controls under a card that takes every touch in its box (a widget that says ``covers``: a
    question, a QR code) cannot be pressed while it is up: they are no neighbours of its own
    (:func:`audit` leaves them out, :func:`uncovered`)."""
    problems = []
    for i, (a, box_a) in enumerate(targets):
        for b, box_b in targets[i + 1:]:
            if _inside(a, b) or _inside(b, a):
                continue
            dx = max(box_b[0] - box_a[2], box_a[0] - box_b[2])
            dy = max(box_b[1] - box_a[3], box_a[1] - box_b[3])
            gap = (dx * dx + dy * dy) ** 0.5 if dx > 0 and dy > 0 else max(dx, dy)
            grouped = _group(a) is not None and _group(a) is _group(b)
            if gap < -TOLERANCE or (not grouped and gap + TOLERANCE < min_gap):
                detail = f"overlaps {describe(b)} by {-gap:.0f} px" if gap < 0 else \
                    f"{gap:.0f} px from {describe(b)}, under {min_gap:.0f} px ({theme.GAP_MM} mm)"
                problems.append(Problem("crowded", describe(a), detail))
    return problems


Found = TypeVar("Found")


def uncovered(found: list[tuple[Found, Box]], cover: Any) -> list[tuple[Found, Box]]:
    """What of ``found`` (each with its window box) does not lie under ``cover``, a card that
    takes every touch in its box (a widget that says ``covers``: a question, a QR code). What lies
    under it can be neither pressed nor read while it is up (its shade dims it on purpose): the
    one rule for "under a card" of the spacing check and the contrast check."""
    outer = window_box(cover)
    return [(item, box) for item, box in found if not _within(box, outer)]


def _within(box: Box, outer: Box) -> bool:
    return outer[0] - TOLERANCE <= box[0] and outer[1] - TOLERANCE <= box[1] \
        and box[2] <= outer[2] + TOLERANCE and box[3] <= outer[3] + TOLERANCE


def _ancestors(widget: Any) -> Iterator[Any]:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:  # the window is its own parent
        yield parent
        parent = parent.parent


def _inside(widget: Any, outer: Any) -> bool:
    return any(parent is outer for parent in _ancestors(widget))


def _group(widget: Any) -> Any:
    """The nearest container of ``widget`` that is a deliberate group of controls, or None."""
    return next((parent for parent in _ancestors(widget) if getattr(parent, "close_targets", False) is True), None)


def _is_hand(widget: Any) -> bool:
    """A hand of tiles a player picks from (each tile is a touch target): a
    :class:`ui.board.HandView` ``for_fingers`` (read by name: the board's widgets use this module's
    measures through :func:`ui.widgets.fit_font`)."""
    return getattr(widget, "for_fingers", False) is True


class Fonts:
    """Core labels to measure words with, one per font."""

    def __init__(self) -> None:
        self._cores: dict[tuple[Any, ...], Any] = {}

    def width(self, word: str, font_size: float, bold: bool, font_name: str) -> float:
        from kivy.core.text import Label as CoreLabel

        key = (round(font_size, 1), bold, font_name)
        core = self._cores.get(key)
        if core is None:
            core = self._cores[key] = CoreLabel(font_size=font_size, bold=bold, font_name=font_name)
        return core.get_extents(word)[0]


fonts = Fonts()
"""The shared measures (the audit's and :func:`ui.widgets.fit_font`'s)."""


SHORTEN_MARGIN = 2
"""Pixels Kivy's ``Label.shorten`` keeps clear inside the padding (``CoreLabel.shorten``'s margin)."""


def shortened(label: Any) -> bool:
    """Whether Kivy draws ``label``'s text cut short with "...": it shortens (``shorten``) and a line
    of its text is wider than Kivy's rule allows (its line, less the padding and the margin, in
    whole pixels)."""
    if not label.shorten or label.markup or not label.text:
        return False
    room = int((label.text_size[0] or label.width) - label.padding[0] - label.padding[2] - SHORTEN_MARGIN)
    return max(fonts.width(line, label.font_size, label.bold, label.font_name) for line in label.text.split("\n")) > room


def words(label: Any) -> Iterator[tuple[str, float, bool]]:
    """The words of a label with the font size and boldness each is drawn in (markup followed)."""
    text = label.text
    if not label.markup:
        for word in text.split():
            yield word, label.font_size, label.bold
        return
    sizes, bolds = [label.font_size], [label.bold]
    pos = 0
    for match in [*_TAG.finditer(text), None]:
        chunk = text[pos: match.start() if match else len(text)]
        for word in chunk.split():
            yield word, sizes[-1], bolds[-1]
        if match is None:
            break
        pos = match.end()
        closing, tag, value = match.groups()
        if tag == "size":
            if closing:
                sizes.pop() if len(sizes) > 1 else None
            else:
                sizes.append(float(value.rstrip("px")) if value and value.rstrip("px").replace(".", "").isdigit()
                             else sizes[-1])
        elif tag == "b":
            bolds.pop() if closing and len(bolds) > 1 else bolds.append(True) if not closing else None


def smallest_size(label: Any) -> float:
    """The font size, in window pixels, of the smallest word ``label`` draws (markup followed, a
    scatter's scale counted): what the eye must read, a subtitle's smaller line included."""
    scale = window_extent(label)[1] / label.height if label.height else 1.0
    return min((size for _word, size, _bold in words(label)), default=label.font_size) * scale


def text_colours(label: Any) -> list[tuple[float, ...]]:
    """The colours a label's text is drawn in: its own and any markup ``[color]``."""
    colours = [tuple(label.disabled_color if label.disabled else label.color)]
    if label.markup:
        for match in _TAG.finditer(label.text):
            closing, tag, value = match.groups()
            if tag == "color" and not closing and value:
                colours.append(theme.rgb(value.lstrip("#")[:6]))
    return colours


def settle(root: Any) -> None:
    """Do now, for the widgets under ``root``, what Kivy does before it draws the next frame: the
    layouts due, the labels' letters due (a layout may size a label, a label's letters may size
    a box) and the drawing instructions kv rules keep up to date (a turned card's or message's
    matrix, :meth:`kivy.lang.Builder.sync`). An audit, or a picture, taken in the very tick an
    event was handled (a tag read, a hint found, just before a screenshot's time was up on a
    busy machine) otherwise judged what no player ever sees: a card just opened with its buttons,
    tiles and title piled at its corner, a message drawn at the screen's corner, unturned, its
    box where its letters were not (their text "1.0 : 1" on the table)."""
    from kivy.lang import Builder

    for _ in range(8):  # a chain of boxes sized by their contents settles in a few rounds
        Builder.sync()
        due = [widget for widget in root.walk(restrict=True)
               if _due(widget, "_trigger_layout") or _due(widget, "_trigger_texture")]
        if not due:
            return
        for widget in due:
            if _due(widget, "_trigger_layout"):
                widget._trigger_layout.cancel()
                widget.do_layout()
            if _due(widget, "_trigger_texture"):
                widget._trigger_texture.cancel()
                widget.texture_update()


def _due(widget: Any, trigger: str) -> bool:
    """Whether Kivy will run ``widget``'s ``trigger`` (a layout's or a label's) before the next frame."""
    event = getattr(widget, trigger, None)
    return event is not None and bool(event.is_triggered)


class Picture:
    """The rendered window, to read the colour under a label: as the next frame draws it."""

    def __init__(self, root: Any) -> None:
        settle(root)
        texture = root.export_as_image().texture
        self.width, self.height = texture.size
        self.data = bytes(texture.pixels)

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        px = min(max(int(x), 0), self.width - 1)
        py = min(max(int(y), 0), self.height - 1)
        i = ((self.height - 1 - py) * self.width + px) * 4  # rows run top-down
        return self.data[i], self.data[i + 1], self.data[i + 2]

    def background(self, box: tuple[float, float, float, float], ink: tuple[float, ...]) -> tuple[float, float, float]:
        """The most common colour in ``box`` (sampled on a grid) that is not the ink's own: what the
        text stands on (big letters may cover most of a tight box). All ink: the ink's colour."""
        x0, y0, x1, y1 = box
        target = tuple(round(c * 255) for c in ink[:3])
        counts: Counter[tuple[int, int, int]] = Counter()
        for i in range(24):
            for j in range(8):
                colour = self.at(x0 + (x1 - x0) * (i + 0.5) / 24, y0 + (y1 - y0) * (j + 0.5) / 8)
                if max(abs(a - b) for a, b in zip(colour, target)) > 48:
                    counts[colour] += 1
        if not counts:
            return ink[0], ink[1], ink[2]
        r, g, b = counts.most_common(1)[0][0]
        return r / 255, g / 255, b / 255


def audit(root: Any, window_size: tuple[int, int], min_target: float, picture: Picture | None = None) -> list[Problem]:
    """Everything under ``root`` a player would stumble on (see the module's rules), as the next
    frame draws it (:func:`settle`)."""
    from kivy.uix.label import Label

    settle(root)

    width, height = window_size
    problems: list[Problem] = [Problem("overflow", describe(widget), f"{widget.text!r} has a box of "
                                       f"{widget.width:.0f}x{widget.height:.0f} px: no room for it")
                               for widget in squeezed(root)]
    min_text = min_target * theme.TEXT_MM / theme.TARGET_MM
    targets: list[tuple[Any, Box]] = []
    faint: list[tuple[Problem, Box]] = []  # the contrast problems, each with its label's box
    small: list[tuple[Problem, Box]] = []  # the text too small to read, each with its label's box
    for widget in shown(root):  # in the order they are drawn: a cover comes after what it covers
        if getattr(widget, "covers", False) is True:
            targets, faint, small = uncovered(targets, widget), uncovered(faint, widget), uncovered(small, widget)
        if is_control(widget):
            box = window_box(widget) if widget._audit_clip is None else _overlap(window_box(widget), widget._audit_clip)
            if box[2] > box[0] and box[3] > box[1]:  # not scrolled out of sight
                targets.append((widget, box))
            w, h = window_extent(widget)
            if min(w, h) + TOLERANCE < min_target:
                problems.append(Problem("small-control", describe(widget),
                                        f"{w:.0f}x{h:.0f} px, under {min_target:.0f} px (9 mm)"))
            x0, y0, x1, y1 = window_box(widget)
            if not widget._audit_scrolled and (x0 < -TOLERANCE or y0 < -TOLERANCE or x1 > width + TOLERANCE
                                               or y1 > height + TOLERANCE):
                problems.append(Problem("off-screen", describe(widget), "the control runs off the screen's edge"))
        if _is_hand(widget) and widget.tiles:
            across = 3**0.5 * widget.tile_radius() * window_extent(widget)[0] / widget.width
            if across + TOLERANCE < min_target:
                problems.append(Problem("small-control", f"{describe(widget)} of {len(widget.tiles)} tiles",
                                        f"tiles {across:.0f} px across, under {min_target:.0f} px (9 mm)"))
        if not isinstance(widget, Label) or not widget.text.strip():
            continue
        if widget.color[3] < 0.05:
            continue
        tw, th = widget.texture_size
        if tw > widget.width + TOLERANCE or th > widget.height + TOLERANCE:
            problems.append(Problem("overflow", describe(widget),
                                    f"text {tw:.0f}x{th:.0f} px in a box of {widget.width:.0f}x{widget.height:.0f}"))
        if shortened(widget):  # it fits by drawing "..." for what it leaves out
            problems.append(Problem("shortened", describe(widget), f"{widget.text!r} is drawn cut short"))
        x0, y0, x1, y1 = window_box(widget)
        size = smallest_size(widget)
        if size + 0.05 < min_text:
            small.append((Problem("small-text", describe(widget),
                                  f"{size:.1f} px, under {min_text:.1f} px ({theme.TEXT_MM} mm)"), (x0, y0, x1, y1)))
        if not widget._audit_scrolled and tw > 0:
            # the text's own box (centred in the label's, as the labels here draw it)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            sx, sy = window_extent(widget)
            scale = (sx / widget.width) if widget.width else 1
            hw, hh = min(tw, widget.width) * scale / 2, min(th, widget.height) * scale / 2
            if abs(x1 - x0) < abs(y1 - y0) and abs(sx - (x1 - x0)) > 1:  # turned a quarter
                hw, hh = hh, hw
            if cx - hw < -TOLERANCE or cy - hh < -TOLERANCE or cx + hw > width + TOLERANCE \
                    or cy + hh > height + TOLERANCE:
                problems.append(Problem("off-screen", describe(widget), "the text runs off the screen's edge"))
        wrap = widget.text_size[0] and widget.text_size[0] - widget.padding[0] - widget.padding[2]  # lines: within the padding
        if wrap:
            for word, size, bold in words(widget):
                if fonts.width(word, size, bold, widget.font_name) > wrap + TOLERANCE:
                    problems.append(Problem("split-word", describe(widget),
                                            f"{word!r} is wider than the {wrap:.0f} px line: it is broken"))
                    break
        if picture is not None and not widget._audit_scrolled and not widget.disabled:  # WCAG exempts inactive controls
            for colour in text_colours(widget):
                back = picture.background((max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)), colour)
                alpha = colour[3] if len(colour) > 3 else 1.0
                ink = tuple(c * alpha + b * (1 - alpha) for c, b in zip(colour[:3], back))
                ratio = contrast(ink, back)
                if widget.outline_width:
                    ratio = max(ratio, contrast(ink, widget.outline_color))
                if ratio < MIN_CONTRAST:
                    faint.append((Problem("contrast", describe(widget),
                                          f"text {ratio:.1f} : 1 on its background (at least {MIN_CONTRAST})"),
                                  (x0, y0, x1, y1)))
                    break
    return problems + [problem for problem, _box in small + faint] + crowded(targets, min_target * theme.GAP_MM / theme.TARGET_MM)
