"""The v1 client against the emulator's v1: every one of the 52 operations called and
answered, every answer decoded into its v1 model."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from route_planning_async import ConflictError, RateLimits
from route_planning_async.emulator import Emulator
from route_planning_async.v1 import (
    AddressInput,
    Depot,
    DepotInput,
    DepotRouteOverridesInput,
    Driver,
    DriverInput,
    Member,
    MemberInput,
    Operation,
    Plan,
    PlanInput,
    RecipientInput,
    Route,
    RoutePlanningClient,
    Stop,
    StopInput,
    UnassignedStop,
    UnassignedStopInput,
)
from route_planning_async.v1._endpoints import ENDPOINTS

STARTS = datetime.date(2026, 6, 1)


def stop(i: int) -> StopInput:
    return StopInput(
        address=AddressInput(
            address_line_one=f"{i} Client Road", city="London", latitude=51.5, longitude=-0.12
        ),
        recipient=RecipientInput(external_id=f"ext-{i}"),
    )


def unassigned(i: int) -> UnassignedStopInput:
    return UnassignedStopInput(
        address=AddressInput(
            address_line_one=f"{i} Depot Lane", city="London", latitude=51.5, longitude=-0.1
        ),
        recipient=RecipientInput(external_id=f"u-{i}"),
    )


def depot(name: str) -> DepotInput:
    start = AddressInput(address_line_one="9 Yard Street", city="London", latitude=51.52, longitude=-0.08)
    return DepotInput(
        name=name, route_overrides=DepotRouteOverridesInput(start_address=start, start_time=datetime.time(8))
    )


@pytest_asyncio.fixture
async def pair() -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    async with (
        Emulator(speedup=1000, rate_limits=RateLimits.unlimited()) as emu,
        RoutePlanningClient(
            emu.api_key,
            base_url=emu.base_url_for("v1"),
            ssl=emu.ssl_context,
            rate_limits=RateLimits.unlimited(),
        ) as client,
    ):
        yield emu, client
    assert emu.internal_errors == []


@pytest.mark.asyncio
async def test_every_v1_operation_against_the_emulator(pair: tuple[Emulator, RoutePlanningClient]) -> None:
    emu, client = pair
    # The team: custom stop properties, depots, drivers, members.
    properties = await client.custom_stop_properties.list().collect()
    assert (await client.custom_stop_properties.get(properties[0].id)).id == properties[0].id
    depots = await client.depots.list(max_page_size=20).collect()
    main = await client.depots.get(depots[0].id)
    assert isinstance(main, Depot)
    made = await client.depots.create(depot("Yard"))
    assert (await client.depots.update(made.id, name="Yard 2")).name == "Yard 2"
    batch = await client.depots.import_batch([depot("East")])
    assert len(batch.success) == 1
    report = await client.depots.import_many([depot("West"), depot("South")])
    assert report.created == 2
    await client.depots.set_main(made.id)
    await client.depots.set_main(main.id)
    await client.depots.delete(batch.success[0])

    drivers = await client.drivers.list(filter={"active": True}).collect()
    assert all(isinstance(d, Driver) for d in drivers)
    dee = await client.drivers.create(DriverInput(name="Dee", email="dee@example.com"))
    assert (await client.drivers.get(dee.id)).id == dee.id
    await client.drivers.update(dee.id, display_name="D")
    imported = await client.drivers.import_batch([DriverInput(name="Eve", email="eve@example.com")])
    assert len(imported.success) == 1
    assert (await client.drivers.import_many([DriverInput(name="Fay", email="fay@example.com")])).created == 1
    await client.drivers.delete(dee.id)

    ann = await client.members.create(MemberInput(role="dispatcher", email="ann@example.com", name="Ann"))
    assert isinstance(ann, Member)
    await client.members.update(ann.id, role="admin")
    assert (
        len(
            (
                await client.members.import_batch([MemberInput(role="read-only", email="bo@example.com")])
            ).success
        )
        == 1
    )
    assert (
        await client.members.import_many([MemberInput(role="read-only", email="cy@example.com")])
    ).created == 1
    await client.members.delete(ann.id)

    # A plan, its stops, the unassigned stops and the search.
    plan = await client.plans.create(
        PlanInput(title="v1 run", starts=STARTS, drivers=[d.id for d in drivers[:2]])
    )
    assert isinstance(plan, Plan)
    assert [p.id for p in await client.plans.list(filter={"title": "v1 run"}).collect()] == [plan.id]
    plan = await client.plans.update(plan.id, title="v1 run (2)")
    assert (await client.plans.get(plan.id)).title == "v1 run (2)"
    first = await client.stops.create(plan.id, stop(0))
    assert (await client.stops.import_batch(plan.id, [stop(i) for i in range(1, 6)])).failed == []
    assert (await client.stops.import_many(plan.id, [stop(i) for i in range(6, 9)])).created == 3
    listed = await client.stops.list(plan.id, max_page_size=10).collect()
    assert len(listed) == 9
    assert (await client.stops.get(first.id)).recipient.external_id == "ext-0"
    await client.stops.update(first.id, notes="Ring twice")
    await client.stops.delete(listed[-1].id)

    loose = await client.unassigned_stops.create(unassigned(0))
    assert isinstance(await client.unassigned_stops.get(loose.id), UnassignedStop)
    await client.unassigned_stops.update(loose.id, notes="Back door")
    assert len((await client.unassigned_stops.import_batch([unassigned(1)])).success) == 1
    assert (await client.unassigned_stops.import_many([unassigned(2), unassigned(3)])).created == 2
    assert len(await client.unassigned_stops.list().collect()) == 4
    await client.unassigned_stops.delete(loose.id)

    hits = await client.stops.search(keyword="Client Road", max_page_size=20).collect()
    assert all(isinstance(hit, Stop | UnassignedStop) for hit in hits)

    # Optimize, distribute, routes, operations.
    operation = await client.plans.optimize_and_wait(plan.id, poll_interval=0.001)
    assert operation.done
    assert [o.id for o in await client.operations.list(filter={"done": True}).collect()] == [operation.id]
    assert (await client.operations.get(operation.id)).done
    plan = await client.plans.distribute(plan.id)
    routes = await client.routes.list().collect()
    assert routes
    assert all(isinstance(r, Route) for r in routes)
    route = await client.routes.get(routes[0].id)
    assert all(isinstance(s, Stop) for s in await client.routes.list_stops(route.id).collect())

    # Live changes, applied by re-optimizing and redistributing or saving.
    await client.stops.live_create(plan.id, stop(20))
    await client.stops.live_update(first.id, notes="Gate B")
    await client.stops.live_delete(listed[1].id)
    await client.operations.wait(await client.plans.reoptimize(plan.id), poll_interval=0.001)
    await client.plans.redistribute(plan.id)
    live = await client.stops.live_import_batch(plan.id, [stop(21)])
    assert len(live.success) == 1
    reoptimized = await client.plans.reoptimize(plan.id)
    with contextlib.suppress(ConflictError):  # It may have finished first.
        await client.operations.cancel(reoptimized)
    finished = await client.operations.wait(reoptimized.id, poll_interval=0.001)
    assert isinstance(finished, Operation)
    if not finished.metadata.canceled:
        await client.plans.save(plan.id)

    await client.plans.delete(plan.id)

    # Every operation of the endpoint table was answered by the emulator's v1.
    answered = {record.route for record in emu.log if record.status is not None}
    assert answered >= set(ENDPOINTS)
