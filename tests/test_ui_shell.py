"""The app is the :class:`ui.shell.Shell` every screen is typed against.

mypy cannot prove it: Kivy's ``App`` is ``Any`` to mypy, and a class with an ``Any`` base passes
for every protocol. So this compares them member by member in the running app: each method with
the same parameters and annotations, each attribute of the promised type."""

from __future__ import annotations

import inspect
import typing
from typing import Any

from ui_harness import run_scenario


def scenario_app_is_a_shell(app: Any) -> Any:
    yield  # built: the staff menu exists from here on
    from kivy.uix.screenmanager import Screen

    from ui.shell import Shell

    names = {"Screen": Screen}
    checked, mismatched = [], []
    for name, member in vars(Shell).items():
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            wanted = typing.get_type_hints(member.fget, localns=names)["return"]
            if not isinstance(getattr(app, name, None), wanted):
                mismatched.append(f"{name}: {getattr(app, name, None)!r} is not a {wanted.__name__}")
        elif callable(member):
            method = getattr(type(app), name, None)
            if method is None or inspect.signature(method) != inspect.signature(member):
                mismatched.append(f"{name}: {method and inspect.signature(method)} is not {inspect.signature(member)}")
        checked.append(name)
    for name, wanted in typing.get_type_hints(Shell, localns=names).items():
        if not isinstance(getattr(app, name, None), wanted):
            mismatched.append(f"{name}: {getattr(app, name, None)!r} is not a {wanted.__name__}")
        checked.append(name)
    return {"checked": sorted(checked), "mismatched": mismatched}


def test_the_app_offers_all_that_a_screen_may_ask():
    result = run_scenario("test_ui_shell", "scenario_app_is_a_shell", size=(800, 480))
    assert result["mismatched"] == []
    assert {"services", "show", "go_home", "journal", "discard", "staff", "staff_return", "leave_staff",
            "set_language"} <= set(result["checked"])
