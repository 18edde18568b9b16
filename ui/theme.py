"""Colours and sizes shared by every screen, chosen for a café table seen at arm's length.

Sizes scale with the window (:func:`unit`) rather than with dpi: the kiosk screens (7" 800x480 and
10" 1280x800) are about as far from the eye, so a touch target is a fixed share of the short side
(48 px at 480 px high, about 9 mm on the 7" panel).
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]


def rgb(hex_colour: str, alpha: float = 1.0) -> RGBA:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


# The four link colours, pushed apart in lightness so they stay distinct for colour-blind players
# (yellow light, green medium, red and blue darker and further told apart by their patterns).
LINK = {"R": rgb("#e8262d"), "Y": rgb("#ffd21a"), "G": rgb("#2fbf4f"), "B": rgb("#3d7cf2")}
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

FAMILY_COLOURS = {
    "tantrix": rgb("#c0392b"),
    "gobbles": rgb("#8e44ad"),
    "learn": rgb("#27ae60"),
    "puzzles": rgb("#2980b9"),
    "solitaire": rgb("#d35400"),
    "gobble-solo": rgb("#16a085"),
    "tanagra": rgb("#7f8c8d"),
}


def unit() -> float:
    """One "touch unit": 1/10 of the window's short side (48 px on the 800x480 panel)."""
    from kivy.core.window import Window  # on first use: importing the theme opens no window

    return min(Window.width, Window.height) / 10.0


def font(scale: float = 1.0) -> float:
    """A font size in pixels: body text is 0.45 units (about 22 px on the 800x480 panel)."""
    return unit() * 0.45 * scale
