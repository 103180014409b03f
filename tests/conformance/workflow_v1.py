"""The v1 workflow of the emulator conformance (``test_emulator_workflow.py``): a whole
day through the v1 client, every v1 operation called, and the answers it must reach."""

from __future__ import annotations

import datetime
import functools
from typing import Any

import pytest

import route_planning_async as rp
from route_planning_async import v1
from route_planning_async.emulator import Emulator

from . import workflow_steps as steps

__all__ = ["REACHED", "workflow"]

_stop = functools.partial(steps.stop_input, v1)


def _depot(name: str) -> v1.DepotInput:
    start = v1.AddressInput(address_line_one="9 Yard Street", city="London", latitude=51.52, longitude=-0.08)
    overrides = v1.DepotRouteOverridesInput(
        start_address=start, start_time=datetime.time(8), end_time=datetime.time(18), road_side="any"
    )
    return v1.DepotInput(name=name, route_overrides=overrides)


async def _team(client: Any) -> tuple[list[v1.Driver], v1.Driver]:
    """Custom stop properties, depots, drivers and members: each call of their namespaces.
    Returns the team's drivers and a new one working at another depot than the main one."""
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
    drivers, zoe = await steps.drivers_day(client, v1, yard.id)

    ann = await client.members.create(v1.MemberInput(role="dispatcher", email="ann@example.com", name="Ann"))
    await client.members.update(ann.id, role="admin")
    await client.members.import_batch(
        [
            v1.MemberInput(role="read-only", email="bo@example.com"),
            v1.MemberInput(role="admin", email="ann@example.com"),  # refused: the e-mail is taken
        ]
    )
    await client.members.delete(ann.id)
    return drivers, zoe


async def workflow(emu: Emulator, client: Any) -> None:
    """A whole day through the v1 client."""
    drivers, yard_driver = await _team(client)
    overrides = v1.PlanRouteOverridesInput(
        start_time=datetime.time(8),
        vehicle_type="car",
        optimization_settings=v1.OptimizationSettingsInput(objective="distribute_services"),
    )
    plan = await client.plans.create(
        v1.PlanInput(title="Conformance day", starts=steps.STARTS, drivers=[d.id for d in drivers[:2]])
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
            custom_properties={steps.PROPERTY: "1234"},
            barcodes=["b1", "b2"],
            order_info=v1.OrderInfoInput(products=["Tea"], seller_name="Shop", invoice_number="INV-1"),
            allowed_drivers=[drivers[0].id],
        ),
    )
    assert first.client_id == "client-0"
    assert first.order_info.invoice_number == "INV-1"
    with pytest.raises(rp.PreconditionFailedError):  # not one of the plan's drivers
        await client.stops.create(plan.id, _stop(98, allowed_drivers=[yard_driver.id]))
    await steps.stops_day(client, plan.id, first.id, _stop)
    unassigned = await steps.unassigned_day(client, v1)
    await client.stops.search(keyword="Conformance", max_page_size=5).collect()
    await client.stops.search(
        filter='activity = "delivery"', sort_field="packageCount", sort_order="desc"
    ).collect()
    await client.unassigned_stops.delete(unassigned.id)

    stops = await steps.optimized_day(client, plan.id, first.id, drivers[0].id, _stop)
    routes = await client.routes.list().collect()
    await client.routes.get(routes[0].id)
    await client.routes.list_stops(routes[0].id).collect()
    await steps.live_day(emu, client, plan.id, first.id, stops, _stop)


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
