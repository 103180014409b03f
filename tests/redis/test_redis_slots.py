"""The Redis backend's three kinds of slot (in flight, admitted, refused), kept apart across processes.

The contract is the in-memory backend's (``tests/rate_limits/test_backend_slots.py``);
here every slot is anchored tens of seconds away from any window's edge on the
server's clock (``test_redis_learning.py``'s style), so that no answer depends on
how fast the machine is.
"""

from __future__ import annotations

import pytest
import redis.asyncio as redis_asyncio
from redis_server import RedisServer
from test_redis_script import member, sleep_until

from route_planning_async._rate_limits._backends import Grant, WindowCount
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.redis import RedisBackend

pytestmark = pytest.mark.redis

RULES = [Rule(10, 20.0), Rule(10, 60.0), Rule(100, 60.0, per="weight")]


@pytest.mark.asyncio
async def test_each_kind_of_slot_is_counted_apart_by_every_process(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, key_prefix: str
) -> None:
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
        RedisBackend(redis_server.url, key_prefix=key_prefix, lease=0.01) as dying,
    ):
        assert await second.window("batch", RULES, 0.0) == (WindowCount(0, 0, 0),) * 3
        assert await second.window("batch", [], 0.0) == ()
        grants: dict[str, Grant] = {}
        for name, weight in (("older", 3), ("recent", 4), ("refused", 5), ("unanswered", 6), ("flying", 7)):
            grant = await first.acquire("batch", RULES, weight, 0.0)
            assert isinstance(grant, Grant)
            grants[name] = grant
        # Nothing answered yet: another process sees everything in flight, in every window.
        assert await second.window("batch", RULES, 0.0) == (WindowCount(0, 0, 5),) * 2 + (
            WindowCount(0, 0, 25),
        )
        await first.release(grants["older"], 0.0, extra=-40.0)  # only in the 60 s windows
        await first.release(grants["recent"], 0.0)
        await first.release(grants["refused"], 0.0, admitted=False)  # a 429
        await first.release(grants["unanswered"], 0.0, extra=5.0, admitted=False)  # no answer
        assert await second.window("batch", RULES, 0.0) == (
            WindowCount(admitted=1, refused=2, in_flight=1),
            WindowCount(admitted=2, refused=2, in_flight=1),
            WindowCount(admitted=3 + 4, refused=5 + 6, in_flight=7),
        )
        assert await second.usage("batch", RULES, 0.0) == (1, 2, 7)
        # Only the rules asked about, in their order.
        assert await second.window("batch", [RULES[2], RULES[0]], 0.0) == (
            WindowCount(7, 11, 7),
            WindowCount(1, 2, 1),
        )
        # A slot whose holder died counts as not known admitted once its lease has run out,
        # whether or not an acquisition has anchored it at the lease's end yet ('|x').
        lost = await dying.acquire("batch", RULES, 8, 0.0)
        assert isinstance(lost, Grant)
        assert (await second.window("batch", RULES, 0.0))[2] == WindowCount(7, 11, 15)
        slots, inflight, _, _ = dying.keys("batch")
        lease_end = await redis_client.zscore(inflight, member(lost))
        assert lease_end is not None
        await sleep_until(redis_client, lease_end)
        assert (await second.window("batch", RULES, 0.0))[2] == WindowCount(7, 19, 7)
        probe = await second.acquire("batch", RULES, 1, 0.0)
        assert isinstance(probe, Grant)
        await second.cancel(probe)
        assert await redis_client.zscore(slots, member(lost) + "|x") == lease_end
        assert (await second.window("batch", RULES, 0.0))[2] == WindowCount(7, 19, 7)
        # A cancelled slot was never sent: it counts nowhere.
        await first.cancel(grants["flying"])
        assert await second.window("batch", RULES, 0.0) == (
            WindowCount(1, 3, 0),
            WindowCount(2, 3, 0),
            WindowCount(7, 19, 0),
        )
        # Every kind counts when a request asks to be admitted: 26 of the 60 s window's 100
        # stops are taken (3 + 4 + 5 + 6 + 8), so 75 more wait, 74 pass.
        assert not isinstance(await second.acquire("batch", RULES, 75, 0.0), Grant)
        assert isinstance(await second.acquire("batch", RULES, 74, 0.0), Grant)
