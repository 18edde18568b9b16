"""The kiosk's Kivy set-up: one touch per tap on a Pi panel, no cursor; the desktop window keeps its mouse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, os, sys
from ui.window import prepare_window
prepare_window((800, 480), fullscreen=sys.argv[1] == "kiosk")
from kivy.config import Config
print(json.dumps({"input": dict(Config.items("input")), "cursor": Config.get("graphics", "show_cursor"),
                  "fullscreen": Config.get("graphics", "fullscreen"),
                  "sdl_touch_mouse": os.environ.get("SDL_TOUCH_MOUSE_EVENTS")}))
"""


def probe(mode: str, **env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "SDL_TOUCH"))}
    environ.update(KIVY_NO_CONSOLELOG="1", KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"), **env)
    done = subprocess.run([sys.executable, "-c", PROBE, mode], cwd=ROOT, env=environ, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_kiosk_takes_touches_from_the_panel_only_once_and_hides_the_cursor():
    kiosk = probe("kiosk")
    assert kiosk["input"] == {"mouse": "mouse,disable_on_activity", "touch": "probesysfs,provider=mtdev"}
    assert kiosk["sdl_touch_mouse"] == "0"  # SDL makes no mouse events of touches: no second touch
    assert kiosk["cursor"] == "0" and kiosk["fullscreen"] == "auto"
    resistive = probe("kiosk", KCFG_INPUT_TOUCH="probesysfs,provider=hidinput,select_all=1")
    assert resistive["input"]["touch"] == "probesysfs,provider=hidinput,select_all=1"


def test_a_desktop_window_keeps_kivys_mouse():
    desktop = probe("desktop")
    assert desktop["input"]["mouse"] == "mouse,multitouch_on_demand" and desktop["sdl_touch_mouse"] is None
    assert desktop["cursor"] == "1"
