"""No import cycles among the engine's modules.

Every ``import`` statement of every ``engine/**/*.py`` counts, wherever it stands: at the top, inside
a function (a deferred import is still a dependency, only hidden) or under ``TYPE_CHECKING``. An
edge goes to the module imported (``from .gobble import solo`` imports ``engine.gobble.solo``;
``from .board import Board`` imports ``engine.board``; a name a package's ``__init__`` defines
imports that package). A cycle would mean two modules that cannot be understood, tested or changed
one without the other (the strategy game once built its robots while every robot imported the game).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_modules() -> dict[str, Path]:
    return {module_name(p): p for p in ENGINE.rglob("*.py")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The engine modules ``name`` (defined in ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in known else source)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    modules = engine_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_finder_sees_deferred_and_relative_imports(tmp_path):
    """The finder itself: a function-level relative import closing a loop is a cycle."""
    edges = {"engine.a": {"engine.b"}, "engine.b": {"engine.a"}, "engine.c": {"engine.a"}}
    assert cycles(edges) == [["engine.a", "engine.b"]]
    source = tmp_path / "engine" / "strategy" / "game.py"
    source.parent.mkdir(parents=True)
    source.write_text("def f():\n    from .robots import make_robot\n    from ..board import Board\n")
    known = {"engine.strategy.game", "engine.strategy.robots", "engine.board"}
    found = imports_of("engine.strategy.game", source, known)
    assert found == {"engine.strategy.robots", "engine.board"}


def test_the_engine_has_no_import_cycles():
    edges = graph()
    assert "engine.strategy.game" in edges and "engine.modes" in edges  # the walk found the engine
    assert "engine.strategy.game" in edges["engine.strategy.robots"]  # robots see the game...
    assert cycles(edges) == []  # ...and nothing leads back


def test_the_strategy_game_never_imports_a_robot():
    edges = graph()
    reachable, todo = set(), ["engine.strategy.game"]
    while todo:
        for other in edges[todo.pop()] - reachable:
            reachable.add(other)
            todo.append(other)
    assert not any(m.startswith("engine.strategy.robots") for m in reachable)
