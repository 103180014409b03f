"""The package's rooms stay small and import in one direction.

The house's measures: a module of at most 600 lines, a class of at most 400, a folder
of at most 15 modules directly, and no circle between rooms (ARCHITECTURE.md: layers
import downward only). A room is a top-level module or package of
``route_planning_async`` (each version's package is one room; what it imports of
itself does not count); inside a package cut into rooms (the emulator, the command
line) each of its modules and packages is a room again, and the same holds between
them. The benchmarks (``benchmarks/``) are held to the same folders and rooms. Imports
made for the type checker alone (``if TYPE_CHECKING:``) are left out; imports inside
functions count, since they run.
"""

from __future__ import annotations

import ast
import graphlib
import pathlib
import re
from collections.abc import Iterator

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "route_planning_async"
BENCHMARKS = PACKAGE.parent / "benchmarks"
MODULES = sorted(PACKAGE.rglob("*.py"))
BENCHMARK_MODULES = sorted(BENCHMARKS.rglob("*.py"))
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 400
MAX_FOLDER_MODULES = 15
FOLDERS = sorted(path.parent for tree in (PACKAGE, BENCHMARKS) for path in tree.rglob("__init__.py"))
CUT_INTO_ROOMS = (
    "route_planning_async",
    "route_planning_async.emulator",
    "route_planning_async._cli",
    "benchmarks",
)
"""The packages whose modules and packages are rooms, importing downward only."""
NAMING_ROOMS = ("_checks", "_cli", "_docs", "_errors", "_rate_limits", "_scheduler")
"""Rooms of the top level whose ``__init__`` docstring names each of their modules."""


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


def _room(dotted: str, package: str = PACKAGE.name) -> str | None:
    """The room of ``package`` the module ``dotted`` is in (``None``: outside it)."""
    if dotted != package and not dotted.startswith(f"{package}."):
        return None
    rest = dotted[len(package) + 1 :]
    return rest.split(".")[0] if rest else "__init__"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_a_module_and_its_classes_stay_within_their_sizes(path: pathlib.Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_MODULE_LINES
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            assert lines <= MAX_CLASS_LINES, f"class {node.name}: {lines} lines"


def _room_graph(package: str) -> dict[str, set[str]]:
    """The rooms of ``package`` and the rooms of it each one imports at run time."""
    graph: dict[str, set[str]] = {}
    for path in MODULES + BENCHMARK_MODULES:
        room = _room(_name(path), package)
        if room is None:
            continue
        others = {_room(name, package) for name in _imported(path)} - {None, room}
        graph.setdefault(room, set()).update(other for other in others if other is not None)
    return graph


@pytest.mark.parametrize("package", CUT_INTO_ROOMS)
def test_no_room_imports_a_room_that_imports_it_back(package: str) -> None:
    graph = _room_graph(package)
    assert len(graph) > 8  # the walk found the rooms
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"a circle of imports between rooms of {package}: {sorted(set(error.args[1]))}")


def test_the_walk_finds_the_imports_between_rooms() -> None:
    assert "_versions" in _room_graph(PACKAGE.name)["_errors"]
    assert {"_rules", "_service", "_setup", "_store"} <= _room_graph("route_planning_async.emulator")["_wire"]
    assert {"_harness", "_results"} <= _room_graph("benchmarks")["_mismatch"]
    assert {"_rate_limits", "_learning", "_core"} <= _room_graph(PACKAGE.name)["_scheduler"]
    assert "_rate_limits" in _room_graph(PACKAGE.name)["_learning"]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: str(folder.relative_to(PACKAGE.parent)))
def test_a_folder_holds_at_most_15_modules_directly(folder: pathlib.Path) -> None:
    modules = [path.name for path in folder.glob("*.py") if path.name != "__init__.py"]
    assert len(modules) <= MAX_FOLDER_MODULES, sorted(modules)


def _rooms_that_name_their_modules() -> Iterator[pathlib.Path]:
    for package in CUT_INTO_ROOMS[1:]:
        folder = PACKAGE.parent.joinpath(*package.split("."))
        yield from sorted(path.parent for path in folder.glob("*/__init__.py"))
    yield from (PACKAGE / name for name in NAMING_ROOMS)


def test_each_room_says_what_lives_there() -> None:
    for room in _rooms_that_name_their_modules():
        docstring = ast.get_docstring(ast.parse((room / "__init__.py").read_text(encoding="utf-8")))
        assert docstring, f"{room.relative_to(PACKAGE.parent)}/__init__.py says nothing"
        modules = [path.stem for path in room.glob("*.py") if path.name != "__init__.py"]
        unnamed = [name for name in sorted(modules) if not re.search(rf"``{name}(\.py)?``", docstring)]
        assert unnamed == [], f"{room.name}/__init__.py does not name {unnamed}"
