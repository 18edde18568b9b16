"""The shape of ``ui/``'s imports: no cycles, and no family's screens reaching into another's.

A screen says where to go by name (``app.open_family(key)``, ``app.open(name, **args)``, see
:mod:`ui.navigation`) instead of importing the screen it goes to, and widgets that two families
share live in ``ui/`` itself. The graph is read from the source with ``ast``: every import
statement counts, the ones inside functions too (they are how cycles hide), those under
``if TYPE_CHECKING:`` excepted (they never run). A module's parent packages, which Python runs
first, are not edges: ``ui/modes/__init__.py`` may load the families that import from
``ui.navigation``.
"""

from __future__ import annotations

import ast

import pytest

from import_graph import cycles, graph, modules


def family_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[:2] == ["ui", "modes"] else None


def test_the_graph_sees_every_kind_of_import():
    """The reader itself: relative, absolute, function-level and ``from package import module``."""
    edges = graph("ui")
    assert "ui.theme" in edges["ui.board"]  # from . import theme, tileart
    assert "ui.navigation" in edges["ui.modes.solo.learn"]  # from ...navigation import ...
    assert "ui.modes.strategy.setup" in edges["ui.modes"]  # inside load_screens()
    assert "ui.modes.solo.four" in edges["ui.modes.solo.puzzles"]  # from . import four as solo_four
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_ui_has_no_import_cycle():
    assert cycles(graph("ui")) == []


def test_no_family_imports_another_familys_screens():
    crossings = [f"{source} imports {target}" for source, targets in graph("ui").items()
                 for target in targets
                 if family_of(source) is not None and family_of(target) not in (None, family_of(source))]
    assert crossings == []
    assert {family_of(m) for m in modules("ui")} >= {"strategy", "solo", "gobble", "tanagra"}


def opened_names() -> dict[str, str]:
    """Every name ``ui/`` opens (``app.open("x")``, ``self.app.open_family("y" if ... else "z")``),
    with where."""
    names: dict[str, str] = {}
    for name, path in modules("ui").items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args
                    and node.func.attr in ("open", "open_family") and ast.unparse(node.func.value) in ("app", "self.app")):
                for constant in ast.walk(node.args[0]):
                    if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
                        names[constant.value] = f"{name}:{node.lineno}"
    return names


def test_every_name_a_screen_opens_is_registered():
    """A misspelt destination would fail only when a player taps its button: here it fails now."""
    pytest.importorskip("kivy")
    from ui import navigation
    from ui.modes import FAMILIES, load_screens

    load_screens()
    opened = opened_names()
    assert {"learn", "puzzles", "learning-game", "tantrix-game", "tournament", "staff-players"} <= set(opened)
    for name, where in opened.items():
        assert callable(navigation.factory(name)), where
    assert all(callable(navigation.factory(fam.key)) for fam in FAMILIES)
    with pytest.raises(LookupError, match="no screen is registered as 'nowhere'"):
        navigation.factory("nowhere")
