"""The import graph of one of our packages, read from the source with ``ast``, and its cycles: what
``test_import_cycles`` (the engine) and ``test_ui_import_graph`` (the UI) check.

Every import statement counts wherever it stands: at the top, or inside a function (a deferred
import is still a dependency, only hidden). An edge goes to the module imported (``from .gobble
import solo`` imports ``engine.gobble.solo``; ``from .board import Board`` imports ``engine.board``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` by dotted name."""
    return {module_name(path): path for path in (ROOT / package).rglob("*.py")}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return skipped


def imports(name: str, path: Path, known: set[str], type_checking: bool = False) -> set[str]:
    """The modules of ``known`` that the module ``name`` (at ``path``) imports anywhere in it: a
    ``from package import module`` names the module, a ``from module import name`` the module.
    Imports under ``if TYPE_CHECKING:`` count only with ``type_checking``."""
    tree = ast.parse(path.read_text(), str(path))
    skipped = set() if type_checking else _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = node.module if node.level == 0 else ".".join(p for p in (base, node.module) if p)
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target)
    return found & known - {name}


def graph(package: str, type_checking: bool = False) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of ``package`` it imports."""
    found = modules(package)
    return {name: imports(name, path, set(found), type_checking) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
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
