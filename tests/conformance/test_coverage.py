"""Part 1: every property of every official answer is modelled, or listed with a reason.

For each version and each 2xx JSON answer its client decodes
(``Version.decoding.answers``), the answer's schema is walked beside the model:
every property must be a wire name of an attribute (``Version.converter.wire_names``),
and an object property held by a nested model is walked in turn. What is not
modelled must be in ``Version.decoding.unmodelled`` with the reason; every 2xx
answer of the document is either decoded or listed in ``decoding.not_decoded``;
and the client's endpoint table names the document's calls, no more, no fewer.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

import attrs
import pytest

from .schema import Answer, document, resolved, response_schema
from .versions import V0_2B, VERSIONS, Version


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


def _wire_names(version: Version, cls: type[Any]) -> dict[str, attrs.Attribute[Any]]:
    names: dict[str, attrs.Attribute[Any]] = {}
    for field in attrs.fields(cls):
        for name in version.converter.wire_names(field.name):
            names[name] = field
    return names


def unmodelled(version: Version, schema: Any, models: list[type[Any]], where: str) -> list[str]:
    """The JSON paths of ``schema``'s properties that none of ``models`` holds."""
    listed = version.decoding.unmodelled
    for model in models:
        attrs.resolve_types(model)
    missing: list[str] = []
    for obj in _objects(schema):
        names: dict[str, tuple[type[Any], attrs.Attribute[Any]]] = {}
        for model in models:
            names.update({name: (model, field) for name, field in _wire_names(version, model).items()})
        for name, sub in obj["properties"].items():
            path = f"{where}.{name}"
            if name in listed or path in listed:
                continue
            if name not in names:
                missing.append(path)
                continue
            inner = _members(names[name][1].type)
            if inner and _objects(sub):
                suffix = "[]" if _is_array(sub) else ""
                missing += unmodelled(version, sub, inner, path + suffix)
    return missing


def _is_array(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    if schema.get("type") == "array":
        return True
    return any(_is_array(branch) for branch in schema.get("anyOf", []))


@pytest.mark.parametrize(
    ("version", "answer"),
    [
        pytest.param(version, answer, id=f"{version.name} {answer.method.upper()} {answer.template}")
        for version in VERSIONS
        for answer in version.decoding.answers
    ],
)
def test_every_property_of_the_answer_is_modelled(version: Version, answer: Answer) -> None:
    schema = resolved(version.schema, response_schema(version.schema, answer.template, answer.method))
    name = answer.model.__name__
    if answer.list_key is not None:
        items = schema["properties"][answer.list_key]
        assert set(schema["properties"]) <= {answer.list_key, "nextPageToken"}
        assert unmodelled(version, items, [answer.model], name) == []
    else:
        assert unmodelled(version, schema, [answer.model], name) == []


@pytest.mark.parametrize("version", VERSIONS, ids=lambda version: version.name)
def test_every_official_answer_is_decoded_or_listed(version: Version) -> None:
    decoded = {(answer.template, answer.method) for answer in version.decoding.answers}
    not_decoded = set(version.decoding.not_decoded)
    with_body = {
        (template, method)
        for template, methods in document(version.schema)["paths"].items()
        for method, operation in methods.items()
        if any(s.startswith("2") and "content" in r for s, r in operation["responses"].items())
    }
    assert with_body - decoded - not_decoded == set()
    assert not_decoded <= with_body
    assert decoded <= with_body


def _call(method: str, template: str) -> tuple[str, str]:
    """``(GET, /plans/{})``: a call with its placeholders' names left out."""
    return method.upper(), re.sub(r"\{[^}]+\}", "{}", template)


@pytest.mark.parametrize("version", VERSIONS, ids=lambda version: version.name)
def test_the_endpoint_table_names_the_calls_of_the_document(version: Version) -> None:
    documented = {
        _call(method, template)
        for template, methods in document(version.schema)["paths"].items()
        for method in methods
    }
    assert {_call(e.method, e.template) for e in version.endpoints.values()} == documented


def test_the_walk_finds_a_missing_property() -> None:
    schema = {"type": "object", "properties": {"id": {"type": "string"}, "colour": {"type": "string"}}}

    @attrs.define
    class Thing:
        id: str

    assert unmodelled(V0_2B, schema, [Thing], "Thing") == ["Thing.colour"]
