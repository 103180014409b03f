"""The official OpenAPI documents as the conformance suite reads them, one per version.

Each version's document (``Version.schema`` in ``versions.py``) holds the request
and response schemas of the service's published document (descriptions and
examples removed). This module reads a version's document and adds what the
suite needs on top:

- :class:`Answer` and :class:`Decoding`: every 2xx JSON answer of a document, with
  the model the client decodes it into (each version lists its own, from the
  answers both documents share, :data:`SHARED_ANSWERS`, and its own);
- :func:`response_schema`: the schema of one 2xx answer;
- :func:`resolved`: a schema with every ``$ref`` inlined (for the generator);
- :func:`for_generation`: the generator's narrowing of schemas the document leaves
  wider than any real answer (each narrowing is listed in :data:`GENERATOR_LIMITS`).
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

__all__ = [
    "GENERATOR_LIMITS",
    "SHARED_ANSWERS",
    "SHARED_UNMODELLED",
    "Answer",
    "AnswerRow",
    "Decoding",
    "answers",
    "document",
    "for_generation",
    "resolved",
    "response_schema",
]


@attrs.frozen
class Answer:
    """One 2xx JSON answer of the document and how the client decodes it."""

    template: str
    """Path template of the document (``/plans/{planId}``)."""
    method: str
    """Lower-case HTTP method."""
    model: type[Any]
    """The model the client decodes the answer (or each list item) into."""
    list_key: str | None = None
    """For list answers: the key of the items (the rest is the page token)."""


@attrs.frozen
class Decoding:
    """What a version's client makes of the answers of its document."""

    answers: tuple[Answer, ...]
    """Every 2xx JSON answer the client decodes."""
    not_decoded: Mapping[tuple[str, str], str]
    """2xx JSON answers of the document the client has no method for, and why."""
    unmodelled: Mapping[str, str]
    """Properties of official answers that no model attribute holds, with the reason
    (a property name, or its path from the model: ``Model.key[].key``)."""
    renamed_on_encode: Mapping[str, str]
    """Keys the client reads under one name and writes under another."""


AnswerRow = tuple[str, str, str] | tuple[str, str, str, str]
"""An answer by the name of its model: template, method, model name, list key."""

SHARED_ANSWERS: tuple[AnswerRow, ...] = (
    ("/plans", "post", "Plan"),
    ("/plans", "get", "Plan", "plans"),
    ("/plans/{planId}", "get", "Plan"),
    ("/plans/{planId}", "patch", "Plan"),
    ("/plans/{planId}:optimize", "post", "Operation"),
    ("/plans/{planId}:distribute", "post", "Plan"),
    ("/plans/{planId}:reoptimize", "post", "Operation"),
    ("/plans/{planId}:redistribute", "post", "Plan"),
    ("/plans/{planId}/stops", "post", "Stop"),
    ("/plans/{planId}/stops", "get", "Stop", "stops"),
    ("/plans/{planId}/stops:import", "post", "ImportResult"),
    ("/plans/{planId}/stops/{stopId}", "get", "Stop"),
    ("/plans/{planId}/stops/{stopId}", "patch", "Stop"),
    ("/plans/{planId}/stops:liveCreate", "post", "LiveChange"),
    ("/plans/{planId}/stops/{stopId}:liveUpdate", "post", "LiveChange"),
    ("/plans/{planId}/stops/{stopId}:liveDelete", "post", "LiveChange"),
    ("/operations/{operationId}", "get", "Operation"),
    ("/operations", "get", "Operation", "operations"),
    ("/unassignedStops", "post", "UnassignedStop"),
    ("/unassignedStops", "get", "UnassignedStop", "unassignedStops"),
    ("/unassignedStops:import", "post", "ImportResult"),
    ("/unassignedStops/{unassignedStopId}", "get", "UnassignedStop"),
    ("/unassignedStops/{unassignedStopId}", "patch", "UnassignedStop"),
    ("/depots", "get", "Depot", "depots"),
    ("/depots/{depotId}", "get", "Depot"),
    ("/team/customStopProperties", "get", "CustomStopProperty", "customStopProperties"),
    ("/team/customStopProperties/{customStopPropertyId}", "get", "CustomStopProperty"),
    ("/drivers", "get", "Driver", "drivers"),
    ("/drivers", "post", "Driver"),
    ("/drivers/{driverId}", "get", "Driver"),
    ("/drivers/{driverId}", "patch", "Driver"),
    ("/drivers:import", "post", "DriverImportResult"),
    ("/routes/{routeId}", "get", "Route"),
    ("/operations/{operationId}:cancel", "post", "Operation"),
    ("/plans/{planId}/stops:liveImport", "post", "LiveImportResult"),
)
"""The 2xx JSON answers of both documents, each decoded into the version's model of
that name (v0.2b's answers are these; v1 adds its own)."""

SHARED_UNMODELLED: dict[str, str] = {
    "nextPageToken": "read by the paginator (Paginator), not a model field",
    "ImportResult.failed[].error": "its message is ImportFailure.message (a custom hook flattens it)",
    "ImportResult.failed[].unassignedStop": "kept as ImportFailure.stop, the echo of the failed stop",
    "DriverImportResult.failed[].error": "its message is DriverImportFailure.message (a custom hook "
    "flattens it, as for stops)",
    "LiveImportResult.failed[].error": "its message is ImportFailure.message (the same hook)",
}
"""The properties of both documents' answers that no model holds, with the reason."""


def answers(models: ModuleType, rows: tuple[AnswerRow, ...]) -> tuple[Answer, ...]:
    """The answers of ``rows``, each with the class of its model's name in ``models``."""
    return tuple(Answer(row[0], row[1], getattr(models, row[2]), *row[3:]) for row in rows)


GENERATOR_LIMITS: dict[str, str] = {
    "additionalProperties": "objects that do not say get additionalProperties: false, so generated "
    "bodies hold only documented keys (unknown keys are tested in tests/v0_2b/test_models.py and "
    "tests/v1/test_models*.py)",
    "epoch seconds": "numbers of keys ending in 'At' are 0..4102444800 (up to 2100): the document "
    "allows any number, and no datetime holds 1e300 seconds",
    "timeOfDaySchema": "hour 0..23, minute 0..59 (the contract's TimeOfDay; the document says any integer)",
    "dateSchema": "year 2000..2100 and day 1..28, so every generated date is a calendar day",
    "maxItems": "arrays hold at most 3 items: the shape of an item is what is checked, not the count "
    "(and a page of plans, each with its drivers, takes long to generate)",
}
"""Where generated answers are narrower than the document, and why."""


@functools.cache
def document(path: Path) -> dict[str, Any]:
    """The document at ``path``.

    Its id patterns are written ``[a-zA-Z0-9---_]`` (a range from ``-`` to ``-``),
    which Python's ``re`` warns about; they are read as the equivalent
    ``[a-zA-Z0-9_-]``.
    """
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8").replace("0-9---_", "0-9_-"))
    return loaded


def response_schema(path: Path, template: str, method: str) -> dict[str, Any]:
    """The schema of the 2xx JSON answer of ``method template`` in the document at ``path``."""
    responses = document(path)["paths"][template][method]["responses"]
    for status, response in responses.items():
        if status.startswith("2") and "content" in response:
            schema: dict[str, Any] = response["content"]["application/json"]["schema"]
            return schema
    raise KeyError(f"{method.upper()} {template} has no 2xx JSON answer")


def resolved(path: Path, schema: Any) -> Any:
    """``schema`` with every ``#/components/...`` reference of the document at ``path`` inlined."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target: Any = document(path)
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return resolved(path, {**copy.deepcopy(target), **rest})
        return {key: resolved(path, value) for key, value in schema.items()}
    if isinstance(schema, list):
        return [resolved(path, item) for item in schema]
    return schema


_EPOCH_MAX = 4_102_444_800


def for_generation(schema: Any, key: str = "") -> Any:
    """A resolved schema narrowed as :data:`GENERATOR_LIMITS` says."""
    if isinstance(schema, list):
        return [for_generation(item, key) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    properties = out.get("properties")
    if isinstance(properties, dict):
        if set(properties) == {"hour", "minute"}:
            properties = {
                "hour": {"type": "integer", "minimum": 0, "maximum": 23},
                "minute": {"type": "integer", "minimum": 0, "maximum": 59},
            }
        elif set(properties) == {"day", "month", "year"}:
            properties = {
                "day": {"type": "integer", "minimum": 1, "maximum": 28},
                "month": {"type": "integer", "minimum": 1, "maximum": 12},
                "year": {"type": "integer", "minimum": 2000, "maximum": 2100},
            }
        out["properties"] = {name: for_generation(value, name) for name, value in properties.items()}
        out.setdefault("additionalProperties", False)
    for word in ("anyOf", "oneOf", "allOf"):
        if word in out:
            out[word] = [for_generation(item, key) for item in out[word]]
    if "items" in out:
        out["items"] = for_generation(out["items"], key)
        out["maxItems"] = min(out.get("maxItems", 3), 3)
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = for_generation(out["additionalProperties"], key)
    if out.get("type") == "number" and key.endswith("At"):
        out["minimum"], out["maximum"] = 0, _EPOCH_MAX
    return out
