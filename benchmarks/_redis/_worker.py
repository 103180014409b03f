"""One worker process sharing an API key: its own client, event loop and mixed load.

The Redis benchmark (``bench_redis.py``) and the multi-process Redis tests
(``tests/redis/test_redis_processes.py``) both run it. The parent starts it with
``multiprocessing`` (spawn), waits until it reports ready (its plans created),
sets the shared ``go`` event, and reads its :class:`WorkerResult` from the
results queue when the run is over.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from typing import TypeVar

import attrs
from redis.asyncio.cluster import RedisCluster

from route_planning_async import (
    AddressInput,
    Grant,
    RateLimits,
    RetryPolicy,
    RoutePlanningClient,
    RoutePlanningError,
    Rule,
    StopInput,
)
from route_planning_async.redis import RedisBackend, RedisBackendError

__all__ = ["WorkerPlan", "WorkerResult", "main"]

_STARTS = datetime.date(2030, 1, 7)
_DRIVERS = ("drivers/driver-ana",)
_SETUP_TRIES = 10
"""Tries of each call made while getting ready, while Redis fails (closed)."""

T = TypeVar("T")


@attrs.frozen
class WorkerPlan:
    """What one worker does."""

    index: int
    """The worker's number; seeds its randomness and names its plans."""
    base_url: str
    """The emulator's base URL (plain HTTP on loopback)."""
    api_key: str
    """The emulator's API key."""
    limits: RateLimits
    """The client-side limits (the emulator's, sped up)."""
    redis_url: str | None
    """The shared Redis; None gives the client its default in-memory backend."""
    key_prefix: str
    """The shared key prefix."""
    duration: float
    """Seconds of load after the ``go`` event."""
    lease: float = 300.0
    """The Redis backend's lease (its default); the client's timeout is kept below it."""
    tasks: int = 3
    """Concurrent tasks per category."""
    cluster: bool = False
    """Whether ``redis_url`` names a node of a Redis Cluster (reached through
    ``redis.asyncio.cluster.RedisCluster``)."""
    seed: int = 0
    """Seeds the retry policy's randomness with the worker's index (one run of several)."""


@attrs.frozen
class WorkerResult:
    """What one worker saw."""

    index: int
    """The worker's number."""
    sent: dict[str, int]
    """Attempts sent per category (the client's stats)."""
    rate_limited: dict[str, int]
    """429 answers per category (the client's stats)."""
    backend_errors: int
    """Requests that failed closed because Redis could not be reached."""
    other_errors: dict[str, int]
    """Any other exception, by type name (should stay empty)."""


def _stops(count: int, offset: int) -> list[StopInput]:
    return [
        StopInput(address=AddressInput(latitude=51.5 + (offset + i) / 100_000, longitude=-0.12))
        for i in range(count)
    ]


async def _warm_up(backend: RedisBackend) -> None:
    """Run every script of the backend once, on a key of its own, before the load: a client
    loads a script (on every master of a cluster) and opens its connections the first time it
    uses them, which takes more than the backend's timeout on a loaded machine. Nothing is left
    behind (a released slot anchored in the past, a pause of none, the factor back at 1.0)."""
    key, rules = "warm-up", [Rule(1000, 1.0)]
    for _ in range(2):
        grant = await backend.acquire(key, rules, 1, 0.0)
        if isinstance(grant, Grant):
            await backend.release(grant, 0.0, extra=-10.0, admitted=False)
    grant = await backend.acquire(key, rules, 1, 0.0)
    if isinstance(grant, Grant):
        await backend.cancel(grant)
    await backend.window(key, rules, 0.0)
    await backend.penalize(key, 0.0, 1.0, 0.0)
    await backend.recover(key, 1.0)
    await backend.claim_probe(key, 0.001, 0.0)


async def _until_redis_answers(call: Callable[[], Awaitable[T]]) -> T:
    """``call()``, again while Redis fails (closed): getting ready is not measured."""
    for _ in range(_SETUP_TRIES - 1):
        try:
            return await call()
        except RedisBackendError:
            await asyncio.sleep(0.1)
    return await call()


async def _run(plan: WorkerPlan, ready: Queue[tuple[int, str]], go: Event) -> WorkerResult:
    cluster = (
        RedisCluster.from_url(plan.redis_url, socket_timeout=None)
        if plan.cluster and plan.redis_url is not None
        else None
    )
    backend = (
        RedisBackend(cluster or plan.redis_url, key_prefix=plan.key_prefix, lease=plan.lease, timeout=0.5)
        if plan.redis_url is not None
        else None
    )
    backend_errors = 0
    other_errors: Counter[str] = Counter()
    client = RoutePlanningClient(
        plan.api_key,
        base_url=plan.base_url,
        rate_limits=plan.limits,
        retry=RetryPolicy(rng=random.Random(plan.seed * 1000 + plan.index)),
        rate_limit_backend=backend,
        timeout=min(plan.lease * 0.9, 60.0),
    )
    async with client:
        title = f"worker {plan.index}"
        if cluster is not None:
            await _until_redis_answers(cluster.initialize)
        if backend is not None:
            await _until_redis_answers(functools.partial(_warm_up, backend))
        create = functools.partial(client.plans.create, title=title, starts=_STARTS, drivers=_DRIVERS)
        read_plan = await _until_redis_answers(create)
        write_plan = await _until_redis_answers(create)
        bulk_plan = await _until_redis_answers(create)
        # Optimizations need fresh plans: the write tasks keep a few in stock.
        fresh_plans: asyncio.Queue[str] = asyncio.Queue()
        creating = 0
        for _ in range(3):
            fresh = await _until_redis_answers(create)
            fresh_plans.put_nowait(fresh.id)
        ready.put((plan.index, backend.instance if backend is not None else ""))
        await asyncio.to_thread(go.wait)
        deadline = asyncio.get_running_loop().time() + plan.duration
        counter = 0

        async def read() -> None:
            await client.plans.get(read_plan.id)

        async def write() -> None:
            nonlocal counter, creating
            counter += 1
            if fresh_plans.qsize() + creating < 2 * plan.tasks:
                creating += 1
                try:
                    fresh = await client.plans.create(title=title, starts=_STARTS, drivers=_DRIVERS)
                finally:
                    creating -= 1
                fresh_plans.put_nowait(fresh.id)
            else:
                await client.plans.update(write_plan.id, title=f"{title} #{counter}")

        async def batch_import() -> None:
            nonlocal counter
            counter += 100
            await client.stops.import_batch(bulk_plan.id, _stops(100, counter))

        async def optimize() -> None:
            await client.plans.optimize(await fresh_plans.get())

        async def loop(action: str) -> None:
            nonlocal backend_errors
            step = {"read": read, "write": write, "batch_import": batch_import, "optimize": optimize}[action]
            while asyncio.get_running_loop().time() < deadline:
                try:
                    await step()
                except RedisBackendError:
                    backend_errors += 1
                    await asyncio.sleep(0.05)
                except RoutePlanningError as exc:
                    other_errors[f"{type(exc).__name__}: {exc}"] += 1

        actions = ["read", "write", "batch_import", "optimize"]
        loops = [asyncio.create_task(loop(action)) for action in actions for _ in range(plan.tasks)]
        try:
            async with asyncio.timeout_at(deadline):
                await asyncio.gather(*loops)
        except TimeoutError:
            pass
        stats = client.stats
    if backend is not None:
        await backend.aclose()
    if cluster is not None:
        await cluster.aclose()
    return WorkerResult(
        plan.index,
        {str(category): stats[category].sent for category in stats},
        {str(category): stats[category].rate_limited for category in stats},
        backend_errors,
        dict(other_errors),
    )


def main(plan: WorkerPlan, ready: Queue[tuple[int, str]], go: Event, results: Queue[WorkerResult]) -> None:
    """The process entry point."""
    results.put(asyncio.run(_run(plan, ready, go)))
