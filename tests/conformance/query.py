"""The query of a request held against its operation's query parameters in a version's
official document, for the request conformance of the list and search calls
(``test_request_queries.py``).

Each parameter's text is read as the document's schema types it (a ``number`` or an
``integer`` parameter as the number its text writes); an object parameter is read
from its ``name[key]=value`` entries, as its own description says (``?filter[title]=foo``:
the document gives it no ``style``); and what the document's schemas contradict
themselves on is read as :data:`READINGS` says.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import jsonschema

from .schema import document, resolved

__all__ = ["READINGS", "query_errors"]

READINGS: dict[tuple[str, str, str], tuple[dict[str, Any], str]] = {
    ("/stops:search", "get", "maxPageSize"): (
        {"type": "integer", "minimum": 1, "maximum": 20},
        "the document gives exclusiveMinimum 1 and exclusiveMaximum 20 beside its own default "
        "of 20, which they would exclude: read as the inclusive 1..20 of every other list "
        "(minimum 1) and of the default",
    ),
}
"""Parameters whose schema contradicts itself, keyed by (template, method, name): the
schema they are read with, and why."""

_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def _typed(text: str, schema: dict[str, Any]) -> Any:
    """A parameter's text as the value its schema types: a number for ``number`` and
    ``integer`` (when the text writes one), else the text."""
    if schema.get("type") not in ("number", "integer"):
        return text
    if _INTEGER.fullmatch(text):
        return int(text)
    return float(text) if _NUMBER.fullmatch(text) else text


def _parameters(path: Path, template: str, method: str) -> dict[str, dict[str, Any]]:
    operation = document(path)["paths"][template][method]
    found: dict[str, dict[str, Any]] = {}
    for parameter in operation.get("parameters", []):
        parameter = resolved(path, parameter)
        if parameter["in"] == "query":
            reading = READINGS.get((template, method, parameter["name"]))
            found[parameter["name"]] = copy.deepcopy(reading[0] if reading else parameter["schema"])
    return found


def _errors(name: str, value: Any, schema: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{name}: {error.message}" for error in validator.iter_errors(value)]


def query_errors(path: Path, template: str, method: str, query: tuple[tuple[str, str], ...]) -> list[str]:
    """Why ``query`` is not a valid query of ``method template`` in the document at
    ``path`` (empty: it is)."""
    parameters = _parameters(path, template, method.lower())
    errors: list[str] = []
    names = [name for name, _ in query]
    errors += [f"{name}: sent more than once" for name in sorted(set(names)) if names.count(name) > 1]
    objects: dict[str, dict[str, str]] = {}
    for name, text in query:
        outer, bracket, rest = name.partition("[")
        schema = parameters.get(outer)
        if schema is None:
            errors.append(f"{name}: not a query parameter of {method.upper()} {template}")
        elif bracket:
            if schema.get("type") != "object" or not rest.endswith("]"):
                errors.append(f"{name}: {outer} is not an object parameter")
            else:
                objects.setdefault(outer, {})[rest[:-1]] = text
        else:
            errors += _errors(name, _typed(text, schema), schema)
    for outer, value in objects.items():
        errors += _errors(outer, value, parameters[outer])
    return errors
