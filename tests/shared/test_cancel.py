"""Operation cancel (``client.operations.cancel``) and ``cancel_on_timeout`` of every wait.

The waits run on the virtual-time loop with the scripted transport (so the
cancel comes exactly at the deadline); the last tests run against the emulator,
whose operations really end canceled.
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import pytest
from support.fake_transport import answer
from test_operations import TimedService, drain, now, on_client, operation, operation_json

import route_planning_async as rp
from route_planning_async import OperationTimeoutError, RoutePlanningClient, ValidationError
from route_planning_async._operations import Polling, poll_until_finished
from route_planning_async.emulator import Emulator

ALREADY_DONE = answer(
    {
        "message": "The operation cannot be canceled because it is already done.",
        "code": "operation_already_done",
    },
    status=409,
)


def canceled_json(name: str = "o1") -> dict[str, Any]:
    body = operation_json(name, done=True)
    body["metadata"]["canceled"] = True
    body["result"] = None
    return body


def test_wait_cancels_the_operation_when_it_times_out() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", forever=answer(operation_json()))
    service.on("POST", "/operations/o1:cancel", answer(canceled_json()))

    async def body(client: RoutePlanningClient) -> float:
        with pytest.raises(OperationTimeoutError) as caught:
            await client.operations.wait(operation(), timeout=10, cancel_on_timeout=True)
        assert caught.value.__notes__ == ["operations/o1 was canceled on the service"]
        return now()

    assert on_client(service, body) == pytest.approx(10.0)
    # The polls of test_wait_times_out_at_exactly_its_timeout, then the cancel at the deadline.
    assert service.times("/operations/o1") == pytest.approx([1.0, 2.5, 4.75, 8.125])
    assert service.times("/operations/o1:cancel") == pytest.approx([10.0])
    assert service.arrivals[-1][1] == "/operations/o1:cancel"


def test_without_cancel_on_timeout_the_operation_goes_on() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", forever=answer(operation_json()))

    async def body(client: RoutePlanningClient) -> None:
        with pytest.raises(OperationTimeoutError) as caught:
            await client.operations.wait(operation(), timeout=3)
        assert not getattr(caught.value, "__notes__", [])

    on_client(service, body)
    assert all(path == "/operations/o1" for _, path in service.arrivals)


def test_an_operation_that_finished_first_is_noted_and_the_timeout_still_raised() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", forever=answer(operation_json()))
    service.on("POST", "/operations/o1:cancel", ALREADY_DONE)

    async def body(client: RoutePlanningClient) -> None:
        with pytest.raises(OperationTimeoutError) as caught:
            await client.operations.wait("o1", timeout=2, cancel_on_timeout=True)
        assert caught.value.__notes__ == [
            "operations/o1 was not canceled: it finished first (operation_already_done)"
        ]

    on_client(service, body)


def test_wait_many_cancels_every_operation_still_pending() -> None:
    service = TimedService()
    service.on("GET", "/operations/o1", answer(operation_json("o1", done=True)))
    service.on("GET", "/operations/o2", forever=answer(operation_json("o2")))
    service.on("GET", "/operations/o3", forever=answer(operation_json("o3")))
    service.on("POST", "/operations/o2:cancel", answer(canceled_json("o2")))
    service.on("POST", "/operations/o3:cancel", ALREADY_DONE)

    async def body(client: RoutePlanningClient) -> list[str]:
        seen: list[str] = []
        iterator = client.operations.wait_many(
            ["o1", "o2", "o3"], timeout=4, poll_interval=1, max_poll_interval=1, cancel_on_timeout=True
        )

        async def collect() -> None:
            async for finished in iterator:
                seen.append(finished.id)

        with pytest.raises(OperationTimeoutError) as caught:
            await collect()
        assert caught.value.__notes__ == [
            "operations/o2 was canceled on the service",
            "operations/o3 was not canceled: it finished first (operation_already_done)",
        ]
        return seen

    assert on_client(service, body) == ["operations/o1"]
    assert service.times("/operations/o2:cancel") == pytest.approx([4.0])
    assert service.times("/operations/o3:cancel") == pytest.approx([4.0])


def test_optimize_and_wait_cancels_its_operation_on_timeout() -> None:
    service = TimedService()
    service.on("POST", "/plans/p1:optimize", answer(operation_json()))
    service.on("GET", "/operations/o1", forever=answer(operation_json()))
    service.on("POST", "/operations/o1:cancel", answer(canceled_json()))

    async def body(client: RoutePlanningClient) -> float:
        with pytest.raises(OperationTimeoutError):
            await client.plans.optimize_and_wait("p1", timeout=3, cancel_on_timeout=True)
        return now()

    assert on_client(service, body) == pytest.approx(3.0)
    assert service.times("/operations/o1:cancel") == pytest.approx([3.0])
    assert service.arrivals[-1][1] == "/operations/o1:cancel"


def test_cancel_on_timeout_needs_a_reader_that_can_cancel() -> None:
    class ReadOnly:
        async def get(self, operation_id: str) -> rp.Operation:
            raise AssertionError("not polled")

    class Clock:
        def now(self) -> float:
            return 0.0

        async def sleep(self, seconds: float) -> None:
            raise AssertionError("not slept")

    async def main() -> None:
        with pytest.raises(ValidationError) as caught:
            await poll_until_finished(
                ReadOnly(), "o1", clock=Clock(), polling=Polling(1.0, 1.0, 1.0, cancel_on_timeout=True)
            )
        assert caught.value.field == "cancel_on_timeout"

    asyncio.run(main())


def test_wait_many_refuses_a_bad_option_before_polling() -> None:
    service = TimedService()

    async def body(client: RoutePlanningClient) -> None:
        with pytest.raises(TypeError, match="cancel_when_late"):
            await drain(client.operations.wait_many(["o1"], cancel_when_late=True))  # type: ignore[call-arg]

    on_client(service, body)
    assert service.arrivals == []


# Against the emulator ---------------------------------------------------------------------


def stops(count: int) -> list[rp.StopInput]:
    return [
        rp.StopInput(address=rp.AddressInput(address_line_one=f"{i} Cancel Road", city="London"))
        for i in range(count)
    ]


@pytest.mark.asyncio
async def test_an_emulated_optimization_is_canceled_and_the_plan_is_writable_again() -> None:
    # A slow optimization (60 s of emulated time per plan) at a speed-up of 50: 1.2 s real at most.
    async with (
        Emulator(
            speedup=50,
            rate_limits=rp.RateLimits.unlimited(),
            instant_optimization_max_stops=0,
            optimization_delay=60.0,
        ) as emu,
        emu.client() as client,
    ):
        plan = await client.plans.create(
            title="Cancel", starts=datetime.date(2026, 11, 23), drivers=["driver-ana"]
        )
        await client.stops.import_batch(plan.id, stops(3))
        running = await client.plans.optimize(plan.id)
        assert not running.done
        canceled = await client.operations.cancel(running)
        assert canceled.metadata.canceled
        assert canceled.done
        assert canceled.result is None
        again = await client.plans.get(plan.id)
        assert again.writable
        with pytest.raises(rp.OperationCanceledError):
            await client.operations.wait(canceled.id)
        with pytest.raises(rp.ConflictError) as conflict:
            await client.operations.cancel(canceled.id)
        assert conflict.value.code == "operation_already_done"
        with pytest.raises(rp.NotFoundError):
            await client.operations.cancel("operations/nothing-here")
    assert emu.internal_errors == []


@pytest.mark.asyncio
async def test_an_emulated_wait_that_times_out_cancels_the_optimization() -> None:
    async with (
        Emulator(
            speedup=50,
            rate_limits=rp.RateLimits.unlimited(),
            instant_optimization_max_stops=0,
            optimization_delay=600.0,
        ) as emu,
        emu.client() as client,
    ):
        plan = await client.plans.create(
            title="Late", starts=datetime.date(2026, 11, 23), drivers=["driver-ana"]
        )
        await client.stops.import_batch(plan.id, stops(2))
        with pytest.raises(OperationTimeoutError) as caught:
            await client.plans.optimize_and_wait(
                plan.id, timeout=0.05, poll_interval=0.01, cancel_on_timeout=True
            )
        [note] = caught.value.__notes__
        assert note.endswith("was canceled on the service")
        operation = await client.operations.get(caught.value.operation_id)
        assert operation.metadata.canceled
        assert (await client.plans.get(plan.id)).writable
    assert emu.internal_errors == []
