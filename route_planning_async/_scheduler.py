"""The rate-limit scheduler: every request waits here for capacity in its category.

The contract (Limits) gives each category a number of requests per period
(``_limits.py`` holds them as data); it does not say how the service counts.
The scheduler assumes the strictest counter, a *sliding log*: a request is
refused when the service has accepted ``amount`` requests (or units of weight)
in the ``period`` seconds before it arrived.

Safety: why the service never sees more than ``amount`` in a window
-------------------------------------------------------------------

The service counts *arrival* times, which we cannot observe: a request sent at
``s`` (our clock) and answered at ``r`` arrived somewhere in ``[s, r]``, and
network latency jitters. So every admitted attempt holds a *slot* in each rule
of its category, and the slot is only freed **one full period after the
attempt ended**:

- from admission until the answer arrives the slot is *in flight* and counts
  against every rule;
- when the answer arrives at ``r`` the slot is *anchored* at ``r`` and still
  counts until ``r + period`` (``period`` stretched by a 429 slowdown, below);
- a new attempt is admitted only if, for every rule, the slots that still
  count plus its own cost fit in ``amount``.

Claim: any ``k`` attempts whose arrivals lie in one window of length ``period``
cost at most ``amount``. Take the one among them admitted last, at ``s*``; it
arrived at ``a* >= s*``. Every other one, ``i``, was admitted before ``s*`` and
arrived at ``a_i > a* - period >= s* - period``; since its answer came after
its arrival, ``r_i >= a_i > s* - period``, i.e. ``r_i + period > s*``: at ``s*``
its slot still counted (or it was still in flight). So all ``k`` were counted
when the last was admitted, and the admission test kept their total within
``amount``. The argument holds for weighted rules too (sum of costs instead of
a count), needs no bound on latency, and uses only our own monotonic clock.

The price is the round trip: a slot cycles in ``period + latency``, so under
sustained demand a category reaches ``period / (period + latency)`` of its limit
(99% for 10 ms against a 1 s period; 100% with a zero-latency fake transport).

An attempt that ends *without* an answer (a transport error, a timeout, the
task cancelled mid-flight) has no receipt time that bounds its arrival: the
request may still sit in a buffer. Its slot is anchored at the end time *plus
the time it was in flight*, a heuristic margin. An attempt whose connection was
never made (``TransportError.maybe_sent`` is False) cannot have arrived, so its
slot is given back at once.

Why not aiolimiter
------------------

aiolimiter (the usual asyncio rate limiter, and one of the benchmarks'
baselines) is a leaky bucket, and its semantics do not fit this core:
``AsyncLimiter(N, period)`` starts empty and lets about ``2N - 1`` requests through in its first period,
which a sliding-window server rejects; it wakes the *smallest* waiting request
first, so a 100-stop batch import starves behind single requests; and
``acquire(amount)`` above ``max_rate`` raises instead of being checked up front.

Queueing
--------

Each category has one FIFO queue in front of the backend. Only the request at
its head asks the backend for capacity; everybody else awaits a plain future
(no timer, no polling), so 10,000 waiting tasks cost 10,000 futures and at most
one timer per category. The head waits, nobody overtakes it: a heavy batch
import at the head is not starved by lighter requests behind it. The head wakes
when its computed wait ends, or early when something may shorten it: an answer
that anchors a slot it was waiting for, a slot given back, a slowdown that
recovers. A task cancelled while it waits takes no
capacity; if it was the head, the next waiter is promoted. A retry joins the
back of the queue. A request whose weight is larger than a weighted rule's
``amount`` could never pass, so :class:`~route_planning_async.ValidationError`
is raised before it queues.

429 slowdown
------------

A 429 means the service counts differently than we do (or another client
shares the key), so it slows the whole category, for every process sharing the
backend: the category pauses for the ``Retry-After`` (or the backoff) the 429
asked for, and its rate is multiplied by ``RetryPolicy.slowdown`` (every
period is stretched by the inverse factor), down to ``min_rate_factor``. Only a
429 to a request sent after the last slowdown slows it again (one step per
round trip, however many requests were in flight). After
``recovery_successes`` answers in a row that are not 429, the rate grows by
``recovery_step``, up to the configured rate.

Retries
-------

The retry policy (``_retry.py``) holds every retry rule: which outcome is
retried after how long, which attempt may have been applied, and which error
answer means the request is already done (a 404 to a retried DELETE). The
scheduler follows it: it waits the delay on its clock, and a retry joins the
back of its category's queue.

Rooms
-----

The backend contract (``_backends.py``) says what a backend keeps for each
category and how a shared one behaves; the scheduler asks it, never the reverse.
The statistics it answers are ``_stats.py``'s snapshots. Every wait runs on the
scheduler's :class:`Clock` (``Scheduler.clock``), so the workflows that poll
can wait on the same clock and a test can drive it all in virtual time.
"""

from __future__ import annotations

import asyncio
import collections
import http
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from route_planning_async._backends import Grant, InMemoryBackend, RateLimitBackend
from route_planning_async._core import Request, Response, error_for
from route_planning_async._errors import (
    AttemptRecord,
    RoutePlanningError,
    TransportError,
    ValidationError,
)
from route_planning_async._limits import Category, RateLimits, Rule
from route_planning_async._retry import RetryDecision, RetryPolicy
from route_planning_async._stats import CategoryStats, SchedulerStats

__all__ = ["Clock", "LoopClock", "Scheduler", "Send"]

logger = logging.getLogger("route_planning_async.scheduler")

Send = Callable[[Request], Awaitable[Response]]
"""What the scheduler calls to put one attempt on the wire (the transport's ``send``)."""


class Clock(Protocol):
    """The scheduler's time source: a monotonic ``now()`` and a matching ``sleep()``."""

    def now(self) -> float:
        """Seconds on a monotonic scale."""

    async def sleep(self, seconds: float) -> None:
        """Return after ``seconds`` of this clock have passed."""


class LoopClock:
    """The running event loop's clock (``loop.time()``, monotonic) and ``asyncio.sleep``."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._time: Callable[[], float] = time.monotonic

    def now(self) -> float:
        """The event loop's time."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # asyncio's own loops tell time with time.monotonic(); calling it
            # directly spares a method call per reading. Other loops (uvloop, a
            # test's virtual clock) are asked.
            self._loop = loop
            standard = getattr(type(loop), "time", None) is asyncio.BaseEventLoop.time
            self._time = time.monotonic if standard else loop.time
        return self._time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)


def _set_if_pending(future: asyncio.Future[None], _: object = None) -> None:
    if not future.done():
        future.set_result(None)


class _Lane:
    """One category's FIFO queue in front of the backend, with its counters."""

    def __init__(
        self, category: Category, rules: tuple[Rule, ...], backend: RateLimitBackend, clock: Clock
    ) -> None:
        self.category = category
        self.key = category.value
        self.rules = rules
        self._backend = backend
        self._clock = clock
        self._queue: collections.deque[asyncio.Future[None]] = collections.deque()
        self._abandoned = 0
        self._head_taken = False
        self._wake: asyncio.Future[None] | None = None
        self._wake_at = -math.inf
        self._shortest_period = min((rule.period for rule in rules), default=0.0)
        self._recheck = min([rule.period for rule in rules] + [1.0])
        self._closed = False
        self._successes = 0
        self._last_slowdown = -math.inf
        self.rate_factor = 1.0
        self.requests = 0
        self.sent = 0
        self.sent_weight = 0
        self.rate_limited = 0
        self.retries = 0
        self.wait_seconds = 0.0
        self.in_flight = 0
        self.waiting = 0

    def check_weight(self, weight: int) -> None:
        if weight < 1:
            raise ValidationError("weight", f"must be at least 1, got {weight}")
        for rule in self.rules:
            if rule.cost(weight) > rule.amount:
                # Contract, Limits: waiting could never help; the request must be split.
                raise ValidationError(
                    "weight",
                    f"{weight} can never pass the {self.category} limit of {rule.amount} "
                    f"per {rule.period:g} s; split the request",
                )

    def snapshot(self) -> CategoryStats:
        request_rates = [rule.amount / rule.period for rule in self.rules if rule.per == "request"]
        return CategoryStats(
            category=self.category,
            requests=self.requests,
            sent=self.sent,
            sent_weight=self.sent_weight,
            rate_limited=self.rate_limited,
            retries=self.retries,
            wait_seconds=self.wait_seconds,
            in_flight=self.in_flight,
            queued=self.waiting,
            rate_factor=self.rate_factor,
            effective_rate=min(request_rates) * self.rate_factor if request_rates else None,
        )

    def poke(self) -> None:
        """Something changed that may let the head through earlier: make it ask again."""
        if self._wake is not None:
            _set_if_pending(self._wake)

    def poke_after_release(self, now: float) -> None:
        """A slot was anchored at ``now`` or later: wake the head only if that can help it.

        The new slot stops counting at ``now + period`` at the earliest (a slowdown
        only stretches periods), so a head that will wake before then anyway would
        only compute the same wait again.
        """
        if self._wake_at > now + self._shortest_period:
            self.poke()

    async def admit(self, weight: int) -> tuple[Grant, float]:
        """Wait in FIFO order until the backend grants a slot of ``weight``; answer the
        grant and the clock reading the backend was asked with (the send time: with
        a remote backend, one round trip earlier than the grant arrived)."""
        started = now = self._clock.now()
        self.waiting += 1
        try:
            # Whenever the queue holds anybody, the head is taken (it empties the
            # queue before letting go), so this is the one test that keeps FIFO.
            if self._head_taken:
                await self._wait_in_line()
                now = self._clock.now()
            else:
                self._head_taken = True
            try:
                while True:
                    if self._closed:
                        raise RoutePlanningError("the client was closed")
                    grant = await self._backend.acquire(self.key, self.rules, weight, now)
                    if isinstance(grant, Grant):
                        break
                    await self._wait_for_capacity(grant)
                    now = self._clock.now()
            finally:
                self._pass_head()
        finally:
            self.waiting -= 1
        self.rate_factor = grant.rate_factor
        self.wait_seconds += now - started
        return grant, now

    async def _wait_in_line(self) -> None:
        if self._closed:
            raise RoutePlanningError("the client was closed")
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                # Promoted, then cancelled before it could run: hand the head on.
                self._pass_head()
            else:
                self._forget_abandoned()
            raise

    def _forget_abandoned(self) -> None:
        # Cancelled waiters are skipped lazily when the head passes; compacting
        # now and then keeps mass cancellation behind a blocked head from piling up.
        self._abandoned += 1
        if self._abandoned > 64 and self._abandoned * 2 > len(self._queue):
            self._queue = collections.deque(turn for turn in self._queue if not turn.done())
            self._abandoned = 0

    def _pass_head(self) -> None:
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():
                turn.set_result(None)
                return
            self._abandoned = max(0, self._abandoned - 1)
        self._head_taken = False

    async def _wait_for_capacity(self, wait: float) -> None:
        """Sleep the ``wait`` seconds the backend answered, or less if poked."""
        if math.isinf(wait):
            logger.debug("%s: waiting for an answer to free capacity (%d queued)", self.key, self.waiting)
        else:
            logger.debug("%s: waiting %.3f s for capacity (%d queued)", self.key, wait, self.waiting)
        loop = asyncio.get_running_loop()
        wake: asyncio.Future[None] = loop.create_future()
        self._wake = wake
        self._wake_at = self._clock.now() + wait
        # An infinite wait ends with a local answer (a poke), or, for slots held by
        # other processes on a shared backend, by asking again after a while.
        seconds = self._recheck if math.isinf(wait) else wait
        timer: asyncio.TimerHandle | asyncio.Task[None]
        if isinstance(self._clock, LoopClock):
            timer = loop.call_later(seconds, _set_if_pending, wake)
        else:
            timer = loop.create_task(self._clock.sleep(seconds))
            timer.add_done_callback(lambda _: _set_if_pending(wake))
        try:
            await wake
        finally:
            self._wake = None
            self._wake_at = -math.inf
            timer.cancel()

    async def send(
        self, grant: Grant, request: Request, send: Send, sent_at: float
    ) -> Response | TransportError:
        """Send one attempt, granted at ``sent_at``, and settle its slot (see the safety argument)."""
        self.in_flight += 1
        self.sent += 1
        self.sent_weight += grant.weight
        try:
            response = await send(request)
        except TransportError as exc:
            if exc.maybe_sent:
                await self._release_unanswered(grant, sent_at)
            else:
                await self._backend.cancel(grant)
                self.poke()
            return exc
        except BaseException:
            await self._release_unanswered(grant, sent_at)
            raise
        else:
            answered_at = self._clock.now()
            await self._backend.release(grant, answered_at)
            self.poke_after_release(answered_at)
            return response
        finally:
            self.in_flight -= 1

    async def _release_unanswered(self, grant: Grant, sent_at: float) -> None:
        ended = self._clock.now()
        # Without an answer the request may still arrive later: add the time it was
        # in flight as a margin (module docstring, "Safety").
        await self._backend.release(grant, ended, extra=ended - sent_at)
        self.poke_after_release(ended)

    async def rate_limited_answer(self, pause: float, sent_at: float, policy: RetryPolicy) -> None:
        """A 429: pause the category and, once per round trip, slow it down."""
        self.rate_limited += 1
        self._successes = 0
        now = self._clock.now()
        slowdown = policy.slowdown if sent_at >= self._last_slowdown else 1.0
        if slowdown < 1.0:
            self._last_slowdown = now
        self.rate_factor = await self._backend.penalize(
            self.key, pause, slowdown, policy.min_rate_factor, now
        )
        if slowdown < 1.0:
            logger.debug(
                "%s: 429, pausing %.3f s, rate now %.0f%% of the limit",
                self.key,
                pause,
                100 * self.rate_factor,
            )

    def answered(self, policy: RetryPolicy) -> bool:
        """An answer that is not a 429: count it toward recovery. True when the run of
        such answers has earned a recovery step (then call :meth:`recover`)."""
        if self.rate_factor >= 1.0:
            self._successes = 0
            return False
        self._successes += 1
        if self._successes < policy.recovery_successes:
            return False
        self._successes = 0
        return True

    async def recover(self, policy: RetryPolicy) -> None:
        """Speed the category up one step."""
        self.rate_factor = await self._backend.recover(self.key, policy.recovery_step)
        logger.debug("%s: recovering, rate now %.0f%% of the limit", self.key, 100 * self.rate_factor)
        self.poke()

    def close(self) -> None:
        self._closed = True
        closed = RoutePlanningError("the client was closed")
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():
                turn.set_exception(closed)
        self._abandoned = 0
        self.poke()


def _describe(outcome: Response | TransportError) -> tuple[int | None, str]:
    if isinstance(outcome, TransportError):
        return None, str(outcome)
    try:
        phrase = http.HTTPStatus(outcome.status).phrase
    except ValueError:
        phrase = "HTTP error"
    return outcome.status, f"{outcome.status} {phrase}"


class Scheduler:
    """Admits every request into its category's limits, sends it, retries it.

    :param limits: the rules of each category.
    :param retry: how failed attempts are retried and how a 429 slows a category.
    :param backend: where the limit state lives; an :class:`InMemoryBackend` by default.
    :param clock: the time source; the running loop's clock by default.
    """

    def __init__(
        self,
        limits: RateLimits,
        retry: RetryPolicy,
        *,
        backend: RateLimitBackend | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.limits = limits
        """The rules in force."""
        self.retry = retry
        """The retry policy in force."""
        self.backend: RateLimitBackend = backend if backend is not None else InMemoryBackend()
        """Where the limit state lives."""
        self._clock: Clock = clock if clock is not None else LoopClock()
        self._lanes = {
            category: _Lane(category, limits.for_category(category), self.backend, self._clock)
            for category in Category
        }
        self._closed = False

    def __repr__(self) -> str:
        return f"<Scheduler limits={self.limits!r} retry={self.retry!r}>"

    @property
    def clock(self) -> Clock:
        """The clock every wait of this scheduler runs on (read-only)."""
        return self._clock

    @property
    def stats(self) -> SchedulerStats:
        """Per category: requests, attempts, 429s, retries, waits, in flight, queued, rate."""
        return SchedulerStats({category: lane.snapshot() for category, lane in self._lanes.items()})

    async def run(self, request: Request, send: Send) -> Response:
        """Wait for capacity, send, retry what may be retried; return the final answer.

        A 2xx, or an error answer on the first attempt that is not retried, is
        returned (``_core.decode`` raises the error). After retries, an error
        answer is raised with its ``history``; a :class:`TransportError` that is
        not retried is raised (with ``history`` when there were earlier attempts).
        """
        lane = self._lanes[request.category]
        if request.weight != 1:
            # A weight of 1 fits every rule (amounts are at least 1).
            lane.check_weight(request.weight)
        if self._closed:
            raise RoutePlanningError("the client was closed")
        lane.requests += 1
        history: list[AttemptRecord] = []
        # Set once an attempt may have been applied by the service; the policy
        # then reads some later errors as success (RetryPolicy.already_done).
        maybe_applied = False
        attempt = 0
        while True:
            attempt += 1
            grant, sent_at = await lane.admit(request.weight)
            outcome = await lane.send(grant, request, send, sent_at)
            if isinstance(outcome, Response) and outcome.ok:
                # The common case, first: nothing to retry, nothing to slow down.
                if lane.answered(self.retry):
                    await lane.recover(self.retry)
                return outcome
            if self.retry.already_done(request, outcome, after_applied=maybe_applied):
                logger.debug("%s: 404 after a failed attempt: already deleted", request.describe())
                if lane.answered(self.retry):
                    await lane.recover(self.retry)
                return Response(http.HTTPStatus.NO_CONTENT, {}, b"")
            decision = self.retry.decide(request, outcome, attempt)
            if decision.rate_limited:
                await lane.rate_limited_answer(decision.delay, sent_at, self.retry)
            elif isinstance(outcome, Response) and lane.answered(self.retry):
                await lane.recover(self.retry)
            if not decision.retry:
                return self._give_up(request, outcome, history)
            status, description = _describe(outcome)
            history.append(AttemptRecord(status, description, decision.delay))
            maybe_applied = maybe_applied or self.retry.may_have_applied(outcome)
            lane.retries += 1
            self._log_retry(request, description, attempt, decision)
            if decision.delay > 0:
                await self._clock.sleep(decision.delay)

    def _log_retry(self, request: Request, description: str, attempt: int, decision: RetryDecision) -> None:
        logger.debug(
            "%s: %s; retry %d of %d in %.3f s",
            request.describe(),
            description,
            attempt,
            self.retry.attempts - 1,
            decision.delay,
        )

    @staticmethod
    def _give_up(
        request: Request, outcome: Response | TransportError, history: list[AttemptRecord]
    ) -> Response:
        if isinstance(outcome, TransportError):
            if history:
                outcome.history = tuple(history)
                outcome.add_note(
                    f"after {len(history) + 1} attempts: "
                    + "; ".join(record.description for record in history)
                )
            raise outcome
        if not history:
            return outcome
        raise error_for(request, outcome, history=history)

    async def aclose(self) -> None:
        """Fail every request still waiting for capacity; later requests are refused."""
        self._closed = True
        for lane in self._lanes.values():
            lane.close()
