"""Colours and sizes shared by every screen, chosen for a café table seen at arm's length.

Sizes scale with the window (:func:`unit`) rather than with dpi: the kiosk screens (7" 800x480 and
10" 1280x800) are about as far from the eye, so a touch target is a fixed share of the short side
(48 px at 480 px high, about 9 mm on the 7" panel).
"""

from __future__ import annotations

from functools import lru_cache

RGBA = tuple[float, float, float, float]


def rgb(hex_colour: str, alpha: float = 1.0) -> RGBA:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


def hex_of(colour: RGBA) -> str:
    """``colour`` as Kivy's markup writes it ("0a2a20"), for a part of a text in its own colour."""
    return "".join(f"{round(c * 255):02x}" for c in colour[:3])


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (components 0-1)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21)."""
    la, lb = relative_luminance((a[0], a[1], a[2])), relative_luminance((b[0], b[1], b[2]))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


# The four link colours, pushed apart in lightness so they stay distinct for colour-blind players
# (yellow light, green medium, red and blue darker), each at least 3 : 1 on the tile face in every
# simulated colour vision, and each with its own marking (LINK_MARKING, drawn by ui.tileart): red
# and green look alike to a deuteranope, the dots and the stripe tell them apart (test_ui_colours).
LINK = {"R": rgb("#ff3a30"), "Y": rgb("#ffd21a"), "G": rgb("#2fbf4f"), "B": rgb("#3d7cf2")}
PLATE = {"R": rgb("#b3221b"), "Y": rgb("#7a6000"), "G": rgb("#1b6e2f"), "B": rgb("#2a5bb8")}
"""A player's colour behind white text (a lit name plate): the link colour darkened to 4.5 : 1 or more."""
LINK_MARKING = {"R": "dark dots", "Y": "dark rungs", "G": "dark stripe", "B": "light dashes"}
SEAT_ARCS = {"R": 1, "Y": 2, "G": 3, "B": 4}
"""A seat colour's shape, besides its hue, wherever the colour alone would tell the seat: its LED
ring is lit in that many arcs (red the whole ring, yellow two halves, green three thirds, blue four
quarters, one dark LED between two), and the setup's pawn shows the same gaps."""

# Marks on the board that must never be taken for a link colour, in any colour vision (only very
# light colours are far from all four for every deficiency; the two also differ in line style).
MARK_REFUSED = rgb("#ffffff")  # the cells a refused placement involves: white, solid and filled
MARK_FITS = rgb("#80ffff")  # where a tile would fit (Gobble solo): pale cyan, outline only
TILE_FACE = rgb("#17171c")
TILE_EDGE = rgb("#3a3a44")

TABLE = rgb("#0f3d2e")  # the green baize the board lies on
TABLE_DARK = rgb("#0a2a20")
PANEL = rgb("#1d2530", 0.92)
TEXT = rgb("#f4f1e8")
TEXT_DIM = rgb("#b9c2c9")
ACCENT = rgb("#f0a020")  # forced spaces, focus
GOOD = rgb("#3ddc84")
BAD = rgb("#ff4d4d")
BUTTON = rgb("#2b3a4a")
BUTTON_DOWN = rgb("#41566c")
GO = rgb("#2e7d32")  # start, confirm
STOP = rgb("#8e2b2b")  # leave, discard
CHOSEN = rgb("#c77c0e")  # the selected chip of a choice (amber, lighter than every button)
ON_CHOSEN = rgb("#17171c")  # text on amber: dark (5.4 : 1; white would be 2.9 : 1)


def ink_on(background: RGBA) -> RGBA:
    """The words' colour on a button of ``background``, whichever contrasts more: the light
    :data:`TEXT` or the dark :data:`ON_CHOSEN`. A link colour is light enough for dark words
    (red 5.0 : 1, green 7.4, blue 4.6), where light words and their grey subtitle read at 1.8 to
    3.5 : 1 (Learn's Rainbow buttons); the button keeps the tiles' own colour, whose lightness
    tells it apart in every colour vision (test_ui_colours)."""
    return max((TEXT, ON_CHOSEN), key=lambda ink: contrast(ink, background))

FAMILY_COLOURS = {  # dark enough for white text and the light grey subtitle (>= 4.7 : 1)
    "tantrix": rgb("#ab3326"),
    "gobbles": rgb("#8540a2"),
    "learn": rgb("#186b3b"),
    "puzzles": rgb("#20638f"),
    "solitaire": rgb("#a04000"),
    "gobble-solo": rgb("#0f6a58"),
    "tanagra": rgb("#555f60"),
}


PANELS: dict[tuple[int, int], float] = {
    (800, 480): 7.0,  # the official Raspberry Pi 7" display
    (1024, 600): 7.0,
    (1280, 800): 10.1,
    (1920, 1080): 15.6,
    (720, 1280): 7.0,  # the Raspberry Pi Touch Display 2, portrait
}
"""The supported panels: size in pixels (as mounted, before any rotation) and diagonal in inches."""

REFERENCE_PPI = (800**2 + 480**2) ** 0.5 / 7.0
"""The official 7" panel's density, where a 9 mm fingertip is 45 px."""
TOUCH_PX_AT_REFERENCE = 45.0

pixels_per_inch: float = 0.0
"""The panel's density when the configuration states it (``[display] pixels_per_inch``); 0: known
from the panel's size (:data:`PANELS`), else taken as the 7" panel's."""


def panel_ppi(size: tuple[int, int]) -> float:
    """Pixels per inch of a panel of ``size`` (either way round)."""
    return _ppi(size[0], size[1], pixels_per_inch)


@lru_cache(maxsize=16)
def _ppi(w: int, h: int, stated: float) -> float:
    """:func:`panel_ppi` of a ``w`` x ``h`` panel with ``stated`` as :data:`pixels_per_inch`: the
    layouts ask hundreds of times a placement, always with the same few."""
    if stated > 0:
        return stated
    diagonal = PANELS.get((w, h)) or PANELS.get((h, w))
    return (w**2 + h**2) ** 0.5 / diagonal if diagonal else REFERENCE_PPI


def min_target(size: tuple[int, int] | None = None) -> float:
    """The smallest touch target in pixels: 9 mm (45 px on the 7" 800x480 panel) at this density."""
    if size is None:
        from kivy.core.window import Window

        size = Window.size
    return _target(size[0], size[1], pixels_per_inch)


def _target(w: int, h: int, stated: float) -> float:
    """:func:`min_target` of a ``w`` x ``h`` panel with ``stated`` as :data:`pixels_per_inch`."""
    return TOUCH_PX_AT_REFERENCE * _ppi(w, h, stated) / REFERENCE_PPI


TARGET_MM = 9.0
"""A fingertip, the smallest touch target: what :func:`min_target` is in pixels."""
GAP_MM = 1.5
"""The clear space between two touch targets. A fingertip's pad is about 10 mm across, so a finger
aimed at the middle of a 9 mm control spills about half a millimetre past each edge, and aim is not
exact: 1.5 mm apart, the centres of two such controls are 10.5 mm apart, more than a pad's width,
and a finger centred on one does not press the other. It is Material's 8 dp between 48 dp targets
(a sixth of a target) at our 9 mm. :mod:`ui.audit` holds every screen to it."""


def min_gap(size: tuple[int, int] | None = None) -> float:
    """The least space in pixels between two controls (:data:`GAP_MM` at this density: 7.5 px on
    the 800x480 panel); a layout's spacing between its controls is at least this."""
    return min_target(size) * GAP_MM / TARGET_MM


TEXT_MM = 2.5
"""The smallest font size (the em, Kivy's ``font_size``) of any text a player is to read: 12.5 px
on the 7" 800x480 panel, :func:`min_text` at other densities. The table is read from a chair, at
40 to 60 cm: farther than a phone (about 30 cm), whose guidelines put the smallest caption at
12 sp (Material's type scale, 1.9 mm; Apple's 11 pt is 1.7 mm); scaled to 40 cm that caption is
2.5 mm. ISO 9241-3 (now 9241-303) asks characters of at least 16 minutes of arc, 20 to 22
preferred (quoted at http://www.pc.ibm.com/ww/healthycomputing/vdc-crf.html): the capitals of a
2.5 mm font (0.71 em in Roboto, 1.8 mm) are 16' at 40 cm, the player leaning over their own plate;
body text (:func:`font`, 4.3 mm on that panel) is 21' at 50 cm. Below it a word is guessed, not
read: :mod:`ui.audit` holds every screen to it, and :func:`ui.widgets.fit_font` tries it before
shrinking a text further."""


def min_text(size: tuple[int, int] | None = None) -> float:
    """The smallest font size in pixels: :data:`TEXT_MM` at this density (12.5 px on the 800x480
    panel, 19.7 px on the denser 7" portrait one)."""
    return min_target(size) * TEXT_MM / TARGET_MM


def min_tile_radius() -> float:
    """The smallest circumradius (pixels) of a board tile that someone must pick or drop on: 9 mm
    across its flats at this panel's density (45 px on the 800x480 panel). Every board view that
    follows the play (the strategy game, Gobbles) keeps its tiles at least this big."""
    return min_target() / 3**0.5


def unit() -> float:
    """One "touch unit": 1/10 of the window's short side (48 px on the 800x480 panel), never less than
    the smallest touch target (a dense panel, such as the 7" portrait one, would make it small)."""
    from kivy.core.window import Window  # on first use: importing the theme opens no window

    w, h = Window.size
    return _unit(w, h, pixels_per_inch)


@lru_cache(maxsize=16)
def _unit(w: int, h: int, stated: float) -> float:
    """:func:`unit` in a ``w`` x ``h`` window with ``stated`` as :data:`pixels_per_inch` (a
    layout asks hundreds of times a placement, always the same)."""
    return max(min(w, h) / 10.0, _target(w, h, stated))


def portrait() -> bool:
    """Whether the window is taller than wide (the 7" portrait panel): a screen then lays its parts
    out top to bottom rather than side by side."""
    from kivy.core.window import Window

    return Window.height > Window.width


def font(scale: float = 1.0) -> float:
    """A font size in pixels: body text is 0.45 units (about 22 px on the 800x480 panel)."""
    return unit() * 0.45 * scale
