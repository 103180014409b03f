"""``RoutePlanningClient(..., rate_limit_backend=RedisBackend(...))`` against the emulator, in one process."""

from __future__ import annotations

import asyncio
import datetime
import random

import pytest
import redis.asyncio as redis_asyncio
from redis_server import RedisServer, free_port

from route_planning_async import Category, ConfigurationError, RateLimits, RetryPolicy, Rule
from route_planning_async.emulator import Emulator
from route_planning_async.redis import RedisBackend, RedisBackendError

pytestmark = pytest.mark.redis

STARTS = datetime.date(2030, 1, 7)


@pytest.mark.asyncio
async def test_the_client_fails_closed_when_redis_is_unreachable(key_prefix: str) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    async with Emulator(speedup=100, tls=False) as emu:
        async with RedisBackend(dead, key_prefix=key_prefix, timeout=0.5) as backend:
            async with emu.client(rate_limit_backend=backend) as client:
                with pytest.raises(RedisBackendError, match="nothing was sent"):
                    await client.plans.create(title="never sent", starts=STARTS)
        assert len(emu.log) == 0


@pytest.mark.asyncio
async def test_a_client_whose_attempts_may_outlast_the_lease_is_refused(
    redis_server: RedisServer, key_prefix: str
) -> None:
    async with Emulator(speedup=100, tls=False) as emu:
        async with RedisBackend(redis_server.url, key_prefix=key_prefix, lease=30.0) as backend:
            # The client's default timeout (60 s) outlasts a slot of 30 s: refused before anything is sent.
            lasts = r"last 30 s \(its lease\), no longer than the client's timeout of 60 s"
            with pytest.raises(ConfigurationError, match=lasts):
                emu.client(rate_limit_backend=backend)
            async with emu.client(rate_limit_backend=backend, timeout=10) as client:
                await client.plans.create(title="within the lease", starts=STARTS)
        assert len(emu.log) == 1


@pytest.mark.asyncio
async def test_clients_sharing_a_backend_prefix_share_the_limits(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    async with Emulator(speedup=20, tls=False) as emu:
        async with (
            RedisBackend(redis_server.url, key_prefix=key_prefix) as first_backend,
            RedisBackend(redis_server.url, key_prefix=key_prefix) as second_backend,
            emu.client(rate_limit_backend=first_backend) as first,
            emu.client(rate_limit_backend=second_backend) as second,
        ):
            plan = await first.plans.create(title="shared", starts=STARTS)
            await asyncio.gather(
                *(client.plans.get(plan.id) for client in (first, second) for _ in range(15))
            )
        assert emu.log.rejected() == []
        read = emu.rule("read")
        # Two clients, each allowed the whole limit alone, together still keep to it.
        assert emu.max_in_window("read") == read.amount
        slots, _, _, _ = first_backend.keys("read")
        assert await redis_client.zcard(slots) > 0


@pytest.mark.asyncio
async def test_a_client_with_other_limits_on_the_prefix_sends_nothing(
    redis_server: RedisServer, key_prefix: str
) -> None:
    async with Emulator(speedup=20, tls=False) as emu:
        async with (
            RedisBackend(redis_server.url, key_prefix=key_prefix) as first_backend,
            RedisBackend(redis_server.url, key_prefix=key_prefix) as second_backend,
            emu.client(rate_limit_backend=first_backend) as first,
            emu.client(
                rate_limit_backend=second_backend,
                rate_limits=RateLimits.default().replace(Category.READ, Rule(90, 1.0)),
            ) as second,
        ):
            plan = await first.plans.get((await first.plans.create(title="first", starts=STARTS)).id)
            sent = len(emu.log)
            # The emulator's client runs its default limits 20 times faster: 10 per 0.05 s.
            with pytest.raises(
                ConfigurationError, match=r"\(90 requests per 1\.0 s\) differ .*\(10 requests per 0\.05 s\)"
            ):
                await second.plans.get(plan.id)
            assert len(emu.log) == sent


@pytest.mark.asyncio
async def test_a_429_to_one_client_slows_the_others(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # The service allows 2 writes per window; the clients believe 5 (contract default).
    server_limits = RateLimits.default().replace(Category.WRITE, Rule(2, 1.0))
    retry = RetryPolicy(base=0.01, cap=0.05, rng=random.Random(3))
    async with Emulator(speedup=5, tls=False, rate_limits=server_limits) as emu:
        limits = RateLimits.default().scaled(5)
        async with (
            RedisBackend(redis_server.url, key_prefix=key_prefix) as first_backend,
            RedisBackend(redis_server.url, key_prefix=key_prefix) as second_backend,
            emu.client(rate_limit_backend=first_backend, rate_limits=limits, retry=retry) as first,
            emu.client(rate_limit_backend=second_backend, rate_limits=limits, retry=retry) as second,
        ):
            for index in range(4):
                await first.plans.create(title=f"plan {index}", starts=STARTS)
            assert first.stats[Category.WRITE].rate_limited >= 1
            _, _, penalty, _ = first_backend.keys("write")
            shared = float(await redis_client.hget(penalty, "factor") or 1.0)
            assert shared < 1.0
            # With the service's window emptied, the other client writes without a 429, yet at
            # the rate the first one's 429 set for both (it lasts while traffic does, and ten
            # periods, 2 s, after). Emptying the window instead of waiting 0.2 s for it keeps
            # this well inside those 2 s on a loaded machine.
            emu.limiter.reset()
            await second.plans.create(title="from the other process", starts=STARTS)
            assert second.stats[Category.WRITE].rate_limited == 0
            assert second.stats[Category.WRITE].rate_factor == pytest.approx(shared)
