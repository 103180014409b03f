"""A Redis rate-limit backend, so that several processes share one API key's limits.

Give every process that uses the API key the same Redis server, key prefix and limits::

    from route_planning_async import RoutePlanningClient
    from route_planning_async.redis import RedisBackend

    async with RedisBackend("redis://localhost:6379/0", key_prefix="team-42") as backend:
        async with RoutePlanningClient(api_key, rate_limit_backend=backend) as client:
            report = await client.stops.import_many(plan_id, stops)

It needs the ``redis`` extra (``pip install "route_planning_async[redis]"``).
What it guarantees, how it fails and the keys it keeps: ``docs/redis.md``.
"""

try:
    from route_planning_async.redis._backend import RedisBackend, RedisBackendError
except ModuleNotFoundError as exc:  # pragma: no cover - exercised only without the extra
    if (exc.name or "").partition(".")[0] != "redis":
        raise
    raise ImportError(
        'route_planning_async.redis needs redis-py: pip install "route_planning_async[redis]"'
    ) from exc

__all__ = ["RedisBackend", "RedisBackendError"]
