"""The official OpenAPI document as the conformance suite reads it.

The document is ``tests/emulator/data/public-openapi-v0.2b.json``: the request and
response schemas of the service's published v0.2b document (descriptions and
examples removed), loaded by ``tests/emulator/openapi.py``, which also validates
bodies against it. This module adds what the suite needs on top:

- :data:`RESPONSES`: every 2xx JSON answer of the document, with the model the
  client decodes it into, or in :data:`NOT_DECODED` with the reason it has none;
- :func:`resolved`: a schema with every ``$ref`` inlined (for the generator);
- :func:`for_generation`: the generator's narrowing of schemas the document leaves
  wider than any real answer (each narrowing is listed in :data:`GENERATOR_LIMITS`).
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import attrs
from emulator.openapi import _load

import route_planning_async as rp

__all__ = [
    "GENERATOR_LIMITS",
    "NOT_DECODED",
    "RESPONSES",
    "Answer",
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


RESPONSES: tuple[Answer, ...] = (
    Answer("/plans", "post", rp.Plan),
    Answer("/plans", "get", rp.Plan, "plans"),
    Answer("/plans/{planId}", "get", rp.Plan),
    Answer("/plans/{planId}", "patch", rp.Plan),
    Answer("/plans/{planId}:optimize", "post", rp.Operation),
    Answer("/plans/{planId}:distribute", "post", rp.Plan),
    Answer("/plans/{planId}:reoptimize", "post", rp.Operation),
    Answer("/plans/{planId}:redistribute", "post", rp.Plan),
    Answer("/plans/{planId}/stops", "post", rp.Stop),
    Answer("/plans/{planId}/stops", "get", rp.Stop, "stops"),
    Answer("/plans/{planId}/stops:import", "post", rp.ImportResult),
    Answer("/plans/{planId}/stops/{stopId}", "get", rp.Stop),
    Answer("/plans/{planId}/stops/{stopId}", "patch", rp.Stop),
    Answer("/plans/{planId}/stops:liveCreate", "post", rp.LiveChange),
    Answer("/plans/{planId}/stops/{stopId}:liveUpdate", "post", rp.LiveChange),
    Answer("/plans/{planId}/stops/{stopId}:liveDelete", "post", rp.LiveChange),
    Answer("/operations/{operationId}", "get", rp.Operation),
    Answer("/operations", "get", rp.Operation, "operations"),
    Answer("/unassignedStops", "post", rp.UnassignedStop),
    Answer("/unassignedStops", "get", rp.UnassignedStop, "unassignedStops"),
    Answer("/unassignedStops:import", "post", rp.ImportResult),
    Answer("/unassignedStops/{unassignedStopId}", "get", rp.UnassignedStop),
    Answer("/unassignedStops/{unassignedStopId}", "patch", rp.UnassignedStop),
    Answer("/depots", "get", rp.Depot, "depots"),
    Answer("/depots/{depotId}", "get", rp.Depot),
    Answer("/team/customStopProperties", "get", rp.CustomStopProperty, "customStopProperties"),
    Answer("/team/customStopProperties/{customStopPropertyId}", "get", rp.CustomStopProperty),
    Answer("/drivers", "get", rp.Driver, "drivers"),
    Answer("/drivers", "post", rp.Driver),
    Answer("/drivers/{driverId}", "get", rp.Driver),
    Answer("/drivers/{driverId}", "patch", rp.Driver),
    Answer("/drivers:import", "post", rp.DriverImportResult),
    Answer("/routes/{routeId}", "get", rp.Route),
    Answer("/operations/{operationId}:cancel", "post", rp.Operation),
    Answer("/plans/{planId}/stops:liveImport", "post", rp.LiveImportResult),
)
"""Every 2xx JSON answer the client decodes."""

NOT_DECODED: dict[tuple[str, str], str] = {}
"""2xx JSON answers of the document the client has no method for, and why."""

GENERATOR_LIMITS: dict[str, str] = {
    "additionalProperties": "objects that do not say get additionalProperties: false, so generated "
    "bodies hold only documented keys (unknown keys are tested in tests/test_models.py)",
    "epoch seconds": "numbers of keys ending in 'At' are 0..4102444800 (up to 2100): the document "
    "allows any number, and no datetime holds 1e300 seconds",
    "timeOfDaySchema": "hour 0..23, minute 0..59 (the contract's TimeOfDay; the document says any integer)",
    "dateSchema": "year 2000..2100 and day 1..28, so every generated date is a calendar day",
    "maxItems": "arrays hold at most 3 items: the shape of an item is what is checked, not the count "
    "(and a page of plans, each with its drivers, takes long to generate)",
}
"""Where generated answers are narrower than the document, and why."""


@functools.cache
def document() -> dict[str, Any]:
    """The document (id patterns rewritten for Python's ``re``)."""
    return _load()


def response_schema(template: str, method: str) -> dict[str, Any]:
    """The schema of the 2xx JSON answer of ``method template``."""
    responses = document()["paths"][template][method]["responses"]
    for status, response in responses.items():
        if status.startswith("2") and "content" in response:
            schema: dict[str, Any] = response["content"]["application/json"]["schema"]
            return schema
    raise KeyError(f"{method.upper()} {template} has no 2xx JSON answer")


def resolved(schema: Any) -> Any:
    """``schema`` with every ``#/components/...`` reference inlined."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target: Any = document()
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return resolved({**copy.deepcopy(target), **rest})
        return {key: resolved(value) for key, value in schema.items()}
    if isinstance(schema, list):
        return [resolved(item) for item in schema]
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
