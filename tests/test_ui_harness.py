"""The UI scenario harness itself: each scenario forked from the test worker's warm process
(ui_harness.WarmProcess) gets its own window of the size asked, the test's environment, and
nothing a scenario before it left; a failure or a hang is the test's, and the next scenario runs."""

from __future__ import annotations

import subprocess

import pytest

from ui_harness import run_scenario

LEFT: list[str] = []
"""What a scenario left in its process: the next one must not find it."""


def scenario_leave_something(app):
    from kivy.core.window import Window

    yield
    found = list(LEFT)
    LEFT.append("left")
    return {"size": list(Window.size), "found": found, "screen": app.manager.current}


def scenario_hang(app):
    while True:
        yield 0.1


def scenario_fail(app):
    yield
    assert app.manager.current == "nowhere", "the probe's own failure"


def scenario_environment(app):
    import os

    yield
    return os.environ.get("UI_HARNESS_PROBE")


def test_each_scenario_has_its_own_window_and_nothing_a_scenario_before_it_left(monkeypatch):
    first = run_scenario("test_ui_harness", "scenario_leave_something", size=(800, 480))
    second = run_scenario("test_ui_harness", "scenario_leave_something", size=(720, 1280))
    assert first == {"size": [800, 480], "found": [], "screen": "attract"}
    assert second == {"size": [720, 1280], "found": [], "screen": "attract"}
    monkeypatch.setenv("UI_HARNESS_PROBE", "set by the test")
    assert run_scenario("test_ui_harness", "scenario_environment") == "set by the test"


def test_a_failing_or_hanging_scenario_fails_its_test_and_the_next_one_runs():
    with pytest.raises(pytest.fail.Exception, match="the probe's own failure"):
        run_scenario("test_ui_harness", "scenario_fail")
    with pytest.raises(subprocess.TimeoutExpired):
        run_scenario("test_ui_harness", "scenario_hang", timeout=3)
    assert run_scenario("test_ui_harness", "scenario_leave_something")["found"] == []
