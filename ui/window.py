"""Kivy's window and environment, set before Kivy creates the window (it reads them only once).

Both ways of starting the UI use this: the kiosk (``firmware``) and the UI alone (``python -m ui``).
"""

from __future__ import annotations

import os


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
        Config.set("graphics", "fullscreen", "auto")
        return
    width, height = size or (1280, 800)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # a right click is not a second finger
