"""The Lua scripts of the Redis backend, against a real redis-server.

Each test uses its own key prefix on the shared server; times are short
windows (tenths of a second) so the whole file runs in a few seconds.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time

import pytest
import redis.asyncio as redis_asyncio
from redis_server import RedisServer

from route_planning_async import ConfigurationError
from route_planning_async._backends import Grant
from route_planning_async._limits import Rule
from route_planning_async.redis import RedisBackend, RedisBackendError

pytestmark = pytest.mark.redis


def max_in_window(events: list[tuple[float, int]], period: float, *, weighted: bool) -> int:
    """The most requests (or weight) with arrival times in any window ``(t - period, t]``."""
    events = sorted(events)
    best = total = start = 0
    for when, weight in events:
        total += weight if weighted else 1
        while events[start][0] <= when - period:
            total -= events[start][1] if weighted else 1
            start += 1
        best = max(best, total)
    return best


async def held(client: redis_asyncio.Redis, backend: RedisBackend, key: str) -> tuple[int, int]:
    """How many slots of ``key`` are in flight and anchored now."""
    slots, inflight, _ = backend.keys(key)
    return await client.zcard(inflight), await client.zcard(slots)


async def existing_keys(client: redis_asyncio.Redis, prefix: str) -> list[bytes]:
    """The keys of one prefix that exist now."""
    return sorted([key async for key in client.scan_iter(match=f"{{{prefix}:*")])


def test_configuration_is_checked(redis_server: RedisServer) -> None:
    with pytest.raises(ConfigurationError, match="key_prefix"):
        RedisBackend(redis_server.url, key_prefix="")
    with pytest.raises(ConfigurationError, match="lease"):
        RedisBackend(redis_server.url, key_prefix="p", lease=0)
    with pytest.raises(ConfigurationError, match="timeout"):
        RedisBackend(redis_server.url, key_prefix="p", timeout=-1)


def test_repr_names_the_server_but_no_password(redis_server: RedisServer) -> None:
    backend = RedisBackend(f"redis://:s3cret@127.0.0.1:{redis_server.port}/2", key_prefix="team")
    assert repr(backend) == f"<RedisBackend 127.0.0.1:{redis_server.port}/2 key_prefix='team'>"
    assert "s3cret" not in repr(backend)


@pytest.mark.asyncio
async def test_many_connections_never_exceed_any_rule_in_any_window(
    redis_server: RedisServer, key_prefix: str
) -> None:
    # Three rules of one category, weighted requests, 24 tasks over 6 connections.
    rules = [Rule(5, 0.2), Rule(8, 0.4), Rule(20, 0.4, per="weight")]
    rng = random.Random(1234)
    arrivals: list[tuple[float, int]] = []
    backends = [RedisBackend(redis_server.url, key_prefix=key_prefix) for _ in range(6)]
    deadline = time.monotonic() + 1.6

    async def worker(backend: RedisBackend, seed: int) -> None:
        local = random.Random(seed)
        while time.monotonic() < deadline:
            weight = local.randint(1, 5)
            result = await backend.acquire("batch", rules, weight, 0.0)
            if not isinstance(result, Grant):
                await asyncio.sleep(0.05 if math.isinf(result) else result)
                continue
            # The "service" sees the request somewhere between admission and answer.
            await asyncio.sleep(local.uniform(0, 0.004))
            arrivals.append((time.monotonic(), weight))
            await asyncio.sleep(local.uniform(0, 0.004))
            await backend.release(result, 0.0)

    try:
        await asyncio.gather(
            *(worker(backends[i % len(backends)], rng.randrange(1 << 30)) for i in range(24))
        )
    finally:
        for backend in backends:
            await backend.aclose()

    for rule in rules:
        assert max_in_window(arrivals, rule.period, weighted=rule.per == "weight") <= rule.amount
    # The load really pressed on the limits: at least half of what the tightest rule allows.
    assert len(arrivals) >= 0.5 * 5 * (1.6 / 0.2)
    assert max_in_window(arrivals, 0.2, weighted=False) == 5


@pytest.mark.asyncio
async def test_all_rules_are_consumed_or_none(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(3, 5.0), Rule(10, 5.0, per="weight")]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        assert isinstance(await backend.acquire("batch", rules, 4, 0.0), Grant)
        assert isinstance(await backend.acquire("batch", rules, 4, 0.0), Grant)
        # The weight rule refuses (8 + 4 > 10) although the request rule has room: nothing is taken.
        assert await backend.acquire("batch", rules, 4, 0.0) == math.inf
        assert await held(redis_client, backend, "batch") == (2, 0)
        # Weight 2 fits both rules and takes the last request of the request rule.
        assert isinstance(await backend.acquire("batch", rules, 2, 0.0), Grant)
        assert await held(redis_client, backend, "batch") == (3, 0)
        # Now both rules are full.
        assert await backend.acquire("batch", rules, 1, 0.0) == math.inf
        assert await held(redis_client, backend, "batch") == (3, 0)


@pytest.mark.asyncio
async def test_the_script_answers_how_long_to_wait(redis_server: RedisServer, key_prefix: str) -> None:
    rules = [Rule(2, 0.3)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        first = await backend.acquire("read", rules, 1, 0.0)
        second = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(first, Grant)
        assert isinstance(second, Grant)
        # Only in-flight slots block: their anchor is not known yet.
        assert await backend.acquire("read", rules, 1, 0.0) == math.inf
        await backend.release(first, 0.0)
        wait = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(wait, float)
        assert 0 < wait <= 0.3
        # Sleeping exactly the hint is enough: the hint is when the oldest slot stops counting.
        await asyncio.sleep(wait)
        assert isinstance(await backend.acquire("read", rules, 1, 0.0), Grant)


@pytest.mark.asyncio
async def test_release_extra_anchors_the_slot_later(redis_server: RedisServer, key_prefix: str) -> None:
    rules = [Rule(1, 0.2)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.release(grant, 0.0, extra=0.5)
        wait = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(wait, float)
        assert 0.6 < wait <= 0.7
        # Releasing again does nothing.
        await backend.release(grant, 0.0, extra=5.0)
        wait_again = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(wait_again, float)
        assert wait_again <= wait


@pytest.mark.asyncio
async def test_cancel_gives_the_slot_back(redis_server: RedisServer, key_prefix: str) -> None:
    rules = [Rule(1, 10.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.cancel(grant)
        assert isinstance(await backend.acquire("write", rules, 1, 0.0), Grant)


@pytest.mark.asyncio
async def test_keys_vanish_one_period_after_the_last_slot(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(5, 0.25), Rule(50, 0.25, per="weight")]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grants = [await backend.acquire("batch", rules, 7, 0.0) for _ in range(3)]
        for grant in grants:
            assert isinstance(grant, Grant)
            await backend.release(grant, 0.0)
        slots, _, _ = backend.keys("batch")
        assert await existing_keys(redis_client, key_prefix) == [slots.encode()]
        assert 0 < await redis_client.pttl(slots) <= 250
        await asyncio.sleep(0.3)
        assert await existing_keys(redis_client, key_prefix) == []


@pytest.mark.asyncio
async def test_a_dead_holder_loses_its_slots_after_the_lease(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(2, 0.2)]
    dead = RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.3)
    for _ in range(2):
        assert isinstance(await dead.acquire("read", rules, 1, 0.0), Grant)
    await dead.aclose()  # it never releases: as if its process was killed
    async with RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.3) as alive:
        assert await alive.acquire("read", rules, 1, 0.0) == math.inf
        await asyncio.sleep(0.3)
        # The lease ran out: the slots are anchored at its end and count one more period.
        wait = await alive.acquire("read", rules, 1, 0.0)
        assert isinstance(wait, float)
        assert 0 < wait <= 0.2
        await asyncio.sleep(wait)
        grant = await alive.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await alive.release(grant, 0.0)
        await asyncio.sleep(0.25)
        assert await existing_keys(redis_client, key_prefix) == []


@pytest.mark.asyncio
async def test_a_late_release_after_the_lease_anchors_at_the_answer(
    redis_server: RedisServer, key_prefix: str
) -> None:
    rules = [Rule(1, 0.2)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.1) as backend:
        grant = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await asyncio.sleep(0.15)
        # Another acquisition turns the expired lease into an anchored slot...
        assert isinstance(await backend.acquire("read", rules, 1, 0.0), float)
        # ...and the answer, arriving late, still moves the anchor to its own time.
        await backend.release(grant, 0.0)
        wait = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(wait, float)
        assert 0.15 < wait <= 0.2


@pytest.mark.asyncio
async def test_a_429_slows_the_key_for_every_process(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1, 0.1)]
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
    ):
        assert await first.penalize("write", 0.2, 0.5, 0.1, 0.0) == 0.5
        # The other process is paused...
        pause = await second.acquire("write", rules, 1, 0.0)
        assert isinstance(pause, float)
        assert 0.1 < pause <= 0.2
        await asyncio.sleep(pause)
        grant = await second.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        assert grant.rate_factor == 0.5
        await second.release(grant, 0.0)
        # ...and its period is stretched to 0.1 / 0.5.
        wait = await second.acquire("write", rules, 1, 0.0)
        assert isinstance(wait, float)
        assert 0.1 < wait <= 0.2
        # Slowing down never goes below the floor, and never speeds up.
        assert await second.penalize("write", 0.0, 0.1, 0.4, 0.0) == 0.4
        assert await first.penalize("write", 0.0, 0.9, 0.1, 0.0) == pytest.approx(0.36)
        # Recovery steps of any process apply to all, up to the configured rate.
        assert await first.recover("write", 2.0) == pytest.approx(0.72)
        assert await second.recover("write", 2.0) == 1.0
        _, _, penalty = first.keys("write")
        assert await redis_client.exists(penalty) == 0


@pytest.mark.asyncio
async def test_the_penalty_expires_when_traffic_stops(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1, 0.1)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.release(grant, 0.0)
        assert await backend.penalize("write", 0.05, 0.5, 0.1, 0.0) == 0.5
        _, _, penalty = backend.keys("write")
        # Paused 0.05 s, then the slowdown lasts one stretched period (0.2 s) without traffic.
        assert 200 < await redis_client.pttl(penalty) <= 250
        await asyncio.sleep(0.3)
        assert await existing_keys(redis_client, key_prefix) == []


@pytest.mark.asyncio
async def test_a_category_without_rules_only_obeys_the_pause(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        for _ in range(50):
            grant = await backend.acquire("read", [], 1, 0.0)
            assert isinstance(grant, Grant)
        assert await existing_keys(redis_client, key_prefix) == []
        await backend.penalize("read", 0.5, 1.0, 0.1, 0.0)
        pause = await backend.acquire("read", [], 1, 0.0)
        assert isinstance(pause, float)
        assert 0.4 < pause <= 0.5


@pytest.mark.asyncio
async def test_unreachable_redis_fails_closed(
    private_redis_server: RedisServer, key_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    rules = [Rule(5, 0.2)]
    async with RedisBackend(private_redis_server.url, key_prefix=key_prefix, timeout=0.5) as backend:
        grant = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        private_redis_server.stop()

        started = time.monotonic()
        with pytest.raises(RedisBackendError, match="nothing was sent") as raised:
            await backend.acquire("read", rules, 1, 0.0)
        assert time.monotonic() - started < 2.0
        assert isinstance(raised.value.__cause__, redis_asyncio.RedisError)
        with pytest.raises(RedisBackendError):
            await backend.penalize("read", 1.0, 0.5, 0.1, 0.0)

        # The answer of a request already sent must reach its caller: no raise, a warning.
        with caplog.at_level(logging.WARNING, logger="route_planning_async.redis"):
            await backend.release(grant, 0.0)
            assert await backend.recover("read", 1.25) == 1.0
        assert "until its lease" in caplog.text

        # Back up (empty: no persistence): this process saw the old server, so the
        # category is held for its period before anything new is admitted.
        private_redis_server.start()
        hold = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(hold, float)
        assert 0.15 < hold <= 0.2
        await asyncio.sleep(hold)
        assert isinstance(await backend.acquire("read", rules, 1, 0.0), Grant)


@pytest.mark.asyncio
async def test_a_fresh_process_is_not_held_after_a_restart(
    private_redis_server: RedisServer, key_prefix: str
) -> None:
    rules = [Rule(5, 10.0)]
    private_redis_server.stop()
    private_redis_server.start()
    async with RedisBackend(private_redis_server.url, key_prefix=key_prefix) as backend:
        assert isinstance(await backend.acquire("read", rules, 1, 0.0), Grant)


@pytest.mark.asyncio
async def test_a_borrowed_client_stays_open(redis_server: RedisServer, key_prefix: str) -> None:
    client = redis_asyncio.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        async with RedisBackend(client, key_prefix=key_prefix) as backend:
            grant = await backend.acquire("read", [Rule(1, 0.1)], 1, 0.0)
            assert isinstance(grant, Grant)
            await backend.release(grant, 0.0)
        assert await client.ping()
    finally:
        await client.aclose()


@pytest.mark.asyncio
async def test_cancelled_callers_neither_leak_slots_nor_lose_their_cancellation(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1_000_000, 10.0)]
    rng = random.Random(99)
    backend = RedisBackend(redis_server.url, key_prefix=key_prefix)

    async def busy() -> None:
        while True:
            grant = await backend.acquire("read", rules, 1, 0.0)
            assert isinstance(grant, Grant)
            await backend.release(grant, 0.0)

    outcomes: list[BaseException | None] = []
    for _ in range(40):
        tasks = [asyncio.create_task(busy()) for _ in range(10)]
        await asyncio.sleep(rng.uniform(0, 0.01))
        for task in tasks:
            task.cancel()
        outcomes += await asyncio.gather(*tasks, return_exceptions=True)
    await backend.aclose()

    # Every task ended with its cancellation: none kept running, none ended otherwise.
    assert {type(outcome) for outcome in outcomes} == {asyncio.CancelledError}
    # Every slot granted was anchored or given back: nothing is left in flight.
    slots, inflight, _ = backend.keys("read")
    assert await redis_client.zcard(inflight) == 0
    assert await redis_client.zcard(slots) > 0
