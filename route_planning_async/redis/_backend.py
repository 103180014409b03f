"""The Redis backend: its class, its error, and the round trips it makes to the server."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import math
import re
import secrets
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any, Self, TypeVar

import redis.asyncio as redis_asyncio
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import AuthenticationError, MovedError, RedisError
from redis.typing import EncodableT

from route_planning_async._docs import Written, docstring_documented, section_end
from route_planning_async._errors import ConfigurationError, RoutePlanningError
from route_planning_async._rate_limits._backends import Grant, RateLimitBackend, WindowCount
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.redis._scripts import Scripts

__all__ = ["RedisBackend", "RedisBackendError"]

logger = logging.getLogger("route_planning_async.redis")

_MICROS = 1_000_000

# A key's longest period, in seconds, until this process has acquired in it and knows its rules;
# also how long "no rules" stays stored after a process without rules for a category last asked.
_DEFAULT_HORIZON = 60.0

# Connections this backend's own client opens at most (the class docstring says why calls wait).
_MAX_CONNECTIONS = 100

# The characters that would end a hash tag early ("}") or could not be told from an escape ("%").
_TAG_ESCAPES = str.maketrans({"%": "%25", "}": "%7D"})

F = TypeVar("F", bound=Callable[..., Any])


class RedisBackendError(RoutePlanningError):
    """The Redis server of a :class:`RedisBackend` could not be reached, failed or was too slow.

    Raised instead of admitting a request (fail closed): nothing was sent. The
    redis-py exception (or the :class:`TimeoutError`) is kept as ``__cause__``.
    """


def _where(client: redis_asyncio.Redis | RedisCluster) -> str:
    # Only host, port and database: a URL could carry a password.
    if isinstance(client, RedisCluster):
        return "cluster " + ",".join(sorted(client.nodes_manager.startup_nodes))
    kwargs = client.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"unix:{kwargs['path']}"
    return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"


_Args = Sequence[EncodableT]
"""A script's arguments."""


def _failure(where: str, exc: Exception, timeout: float, admits: bool) -> str:
    """The error of a failed round trip; ``admits``: it was to decide whether a request is sent
    (so none was), not bookkeeping after one."""
    if isinstance(exc, AuthenticationError):
        # redis-py's own words for a missing password are about HELLO, which users never call.
        reason = "the password is missing or wrong: give it in the URL (redis://[USER]:PASSWORD@host:6379/0)"
    elif isinstance(exc, MovedError):  # its text is only a slot and an address
        reason = (
            f"the server is a node of a Redis Cluster ({exc}), which a redis:// URL cannot use: give "
            'RedisBackend a redis.asyncio.cluster.RedisCluster (docs/redis.md, "Redis Cluster")'
        )
    else:
        reason = str(exc) or f"no answer within {timeout:g} s"
    consequence = ", so nothing was sent" if admits else ""
    return f"the rate-limit backend (Redis at {where}) failed{consequence}: {reason}"


def _rules_text(rules: Sequence[Rule]) -> str:
    """The rules as stored for their category and shown in errors: the same text for the same
    rules, whatever their order."""
    if not rules:
        return "no rules"
    ordered = sorted(set(rules), key=lambda rule: (rule.period, rule.per, rule.amount))
    return ", ".join(
        f"{rule.amount} {'requests' if rule.per == 'request' else 'stops'} per {rule.period!r} s"
        for rule in ordered
    )


def _text(value: str | bytes) -> str:
    return value if isinstance(value, str) else value.decode()


def _retrieve(task: asyncio.Task[Any]) -> None:
    # A background round trip whose caller was cancelled: nobody awaits it, and
    # its failure must not be reported as "exception never retrieved".
    if not task.cancelled():
        task.exception()


_FAILS_CLOSED = "    RedisBackendError: Redis did not answer in time, or failed; nothing was sent."


def _fails_closed(method: F) -> F:
    """``method``, its docstring naming the error it raises rather than admit a request blindly
    (added to the method's own ``Raises:``, its last section; written into the source by the
    docstring generator)."""

    def rewrite(lines: list[str], width: int, written: Written) -> list[str]:
        if "Raises:" not in lines:
            return [*lines, *([""] if lines else []), "Raises:", _FAILS_CLOSED]
        start = lines.index("Raises:")
        end = section_end(lines, start)
        if _FAILS_CLOSED in lines[start:end]:
            return lines
        return [*lines[:end], _FAILS_CLOSED, *lines[end:]]

    docstring_documented(method.__module__, method.__qualname__, rewrite)
    return method


def _check_settings(url: object, key_prefix: object, lease: object, timeout: object) -> None:
    """Raise :class:`ConfigurationError` naming the first invalid setting of :class:`RedisBackend`."""
    if not isinstance(key_prefix, str) or not key_prefix.strip():
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
    if not isinstance(url, str | redis_asyncio.Redis | RedisCluster):
        raise ConfigurationError(
            "RedisBackend url must be a redis:// URL, a redis.asyncio.Redis or a "
            f"redis.asyncio.cluster.RedisCluster, got {type(url).__name__}"
        )
    if isinstance(url, str) and not url.strip():
        raise ConfigurationError("RedisBackend url is empty")
    if isinstance(url, str):
        parts = urllib.parse.urlsplit(url.strip())
        # redis-py reads "/abc" as database 0 and "/1/2" as 12: a typo would share another database.
        if parts.scheme in ("redis", "rediss") and not re.fullmatch(r"/?|/\d+", parts.path):
            raise ConfigurationError(
                f"RedisBackend url's path must be a database number (redis://host:6379/0), got {parts.path!r}"
            )


class RedisBackend(RateLimitBackend):
    """Rate-limit slots and 429 penalties in Redis, shared by every process that uses them.

    It fails closed: a request Redis did not admit is not sent. The methods
    called after a request was sent (:meth:`release`, :meth:`cancel`,
    :meth:`recover`) only log their failures, on the ``route_planning_async.redis``
    logger; :meth:`claim_probe` logs its failure and gives the turn.

    Every process sharing a ``key_prefix`` must configure the same rules. The
    first acquisition in a category stores its rules under the prefix, kept as
    long as the category's slots count; a process whose rules for it differ (in
    an amount, a period or what a rule counts: not in their order, nor in a
    learned rate factor) fails closed with a :class:`ConfigurationError` naming
    the category, both sets of rules and the prefix, before anything is sent.
    How to change the limits of running processes: ``docs/redis.md``.

    The backend bounds every call with ``asyncio.timeout`` itself. Its own
    connections set no redis-py ``socket_timeout``: on Python 3.11 redis-py
    applies it with ``asyncio.wait_for``, which can swallow a task's
    cancellation. A borrowed client should not set it either. Its own client's
    connections are bounded, and a call beyond them waits for one (within
    ``timeout``) rather than failing: every answered request gives its
    slot back in a round trip of its own, so a burst of answers asks for many
    at once. A borrowed client's pool should block the same way
    (``redis.asyncio.BlockingConnectionPool``).

    A Redis Cluster is reached through a borrowed
    ``redis.asyncio.cluster.RedisCluster`` (``docs/redis.md``, "Redis Cluster"):
    every key of one category shares one hash tag, so each script runs on the
    one node that holds its keys.

    Args:
        url: A ``redis://`` (or ``rediss://``, ``unix://``) URL, or a
            ``redis.asyncio.Redis`` or ``redis.asyncio.cluster.RedisCluster``
            client to borrow (it is not closed by :meth:`aclose`).
        key_prefix: The name every process sharing one API key agrees on
            (e.g. the team's name); another API key needs another prefix.
        lease: Seconds an in-flight slot is kept if its process never
            releases it (it died); must exceed the client's ``timeout``.
        timeout: Seconds one call to Redis (a reconnection included) may
            take before failing closed with :class:`RedisBackendError`.

    Attributes:
        key_prefix (str): The namespace of this API key's keys.
        lease: Seconds an unreleased in-flight slot is kept.
        timeout: Seconds one call to Redis may take before it fails closed.
        instance: Names this backend's slots in Redis (``<instance>:<serial>|<weight>``, docs/redis.md,
            "Keys"), so that the slots of one process can be told apart when inspecting the keys.

    Raises:
        ConfigurationError: A setting is invalid (the error names it).
    """

    def __init__(
        self,
        url: str | redis_asyncio.Redis | RedisCluster,
        *,
        key_prefix: str,
        lease: float = 300.0,
        timeout: float = 2.0,
    ) -> None:
        _check_settings(url, key_prefix, lease, timeout)
        self.key_prefix = key_prefix
        """The namespace of this API key's keys."""
        self.lease = float(lease)
        """Seconds an unreleased in-flight slot is kept."""
        self.timeout = float(timeout)
        """Seconds one call to Redis may take before it fails closed."""
        self._redis: redis_asyncio.Redis | RedisCluster
        if isinstance(url, str):
            # One reconnection, at once: a pooled connection broken by a server
            # restart is replaced without the caller seeing an error.
            try:
                pool = redis_asyncio.BlockingConnectionPool.from_url(
                    url,
                    socket_connect_timeout=timeout,
                    retry=Retry(NoBackoff(), 1),
                    max_connections=_MAX_CONNECTIONS,
                    timeout=None,
                )
                self._redis = redis_asyncio.Redis.from_pool(pool)
            except ValueError as exc:
                # redis-py's own words, without the URL (it may carry a password).
                raise ConfigurationError(f"RedisBackend url is not usable: {exc}") from None
            self._owned = True
        else:
            self._redis = url
            self._owned = False
        self._where = _where(self._redis)
        self._scripts = Scripts.register(self._redis)
        self.instance = secrets.token_hex(6)
        """Names this backend's slots in Redis (``<instance>:<serial>|<weight>``, docs/redis.md,
        "Keys"), so that the slots of one process can be told apart when inspecting the keys."""
        self._serials = itertools.count(1)
        self._horizons: dict[str, float] = {}
        self._run_ids: dict[str, str] = {}
        self._factors: dict[str, float] = {}
        self._background: set[asyncio.Task[Any]] = set()

    def __repr__(self) -> str:
        return f"<RedisBackend {self._where} key_prefix={self.key_prefix!r}>"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Finish the round trips still under way, then close the connections this backend
        opened (a borrowed client stays open)."""
        # A finished round trip leaves the set, and a finished acquisition may start one
        # more (giving a slot back), in its done callbacks, which run only once the loop
        # has control. On Python 3.12+ a gather of tasks that are all done is done at once
        # and awaiting it does not yield: without the sleep, a round trip that finished
        # just before this call kept this loop spinning forever.
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
            await asyncio.sleep(0)
        if self._owned:
            await self._redis.aclose()

    def keys(self, key: str) -> tuple[str, str, str, str]:
        """The Redis keys of one category: anchored slots, in-flight slots, penalty, stored rules.

        Args:
            key: The scheduler's key of the category (its name).

        Returns:
            The four key names, sharing one hash tag (one Redis Cluster slot):
            ``{<key_prefix>:<key>}``, in which every ``%`` is written ``%25`` and
            every ``}`` (which would end the tag early) ``%7D``.
        """
        tag = "{" + f"{self.key_prefix}:{key}".translate(_TAG_ESCAPES) + "}"
        return (f"{tag}:slots", f"{tag}:inflight", f"{tag}:penalty", f"{tag}:rules")

    def _horizon_us(self, key: str) -> float:
        horizon = self._horizons.get(key)
        if horizon is None:
            horizon = max(self._horizons.values(), default=_DEFAULT_HORIZON)
        return horizon * _MICROS

    def _new_token(self) -> str:
        return f"{self.instance}:{next(self._serials)}"

    async def _call(
        self, script: AsyncScript, keys: Sequence[str], args: _Args, *, admits: bool = True
    ) -> Any:
        try:
            async with asyncio.timeout(self.timeout):
                return await script(keys=keys, args=args)
        except (RedisError, TimeoutError) as exc:
            raise RedisBackendError(_failure(self._where, exc, self.timeout, admits)) from exc

    def _start(
        self, script: AsyncScript, keys: Sequence[str], args: _Args, *, admits: bool = True
    ) -> asyncio.Task[Any]:
        """Run one round trip as a task of its own, so that it completes even if its caller is
        cancelled: a slot is then never taken, or left, without this process knowing."""
        task = asyncio.ensure_future(self._call(script, keys, args, admits=admits))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_retrieve)
        return task

    def _forget(self, key: str, member: str, round_trip: asyncio.Task[Any] | None = None) -> None:
        """Remove a slot this process may have been granted without learning it."""
        if round_trip is not None and (
            round_trip.cancelled() or round_trip.exception() is not None or round_trip.result()[0] != 1
        ):
            return
        slots, inflight, _, rules = self.keys(key)
        self._start(self._scripts.cancel, (slots, inflight, rules), [member], admits=False)

    @_fails_closed
    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        """Take a slot of ``weight`` under every rule at once, or answer the seconds to wait.

        Called by the scheduler. Atomically: if the key is paused, answer the
        seconds left of the pause. Else, for every rule, let ``A =
        learned_amount(rule.amount, rate_factor)`` (the share of the configured
        amount the scheduler has learned the service really allows) and
        ``used`` = the cost (``rule.cost(weight)`` of each slot's weight) of the
        key's in-flight slots plus that of its anchored slots with ``anchor +
        rule.period > now``. If ``used + rule.cost(weight) <= A``, or ``used ==
        0`` (a request heavier than a learned amount passes alone), for every
        rule, record one in-flight slot of ``weight`` and answer a
        :class:`Grant` with the key's current ``rate_factor``: all rules are
        consumed or none. Otherwise answer the seconds until enough anchored
        slots expire for the tightest rule to admit it (the largest of the
        per-rule waits), or ``math.inf`` when only in-flight slots block it.
        Callers never pass a weight whose cost exceeds a rule's configured
        amount. With no rules, only the pause applies.

        Args:
            key: The scheduler's key of the category.
            rules: The category's configured rules (the backend scales their
                amounts by the key's rate factor).
            weight: The request's weight (stops in a batch; 1 for most requests).
            now: The scheduler's clock.

        Returns:
            A :class:`Grant`, or the seconds to wait before trying again.

        Note:
            The rules are first checked against those stored for the category (see the class).

        Raises:
            ConfigurationError: Other rules are stored for the category under
                this ``key_prefix``; nothing was sent.
            RedisBackendError: Redis did not answer in time, or failed; nothing was sent.
        """
        self._horizons[key] = max((rule.period for rule in rules), default=0.0)
        token = self._new_token()
        member = f"{token}|{weight}"
        rules_text = _rules_text(rules)
        args: list[EncodableT] = [
            member,
            weight,
            self.lease * _MICROS,
            self._run_ids.get(key, ""),
            self._horizons[key] * _MICROS,
            rules_text,
            0 if rules else _DEFAULT_HORIZON * _MICROS,
        ]
        for rule in rules:
            args += [rule.amount, rule.period * _MICROS, "w" if rule.per == "weight" else "r"]
        round_trip = self._start(self._scripts.acquire, self.keys(key), args)
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
        self._run_ids[key] = _text(run_id)
        if granted < 0:
            raise ConfigurationError(
                f"RedisBackend key_prefix {self.key_prefix!r}: this process's rules for the {key!r} "
                f"category ({rules_text}) differ from those other processes stored under the prefix "
                f"({_text(factor)}), so nothing was sent; every process sharing a key_prefix needs the "
                "same limits (docs/redis.md, 'Changing the limits')"
            )
        self._factors[key] = float(factor)
        if granted:
            return Grant(key, token, weight, self._factors[key])
        return math.inf if wait_us < 0 else wait_us / _MICROS

    async def _settle(self, script: AsyncScript, keys: Sequence[str], args: _Args) -> None:
        try:
            await asyncio.shield(self._start(script, keys, args, admits=False))
        except RedisBackendError as exc:
            logger.warning(
                "%s; the slot stays taken until its lease of %g s ends", str(exc).rstrip("."), self.lease
            )

    async def release(self, grant: Grant, now: float, *, extra: float = 0.0, admitted: bool = True) -> None:
        args: list[EncodableT] = [
            f"{grant.token}|{grant.weight}",
            extra * _MICROS,
            self._horizon_us(grant.key),
            1 if admitted else 0,
        ]
        await self._settle(self._scripts.release, self.keys(grant.key), args)

    async def cancel(self, grant: Grant) -> None:
        slots, inflight, _, rules = self.keys(grant.key)
        await self._settle(self._scripts.cancel, (slots, inflight, rules), [f"{grant.token}|{grant.weight}"])

    @_fails_closed
    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        """Pause the key and lower its rate factor after a 429, for every process sharing it.

        The key is paused until at least ``now + pause`` (never shortened), and
        its ``rate_factor`` becomes ``min(rate_factor, factor)`` (never raised
        here).

        Args:
            key: The scheduler's key of the category.
            pause: Seconds from ``now`` during which nothing is admitted.
            factor: The new rate factor (a share of the configured limits).
            now: The scheduler's clock.

        Returns:
            The rate factor now in force (another scheduler sharing the key may have cut lower).

        Raises:
            RedisBackendError: Redis did not answer in time, or failed; nothing was sent.
        """
        penalty = self.keys(key)[2]
        args = [pause * _MICROS, float(factor), self._horizon_us(key)]
        learned = float(await self._call(self._scripts.penalize, (penalty,), args))
        self._factors[key] = learned
        return learned

    async def recover(self, key: str, factor: float) -> float:
        penalty = self.keys(key)[2]
        args = [min(1.0, float(factor)), self._horizon_us(key)]
        try:
            learned = float(await self._call(self._scripts.recover, (penalty,), args, admits=False))
        except RedisBackendError as exc:
            logger.warning("%s; the rate stays as it was", str(exc).rstrip("."))
            return self._factors.get(key, 1.0)
        self._factors[key] = learned
        return learned

    async def claim_probe(self, key: str, turn: float, now: float) -> float:
        """Take the key's turn to probe its rate factor upward, for every process sharing it.

        Atomically: while a turn taken earlier lasts, answer the seconds left of
        it; else start a turn of ``turn`` seconds and answer 0.0. Processes
        sharing a backend then probe one at a time, a turn apart, rather than
        each at its own pace (a process that sends little may never see the
        factor change while another's probe fails, and probe again at once).
        A turn outlives a raise of the factor to 1.0 (the raise may be the
        probe). The scheduler also takes the turn of ``<key>/scout`` before a
        category's first attempt after a quiet spell (``docs/learning.md``,
        "The fleet"): one process sharing the backend scouts the window for
        all.

        Args:
            key: The scheduler's key of the category.
            turn: Seconds before anybody may probe again (the wait after a failed probe).
            now: The scheduler's clock.

        Returns:
            0.0 when the turn is the caller's, else the seconds until the current one ends.

        Note:
            On Redis's clock. When Redis cannot be reached the turn is the caller's: a probe
            out of turn costs at most a 429, and acquisitions fail closed anyway.
        """
        penalty = self.keys(key)[2]
        try:
            wait_us = await self._call(
                self._scripts.claim_probe, (penalty,), [turn * _MICROS, self._horizon_us(key)], admits=False
            )
        except RedisBackendError as exc:
            logger.warning("%s; going ahead without the turn", str(exc).rstrip("."))
            return 0.0
        return int(wait_us) / _MICROS

    @_fails_closed
    async def window(self, key: str, rules: Sequence[Rule], now: float) -> tuple[WindowCount, ...]:
        """Per rule, the key's slots in its trailing period, each kind apart.

        By every process sharing the key: the cost under the rule of the
        admitted and the refused slots with ``anchor > now - rule.period``, and
        of the slots in flight (:class:`WindowCount`). What the service is known
        to have admitted of the key in its window is ``admitted`` alone. The
        scheduler reads it when a 429 comes, to learn the service's real limit
        (``admitted``) and to tell a busy budget from a smaller one (with
        ``in_flight``: what every process sharing the key is sending).

        Args:
            key: The scheduler's key of the category.
            rules: The category's configured rules.
            now: The scheduler's clock.

        Returns:
            One :class:`WindowCount` per rule, in the rules' order.

        Raises:
            RedisBackendError: Redis did not answer in time, or failed; nothing was sent.
        """
        if not rules:
            return ()
        slots, inflight, _, _ = self.keys(key)
        args: list[EncodableT] = []
        for rule in rules:
            args += [rule.period * _MICROS, "w" if rule.per == "weight" else "r"]
        answer = await self._call(self._scripts.window, (slots, inflight), args)
        return tuple(
            WindowCount(int(admitted), int(refused), int(in_flight))
            for admitted, refused, in_flight in answer
        )

    @_fails_closed
    async def usage(self, key: str, rules: Sequence[Rule], now: float) -> tuple[int, ...]:
        """Per rule, the ``admitted`` cost of :meth:`window`: what the service is known to have
        admitted of the key in its trailing window.

        Args:
            key: The scheduler's key of the category.
            rules: The category's configured rules.
            now: The scheduler's clock.

        Returns:
            One cost per rule, in the rules' order.

        Raises:
            RedisBackendError: Redis did not answer in time, or failed; nothing was sent.
        """
        return tuple(count.admitted for count in await self.window(key, rules, now))
