"""The README's Redis example runs, against a real redis-server and the emulator."""

from __future__ import annotations

import pytest
import redis.asyncio as redis_asyncio
from redis_server import RedisServer
from support.examples import examples, run_fragment

from route_planning_async.emulator import Emulator

README_URL = "redis://redis.internal:6379/0"


@pytest.mark.asyncio
async def test_the_readme_redis_example_runs(
    redis_server: RedisServer, redis_client: redis_asyncio.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    [example] = [e for e in examples() if f'RedisBackend("{README_URL}"' in e.code]
    # The example's address is the team's Redis; here it is the test's own server.
    local = type(example)(example.path, example.line, example.code.replace(README_URL, redis_server.url))
    # Plain HTTP on loopback: the example's client is built from the environment alone.
    async with Emulator(speedup=60, tls=False) as emu:
        monkeypatch.setenv("ROUTE_PLANNING_API_KEY", emu.api_key)
        monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", emu.base_url)
        namespace = await run_fragment(local, {})
    assert namespace["plans"] == []
    # Keys are named "{team-42:<category>}:..." (see docs/redis.md).
    assert await redis_client.keys("{team-42:read}:*"), "the example's request was not counted in Redis"
