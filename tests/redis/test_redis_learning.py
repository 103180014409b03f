"""What the Redis backend learns from 429s: learned amounts, the shared rate factor, usage.

The same style as ``test_redis_script.py``: the scripts take their time from the
server (``TIME``), so a test reads that clock before and after a call and
expects exactly what the script computes for any moment in between. Periods are
long where something must still count while the test looks, and every slot a
test anchors in the past (a negative ``extra``) is anchored tens of seconds away
from any window's edge, so that no answer depends on how fast the machine is.
"""

from __future__ import annotations

import random

import pytest
import redis.asyncio as redis_asyncio
from redis_server import RedisServer
from test_redis_script import (
    MICROS,
    assert_expires_at,
    assert_wait,
    existing_keys,
    member,
    pexpiretime,
    server_us,
    sleep_until,
)

from route_planning_async._rate_limits._backends import Grant, InMemoryBackend, learned_amount
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.redis import RedisBackend

pytestmark = pytest.mark.redis


async def anchor_of(client: redis_asyncio.Redis, backend: RedisBackend, key: str, grant: Grant) -> float:
    """The anchor of a released grant's slot, in microseconds of the server's clock."""
    slots, _, _, _ = backend.keys(key)
    anchor = await client.zscore(slots, member(grant))
    assert anchor is not None
    return anchor


async def pause_end(client: redis_asyncio.Redis, penalty: str) -> float:
    """The ``until`` of a penalty hash, in microseconds of the server's clock."""
    until = await client.hget(penalty, "until")
    assert until is not None
    return float(until)


async def grants_until_refused(
    backend: RedisBackend, key: str, rules: list[Rule], weight: int
) -> list[Grant]:
    """Acquire until refused; the refusal must be ``math.inf`` (only in-flight slots block)."""
    grants: list[Grant] = []
    while True:
        answer = await backend.acquire(key, rules, weight, 0.0)
        if not isinstance(answer, Grant):
            assert answer == float("inf")
            return grants
        grants.append(answer)
        assert len(grants) <= 100


@pytest.mark.parametrize(
    ("factor", "admitted"),
    [(1.0, 10), (0.75, 7), (0.5, 5), (0.3, 3), (0.29, 2), (0.12, 1), (0.01, 1)],
)
@pytest.mark.asyncio
async def test_a_rule_admits_its_learned_amount_per_window(
    redis_server: RedisServer,
    redis_client: redis_asyncio.Redis,
    key_prefix: str,
    factor: float,
    admitted: int,
) -> None:
    # A long period: nothing stops counting while the test runs.
    rules = [Rule(10, 30.0)]
    assert learned_amount(10, factor) == admitted
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        assert await backend.penalize("read", 0.0, factor, 0.0) == factor
        grants = await grants_until_refused(backend, "read", rules, 1)
        assert len(grants) == admitted
        assert all(grant.rate_factor == factor for grant in grants)
        for grant in grants:
            await backend.release(grant, 0.0)
        # Anchored now, the window is full until the oldest slot stops counting: its
        # anchor plus the plain period, not a period stretched by the factor.
        oldest = await anchor_of(redis_client, backend, "read", grants[0])
        before = await server_us(redis_client)
        wait = await backend.acquire("read", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, oldest + 30 * MICROS, before, after)


@pytest.mark.asyncio
async def test_every_rule_of_a_category_is_kept_to_its_learned_amount(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # At 0.4: 2 requests and 40 stops per window.
    rules = [Rule(5, 30.0), Rule(100, 30.0, per="weight")]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        assert await backend.penalize("batch", 0.0, 0.4, 0.0) == 0.4
        heavy = await backend.acquire("batch", rules, 25, 0.0)
        assert isinstance(heavy, Grant)
        # 25 + 16 > 40 stops; 25 + 15 fits, and takes the second request of the window.
        assert await backend.acquire("batch", rules, 16, 0.0) == float("inf")
        light = await backend.acquire("batch", rules, 15, 0.0)
        assert isinstance(light, Grant)
        assert await backend.acquire("batch", rules, 1, 0.0) == float("inf")
        await backend.release(heavy, 0.0)
        # The light slot is anchored 10 s before the heavy one: oldest by anchor, not by release.
        await backend.release(light, 0.0, extra=-10.0)
        heavy_anchor = await anchor_of(redis_client, backend, "batch", heavy)
        light_anchor = await anchor_of(redis_client, backend, "batch", light)
        assert light_anchor < heavy_anchor
        # 4 stops fit the weight rule (40 + 4 - 40 <= 15 freed by the light slot): the
        # request rule decides, and its oldest slot is the light one.
        before = await server_us(redis_client)
        wait = await backend.acquire("batch", rules, 4, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, light_anchor + 30 * MICROS, before, after)
        # 20 stops need the heavy slot gone as well (40 + 20 - 40 > 15).
        before = await server_us(redis_client)
        wait = await backend.acquire("batch", rules, 20, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, heavy_anchor + 30 * MICROS, before, after)


@pytest.mark.asyncio
async def test_a_request_heavier_than_the_learned_amount_waits_for_an_empty_window(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # At 0.3 a batch may carry 30 stops per window; a batch of 50 passes only alone.
    rules = [Rule(100, 30.0, per="weight")]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        assert await backend.penalize("batch", 0.0, 0.3, 0.0) == 0.3
        small = await backend.acquire("batch", rules, 10, 0.0)
        smaller = await backend.acquire("batch", rules, 5, 0.0)
        assert isinstance(small, Grant)
        assert isinstance(smaller, Grant)
        # Not alone: refused while the others are in flight...
        assert await backend.acquire("batch", rules, 50, 0.0) == float("inf")
        await backend.release(small, 0.0)
        await backend.release(smaller, 0.0)
        last = await anchor_of(redis_client, backend, "batch", smaller)
        # ...and until the last of their slots has left the window, which is then empty.
        before = await server_us(redis_client)
        wait = await backend.acquire("batch", rules, 50, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, last + 30 * MICROS, before, after)


@pytest.mark.asyncio
async def test_a_request_heavier_than_the_learned_amount_passes_alone(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    period = 0.05
    rules = [Rule(100, period, per="weight")]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        assert await backend.penalize("batch", 0.0, 0.3, 0.0) == 0.3
        for _ in range(2):
            heavy = await backend.acquire("batch", rules, 50, 0.0)
            assert isinstance(heavy, Grant)
            # While it is in flight nothing else passes, however light.
            assert await backend.acquire("batch", rules, 1, 0.0) == float("inf")
            await backend.release(heavy, 0.0)
            anchor = await anchor_of(redis_client, backend, "batch", heavy)
            await sleep_until(redis_client, anchor + period * MICROS)


@pytest.mark.asyncio
async def test_penalize_lowers_and_recover_raises_the_shared_factor(
    two_processes: tuple[RedisBackend, RedisBackend], redis_client: redis_asyncio.Redis
) -> None:
    rules = [Rule(10, 30.0)]
    first, second = two_processes
    _, _, penalty, _ = first.keys("write")
    assert await first.recover("write", 0.5) == 1.0
    assert await redis_client.exists(penalty) == 0
    assert await first.penalize("write", 0.0, 0.5, 0.0) == 0.5
    # A penalty never raises the factor, whichever process gives it.
    assert await second.penalize("write", 0.0, 0.7, 0.0) == 0.5
    assert await second.penalize("write", 0.0, 0.3, 0.0) == 0.3
    # A recovery never lowers it: one of nothing reads it (the scheduler's read after a 429).
    assert await first.recover("write", 0.2) == 0.3
    assert await first.recover("write", 0.0) == 0.3
    assert await first.recover("write", 0.6) == 0.6
    grant = await second.acquire("write", rules, 1, 0.0)
    assert isinstance(grant, Grant)
    assert grant.rate_factor == 0.6
    await second.cancel(grant)
    # The factor is kept exactly as given, not rounded by Lua's 14 digits.
    exact = 0.1234567890123456789
    assert await second.penalize("write", 0.0, exact, 0.0) == exact
    assert await first.recover("write", exact / 2) == exact
    assert await redis_client.hget(penalty, "factor") == repr(exact).encode()
    # Never beyond the configured limits: back at 1.0 (no pause left) the penalty is gone.
    assert await second.recover("write", 1.7) == 1.0
    assert await redis_client.exists(penalty) == 0
    grant = await first.acquire("write", rules, 1, 0.0)
    assert isinstance(grant, Grant)
    assert grant.rate_factor == 1.0
    await first.cancel(grant)


@pytest.mark.asyncio
async def test_a_pause_is_never_shortened(
    two_processes: tuple[RedisBackend, RedisBackend], redis_client: redis_asyncio.Redis
) -> None:
    rules = [Rule(10, 1.0)]
    first, second = two_processes
    _, _, penalty, _ = first.keys("write")
    # Each process has sent a request of the category, so both know its longest period.
    for backend in (first, second):
        grant = await backend.acquire("write", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.release(grant, 0.0)
    before = await server_us(redis_client)
    assert await first.penalize("write", 30.0, 0.5, 0.0) == 0.5
    after = await server_us(redis_client)
    until = await pause_end(redis_client, penalty)
    assert before + 30 * MICROS <= until <= after + 30 * MICROS
    # A shorter pause from another process leaves it; its factor still applies.
    assert await second.penalize("write", 1.0, 0.4, 0.0) == 0.4
    assert await pause_end(redis_client, penalty) == until
    # A longer one extends it, and the factor is kept ten periods after it.
    before = await server_us(redis_client)
    await second.penalize("write", 60.0, 0.9, 0.0)
    after = await server_us(redis_client)
    until = await pause_end(redis_client, penalty)
    assert before + 60 * MICROS <= until <= after + 60 * MICROS
    assert_expires_at(await pexpiretime(redis_client, penalty), until + 10 * MICROS, before, after)
    # Recovering to the configured limits does not end the pause.
    assert await first.recover("write", 1.0) == 1.0
    assert await redis_client.hget(penalty, "until") is not None
    assert await redis_client.hget(penalty, "factor") is None
    before = await server_us(redis_client)
    pause = await first.acquire("write", rules, 1, 0.0)
    after = await server_us(redis_client)
    assert_wait(pause, until, before, after)


@pytest.mark.asyncio
async def test_processes_take_turns_to_probe(
    two_processes: tuple[RedisBackend, RedisBackend], redis_client: redis_asyncio.Redis
) -> None:
    first, second = two_processes
    _, _, penalty, _ = first.keys("read")
    assert await first.claim_probe("read", 0.05, 0.0) == 0.0
    # The turn is the first process's for 50 ms, on Redis's clock.
    wait = await second.claim_probe("read", 0.05, 0.0)
    assert 0.0 < wait <= 0.05
    assert await redis_client.hget(penalty, "probe") is not None
    assert await redis_client.pttl(penalty) > 0  # forgotten with the learned factor
    await sleep_until(redis_client, float(await redis_client.hget(penalty, "probe") or 0))
    assert await second.claim_probe("read", 0.05, 0.0) == 0.0


@pytest.mark.asyncio
async def test_a_probe_up_to_the_configured_limits_keeps_the_turn(
    two_processes: tuple[RedisBackend, RedisBackend], redis_client: redis_asyncio.Redis
) -> None:
    # The raise to the configured limits may be the probe itself: if it fails, the others
    # must not probe again at once (they did, one after another, while it cleared the turn).
    first, second = two_processes
    _, _, penalty, _ = first.keys("optimize")
    assert await first.penalize("optimize", 0.0, 0.5, 0.0) == 0.5
    assert await first.claim_probe("optimize", 60.0, 0.0) == 0.0
    assert await first.recover("optimize", 1.0) == 1.0
    assert await redis_client.hget(penalty, "factor") is None
    assert await first.penalize("optimize", 0.0, 0.5, 0.0) == 0.5  # the probe failed
    wait = await second.claim_probe("optimize", 60.0, 0.0)
    assert 59.0 < wait <= 60.0


@pytest.mark.asyncio
async def test_usage_counts_the_admitted_slots_of_each_trailing_window(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(10, 20.0), Rule(10, 60.0), Rule(100, 60.0, per="weight")]
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
        RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.01) as dying,
    ):
        assert await first.usage("batch", rules, 0.0) == (0, 0, 0)
        assert await first.usage("batch", [], 0.0) == ()
        grants: dict[str, Grant] = {}
        for name, weight in (("gone", 3), ("older", 4), ("recent", 5), ("refused", 8), ("flying", 6)):
            grant = await first.acquire("batch", rules, weight, 0.0)
            assert isinstance(grant, Grant)
            grants[name] = grant
        await first.release(grants["gone"], 0.0, extra=-90.0)  # left every window
        await first.release(grants["older"], 0.0, extra=-40.0)  # only in the 60 s windows
        await first.release(grants["recent"], 0.0)  # in every window
        await first.release(grants["refused"], 0.0, admitted=False)  # a 429: counts, but not as admitted
        # Admitted in one process, counted by every process; in flight or refused, by none.
        assert await second.usage("batch", rules, 0.0) == (1, 2, 4 + 5)
        # The refused slot still holds its place in the window: 4 + 5 + 8 + 6 stops and 78 more
        # exceed the 100 (without it they would fit).
        assert not isinstance(await second.acquire("batch", rules, 78, 0.0), Grant)
        # A slot whose holder died is anchored at its lease's end by the next acquisition
        # ('|x'): it counts, but nobody knows it was admitted.
        lost = await dying.acquire("batch", rules, 7, 0.0)
        assert isinstance(lost, Grant)
        slots, inflight, _, _ = dying.keys("batch")
        lease_end = await redis_client.zscore(inflight, member(lost))
        assert lease_end is not None
        await sleep_until(redis_client, lease_end)
        probe = await second.acquire("batch", rules, 1, 0.0)
        assert isinstance(probe, Grant)
        await second.cancel(probe)
        assert await redis_client.zscore(slots, member(lost) + "|x") == lease_end
        assert await second.usage("batch", rules, 0.0) == (1, 2, 4 + 5)
        # Released late without an answer, it stays not known admitted.
        await dying.release(lost, 0.0, admitted=False)
        assert await redis_client.zscore(slots, member(lost) + "|r") is not None
        assert await second.usage("batch", rules, 0.0) == (1, 2, 4 + 5)
        # Only the rules asked about, in their order.
        assert await first.usage("batch", [rules[2], rules[0]], 0.0) == (4 + 5, 1)
        await first.release(grants["flying"], 0.0)
        assert await first.usage("batch", rules, 0.0) == (2, 3, 4 + 5 + 6)


@pytest.mark.asyncio
async def test_the_factor_survives_an_idle_gap_and_is_shared(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    period = 0.06
    rules = [Rule(10, period)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as learner:
        grant = await learner.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        assert await learner.penalize("read", 0.0, 0.3, 0.0) == 0.3
        before = await server_us(redis_client)
        await learner.release(grant, 0.0)
        after = await server_us(redis_client)
    _, _, penalty, _ = learner.keys("read")
    expires = await pexpiretime(redis_client, penalty)
    assert_expires_at(expires, before + 10 * period * MICROS, before, after)
    # Idle for three periods, longer than the slots (and a stretched period of old) last.
    await sleep_until(redis_client, after + 3 * period * MICROS)
    assert await existing_keys(redis_client, key_prefix) == [penalty.encode()]
    # Another process on the same prefix starts at what the first one learned.
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as newcomer:
        later = await newcomer.acquire("read", rules, 1, 0.0)
        assert isinstance(later, Grant)
        assert later.rate_factor == 0.3
        await newcomer.cancel(later)
    # The ten periods count from the last answer: a process that only asks renews nothing.
    assert await pexpiretime(redis_client, penalty) == expires
    await sleep_until(redis_client, expires * 1000 + 2_000)
    assert await existing_keys(redis_client, key_prefix) == []
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as late:
        fresh = await late.acquire("read", rules, 1, 0.0)
        assert isinstance(fresh, Grant)
        assert fresh.rate_factor == 1.0
        await late.cancel(fresh)


@pytest.mark.asyncio
async def test_a_negative_extra_anchors_the_slot_in_the_past(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    rules = [Rule(2, 30.0)]
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        slots, _, _, _ = backend.keys("read")
        first = await backend.acquire("read", rules, 1, 0.0)
        second = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(first, Grant)
        assert isinstance(second, Grant)
        await backend.release(first, 0.0)
        before = await server_us(redis_client)
        await backend.release(second, 0.0, extra=-12.5)
        after = await server_us(redis_client)
        anchor = await anchor_of(redis_client, backend, "read", second)
        assert before - 12.5 * MICROS <= anchor <= after - 12.5 * MICROS
        # Released last, anchored first: it is the first slot to stop counting.
        assert await redis_client.zrange(slots, 0, -1) == [
            member(second).encode(),
            member(first).encode(),
        ]
        before = await server_us(redis_client)
        wait = await backend.acquire("read", rules, 1, 0.0)
        after = await server_us(redis_client)
        assert_wait(wait, anchor + 30 * MICROS, before, after)
        # A slot anchored before the window's start does not count at all.
        await backend.cancel(first)  # already anchored: nothing happens
        assert await redis_client.zcard(slots) == 2
    async with RedisBackend(redis_server.url, key_prefix=key_prefix + "-past") as backend:
        rules = [Rule(1, 30.0)]
        grant = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(grant, Grant)
        await backend.release(grant, 0.0, extra=-45.0)
        assert await backend.usage("read", rules, 0.0) == (0,)
        again = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(again, Grant)
        await backend.cancel(again)


@pytest.mark.asyncio
async def test_the_script_answers_what_the_in_memory_backend_answers(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    """Random runs of every operation against both backends: the same grants, refusals,
    waits, factors and usage. Long periods and anchors at least 40 s from any window's
    edge keep every decision away from the moment it is taken."""
    rules = [Rule(4, 100.0), Rule(8, 200.0), Rule(40, 200.0, per="weight")]
    # Anchored 500 s ago a slot counts nowhere, 150 s ago only for the 200 s rules.
    extras = [-500.0, -500.0, -150.0, -60.0, 0.0, 7.0]
    rng = random.Random(20240613)
    # Which releases were 429s: drawn apart, so that the runs' other draws stay the same.
    refusals = random.Random(7)
    memory = InMemoryBackend()
    origin = await server_us(redis_client)

    def local(us: float) -> float:
        # The in-memory clock: seconds since the test began, small enough to be exact.
        return (us - origin) / MICROS

    outcomes: dict[str, int] = {}
    async with RedisBackend(redis_server.url, key_prefix=key_prefix) as backend:
        # Each run starts with an empty key: a key fills up, since no slot ever expires here.
        for run in range(8):
            key = f"batch-{run}"
            held: list[tuple[Grant, Grant]] = []
            done: list[tuple[Grant, Grant]] = []
            for _ in range(40):
                action = rng.choices(
                    ["acquire", "release", "cancel", "penalize", "recover", "usage", "again"],
                    weights=[10, 6, 1, 1, 1, 2, 1],
                )[0]
                if action == "acquire":
                    weight = rng.randint(1, 14)
                    before = await server_us(redis_client)
                    answer = await backend.acquire(key, rules, weight, 0.0)
                    after = await server_us(redis_client)
                    expected = await memory.acquire(key, rules, weight, local(before))
                    if isinstance(expected, Grant):
                        assert isinstance(answer, Grant)
                        assert answer.rate_factor == expected.rate_factor
                        held.append((answer, expected))
                        outcome = "granted"
                    elif expected == float("inf"):
                        assert answer == float("inf")
                        outcome = "in flight"
                    else:
                        deadline = origin + round((local(before) + expected) * MICROS)
                        assert_wait(answer, deadline, before, after)
                        outcome = "wait"
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
                elif action == "release" and held:
                    pair = held.pop(rng.randrange(len(held)))
                    extra = rng.choice(extras)
                    before = await server_us(redis_client)
                    admitted = refusals.random() < 0.7
                    await backend.release(pair[0], 0.0, extra=extra, admitted=admitted)
                    slots, _, _, _ = backend.keys(key)
                    anchor = await redis_client.zscore(slots, member(pair[0]) + ("" if admitted else "|r"))
                    if anchor is None:
                        # Anchored where it counts for no rule, and the newest slot of the
                        # key: the key expired at once (any anchor that far back does here).
                        assert extra * MICROS + 200 * MICROS < 0
                        anchor = before + extra * MICROS
                    await memory.release(pair[1], local(anchor) - extra, extra=extra, admitted=admitted)
                    done.append(pair)
                elif action == "cancel" and held:
                    pair = held.pop(rng.randrange(len(held)))
                    await backend.cancel(pair[0])
                    await memory.cancel(pair[1])
                elif action == "again" and done:
                    # Releasing or cancelling a settled grant again changes nothing.
                    pair = rng.choice(done)
                    await backend.release(pair[0], 0.0, extra=-60.0)
                    await memory.release(pair[1], 0.0, extra=-60.0)
                    await backend.cancel(pair[0])
                    await memory.cancel(pair[1])
                elif action == "penalize":
                    factor = rng.choice([0.9, 0.6, 0.35, 0.2, 0.05])
                    before = await server_us(redis_client)
                    learned = await backend.penalize(key, 0.0, factor, 0.0)
                    assert learned == await memory.penalize(key, 0.0, factor, local(before))
                elif action == "recover":
                    factor = rng.choice([0.3, 0.5, 0.8, 1.0, 1.3])
                    assert await backend.recover(key, factor) == await memory.recover(key, factor)
                elif action == "usage":
                    before = await server_us(redis_client)
                    used = await backend.usage(key, rules, 0.0)
                    assert used == await memory.usage(key, rules, local(before))
                    window = await backend.window(key, rules, 0.0)
                    assert window == await memory.window(key, rules, local(before))
    # The runs went through every kind of answer, each many times.
    assert set(outcomes) == {"granted", "in flight", "wait"}, outcomes
    assert min(outcomes.values()) >= 10, outcomes
