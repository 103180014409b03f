"""The Redis backend on a real Redis Cluster: three masters started by the tests themselves.

The cluster (``benchmarks/_redis/_cluster.py``, which the benchmark's fleet runs
on too: ``redis-server --cluster-enabled yes`` on loopback, joined by
``redis-cli --cluster create``) is reached as
docs/redis.md shows, through a borrowed ``redis.asyncio.cluster.RedisCluster``.
Every key of one category shares one hash tag, so each script runs on the node
that holds the category; the categories themselves spread over the masters. The
fleet of worker processes runs here too (``test_redis_processes.py``).
"""

from __future__ import annotations

import pytest
from redis.asyncio.cluster import RedisCluster as ClusterClient
from redis.crc import key_slot
from support.examples import examples, run_fragment

from benchmarks._redis._cluster import RedisCluster
from route_planning_async import ConfigurationError
from route_planning_async._rate_limits._backends import Grant, WindowCount
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.emulator import Emulator
from route_planning_async.redis import RedisBackend, RedisBackendError

pytestmark = pytest.mark.redis

CATEGORIES = [f"category-{index}" for index in range(12)]


@pytest.mark.asyncio
async def test_every_script_runs_on_the_node_of_its_category(
    redis_cluster: RedisCluster, cluster_client: ClusterClient, key_prefix: str
) -> None:
    rules = [Rule(2, 60.0), Rule(10, 60.0, per="weight")]
    async with (
        RedisBackend(cluster_client, key_prefix=key_prefix) as first,
        RedisBackend(cluster_client, key_prefix=key_prefix) as second,
    ):
        assert repr(first).startswith("<RedisBackend cluster 127.0.0.1:")
        nodes = set()
        for category in CATEGORIES:
            keys = first.keys(category)
            assert len({key_slot(key.encode()) for key in keys}) == 1
            node = cluster_client.get_node_from_key(keys[0])
            assert node is not None
            nodes.add(node.name)
            granted = await first.acquire(category, rules, 4, 0.0)
            assert isinstance(granted, Grant)
            refused = await second.acquire(category, rules, 3, 0.0)
            assert isinstance(refused, Grant)
            # Two requests per minute: a third waits for an answer, whoever asks.
            assert await second.acquire(category, rules, 1, 0.0) == float("inf")
            await first.release(granted, 0.0)
            await second.release(refused, 0.0, admitted=False)
            assert await second.window(category, rules, 0.0) == (WindowCount(1, 1, 0), WindowCount(4, 3, 0))
            assert await first.usage(category, rules, 0.0) == (1, 4)
            wait = await first.acquire(category, rules, 1, 0.0)
            assert isinstance(wait, float)
            assert 59.0 < wait <= 60.0
            # The anchored slots and the stored rules live on the category's node.
            slots, _, _, stored_rules = keys
            assert await cluster_client.exists(slots, stored_rules) == 2
        # The categories are spread over the masters: the cluster, not one node, holds them.
        assert len(nodes) == len(redis_cluster.ports)


@pytest.mark.asyncio
async def test_the_learned_factor_the_pause_and_the_probe_turn_are_shared_on_a_cluster(
    cluster_client: ClusterClient, key_prefix: str
) -> None:
    rules = [Rule(10, 30.0)]
    async with (
        RedisBackend(cluster_client, key_prefix=key_prefix) as first,
        RedisBackend(cluster_client, key_prefix=key_prefix) as second,
    ):
        for category in CATEGORIES[:4]:
            assert await first.penalize(category, 0.0, 0.5, 0.0) == 0.5
            granted = await second.acquire(category, rules, 1, 0.0)
            assert isinstance(granted, Grant)
            assert granted.rate_factor == 0.5
            await second.cancel(granted)
            assert await second.recover(category, 0.7) == 0.7
            assert await first.recover(category, 0.0) == 0.7
            assert await first.claim_probe(category, 60.0, 0.0) == 0.0
            assert 59.0 < await second.claim_probe(category, 60.0, 0.0) <= 60.0
            # The scout's turn is a key of its own, on whichever node holds it.
            assert await second.claim_probe(f"{category}/scout", 1.0, 0.0) == 0.0
            assert await first.penalize(category, 30.0, 1.0, 0.0) == 0.7
            assert 29.0 < await second.acquire(category, rules, 1, 0.0) <= 30.0


@pytest.mark.asyncio
async def test_processes_with_other_rules_fail_closed_on_a_cluster(
    cluster_client: ClusterClient, key_prefix: str
) -> None:
    async with (
        RedisBackend(cluster_client, key_prefix=key_prefix) as first,
        RedisBackend(cluster_client, key_prefix=key_prefix) as second,
    ):
        assert isinstance(await first.acquire("read", [Rule(10, 1.0)], 1, 0.0), Grant)
        with pytest.raises(ConfigurationError, match="differ from those other processes stored"):
            await second.acquire("read", [Rule(20, 1.0)], 1, 0.0)


@pytest.mark.asyncio
async def test_a_redis_url_of_a_cluster_node_says_to_give_a_cluster_client(
    redis_cluster: RedisCluster,
) -> None:
    # Prefixes whose category keys live on the last of the three masters (slots 10923 and up,
    # as redis-cli --cluster create shares them out): the first node answers MOVED.
    names = (f"moved-{n}" for n in range(100))
    elsewhere = [name for name in names if key_slot(f"{{{name}:read}}".encode()) > 10922][:3]
    url = f"redis://127.0.0.1:{redis_cluster.ports[0]}/0"
    for prefix in elsewhere:
        async with RedisBackend(url, key_prefix=prefix) as backend:
            with pytest.raises(RedisBackendError) as raised:
                await backend.acquire("read", [Rule(5, 1.0)], 1, 0.0)
        assert "the server is a node of a Redis Cluster" in str(raised.value)
        assert "give RedisBackend a redis.asyncio.cluster.RedisCluster" in str(raised.value)


def test_a_cluster_client_is_a_setting_the_backend_takes() -> None:
    with pytest.raises(ConfigurationError, match=r"redis\.asyncio\.cluster\.RedisCluster, got int"):
        RedisBackend(6379, key_prefix="team-42")  # type: ignore[arg-type]


DOCS_NODE = "redis://redis-node-1:6379"


@pytest.mark.asyncio
async def test_the_docs_cluster_example_runs(
    redis_cluster: RedisCluster, cluster_client: ClusterClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    [example] = [e for e in examples() if "RedisBackend(cluster" in e.code]
    assert example.path.name == "redis.md"
    # The example's node is the team's; here it is one of the test's own masters.
    node = f"redis://127.0.0.1:{redis_cluster.ports[1]}"
    code = example.code.replace(DOCS_NODE, node).replace(
        "        ...", "        plans = await client.plans.list().collect()"
    )
    local = type(example)(example.path, example.line, code)
    async with Emulator(speedup=60, tls=False) as emu:
        monkeypatch.setenv("ROUTE_PLANNING_API_KEY", emu.api_key)
        monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", emu.base_url)
        namespace = await run_fragment(local, {})
    assert namespace["plans"] == []
    assert await cluster_client.exists("{team-42:read}:slots") == 1, (
        "the request was not counted in the cluster"
    )
