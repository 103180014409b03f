"""A real redis-server for the Redis backend tests, started and stopped by the tests themselves.

The server runs without persistence (``--save '' --appendonly no``) on a free
loopback port; the Redis Cluster (``benchmarks/_redis/_cluster.py``) is three
such servers with ``--cluster-enabled yes``, joined by ``redis-cli``. When
``redis-server`` (or, for the cluster, ``redis-cli``) is not on PATH the tests
that need it are skipped, with the reason shown in the test report.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
import redis.asyncio as redis_asyncio
from redis.asyncio.cluster import RedisCluster as ClusterClient
from redis_server import RedisServer, free_port

from benchmarks._redis._cluster import RedisCluster
from route_planning_async.redis import RedisBackend


def _executable(name: str = "redis-server") -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not on PATH: the Redis backend tests need a real server")
    return found


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A redis-server shared by the tests of this directory (each test uses its own key prefix)."""
    server = RedisServer(_executable(), free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[RedisCluster]:
    """A Redis Cluster of three masters shared by the tests of this directory."""
    cluster = RedisCluster(_executable(), _executable("redis-cli"))
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest_asyncio.fixture
async def cluster_client(redis_cluster: RedisCluster) -> AsyncIterator[ClusterClient]:
    """A redis-py cluster client of the cluster, set up as docs/redis.md shows."""
    client = ClusterClient(host="127.0.0.1", port=redis_cluster.ports[0], socket_timeout=None)
    await client.initialize()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def private_redis_server() -> Iterator[RedisServer]:
    """A redis-server of the test's own, for tests that stop or restart it."""
    server = RedisServer(_executable(), free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def key_prefix() -> str:
    """A key prefix no other test uses."""
    return f"rp-test-{uuid.uuid4().hex[:12]}"


@pytest_asyncio.fixture
async def redis_client(redis_server: RedisServer) -> AsyncIterator[redis_asyncio.Redis]:
    """A plain redis-py client of the shared server, to look at the keys."""
    client = redis_asyncio.Redis.from_url(redis_server.url)
    try:
        yield client
    finally:
        await client.aclose()


@pytest_asyncio.fixture
async def two_processes(
    redis_server: RedisServer, key_prefix: str
) -> AsyncIterator[tuple[RedisBackend, RedisBackend]]:
    """Two backends on one prefix of the shared server: two processes sharing every key."""
    async with (
        RedisBackend(redis_server.url, key_prefix=key_prefix) as first,
        RedisBackend(redis_server.url, key_prefix=key_prefix) as second,
    ):
        yield first, second
