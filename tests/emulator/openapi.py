"""Validation of the emulator's answers against the public OpenAPI document.

``data/public-openapi-v0.2b.json`` is an extract of the public document: its request
and response schemas, with descriptions and examples removed. Its id patterns are
written ``[a-zA-Z0-9---_]`` (a range from ``-`` to ``-``); Python's ``re`` warns about
that spelling, so the loader rewrites it to the equivalent ``[a-zA-Z0-9_-]``.

The emulator speaks the document's shapes. What is left is listed in
:data:`KNOWN_DIFFERENCES`: defects of the document itself (response side, each with
a patch that validation applies) and request rules where the emulator keeps the
contract's stricter bound; ``tests/emulator/test_openapi.py`` proves each one is real.
"""

from __future__ import annotations

import copy
import decimal
import functools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

import attrs
import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

__all__ = ["KNOWN_DIFFERENCES", "Difference", "request_errors", "response_errors", "validate_response"]

_PATH = Path(__file__).parent / "data" / "public-openapi-v0.2b.json"
_URI = "urn:route-planning:openapi"


def _load() -> dict[str, Any]:
    text = _PATH.read_text(encoding="utf-8").replace("0-9---_", "0-9_-")
    document: dict[str, Any] = json.loads(text)
    return document


def _schema(document: dict[str, Any], name: str) -> dict[str, Any]:
    schema: dict[str, Any] = document["components"]["schemas"][name]
    return schema


def _one_of_as_any_of(document: dict[str, Any]) -> None:
    """Error answers: the document's ``oneOf`` branches overlap (a body with only a
    ``message`` matches several), so a valid body fails "exactly one"; read them as ``anyOf``."""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "oneOf" in node:
                node["anyOf"] = node.pop("oneOf")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for methods in document["paths"].values():
        for operation in methods.values():
            for status, response in operation.get("responses", {}).items():
                if not status.startswith("2"):
                    walk(response)


@attrs.frozen
class Difference:
    """One place where the contract and the public OpenAPI document disagree."""

    name: str
    """Short id, used by the test of the difference."""
    side: Literal["response", "request"]
    """Which side of the exchange differs."""
    contract: str
    """What the contract says (and the emulator does)."""
    openapi: str
    """What the public OpenAPI document says."""
    patch: Callable[[dict[str, Any]], None] | None = None
    """For response differences: rewrites the document to the contract's reading."""


KNOWN_DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "error_one_of_overlap",
        "response",
        "an error body is {message, code, param, url}",
        "several error answers are a `oneOf` whose branches overlap (POST /plans 400 and 404 ...): "
        "a defect of the document, read as `anyOf`",
        _one_of_as_any_of,
    ),
    Difference(
        "request_attempt_duration",
        "request",
        "estimatedAttemptDuration: at least 1 (the emulator and the client follow the contract)",
        "estimatedAttemptDuration: any integer",
    ),
    Difference(
        "request_time_of_day",
        "request",
        "TimeOfDay: hour 0..23, minute 0..59 (the emulator and the client follow the contract)",
        "TimeOfDay: any integers",
    ),
)
"""Every known difference; each has its own test in ``test_openapi.py``."""


@functools.cache
def _document(without: str | None) -> dict[str, Any]:
    document = copy.deepcopy(_load())
    for difference in KNOWN_DIFFERENCES:
        if difference.patch is not None and difference.name != without:
            difference.patch(document)
    return document


@functools.cache
def _registry(without: str | None) -> Registry[Any]:
    resource = Resource.from_contents(_document(without), default_specification=DRAFT202012)
    return Registry().with_resource(_URI, resource)


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


def _multiple_of(validator: Any, step: Any, instance: Any, schema: Any) -> Any:
    """``multipleOf`` on the numbers as written: jsonschema divides floats, so it finds
    0.07 not a multiple of 0.01 (7.000000000000001); JSON numbers are decimal."""
    if not validator.is_type(instance, "number"):
        return
    if decimal.Decimal(repr(instance)) % decimal.Decimal(repr(step)) != 0:
        yield jsonschema.ValidationError(f"{instance!r} is not a multiple of {step}")


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"multipleOf": _multiple_of})


def _errors(schema_pointer: str, instance: Any, without: str | None) -> list[str]:
    schema = {"$ref": f"{_URI}#/{schema_pointer}"}
    validator = _Validator(schema, registry=_registry(without))
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(instance)]


def response_errors(
    template: str, method: str, status: int, body: Any, *, without: str | None = None
) -> list[str]:
    """Why ``body`` is not a valid ``status`` answer of ``method template`` (empty: it is).

    ``without`` leaves one known difference unpatched.
    """
    operation: Mapping[str, Any] = _document(without)["paths"][template][method.lower()]
    key = str(status) if str(status) in operation["responses"] else "default"
    response = operation["responses"][key]
    if "content" not in response:
        return [] if body is None else [f"{status} has no body in the document, got {body!r}"]
    pointer = _pointer(
        "paths", template, method.lower(), "responses", key, "content", "application/json", "schema"
    )
    return _errors(pointer, body, without)


def validate_response(template: str, method: str, status: int, body: Any) -> None:
    """Assert ``body`` is a valid answer (the document's listed defects patched)."""
    errors = response_errors(template, method, status, body)
    assert not errors, f"{method.upper()} {template} -> {status}: " + "; ".join(errors[:5])


def request_errors(template: str, method: str, body: Any) -> list[str]:
    """Why ``body`` is not a valid request body of ``method template`` per the document."""
    pointer = _pointer(
        "paths", template, method.lower(), "requestBody", "content", "application/json", "schema"
    )
    return _errors(pointer, body, None)
