"""The package's shape: layers, no import circles, no module too long to read.

Read from the source with `ast`, so the check sees every import, those made
only for type checking included: a circle there is a circle in the design.
The layers are the table in docs/design.md ("Modules"), read from there so
the design and this check cannot drift apart. A layer lists packages
(`core/`), each standing for all its modules, and top-level modules
(`const.py`); an import between packages is checked as any other.
Run alone with `pytest tests/test_structure.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path
import re

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "custom_components" / "intent_router"
DESIGN = ROOT / "docs" / "design.md"
MAX_MODULE_LINES = 500
# An entry in the layer table: `const.py`, `core/`, `\_\_init\_\_.py`.
_LISTED = re.compile(r"([\w\\]+)(\.py|/)")
# A note in the table, "(the only `mcp` importer)", names no entry.
_NOTE = re.compile(r"\([^)]*\)")


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


def entries(design: str) -> list[list[str]]:
    """The table's entries, row by row from the bottom: `core/`, `const.py`."""
    table = design.partition("## Modules")[2]
    rows = [line for line in table.splitlines() if line.startswith("|")][2:]
    return [
        [
            name.replace("\\", "") + suffix
            for name, suffix in _LISTED.findall(_NOTE.sub("", row.split("|")[2]))
        ]
        for row in rows
    ]


def layers(design: str) -> dict[str, int]:
    """Each module's layer, 0 at the bottom, from the design's table.

    A package (`core/`) stands for its modules; `__init__.py` is the
    integration's own module, named "".
    """
    found: dict[str, int] = {}
    for layer, row in enumerate(entries(design)):
        for entry in row:
            name = entry.removesuffix("/").removesuffix(".py")
            found[name if name != "__init__" else ""] = layer
    return found


def upward_imports(
    graph: dict[str, set[str]], layer_of: dict[str, int]
) -> dict[str, set[str]]:
    """The imports of a module above the importer's own layer."""

    def layer(module: str) -> int:
        return layer_of.get(module, layer_of.get(module.partition(".")[0], -1))

    upward = {
        module: {target for target in imports if layer(target) > layer(module)}
        for module, imports in graph.items()
    }
    return {module: targets for module, targets in upward.items() if targets}


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


def test_every_module_has_a_layer() -> None:
    """A new module is placed in the design's table, once."""
    layer_of = layers(DESIGN.read_text(encoding="utf-8"))
    unplaced = {
        m for m in _graph() if m not in layer_of and m.partition(".")[0] not in layer_of
    }
    assert unplaced == set()
    listed = [
        entry for row in entries(DESIGN.read_text(encoding="utf-8")) for entry in row
    ]
    assert len(listed) == len(set(listed))


def test_every_entry_of_the_table_is_there() -> None:
    """The table names packages and modules that exist, nothing gone."""
    missing = [
        entry
        for row in entries(DESIGN.read_text(encoding="utf-8"))
        for entry in row
        if not (
            PACKAGE / entry / "__init__.py" if entry.endswith("/") else PACKAGE / entry
        ).is_file()
    ]
    assert missing == []


def test_no_module_imports_a_layer_above_its_own() -> None:
    """Records at the bottom, Home Assistant's side on top (docs/design.md)."""
    graph = _graph()
    assert upward_imports(graph, layers(DESIGN.read_text(encoding="utf-8"))) == {}


def test_the_layer_check_finds_an_upward_import() -> None:
    """The check above can fail: the table is read, and an import up is found."""
    layer_of = layers(
        "## Modules\n\n| layer | modules |\n|---|---|\n"
        "| low | core/, const.py (a note: agent.py) |\n"
        "| high | turn/, \\_\\_init\\_\\_.py |\n"
    )
    assert layer_of == {"core": 0, "const": 0, "turn": 1, "": 1}
    graph = {
        "core.records": {"turn.agent", "const"},
        "const": {"turn"},
        "turn.agent": {"core.records", "turn.router"},
        "": {"core.records", "turn.agent"},
    }
    assert upward_imports(graph, layer_of) == {
        "core.records": {"turn.agent"},
        "const": {"turn"},
    }


def test_imports_between_packages_are_seen() -> None:
    """`from ..model.planner import Planner` in turn/ is an import of model/."""
    graph = _graph()
    assert {"model.planner", "core.records", "turn.router"} <= graph["turn.agent"]
    assert "deciding.utterance" in graph["model.planner"]


def test_records_import_nothing_of_the_package() -> None:
    """The bottom layer stands on its own."""
    assert _graph()["core.records"] == set()


def test_no_module_is_too_long() -> None:
    """Each module one topic, short enough to read in one sitting."""
    lengths = {
        _module_name(path): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}


README = ROOT / "README.md"
# A path the README cites in code: `reading/`, `turn/router.py`.
_CITED = re.compile(r"`(\w+/(?:\w+\.py)?)`")


def test_the_readme_says_how_it_decides_by_the_packages() -> None:
    """Each step the README's "How it decides what runs" names is a package.

    Every package of the integration is cited there, and every path cited
    exists, so the section can be checked against the code.
    """
    section = (
        README.read_text(encoding="utf-8")
        .partition("## How it decides what runs")[2]
        .partition("\n## ")[0]
    )
    cited = set(_CITED.findall(section))
    packages = {f"{path.parent.name}/" for path in PACKAGE.glob("*/__init__.py")}

    assert packages <= {f"{path.partition('/')[0]}/" for path in cited}
    assert all((PACKAGE / path).exists() for path in cited)
