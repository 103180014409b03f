"""Part 2: answers generated from every official response schema decode, and re-encoding
keeps every field.

For each version, bodies come from ``hypothesis-jsonschema`` over its document's 2xx
schemas (narrowed only as ``schema.GENERATOR_LIMITS`` lists). Each is decoded with
the functions the client's methods use (``structure`` for one object,
``structure_list`` for a page, as the namespaces and the paginator call them), and
the model, encoded again, must hold every field of the body with its value. A few
answers also go through the client's own methods over a scripted transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp
from route_planning_async.v0_2b._converter import structure, unstructure
from route_planning_async.v1 import MemberInput

from .schema import Answer, for_generation, resolved, response_schema
from .versions import V0_2B, VERSIONS, Version

CONFORMANCE = settings(
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@functools.cache
def bodies(version: Version, template: str, method: str) -> st.SearchStrategy[Any]:
    schema = resolved(version.schema, response_schema(version.schema, template, method))
    return from_schema(for_generation(schema))


def _close(a: float, b: float) -> bool:
    # Epoch seconds pass through datetime, which keeps microseconds.
    return abs(a - b) <= 1e-3 * max(1.0, abs(a))


def kept(version: Version, original: Any, encoded: Any, path: str = "") -> list[str]:
    """Where ``encoded`` lost or changed a value of ``original`` (empty: nothing)."""
    if isinstance(original, dict):
        if not isinstance(encoded, dict):
            return [f"{path}: {encoded!r} is not an object"]
        lost: list[str] = []
        for key, value in original.items():
            # A key renamed on encoding is looked for under its new name, unless the
            # model kept it (the same key may be renamed in one answer, kept in another).
            target = key if key in encoded else version.decoding.renamed_on_encode.get(key, key)
            if target not in encoded:
                lost.append(f"{path}.{key}: dropped")
                continue
            lost += kept(version, value, encoded[target], f"{path}.{key}")
        return lost
    if isinstance(original, list):
        if not isinstance(encoded, list) or len(encoded) != len(original):
            return [f"{path}: {encoded!r} is not the same list"]
        return [e for i, item in enumerate(original) for e in kept(version, item, encoded[i], f"{path}[{i}]")]
    if isinstance(original, bool) or isinstance(encoded, bool):
        return [] if original == encoded else [f"{path}: {original!r} became {encoded!r}"]
    if isinstance(original, int | float) and isinstance(encoded, int | float):
        return [] if _close(original, encoded) else [f"{path}: {original!r} became {encoded!r}"]
    return [] if original == encoded else [f"{path}: {original!r} became {encoded!r}"]


def _decode(version: Version, spec: Answer, body: Any) -> list[Any]:
    if spec.list_key is not None:
        return version.converter.structure_list(body[spec.list_key], spec.model)
    return [version.converter.structure(body, spec.model)]


def _distinct(version: Version) -> list[Answer]:
    """One answer per distinct (schema, model, list key): many calls answer a Plan."""
    seen: dict[str, Answer] = {}
    for spec in version.decoding.answers:
        schema = response_schema(version.schema, spec.template, spec.method)
        seen.setdefault(json.dumps([schema, spec.model.__name__, spec.list_key]), spec)
    return list(seen.values())


@pytest.mark.parametrize(
    ("version", "spec"),
    [
        pytest.param(version, spec, id=f"{version.name} {spec.method.upper()} {spec.template}")
        for version in VERSIONS
        for spec in _distinct(version)
    ],
)
def test_generated_answers_decode_and_reencode_whole(version: Version, spec: Answer) -> None:
    @CONFORMANCE
    @given(body=bodies(version, spec.template, spec.method))
    def check(body: Any) -> None:
        models = _decode(version, spec, body)
        items = body[spec.list_key] if spec.list_key is not None else [body]
        for item, model in zip(items, models, strict=True):
            assert isinstance(model, spec.model)
            assert kept(version, item, version.converter.unstructure(model)) == []

    check()


def test_kept_sees_a_lost_field() -> None:
    lost_item = kept(V0_2B, {"a": {"b": 1, "c": [1, 2]}}, {"a": {"b": 1, "c": [1]}})
    assert lost_item == [".a.c: [1] is not the same list"]
    assert kept(V0_2B, {"a": 1}, {}) == [".a: dropped"]
    assert kept(V0_2B, {"t": 1795430000.5}, {"t": 1795430000.500001}) == []


Call = Callable[[Any], Awaitable[Any]]
ThroughClient = tuple[tuple[str, str, str, str, Call], ...]
_BOTH: ThroughClient = (
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
THROUGH_CLIENT: dict[str, ThroughClient] = {
    "v0.2b": _BOTH,
    "v1": (
        *_BOTH,
        ("GET", "/depots/d1", "/depots/{depotId}", "get", lambda c: c.depots.get("d1")),
        ("POST", "/members", "/members", "post", lambda c: c.members.create(MemberInput(role="admin"))),
    ),
}
"""Per version: answers also decoded through the client's methods (request method and
path, the document's template and method, the call)."""


# The v0.2b converter on hand-written answers.


@pytest.mark.parametrize(
    ("version", "method", "path", "template", "verb", "call"),
    [
        pytest.param(version, *case, id=f"{version.name} {case[0]} {case[1]}")
        for version in VERSIONS
        for case in THROUGH_CLIENT[version.name]
    ],
)
def test_generated_answers_decode_through_the_clients_methods(
    version: Version, method: str, path: str, template: str, verb: str, call: Call
) -> None:
    @settings(CONFORMANCE, max_examples=5)
    @given(body=bodies(version, template, verb))
    def check(body: Any) -> None:
        async def run() -> Any:
            service = FakeService().on(method, path, answer(body))
            async with scripted_client(service, client=version.client) as client:
                return await call(client)

        model = asyncio.run(run())
        assert kept(version, body, version.converter.unstructure(model)) == []

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
        V0_2B.converter.structure_list(value, rp.Stop)
