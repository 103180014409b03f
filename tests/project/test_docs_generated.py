"""The docstrings are written in the source: what runs is what an editor reads.

A text kept elsewhere (a field's ``described`` metadata, the stop search's field
table) is copied into the docstrings that show it by the generator,
``python -m route_planning_async._docs_gen``. Here: the source is as the
generator writes it (else the test names the command to run), the generator
changes nothing on a second run, and no docstring of the package differs at
runtime from the one written in its source (nothing rewrites ``__doc__``).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import route_planning_async
from route_planning_async import _docs_gen

_Definition = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def _modules() -> Iterator[ModuleType]:
    for info in pkgutil.walk_packages(route_planning_async.__path__, "route_planning_async."):
        if not info.name.endswith("__main__"):
            yield importlib.import_module(info.name)


def _public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def _scopes(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.Try):
            yield from _scopes([*statement.body, *statement.orelse])


def _written(scope: list[ast.stmt], prefix: str, holder: object) -> Iterator[tuple[str, object, str | None]]:
    """(qualified name, runtime object, docstring as written) of the public definitions in ``scope``."""
    definitions: dict[str, list[_Definition]] = {}
    for node in _scopes(scope):
        if isinstance(node, _Definition) and _public(node.name):
            definitions.setdefault(node.name, []).append(node)
    for name, nodes in definitions.items():
        runtime = inspect.getattr_static(holder, name, None)
        if runtime is None:
            continue  # defined for the type checker only
        # A property's text is its getter's (the first definition); otherwise the name is
        # bound to the last one (an implementation after its overloads).
        node = nodes[0] if isinstance(runtime, property) else nodes[-1]
        yield f"{prefix}{name}", runtime, ast.get_docstring(node)
        if isinstance(node, ast.ClassDef):
            yield from _written(node.body, f"{prefix}{name}.", runtime)


def _runtime_doc(runtime: object) -> str | None:
    if isinstance(runtime, classmethod | staticmethod):
        runtime = runtime.__func__
    doc = runtime.__doc__ if isinstance(runtime, type) else getattr(runtime, "__doc__", None)
    return None if doc is None else inspect.cleandoc(doc)


def _cases() -> Iterator[tuple[str, object, str | None]]:
    for module in _modules():
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        tree = ast.parse(source)
        yield module.__name__, module, ast.get_docstring(tree)
        yield from _written(tree.body, f"{module.__name__}.", module)


CASES = list(_cases())


def test_the_walk_covers_the_package() -> None:
    names = {name for name, _, _ in CASES}
    assert "route_planning_async.v1._models._resources.Plan" in names
    assert "route_planning_async.v0_2b.resources.stops.Stops.update" in names
    assert "route_planning_async._import._report.ImportReport.done" in names
    assert len(CASES) > 1000


def test_no_docstring_differs_at_runtime_from_its_source() -> None:
    differing = [name for name, runtime, written in CASES if _runtime_doc(runtime) != written]
    assert differing == [], "a docstring is changed at runtime; the source must hold it as shown"


def test_the_generated_sections_are_up_to_date() -> None:
    stale = _docs_gen.stale_files()
    assert stale == [], f"generated docstring sections are stale in {stale}: run {_docs_gen.COMMAND}"


def test_the_sections_are_registered_where_they_are_shown() -> None:
    from route_planning_async._docs import generated_sections

    _docs_gen.stale_files()  # imports every module
    registered = {section.qualname for section in generated_sections()}
    assert {"StopInput", "Plan", "StopsNamespace.import_many", "RoutePlanningClient.__init__"} <= registered
    assert {"RedisBackend.acquire", "RedisBackend.usage"} <= registered


def test_a_section_is_replaced_in_place_or_added_before_returns() -> None:
    lines = ["Summary.", "", "Keyword Args:", "    a (int): Old.", "", "Returns:", "    A thing."]
    new = ["Keyword Args:", "    a (int): New.", "    b (str): Added."]
    assert _docs_gen.with_section(lines, "Keyword Args", new) == [
        "Summary.",
        "",
        *new,
        "",
        "Returns:",
        "    A thing.",
    ]
    assert _docs_gen.with_section(["Summary.", "", "Returns:", "    X."], "Keyword Args", new) == [
        "Summary.",
        "",
        *new,
        "",
        "Returns:",
        "    X.",
    ]
    table = ["Fields:", "", "| a | b |", "|---|---|", "| 1 | 2 |"]
    new_table = ["Fields:", "", "| a |", "|---|", "| 3 |"]
    written = _docs_gen.with_section(["Summary.", "", *table, "", "After."], "Fields", new_table)
    assert written == ["Summary.", "", *new_table, "", "After."]


def test_an_attributes_section_keeps_the_hand_written_entries_and_drops_the_stale_ones() -> None:
    from route_planning_async._docs import Keyword

    rewrite = _docs_gen._attributes([Keyword("rows", "int", "Rows read.")], undocumented={"RED"})
    lines = [
        "Summary.",
        "",
        "Attributes:",
        "    RED: Written by hand for a member with no docstring.",
        "    stops (int): A former attribute's generated entry.",
        "    rows (int): An old text.",
    ]
    expected = [*lines[:4], "    rows (int): Rows read."]
    assert rewrite(lines, 100, lambda module, qualname: []) == expected
    assert rewrite(expected, 100, lambda module, qualname: []) == expected


def test_a_docstring_is_written_in_the_project_format(tmp_path: Path) -> None:
    source = 'class A:\n    def f(self):\n        """One line."""\n        return 1\n'
    tree = ast.parse(source)
    function = tree.body[0].body[0]  # type: ignore[attr-defined]
    node = function.body[0].value
    edit = _docs_gen._Edit(node, ["One line.", "", "Keyword Args:", "    x (int): A text."])
    assert _docs_gen._rewritten(source, [edit]) == (
        "class A:\n    def f(self):\n"
        '        """One line.\n\n        Keyword Args:\n            x (int): A text.\n        """\n'
        "        return 1\n"
    )


def test_the_check_reports_nothing_on_a_fresh_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert _docs_gen.main(["--check"]) == 0
    assert capsys.readouterr().out == ""


def test_help_of_the_search_module_shows_the_field_table() -> None:
    import pydoc

    from route_planning_async.v1 import search

    shown = pydoc.render_doc(search, renderer=pydoc.plaintext)
    rows = [line.strip() for line in shown.splitlines() if line.strip().startswith("| ``")]
    assert len(rows) == 39  # the document's 39 filterable fields, custom properties included
    assert sum(row.endswith("| yes      |") for row in rows) == len(search.SORTABLE_FIELDS) == 10
    for spec in search.FIELDS.values():
        cells = [cell.strip() for cell in next(r for r in rows if f"``{spec.name}``" in r).split("|")[1:-1]]
        assert cells == [
            f"``{spec.name}``",
            spec.type.value,
            " ".join(search.operators_for(spec.type)),
            "yes" if spec.sortable else "",
        ]
    assert rows[-1].startswith("| ``customProperties.<id>`` ")


def test_the_check_catches_a_section_entry_written_twice(capsys: pytest.CaptureFixture[str]) -> None:
    source = '''
async def window() -> None:
    """Per rule, the slots.

    Raises:
        RedisBackendError: Redis did not answer.
    RedisBackendError: Redis did not answer.
    """


def twice() -> None:
    """Two.

    Returns:
        One.

    Returns:
        Two.
    """
'''
    assert _docs_gen.docstring_problems(source, "m.py") == [
        "m.py: window: a line outside its Raises: section: 'RedisBackendError: Redis did not answer.'",
        "m.py: twice: the section Returns: is written twice",
    ]
    assert _docs_gen.malformed() == []
    from route_planning_async.redis import RedisBackend

    for method in (RedisBackend.window, RedisBackend.usage):
        assert (method.__doc__ or "").count("RedisBackendError:") == 1
