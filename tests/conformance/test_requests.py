"""Part 3: every request the client can build validates against the official request schema.

For each version (its calls in :data:`CASES`), Hypothesis builds the input models
from wide values (lengths past every bound, numbers past every range, None and
UNSET): an input whose constructor refuses it is fine (the client raised
``ValidationError`` before sending); every input it accepts is sent through the
client's own method over a scripted transport, and the body that went out must
be valid under the version's request schema.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp

from . import requests_v1
from .strategies import (
    ADDRESS,
    DATES,
    DRIVER_INPUT,
    DRIVER_UPDATE,
    DRIVERS,
    TEXT,
    built,
    optional,
    order_info,
    stop_fields,
)
from .versions import VERSIONS, Version

REQUESTS = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

_COMMON = stop_fields(order_info(rp.OrderInfoInput), rp.ProofOfAttemptRequirements)
_STOP_INPUT = built(
    rp.StopInput, address=ADDRESS, driver=optional(st.just("d9")), client_id=optional(TEXT), **_COMMON
)
_STOP_UPDATE = built(rp.StopUpdate, **_COMMON)
_UNASSIGNED_INPUT = built(rp.UnassignedStopInput, address=ADDRESS, client_id=optional(TEXT), **_COMMON)
_UNASSIGNED_UPDATE = built(rp.UnassignedStopUpdate, depot=optional(st.just("depot-1")), **_COMMON)
_DRIVER = {"id": "drivers/d1", "name": "n", "email": None, "phone": None, "active": True, "depots": []}

_STOP = {"id": "plans/p1/stops/s1"}
_IMPORTED = {"success": [], "failed": []}
_PENDING = {"pending": True, "stop": None}
_PLAN = {"id": "plans/p1", "title": "t", "starts": {"day": 1, "month": 1, "year": 2027}}

Call = Callable[[rp.RoutePlanningClient, Any], Awaitable[Any]]
Case = tuple[str, st.SearchStrategy[Any], str, str, str, Any, Call]
_V0_2B_CASES: list[Case] = [
    (
        "stops.create",
        _STOP_INPUT,
        "POST",
        "/plans/p1/stops",
        "/plans/{planId}/stops",
        _STOP,
        lambda c, item: c.stops.create("p1", item),
    ),
    (
        "stops.import_batch",
        st.lists(_STOP_INPUT, min_size=1, max_size=3),
        "POST",
        "/plans/p1/stops:import",
        "/plans/{planId}/stops:import",
        _IMPORTED,
        lambda c, items: c.stops.import_batch("p1", items),
    ),
    (
        "stops.update",
        _STOP_UPDATE,
        "PATCH",
        "/plans/p1/stops/s1",
        "/plans/{planId}/stops/{stopId}",
        _STOP,
        lambda c, item: c.stops.update("plans/p1/stops/s1", item),
    ),
    (
        "stops.live_create",
        _STOP_INPUT,
        "POST",
        "/plans/p1/stops:liveCreate",
        "/plans/{planId}/stops:liveCreate",
        _PENDING,
        lambda c, item: c.stops.live_create("p1", item),
    ),
    (
        "stops.live_update",
        _STOP_UPDATE,
        "POST",
        "/plans/p1/stops/s1:liveUpdate",
        "/plans/{planId}/stops/{stopId}:liveUpdate",
        _PENDING,
        lambda c, item: c.stops.live_update("plans/p1/stops/s1", item),
    ),
    (
        "unassigned_stops.create",
        _UNASSIGNED_INPUT,
        "POST",
        "/unassignedStops",
        "/unassignedStops",
        {"id": "unassignedStops/u1"},
        lambda c, item: c.unassigned_stops.create(item),
    ),
    (
        "unassigned_stops.import_batch",
        st.lists(_UNASSIGNED_INPUT, min_size=1, max_size=3),
        "POST",
        "/unassignedStops:import",
        "/unassignedStops:import",
        _IMPORTED,
        lambda c, items: c.unassigned_stops.import_batch(items, depot="depot-1"),
    ),
    (
        "unassigned_stops.update",
        _UNASSIGNED_UPDATE,
        "PATCH",
        "/unassignedStops/u1",
        "/unassignedStops/{unassignedStopId}",
        {"id": "unassignedStops/u1"},
        lambda c, item: c.unassigned_stops.update("u1", item),
    ),
    (
        "stops.live_import_batch",
        st.lists(_STOP_INPUT, min_size=1, max_size=3),
        "POST",
        "/plans/p1/stops:liveImport",
        "/plans/{planId}/stops:liveImport",
        {"success": [], "failed": [], "pending": True},
        lambda c, items: c.stops.live_import_batch("p1", items),
    ),
    (
        "drivers.create",
        DRIVER_INPUT,
        "POST",
        "/drivers",
        "/drivers",
        _DRIVER,
        lambda c, item: c.drivers.create(item),
    ),
    (
        "drivers.update",
        DRIVER_UPDATE,
        "PATCH",
        "/drivers/d1",
        "/drivers/{driverId}",
        _DRIVER,
        lambda c, item: c.drivers.update("d1", item),
    ),
    (
        "drivers.import_batch",
        st.lists(DRIVER_INPUT, min_size=1, max_size=3),
        "POST",
        "/drivers:import",
        "/drivers:import",
        _IMPORTED,
        lambda c, items: c.drivers.import_batch(items),
    ),
    (
        "plans.create",
        st.tuples(TEXT, DATES, DRIVERS),
        "POST",
        "/plans",
        "/plans",
        _PLAN,
        lambda c, v: c.plans.create(title=v[0], starts=v[1], drivers=v[2]),
    ),
    (
        "plans.update",
        st.tuples(TEXT, DRIVERS),
        "PATCH",
        "/plans/p1",
        "/plans/{planId}",
        _PLAN,
        lambda c, v: c.plans.update("p1", title=v[0], drivers=v[1]),
    ),
    (
        "plans.reoptimize",
        st.sampled_from([None, *rp.ReoptimizationType, "fastest"]),
        "POST",
        "/plans/p1:reoptimize",
        "/plans/{planId}:reoptimize",
        {"id": "operations/o1"},
        lambda c, v: c.plans.reoptimize("p1", optimization_type=v),
    ),
]


CASES: dict[str, list[Case]] = {"v0.2b": _V0_2B_CASES, "v1": requests_v1.CASES}
"""Per version: each call (its name, the inputs drawn, the request method and path,
the document's template, the reply, the call)."""


@pytest.mark.parametrize(
    ("version", "name", "inputs", "method", "path", "template", "reply", "call"),
    [
        pytest.param(version, *case, id=f"{version.name} {case[0]}")
        for version in VERSIONS
        for case in CASES[version.name]
    ],
)
def test_every_request_the_client_builds_is_valid(
    version: Version,
    name: str,
    inputs: st.SearchStrategy[Any],
    method: str,
    path: str,
    template: str,
    reply: Any,
    call: Call,
) -> None:
    sent: list[Any] = []

    @REQUESTS
    @given(value=inputs)
    def check(value: Any) -> None:
        if value is None or (isinstance(value, list) and None in value):
            return  # the constructor refused the input: nothing could be sent

        async def run() -> None:
            service = FakeService().on(method, path, answer(reply))
            try:
                async with scripted_client(service, client=version.client) as client:
                    await call(client, value)
            except rp.ValidationError:
                assert service.requests == []  # refused before anything was sent
                return
            sent.append(service.sent[0].body)

        asyncio.run(run())
        if sent:
            body = sent[-1]
            assert version.validation.request_errors(template, method, body) == [], body

    check()
    # The strategies reach inputs the client accepts, not only ones it refuses.
    assert len(sent) >= 3, f"{name}: only {len(sent)} generated inputs were accepted"
