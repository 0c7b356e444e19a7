"""The package's shape: no import circles, no module too long to read.

Read from the source with `ast`, so the check sees every import, those made
only for type checking included: a circle there is a circle in the design.
Run alone with `pytest tests/test_structure.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "custom_components" / "intent_router"
MAX_MODULE_LINES = 500


def _module_name(path: Path) -> str:
    """`music.play` for music/play.py, `music` for music/__init__.py."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The package's modules a module imports (relative imports resolved)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = package.split(".") if package else []
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join([*base, *(node.module or "").split(".")]).strip(".")
        candidates = [f"{target}.{alias.name}".strip(".") for alias in node.names]
        submodules = {c for c in candidates if c in modules}
        found.update(submodules)
        # `from . import spotify` is about the submodule, not the package.
        if target in modules and not (node.module is None and submodules):
            found.add(target)
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    paths = list(PACKAGE.rglob("*.py"))
    modules = {_module_name(path) for path in paths}
    return {_module_name(path): _imports(path, modules) for path in paths}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for child in sorted(graph.get(node, ())):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in on_stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_import_circles() -> None:
    """Records at the bottom, the agent on top: nothing imports back up."""
    assert find_cycles(_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    """The check above can fail."""
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]
    ]


def test_records_import_nothing_of_the_package() -> None:
    """The bottom layer stands on its own."""
    assert _graph()["records"] == set()


def test_no_module_is_too_long() -> None:
    """Each module one topic, short enough to read in one sitting."""
    lengths = {
        _module_name(path): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}
