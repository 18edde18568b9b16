"""Kivy's window and environment, set before Kivy creates the window (it reads them only once).

Both ways of starting the UI use this: the kiosk (``firmware``) and the UI alone (``python -m ui``).
"""

from __future__ import annotations

import os


KIOSK_INPUT = {
    "mouse": "mouse,disable_on_activity",
    "touch": "probesysfs,provider=mtdev",
}
"""Kivy's input providers on the kiosk, instead of its defaults (``mouse`` and ``probesysfs``,
which on a Pi touch panel give each tap twice: once from the panel, once as the mouse events SDL
makes of it). Touches come only from the multitouch panels probesysfs finds (the official 7" and
Touch Display 2, USB HID multitouch panels) through mtdev; SDL is told not to turn them into mouse
events (``SDL_TOUCH_MOUSE_EVENTS=0``), so the mouse provider sees only a real mouse, which staff
may plug in. A single-touch (resistive) panel needs ``KCFG_INPUT_TOUCH="probesysfs,provider=hidinput,select_all=1"``
in the unit's environment."""


def prepare_window(size: tuple[int, int] | None = (1280, 800), fullscreen: bool = False, rotation: int = 0,
                   pixels_per_inch: float = 0.0) -> None:
    """A fixed-size desktop window of ``size`` (as the panel is built, before any turn), or the whole
    screen (the kiosk on its panel); the picture and the touches turned ``rotation`` degrees (0, 90,
    180, 270: Kivy turns both, so a panel mounted any way round works); ``pixels_per_inch`` when the
    panel's density is stated (0: known from its size, see :data:`ui.theme.PANELS`)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # the command line belongs to our programs
    from kivy.config import Config

    from . import theme

    if rotation not in (0, 90, 180, 270):
        raise ValueError(f"rotation must be 0, 90, 180 or 270 degrees, not {rotation!r}")
    theme.pixels_per_inch = pixels_per_inch
    Config.set("graphics", "rotation", str(rotation))
    if fullscreen:
        os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        for option in Config.options("input"):
            Config.remove_option("input", option)
        for name, provider in KIOSK_INPUT.items():
            Config.set("input", name, os.environ.get(f"KCFG_INPUT_{name.upper()}", provider))
        return
    width, height = size or (1280, 800)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # a right click is not a second finger
