"""Operation polling and the plan workflows, against the emulator over HTTPS on a real socket."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import aclosing, asynccontextmanager
from typing import Any

import pytest

from route_planning_async import (
    OperationCanceledError,
    OperationTimeoutError,
    OptimizationFailedError,
    RateLimits,
    RoutePlanningClient,
    Rule,
    ValidationError,
)
from route_planning_async._inputs import AddressInput, StopInput
from route_planning_async._models import Operation, OptimizationFailure, OptimizationSuccess
from route_planning_async._polling import LiveEdit, live_edit, optimize_and_wait, read_rate, wait, wait_many
from route_planning_async._resources import Operations
from route_planning_async.emulator import Emulator

SPEEDUP = 600.0
"""A contract minute lasts 0.1 s."""

GET_OPERATION = "operations.get"


@asynccontextmanager
async def running(**config: Any) -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    config.setdefault("speedup", SPEEDUP)
    async with Emulator(**config) as emu, emu.client() as client:
        assert emu.base_url.startswith("https://")
        yield emu, client


def seconds(real: float) -> float:
    """Contract seconds that last ``real`` seconds on the sped-up emulator."""
    return real * SPEEDUP


async def plan_with_stops(
    client: RoutePlanningClient, stops: int, *, drivers: tuple[str, ...] = ("driver-ana", "driver-ben")
) -> str:
    plan = await client.plans.create(title="Polling", starts=datetime.date(2026, 3, 2), drivers=list(drivers))
    await client.stops.import_batch(
        plan.id,
        [
            StopInput(address=AddressInput(latitude=51.5 + i * 1e-3, longitude=-0.1), notes=f"s{i}")
            for i in range(stops)
        ],
    )
    return plan.id


async def drain(operations: AsyncIterator[Operation]) -> list[Operation]:
    return [operation async for operation in operations]


def polls(emu: Emulator) -> list[float]:
    """Server arrival times of the operation polls."""
    return [record.time for record in emu.log.select(route=GET_OPERATION)]


# wait ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_wait_returns_a_finished_operation_without_a_request() -> None:
    async with running() as (emu, client):
        plan_id = await plan_with_stops(client, 5)
        operation = await client.plans.optimize(plan_id)
        assert operation.done  # small plans are optimized at once (contract, States and transitions)
        result = await wait(client, operation)
        assert result is operation
        assert isinstance(result.result, OptimizationSuccess)
        assert result.result.num_optimized_stops == 5
        assert polls(emu) == []


@pytest.mark.asyncio
async def test_wait_polls_with_a_delay_that_grows_to_its_cap() -> None:
    async with running(instant_optimization_max_stops=0, optimization_delay=seconds(0.8)) as (emu, client):
        plan_id = await plan_with_stops(client, 4)
        operation = await client.plans.optimize(plan_id)
        assert not operation.done
        started = time.monotonic()
        finished = await wait(client, operation.id, poll_interval=0.02, max_poll_interval=0.1)
        elapsed = time.monotonic() - started
    assert finished.done
    assert isinstance(finished.result, OptimizationSuccess)
    times = polls(emu)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    # Delays 0.02, 0.03, 0.045, 0.0675, 0.1, 0.1, ... (plus each poll's round trip).
    assert all(gap >= 0.018 for gap in gaps)
    assert gaps[0] < 0.06
    assert max(gaps) < 0.1 + 0.08
    assert sum(gaps[-3:]) / 3 > 0.09
    assert gaps[1] > gaps[0] * 1.2
    # Far fewer polls than a fixed 20 ms interval would make.
    assert len(times) < elapsed / 0.02 / 2
    assert elapsed >= 0.75


@pytest.mark.asyncio
async def test_wait_raises_for_a_failed_optimization() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.1)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3, drivers=())
        operation = await client.plans.optimize(plan_id)
        with pytest.raises(OptimizationFailedError) as caught:
            await wait(client, operation, poll_interval=0.01)
        assert caught.value.code == "no_drivers_available"
        assert caught.value.operation.id == operation.id
        assert isinstance(caught.value.operation.result, OptimizationFailure)
        assert caught.value.message
        assert len(polls(emu)) >= 1


@pytest.mark.asyncio
async def test_wait_raises_for_a_canceled_operation(monkeypatch: pytest.MonkeyPatch) -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(10)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3)
        operation = await client.plans.optimize(plan_id)
        served = emu.state.operation_json
        answered = 0

        def canceled_after_two_polls(record: Any) -> dict[str, Any]:
            nonlocal answered
            answered += 1
            body = served(record)
            body["metadata"]["canceled"] = answered >= 2
            return body

        monkeypatch.setattr(emu.state, "operation_json", canceled_after_two_polls)
        with pytest.raises(OperationCanceledError) as caught:
            await wait(client, operation, poll_interval=0.01)
        assert caught.value.operation.metadata.canceled
        assert len(polls(emu)) == 2


@pytest.mark.asyncio
async def test_wait_times_out() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(30)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3)
        operation = await client.plans.optimize(plan_id)
        started = time.monotonic()
        with pytest.raises(OperationTimeoutError) as caught:
            await wait(client, operation, timeout=0.2, poll_interval=0.05)
        assert 0.19 <= time.monotonic() - started < 1.0
        assert caught.value.operation_id == operation.id
        assert caught.value.timeout == 0.2
        assert 1 <= len(polls(emu)) <= 4


@pytest.mark.asyncio
async def test_cancelling_wait_stops_polling() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(30)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3)
        operation = await client.plans.optimize(plan_id)
        task = asyncio.create_task(wait(client, operation, poll_interval=0.01, max_poll_interval=0.01))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.02)  # a poll cancelled in flight may still reach the server
        seen = len(polls(emu))
        assert seen >= 3
        await asyncio.sleep(0.1)
        assert len(polls(emu)) == seen


@pytest.mark.asyncio
async def test_wait_checks_its_arguments() -> None:
    async with running() as (emu, client):
        with pytest.raises(ValidationError):
            await wait(client, "operations/x", poll_interval=0)
        with pytest.raises(ValidationError):
            await wait(client, "operations/x", poll_interval=2, max_poll_interval=1)
        with pytest.raises(ValidationError):
            await wait(client, "operations/../x")
        assert len(emu.log) == 0


# wait_many -------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_wait_many_yields_in_completion_order() -> None:
    # 0.2 s for the optimization of a plan, plus 0.2 s per stop: sizes 4, 1, 3, 2 finish in order 1, 2, 3, 4.
    config = {
        "instant_optimization_max_stops": 0,
        "optimization_delay": seconds(0.2),
        "optimization_delay_per_stop": seconds(0.2),
    }
    async with running(**config) as (emu, client):
        operations: list[Operation | str] = []
        for size in (4, 1, 3, 2):
            plan_id = await plan_with_stops(client, size)
            operation = await client.plans.optimize(plan_id)
            operations.append(operation if size % 2 else operation.id)
        seen = []
        finished_at = []
        async for finished in wait_many(client, operations, poll_interval=0.01, max_poll_interval=0.03):
            assert isinstance(finished.result, OptimizationSuccess)
            seen.append(finished.result.num_optimized_stops)
            finished_at.append(finished.metadata.finished_at)
        assert seen == [1, 2, 3, 4]
        assert finished_at == sorted(finished_at)
        assert emu.max_in_window("read", 1.0) <= 10


@pytest.mark.asyncio
async def test_wait_many_keeps_to_its_share_of_the_read_budget() -> None:
    # Reads: 10 per contract minute, i.e. 100 per second on this emulator.
    limits = RateLimits.default().replace("read", Rule(10, 60.0))
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.6), "rate_limits": limits}
    async with running(**config) as (emu, client):
        assert read_rate(client) == pytest.approx(100.0)
        operations = []
        for _ in range(3):
            plan_id = await plan_with_stops(client, 2)
            operations.append(await client.plans.optimize(plan_id))
        emu.log.clear()
        started = time.monotonic()
        done = [op async for op in wait_many(client, operations, read_share=0.25, poll_interval=0.001)]
        elapsed = time.monotonic() - started
        assert len(done) == 3
        count = len(polls(emu))
        # 25 polls per second at most (one leaky bucket of one), and the loop does use its share.
        assert count <= 25 * elapsed + 2
        assert count >= 10 * elapsed
        assert not emu.log.rejected("read")


@pytest.mark.asyncio
async def test_wait_many_polls_the_oldest_operation_first() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.4)}
    async with running(**config) as (emu, client):
        first = await client.plans.optimize(await plan_with_stops(client, 2))
        await asyncio.sleep(0.1)
        second = await client.plans.optimize(await plan_with_stops(client, 2))
        emu.log.clear()
        # The newer one is given first; both are due at once, so the older one is polled first.
        iterator = wait_many(client, [second, first], poll_interval=0.01)
        async with aclosing(iterator):
            finished = await anext(iterator)
        assert finished.id == first.id
        paths = [record.path for record in emu.log.select(route=GET_OPERATION)]
        assert paths[0].endswith(first.id.split("/")[1])


@pytest.mark.asyncio
async def test_wait_many_shares_a_tight_budget_round_robin() -> None:
    # Reads: 100 per second; a share of 0.2 gives 20 polls per second for 8 operations
    # that each want one every 10 ms.
    limits = RateLimits.default().replace("read", Rule(10, 60.0))
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(30), "rate_limits": limits}
    async with running(**config) as (emu, client):
        operations = [await client.plans.optimize(await plan_with_stops(client, 1)) for _ in range(8)]
        emu.log.clear()
        with pytest.raises(OperationTimeoutError):
            await drain(
                wait_many(
                    client,
                    operations,
                    read_share=0.2,
                    poll_interval=0.01,
                    max_poll_interval=0.01,
                    timeout=0.6,
                )
            )
        per_operation = Counter(record.path for record in emu.log.select(route=GET_OPERATION))
        assert len(per_operation) == 8
        assert max(per_operation.values()) - min(per_operation.values()) <= 1
        assert sum(per_operation.values()) <= 20 * 0.6 + 2


@pytest.mark.asyncio
async def test_wait_many_yields_finished_and_failed_operations() -> None:
    config = {"instant_optimization_max_stops": 2, "optimization_delay": seconds(0.15)}
    async with running(**config) as (emu, client):
        instant = await client.plans.optimize(await plan_with_stops(client, 2))
        failing = await client.plans.optimize(await plan_with_stops(client, 3, drivers=()))
        emu.log.clear()
        seen = [op async for op in wait_many(client, [instant, failing, instant.id], poll_interval=0.01)]
        assert [op.id for op in seen] == [instant.id, failing.id]
        assert isinstance(seen[1].result, OptimizationFailure)
        assert seen[0] is instant  # already finished: yielded first, never fetched
        assert all(r.path.endswith(failing.id.split("/")[1]) for r in emu.log.select(route=GET_OPERATION))

        again = await client.plans.optimize(await plan_with_stops(client, 3, drivers=()))
        with pytest.raises(OptimizationFailedError):
            await drain(wait_many(client, [again], raise_on_failure=True, poll_interval=0.01))


@pytest.mark.asyncio
async def test_wait_many_times_out() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(30)}
    async with running(**config) as (_, client):
        operation = await client.plans.optimize(await plan_with_stops(client, 2))
        with pytest.raises(OperationTimeoutError) as caught:
            await drain(wait_many(client, [operation], timeout=0.1, poll_interval=0.01))
        assert caught.value.operation_id == operation.id


@pytest.mark.asyncio
async def test_wait_many_checks_read_share() -> None:
    async with running() as (_, client):
        for share in (0.0, 1.5):
            with pytest.raises(ValidationError):
                await drain(wait_many(client, [], read_share=share))


# optimize_and_wait -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_optimize_and_wait() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.1)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 6)
        operation = await optimize_and_wait(client, plan_id, poll_interval=0.01)
        assert isinstance(operation.result, OptimizationSuccess)
        assert operation.result.num_optimized_stops == 6
        assert (await client.plans.get(plan_id)).optimization == "optimized"
        assert len(emu.log.select(route="plans.optimize")) == 1


@pytest.mark.asyncio
async def test_optimize_and_wait_waits_for_the_running_optimization_it_finds_in_the_list() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.3)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 6)
        running_elsewhere = await client.plans.optimize(plan_id)
        # Another plan's optimization, newer, so it comes first in the list.
        await client.plans.optimize(await plan_with_stops(client, 2))
        assert not running_elsewhere.done
        result = await optimize_and_wait(client, plan_id, poll_interval=0.02)
        assert result.id == running_elsewhere.id
        assert result.done
        assert isinstance(result.result, OptimizationSuccess)
        assert result.result.num_optimized_stops == 6
        assert (await client.plans.get(plan_id)).optimization == "optimized"
        statuses = [r.status for r in emu.log.select(route="plans.optimize")]
        assert statuses == [200, 200, 409]
        assert len(emu.log.select(route="operations.list")) == 1
        # Found in the list, the operation itself is polled; the plan never is.
        assert len(emu.log.select(route="plans.get")) == 1
        assert {r.path for r in emu.log.select(route=GET_OPERATION)} == {f"/{running_elsewhere.id}"}


@pytest.mark.asyncio
async def test_two_concurrent_optimize_and_wait_on_one_plan_return_the_same_operation() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.3)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 6)
        first, second = await asyncio.gather(
            optimize_and_wait(client, plan_id, poll_interval=0.02),
            optimize_and_wait(client, plan_id, poll_interval=0.02),
        )
        # One of the two optimize calls started the optimization, the other got 409.
        assert sorted(r.status for r in emu.log.select(route="plans.optimize")) == [200, 409]
        assert len(emu.state.operations) == 1
        assert first.id == second.id
        assert first.done
        assert second.done
        assert first.result == second.result
        assert isinstance(first.result, OptimizationSuccess)
        assert first.result.num_optimized_stops == 6


@pytest.mark.asyncio
async def test_optimize_and_wait_raises_the_failure_of_the_running_optimization() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.2)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3, drivers=())
        failing = await client.plans.optimize(plan_id)  # fails: the plan has no drivers
        with pytest.raises(OptimizationFailedError) as caught:
            await optimize_and_wait(client, plan_id, poll_interval=0.02)
        assert caught.value.operation.id == failing.id
        assert caught.value.code == "no_drivers_available"
        statuses = [r.status for r in emu.log.select(route="plans.optimize")]
        assert statuses == [200, 409]


def finish_before_listing(monkeypatch: pytest.MonkeyPatch, emu: Emulator) -> list[dict[str, Any]]:
    """Every running optimization finishes right before each operation listing: the
    race between a 409 and the listing, made deterministic. Returns the filters listed."""
    real = Operations.list
    filters: list[dict[str, Any]] = []

    def listing(self: Operations, **kwargs: Any) -> Any:
        filters.append(dict(kwargs.get("filter") or {}))
        now = emu.config.clock()
        for operation in emu.state.operations.values():
            operation.deadline = min(operation.deadline, now)
        return real(self, **kwargs)

    monkeypatch.setattr(Operations, "list", listing)
    return filters


@pytest.mark.asyncio
async def test_optimize_and_wait_returns_the_latest_finished_optimization_when_none_runs_any_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.1)}
    async with running(**config) as (emu, client):
        plan_id, stops = await optimized_plan(client)
        [optimized] = emu.state.operations
        await client.stops.live_delete(stops[0])
        reoptimizing = await client.plans.reoptimize(plan_id)
        assert not reoptimizing.done
        listed = finish_before_listing(monkeypatch, emu)
        result = await optimize_and_wait(client, plan_id, poll_interval=0.02)
        # The plan's most recent finished optimization: the re-optimization, not the first one.
        assert result.id == reoptimizing.id != f"operations/{optimized}"
        assert result.done
        assert isinstance(result.result, OptimizationSuccess)
        assert listed == [
            {"done": False, "type": "plan_optimization"},
            {"done": True, "type": "plan_optimization"},
        ]
        assert [r.status for r in emu.log.select(route="plans.optimize")] == [200, 409]
        assert [r.status for r in emu.log.select(route="plans.get")] == [200]


@pytest.mark.asyncio
async def test_optimize_and_wait_optimizes_again_when_the_finished_optimization_left_the_plan_writable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.2)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3, drivers=())
        await client.plans.optimize(plan_id)  # fails: the plan has no drivers
        finish_before_listing(monkeypatch, emu)
        with pytest.raises(OptimizationFailedError):
            await optimize_and_wait(client, plan_id, poll_interval=0.02)
        statuses = [r.status for r in emu.log.select(route="plans.optimize")]
        assert statuses == [200, 409, 200]
        assert len(emu.state.operations) == 2


# live_edit ------------------------------------------------------------------------------------


async def optimized_plan(client: RoutePlanningClient) -> tuple[str, list[str]]:
    plan_id = await plan_with_stops(client, 6)
    operation = await client.plans.optimize(plan_id)
    await wait(client, operation, poll_interval=0.01)
    await client.plans.distribute(plan_id)
    stops = [stop.id for stop in await client.stops.list(plan_id).collect()]
    return plan_id, stops


@pytest.mark.asyncio
async def test_live_edit_applies_its_changes_on_a_clean_exit() -> None:
    async with running() as (emu, client):
        plan_id, stops = await optimized_plan(client)
        emu.log.clear()
        async with live_edit(client, plan_id) as edit:
            created = await edit.create(
                StopInput(address=AddressInput(latitude=51.6, longitude=-0.12), notes="new")
            )
            await edit.update(stops[0], notes="Ring twice")
            await edit.delete(stops[1])
            assert edit.pending
            assert created.stop is not None
            assert [r.route for r in emu.log] == [
                "stops.live_create",
                "stops.live_update",
                "stops.live_delete",
            ]
        assert edit.operation is not None
        assert edit.operation.done
        assert edit.plan is not None
        assert edit.plan.distributed
        assert [r.route for r in emu.log][3:] == ["plans.reoptimize", "plans.redistribute"]
        notes = {stop.id: stop.notes for stop in await client.stops.list(plan_id).collect()}
        assert notes[stops[0]] == "Ring twice"
        assert stops[1] not in notes
        assert created.stop.id in notes


@pytest.mark.asyncio
async def test_live_edit_reoptimizes_after_a_lone_deletion_and_saves_without_distributing() -> None:
    async with running() as (emu, client):
        plan_id, stops = await optimized_plan(client)
        emu.log.clear()
        async with live_edit(client, plan_id, distribute=False) as edit:
            await edit.delete(stops[2])
        assert [r.route for r in emu.log] == ["stops.live_delete", "plans.reoptimize", "plans.save"]
        assert edit.plan is None
        assert edit.operation is not None
        assert stops[2] not in {s.id for s in await client.stops.list(plan_id).collect()}


@pytest.mark.asyncio
async def test_live_edit_applies_nothing_when_the_block_raises() -> None:
    async with running() as (emu, client):
        plan_id, stops = await optimized_plan(client)
        emu.log.clear()
        edits: list[LiveEdit] = []

        async def change_then_fail() -> None:
            async with live_edit(client, plan_id) as edit:
                edits.append(edit)
                await edit.update(stops[0], notes="Never applied")
                raise RuntimeError("changed my mind")

        with pytest.raises(RuntimeError, match="changed my mind"):
            await change_then_fail()
        [edit] = edits
        assert [r.route for r in emu.log] == ["stops.live_update"]
        assert edit.operation is None
        # The live change stays pending on the service; the stop is unchanged.
        assert emu.state.plan(plan_id.removeprefix("plans/")).pending
        assert (await client.stops.get(stops[0])).notes == "s0"


@pytest.mark.asyncio
async def test_live_edit_refuses_stops_of_another_plan() -> None:
    async with running() as (emu, client):
        plan_id, _ = await optimized_plan(client)
        other = await plan_with_stops(client, 1)
        [other_stop] = await client.stops.list(other).collect()
        emu.log.clear()

        async def delete_foreign_stop() -> None:
            async with live_edit(client, plan_id) as edit:
                await edit.delete(other_stop.id)

        with pytest.raises(ValidationError):
            await delete_foreign_stop()
        assert len(emu.log) == 0
