"""A panel mounted turned: ``[display] rotation`` turns the picture and the touches together, and
the screens lay out for the turned size (the 720x1280 portrait panel lying landscape is 1280x720)."""

from __future__ import annotations

import pytest

from ui_harness import run_scenario, until


def _panel_touch(sx: float, sy: float):
    """A finger as the panel's driver reports it: a share of the panel's own width and height."""
    from kivy.input.motionevent import MotionEvent

    class PanelTouch(MotionEvent):
        def depack(self, args):
            self.sx, self.sy = args
            self.is_touch = True
            super().depack(args)

    return PanelTouch("panel", 1, (sx, sy))


def scenario_turned_panel(app):
    from kivy.base import EventLoop
    from kivy.core.window import Window

    app.go_home()
    yield 0.2
    assert Window.rotation == 90
    assert tuple(Window.size) == (1280, 720), Window.size
    assert tuple(app.root.size) == (1280, 720)
    button = max(app.home.buttons.values(), key=lambda b: b.to_window(*b.center)[0])
    pressed = []
    button.bind(on_release=lambda _b: pressed.append(1))
    x, y = button.to_window(*button.center)
    # Kivy's rule for a quarter turn: the panel's (sx, sy) is shown at (sy * 1280, (1 - sx) * 720)
    finger = _panel_touch(1 - y / 720, x / 1280)
    EventLoop.post_dispatch_input("begin", finger)
    EventLoop.post_dispatch_input("end", finger)
    yield until(lambda: pressed, 5)
    assert pressed and app.manager.current != "home"
    return {"at": [x, y]}


def test_a_quarter_turned_panel_turns_layout_and_touches():
    result = run_scenario("test_ui_rotation", "scenario_turned_panel", size=(720, 1280), rotation=90,
                          settings={"idle_seconds": 1e6})
    assert result["at"][0] > 720  # a place only a landscape window has


def test_prepare_window_sets_the_turn_and_refuses_others(monkeypatch):
    from kivy.config import Config

    from ui import theme
    from ui.window import prepare_window

    monkeypatch.setattr(theme, "pixels_per_inch", 0.0)
    prepare_window((720, 1280), rotation=270, pixels_per_inch=300)
    assert Config.getint("graphics", "rotation") == 270
    assert theme.pixels_per_inch == 300
    assert theme.min_target((1280, 720)) == pytest.approx(45 * 300 / theme.REFERENCE_PPI)
    with pytest.raises(ValueError, match="0, 90, 180 or 270"):
        prepare_window((720, 1280), rotation=45)
    Config.set("graphics", "rotation", "0")


def test_touch_targets_follow_each_panels_density():
    from ui import theme

    assert theme.min_target((800, 480)) == pytest.approx(45)
    assert theme.min_target((480, 800)) == pytest.approx(45)  # the same panel turned
    assert theme.min_target((720, 1280)) == pytest.approx(70.8, abs=0.1)  # 7" portrait: 210 ppi
    assert theme.min_target((1920, 1080)) == pytest.approx(47.7, abs=0.1)


def test_remembered_sizes_follow_a_density_stated_later(monkeypatch):
    """The touch target is remembered per panel size and stated density (a layout asks hundreds of
    times a placement): a density stated after it was first asked is followed at once."""
    from ui import theme

    monkeypatch.setattr(theme, "pixels_per_inch", 0.0)
    assert theme.min_target((800, 480)) == pytest.approx(45)
    assert theme.panel_ppi((800, 480)) == pytest.approx(theme.REFERENCE_PPI)
    monkeypatch.setattr(theme, "pixels_per_inch", 266.0)
    assert theme.min_target((800, 480)) == pytest.approx(45 * 266 / theme.REFERENCE_PPI)
    assert theme.panel_ppi((800, 480)) == 266.0
    assert theme.min_text((800, 480)) == pytest.approx(45 * 266 / theme.REFERENCE_PPI * 2.5 / 9)
