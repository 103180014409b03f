"""The v1 workflow of the emulator conformance (``test_emulator_workflow.py``): a whole
day through the v1 client, every v1 operation called, and the answers it must reach."""

from __future__ import annotations

import contextlib
import datetime
from typing import Any

import pytest

import route_planning_async as rp
from route_planning_async import v1
from route_planning_async.emulator import Emulator

__all__ = ["REACHED", "workflow"]

STARTS = datetime.date(2026, 7, 6)
PROPERTY = "6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01"


def _stop(i: int, **fields: Any) -> v1.StopInput:
    return v1.StopInput(
        address=v1.AddressInput(address_line_one=f"{i} Conformance Road", city="London"),
        recipient=v1.RecipientInput(external_id=f"ext-{i}", name=f"Customer {i}"),
        timing=v1.TimingInput(estimated_attempt_duration=60),
        **fields,
    )


def _depot(name: str) -> v1.DepotInput:
    start = v1.AddressInput(address_line_one="9 Yard Street", city="London", latitude=51.52, longitude=-0.08)
    overrides = v1.DepotRouteOverridesInput(
        start_address=start, start_time=datetime.time(8), end_time=datetime.time(18), road_side="any"
    )
    return v1.DepotInput(name=name, route_overrides=overrides)


async def _team(client: Any) -> list[v1.Driver]:
    """Custom stop properties, depots, drivers and members: each call of their namespaces.
    The drivers, the last one working at another depot than the main one."""
    properties = await client.custom_stop_properties.list().collect()
    await client.custom_stop_properties.get(properties[0].id)
    depots = await client.depots.list().collect()
    await client.depots.get(depots[0].id)
    yard = await client.depots.create(_depot("Yard"))
    await client.depots.update(yard.id, name="Yard (north)")
    imported = await client.depots.import_batch([_depot("East"), _depot("West")])
    await client.depots.set_main(yard.id)
    await client.depots.set_main(depots[0].id)
    await client.depots.delete(imported.success[0])

    drivers = await client.drivers.list(filter={"active": True}).collect()
    await client.drivers.get(drivers[0].id)
    zoe = await client.drivers.create(v1.DriverInput(name="Zoe", email="zoe@example.com", depots=[yard.id]))
    await client.drivers.update(zoe.id, display_name="Zoe Q.")
    await client.drivers.import_batch(
        [v1.DriverInput(name=f"Driver {i}", email=f"driver{i}@example.com") for i in range(3)]
        + [v1.DriverInput(name="Again", email="zoe@example.com")]  # refused: the e-mail is taken
    )
    ann = await client.members.create(v1.MemberInput(role="dispatcher", email="ann@example.com", name="Ann"))
    await client.members.update(ann.id, role="admin")
    await client.members.import_batch(
        [
            v1.MemberInput(role="read-only", email="bo@example.com"),
            v1.MemberInput(role="admin", email="ann@example.com"),
        ]
    )
    await client.members.delete(ann.id)
    return [*drivers, zoe]


async def workflow(emu: Emulator, client: Any) -> None:
    """A whole day through the v1 client."""
    drivers = await _team(client)
    yard_driver = drivers[-1]
    overrides = v1.PlanRouteOverridesInput(
        start_time=datetime.time(8),
        vehicle_type="car",
        optimization_settings=v1.OptimizationSettingsInput(objective="distribute_services"),
    )
    plan = await client.plans.create(
        v1.PlanInput(title="Conformance day", starts=STARTS, drivers=[d.id for d in drivers[:2]])
    )
    await client.plans.update(plan.id, title="Conformance day (renamed)", route_overrides=overrides)
    with pytest.raises(rp.PreconditionFailedError):  # the driver works at another depot
        await client.plans.update(plan.id, drivers=[yard_driver.id])
    first = await client.stops.create(
        plan.id,
        _stop(
            0,
            client_id="client-0",
            weight=v1.WeightInput(amount=12.5, unit=v1.WeightUnit.KILOGRAM),
            payment_on_delivery=v1.PaymentOnDeliveryInput(amount=1250, currency="EUR"),
            custom_properties={PROPERTY: "1234"},
            barcodes=["b1", "b2"],
            order_info=v1.OrderInfoInput(products=["Tea"], seller_name="Shop", invoice_number="INV-1"),
            allowed_drivers=[drivers[0].id],
        ),
    )
    with pytest.raises(rp.PreconditionFailedError):  # not linked to the plan's depot
        await client.stops.create(plan.id, _stop(98, allowed_drivers=[yard_driver.id]))
    await client.stops.import_batch(plan.id, [_stop(i) for i in range(1, 12)])
    await client.stops.update(first.id, notes="Ring twice", custom_properties={PROPERTY: None})
    await client.stops.get(first.id)
    doomed = await client.stops.create(plan.id, _stop(99))
    await client.stops.delete(doomed.id)
    await client.stops.list(plan.id).collect()
    await client.plans.list().collect()

    unassigned = await client.unassigned_stops.create(
        v1.UnassignedStopInput(address=v1.AddressInput(city="Bath"), client_id="client-u", notes="Later")
    )
    await client.unassigned_stops.import_batch(
        [v1.UnassignedStopInput(address=v1.AddressInput(city=f"Town {i}")) for i in range(3)]
    )
    await client.unassigned_stops.update(unassigned.id, notes="Sooner")
    await client.unassigned_stops.get(unassigned.id)
    await client.unassigned_stops.list().collect()
    await client.stops.search(keyword="Conformance", max_page_size=5).collect()
    await client.stops.search(
        filter='activity = "delivery"', sort_field="packageCount", sort_order="desc"
    ).collect()
    await client.unassigned_stops.delete(unassigned.id)

    spare = await client.plans.create(v1.PlanInput(title="Spare", starts=STARTS, drivers=[drivers[0].id]))
    await client.stops.import_batch(spare.id, [_stop(i) for i in range(200, 230)])
    running = await client.plans.optimize(spare.id)
    await client.operations.cancel(running.id)

    operation = await client.plans.optimize_and_wait(plan.id, poll_interval=0.001)
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
    routes = await client.routes.list().collect()
    await client.routes.get(routes[0].id)
    await client.routes.list_stops(routes[0].id).collect()

    await client.stops.live_update(first.id, notes="Live note")
    await client.stops.live_create(plan.id, _stop(100))
    await client.stops.live_import_batch(plan.id, [_stop(i) for i in range(101, 104)])
    delivery = next(stop for stop in stops if stop.type == "stop" and stop.id != first.id)
    await client.stops.live_delete(delivery.id)
    reoptimized = await client.plans.reoptimize(plan.id)
    await client.operations.wait(reoptimized, poll_interval=0.001)
    redistributed = await client.plans.redistribute(plan.id)
    assert redistributed.distributed
    await emu.simulate_route(redistributed.routes[0])
    driven = await client.stops.list(plan.id).collect()
    assert any(stop.delivery_info is not None and stop.delivery_info.attempted for stop in driven)
    await client.stops.live_update(first.id, notes="Saved, not redistributed")
    with contextlib.suppress(rp.ConflictError):  # nothing pending once the driven route locks it
        await client.plans.save(plan.id)
    await client.plans.get(plan.id)
    await client.plans.delete(plan.id)


REACHED = (
    ("POST", "/plans/{planId}:optimize", 200),
    ("PATCH", "/plans/{planId}", 412),
    ("POST", "/plans/{planId}/stops", 412),
    ("PATCH", "/plans/{planId}/stops/{stopId}", 409),
    ("POST", "/plans/{planId}/stops/{stopId}:liveUpdate", 422),
    ("POST", "/depots", 200),
    ("PATCH", "/depots/{depotId}", 200),
    ("POST", "/depots:import", 200),
    ("POST", "/depots/{depotId}:setMain", 204),
    ("DELETE", "/depots/{depotId}", 204),
    ("POST", "/members", 200),
    ("PATCH", "/members/{memberId}", 200),
    ("POST", "/members:import", 200),
    ("DELETE", "/members/{memberId}", 204),
    ("GET", "/stops:search", 200),
    ("GET", "/routes", 200),
    ("GET", "/routes/{routeId}", 200),
    ("GET", "/routes/{routeId}/stops", 200),
    ("GET", "/operations", 200),
    ("POST", "/operations/{operationId}:cancel", 200),
    ("POST", "/drivers:import", 200),
    ("POST", "/unassignedStops:import", 200),
    ("POST", "/plans/{planId}/stops:liveImport", 200),
    ("GET", "/team/customStopProperties/{customStopPropertyId}", 200),
)
"""The answers (method, template, status) the v1 workflow must reach."""
