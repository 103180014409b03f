"""``stops.live_import_batch`` and ``stops.live_import_many`` against the emulator.

On a writable plan the stops are added at once; on an optimized plan they join
the editing session (``pending``), and ``live_import_many`` applies it the way
``plans.live_edit`` does: ``:reoptimize``, wait, then ``:redistribute`` (or
``:save``).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

import route_planning_async as rp
from route_planning_async import RetryPolicy, RoutePlanningClient
from route_planning_async._import import Outcome
from route_planning_async.emulator import Emulator, Fault


async def _deliveries(client: RoutePlanningClient, plan_id: str) -> list[rp.Stop]:
    """The plan's stops but its routes' start and end stops (at the depot)."""
    stops = await client.stops.list(plan_id).collect()
    return [stop for stop in stops if stop.type == rp.StopType.STOP]


pytestmark = pytest.mark.asyncio


@asynccontextmanager
async def running() -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    retry = RetryPolicy(attempts=6, base=0.001, cap=0.01, rng=random.Random(1))
    async with Emulator(speedup=600.0) as emu, emu.client(retry=retry) as client:
        yield emu, client
    assert emu.internal_errors == []


def stop(position: int, *, external: bool = True) -> rp.StopInput:
    recipient = rp.RecipientInput(external_id=f"live-{position}") if external else rp.UNSET
    return rp.StopInput(
        address=rp.AddressInput(address_line_one=f"{position} Live Lane", city="London"),
        recipient=recipient,
        notes=f"row-{position}",
    )


async def optimized_plan(client: RoutePlanningClient, stops: int = 6) -> str:
    plan = await client.plans.create(
        title="Live", starts=datetime.date(2026, 11, 23), drivers=["driver-ana", "driver-ben"]
    )
    await client.stops.import_batch(
        plan.id,
        [rp.StopInput(address=rp.AddressInput(address_line_one=f"{i} Old Road")) for i in range(stops)],
    )
    await client.plans.optimize_and_wait(plan.id, poll_interval=0.01)
    return plan.id


async def test_live_import_batch_joins_the_editing_session() -> None:
    async with running() as (_, client):
        plan_id = await optimized_plan(client)
        result = await client.stops.live_import_batch(plan_id, [stop(0), stop(1)])
        assert result.pending
        assert len(result.success) == 2
        assert (await client.plans.get(plan_id)).optimization == rp.PlanOptimization.EDITING
        # Not listed until applied.
        assert len(await _deliveries(client, plan_id)) == 6


async def test_live_import_many_applies_the_session_and_redistributes() -> None:
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        done = await client.stops.live_import_many(
            plan_id, (stop(p) for p in range(150)), poll_interval=0.01, batch_size=40
        )
        assert done.pending
        assert done.report.created == 150
        assert done.report.ok
        assert done.edit.operation is not None
        assert done.edit.operation.done
        assert done.edit.plan is not None
        assert done.edit.plan.distributed
        stops = await _deliveries(client, plan_id)
        assert len(stops) == 156
        ids = {s.id for s in stops}
        assert {stop_id for _, stop_id in done.report.created_ids()} <= ids
        assert all(s.route is not None for s in stops)
        imports = emu.log.select(route="stops.live_import_batch")
        # Batches of 40 and the rest, sent concurrently: they arrive in any order.
        assert sorted((r.weight for r in imports), reverse=True) == [40, 40, 40, 30]
        assert {r.category for r in imports} == {rp.Category.BATCH_IMPORT}
        assert len(emu.log.select(route="plans.reoptimize")) == 1
        assert len(emu.log.select(route="plans.redistribute")) == 1


async def test_live_import_many_on_a_writable_plan_applies_nothing() -> None:
    async with running() as (emu, client):
        plan = await client.plans.create(title="Open", starts=datetime.date(2026, 11, 23))
        done = await client.stops.live_import_many(plan.id, [stop(p) for p in range(5)])
        assert not done.pending
        assert done.report.created == 5
        assert done.edit.operation is None
        assert len(await client.stops.list(plan.id).collect()) == 5
        assert emu.log.select(route="plans.reoptimize") == []


async def test_live_import_many_can_save_instead_of_distributing() -> None:
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        done = await client.stops.live_import_many(plan_id, [stop(0)], distribute=False, poll_interval=0.01)
        assert done.pending
        assert done.edit.plan is None
        assert len(emu.log.select(route="plans.save")) == 1
        assert (await client.plans.get(plan_id)).optimization == rp.PlanOptimization.OPTIMIZED


async def test_an_ambiguous_batch_of_a_session_is_unknown_not_resent() -> None:
    # Stops pending in an editing session are not listed, so the lost batch cannot be
    # looked up: it is reported unknown, and the rest is applied.
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        emu.faults.add(Fault("error_after_commit", route="stops.live_import_batch", nth=2))
        done = await client.stops.live_import_many(
            plan_id, [stop(p) for p in range(30)], batch_size=10, settle_delay=0, poll_interval=0.01
        )
        assert done.report.created == 20
        assert done.report.unknown == 10
        [batch] = done.report.failed_batches
        assert batch.outcome is Outcome.UNKNOWN
        assert len(emu.log.select(route="stops.live_import_batch")) == 3
        assert len(await _deliveries(client, plan_id)) == 36  # the lost batch was committed


async def test_a_bad_row_applies_nothing() -> None:
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        with pytest.raises(rp.ValidationError) as bad:
            await client.stops.live_import_many(plan_id, [stop(0), "1 Main St"])  # type: ignore[list-item]
        assert bad.value.field == "stops[1]"
        assert emu.log.select(route="stops.live_import_batch") == []
        assert emu.log.select(route="plans.reoptimize") == []


@pytest.mark.parametrize("kind", ["error_after_commit", "drop_after_commit"])
async def test_a_session_whose_every_answer_was_lost_is_still_applied(kind: str) -> None:
    # No answer says the stops are pending, but the plan is left editing: the
    # session holds them, so it is applied and the drivers see the stops.
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        emu.faults.add(Fault(kind, route="stops.live_import_batch"))
        done = await client.stops.live_import_many(
            plan_id, [stop(p) for p in range(30)], batch_size=10, settle_delay=0, poll_interval=0.01
        )
        assert done.report.unknown == 30
        assert len(emu.log.select(route="stops.live_import_batch")) == 3  # nothing resent
        assert done.pending
        assert done.edit.operation is not None
        assert done.edit.operation.done
        assert done.edit.plan is not None
        assert done.edit.plan.distributed
        plan = await client.plans.get(plan_id)
        assert plan.optimization == rp.PlanOptimization.OPTIMIZED
        stops = await _deliveries(client, plan_id)
        assert sorted(s.recipient.external_id or "" for s in stops if s.recipient.external_id) == sorted(
            f"live-{p}" for p in range(30)
        )
        assert all(s.route is not None for s in stops)


async def test_lost_answers_and_an_unreadable_plan_leave_the_session_to_the_caller() -> None:
    # The plan's state cannot be read after the answers were lost: the stops may
    # wait in its editing session, so the call says pending without applying it.
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        emu.faults.add(Fault("error_after_commit", route="stops.live_import_batch"))
        emu.faults.add(Fault("error", route="plans.get", status=503))
        done = await client.stops.live_import_many(
            plan_id, [stop(p) for p in range(10)], settle_delay=0, poll_interval=0.01
        )
        assert done.report.unknown == 10
        assert done.pending
        assert done.edit.operation is None
        assert emu.log.select(route="plans.reoptimize") == []
        emu.faults.clear()
        assert (await client.plans.get(plan_id)).optimization == rp.PlanOptimization.EDITING


async def test_lost_answers_of_a_plan_left_optimized_apply_nothing() -> None:
    # A lost answer of a batch the service refused whole: the session holds
    # nothing (the plan is optimized, not editing), so nothing is applied.
    async with running() as (emu, client):
        plan_id = await optimized_plan(client)
        emu.faults.add(Fault("drop", route="stops.live_import_batch"))
        done = await client.stops.live_import_many(
            plan_id, [stop(p) for p in range(10)], settle_delay=0, poll_interval=0.01, max_resends=0
        )
        assert done.report.unknown == 10
        assert not done.pending
        assert done.edit.operation is None
        assert emu.log.select(route="plans.reoptimize") == []
