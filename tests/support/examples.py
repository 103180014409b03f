"""The Python examples of the README and of the docs pages, and a way to run a fragment.

An example is a fenced ``python`` block. A complete program runs as written; a
fragment (a few lines that use ``client``, ``plan_id``, ... and may ``await`` at
the top level) runs with those names bound by the test to an emulator.
"""

from __future__ import annotations

import ast
import pathlib
import re
import types
from collections.abc import Mapping
from typing import Any

import attrs

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SOURCES = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


@attrs.frozen
class Example:
    """One fenced ``python`` block."""

    path: pathlib.Path
    line: int
    code: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def examples() -> list[Example]:
    """Every python block of the README and the docs pages, in file order."""
    found = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append(Example(path, line, match.group(1)))
    return found


async def run_fragment(example: Example, names: Mapping[str, Any]) -> dict[str, Any]:
    """Run a fragment with ``names`` bound, top-level ``await`` allowed; its namespace after."""
    code = compile(example.code, example.where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    namespace: dict[str, Any] = {"__name__": "docs_example", **names}
    result = types.FunctionType(code, namespace)()
    if result is not None:  # the fragment awaited something: it is a coroutine
        await result
    return namespace
