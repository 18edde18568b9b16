"""Kivy's window and environment, set before Kivy creates the window (it reads them only once).

Both ways of starting the UI use this: the kiosk (``firmware``) and the UI alone (``python -m ui``).
"""

from __future__ import annotations

import os


def prepare_window(size: tuple[int, int] | None = (1280, 800), fullscreen: bool = False) -> None:
    """A fixed-size desktop window of ``size``, or the whole screen (the kiosk on its panel)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # the command line belongs to our programs
    from kivy.config import Config

    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        return
    width, height = size or (1280, 800)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # a right click is not a second finger
