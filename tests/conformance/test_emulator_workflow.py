"""Part 4: every answer of the emulator in a full workflow is valid under the official
response schemas.

For each version (its workflow in :data:`WORKFLOWS`), the library's client drives
a whole day (plans, stops, imports, unassigned stops, optimization, distribution,
live edits, re-optimization, a driven route, lists and errors) against the
emulator, at the version's base path, through a transport that records every
exchange. Each answer is then validated against the version's document for its
path, method and status. Nothing is filtered but the document's own listed defects
(``Version.validation``: ``KNOWN_DIFFERENCES`` with side "response").
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

import route_planning_async as rp
from route_planning_async._core import Request, Response, auth_header
from route_planning_async._transport import AiohttpTransport
from route_planning_async.emulator import Emulator, TeamConfig

from . import workflow_v1
from .schema import document
from .versions import VERSIONS, Version

pytestmark = pytest.mark.asyncio

STARTS = datetime.date(2026, 7, 6)
PROPERTY = "6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01"


class Recording:
    """A transport that keeps every exchange it carries."""

    def __init__(self, inner: AiohttpTransport) -> None:
        self.inner = inner
        self.exchanges: list[tuple[Request, Response]] = []

    async def send(self, request: Request) -> Response:
        response = await self.inner.send(request)
        self.exchanges.append((request, response))
        return response


def _template(version: Version, method: str, path: str) -> str:
    """The document's path template of a request path (``/plans/abc`` -> ``/plans/{planId}``)."""
    for template, methods in document(version.schema)["paths"].items():
        if method.lower() not in methods:
            continue
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/:]+", re.escape(template))
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"{method} {path} is not in the document")


@pytest.fixture(params=VERSIONS, ids=lambda version: version.name)
def version(request: pytest.FixtureRequest) -> Version:
    """Each version in turn."""
    chosen: Version = request.param
    return chosen


@pytest_asyncio.fixture
async def recorded(version: Version) -> AsyncIterator[tuple[Emulator, Any, Recording]]:
    team = TeamConfig(capacity_unit="kilogram")
    # Plans of up to 20 stops are optimized at once; a larger one takes an hour
    # (3.6 s sped up), so that its optimization can be canceled while it runs.
    slow_above_20: dict[str, Any] = {"instant_optimization_max_stops": 20, "optimization_delay": 3600.0}
    unlimited = rp.RateLimits.unlimited()
    async with Emulator(speedup=1000, rate_limits=unlimited, team=team, **slow_above_20) as emu:
        connector = aiohttp.TCPConnector(ssl=emu.ssl_context)
        async with aiohttp.ClientSession(connector=connector) as session:
            headers = {"Authorization": auth_header(emu.api_key, "basic")}
            base_url = emu.origin + version.emulator_base_path
            inner = AiohttpTransport(session, base_url, headers, ssl_context=emu.ssl_context, timeout=None)
            recording = Recording(inner)
            async with version.client(
                emu.api_key,
                base_url=base_url,
                rate_limits=rp.RateLimits.unlimited(),
                retry=rp.RetryPolicy(attempts=1),
                transport=recording,
            ) as client:
                yield emu, client, recording
        assert emu.internal_errors == []


def _stop(i: int, **fields: Any) -> rp.StopInput:
    return rp.StopInput(
        address=rp.AddressInput(address_line_one=f"{i} Conformance Road", city="London"),
        recipient=rp.RecipientInput(external_id=f"ext-{i}", name=f"Customer {i}"),
        timing=rp.TimingInput(estimated_attempt_duration=60),
        **fields,
    )


async def _v0_2b_workflow(emu: Emulator, client: rp.RoutePlanningClient) -> None:
    plan = await client.plans.create(
        title="Conformance day", starts=STARTS, drivers=["drivers/driver-ana", "drivers/driver-ben"]
    )
    await client.plans.update(plan.id, title="Conformance day (renamed)")
    first = await client.stops.create(
        plan.id,
        _stop(
            0,
            client_id="client-0",
            weight=rp.WeightInput(amount=12.5, unit=rp.WeightUnit.KILOGRAM),
            payment_on_delivery=rp.PaymentOnDeliveryInput(amount=1250, currency="EUR"),
            custom_properties={PROPERTY: "1234"},
            barcodes=["b1", "b2"],
            order_info=rp.OrderInfoInput(products=["Tea"], seller_name="Shop"),
        ),
    )
    assert first.client_id == "client-0"
    assert first.weight == rp.Weight(amount=12.5, unit="kilogram")
    await client.stops.import_batch(plan.id, [_stop(i) for i in range(1, 12)])
    await client.stops.update(first.id, notes="Ring twice", custom_properties={PROPERTY: None})
    await client.stops.get(first.id)
    doomed = await client.stops.create(plan.id, _stop(99))
    await client.stops.delete(doomed.id)
    await client.stops.list(plan.id).collect()
    await client.plans.list().collect()

    unassigned = await client.unassigned_stops.create(
        rp.UnassignedStopInput(address=rp.AddressInput(city="Bath"), client_id="client-u", notes="Later")
    )
    await client.unassigned_stops.import_batch(
        [rp.UnassignedStopInput(address=rp.AddressInput(city=f"Town {i}")) for i in range(3)]
    )
    await client.unassigned_stops.update(unassigned.id, notes="Sooner")
    await client.unassigned_stops.get(unassigned.id)
    await client.unassigned_stops.list().collect()
    await client.unassigned_stops.delete(unassigned.id)
    depots = await client.depots.list().collect()
    await client.depots.get(depots[0].id)
    properties = await client.custom_stop_properties.list().collect()
    await client.custom_stop_properties.get(properties[0].id)

    drivers = await client.drivers.list(filter={"active": True}).collect()
    await client.drivers.get(drivers[0].id)
    zoe_input = rp.DriverInput(name="Zoe", email="zoe@example.com", depots=[depots[0].id])
    zoe = await client.drivers.create(zoe_input)
    await client.drivers.update(zoe.id, display_name="Zoe Q.")
    await client.drivers.import_batch(
        [rp.DriverInput(name=f"Driver {i}", email=f"driver{i}@example.com") for i in range(3)]
        + [rp.DriverInput(name="Again", email="zoe@example.com")]  # refused: the e-mail is taken
    )
    await client.drivers.delete(zoe.id)
    spare = await client.plans.create(title="Spare", starts=plan.starts, drivers=[drivers[0].id])
    await client.stops.import_batch(spare.id, [_stop(i) for i in range(200, 230)])
    running = await client.plans.optimize(spare.id)
    await client.operations.cancel(running.id)

    operation = await client.plans.optimize_and_wait(plan.id)
    await client.operations.get(operation.id)
    await client.operations.list().collect()
    with pytest.raises(rp.PlanNotWritableError):
        await client.stops.update(first.id, notes="too late")
    with pytest.raises(rp.PlanAlreadyOptimizedError):
        await client.plans.optimize(plan.id)
    assert (await client.plans.distribute(plan.id)).distributed
    stops = await client.stops.list(plan.id).collect()
    assert {stop.type for stop in stops} == {"start", "stop", "end"}
    terminal = next(stop for stop in stops if stop.type == "start")
    with pytest.raises(rp.StopNotEditableError):
        await client.stops.live_update(terminal.id, notes="no")

    await client.stops.live_update(first.id, notes="Live note")
    await client.stops.live_create(plan.id, _stop(100))
    await client.stops.live_import_batch(plan.id, [_stop(i) for i in range(101, 104)])
    await client.routes.get(stops[0].route.id if stops[0].route else "routes/none")
    delivery = next(stop for stop in stops if stop.type == "stop" and stop.id != first.id)
    await client.stops.live_delete(delivery.id)
    reoptimized = await client.plans.reoptimize(plan.id)
    await client.operations.wait(reoptimized, poll_interval=0.001)
    redistributed = await client.plans.redistribute(plan.id)
    assert redistributed.distributed
    await emu.simulate_route(redistributed.routes[0])
    driven = await client.stops.list(plan.id).collect()
    assert any(stop.delivery_info is not None and stop.delivery_info.attempted for stop in driven)
    await client.plans.get(plan.id)
    await client.plans.delete(plan.id)


_V0_2B_REACHED = (
    ("POST", "/plans/{planId}:optimize", 200),
    ("GET", "/plans/{planId}/stops", 200),
    ("PATCH", "/plans/{planId}/stops/{stopId}", 409),
    ("POST", "/plans/{planId}/stops/{stopId}:liveUpdate", 422),
    ("GET", "/drivers", 200),
    ("POST", "/drivers", 200),
    ("PATCH", "/drivers/{driverId}", 200),
    ("POST", "/drivers:import", 200),
    ("GET", "/routes/{routeId}", 200),
    ("POST", "/operations/{operationId}:cancel", 200),
    ("POST", "/plans/{planId}/stops:liveImport", 200),
    ("GET", "/team/customStopProperties/{customStopPropertyId}", 200),
)

Workflow = Callable[[Emulator, Any], Awaitable[None]]
WORKFLOWS: dict[str, tuple[Workflow, tuple[tuple[str, str, int], ...]]] = {
    "v0.2b": (_v0_2b_workflow, _V0_2B_REACHED),
    "v1": (workflow_v1.workflow, workflow_v1.REACHED),
}
"""Per version: the workflow, and the answers (method, template, status) it must reach."""

PATCHED_DEFECTS: dict[str, list[str]] = {"v0.2b": ["error_one_of_overlap"], "v1": ["error_one_of_overlap"]}
"""Per version: the defects of its document that response validation patches."""


async def test_every_answer_of_a_full_workflow_is_official(
    version: Version, recorded: tuple[Emulator, Any, Recording]
) -> None:
    emu, client, recording = recorded
    workflow, reached = WORKFLOWS[version.name]
    await workflow(emu, client)
    seen: set[tuple[str, str, int]] = set()
    problems: list[str] = []
    for request, response in recording.exchanges:
        template = _template(version, request.method, request.path)
        body = json.loads(response.body) if response.body else None
        seen.add((request.method, template, response.status))
        for error in version.validation.response_errors(template, request.method, response.status, body):
            problems.append(f"{request.method} {request.path} -> {response.status}: {error}")
    assert problems == []
    # The workflow reached every kind of answer it is meant to check.
    assert len(recording.exchanges) > 30
    for answered in reached:
        assert answered in seen


async def test_only_defects_of_the_document_are_patched(version: Version) -> None:
    # The emulator follows the document's shapes; what validation patches is its defects.
    patched = [d.name for d in version.validation.KNOWN_DIFFERENCES if d.side == "response"]
    assert patched == PATCHED_DEFECTS[version.name]
