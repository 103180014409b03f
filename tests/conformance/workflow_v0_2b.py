"""The v0.2b workflow of the emulator conformance (``test_emulator_workflow.py``): a
whole day through the v0.2b client, and the answers it must reach."""

from __future__ import annotations

import functools
from typing import Any

import route_planning_async as rp
from route_planning_async.emulator import Emulator

from . import workflow_steps as steps

__all__ = ["REACHED", "workflow"]

_stop = functools.partial(steps.stop_input, rp)


async def workflow(emu: Emulator, client: Any) -> None:
    """A whole day through the v0.2b client."""
    plan = await client.plans.create(
        title="Conformance day", starts=steps.STARTS, drivers=["drivers/driver-ana", "drivers/driver-ben"]
    )
    await client.plans.update(plan.id, title="Conformance day (renamed)")
    first = await client.stops.create(
        plan.id,
        _stop(
            0,
            client_id="client-0",
            weight=rp.WeightInput(amount=12.5, unit=rp.WeightUnit.KILOGRAM),
            payment_on_delivery=rp.PaymentOnDeliveryInput(amount=1250, currency="EUR"),
            custom_properties={steps.PROPERTY: "1234"},
            barcodes=["b1", "b2"],
            order_info=rp.OrderInfoInput(products=["Tea"], seller_name="Shop"),
        ),
    )
    assert first.client_id == "client-0"
    assert first.weight == rp.Weight(amount=12.5, unit="kilogram")
    await steps.stops_day(client, plan.id, first.id, _stop)
    unassigned = await steps.unassigned_day(client, rp)
    await client.unassigned_stops.delete(unassigned.id)
    depots = await client.depots.list().collect()
    await client.depots.get(depots[0].id)
    properties = await client.custom_stop_properties.list().collect()
    await client.custom_stop_properties.get(properties[0].id)
    drivers, zoe = await steps.drivers_day(client, rp, depots[0].id)
    await client.drivers.delete(zoe.id)

    stops = await steps.optimized_day(client, plan.id, first.id, drivers[0].id, _stop)
    await client.routes.get(stops[0].route.id if stops[0].route else "routes/none")
    await steps.live_day(emu, client, plan.id, first.id, stops, _stop)


REACHED = (
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
"""The answers (method, template, status) the v0.2b workflow must reach."""
