"""Processes sharing one key prefix: they must agree on the rules, and each category keeps one slot.

The same style as ``test_redis_script.py``: long periods where something must
still count while the test looks, and the server's clock where something must
have ended, so that no answer depends on how fast the machine is.
"""

from __future__ import annotations

import pytest
import redis.asyncio as redis_asyncio
from redis.crc import key_slot
from redis_server import RedisServer
from test_redis_script import existing_keys, pexpiretime, sleep_until

from route_planning_async import ConfigurationError
from route_planning_async._rate_limits._backends import Grant
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.redis import RedisBackend

pytestmark = pytest.mark.redis

MICROS = 1_000_000


async def in_flight(client: redis_asyncio.Redis, backend: RedisBackend, key: str) -> int:
    """How many slots of ``key`` are in flight now."""
    _, inflight, _, _ = backend.keys(key)
    return int(await client.zcard(inflight))


@pytest.mark.asyncio
async def test_a_process_with_other_rules_fails_closed_before_sending(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    # A long window here and a short one there: the short one must neither trim the
    # long one's slots nor be admitted beside them.
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as long_window,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as short_window,
    ):
        for _ in range(20):
            grant = await long_window.acquire("read", [Rule(20, 60.0)], 1, 0.0)
            assert isinstance(grant, Grant)
            await long_window.release(grant, 0.0)
        with pytest.raises(ConfigurationError) as raised:
            await short_window.acquire("read", [Rule(100, 1.0)], 1, 0.0)
        message = str(raised.value)
        assert f"key_prefix {key_prefix!r}" in message
        assert "'read'" in message
        assert "(100 requests per 1.0 s)" in message
        assert "(20 requests per 60.0 s)" in message
        assert "nothing was sent" in message
        # Nothing taken, nothing trimmed: the long window still counts its 20 slots.
        assert await in_flight(redis_client, short_window, "read") == 0
        assert await long_window.usage("read", [Rule(20, 60.0)], 0.0) == (20,)
        assert not isinstance(await long_window.acquire("read", [Rule(20, 60.0)], 1, 0.0), Grant)


@pytest.mark.asyncio
async def test_a_process_without_rules_and_one_with_rules_exclude_each_other(
    redis_server: RedisServer, key_prefix: str
) -> None:
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as unlimited,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as limited,
    ):
        assert isinstance(await unlimited.acquire("optimize", [], 1, 0.0), Grant)
        with pytest.raises(ConfigurationError, match=r"\(3 requests per 60\.0 s\) differ .* \(no rules\)"):
            await limited.acquire("optimize", [Rule(3, 60.0)], 1, 0.0)
        assert isinstance(await limited.acquire("read", [Rule(3, 60.0)], 1, 0.0), Grant)
        with pytest.raises(ConfigurationError, match=r"\(no rules\) differ .* \(3 requests per 60\.0 s\)"):
            await unlimited.acquire("read", [], 1, 0.0)


@pytest.mark.asyncio
async def test_the_same_rules_in_another_order_or_learned_lower_are_the_same_rules(
    redis_server: RedisServer, key_prefix: str
) -> None:
    rules = [Rule(10, 60.0), Rule(1000, 60.0, per="weight")]
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
    ):
        grant = await first.acquire("batch_import", rules, 100, 0.0)
        assert isinstance(grant, Grant)
        assert await first.penalize("batch_import", 0.0, 0.5, 0.0) == 0.5
        later = await second.acquire("batch_import", rules[::-1], 100, 0.0)
        assert isinstance(later, Grant)
        assert later.rate_factor == 0.5


@pytest.mark.asyncio
async def test_the_stored_rules_last_as_long_as_the_slots(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    period = 0.05
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as old,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as new,
    ):
        # A cancelled slot leaves nothing behind, its rules neither.
        grant = await old.acquire("write", [Rule(5, period)], 1, 0.0)
        assert isinstance(grant, Grant)
        await old.cancel(grant)
        assert await existing_keys(redis_client, key_prefix) == []
        grant = await old.acquire("write", [Rule(5, period)], 1, 0.0)
        assert isinstance(grant, Grant)
        await old.release(grant, 0.0)
        slots, _, _, rules = old.keys("write")
        assert await existing_keys(redis_client, key_prefix) == sorted([rules.encode(), slots.encode()])
        expires = await pexpiretime(redis_client, slots)
        # The script reads the slots' PTTL and sets the rules' from it: the server's clock may
        # tick a millisecond between the two (as in test_redis_script.py).
        assert abs(await pexpiretime(redis_client, rules) - expires) <= 1
        # Once the old process's last slot stopped counting, other limits may start.
        await sleep_until(redis_client, expires * 1000 + 2_000)
        assert isinstance(await new.acquire("write", [Rule(10, period)], 1, 0.0), Grant)
        with pytest.raises(ConfigurationError, match="'write'"):
            await old.acquire("write", [Rule(5, period)], 1, 0.0)


PREFIXES = ["}x", "a{", "{}", "x}y{z", "}", "{", "a}b", "100%", "team-42"]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_key_of_a_category_has_one_cluster_slot_whatever_the_prefix(
    redis_server: RedisServer, prefix: str
) -> None:
    backend = RedisBackend(redis_server.url, key_prefix=prefix)
    for category in ("read", "batch_import", "}", "{"):
        keys = backend.keys(category)
        assert len({key_slot(key.encode()) for key in keys}) == 1, keys
        # The hash tag is the whole braced part: not empty, ended by no brace of the prefix.
        tag = keys[0][: keys[0].index("}") + 1]
        assert len(tag) > 2
        assert all(key.startswith(tag) for key in keys), keys


def test_every_prefix_and_category_has_keys_of_its_own(redis_server: RedisServer) -> None:
    names = [*PREFIXES, "}x%", "%7Dx", "a%7B", "a%25"]
    seen = {
        (prefix, category): RedisBackend(redis_server.url, key_prefix=prefix).keys(category)
        for prefix in names
        for category in ("read", "write")
    }
    every_key = [key for keys in seen.values() for key in keys]
    assert len(set(every_key)) == len(every_key)


@pytest.mark.asyncio
@pytest.mark.parametrize("prefix", ["}x", "x}y{z"])
async def test_a_braced_prefix_keeps_its_keys_in_one_slot_on_the_server(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str, prefix: str
) -> None:
    prefix = prefix + key_prefix
    rules = [Rule(5, 30.0)]
    async with RedisBackend(redis_server.url, key_prefix=prefix) as backend:
        first = await backend.acquire("read", rules, 1, 0.0)
        second = await backend.acquire("read", rules, 1, 0.0)
        assert isinstance(first, Grant)
        assert isinstance(second, Grant)
        await backend.release(first, 0.0)
        await backend.penalize("read", 0.0, 0.5, 0.0)
        written = [key for key in await redis_client.keys("*") if key_prefix.encode() in key]
        assert sorted(written) == sorted(key.encode() for key in backend.keys("read"))
        assert len({key_slot(key) for key in written}) == 1, written
