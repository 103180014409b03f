"""The plan workflows: ``client.plans.optimize_and_wait`` and ``client.plans.live_edit``.

The first part runs on the virtual-time loop with the scripted transport and
asserts the exact requests, in order, and when they were sent. The second runs
the workflows end to end against the emulator over HTTPS on a real socket and
asserts states and requests, never wall-clock times.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from support.fake_transport import FakeService, answer
from support.fixtures import load
from support.virtual_time import run_virtual, virtual_loop

from route_planning_async import (
    AddressInput,
    LiveEdit,
    OperationTimeoutError,
    OptimizationFailedError,
    OptimizationInProgressError,
    OptimizationSuccess,
    RateLimits,
    RetryPolicy,
    RoutePlanningClient,
    RoutePlanningError,
    StopInput,
    ValidationError,
)
from route_planning_async._workflows import MAX_IN_PROGRESS_ROUNDS
from route_planning_async.emulator import Emulator

BASE = "https://api.example.test/v0.2b"
STOP_ID = "plans/p1/stops/s1"
RUNNING = (("filter[done]", "false"), ("filter[type]", "plan_optimization"))
FINISHED = (("filter[done]", "true"), ("filter[type]", "plan_optimization"))
BUSY = answer(
    {"message": "An optimization is in progress", "code": "plan_optimization_in_progress"}, status=409
)


def operation_json(
    name: str = "o1", plan: str = "plans/p1", *, done: bool = False, started: float = 1795420000
) -> Any:
    body = load("operation_success.json" if done else "operation_running.json")
    body["id"] = f"operations/{name}"
    body["metadata"] = {**body["metadata"], "targetPlanId": plan, "startedAt": started}
    return body


def plan_json(optimization: str, *, writable: bool) -> Any:
    return {**load("plan.json"), "optimization": optimization, "writable": writable}


def listing(*operations: Any, next_page: str | None = None) -> Any:
    return answer({"operations": list(operations), "nextPageToken": next_page})


class TimedService(FakeService):
    """A scripted service that also notes the loop time of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: list[tuple[float, str, str]] = []

    async def send(self, request: Any) -> Any:
        self.arrivals.append((virtual_loop().time(), request.method, request.path))
        return await super().send(request)

    def times(self, method: str, path: str) -> list[float]:
        return [t for t, m, p in self.arrivals if (m, p) == (method, path)]

    def calls(self) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
        return [(sent.method, sent.path, sent.query) for sent in self.sent]


def on_client(service: FakeService, body: Callable[[RoutePlanningClient], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with RoutePlanningClient(
            "test-key",
            base_url=BASE,
            transport=service,
            rate_limits=RateLimits.unlimited(),
            retry=RetryPolicy(attempts=1),
        ) as client:
            result = await body(client)
        service.assert_done()
        return result

    return run_virtual(main)


def now() -> float:
    return virtual_loop().time()


# optimize_and_wait, scripted -------------------------------------------------------------


def test_optimize_and_wait_polls_the_operation_it_started() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", answer(operation_json()))
    service.on("GET", "/operations/o1", answer(operation_json()), answer(operation_json(done=True)))

    operation = on_client(service, lambda client: client.plans.optimize_and_wait("plans/p1"))

    assert isinstance(operation.result, OptimizationSuccess)
    assert service.calls() == [
        ("POST", "/plans/p1:optimize", ()),
        ("GET", "/operations/o1", ()),
        ("GET", "/operations/o1", ()),
    ]
    assert [t for t, _, _ in service.arrivals] == pytest.approx([0.0, 1.0, 2.5])


def test_optimize_and_wait_returns_a_plan_optimized_at_once_without_polling() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", answer(operation_json(done=True)))
    operation = on_client(service, lambda client: client.plans.optimize_and_wait("p1"))
    assert operation.done
    assert service.calls() == [("POST", "/plans/p1:optimize", ())]


def test_optimize_and_wait_finds_the_running_optimization_in_the_operation_list() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY)
    service.on(
        "GET",
        "/operations",
        listing(operation_json("o0", "plans/p0"), next_page="t2"),
        listing(operation_json("o1"), next_page="t3"),
    )
    service.on("GET", "/operations/o1", answer(operation_json(done=True)))

    operation = on_client(service, lambda client: client.plans.optimize_and_wait("p1"))

    assert operation.id == "operations/o1"
    assert isinstance(operation.result, OptimizationSuccess)
    # The match is on the second page: the list stops there, the third page is never asked for.
    assert service.calls() == [
        ("POST", "/plans/p1:optimize", ()),
        ("GET", "/operations", RUNNING),
        ("GET", "/operations", (*RUNNING, ("pageToken", "t2"))),
        ("GET", "/operations/o1", ()),
    ]
    # Found in the list, the operation itself is polled, like one this call started.
    assert service.times("GET", "/operations/o1") == pytest.approx([1.0])


def test_optimize_and_wait_raises_the_failure_of_the_running_optimization() -> None:
    failed = {**load("operation_failure.json"), "id": "operations/o2"}
    failed["metadata"] = {**failed["metadata"], "targetPlanId": "plans/p1"}
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY)
    service.on("GET", "/operations", listing(operation_json("o2")))
    service.on("GET", "/operations/o2", answer(failed))

    with pytest.raises(OptimizationFailedError) as caught:
        on_client(service, lambda client: client.plans.optimize_and_wait("p1"))
    assert caught.value.operation.id == "operations/o2"
    assert caught.value.code == "no_drivers_available"


def test_optimize_and_wait_returns_the_latest_finished_optimization_in_any_list_order() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY)
    # It finished between the 409 and the listing: nothing of plans/p1 runs any more.
    # Oldest first here, and the latest of plans/p1 on the first page: every page is read.
    service.on(
        "GET",
        "/operations",
        listing(),
        listing(
            operation_json("old", done=True, started=1795400000),
            operation_json("latest", done=True, started=1795420000),
            next_page="t2",
        ),
        listing(
            operation_json("other-plan", "plans/p0", done=True, started=1795430000),
            operation_json("older", done=True, started=1795300000),
        ),
    )
    service.on("GET", "/plans/p1", answer(plan_json("optimized", writable=False)))

    operation = on_client(service, lambda client: client.plans.optimize_and_wait("p1"))

    assert operation.id == "operations/latest"
    assert isinstance(operation.result, OptimizationSuccess)
    assert service.calls() == [
        ("POST", "/plans/p1:optimize", ()),
        ("GET", "/operations", RUNNING),
        ("GET", "/plans/p1", ()),
        ("GET", "/operations", FINISHED),
        ("GET", "/operations", (*FINISHED, ("pageToken", "t2"))),
    ]


def test_optimize_and_wait_polls_the_plan_until_it_is_no_longer_optimizing() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY)
    service.on("GET", "/operations", listing(), listing(operation_json("o1", done=True)))
    service.on(
        "GET",
        "/plans/p1",
        answer(plan_json("optimizing", writable=False)),
        answer(plan_json("optimizing", writable=False)),
        answer(plan_json("optimized", writable=False)),
    )

    operation = on_client(service, lambda client: client.plans.optimize_and_wait("p1"))

    assert operation.id == "operations/o1"
    # The plan is polled like an operation: after 1, 1.5, 2.25 seconds.
    assert service.times("GET", "/plans/p1") == pytest.approx([1.0, 2.5, 4.75])


def test_optimize_and_wait_raises_when_the_list_shows_no_operation_of_the_optimized_plan() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY)
    service.on("GET", "/operations", listing(), listing(operation_json("o9", "plans/p0", done=True)))
    service.on("GET", "/plans/p1", answer(plan_json("optimized", writable=False)))

    with pytest.raises(RoutePlanningError, match="the operation list does not show") as caught:
        on_client(service, lambda client: client.plans.optimize_and_wait("p1"))
    assert isinstance(caught.value.__cause__, OptimizationInProgressError)
    assert len(service.arrivals) == 4


def test_optimize_and_wait_optimizes_again_when_the_finished_optimization_left_the_plan_writable() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY, answer(operation_json("o2", done=True)))
    service.on("GET", "/operations", listing())
    service.on("GET", "/plans/p1", answer(plan_json("editing", writable=True)))

    operation = on_client(service, lambda client: client.plans.optimize_and_wait("p1"))

    assert operation.id == "operations/o2"
    assert service.calls() == [
        ("POST", "/plans/p1:optimize", ()),
        ("GET", "/operations", RUNNING),
        ("GET", "/plans/p1", ()),
        ("POST", "/plans/p1:optimize", ()),
    ]


def test_optimize_and_wait_gives_up_after_the_plan_stayed_busy_round_after_round() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", forever=BUSY)
    service.on("GET", "/operations", forever=listing())
    service.on("GET", "/plans/p1", forever=answer(plan_json("editing", writable=True)))

    with pytest.raises(OptimizationInProgressError):
        on_client(service, lambda client: client.plans.optimize_and_wait("p1"))
    assert MAX_IN_PROGRESS_ROUNDS == 5
    assert [(m, p) for _, m, p in service.arrivals] == [
        ("POST", "/plans/p1:optimize"),
        ("GET", "/operations"),
        ("GET", "/plans/p1"),
    ] * 5
    assert service.times("POST", "/plans/p1:optimize") == pytest.approx([0.0, 1.0, 2.0, 3.0, 4.0])


def test_optimize_and_wait_times_out_at_exactly_its_timeout() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", answer(operation_json()))
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> float:
        with pytest.raises(OperationTimeoutError) as caught:
            await client.plans.optimize_and_wait("p1", timeout=3)
        assert caught.value.operation_id == "operations/o1"
        assert caught.value.timeout == pytest.approx(3)
        return now()

    assert on_client(service, body) == pytest.approx(3.0)
    assert service.times("GET", "/operations/o1") == pytest.approx([1.0, 2.5])


def test_optimize_and_wait_times_out_while_the_plan_is_still_optimizing() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", BUSY)
    service.on("GET", "/operations", listing())
    service.on("GET", "/plans/p1", forever=answer(plan_json("optimizing", writable=False)))

    async def body(client: RoutePlanningClient) -> float:
        with pytest.raises(OperationTimeoutError) as caught:
            await client.plans.optimize_and_wait("p1", timeout=2)
        assert caught.value.operation_id == "plans/p1"
        return now()

    assert on_client(service, body) == pytest.approx(2.0)
    assert service.times("GET", "/plans/p1") == pytest.approx([1.0])


@pytest.mark.parametrize(
    ("plan_id", "options"),
    [("p1", {"poll_interval": 0.0}), ("p1", {"timeout": -1.0}), ("plans/../x", {})],
)
def test_optimize_and_wait_checks_its_options(plan_id: str, options: dict[str, Any]) -> None:
    service = TimedService()

    async def body(client: RoutePlanningClient) -> None:
        await client.plans.optimize_and_wait(plan_id, **options)

    with pytest.raises(ValidationError):
        on_client(service, body)
    assert service.arrivals == []


# live_edit, scripted ---------------------------------------------------------------------


def test_live_edit_reoptimizes_and_redistributes_on_a_clean_exit() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1/stops/s1:liveUpdate", answer(load("live_change.json")))
    service.on("POST", "/plans/p1:reoptimize", answer(operation_json(done=True)))
    service.on("POST", "/plans/p1:redistribute", answer({**load("plan.json"), "distributed": True}))

    async def body(client: RoutePlanningClient) -> LiveEdit:
        async with client.plans.live_edit("plans/p1") as edit:
            await edit.update(STOP_ID, notes="Ring twice")
            assert edit.pending
            assert [(m, p) for _, m, p in service.arrivals] == [("POST", "/plans/p1/stops/s1:liveUpdate")]
        return edit

    edit = on_client(service, body)
    assert service.calls() == [
        ("POST", "/plans/p1/stops/s1:liveUpdate", ()),
        ("POST", "/plans/p1:reoptimize", ()),
        ("POST", "/plans/p1:redistribute", ()),
    ]
    assert service.sent[0].body == {"notes": "Ring twice"}
    assert edit.operation is not None
    assert edit.operation.done
    assert edit.plan is not None
    assert edit.plan.distributed
    assert len(edit.changes) == 1
    assert repr(edit) == "<LiveEdit plans/p1 changes=1>"


def test_live_edit_waits_for_the_reoptimization_then_saves_without_distributing() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1/stops/s1:liveDelete", answer(load("live_delete.json")))
    service.on("POST", "/plans/p1:reoptimize", answer(operation_json()))
    service.on("GET", "/operations/o1", answer(operation_json()), answer(operation_json(done=True)))
    service.on("POST", "/plans/p1:save", answer(status=204))

    async def body(client: RoutePlanningClient) -> LiveEdit:
        options: dict[str, Any] = {"distribute": False, "optimization_type": "reorder_all_stops"}
        async with client.plans.live_edit("p1", **options) as edit:
            await edit.delete(STOP_ID)
        return edit

    edit = on_client(service, body)
    assert [(m, p) for _, m, p in service.arrivals] == [
        ("POST", "/plans/p1/stops/s1:liveDelete"),
        ("POST", "/plans/p1:reoptimize"),
        ("GET", "/operations/o1"),
        ("GET", "/operations/o1"),
        ("POST", "/plans/p1:save"),
    ]
    assert service.sent_to("POST", "/plans/p1:reoptimize")[0].body == {
        "optimizationType": "reorder_all_stops"
    }
    assert service.times("GET", "/operations/o1") == pytest.approx([1.0, 2.5])
    assert edit.plan is None
    assert edit.operation is not None
    assert edit.operation.done


def test_live_edit_waits_out_an_optimization_in_progress() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1/stops/s1:liveUpdate", answer(load("live_change.json")))
    service.on("POST", "/plans/p1:reoptimize", BUSY, answer(operation_json(done=True)))
    service.on(
        "GET",
        "/plans/p1",
        answer(plan_json("optimizing", writable=False)),
        answer(plan_json("optimized", writable=False)),
    )
    service.on("POST", "/plans/p1:redistribute", answer(load("plan.json")))

    async def body(client: RoutePlanningClient) -> None:
        async with client.plans.live_edit("p1") as edit:
            await edit.update(STOP_ID, notes="Ring twice")

    on_client(service, body)
    assert [(m, p) for _, m, p in service.arrivals] == [
        ("POST", "/plans/p1/stops/s1:liveUpdate"),
        ("POST", "/plans/p1:reoptimize"),
        ("GET", "/plans/p1"),
        ("GET", "/plans/p1"),
        ("POST", "/plans/p1:reoptimize"),
        ("POST", "/plans/p1:redistribute"),
    ]
    assert service.times("GET", "/plans/p1") == pytest.approx([1.0, 2.5])


def test_live_edit_stops_when_every_change_was_undone() -> None:
    undone = answer({"message": "Nothing to apply", "code": "plan_already_optimized"}, status=409)
    service = TimedService()
    service.on("POST", "/plans/p1/stops/s1:liveUpdate", answer(load("live_change.json")))
    service.on("POST", "/plans/p1:reoptimize", undone)

    async def body(client: RoutePlanningClient) -> LiveEdit:
        async with client.plans.live_edit("p1") as edit:
            await edit.update(STOP_ID, notes="Ring twice")
        return edit

    edit = on_client(service, body)
    assert edit.operation is None
    assert edit.plan is None
    assert [(m, p) for _, m, p in service.arrivals][-1] == ("POST", "/plans/p1:reoptimize")


def test_live_edit_applies_nothing_when_no_change_is_pending() -> None:
    service = TimedService()
    service.on(
        "POST", "/plans/p1/stops/s1:liveUpdate", answer({**load("live_change.json"), "pending": False})
    )

    async def body(client: RoutePlanningClient) -> LiveEdit:
        async with client.plans.live_edit("p1") as edit:
            await edit.update(STOP_ID, notes="Ring twice")
        return edit

    edit = on_client(service, body)
    assert not edit.pending
    assert edit.operation is None
    assert len(service.arrivals) == 1


def test_live_edit_times_out_while_waiting_for_the_reoptimization() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1/stops/s1:liveUpdate", answer(load("live_change.json")))
    service.on("POST", "/plans/p1:reoptimize", answer(operation_json()))
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> float:
        async def edit_slowly() -> None:
            async with client.plans.live_edit("p1", timeout=5) as edit:
                await asyncio.sleep(100)  # the block's own time does not count
                await edit.update(STOP_ID, notes="Ring twice")

        with pytest.raises(OperationTimeoutError):
            await edit_slowly()
        return now()

    assert on_client(service, body) == pytest.approx(105.0)
    assert service.times("GET", "/operations/o1") == pytest.approx([101.0, 102.5, 104.75])
    assert not service.sent_to("POST", "/plans/p1:redistribute")


def test_live_edit_checks_its_options_before_any_request() -> None:
    service = TimedService()
    with pytest.raises(ValidationError):
        on_client(service, lambda client: _enter(client.plans.live_edit("p1", poll_interval=0)))
    with pytest.raises(ValidationError):
        on_client(service, lambda client: _enter(client.plans.live_edit("plans/../x")))
    assert service.arrivals == []


def test_the_workflows_refuse_a_misspelt_option_before_any_request() -> None:
    service = TimedService()
    with pytest.raises(TypeError, match="unexpected keyword argument 'time_out'"):
        on_client(service, lambda client: client.plans.optimize_and_wait("p1", time_out=5))  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'distribut'"):
        on_client(service, lambda client: _enter(client.plans.live_edit("p1", distribut=False)))  # type: ignore[call-arg]
    assert service.arrivals == []


async def _enter(context: Any) -> None:
    async with context:
        pass


# End to end, against the emulator ----------------------------------------------------------

SPEEDUP = 600.0
"""A contract minute lasts 0.1 s."""


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
    plan = await client.plans.create(
        title="Workflows", starts=datetime.date(2026, 3, 2), drivers=list(drivers)
    )
    await client.stops.import_batch(
        plan.id,
        [
            StopInput(address=AddressInput(latitude=51.5 + i * 1e-3, longitude=-0.1), notes=f"s{i}")
            for i in range(stops)
        ],
    )
    return plan.id


async def optimized_plan(client: RoutePlanningClient) -> tuple[str, list[str]]:
    plan_id = await plan_with_stops(client, 6)
    operation = await client.plans.optimize(plan_id)
    await client.operations.wait(operation, poll_interval=0.01)
    await client.plans.distribute(plan_id)
    stops = [stop.id for stop in await client.stops.list(plan_id).collect()]
    return plan_id, stops


def finish_before_listing(
    monkeypatch: pytest.MonkeyPatch, emu: Emulator, client: RoutePlanningClient
) -> list[Any]:
    """Every running optimization finishes right before each operation listing: the
    race between a 409 and the listing, made deterministic. Returns the filters listed."""
    operations = type(client.operations)
    real = operations.list
    filters: list[dict[str, Any]] = []

    def listed(self: Any, **kwargs: Any) -> Any:
        filters.append(dict(kwargs.get("filter") or {}))
        clock = emu.config.clock()
        for operation in emu.state.operations.values():
            operation.deadline = min(operation.deadline, clock)
        return real(self, **kwargs)

    monkeypatch.setattr(operations, "list", listed)
    return filters


@pytest.mark.asyncio
async def test_emulated_optimize_and_wait() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.1)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 6)
        operation = await client.plans.optimize_and_wait(plan_id, poll_interval=0.01)
        assert isinstance(operation.result, OptimizationSuccess)
        assert operation.result.num_optimized_stops == 6
        assert (await client.plans.get(plan_id)).optimization == "optimized"
        assert len(emu.log.select(route="plans.optimize")) == 1
        assert len(emu.log.select(route="operations.get")) >= 1


@pytest.mark.asyncio
async def test_emulated_optimize_and_wait_waits_for_the_running_optimization_it_finds_in_the_list() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.3)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 6)
        running_elsewhere = await client.plans.optimize(plan_id)
        # Another plan's optimization, newer, so it comes first in the list.
        await client.plans.optimize(await plan_with_stops(client, 2))
        assert not running_elsewhere.done
        result = await client.plans.optimize_and_wait(plan_id, poll_interval=0.02)
        assert result.id == running_elsewhere.id
        assert result.done
        assert isinstance(result.result, OptimizationSuccess)
        assert result.result.num_optimized_stops == 6
        assert (await client.plans.get(plan_id)).optimization == "optimized"
        assert [r.status for r in emu.log.select(route="plans.optimize")] == [200, 200, 409]
        assert len(emu.log.select(route="operations.list")) == 1
        # Found in the list, the operation itself is polled; the plan never is.
        assert len(emu.log.select(route="plans.get")) == 1
        assert {r.path for r in emu.log.select(route="operations.get")} == {f"/{running_elsewhere.id}"}


@pytest.mark.asyncio
async def test_emulated_concurrent_optimize_and_wait_on_one_plan_return_the_same_operation() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.5)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 6)
        first, second = await asyncio.gather(
            client.plans.optimize_and_wait(plan_id, poll_interval=0.02),
            client.plans.optimize_and_wait(plan_id, poll_interval=0.02),
        )
        # One of the two optimize calls started the optimization, the other got 409.
        assert sorted(r.status or 0 for r in emu.log.select(route="plans.optimize")) == [200, 409]
        assert len(emu.state.operations) == 1
        assert first.id == second.id
        assert first.done
        assert second.done
        assert first.result == second.result
        assert isinstance(first.result, OptimizationSuccess)
        assert first.result.num_optimized_stops == 6


@pytest.mark.asyncio
async def test_emulated_optimize_and_wait_raises_the_failure_of_the_running_optimization() -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.2)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3, drivers=())
        failing = await client.plans.optimize(plan_id)  # fails: the plan has no drivers
        with pytest.raises(OptimizationFailedError) as caught:
            await client.plans.optimize_and_wait(plan_id, poll_interval=0.02)
        assert caught.value.operation.id == failing.id
        assert caught.value.code == "no_drivers_available"
        assert [r.status for r in emu.log.select(route="plans.optimize")] == [200, 409]


@pytest.mark.asyncio
async def test_emulated_optimize_and_wait_returns_the_latest_finished_optimization_when_none_runs_any_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.1)}
    async with running(**config) as (emu, client):
        plan_id, stops = await optimized_plan(client)
        [optimized] = emu.state.operations
        await client.stops.live_delete(stops[0])
        reoptimizing = await client.plans.reoptimize(plan_id)
        assert not reoptimizing.done
        listed = finish_before_listing(monkeypatch, emu, client)
        result = await client.plans.optimize_and_wait(plan_id, poll_interval=0.02)
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
async def test_emulated_optimize_and_wait_optimizes_again_when_the_plan_was_left_writable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = {"instant_optimization_max_stops": 0, "optimization_delay": seconds(0.2)}
    async with running(**config) as (emu, client):
        plan_id = await plan_with_stops(client, 3, drivers=())
        await client.plans.optimize(plan_id)  # fails: the plan has no drivers
        finish_before_listing(monkeypatch, emu, client)
        with pytest.raises(OptimizationFailedError):
            await client.plans.optimize_and_wait(plan_id, poll_interval=0.02)
        assert [r.status for r in emu.log.select(route="plans.optimize")] == [200, 409, 200]
        assert len(emu.state.operations) == 2


@pytest.mark.asyncio
async def test_emulated_live_edit_applies_its_changes_on_a_clean_exit() -> None:
    async with running() as (emu, client):
        plan_id, stops = await optimized_plan(client)
        emu.log.clear()
        async with client.plans.live_edit(plan_id) as edit:
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
async def test_emulated_live_edit_reoptimizes_after_a_lone_deletion_and_saves_without_distributing() -> None:
    async with running() as (emu, client):
        plan_id, stops = await optimized_plan(client)
        emu.log.clear()
        async with client.plans.live_edit(plan_id, distribute=False) as edit:
            await edit.delete(stops[2])
        assert [r.route for r in emu.log] == ["stops.live_delete", "plans.reoptimize", "plans.save"]
        assert edit.plan is None
        assert edit.operation is not None
        assert stops[2] not in {s.id for s in await client.stops.list(plan_id).collect()}


@pytest.mark.asyncio
async def test_emulated_live_edit_applies_nothing_when_the_block_raises() -> None:
    async with running() as (emu, client):
        plan_id, stops = await optimized_plan(client)
        emu.log.clear()
        edits: list[LiveEdit] = []

        async def change_then_fail() -> None:
            async with client.plans.live_edit(plan_id) as edit:
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
async def test_emulated_live_edit_refuses_stops_of_another_plan() -> None:
    async with running() as (emu, client):
        plan_id, _ = await optimized_plan(client)
        other = await plan_with_stops(client, 1)
        [other_stop] = await client.stops.list(other).collect()
        emu.log.clear()

        async def delete_foreign_stop() -> None:
            async with client.plans.live_edit(plan_id) as edit:
                await edit.delete(other_stop.id)

        with pytest.raises(ValidationError):
            await delete_foreign_stop()
        assert len(emu.log) == 0
