"""The stop search's field table, written into the docstring of :mod:`route_planning_async.v1.search`.

The table of the filterable fields (:data:`~route_planning_async.v1.search.FIELDS`) is kept
once, in code; the docstring generator (``python -m route_planning_async._docs._gen``) writes
it as a table (name, type, operators, sortable) into the search module's docstring, which
``help()`` and the docs site show. Nothing imports this module but the generator.
"""

from __future__ import annotations

from typing import Final

from route_planning_async._docs import section_documented
from route_planning_async.v1 import search
from route_planning_async.v1.search import (
    CUSTOM_PROPERTY_PREFIX,
    FIELDS,
    FieldType,
    SearchField,
    operators_for,
)

__all__ = ["TITLE", "field_table"]

TITLE: Final = "The filterable fields (``=`` and ``!=`` also take ``null``)"


def field_table(width: int) -> str:
    """The section of the search module's docstring: a row per filterable field (name, type,
    operators, sortable), ``customProperties.<id>`` last, no line wider than ``width``."""
    custom = SearchField(f"{CUSTOM_PROPERTY_PREFIX}<id>", FieldType.STRING, "A custom property.")
    rows = [("Field", "Type", "Operators", "Sortable")] + [
        (f"``{spec.name}``", spec.type.value, " ".join(operators_for(spec.type)), "yes" * spec.sortable)
        for spec in (*FIELDS.values(), custom)
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    lines = ["| " + " | ".join(map(str.ljust, row, widths)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    if any(len(line) > width for line in lines):
        raise ValueError("the field table is wider than a docstring line")
    return "\n".join([f"{TITLE}:", "", *lines])


section_documented(search.__name__, "", TITLE, field_table)
