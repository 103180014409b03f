"""Part 1: every property of every official answer is modelled, or allowed here with a reason.

For each 2xx JSON answer the client decodes (``schema.RESPONSES``), the answer's
schema is walked beside the model: every property must be the wire name of an
attribute (``camelCase``, or a name of ``WIRE_NAMES``), and an object property held
by a nested model is walked in turn. What is not modelled must be in
:data:`ALLOWED` with the reason; every 2xx answer of the document is either
decoded or listed in ``schema.NOT_DECODED``.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import attrs
import pytest

from route_planning_async._converter import camel_case
from route_planning_async.v0_2b._converter import WIRE_NAMES

from .schema import NOT_DECODED, RESPONSES, Answer, document, resolved, response_schema

ALLOWED: dict[str, str] = {
    "nextPageToken": "read by the paginator (Paginator), not a model field",
    "ImportResult.failed[].error": "its message is ImportFailure.message (a custom hook flattens it)",
    "ImportResult.failed[].unassignedStop": "kept as ImportFailure.stop, the echo of the failed stop",
    "DriverImportResult.failed[].error": "its message is DriverImportFailure.message (a custom hook "
    "flattens it, as for stops)",
    "LiveImportResult.failed[].error": "its message is ImportFailure.message (the same hook)",
}
"""Properties of official answers that no model attribute holds, with the reason."""


def _members(annotation: Any) -> list[Any]:
    """The model classes an attribute's type holds (through ``X | None`` and ``list[X]``)."""
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        return [m for arg in typing.get_args(annotation) for m in _members(arg)]
    if origin is list:
        return _members(typing.get_args(annotation)[0])
    return [annotation] if attrs.has(annotation) else []


def _objects(schema: Any) -> list[dict[str, Any]]:
    """The object schemas a (resolved) schema may be: through anyOf/oneOf/allOf and arrays."""
    if not isinstance(schema, dict):
        return []
    if schema.get("type") == "array":
        return _objects(schema.get("items"))
    found = [schema] if isinstance(schema.get("properties"), dict) else []
    for word in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(word, []):
            found += _objects(branch)
    return found


def _wire_names(cls: type[Any]) -> dict[str, attrs.Attribute[Any]]:
    names: dict[str, attrs.Attribute[Any]] = {}
    for field in attrs.fields(cls):
        for name in (camel_case(field.name), *WIRE_NAMES.get(field.name, ())):
            names[name] = field
    return names


def unmodelled(schema: Any, models: list[type[Any]], where: str) -> list[str]:
    """The JSON paths of ``schema``'s properties that none of ``models`` holds."""
    for model in models:
        attrs.resolve_types(model)
    missing: list[str] = []
    for obj in _objects(schema):
        names: dict[str, tuple[type[Any], attrs.Attribute[Any]]] = {}
        for model in models:
            names.update({name: (model, field) for name, field in _wire_names(model).items()})
        for name, sub in obj["properties"].items():
            path = f"{where}.{name}"
            if name in ALLOWED or path in ALLOWED:
                continue
            if name not in names:
                missing.append(path)
                continue
            inner = _members(names[name][1].type)
            if inner and _objects(sub):
                suffix = "[]" if _is_array(sub) else ""
                missing += unmodelled(sub, inner, path + suffix)
    return missing


def _is_array(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    if schema.get("type") == "array":
        return True
    return any(_is_array(branch) for branch in schema.get("anyOf", []))


@pytest.mark.parametrize("answer", RESPONSES, ids=lambda a: f"{a.method.upper()} {a.template}")
def test_every_property_of_the_answer_is_modelled(answer: Answer) -> None:
    schema = resolved(response_schema(answer.template, answer.method))
    name = answer.model.__name__
    if answer.list_key is not None:
        items = schema["properties"][answer.list_key]
        assert set(schema["properties"]) <= {answer.list_key, "nextPageToken"}
        assert unmodelled(items, [answer.model], name) == []
    else:
        assert unmodelled(schema, [answer.model], name) == []


def test_every_official_answer_is_decoded_or_listed() -> None:
    decoded = {(answer.template, answer.method) for answer in RESPONSES}
    with_body = {
        (template, method)
        for template, methods in document()["paths"].items()
        for method, operation in methods.items()
        if any(s.startswith("2") and "content" in r for s, r in operation["responses"].items())
    }
    assert with_body - decoded - set(NOT_DECODED) == set()
    assert set(NOT_DECODED) <= with_body
    assert decoded <= with_body


def test_the_walk_finds_a_missing_property() -> None:
    schema = {"type": "object", "properties": {"id": {"type": "string"}, "colour": {"type": "string"}}}

    @attrs.define
    class Thing:
        id: str

    assert unmodelled(schema, [Thing], "Thing") == ["Thing.colour"]
