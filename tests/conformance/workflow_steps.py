"""The steps of the emulator conformance workflow (``test_emulator_workflow.py``) that
both versions' clients take alike: each version's workflow (``workflow_v0_2b.py``,
``workflow_v1.py``) makes its plan and stops, then optimizes, distributes, edits live
and drives it through these."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import route_planning_async as rp
from route_planning_async.emulator import Emulator

__all__ = [
    "PROPERTY",
    "STARTS",
    "drivers_day",
    "live_day",
    "optimized_day",
    "stop_input",
    "stops_day",
    "unassigned_day",
]

STARTS = datetime.date(2026, 7, 6)
"""The day of the workflow's plans."""
PROPERTY = "6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01"
"""A custom stop property of the emulator's team."""


def stop_input(version: ModuleType, i: int, **fields: Any) -> Any:
    """Stop ``i`` as the ``StopInput`` of ``version`` (``route_planning_async`` or its ``v1``)."""
    return version.StopInput(
        address=version.AddressInput(address_line_one=f"{i} Conformance Road", city="London"),
        recipient=version.RecipientInput(external_id=f"ext-{i}", name=f"Customer {i}"),
        timing=version.TimingInput(estimated_attempt_duration=60),
        **fields,
    )


async def stops_day(client: Any, plan_id: str, first_id: str, stop: Callable[[int], Any]) -> None:
    """Stops imported, changed, read, deleted and listed, and the plans listed."""
    await client.stops.import_batch(plan_id, [stop(i) for i in range(1, 12)])
    await client.stops.update(first_id, notes="Ring twice", custom_properties={PROPERTY: None})
    await client.stops.get(first_id)
    doomed = await client.stops.create(plan_id, stop(99))
    await client.stops.delete(doomed.id)
    await client.stops.list(plan_id).collect()
    await client.plans.list().collect()


async def unassigned_day(client: Any, version: ModuleType) -> Any:
    """Unassigned stops created, imported, changed, read and listed; returns the first."""
    unassigned = await client.unassigned_stops.create(
        version.UnassignedStopInput(
            address=version.AddressInput(city="Bath"), client_id="client-u", notes="Later"
        )
    )
    await client.unassigned_stops.import_batch(
        [version.UnassignedStopInput(address=version.AddressInput(city=f"Town {i}")) for i in range(3)]
    )
    await client.unassigned_stops.update(unassigned.id, notes="Sooner")
    await client.unassigned_stops.get(unassigned.id)
    await client.unassigned_stops.list().collect()
    return unassigned


async def drivers_day(client: Any, version: ModuleType, depot_id: str) -> tuple[list[Any], Any]:
    """Drivers listed and read; one created at ``depot_id`` and changed, a batch imported
    (one refused). Returns the active drivers and the new one."""
    drivers = await client.drivers.list(filter={"active": True}).collect()
    await client.drivers.get(drivers[0].id)
    zoe = await client.drivers.create(
        version.DriverInput(name="Zoe", email="zoe@example.com", depots=[depot_id])
    )
    await client.drivers.update(zoe.id, display_name="Zoe Q.")
    await client.drivers.import_batch(
        [version.DriverInput(name=f"Driver {i}", email=f"driver{i}@example.com") for i in range(3)]
        + [version.DriverInput(name="Again", email="zoe@example.com")]  # refused: the e-mail is taken
    )
    return drivers, zoe


async def optimized_day(
    client: Any, plan_id: str, first_id: str, driver_id: str, stop: Callable[[int], Any]
) -> list[Any]:
    """A spare plan whose optimization is canceled; the plan optimized and distributed,
    and the calls its state refuses. Returns the plan's stops."""
    spare = await client.plans.create(title="Spare", starts=STARTS, drivers=[driver_id])
    await client.stops.import_batch(spare.id, [stop(i) for i in range(200, 230)])
    running = await client.plans.optimize(spare.id)
    await client.operations.cancel(running.id)

    operation = await client.plans.optimize_and_wait(plan_id, poll_interval=0.001)
    await client.operations.get(operation.id)
    await client.operations.list().collect()
    with pytest.raises(rp.PlanNotWritableError):
        await client.stops.update(first_id, notes="too late")
    with pytest.raises(rp.PlanAlreadyOptimizedError):
        await client.plans.optimize(plan_id)
    assert (await client.plans.distribute(plan_id)).distributed
    stops: list[Any] = await client.stops.list(plan_id).collect()
    assert {s.type for s in stops} == {"start", "stop", "end"}
    terminal = next(s for s in stops if s.type == "start")
    with pytest.raises(rp.StopNotEditableError):
        await client.stops.live_update(terminal.id, notes="no")
    return stops


async def live_day(
    emu: Emulator, client: Any, plan_id: str, first_id: str, stops: list[Any], stop: Callable[[int], Any]
) -> None:
    """Live edits, re-optimized and redistributed; a route driven; a live edit saved; the
    plan deleted."""
    await client.stops.live_update(first_id, notes="Live note")
    await client.stops.live_create(plan_id, stop(100))
    await client.stops.live_import_batch(plan_id, [stop(i) for i in range(101, 104)])
    delivery = next(s for s in stops if s.type == "stop" and s.id != first_id)
    await client.stops.live_delete(delivery.id)
    reoptimized = await client.plans.reoptimize(plan_id)
    await client.operations.wait(reoptimized, poll_interval=0.001)
    redistributed = await client.plans.redistribute(plan_id)
    assert redistributed.distributed
    await emu.simulate_route(redistributed.routes[0])
    driven = await client.stops.list(plan_id).collect()
    assert any(s.delivery_info is not None and s.delivery_info.attempted for s in driven)
    await client.stops.live_update(first_id, notes="Saved, not redistributed")
    with contextlib.suppress(rp.ConflictError):  # nothing pending once the driven route locks it
        await client.plans.save(plan_id)
    await client.plans.get(plan_id)
    await client.plans.delete(plan_id)
