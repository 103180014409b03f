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
- A slot is *in flight* from admission until the attempt ends, then anchored
  where the scheduler says (the server's now plus ``extra``: at the answer, or
  at the send time plus a learned margin, which may be earlier than now and
  earlier than other slots' anchors) and counted while ``anchor + period`` is
  later than now: the plain period of each rule, whatever was learned.
- What a rule admits is its *learned amount*: ``max(1, floor(amount *
  rate_factor))`` of the key's shared rate factor (``learned_amount`` in
  ``_backends.py``, in the same arithmetic), and a request heavier than that
  passes alone in an empty window.
- A refused acquisition answers how long to wait, computed by the script from
  the anchored slots; a process sleeps that long instead of polling. When only
  in-flight slots block, it answers ``math.inf`` and the scheduler asks again
  after its re-check interval (``min(shortest period, 1 s)``).
- What one process learns, every process sharing the key uses: the pause and
  the rate factor live in Redis. ``penalize`` extends the pause (never
  shortens it) and lowers the factor to the one given (never raises it);
  ``recover`` raises it (never above 1.0, never lowers it). Both are a maximum
  or a minimum, so two processes learning at once, or a round trip sent twice,
  end in the same state. The factor is kept while the category has traffic and
  for ten times its longest period after it (and after the pause), so a pause in
  traffic does not make the processes learn it again; after longer idleness it
  is forgotten and learned again from the next 429.
- ``usage`` reads, per rule, what the slots say the service saw of the key in
  its trailing window (in-flight slots and anchored ones with ``anchor > now -
  period``) on the server's clock, so a process learning from a 429 counts the
  other processes' requests too.
- Each in-flight slot carries a lease (``lease`` seconds, which must exceed the
  client's timeout per attempt). A process that dies holding slots loses them
  for at most ``lease`` plus one period: when the lease runs out the slot is
  anchored at the lease's end. A process that dies holding nothing leaks nothing.
- Every key has a ``PEXPIRE``: a category's slot keys vanish when their newest
  slot stops counting under the longest period (an in-flight slot: when its
  lease has ended and one period more), its penalty ten longest periods after
  the later of the pause's end and the category's last answer (or 429, or
  recovery).

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
slower than ``timeout`` or answers an error, ``acquire``, ``penalize`` and
``usage`` raise :class:`RedisBackendError` (one reconnection is tried first,
within ``timeout``); the request that was waiting fails with it and nothing is
sent. The next request tries Redis again, so the client recovers by itself once
Redis is back.
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
``{team-42:read}:penalty`` (a hash: ``until``, the pause's end in microseconds,
and ``factor``, the learned rate factor as the text of a Python float, kept
exactly). The braces keep a category's keys in one Redis Cluster slot, as one
script needs.
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

# How long the learned rate factor outlives the key's traffic, in longest periods.
_FACTOR_MEMORY = 10

# Shared by every script: the server's clock in microseconds, TTLs that keep a
# sorted set until its newest entry stops counting, the weight in a member, the
# learned amount of a rule, and the penalty's lifetime.
#
# Rate factors are kept as the text the caller sent (a Python float's repr) and
# answered as stored: Lua's tostring would round them to 14 digits.
_PRELUDE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local function ttl_ms(deadline)
  return math.max(1, math.ceil((deadline - now) / 1000))
end
local function expire_after_last(key, period)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if last[2] then
    redis.call('PEXPIRE', key, ttl_ms(tonumber(last[2]) + period))
  end
end
local function weight_of(member)
  return tonumber(string.match(member, '|(%d+)'))
end
local function learned(amount, factor)
  -- learned_amount() of _backends.py, in the same double arithmetic.
  return math.max(1, math.floor(amount * factor + 1e-9))
end
local function keep_penalty(penalty, paused_until, horizon)
  -- The pause lasts its time; the learned factor until the key has been idle
  -- for FACTOR_MEMORY longest periods after it (every release renews this).
  redis.call('PEXPIRE', penalty, ttl_ms(math.max(paused_until, now) + FACTOR_MEMORY * horizon))
end
""".replace("FACTOR_MEMORY", str(_FACTOR_MEMORY))

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
local factor_text = state[2] or '1'
local factor = tonumber(factor_text)

-- The server restarted since this caller last spoke to it: the slots of the
-- last period are gone, so hold the key until they would have stopped counting.
if seen_run_id ~= '' and seen_run_id ~= run_id and horizon > 0 then
  -- Whole seconds between two truncated clock readings: up to 1 s more than the truth.
  local uptime = (tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) - 1) * 1000000
  if uptime < horizon and now + horizon > paused_until then
    paused_until = now + horizon
    redis.call('HSET', penalty, 'until', paused_until)
    keep_penalty(penalty, paused_until, horizon)
  end
end
if paused_until > now then
  return {0, math.ceil(paused_until - now), factor_text, run_id}
end

-- In-flight slots whose lease ran out (their process died) become anchored at
-- the lease's end; '|x' marks them so that a late release still finds them.
local expired = redis.call('ZRANGEBYSCORE', inflight, '-inf', now, 'WITHSCORES')
for j = 1, #expired, 2 do
  redis.call('ZREM', inflight, expired[j])
  redis.call('ZADD', slots, expired[j + 1], expired[j] .. '|x')
end
if #expired > 0 then expire_after_last(slots, horizon) end
if horizon > 0 then
  redis.call('ZREMRANGEBYSCORE', slots, '-inf', now - horizon)
end

local flying = redis.call('ZRANGE', inflight, 0, -1)
local flying_weight = 0
for j = 1, #flying do flying_weight = flying_weight + weight_of(flying[j]) end

-- Per rule: the slots counted are the in-flight ones and the anchored ones with
-- anchor > now - period, oldest anchor first (the sorted set's order, whatever
-- order the slots were anchored in). A request passes when its cost fits the
-- learned amount, or alone in an empty window; else it waits until enough of
-- the oldest counted slots have stopped counting.
local wait = 0
for i = 6, #ARGV, 3 do
  local amount, period = learned(tonumber(ARGV[i]), factor), tonumber(ARGV[i + 1])
  local since = string.format('(%.17g', now - period)
  local rule_wait = 0
  if ARGV[i + 2] == 'w' then
    local live = redis.call('ZRANGEBYSCORE', slots, since, '+inf', 'WITHSCORES')
    local used = flying_weight
    for j = 1, #live, 2 do used = used + weight_of(live[j]) end
    local excess = used + weight - amount
    if excess > 0 and used > 0 then
      rule_wait = -1
      for j = 1, #live, 2 do
        excess = excess - weight_of(live[j])
        if excess <= 0 then
          rule_wait = tonumber(live[j + 1]) + period - now
          break
        end
      end
      if rule_wait < 0 and flying_weight == 0 then
        -- Heavier than the learned amount: it passes alone once the window is empty.
        rule_wait = tonumber(live[#live]) + period - now
      end
    end
  else
    -- Counting needs no scan: the excess-th live slot is the one to wait for. A
    -- request costs 1 <= amount, so "alone in an empty window" always fits here.
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
  return {0, wait < 0 and -1 or math.ceil(wait), factor_text, run_id}
end
if #ARGV >= 6 then
  redis.call('ZADD', inflight, now + lease, member)
  expire_after_last(inflight, horizon)
end
return {1, 0, factor_text, run_id}
"""
)

# KEYS: slots, inflight, penalty. ARGV: member, extra_us, horizon_us. Answers 1 if anchored.
_RELEASE = (
    _PRELUDE
    + """
local slots, inflight, penalty = KEYS[1], KEYS[2], KEYS[3]
-- extra may be negative: the anchor may be earlier than the slot's admission and
-- than other slots' anchors; the sorted set orders it among them all the same.
local member, anchor, horizon = ARGV[1], now + tonumber(ARGV[2]), tonumber(ARGV[3])
if redis.call('ZREM', inflight, member) == 0 then
  local late = member .. '|x'
  local lease_end = redis.call('ZSCORE', slots, late)
  if not lease_end then return 0 end
  redis.call('ZREM', slots, late)
  -- Others were already told the slot counts from its lease's end: never earlier.
  anchor = math.max(anchor, tonumber(lease_end))
end
redis.call('ZADD', slots, anchor, member)
expire_after_last(slots, horizon)
if redis.call('EXISTS', penalty) == 1 then
  -- Traffic goes on: the learned factor is kept.
  keep_penalty(penalty, tonumber(redis.call('HGET', penalty, 'until')) or 0, horizon)
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

# KEYS: penalty. ARGV: pause_us, factor, horizon_us. Answers the factor.
# Idempotent (a maximum and a minimum): a round trip redis-py sends again changes nothing.
_PENALIZE = (
    _PRELUDE
    + """
local penalty = KEYS[1]
local pause, factor, horizon = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local state = redis.call('HMGET', penalty, 'until', 'factor')
local current = state[2] or '1'
if tonumber(current) <= tonumber(factor) then factor = current end
local paused_until = math.max(tonumber(state[1]) or 0, now + pause)
redis.call('HSET', penalty, 'until', paused_until, 'factor', factor)
keep_penalty(penalty, paused_until, horizon)
return factor
"""
)

# KEYS: penalty. ARGV: factor (at most 1), horizon_us. Answers the factor. Idempotent.
_RECOVER = (
    _PRELUDE
    + """
local penalty = KEYS[1]
local factor, horizon = ARGV[1], tonumber(ARGV[2])
local state = redis.call('HMGET', penalty, 'until', 'factor')
local current = state[2] or '1'
if tonumber(current) >= tonumber(factor) then factor = current end
if tonumber(factor) >= 1 then
  -- Back at the configured limits: nothing is left to remember but a pause.
  if (tonumber(state[1]) or 0) <= now then
    redis.call('DEL', penalty)
  else
    redis.call('HDEL', penalty, 'factor')
  end
  return '1'
end
redis.call('HSET', penalty, 'factor', factor)
keep_penalty(penalty, tonumber(state[1]) or 0, horizon)
return factor
"""
)

# KEYS: slots, inflight. ARGV: per rule: period_us, per ("w" for weight rules).
# Answers, per rule, the cost of the slots that count in the window ending now:
# in-flight slots (an expired lease counts as a slot anchored at its end, as
# acquire would anchor it) and anchored ones with anchor > now - period.
_USAGE = (
    _PRELUDE
    + """
local slots, inflight = KEYS[1], KEYS[2]
local usage = {}
for i = 1, #ARGV, 2 do
  local since = string.format('(%.17g', now - tonumber(ARGV[i]))
  local used = 0
  if ARGV[i + 1] == 'w' then
    for _, key in ipairs({slots, inflight}) do
      local live = redis.call('ZRANGEBYSCORE', key, since, '+inf')
      for j = 1, #live do used = used + weight_of(live[j]) end
    end
  else
    used = redis.call('ZCOUNT', slots, since, '+inf') + redis.call('ZCOUNT', inflight, since, '+inf')
  end
  usage[#usage + 1] = used
end
return usage
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

    The backend bounds every call with ``asyncio.timeout`` itself. Its own
    connections set no redis-py ``socket_timeout``: on Python 3.11 redis-py
    applies it with ``asyncio.wait_for``, which can swallow a task's
    cancellation. A borrowed client should not set it either.

    Args:
        url: A ``redis://`` (or ``rediss://``, ``unix://``) URL, or a
            ``redis.asyncio.Redis`` client to borrow (it is not closed by :meth:`aclose`).
        key_prefix: The name every process sharing one API key agrees on
            (e.g. the team's name); another API key needs another prefix.
        lease: Seconds an in-flight slot is kept if its process never
            releases it (it died); must exceed the client's ``timeout``.
        timeout: Seconds one call to Redis (a reconnection included) may
            take before failing closed with :class:`RedisBackendError`.

    Raises:
        ConfigurationError: A setting is invalid (the error names it).
    """

    def __init__(
        self,
        url: str | redis_asyncio.Redis,
        *,
        key_prefix: str,
        lease: float = 300.0,
        timeout: float = 2.0,
    ) -> None:
        if not isinstance(key_prefix, str) or not key_prefix.strip():  # type: ignore[redundant-expr]
            raise ConfigurationError("key_prefix must be a non-blank string")
        for setting, value in (("lease", lease), ("timeout", timeout)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigurationError(
                    f"RedisBackend {setting} must be a number of seconds, got {type(value).__name__}"
                )
            if not (value > 0 and math.isfinite(value)):
                raise ConfigurationError(
                    f"RedisBackend {setting} must be a finite, positive number of seconds, got {value}"
                )
        if not isinstance(url, str | redis_asyncio.Redis):
            raise ConfigurationError(
                f"RedisBackend url must be a redis:// URL or a redis.asyncio.Redis, got {type(url).__name__}"
            )
        if isinstance(url, str) and not url.strip():
            raise ConfigurationError("RedisBackend url is empty")
        self.key_prefix = key_prefix
        """The namespace of this API key's keys."""
        self.lease = float(lease)
        """Seconds an unreleased in-flight slot is kept."""
        self.timeout = float(timeout)
        """Seconds one call to Redis may take before it fails closed."""
        if isinstance(url, str):
            # One reconnection, at once: a pooled connection broken by a server
            # restart is replaced without the caller seeing an error.
            try:
                self._redis = redis_asyncio.Redis.from_url(
                    url, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 1)
                )
            except ValueError as exc:
                # redis-py's own words, without the URL (it may carry a password).
                raise ConfigurationError(f"RedisBackend url is not usable: {exc}") from None
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
        self._usage = self._redis.register_script(_USAGE)
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
        """The Redis keys of one category: anchored slots, in-flight slots, penalty.

        Args:
            key: The scheduler's key of the category (its name).

        Returns:
            The three key names, sharing one hash tag (one Redis Cluster slot).
        """
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
        """Take a slot of ``weight`` under every rule at once, or answer the seconds to wait.

        Called by the scheduler.

        Args:
            key: The scheduler's key of the category.
            rules: The category's rules, already scaled by its rate factor.
            weight: The request's weight (stops in a batch; 1 for most requests).
            now: The scheduler's clock (the server's clock is used for the windows).

        Returns:
            A :class:`Grant`, or the seconds to wait before trying again.

        Raises:
            RedisBackendError: Redis did not answer in time, or failed.
        """
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
        """Anchor the grant's in-flight slot at the server's now plus ``extra``.

        Called by the scheduler once the attempt's answer arrived.

        Args:
            grant: The grant of :meth:`acquire`.
            now: The scheduler's clock (the server's clock is used).
            extra: Seconds added to the anchor (the spread of recent round trips).
        """
        args = [f"{grant.token}|{grant.weight}", extra * _MICROS, self._horizon_us(grant.key)]
        await self._settle(self._release, self.keys(grant.key), args)

    async def cancel(self, grant: Grant) -> None:
        """Remove the grant's slot: the attempt was never sent.

        Args:
            grant: The grant of :meth:`acquire`.
        """
        slots, inflight, _ = self.keys(grant.key)
        await self._settle(self._cancel, (slots, inflight), [f"{grant.token}|{grant.weight}"])

    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        """Pause the key and lower its rate factor for every process after a 429.

        Args:
            key: The scheduler's key of the category.
            pause: Seconds, from the server's now, during which nothing is admitted.
            factor: The new rate factor (a share of the configured limits).
            now: The scheduler's clock (the server's clock is used).

        Returns:
            The rate factor now in force (another process may have cut lower).

        Raises:
            RedisBackendError: Redis did not answer in time, or failed.
        """
        _, _, penalty = self.keys(key)
        args = [pause * _MICROS, float(factor), self._horizon_us(key)]
        learned = float(await self._call(self._penalize, (penalty,), args))
        self._factors[key] = learned
        return learned

    async def recover(self, key: str, factor: float) -> float:
        """Raise the key's rate factor for every process.

        Args:
            key: The scheduler's key of the category.
            factor: The new rate factor, at most 1.0.

        Returns:
            The rate factor now in force.
        """
        _, _, penalty = self.keys(key)
        args = [min(1.0, float(factor)), self._horizon_us(key)]
        try:
            learned = float(await self._call(self._recover, (penalty,), args))
        except RedisBackendError as exc:
            logger.warning("%s; the rate stays as it was", exc)
            return self._factors.get(key, 1.0)
        self._factors[key] = learned
        return learned

    async def usage(self, key: str, rules: Sequence[Rule], now: float) -> tuple[int, ...]:
        """Per rule, the cost of the key's slots in flight or anchored in the trailing period.

        Counted on the server's clock.

        Args:
            key: The scheduler's key of the category.
            rules: The category's rules.
            now: The scheduler's clock (the server's clock is used).

        Returns:
            One cost per rule, in the rules' order.

        Raises:
            RedisBackendError: Redis did not answer in time, or failed.
        """
        if not rules:
            return ()
        slots, inflight, _ = self.keys(key)
        args: list[object] = []
        for rule in rules:
            args += [rule.period * _MICROS, "w" if rule.per == "weight" else "r"]
        answer = await self._call(self._usage, (slots, inflight), args)
        return tuple(int(used) for used in answer)
