"""The backend's three kinds of slot (in flight, admitted, refused), kept apart; what a lane reads.

The in-memory backend here; the Redis backend keeps the same contract
(``tests/redis/test_redis_slots.py``). Everything runs on the scheduler's clock
readings given by hand, or in virtual time.
"""

from __future__ import annotations

import asyncio
import math

import pytest

from route_planning_async._core import Request
from route_planning_async._rate_limits._backends import Grant, InMemoryBackend, WindowCount
from route_planning_async._rate_limits._limits import Category, Rule

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


def test_acquire_counts_a_slot_as_its_window_does_at_the_boundary() -> None:
    """``acquire`` counts the window ``window`` reads, ``(now - period, now]``, as a service
    counts its own: where ``anchor + period`` rounds to ``now`` while ``now - period`` stays
    below the anchor, the slot still counts, and the wait is the next float."""

    async def main() -> None:
        backend = InMemoryBackend()
        rules = (Rule(1, 1.0),)
        anchor, now = 63.05431441814424, 64.05431441814423
        assert anchor + 1.0 == now
        assert anchor > now - 1.0
        grant = await backend.acquire("k", rules, 1, anchor)
        assert isinstance(grant, Grant)
        await backend.release(grant, anchor)
        assert await backend.window("k", rules, now) == (WindowCount(1, 0, 0),)
        wait = await backend.acquire("k", rules, 1, now)
        assert wait == math.ulp(now)
        assert isinstance(await backend.acquire("k", rules, 1, now + wait), Grant)

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
