"""The Lua scripts of the Redis backend, against a real redis-server.

Each test uses its own key prefix on the shared server. The scripts take their
time from the server (``TIME``), so the tests read that clock too: a test reads
it before and after a call and expects exactly what the script computes for any
moment in between (a wait, an anchor, an expiry time), whatever the time the
call took. A test that must see something still in force uses a long period,
pause or lease; a test that must see something end sleeps until the server's
clock has passed that end, and sleeping longer changes nothing. So no test
depends on the machine being idle.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from typing import Any

import pytest
import redis.asyncio as redis_asyncio
from redis_server import RedisServer

from route_planning_async import ConfigurationError
from route_planning_async._rate_limits._backends import Grant
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.redis import RedisBackend, RedisBackendError

pytestmark = pytest.mark.redis

MICROS = 1_000_000
"""The scripts keep times in microseconds of the server's clock."""


async def server_us(client: redis_asyncio.Redis) -> int:
    """The server's clock (``TIME``, what the scripts read as now), in microseconds."""
    seconds, micros = await client.time()
    return int(seconds) * MICROS + int(micros)


async def sleep_until(client: redis_asyncio.Redis, when_us: float) -> None:
    """Sleep until the server's clock has passed ``when_us``."""
    while True:
        now = await server_us(client)
        if now > when_us:
            return
        await asyncio.sleep((when_us - now) / MICROS + 0.001)


async def pexpiretime(client: redis_asyncio.Redis, key: str) -> int:
    """The key's expiry time on the server's clock, in milliseconds."""
    expires = int(await client.execute_command("PEXPIRETIME", key))
    assert expires > 0, f"{key} has no expiry ({expires})"
    return expires


def member(grant: Grant) -> str:
    """The sorted-set member of a grant's slot."""
    return f"{grant.token}|{grant.weight}"


def assert_wait(answer: Grant | float, deadline_us: float, before_us: int, after_us: int) -> None:
    """``answer`` is the wait until ``deadline_us`` from a moment between the two readings
    (the script rounds it up to a whole microsecond)."""
    assert isinstance(answer, float), answer
    wait_us = round(answer * MICROS)
    assert deadline_us - after_us <= wait_us <= deadline_us - before_us + 1


def assert_expires_at(expires_ms: int, deadline_us: float, before_us: int, after_us: int) -> None:
    """A script run between the two readings set the key to expire at ``deadline_us``: it
    gives a relative TTL in whole milliseconds, which Redis adds to its own reading of the
    clock, so the two can differ by the time the script took."""
    slack_ms = (after_us - before_us) / 1000 + 1
    assert deadline_us / 1000 - slack_ms <= expires_ms <= deadline_us / 1000 + slack_ms


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
    slots, inflight, _, _ = backend.keys(key)
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
    for path in ("/abc", "/1/2", "/-1", "/0/"):
        # redis-py would read these as another database (0, 12), or refuse them only when connecting.
        with pytest.raises(ConfigurationError, match=f"path must be a database number .*got '{path}'"):
            RedisBackend(f"redis://:s3cret@127.0.0.1:{redis_server.port}{path}", key_prefix="p")
    for path in ("", "/", "/0", "/15"):
        RedisBackend(f"redis://127.0.0.1:{redis_server.port}{path}", key_prefix="p")


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
    # The load runs until 40 requests have arrived (eight windows of the tightest
    # rule at the least), not for a fixed time: a slow machine takes longer, nothing else.
    wanted = 40

    async def worker(backend: RedisBackend, seed: int) -> None:
        local = random.Random(seed)
        while len(arrivals) < wanted:
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
    # The load really pressed on the limits: some window held all the tightest rule allows.
    assert len(arrivals) >= wanted
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
async def test_the_script_answers_how_long_to_wait(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # A long period: nothing expires while the test runs, however slow the machine.
    rules = [Rule(2, 30.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        first = await backend.acquire("read", rules, 1, 0.0)
        second = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(first, Grant)
        assert isinstance(second, Grant)
        # Only in-flight slots block: their anchor is not known yet.
        assert await backend.acquire("read", rules, 1, 0.0) == math.inf
        before = await server_us(redis_client)
        await backend.release(first, 0.0)
        after = await server_us(redis_client)
        slots, _, _, _ = backend.keys("read")
        anchor = await redis_client.zscore(slots, member(first))
        assert anchor is not None
        assert before <= anchor <= after
        # The hint is when the oldest slot stops counting, on the server's clock.
        before = await server_us(redis_client)
        wait = await backend.acquire("read", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, anchor + 30 * MICROS, before, after)


@pytest.mark.asyncio
async def test_sleeping_the_hint_is_enough(redis_server: RedisServer, key_prefix: str) -> None:
    rules = [Rule(1, 0.1)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        for _ in range(3):
            answer = await backend.acquire("read", rules, 1, 0.0)
            hints = 0
            # Sleeping longer than the hint (a slow machine) only makes it truer.
            while not isinstance(answer, Grant):
                assert hints == 0, f"slept the hint and was still refused: {answer}"
                hints += 1
                await asyncio.sleep(answer)
                answer = await backend.acquire("read", rules, 1, 0.0)
            await backend.release(answer, 0.0)


@pytest.mark.asyncio
async def test_release_extra_anchors_the_slot_later(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1, 10.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        before = await server_us(redis_client)
        await backend.release(grant, 0.0, extra=5.0)
        after = await server_us(redis_client)
        slots, _, _, _ = backend.keys("write")
        anchor = await redis_client.zscore(slots, member(grant))
        assert anchor is not None
        assert before + 5 * MICROS <= anchor <= after + 5 * MICROS
        before = await server_us(redis_client)
        wait = await backend.acquire("write", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, anchor + 10 * MICROS, before, after)
        # Releasing again does nothing.
        await backend.release(grant, 0.0, extra=50.0)
        assert await redis_client.zscore(slots, member(grant)) == anchor
        assert await redis_client.zcard(slots) == 1


@pytest.mark.asyncio
async def test_cancel_gives_the_slot_back(redis_server: RedisServer, key_prefix: str) -> None:
    rules = [Rule(1, 10.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.cancel(grant)
        assert isinstance(await backend.acquire("write", rules, 1, 0.0), Grant)


@pytest.mark.asyncio
async def test_keys_expire_one_period_after_the_last_slot(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # A long period, so that the keys certainly exist when looked at.
    rules = [Rule(5, 30.0), Rule(50, 30.0, per="weight")]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grants = [await backend.acquire("batch", rules, 7, 0.0) for _ in range(3)]
        before = await server_us(redis_client)
        for grant in grants:
            assert isinstance(grant, Grant)
            await backend.release(grant, 0.0)
        after = await server_us(redis_client)
        slots, _, _, rules = backend.keys("batch")
        # Only the anchored slots are left, and the rules stored with them: no in-flight key, no penalty.
        assert await existing_keys(redis_client, key_prefix) == [rules.encode(), slots.encode()]
        last = max(score for _, score in await redis_client.zrange(slots, 0, -1, withscores=True))
        assert_expires_at(await pexpiretime(redis_client, slots), last + 30 * MICROS, before, after)
        # The rules key takes the slots' PTTL (whole milliseconds, truncated) from now: the same
        # deadline, within the millisecond the script's clock reading falls in.
        assert abs(await pexpiretime(redis_client, rules) - await pexpiretime(redis_client, slots)) <= 1


@pytest.mark.asyncio
async def test_keys_vanish_once_the_last_slot_stopped_counting(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(5, 0.1)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.release(grant, 0.0)
        slots, _, _, _ = backend.keys("read")
        anchor = await redis_client.zscore(slots, member(grant))
        assert anchor is not None
        # Redis drops a key the first millisecond after its expiry time.
        await sleep_until(redis_client, anchor + 0.1 * MICROS + 2_000)
        assert await existing_keys(redis_client, key_prefix) == []


@pytest.mark.asyncio
async def test_a_dead_holder_blocks_while_its_lease_lasts(redis_server: RedisServer, key_prefix: str) -> None:
    rules = [Rule(2, 0.2)]
    # A long lease: it certainly lasts while the test runs.
    dead = RedisBackend(redis_server.url, key_prefix=key_prefix, lease=30.0)
    for _ in range(2):
        assert isinstance(await dead.acquire("read", rules, 1, 0.0), Grant)
    await dead.aclose()  # it never releases: as if its process was killed
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as alive:
        assert await alive.acquire("read", rules, 1, 0.0) == math.inf


@pytest.mark.asyncio
async def test_a_dead_holder_loses_its_slots_after_the_lease(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(2, 30.0)]
    dead = RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.2)
    before = await server_us(redis_client)
    grants = [await dead.acquire("read", rules, 1, 0.0) for _ in range(2)]
    after = await server_us(redis_client)
    await dead.aclose()  # it never releases: as if its process was killed
    slots, inflight, _, _ = dead.keys("read")
    leases = dict(await redis_client.zrange(inflight, 0, -1, withscores=True))
    assert all(before + 0.2 * MICROS <= end <= after + 0.2 * MICROS for end in leases.values())
    assert len(leases) == 2
    await sleep_until(redis_client, max(leases.values()))
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as alive:
        before = await server_us(redis_client)
        wait = await alive.acquire("read", rules, 1, 0.0)
        after = await server_us(redis_client)
        # The lease ran out: the slots are anchored at its end and count one period more.
        assert await redis_client.zcard(inflight) == 0
        anchored = dict(await redis_client.zrange(slots, 0, -1, withscores=True))
        assert anchored == {name + b"|x": end for name, end in leases.items()}
        assert_wait(wait, min(leases.values()) + 30 * MICROS, before, after)
        assert_expires_at(
            await pexpiretime(redis_client, slots), max(leases.values()) + 30 * MICROS, before, after
        )
    assert {member(grant) for grant in grants if isinstance(grant, Grant)} == {
        name.decode() for name in leases
    }


@pytest.mark.asyncio
async def test_a_late_release_after_the_lease_anchors_at_the_answer(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1, 30.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.1) as backend:
        grant = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        slots, inflight, _, _ = backend.keys("read")
        lease_end = await redis_client.zscore(inflight, member(grant))
        assert lease_end is not None
        await sleep_until(redis_client, lease_end)
        # Another acquisition turns the expired lease into an anchored slot...
        before = await server_us(redis_client)
        wait = await backend.acquire("read", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert await redis_client.zscore(slots, member(grant) + "|x") == lease_end
        assert_wait(wait, lease_end + 30 * MICROS, before, after)
        # ...and the answer, arriving late, still moves the anchor to its own time.
        before = await server_us(redis_client)
        await backend.release(grant, 0.0)
        after = await server_us(redis_client)
        anchor = await redis_client.zscore(slots, member(grant))
        assert anchor is not None
        assert lease_end < before <= anchor <= after
        assert await redis_client.zscore(slots, member(grant) + "|x") is None
        before = await server_us(redis_client)
        wait = await backend.acquire("read", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, anchor + 30 * MICROS, before, after)


@pytest.mark.asyncio
async def test_a_429_pauses_the_key_for_every_process(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1, 0.1)]
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
    ):
        # A long pause: it certainly lasts while the test looks at it.
        before = await server_us(redis_client)
        assert await first.penalize("write", 30.0, 0.5, 0.0) == 0.5
        after = await server_us(redis_client)
        _, _, penalty, _ = first.keys("write")
        until = float(await redis_client.hget(penalty, "until"))
        assert before + 30 * MICROS <= until <= after + 30 * MICROS
        # The other process is paused until then.
        before = await server_us(redis_client)
        pause = await second.acquire("write", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(pause, until, before, after)


@pytest.mark.asyncio
async def test_a_429_lowers_the_amount_for_every_process(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(4, 10.0)]
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
    ):
        assert await first.penalize("write", 0.0, 0.5, 0.0) == 0.5
        # The other process is kept to the learned amount, 2 of the configured 4...
        grants = [await second.acquire("write", rules, 1, 0.0) for _ in range(2)]
        assert all(isinstance(grant, Grant) and grant.rate_factor == 0.5 for grant in grants)
        assert await second.acquire("write", rules, 1, 0.0) == math.inf
        for grant in grants:
            assert isinstance(grant, Grant)
            await second.release(grant, 0.0)
        slots, _, _, _ = second.keys("write")
        anchor = await redis_client.zscore(slots, member(grants[0]))
        assert anchor is not None
        # ...in windows of the plain period: the oldest slot frees one 10 s after its anchor.
        before = await server_us(redis_client)
        wait = await second.acquire("write", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, anchor + 10 * MICROS, before, after)


@pytest.mark.asyncio
async def test_the_penalty_expires_ten_periods_after_traffic_stops(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1, 0.02)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        before = await server_us(redis_client)
        assert await backend.penalize("write", 0.05, 0.5, 0.0) == 0.5
        after = await server_us(redis_client)
        _, _, penalty, _ = backend.keys("write")
        until = float(await redis_client.hget(penalty, "until"))
        assert before + 0.05 * MICROS <= until <= after + 0.05 * MICROS
        # Paused 0.05 s, then the learned factor is kept ten periods (0.2 s) without traffic.
        assert_expires_at(await pexpiretime(redis_client, penalty), until + 0.2 * MICROS, before, after)
        # An answer after the pause is traffic: the ten periods count from it.
        await sleep_until(redis_client, until)
        before = await server_us(redis_client)
        await backend.release(grant, 0.0)
        after = await server_us(redis_client)
        expires = await pexpiretime(redis_client, penalty)
        assert_expires_at(expires, before + 0.2 * MICROS, before, after)
        await sleep_until(redis_client, expires * 1000 + 2_000)
        assert await existing_keys(redis_client, key_prefix) == []
        # Forgotten: the key is back at the configured limits.
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        assert grant.rate_factor == 1.0


@pytest.mark.asyncio
async def test_a_category_without_rules_only_obeys_the_pause(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        for _ in range(50):
            before = await server_us(redis_client)
            grant = await backend.acquire("read", [], 1, 0.0)
            after = await server_us(redis_client)
            assert isinstance(grant, Grant)
        # No slot is kept; only "no rules", for a minute after the last acquisition.
        _, _, _, rules = backend.keys("read")
        assert await existing_keys(redis_client, key_prefix) == [rules.encode()]
        assert await redis_client.get(rules) == b"no rules"
        assert_expires_at(await pexpiretime(redis_client, rules), before + 60 * MICROS, before, after)
        await backend.penalize("read", 30.0, 1.0, 0.0)
        _, _, penalty, _ = backend.keys("read")
        until = float(await redis_client.hget(penalty, "until"))
        before = await server_us(redis_client)
        pause = await backend.acquire("read", [], 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(pause, until, before, after)


@pytest.mark.asyncio
async def test_unreachable_redis_fails_closed(
    private_redis_server: RedisServer, key_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A long period: the restart hold is given when the server has been up for less
    # than the period, which it certainly has when the test asks.
    rules = [Rule(5, 30.0)]
    async with RedisBackend(private_redis_server.url, key_prefix=key_prefix, timeout=0.5) as backend:
        grant = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        private_redis_server.stop()

        started = time.monotonic()
        with pytest.raises(RedisBackendError, match="nothing was sent") as raised:
            await backend.acquire("read", rules, 1, 0.0)
        # Failing fast: the connection is refused at once, and the timeout is 0.5 s
        # (2 s leaves room for a slow machine).
        assert time.monotonic() - started < 2.0
        assert isinstance(raised.value.__cause__, redis_asyncio.RedisError)
        with pytest.raises(RedisBackendError):
            await backend.penalize("read", 1.0, 0.5, 0.0)

        # The answer of a request already sent must reach its caller: no raise, a warning.
        with caplog.at_level(logging.WARNING, logger="route_planning_async.redis"):
            await backend.release(grant, 0.0)
            assert await backend.recover("read", 1.25) == 1.0
        assert "until its lease" in caplog.text
        # The request was sent: the warnings say what the failure costs, never "nothing was sent".
        warnings = [record.getMessage() for record in caplog.records]
        assert len(warnings) == 2
        assert warnings[0].startswith(f"the rate-limit backend (Redis at {backend._where}) failed: ")
        assert warnings[1].endswith("; the rate stays as it was")
        assert not any("nothing was sent" in warning or ".;" in warning for warning in warnings)

        # Back up (empty: no persistence): this process saw the old server, so the
        # category is held for its period before anything new is admitted.
        private_redis_server.start()
        hold = await backend.acquire("read", rules, 1, 0.0)
        assert hold == 30.0
        # The hold is a pause in Redis: every later acquisition waits for the same end.
        client = redis_asyncio.Redis.from_url(private_redis_server.url)
        try:
            _, _, penalty, _ = backend.keys("read")
            until = float(await client.hget(penalty, "until"))
            before = await server_us(client)
            again = await backend.acquire("read", rules, 1, 0.0)
            after = await server_us(client)
        finally:
            await client.aclose()
        assert_wait(again, until, before, after)


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


class HeldAnswers(redis_asyncio.Redis):
    """A client that, once :attr:`gate` is set, keeps each script's answer until the gate opens."""

    gate: asyncio.Future[None] | None = None
    answered: asyncio.Event

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        answer = await super().evalsha(sha, numkeys, *keys_and_args)
        if self.gate is not None:
            self.answered.set()
            await self.gate
        return answer


# On a loaded machine aclose() takes milliseconds; the timeout only ends a spinning one.
@pytest.mark.timeout(30)
@pytest.mark.asyncio
async def test_aclose_returns_when_a_round_trip_just_finished(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # aclose() waits for the round trips under way, which leave the backend's set in
    # their done callbacks. A round trip that ends just before aclose() starts has its
    # callbacks queued behind it, and on Python 3.12+ awaiting a gather() of finished
    # tasks does not yield: aclose() spun forever without letting them run (a
    # multi-process test's worker never exited).
    client = HeldAnswers.from_url(redis_server.url)
    assert isinstance(client, HeldAnswers)
    client.answered = asyncio.Event()
    try:
        backend = RedisBackend(client, key_prefix=key_prefix)
        grant = await backend.acquire("read", [Rule(5, 10.0)], 1, 0.0)
        assert isinstance(grant, Grant)
        client.gate = asyncio.get_running_loop().create_future()
        releasing = asyncio.create_task(backend.release(grant, 0.0))
        # The release round trip has run its script and waits at the gate.
        await client.answered.wait()
        client.gate.set_result(None)
        # This task resumes right after the round trip ends, before its done callbacks run.
        await asyncio.sleep(0)
        await backend.aclose()
        await releasing
    finally:
        await client.aclose()
    _, inflight, _, _ = backend.keys("read")
    assert await redis_client.zcard(inflight) == 0


@pytest.mark.asyncio
async def test_more_calls_at_once_than_connections_wait_for_one_rather_than_fail(
    redis_server: RedisServer, key_prefix: str
) -> None:
    # A burst of answers gives back as many slots at once. redis-py's own pool (100 connections
    # in redis-py 8) refused the calls beyond it ("Too many connections"): they failed closed.
    rules = [Rule(1_000_000, 10.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix, timeout=60.0) as backend:
        grants = await asyncio.gather(*(backend.acquire("read", rules, 1, 0.0) for _ in range(300)))
        assert all(isinstance(grant, Grant) for grant in grants)
        await asyncio.gather(*(backend.release(grant, 0.0) for grant in grants if isinstance(grant, Grant)))
        assert await backend.usage("read", rules, 0.0) == (300,)


@pytest.mark.asyncio
async def test_cancelled_callers_neither_leak_slots_nor_lose_their_cancellation(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(1_000_000, 10.0)]
    rng = random.Random(99)
    # Cancellation is under test, not the bound on a round trip: on a loaded machine ten
    # tasks hammering Redis may wait longer than the default 2 s for one.
    backend = RedisBackend(redis_server.url, key_prefix=key_prefix, timeout=60.0)

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
    slots, inflight, _, _ = backend.keys("read")
    assert await redis_client.zcard(inflight) == 0
    assert await redis_client.zcard(slots) > 0


@pytest.mark.asyncio
async def test_a_missing_or_wrong_password_says_so_in_the_users_words(
    private_redis_server: RedisServer, key_prefix: str
) -> None:
    admin = redis_asyncio.Redis.from_url(private_redis_server.url)
    await admin.config_set("requirepass", "s3cret")
    await admin.aclose()
    wrong = private_redis_server.url.replace("redis://", "redis://:wrong@")
    for url in (private_redis_server.url, wrong):
        with pytest.raises(RedisBackendError, match=r"password is missing or wrong: give it in") as raised:
            async with RedisBackend(url, key_prefix=key_prefix) as backend:
                await backend.acquire("read", [Rule(5, 1.0)], 1, 0.0)
        # Not redis-py's words about HELLO, which nobody here called; and never the password.
        assert "HELLO" not in str(raised.value)
        assert "wrong" not in str(raised.value).replace("missing or wrong", "")
    async with RedisBackend(
        private_redis_server.url.replace("redis://", "redis://:s3cret@"), key_prefix=key_prefix
    ) as backend:
        assert isinstance(await backend.acquire("read", [Rule(5, 1.0)], 1, 0.0), Grant)
