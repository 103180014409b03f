"""A Redis rate-limit backend, so that several processes share one API key's limits.

The contract (Limits) counts requests per API key, whichever process sends
them. Each process's scheduler keeps its own FIFO queue, and all of them take
their slots from one Redis server::

    from route_planning_async import RoutePlanningClient
    from route_planning_async.redis import RedisBackend

    async with RedisBackend("redis://localhost:6379/0", key_prefix="team-42") as backend:
        async with RoutePlanningClient(api_key, rate_limit_backend=backend) as client:
            report = await client.stops.import_many(plan_id, stops)

Every process that uses the same API key must use the same Redis server, the
same ``key_prefix`` and the same limits. It needs the ``redis`` extra
(``pip install "route_planning_async[redis]"``); nothing else in the package
imports ``redis``.

What it guarantees
------------------

It implements :class:`~route_planning_async._backends.RateLimitBackend`
with the semantics of the in-memory default, the scheduler's safety argument
included, across processes:

- Every rule of a category (sliding windows, weighted rules, several rules per
  category) is checked, and the slot taken in all of them or in none, by one
  Lua script in one round trip (``EVALSHA``; the script is loaded again by
  itself after a server restart).
- All times are the Redis server's clock (``TIME``), never a client's: the
  processes' clocks need not agree. The scheduler's ``now`` is ignored.
- A slot is *in flight* from admission until the attempt ends, then anchored at
  the end (the answer) and counted for one (stretched) period more.
- A refused acquisition answers how long to wait, computed by the script from
  the anchored slots; a process sleeps that long instead of polling. When only
  in-flight slots block, it answers ``math.inf`` and the scheduler asks again
  after its re-check interval (``min(shortest period, 1 s)``).
- A 429 seen by one process pauses and slows the category for every process
  (the penalty lives in Redis); the recovery steps of every process apply to
  it, and it lapses one stretched period after the category's traffic stops.
- Each in-flight slot carries a lease (``lease`` seconds, which must exceed the
  client's timeout per attempt). A process that dies holding slots loses them
  for at most ``lease`` plus one period: when the lease runs out the slot is
  anchored at the lease's end. A process that dies holding nothing leaks nothing.
- Every key has a ``PEXPIRE``: a category's keys vanish one (stretched) period
  after its last slot stopped counting.

What it does not guarantee
--------------------------

- **FIFO across processes is best effort.** Within a process the scheduler's
  FIFO queue still holds; between processes, whichever head asks first when
  capacity frees gets it, so a heavy batch import in one process can be
  overtaken by single requests of another.
- The slots live in Redis memory. Without persistence a restart loses them;
  the backend then holds the category for one period (below), but only once a
  process that spoke to the old server asks: a process started after the
  restart is not held, and may use what the lost slots still covered.
- ``TIME`` is the server's wall clock: if it is stepped (not slewed), windows
  shift by the step.

Failure behaviour: fail closed
------------------------------

No request is sent that Redis did not admit. When Redis cannot be reached, is
slower than ``timeout`` or answers an error, ``acquire`` and ``penalize`` raise
:class:`RedisBackendError` (one reconnection is tried first, within ``timeout``);
the request that was waiting fails with it and nothing is sent. The next
request tries Redis again, so the client recovers by itself once Redis is back.
An acquisition whose answer was lost (or whose caller was cancelled) gives back
the slot the script may have granted.

Bookkeeping after a request was sent never raises, since the answer must reach
the caller: a failed ``release`` or ``recover`` is logged as a warning on the
``route_planning_async.redis`` logger, and the slot it could not anchor is
anchored by its lease instead (it counts for at most ``lease`` plus one period).

A restarted Redis (its ``run_id`` changed since this process last spoke to it)
has lost the slots of the last period. The first acquisition of a category by a
process that saw the old server then pauses the category for its longest
period from that moment, if the server has been up for less than that, so that
what was sent before the restart has left the service's windows before new
slots are given.

Keys
----

For a category ``read`` and ``key_prefix="team-42"``: ``{team-42:read}:slots``
(a sorted set of anchored slots, scored by anchor in microseconds),
``{team-42:read}:inflight`` (in-flight slots scored by lease end) and
``{team-42:read}:penalty`` (a hash: ``until``, ``factor``, ``id``). The braces
keep a category's keys in one Redis Cluster slot, as one script needs.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import math
import secrets
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Self

from route_planning_async._backends import Grant
from route_planning_async._errors import ConfigurationError, RoutePlanningError
from route_planning_async._limits import Rule

try:
    import redis.asyncio as redis_asyncio
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import RedisError
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'route_planning_async.redis needs redis-py: pip install "route_planning_async[redis]"'
    ) from exc

__all__ = ["RedisBackend", "RedisBackendError"]

logger = logging.getLogger("route_planning_async.redis")

_MICROS = 1_000_000

# Shared by every script: the server's clock in microseconds, TTLs that keep a
# sorted set until its newest entry stops counting, and the weight in a member.
_PRELUDE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local function ttl_ms(deadline)
  return math.max(1, math.ceil((deadline - now) / 1000))
end
local function expire_after_last(key, stretch)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if last[2] then
    redis.call('PEXPIRE', key, ttl_ms(tonumber(last[2]) + stretch))
  end
end
local function weight_of(member)
  return tonumber(string.match(member, '|(%d+)'))
end
"""

# KEYS: slots, inflight, penalty.
# ARGV: member ("<token>|<weight>"), weight, lease_us, seen_run_id, horizon_us,
#       then per rule: amount, period_us, per ("w" for weight rules).
# Answers {granted, wait_us (-1: only in-flight slots block), factor, run_id}.
_ACQUIRE = (
    _PRELUDE
    + """
local slots, inflight, penalty = KEYS[1], KEYS[2], KEYS[3]
local member, weight, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local seen_run_id, horizon = ARGV[4], tonumber(ARGV[5])

local info = redis.call('INFO', 'server')
local run_id = string.match(info, 'run_id:(%x+)')
local state = redis.call('HMGET', penalty, 'until', 'factor')
local paused_until = tonumber(state[1]) or 0
local factor = tonumber(state[2]) or 1

-- The server restarted since this caller last spoke to it: the slots of the
-- last period are gone, so hold the key until they would have stopped counting.
if seen_run_id ~= '' and seen_run_id ~= run_id and horizon > 0 then
  -- Whole seconds between two truncated clock readings: up to 1 s more than the truth.
  local uptime = (tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) - 1) * 1000000
  if uptime < horizon and now + horizon > paused_until then
    paused_until = now + horizon
    redis.call('HSET', penalty, 'until', paused_until)
    redis.call('PEXPIRE', penalty, ttl_ms(paused_until + horizon / factor))
  end
end
if paused_until > now then
  return {0, math.ceil(paused_until - now), tostring(factor), run_id}
end

-- In-flight slots whose lease ran out (their process died) become anchored at
-- the lease's end; '|x' marks them so that a late release still finds them.
local expired = redis.call('ZRANGEBYSCORE', inflight, '-inf', now, 'WITHSCORES')
for j = 1, #expired, 2 do
  redis.call('ZREM', inflight, expired[j])
  redis.call('ZADD', slots, expired[j + 1], expired[j] .. '|x')
end
if #expired > 0 then expire_after_last(slots, horizon / factor) end
if horizon > 0 then
  redis.call('ZREMRANGEBYSCORE', slots, '-inf', now - horizon / factor)
end

local flying = redis.call('ZRANGE', inflight, 0, -1)
local flying_weight = 0
for j = 1, #flying do flying_weight = flying_weight + weight_of(flying[j]) end

local wait = 0
for i = 6, #ARGV, 3 do
  local amount, period = tonumber(ARGV[i]), tonumber(ARGV[i + 1]) / factor
  local since = string.format('(%.17g', now - period)
  local rule_wait = 0
  if ARGV[i + 2] == 'w' then
    local live = redis.call('ZRANGEBYSCORE', slots, since, '+inf', 'WITHSCORES')
    local excess = flying_weight + weight - amount
    for j = 1, #live, 2 do excess = excess + weight_of(live[j]) end
    if excess > 0 then
      rule_wait = -1
      for j = 1, #live, 2 do
        excess = excess - weight_of(live[j])
        if excess <= 0 then
          rule_wait = tonumber(live[j + 1]) + period - now
          break
        end
      end
    end
  else
    -- Counting needs no scan: the excess-th live slot is the one to wait for.
    local excess = #flying + redis.call('ZCOUNT', slots, since, '+inf') + 1 - amount
    if excess > 0 then
      rule_wait = -1
      local nth = redis.call('ZRANGEBYSCORE', slots, since, '+inf', 'WITHSCORES', 'LIMIT', excess - 1, 1)
      if nth[2] then rule_wait = tonumber(nth[2]) + period - now end
    end
  end
  if rule_wait < 0 or wait < 0 then
    wait = -1
  elseif rule_wait > wait then
    wait = rule_wait
  end
end
if wait ~= 0 then
  return {0, wait < 0 and -1 or math.ceil(wait), tostring(factor), run_id}
end
if #ARGV >= 6 then
  redis.call('ZADD', inflight, now + lease, member)
  expire_after_last(inflight, horizon / factor)
end
return {1, 0, tostring(factor), run_id}
"""
)

# KEYS: slots, inflight, penalty. ARGV: member, extra_us, horizon_us. Answers 1 if anchored.
_RELEASE = (
    _PRELUDE
    + """
local slots, inflight, penalty = KEYS[1], KEYS[2], KEYS[3]
local member, anchor, horizon = ARGV[1], now + tonumber(ARGV[2]), tonumber(ARGV[3])
if redis.call('ZREM', inflight, member) == 0 then
  local late = member .. '|x'
  local lease_end = redis.call('ZSCORE', slots, late)
  if not lease_end then return 0 end
  redis.call('ZREM', slots, late)
  anchor = math.max(anchor, tonumber(lease_end))
end
redis.call('ZADD', slots, anchor, member)
local state = redis.call('HMGET', penalty, 'until', 'factor')
local factor = tonumber(state[2]) or 1
expire_after_last(slots, horizon / factor)
if state[1] or state[2] then
  -- A slowdown lasts while traffic does; it lapses one stretched period after it stops.
  local paused_until = math.max(tonumber(state[1]) or 0, now)
  redis.call('PEXPIRE', penalty, ttl_ms(paused_until + horizon / factor))
end
return 1
"""
)

# KEYS: slots, inflight. ARGV: member.
_CANCEL = """
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1] .. '|x')
return 1
"""

# KEYS: slots, inflight, penalty. ARGV: pause_us, slowdown, floor, horizon_us, id. Answers the factor.
_PENALIZE = (
    _PRELUDE
    + """
local slots, inflight, penalty = KEYS[1], KEYS[2], KEYS[3]
local pause, slowdown, floor = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local horizon, id = tonumber(ARGV[4]), ARGV[5]
local state = redis.call('HMGET', penalty, 'until', 'factor', 'id')
local factor = tonumber(state[2]) or 1
if state[3] == id then
  -- The same 429 again (a retried round trip): it was already applied.
  return tostring(factor)
end
local paused_until = math.max(tonumber(state[1]) or 0, now + pause)
factor = math.min(factor, math.max(floor, factor * slowdown))
redis.call('HSET', penalty, 'until', paused_until, 'factor', factor, 'id', id)
redis.call('PEXPIRE', penalty, ttl_ms(paused_until + horizon / factor))
-- Slots now count for the stretched period: keep them that long.
expire_after_last(slots, horizon / factor)
expire_after_last(inflight, horizon / factor)
return tostring(factor)
"""
)

# KEYS: penalty. ARGV: step, horizon_us, id. Answers the factor.
_RECOVER = (
    _PRELUDE
    + """
local penalty = KEYS[1]
local step, horizon, id = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local state = redis.call('HMGET', penalty, 'until', 'factor', 'id')
local factor = tonumber(state[2]) or 1
if state[3] == id then return tostring(factor) end
factor = math.min(1, factor * step)
local paused_until = tonumber(state[1]) or 0
if factor >= 1 and paused_until <= now then
  redis.call('DEL', penalty)
  return '1'
end
redis.call('HSET', penalty, 'factor', factor, 'id', id)
redis.call('PEXPIRE', penalty, ttl_ms(math.max(paused_until, now) + horizon / factor))
return tostring(factor)
"""
)

_DEFAULT_HORIZON = 60.0


class RedisBackendError(RoutePlanningError):
    """The Redis server of a :class:`RedisBackend` could not be reached, failed or was too slow.

    Raised instead of admitting a request (fail closed): nothing was sent. The
    redis-py exception (or the :class:`TimeoutError`) is kept as ``__cause__``.
    """


def _where(client: redis_asyncio.Redis) -> str:
    # Only host, port and database: a URL could carry a password.
    kwargs = client.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"unix:{kwargs['path']}"
    return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"


def _retrieve(task: asyncio.Task[Any]) -> None:
    # A background round trip whose caller was cancelled: nobody awaits it, and
    # its failure must not be reported as "exception never retrieved".
    if not task.cancelled():
        task.exception()


class RedisBackend:
    """Rate-limit slots and 429 penalties in Redis, shared by every process that uses them.

    :param url: a ``redis://`` (or ``rediss://``, ``unix://``) URL, or a
        ``redis.asyncio.Redis`` client to borrow (it is not closed by :meth:`aclose`).
    :param key_prefix: the name every process sharing one API key agrees on
        (e.g. the team's name); another API key needs another prefix.
    :param lease: seconds an in-flight slot is kept if its process never
        releases it (it died); must exceed the client's ``timeout``.
    :param timeout: seconds one call to Redis (a reconnection included) may
        take before failing closed with :class:`RedisBackendError`.

    The backend bounds every call with ``asyncio.timeout`` itself. Its own
    connections set no redis-py ``socket_timeout``: on Python 3.11 redis-py
    applies it with ``asyncio.wait_for``, which can swallow a task's
    cancellation. A borrowed client should not set it either.
    """

    def __init__(
        self,
        url: str | redis_asyncio.Redis,
        *,
        key_prefix: str,
        lease: float = 300.0,
        timeout: float = 2.0,
    ) -> None:
        if not key_prefix:
            raise ConfigurationError("key_prefix must be a non-empty string")
        if not lease > 0:
            raise ConfigurationError(f"lease must be a positive number of seconds, got {lease}")
        if not timeout > 0:
            raise ConfigurationError(f"timeout must be a positive number of seconds, got {timeout}")
        self.key_prefix = key_prefix
        """The namespace of this API key's keys."""
        self.lease = float(lease)
        """Seconds an unreleased in-flight slot is kept."""
        self.timeout = float(timeout)
        """Seconds one call to Redis may take before it fails closed."""
        if isinstance(url, str):
            # One reconnection, at once: a pooled connection broken by a server
            # restart is replaced without the caller seeing an error.
            self._redis = redis_asyncio.Redis.from_url(
                url, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 1)
            )
            self._owned = True
        else:
            self._redis = url
            self._owned = False
        self._where = _where(self._redis)
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._release = self._redis.register_script(_RELEASE)
        self._cancel = self._redis.register_script(_CANCEL)
        self._penalize = self._redis.register_script(_PENALIZE)
        self._recover = self._redis.register_script(_RECOVER)
        self.instance = secrets.token_hex(6)
        """Names this backend's slots in Redis (``<instance>:<serial>|<weight>``), so that the
        slots of one process can be told apart when inspecting the keys."""
        self._serials = itertools.count(1)
        self._horizons: dict[str, float] = {}
        self._run_ids: dict[str, str] = {}
        self._factors: dict[str, float] = {}
        self._background: set[asyncio.Task[Any]] = set()

    def __repr__(self) -> str:
        return f"<RedisBackend {self._where} key_prefix={self.key_prefix!r}>"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Finish the round trips still under way, then close the connections this backend
        opened (a borrowed client stays open)."""
        # A finished acquisition may start one more round trip (giving a slot back).
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        if self._owned:
            await self._redis.aclose()

    def keys(self, key: str) -> tuple[str, str, str]:
        """The Redis keys of one category: anchored slots, in-flight slots, penalty."""
        tag = f"{{{self.key_prefix}:{key}}}"
        return (f"{tag}:slots", f"{tag}:inflight", f"{tag}:penalty")

    def _horizon_us(self, key: str) -> float:
        horizon = self._horizons.get(key)
        if horizon is None:
            horizon = max(self._horizons.values(), default=_DEFAULT_HORIZON)
        return horizon * _MICROS

    def _new_token(self) -> str:
        return f"{self.instance}:{next(self._serials)}"

    async def _call(self, script: Any, keys: Sequence[str], args: Sequence[object]) -> Any:
        try:
            async with asyncio.timeout(self.timeout):
                return await script(keys=keys, args=args)
        except (RedisError, TimeoutError) as exc:
            reason = str(exc) or f"no answer within {self.timeout:g} s"
            raise RedisBackendError(
                f"the rate-limit backend (Redis at {self._where}) failed, so nothing was sent: {reason}"
            ) from exc

    def _start(self, script: Any, keys: Sequence[str], args: Sequence[object]) -> asyncio.Task[Any]:
        """Run one round trip as a task of its own, so that it completes even if its caller is
        cancelled: a slot is then never taken, or left, without this process knowing."""
        task = asyncio.ensure_future(self._call(script, keys, args))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_retrieve)
        return task

    def _forget(self, key: str, member: str, round_trip: asyncio.Task[Any] | None = None) -> None:
        """Remove a slot this process may have been granted without learning it."""
        if round_trip is not None and (
            round_trip.cancelled() or round_trip.exception() is not None or not round_trip.result()[0]
        ):
            return
        slots, inflight, _ = self.keys(key)
        self._start(self._cancel, (slots, inflight), [member])

    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        """Take a slot of ``weight`` under every rule at once, or answer the seconds to wait."""
        self._horizons[key] = max((rule.period for rule in rules), default=0.0)
        token = self._new_token()
        member = f"{token}|{weight}"
        args: list[object] = [
            member,
            weight,
            self.lease * _MICROS,
            self._run_ids.get(key, ""),
            self._horizons[key] * _MICROS,
        ]
        for rule in rules:
            args += [rule.amount, rule.period * _MICROS, "w" if rule.per == "weight" else "r"]
        round_trip = self._start(self._acquire, self.keys(key), args)
        try:
            granted, wait_us, factor, run_id = await asyncio.shield(round_trip)
        except asyncio.CancelledError:
            # The caller gave up waiting; if the script granted a slot, give it back.
            round_trip.add_done_callback(functools.partial(self._forget, key, member))
            raise
        except RedisBackendError:
            # No answer is not "not granted": the script may have run before the failure.
            self._forget(key, member)
            raise
        self._run_ids[key] = run_id if isinstance(run_id, str) else run_id.decode()
        self._factors[key] = float(factor)
        if granted:
            return Grant(key, token, weight, self._factors[key])
        return math.inf if wait_us < 0 else wait_us / _MICROS

    async def _settle(self, script: Any, keys: Sequence[str], args: Sequence[object]) -> None:
        try:
            await asyncio.shield(self._start(script, keys, args))
        except RedisBackendError as exc:
            logger.warning("%s; the slot stays taken until its lease of %g s ends", exc, self.lease)

    async def release(self, grant: Grant, now: float, *, extra: float = 0.0) -> None:
        """Anchor the grant's in-flight slot at the server's now plus ``extra``."""
        args = [f"{grant.token}|{grant.weight}", extra * _MICROS, self._horizon_us(grant.key)]
        await self._settle(self._release, self.keys(grant.key), args)

    async def cancel(self, grant: Grant) -> None:
        """Remove the grant's slot: the attempt was never sent."""
        slots, inflight, _ = self.keys(grant.key)
        await self._settle(self._cancel, (slots, inflight), [f"{grant.token}|{grant.weight}"])

    async def penalize(self, key: str, pause: float, slowdown: float, floor: float, now: float) -> float:
        """Pause the key and slow it down for every process after a 429; answer the new rate factor."""
        args = [pause * _MICROS, slowdown, floor, self._horizon_us(key), self._new_token()]
        factor = float(await self._call(self._penalize, self.keys(key), args))
        self._factors[key] = factor
        return factor

    async def recover(self, key: str, step: float) -> float:
        """Speed the key up one step for every process; answer the new rate factor."""
        _, _, penalty = self.keys(key)
        args = [step, self._horizon_us(key), self._new_token()]
        try:
            factor = float(await self._call(self._recover, (penalty,), args))
        except RedisBackendError as exc:
            logger.warning("%s; the rate stays as it was", exc)
            return self._factors.get(key, 1.0)
        self._factors[key] = factor
        return factor
