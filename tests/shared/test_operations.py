"""Waiting for operations (``client.operations.wait`` / ``wait_many``), on virtual time.

Every test runs on the virtual-time loop with the scripted transport: the
scheduler's clock is the loop's, so poll delays, the share cap and deadlines
take no real time and their schedules are asserted exactly. Two tests call
``_operations`` directly with a clock of their own, to show that every reading
and every sleep goes through the clock given.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from support.fake_transport import Answer, FakeService, answer
from support.fixtures import load
from support.virtual_time import run_virtual, virtual_loop

from route_planning_async import (
    Operation,
    OperationCanceledError,
    OperationTimeoutError,
    OptimizationFailedError,
    OptimizationFailure,
    OptimizationSuccess,
    RateLimits,
    RetryPolicy,
    RoutePlanningClient,
    Rule,
    ValidationError,
)
from route_planning_async._core import Request
from route_planning_async._operations import (
    CONTRACT_READ_RATE,
    DEFAULT_MAX_POLL_INTERVAL,
    DEFAULT_POLL_INTERVAL,
    read_rate,
    wait,
    wait_many,
)
from route_planning_async.v0_2b._converter import structure

BASE = "https://api.example.test/v0.2b"
READ_10_PER_SECOND = RateLimits.default().replace("read", Rule(10, 1.0))


def operation_json(
    name: str = "o1",
    *,
    done: bool = False,
    started: float = 1795420000,
    result: dict[str, Any] | None = None,
    canceled: bool = False,
) -> dict[str, Any]:
    body: dict[str, Any] = load("operation_running.json")
    body["id"] = f"operations/{name}"
    body["done"] = done
    body["metadata"] = {**body["metadata"], "startedAt": started, "canceled": canceled}
    if done and result is None:
        result = {"numOptimizedStops": 3, "skippedStops": []}
    body["result"] = result
    return body


def failure_json(name: str) -> dict[str, Any]:
    return operation_json(name, done=True, result={"code": "no_drivers_available", "message": "No drivers."})


def operation(name: str = "o1", **fields: Any) -> Operation:
    return structure(operation_json(name, **fields), Operation)


def done_from(finish: float, name: str) -> Answer:
    """An answer that is the running operation before ``finish`` (loop time), done from then on."""

    def respond(request: Request) -> Any:
        return answer(operation_json(name, done=virtual_loop().time() >= finish))

    return respond


class TimedService(FakeService):
    """A scripted service that also notes the loop time of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: list[tuple[float, str]] = []

    async def send(self, request: Any) -> Any:
        self.arrivals.append((asyncio.get_running_loop().time(), request.path))
        return await super().send(request)

    def times(self, path: str | None = None) -> list[float]:
        return [t for t, p in self.arrivals if path is None or p == path]


@asynccontextmanager
async def opened(
    service: FakeService, limits: RateLimits | None = None
) -> AsyncIterator[RoutePlanningClient]:
    async with RoutePlanningClient(
        "test-key",
        base_url=BASE,
        transport=service,
        rate_limits=limits or RateLimits.unlimited(),
        retry=RetryPolicy(attempts=1),
    ) as client:
        yield client
    service.assert_done()


def on_client(
    service: FakeService,
    body: Callable[[RoutePlanningClient], Awaitable[Any]],
    limits: RateLimits | None = None,
) -> Any:
    async def main() -> Any:
        async with opened(service, limits) as client:
            return await body(client)

    return run_virtual(main)


def now() -> float:
    return virtual_loop().time()


async def drain(operations: AsyncIterator[Operation]) -> list[Operation]:
    return [item async for item in operations]


# wait ------------------------------------------------------------------------------------


def test_wait_returns_a_finished_operation_without_a_request() -> None:
    service = TimedService()
    done = operation(done=True)
    result = on_client(service, lambda client: client.operations.wait(done))
    assert result is done
    assert isinstance(result.result, OptimizationSuccess)
    assert service.arrivals == []


def test_wait_fetches_an_id_then_polls_with_a_delay_that_grows_to_its_cap() -> None:
    service = TimedService()
    running = answer(operation_json("o1"))
    service.on("GET", "/operations/o1", *[running] * 10, answer(operation_json("o1", done=True)))

    async def body(client: RoutePlanningClient) -> Operation:
        return await client.operations.wait("operations/o1")

    finished = on_client(service, body)
    assert finished.done
    assert (DEFAULT_POLL_INTERVAL, DEFAULT_MAX_POLL_INTERVAL) == (1.0, 15.0)
    # Fetched at once, then after 1, 1.5, 2.25, 3.375, 5.0625, 7.59375, 11.390625, then 15, 15, ...
    expected = [0.0, 1.0, 2.5, 4.75, 8.125, 13.1875, 20.78125, 32.171875, 47.171875, 62.171875, 77.171875]
    assert service.times() == pytest.approx(expected)


def test_wait_polls_an_operation_it_is_given_after_the_first_interval() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", answer(operation_json()), answer(operation_json(done=True)))
    result = on_client(
        service, lambda client: client.operations.wait(operation(), poll_interval=0.5, max_poll_interval=0.6)
    )
    assert result.done
    assert service.times() == pytest.approx([0.5, 1.1])  # 0.5, then 0.75 capped to 0.6


def test_wait_accepts_a_bare_operation_id() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", answer(operation_json(done=True)))
    assert on_client(service, lambda client: client.operations.wait("o1")).id == "operations/o1"


def test_wait_raises_for_a_failed_optimization() -> None:
    service = TimedService()
    service.on("GET", "/operations/o2", answer(operation_json("o2")), answer(failure_json("o2")))
    with pytest.raises(OptimizationFailedError) as caught:
        on_client(service, lambda client: client.operations.wait("operations/o2"))
    assert caught.value.code == "no_drivers_available"
    assert caught.value.message == "No drivers."
    assert caught.value.operation.id == "operations/o2"
    assert isinstance(caught.value.operation.result, OptimizationFailure)
    assert service.times() == pytest.approx([0.0, 1.0])


def test_wait_raises_for_a_canceled_operation() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", answer(operation_json()), answer(operation_json(canceled=True)))
    with pytest.raises(OperationCanceledError) as caught:
        on_client(service, lambda client: client.operations.wait(operation()))
    assert caught.value.operation.metadata.canceled
    assert len(service.arrivals) == 2


def test_wait_times_out_at_exactly_its_timeout() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> float:
        with pytest.raises(OperationTimeoutError) as caught:
            await client.operations.wait(operation(), timeout=10)
        assert caught.value.operation_id == "operations/o1"
        assert caught.value.timeout == 10
        return now()

    # Polls at 1, 2.5, 4.75 and 8.125; the next (13.1875) is past the deadline.
    assert on_client(service, body) == pytest.approx(10.0)
    assert service.times() == pytest.approx([1.0, 2.5, 4.75, 8.125])


def test_a_timeout_cancels_a_poll_in_flight() -> None:
    service = TimedService()
    service.latency = 3.0
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> float:
        with pytest.raises(OperationTimeoutError):
            await client.operations.wait("o1", timeout=5)
        return now()

    # Fetched at 0 (answered at 3), polled at 4 (would be answered at 7): it ends at 5.
    assert on_client(service, body) == pytest.approx(5.0)
    assert service.times() == pytest.approx([0.0, 4.0])


def test_cancelling_wait_stops_polling() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> None:
        task = asyncio.create_task(client.operations.wait(operation()))
        await asyncio.sleep(10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(service.arrivals) == 4  # at 1, 2.5, 4.75 and 8.125
        await asyncio.sleep(100)
        assert len(service.arrivals) == 4

    on_client(service, body)


@pytest.mark.parametrize(
    "arguments",
    [
        {"poll_interval": 0},
        {"poll_interval": 2, "max_poll_interval": 1},
        {"timeout": -1},
        {"operation": "operations/../x"},
        {"operation": 123},
        {"operation": None},
        {"operation": b"abc"},
    ],
)
def test_wait_checks_its_arguments(arguments: dict[str, Any]) -> None:
    service = TimedService()
    target = arguments.pop("operation", "operations/x")
    with pytest.raises(ValidationError):
        on_client(service, lambda client: client.operations.wait(target, **arguments))
    assert service.arrivals == []


def test_a_misspelt_option_is_refused_like_an_unknown_keyword() -> None:
    service = TimedService()
    with pytest.raises(TypeError, match="wait\\(\\) got an unexpected keyword argument 'poll_intervall'"):
        on_client(service, lambda client: client.operations.wait("o1", poll_intervall=2))  # type: ignore[call-arg]

    async def many(client: RoutePlanningClient) -> None:
        await drain(client.operations.wait_many(["o1"], readshare=0.2))  # type: ignore[call-arg]

    with pytest.raises(TypeError, match="wait_many\\(\\) got an unexpected keyword argument 'readshare'"):
        on_client(service, many)
    assert service.arrivals == []


# wait_many -------------------------------------------------------------------------------


def test_read_rate_is_the_read_categorys_sustained_rate() -> None:
    assert read_rate(RateLimits.default()) == 10.0
    assert read_rate(RateLimits.default().replace("read", Rule(10, 60.0), Rule(2, 1.0))) == pytest.approx(
        1 / 6
    )
    assert read_rate(RateLimits.unlimited()) == CONTRACT_READ_RATE == 10.0


def test_wait_many_yields_in_completion_order() -> None:
    finish = {"o1": 8.0, "o2": 2.0, "o3": 6.0, "o4": 4.0}
    service = TimedService()
    for name, at in finish.items():
        service.on("GET", f"/operations/{name}", forever=done_from(at, name))
    # Operations and ids mixed, as they come from optimize calls or from storage.
    given: list[Operation | str] = [operation("o1"), "operations/o2", operation("o3"), "o4"]

    async def body(client: RoutePlanningClient) -> list[tuple[str, float]]:
        iterator = client.operations.wait_many(given, poll_interval=1, max_poll_interval=1)
        return [(finished.id, now()) async for finished in iterator]

    seen = on_client(service, body)
    # Each one is seen at its first poll after it finished: the loop polls every
    # operation once a second, one poll per 0.2 s (half the contract's 10 reads per second).
    assert seen == [
        ("operations/o2", pytest.approx(2.2)),
        ("operations/o4", pytest.approx(4.6)),
        ("operations/o3", pytest.approx(6.4)),
        ("operations/o1", pytest.approx(8.0)),
    ]
    gaps = [b - a for a, b in itertools.pairwise(service.times())]
    assert min(gaps) == pytest.approx(0.2)


def test_wait_many_keeps_to_its_share_of_the_read_budget() -> None:
    # Reads: 10 per second; a share of 0.25 is one poll every 0.4 s, however short the interval.
    finish = {"o1": 1.0, "o2": 2.0, "o3": 3.0}
    service = TimedService()
    for name, at in finish.items():
        service.on("GET", f"/operations/{name}", forever=done_from(at, name))

    async def body(client: RoutePlanningClient) -> list[tuple[str, float]]:
        iterator = client.operations.wait_many(
            [operation(name) for name in finish], read_share=0.25, poll_interval=0.001
        )
        return [(finished.id, now()) async for finished in iterator]

    seen = on_client(service, body, READ_10_PER_SECOND)
    assert service.times() == pytest.approx([0.001 + 0.4 * k for k in range(9)])
    assert [p.removeprefix("/operations/") for _, p in service.arrivals] == [
        "o1", "o2", "o3", "o1", "o2", "o3", "o2", "o3", "o3",
    ]  # fmt: skip
    assert seen == [
        ("operations/o1", pytest.approx(1.201)),
        ("operations/o2", pytest.approx(2.401)),
        ("operations/o3", pytest.approx(3.201)),
    ]


def test_wait_many_polls_the_oldest_operation_first() -> None:
    older, newer = operation("o1", started=1795400000), operation("o2", started=1795420000)
    service = TimedService()
    service.on("GET", "/operations/o1", answer(operation_json("o1", done=True)))

    async def body(client: RoutePlanningClient) -> Operation:
        # The newer one is given first; both are due at once, so the older one is polled first.
        async for finished in client.operations.wait_many([newer, older]):
            return finished  # leaving the loop stops the polling: o2 is never asked for
        raise AssertionError("nothing was yielded")

    assert on_client(service, body).id == "operations/o1"
    assert service.times() == [pytest.approx(1.0)]
    assert [path for _, path in service.arrivals] == ["/operations/o1"]


def test_wait_many_shares_a_tight_budget_round_robin() -> None:
    # Reads: 10 per second; a share of 0.2 is 2 polls per second for 8 operations that
    # each want one every 10 ms.
    names = [f"o{i}" for i in range(8)]
    service = TimedService()
    for name in names:
        service.on("GET", f"/operations/{name}", forever=answer(operation_json(name)))

    async def body(client: RoutePlanningClient) -> float:
        iterator = client.operations.wait_many(
            [operation(name) for name in names],
            read_share=0.2,
            poll_interval=0.01,
            max_poll_interval=0.01,
            timeout=6,
        )
        with pytest.raises(OperationTimeoutError) as caught:
            await drain(iterator)
        assert caught.value.operation_id in {f"operations/{name}" for name in names}
        return now()

    assert on_client(service, body, READ_10_PER_SECOND) == pytest.approx(6.0)
    assert service.times() == pytest.approx([0.01 + 0.5 * k for k in range(12)])
    polled = [p.removeprefix("/operations/") for _, p in service.arrivals]
    assert polled == [*names, *names[:4]]


def test_wait_many_yields_finished_and_failed_operations() -> None:
    instant = operation("o1", done=True)
    service = TimedService()
    service.on("GET", "/operations/o2", answer(failure_json("o2")))

    async def body(client: RoutePlanningClient) -> list[Operation]:
        return await drain(client.operations.wait_many([instant, operation("o2"), instant.id]))

    seen = on_client(service, body)
    assert [op.id for op in seen] == ["operations/o1", "operations/o2"]
    assert seen[0] is instant  # already finished: yielded first, never fetched
    assert isinstance(seen[1].result, OptimizationFailure)
    assert [p for _, p in service.arrivals] == ["/operations/o2"]


def test_wait_many_can_raise_at_a_failure_or_a_cancellation() -> None:
    service = TimedService()
    service.on("GET", "/operations/o2", answer(failure_json("o2")))
    service.on("GET", "/operations/o3", answer(operation_json("o3", canceled=True)))

    async def body(client: RoutePlanningClient) -> None:
        with pytest.raises(OptimizationFailedError) as failed:
            await drain(client.operations.wait_many([operation("o2")], raise_on_failure=True))
        assert failed.value.code == "no_drivers_available"
        with pytest.raises(OperationCanceledError):
            await drain(client.operations.wait_many(["o3"], raise_on_failure=True))

    on_client(service, body)


def test_wait_many_times_out_at_exactly_its_timeout() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> float:
        iterator = client.operations.wait_many(
            [operation()], timeout=3.5, poll_interval=1, max_poll_interval=1
        )
        with pytest.raises(OperationTimeoutError) as caught:
            await drain(iterator)
        assert caught.value.operation_id == "operations/o1"
        assert caught.value.timeout == 3.5
        return now()

    assert on_client(service, body) == pytest.approx(3.5)
    assert service.times() == pytest.approx([1.0, 2.0, 3.0])


@pytest.mark.parametrize(
    "options",
    [{"read_share": 0.0}, {"read_share": 1.5}, {"poll_interval": -1}, {"timeout": -0.5}],
)
def test_wait_many_checks_its_options_when_the_iteration_starts(options: dict[str, Any]) -> None:
    service = TimedService()

    async def body(client: RoutePlanningClient) -> None:
        iterator = client.operations.wait_many(["o1"], **options)
        with pytest.raises(ValidationError):
            await drain(iterator)

    on_client(service, body)
    assert service.arrivals == []


# The clock given, not the loop's -----------------------------------------------------------


class StepClock:
    """A clock of its own: sleeping moves it at once; the loop's time never moves."""

    def __init__(self) -> None:
        self.time = 100.0
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.time += seconds
        await asyncio.sleep(0)


class ScriptedReader:
    """An :class:`OperationReader` answering from a script, noting the clock at each read."""

    def __init__(self, clock: StepClock, script: dict[str, list[Operation]]) -> None:
        self._clock = clock
        self._script = {name: iter(answers) for name, answers in script.items()}
        self.reads: list[tuple[float, str]] = []

    async def get(self, operation_id: str) -> Operation:
        self.reads.append((self._clock.now(), operation_id))
        return next(self._script[operation_id])


def script(name: str, running: int) -> Iterator[Operation]:
    yield from [operation(name)] * running
    yield operation(name, done=True)


def test_wait_sleeps_on_the_clock_it_is_given() -> None:
    clock = StepClock()
    reader = ScriptedReader(clock, {"operations/o1": list(script("o1", 9))})

    async def main() -> tuple[Operation, float]:
        return await wait(reader, "o1", clock=clock), now()

    finished, loop_time = run_virtual(main)
    assert finished.done
    assert loop_time == 0.0
    assert clock.sleeps == [1.0, 1.5, 2.25, 3.375, 5.0625, 7.59375, 11.390625, 15.0, 15.0]
    assert [t for t, _ in reader.reads] == [100.0, 101.0, 102.5, 104.75, 108.125, 113.1875, 120.78125,
                                            132.171875, 147.171875, 162.171875]  # fmt: skip


def test_wait_many_paces_its_polls_on_the_clock_it_is_given() -> None:
    clock = StepClock()
    reader = ScriptedReader(
        clock, {"operations/o1": list(script("o1", 2)), "operations/o2": list(script("o2", 1))}
    )

    async def main() -> tuple[list[str], float]:
        iterator = wait_many(
            reader,
            ["o1", "o2"],
            clock=clock,
            limits=READ_10_PER_SECOND,
            read_share=0.5,
            poll_interval=0.01,
        )
        return [finished.id async for finished in iterator], now()

    finished, loop_time = run_virtual(main)
    assert finished == ["operations/o2", "operations/o1"]
    assert loop_time == 0.0
    # 5 polls per second: one every 0.2 s of the clock, round robin.
    assert reader.reads == [
        (100.0, "operations/o1"),
        (pytest.approx(100.2), "operations/o2"),
        (pytest.approx(100.4), "operations/o1"),
        (pytest.approx(100.6), "operations/o2"),
        (pytest.approx(100.8), "operations/o1"),
    ]


@pytest.mark.parametrize("operation", [123, None, b"abc"])
def test_wait_many_refuses_an_operation_that_is_not_an_id_or_an_operation(operation: object) -> None:
    service = TimedService()

    async def body(client: RoutePlanningClient) -> None:
        iterator = client.operations.wait_many(["o1", operation])  # type: ignore[list-item]
        with pytest.raises(ValidationError, match="operation"):
            await drain(iterator)

    on_client(service, body)
    assert service.arrivals == []
