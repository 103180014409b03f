"""The backend's three kinds of slot (in flight, admitted, refused), kept apart; what a lane reads.

The in-memory backend here; the Redis backend keeps the same contract
(``tests/redis/test_redis_slots.py``). Everything runs on the scheduler's clock
readings given by hand, or in virtual time.
"""

from __future__ import annotations

import asyncio
import logging
import random

import pytest
from support.limited_service import LimitedService, SlidingWindow
from support.virtual_time import run_virtual, virtual_loop

from route_planning_async._backends import Grant, InMemoryBackend, WindowCount
from route_planning_async._core import Request, Response
from route_planning_async._limits import Category, RateLimits, Rule
from route_planning_async._retry import RetryPolicy
from route_planning_async._scheduler import Scheduler

RULES = (Rule(10, 20.0), Rule(10, 60.0), Rule(100, 60.0, per="weight"))


async def granted(backend: InMemoryBackend, weight: int, now: float) -> Grant:
    grant = await backend.acquire("batch", RULES, weight, now)
    assert isinstance(grant, Grant)
    return grant


def test_each_kind_of_slot_is_counted_apart_in_each_window() -> None:
    async def main() -> None:
        backend = InMemoryBackend()
        assert await backend.window("batch", RULES, 0.0) == (WindowCount(0, 0, 0),) * 3
        assert await backend.window("batch", (), 0.0) == ()
        old = await granted(backend, 3, 0.0)
        admitted = await granted(backend, 4, 0.0)
        refused = await granted(backend, 5, 0.0)
        unanswered = await granted(backend, 6, 0.0)
        flying = await granted(backend, 7, 0.0)
        # Nothing answered yet: everything is in flight, in every window.
        assert await backend.window("batch", RULES, 0.0) == (WindowCount(0, 0, 5),) * 2 + (
            WindowCount(0, 0, 25),
        )
        await backend.release(old, 10.0)  # counts until 30 for the 20 s rule, 70 for the others
        await backend.release(admitted, 40.0)
        await backend.release(refused, 45.0, admitted=False)  # a 429
        await backend.release(unanswered, 30.0, extra=20.0, admitted=False)  # no answer: anchored at 50
        assert await backend.window("batch", RULES, 55.0) == (
            WindowCount(admitted=1, refused=2, in_flight=1),
            WindowCount(admitted=2, refused=2, in_flight=1),
            WindowCount(admitted=3 + 4, refused=5 + 6, in_flight=7),
        )
        # usage is the admitted cost alone.
        assert await backend.usage("batch", RULES, 55.0) == (1, 2, 7)
        # A slot stops counting when anchor + period is no longer later than now.
        assert await backend.window("batch", RULES[:1], 59.9) == (WindowCount(1, 2, 1),)
        assert await backend.window("batch", RULES[:1], 60.0) == (WindowCount(0, 2, 1),)
        assert await backend.window("batch", RULES[1:2], 70.0) == (WindowCount(1, 2, 1),)
        assert await backend.window("batch", RULES[1:2], 69.9) == (WindowCount(2, 2, 1),)
        # A cancelled slot was never sent: it counts nowhere.
        await backend.cancel(flying)
        assert await backend.window("batch", RULES, 55.0) == (
            WindowCount(1, 2, 0),
            WindowCount(2, 2, 0),
            WindowCount(7, 11, 0),
        )
        # Every kind counts when a request asks to be admitted: 18 of the 60 s window's
        # 100 stops are taken (3 + 4 + 5 + 6), so 83 more wait, 82 pass.
        assert not isinstance(await backend.acquire("batch", RULES[2:], 83, 55.0), Grant)
        assert isinstance(await backend.acquire("batch", RULES[2:], 82, 55.0), Grant)

    asyncio.run(main())


def test_processes_sharing_a_backend_see_each_other_s_slots_by_kind() -> None:
    async def main() -> None:
        shared = InMemoryBackend()
        rules = (Rule(10, 1.0),)
        first = await shared.acquire("read", rules, 1, 0.0)
        second = await shared.acquire("read", rules, 1, 0.0)
        third = await shared.acquire("read", rules, 1, 0.0)
        assert isinstance(first, Grant)
        assert isinstance(second, Grant)
        assert isinstance(third, Grant)
        await shared.release(first, 0.1)
        await shared.release(second, 0.1, admitted=False)
        assert await shared.window("read", rules, 0.2) == (WindowCount(admitted=1, refused=1, in_flight=1),)

    asyncio.run(main())


READ = Request("GET", "/plans/p1", Category.READ)


def test_a_429_reads_the_fleet_s_attempts_in_flight_as_its_own_not_as_a_busy_budget(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two processes sharing a backend are one user of the budget. The one refused had sent
    steadily but has little admitted in the window; the other has twenty in flight: the
    window is the fleet's, so the 429 cuts (the level had held: by half) rather than pausing
    for a budget others spent and sending again at the level refused."""
    limits = RateLimits.unlimited().replace(Category.READ, Rule(100, 2.0))
    held: asyncio.Future[None] | None = None
    refusals = iter([False, False, True])

    async def first_send(_: Request) -> Response:
        if next(refusals, False):
            return Response(429, {}, b"{}")
        return Response(200, {}, b"{}")

    async def second_send(_: Request) -> Response:
        assert held is not None
        await held
        return Response(200, {}, b"{}")

    async def slow_send(_: Request) -> Response:
        await asyncio.sleep(0.4)
        return Response(200, {}, b"{}")

    async def main() -> tuple[float, float]:
        nonlocal held
        held = asyncio.get_running_loop().create_future()
        backend = InMemoryBackend()
        first = Scheduler(limits, RetryPolicy(rng=random.Random(1)), backend=backend)
        second = Scheduler(limits, RetryPolicy(rng=random.Random(2)), backend=backend)
        loop = virtual_loop()
        # The other process's round trip is 0.4 s: at 50 a second, it may have 30 in flight
        # (one round trip at a time, with its headroom: the lane's docstring).
        await asyncio.gather(first.run(READ, first_send), second.run(READ, slow_send))  # t = 0
        await asyncio.sleep(1.5)
        await first.run(READ, first_send)  # t = 1.9: still sending steadily (within a period)
        await asyncio.sleep(0.6)
        flying = [asyncio.create_task(second.run(READ, second_send)) for _ in range(20)]
        await asyncio.sleep(0.5)  # t = 3.0: twenty of the other process's in flight
        assert loop.time() == pytest.approx(3.0)
        refused = asyncio.create_task(first.run(READ, first_send))
        await asyncio.sleep(0.01)
        learned = first.stats[Category.READ].rate_factor
        held.set_result(None)
        await asyncio.gather(refused, *flying)
        await first.aclose()
        await second.aclose()
        return learned, loop.time()

    with caplog.at_level(logging.INFO, logger="route_planning_async.scheduler"):
        learned, _ = run_virtual(main)
    assert not [record for record in caplog.records if "busy" in record.getMessage()]
    # Cut, not kept at the level refused: the level had held, so by half (the learner's
    # decrease, _learning.py); a busy pause would have kept it at 1.0.
    assert learned == pytest.approx(0.5)


def test_a_first_burst_s_cut_is_corrected_by_another_process_s_answers_in_flight() -> None:
    """Two processes sharing a backend burst into a service that admits 5 a second, where 10
    are configured. The other process's three attempts arrive first, and their answers take
    longer; the first 429 to this one comes while they are on their way, and the window then
    shows only this process's 2 admitted. Once they are in, the cut goes up to the 5 the
    service admitted (the other process has not seen the cut, so it cannot correct it)."""
    limits = RateLimits.unlimited().replace(Category.READ, Rule(10, 1.0))
    service = LimitedService([SlidingWindow(5, 1.0)], up=0.005, down=0.005)
    other_send = service.sender("other")

    async def slow_answer(request: Request) -> Response:
        response = await other_send(request)
        await asyncio.sleep(0.008)
        return response

    async def main() -> tuple[float, float]:
        backend = InMemoryBackend()
        this = Scheduler(limits, RetryPolicy(rng=random.Random(1)), backend=backend)
        other = Scheduler(limits, RetryPolicy(rng=random.Random(2)), backend=backend)
        flying = [asyncio.create_task(other.run(READ, slow_answer)) for _ in range(3)]
        await asyncio.sleep(0.001)
        burst = [asyncio.create_task(this.run(READ, service.send)) for _ in range(5)]
        await asyncio.sleep(0.0115)  # this process's first 429 is in: cut to what it saw
        cut = this.stats[Category.READ].rate_factor
        await asyncio.sleep(0.05)  # the other process's answers are in
        corrected = this.stats[Category.READ].rate_factor
        await asyncio.gather(*flying, *burst)
        await this.aclose()
        await other.aclose()
        return cut, corrected

    cut, corrected = run_virtual(main)
    assert [(a.source, a.admitted) for a in service.arrivals[:8]] == [("other", True)] * 3 + [
        ("client", True)
    ] * 2 + [("client", False)] * 3
    assert cut == pytest.approx(0.2)
    assert corrected == pytest.approx(0.5)


class BackendOf020:
    """A custom backend written to 0.2.0's contract: ``release`` takes no ``admitted``, and the
    methods added since (``claim_probe``, ``window``) are missing."""

    def __init__(self) -> None:
        self.inner = InMemoryBackend()

    async def acquire(self, key: str, rules: tuple[Rule, ...], weight: int, now: float) -> Grant | float:
        return await self.inner.acquire(key, rules, weight, now)

    async def release(self, grant: Grant, now: float, *, extra: float = 0.0) -> None:
        await self.inner.release(grant, now, extra=extra)

    async def cancel(self, grant: Grant) -> None:
        await self.inner.cancel(grant)

    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        return await self.inner.penalize(key, pause, factor, now)

    async def recover(self, key: str, factor: float) -> float:
        return await self.inner.recover(key, factor)

    async def usage(self, key: str, rules: tuple[Rule, ...], now: float) -> tuple[int, ...]:
        return await self.inner.usage(key, rules, now)


def test_a_backend_of_an_older_contract_is_refused_when_the_client_is_built() -> None:
    import route_planning_async as rp

    with pytest.raises(rp.ConfigurationError, match=r"BackendOf020 does not meet .*release\(\) .*admitted"):
        rp.RoutePlanningClient("key", rate_limit_backend=BackendOf020())  # type: ignore[arg-type]

    class Released(BackendOf020):
        async def release(
            self, grant: Grant, now: float, *, extra: float = 0.0, admitted: bool = True
        ) -> None:
            await self.inner.release(grant, now, extra=extra, admitted=admitted)

    with pytest.raises(rp.ConfigurationError, match=r"it has no claim_probe\(\) method"):
        rp.RoutePlanningClient("key", rate_limit_backend=Released())  # type: ignore[arg-type]
    rp.RoutePlanningClient("key", rate_limit_backend=InMemoryBackend())
