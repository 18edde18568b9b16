"""No import cycles among the engine's modules.

Every ``import`` statement of every ``engine/**/*.py`` counts, wherever it stands: at the top, inside
a function (a deferred import is still a dependency, only hidden) or under ``TYPE_CHECKING``. An
edge goes to the module imported (``from .gobble import solo`` imports ``engine.gobble.solo``;
``from .board import Board`` imports ``engine.board``; a name a package's ``__init__`` defines
imports that package). A cycle would mean two modules that cannot be understood, tested or changed
one without the other (the strategy game once built its robots while every robot imported the game).
"""

from __future__ import annotations

from import_graph import cycles, graph, imports


def test_the_finder_sees_deferred_and_relative_imports(tmp_path):
    """The finder itself: a function-level relative import closing a loop is a cycle."""
    edges = {"engine.a": {"engine.b"}, "engine.b": {"engine.a"}, "engine.c": {"engine.a"}}
    assert cycles(edges) == [["engine.a", "engine.b"]]
    source = tmp_path / "engine" / "strategy" / "game.py"
    source.parent.mkdir(parents=True)
    source.write_text("def f():\n    from .robots import make_robot\n    from ..board import Board\n")
    known = {"engine.strategy.game", "engine.strategy.robots", "engine.board"}
    found = imports("engine.strategy.game", source, known, type_checking=True)
    assert found == {"engine.strategy.robots", "engine.board"}


def test_the_engine_has_no_import_cycles():
    edges = graph("engine", type_checking=True)
    assert "engine.strategy.game" in edges and "engine.modes" in edges  # the walk found the engine
    assert "engine.strategy.game" in edges["engine.strategy.robots"]  # robots see the game...
    assert cycles(edges) == []  # ...and nothing leads back


def test_the_strategy_game_never_imports_a_robot():
    edges = graph("engine", type_checking=True)
    reachable, todo = set(), ["engine.strategy.game"]
    while todo:
        for other in edges[todo.pop()] - reachable:
            reachable.add(other)
            todo.append(other)
    assert not any(m.startswith("engine.strategy.robots") for m in reachable)
