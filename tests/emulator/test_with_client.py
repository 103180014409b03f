"""The library's client against the emulator: every model parses every answer, and the
client's limits keep it clear of every server window."""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from route_planning_async import (
    AddressInput,
    PlanNotWritableError,
    RateLimits,
    RecipientInput,
    RoutePlanningClient,
    StopInput,
    TimingInput,
    UnassignedStopInput,
)
from route_planning_async.emulator import Emulator

pytestmark = pytest.mark.asyncio

STARTS = datetime.date(2025, 6, 2)


@pytest_asyncio.fixture
async def pair() -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    # Real limits, sped up; the client gets the same limits from emu.client().
    async with Emulator(speedup=200, rate_limits=RateLimits.default()) as emu, emu.client() as client:
        yield emu, client
    assert emu.internal_errors == []


def stop(i: int) -> StopInput:
    return StopInput(
        address=AddressInput(address_line_one=f"{i} Client Road", city="London"),
        recipient=RecipientInput(external_id=f"ext-{i}"),
        timing=TimingInput(estimated_attempt_duration=60),
    )


async def test_whole_workflow_through_the_client(pair: tuple[Emulator, RoutePlanningClient]) -> None:
    emu, client = pair
    plan = await client.plans.create(
        title="Client run", starts=STARTS, drivers=["drivers/driver-ana", "drivers/driver-ben"]
    )
    assert plan.writable
    result = await client.stops.import_batch(plan.id, [stop(i) for i in range(30)])
    assert len(result.success) == 30
    assert result.failed == []
    stops = await client.stops.list(plan.id).collect()
    assert [s.recipient.external_id for s in stops] == [f"ext-{i}" for i in range(30)]
    operation = await client.plans.optimize_and_wait(plan.id, poll_interval=0.001)
    assert operation.done
    optimized = await client.plans.get(plan.id)
    assert not optimized.writable
    assert len(optimized.routes) == 2
    with pytest.raises(PlanNotWritableError):
        await client.stops.create(plan.id, stop(99))
    distributed = await client.plans.distribute(plan.id)
    assert distributed.distributed
    first = await client.stops.get(stops[0].id)
    assert first.route is not None
    assert first.eta is not None
    assert first.stop_position is not None
    assert first.stop_position >= 1

    change = await client.stops.live_update(stops[1].id, notes="live note")
    assert change.pending
    await client.stops.live_delete(stops[2].id)
    await client.stops.live_create(plan.id, stop(100))
    reoptimized = await client.plans.reoptimize(plan.id)
    await client.operations.wait(reoptimized, poll_interval=0.001)
    await client.plans.redistribute(plan.id)
    after = await client.stops.list(plan.id).collect()
    assert sum(1 for s in after if s.type == "stop") == 30
    # Each of the 2 routes has its start (position 0) and end stop.
    assert sorted(s.type for s in after if s.type != "stop") == ["end", "end", "start", "start"]
    assert all(s.stop_position == 0 for s in after if s.type == "start")
    assert (await client.stops.get(stops[1].id)).notes == "live note"
    for category in ("read", "write", "batch_import", "optimize"):
        assert emu.max_in_window(category) <= emu.rule(category).amount
    assert emu.log.rejected() == []


async def test_reference_lists_and_unassigned_stops(pair: tuple[Emulator, RoutePlanningClient]) -> None:
    _emu, client = pair
    depots = await client.depots.list().collect()
    assert [d.name for d in depots] == ["Main depot", "North depot"]
    properties = await client.custom_stop_properties.list().collect()
    assert [p.name for p in properties] == ["Gate code", "Floor"]
    created = await client.unassigned_stops.create(
        UnassignedStopInput(address=AddressInput(city="Leeds"), depot="depots/north")
    )
    assert created.depot == "depots/north"
    result = await client.unassigned_stops.import_batch(
        [UnassignedStopInput(address=AddressInput(city=f"Town {i}")) for i in range(3)]
    )
    assert len(result.success) == 3
    listed = await client.unassigned_stops.list().collect()
    assert len(listed) == 4
    fetched = await client.get(created.id)
    assert fetched == created


async def test_a_burst_of_reads_never_meets_a_429(pair: tuple[Emulator, RoutePlanningClient]) -> None:
    emu, client = pair
    plan = await client.plans.create(title="Burst", starts=STARTS)
    await asyncio.gather(*(client.plans.get(plan.id) for _ in range(60)))
    assert emu.log.rejected() == []
    assert emu.max_in_window("read") <= 10
