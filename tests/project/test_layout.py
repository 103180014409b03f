"""The package's rooms stay small and import in one direction.

The house's measures: a module of at most 600 lines, a class of at most 400, and no
circle between rooms (ARCHITECTURE.md: layers import downward only), a room being a
top-level module or package of ``route_planning_async`` (each version's package is
one room; what it imports of itself does not count). Imports made for the type
checker alone (``if TYPE_CHECKING:``) are left out; imports inside functions
count, since they run.
"""

from __future__ import annotations

import ast
import graphlib
import pathlib
from collections.abc import Iterator

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "route_planning_async"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 400


def _name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _runtime_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _runtime_imports(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                yield from _runtime_imports([child])
            elif isinstance(child, ast.excepthandler):
                yield from _runtime_imports(child.body)


def _imported(path: pathlib.Path) -> Iterator[str]:
    """The modules of the package ``path`` imports at run time (dotted names)."""
    here = _name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
            continue
        base = package.rsplit(".", node.level - 1)[0] if node.level else ""
        source = ".".join(part for part in (base, node.module or "") if part)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            yield submodule if _is_module(submodule) else source


def _room(dotted: str) -> str | None:
    parts = dotted.split(".")
    if parts[0] != PACKAGE.name:
        return None
    return parts[1] if len(parts) > 1 else "__init__"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_a_module_and_its_classes_stay_within_their_sizes(path: pathlib.Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_MODULE_LINES
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            assert lines <= MAX_CLASS_LINES, f"class {node.name}: {lines} lines"


def test_no_room_imports_a_room_that_imports_it_back() -> None:
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        room = _room(_name(path))
        assert room is not None
        others = {_room(name) for name in _imported(path)} - {None, room}
        graph.setdefault(room, set()).update(other for other in others if other is not None)
    assert len(graph) > 30  # the walk found the rooms
    assert "_versions" in graph["_error_codes"]  # and their imports
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"a circle of imports between rooms: {sorted(set(error.args[1]))}")
