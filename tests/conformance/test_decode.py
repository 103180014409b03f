"""Part 2: answers generated from every official response schema decode, and re-encoding
keeps every field.

Bodies come from ``hypothesis-jsonschema`` over the document's 2xx schemas (narrowed
only as ``schema.GENERATOR_LIMITS`` lists). Each is decoded with the functions the
client's methods use (``structure`` for one object, ``structure_list`` for a page, as
``_resources.py`` and ``_pagination.py`` call them), and the model, encoded again,
must hold every field of the body with its value. A few answers also go through the
client's own methods over a scripted transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp
from route_planning_async.v0_2b._converter import structure, structure_list, unstructure

from .schema import RESPONSES, Answer, for_generation, resolved, response_schema

CONFORMANCE = settings(
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RENAMED_ON_ENCODE: dict[str, str] = {
    "unassignedStop": "stop",
}
"""Keys the client reads under one name and writes under another, and why: an
unassigned stop import echoes a failed stop under ``unassignedStop``; ``ImportFailure``
keeps it as ``stop`` whichever import it came from."""


@functools.cache
def bodies(template: str, method: str) -> st.SearchStrategy[Any]:
    return from_schema(for_generation(resolved(response_schema(template, method))))


def _close(a: float, b: float) -> bool:
    # Epoch seconds pass through datetime, which keeps microseconds.
    return abs(a - b) <= 1e-3 * max(1.0, abs(a))


def kept(original: Any, encoded: Any, path: str = "") -> list[str]:
    """Where ``encoded`` lost or changed a value of ``original`` (empty: nothing)."""
    if isinstance(original, dict):
        if not isinstance(encoded, dict):
            return [f"{path}: {encoded!r} is not an object"]
        lost: list[str] = []
        for key, value in original.items():
            target = RENAMED_ON_ENCODE.get(key, key)
            if target not in encoded:
                lost.append(f"{path}.{key}: dropped")
                continue
            lost += kept(value, encoded[target], f"{path}.{key}")
        return lost
    if isinstance(original, list):
        if not isinstance(encoded, list) or len(encoded) != len(original):
            return [f"{path}: {encoded!r} is not the same list"]
        return [e for i, item in enumerate(original) for e in kept(item, encoded[i], f"{path}[{i}]")]
    if isinstance(original, bool) or isinstance(encoded, bool):
        return [] if original == encoded else [f"{path}: {original!r} became {encoded!r}"]
    if isinstance(original, int | float) and isinstance(encoded, int | float):
        return [] if _close(original, encoded) else [f"{path}: {original!r} became {encoded!r}"]
    return [] if original == encoded else [f"{path}: {original!r} became {encoded!r}"]


def _decode(spec: Answer, body: Any) -> list[Any]:
    if spec.list_key is not None:
        return structure_list(body[spec.list_key], spec.model)
    return [structure(body, spec.model)]


def _distinct() -> list[Answer]:
    """One answer per distinct (schema, model, list key): many calls answer a Plan."""
    seen: dict[str, Answer] = {}
    for spec in RESPONSES:
        key = json.dumps([response_schema(spec.template, spec.method), spec.model.__name__, spec.list_key])
        seen.setdefault(key, spec)
    return list(seen.values())


@pytest.mark.parametrize("spec", _distinct(), ids=lambda a: f"{a.method.upper()} {a.template}")
def test_generated_answers_decode_and_reencode_whole(spec: Answer) -> None:
    @CONFORMANCE
    @given(body=bodies(spec.template, spec.method))
    def check(body: Any) -> None:
        models = _decode(spec, body)
        items = body[spec.list_key] if spec.list_key is not None else [body]
        for item, model in zip(items, models, strict=True):
            assert isinstance(model, spec.model)
            assert kept(item, unstructure(model)) == []

    check()


def test_kept_sees_a_lost_field() -> None:
    assert kept({"a": {"b": 1, "c": [1, 2]}}, {"a": {"b": 1, "c": [1]}}) == [".a.c: [1] is not the same list"]
    assert kept({"a": 1}, {}) == [".a: dropped"]
    assert kept({"t": 1795430000.5}, {"t": 1795430000.500001}) == []


_THROUGH_CLIENT = (
    ("GET", "/plans/p1", "/plans/{planId}", "get", lambda c: c.plans.get("p1")),
    (
        "GET",
        "/plans/p1/stops/s1",
        "/plans/{planId}/stops/{stopId}",
        "get",
        lambda c: c.stops.get("plans/p1/stops/s1"),
    ),
    ("GET", "/operations/o1", "/operations/{operationId}", "get", lambda c: c.operations.get("o1")),
    (
        "GET",
        "/unassignedStops/u1",
        "/unassignedStops/{unassignedStopId}",
        "get",
        lambda c: c.unassigned_stops.get("u1"),
    ),
)


@pytest.mark.parametrize(("method", "path", "template", "verb", "call"), _THROUGH_CLIENT)
def test_generated_answers_decode_through_the_clients_methods(
    method: str, path: str, template: str, verb: str, call: Any
) -> None:
    @settings(CONFORMANCE, max_examples=5)
    @given(body=bodies(template, verb))
    def check(body: Any) -> None:
        async def run() -> Any:
            service = FakeService().on(method, path, answer(body))
            async with scripted_client(service) as client:
                return await call(client)

        model = asyncio.run(run())
        assert kept(body, unstructure(model)) == []

    check()


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"id": "plans/p/stops/s", "address": None}, "address"),
        ({"id": "plans/p/stops/s", "timing": None}, "timing"),
        ({"id": "plans/p/stops/s", "orderInfo": None}, "orderInfo"),
        ({"id": "plans/p/stops/s", "recipient": None}, "recipient"),
        ({"id": "plans/p/stops/s", "proofOfAttemptRequirements": None}, "proofOfAttemptRequirements"),
        (
            {"id": "plans/p/stops/s", "timing": {"latestAttemptTime": {"hour": 24, "minute": 0}}},
            "timing.latestAttemptTime",
        ),
        (
            {"id": "plans/p/stops/s", "deliveryInfo": {"timeAtStopInfo": {"arrivedAt": "noon"}}},
            "deliveryInfo.timeAtStopInfo.arrivedAt",
        ),
        ({"id": "plans/p/stops/s", "route": {"title": "no id"}}, "route.id"),
        ({"id": "plans/p/stops/s", "weight": {"unit": "kilogram"}}, "weight.amount"),
    ],
)
def test_a_hostile_answer_is_a_decode_error_naming_the_path(body: dict[str, Any], path: str) -> None:
    with pytest.raises(rp.DecodeError) as info:
        structure(body, rp.Stop)
    assert info.value.path == path
    assert path in str(info.value)


def test_null_for_an_object_the_model_allows_is_none() -> None:
    body = {
        "id": "plans/p/stops/s",
        "weight": None,
        "paymentOnDelivery": None,
        "deliveryInfo": None,
        "route": None,
    }
    stop = structure(body, rp.Stop)
    assert (stop.weight, stop.payment_on_delivery, stop.delivery_info, stop.route) == (None, None, None, None)
    operation = structure({"id": "operations/o", "metadata": {}, "result": None}, rp.Operation)
    assert operation.result is None
    with pytest.raises(rp.DecodeError, match="at metadata: expected a JSON object, got null"):
        structure({"id": "operations/o", "metadata": None}, rp.Operation)


def test_an_unknown_operation_result_is_kept_whole() -> None:
    raw = {"routesRebalanced": 3, "notes": ["x"]}
    operation = structure({"id": "operations/o", "done": True, "result": raw}, rp.Operation)
    assert operation.result == rp.UnknownResult(raw=raw)
    assert unstructure(operation)["result"] == {"raw": raw}


_KEYS = st.sampled_from(["id", "address", "timing", "route", "deliveryInfo", "eta", "weight", "x"])
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
_ANY_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=12,
)


@CONFORMANCE
@given(_ANY_JSON)
def test_decoding_raises_nothing_but_decode_error(value: Any) -> None:
    for model in (rp.Stop, rp.UnassignedStop, rp.Plan, rp.Operation, rp.ImportResult, rp.LiveChange):
        with contextlib.suppress(rp.DecodeError):
            structure(value, model)
    with contextlib.suppress(rp.DecodeError):
        structure_list(value, rp.Stop)
