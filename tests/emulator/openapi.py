"""Validation of the emulator's answers against the public OpenAPI documents, one per version.

``data/public-openapi-v0.2b.json`` and ``data/public-openapi-v1.json`` are extracts of
the public documents: their request and response schemas, with descriptions and
examples removed; each is an :class:`OpenApiDocument` (:data:`V0_2B`, :data:`V1`).
Their id patterns are written ``[a-zA-Z0-9---_]`` (a range from ``-`` to ``-``);
Python's ``re`` warns about that spelling, so the loader rewrites it to the
equivalent ``[a-zA-Z0-9_-]``.

The emulator speaks each document's shapes. What is left is listed in each
document's ``KNOWN_DIFFERENCES``: defects of the document itself (response side, each with
a patch that validation applies) and request rules where the emulator keeps the
contract's stricter bound; ``tests/emulator/test_openapi.py`` proves each one is real.
The module functions (:func:`response_errors` ...) are v0.2b's.
"""

from __future__ import annotations

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

__all__ = [
    "DOCUMENTS",
    "KNOWN_DIFFERENCES",
    "V0_2B",
    "V1",
    "Difference",
    "OpenApiDocument",
    "request_errors",
    "response_errors",
    "validate_response",
]

_DATA = Path(__file__).parent / "data"
_URI = "urn:route-planning:openapi"


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


_DIFFERENCES: tuple[Difference, ...] = (
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
"""Every known difference, the same in both documents (v1 kept v0.2b's); each has its
own test in ``test_openapi.py`` (v0.2b) and ``test_openapi_v1.py`` (v1)."""


@attrs.frozen(eq=False)
class OpenApiDocument:
    """One version's official document, read for validation with its listed differences."""

    path: Path
    """The document (an extract: request and response schemas)."""
    KNOWN_DIFFERENCES: tuple[Difference, ...]
    """Every known difference of this document; each has its own test."""

    def _load(self) -> dict[str, Any]:
        text = self.path.read_text(encoding="utf-8").replace("0-9---_", "0-9_-")
        document: dict[str, Any] = json.loads(text)
        return document

    @functools.cache  # noqa: B019 (one instance per document, kept for the whole run)
    def document(self, without: str | None = None) -> dict[str, Any]:
        """The document with every response difference patched but ``without``."""
        document = self._load()
        for difference in self.KNOWN_DIFFERENCES:
            if difference.patch is not None and difference.name != without:
                difference.patch(document)
        return document

    @functools.cache  # noqa: B019
    def _registry(self, without: str | None) -> Registry[Any]:
        resource = Resource.from_contents(self.document(without), default_specification=DRAFT202012)
        return Registry().with_resource(_URI, resource)

    def _errors(self, schema_pointer: str, instance: Any, without: str | None) -> list[str]:
        schema = {"$ref": f"{_URI}#/{schema_pointer}"}
        validator = _Validator(schema, registry=self._registry(without))
        return [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(instance)
        ]

    def response_errors(
        self, template: str, method: str, status: int, body: Any, *, without: str | None = None
    ) -> list[str]:
        """Why ``body`` is not a valid ``status`` answer of ``method template`` (empty: it is).

        ``without`` leaves one known difference unpatched.
        """
        operation: Mapping[str, Any] = self.document(without)["paths"][template][method.lower()]
        key = str(status) if str(status) in operation["responses"] else "default"
        response = operation["responses"][key]
        if "content" not in response:
            return [] if body is None else [f"{status} has no body in the document, got {body!r}"]
        pointer = _pointer(
            "paths", template, method.lower(), "responses", key, "content", "application/json", "schema"
        )
        return self._errors(pointer, body, without)

    def validate_response(self, template: str, method: str, status: int, body: Any) -> None:
        """Assert ``body`` is a valid answer (the document's listed defects patched)."""
        errors = self.response_errors(template, method, status, body)
        assert not errors, f"{method.upper()} {template} -> {status}: " + "; ".join(errors[:5])

    def request_errors(self, template: str, method: str, body: Any) -> list[str]:
        """Why ``body`` is not a valid request body of ``method template`` per the document."""
        pointer = _pointer(
            "paths", template, method.lower(), "requestBody", "content", "application/json", "schema"
        )
        return self._errors(pointer, body, None)


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

V0_2B = OpenApiDocument(_DATA / "public-openapi-v0.2b.json", _DIFFERENCES)
"""The v0.2b document."""
V1 = OpenApiDocument(_DATA / "public-openapi-v1.json", _DIFFERENCES)
"""The v1 document."""
DOCUMENTS: dict[str, OpenApiDocument] = {"v0.2b": V0_2B, "v1": V1}
"""Each version's document, by the version's name."""

# v0.2b's, as module functions (the emulator's own tests speak v0.2b).
KNOWN_DIFFERENCES = V0_2B.KNOWN_DIFFERENCES
response_errors = V0_2B.response_errors
validate_response = V0_2B.validate_response
request_errors = V0_2B.request_errors
