"""The scheduler: runs every request through its category's lane, and retries it.

Each category's :class:`~route_planning_async._scheduler._lane.Lane` admits
attempts within its limits; its module docstring is the design (the safety
argument, latency, queueing, what a 429 teaches).

Retries
-------

The retry policy (``_retry.py``) holds every retry rule: which outcome is
retried after how long, which attempt may have been applied, and which error
answer means the request is already done (a 404 to a retried DELETE). The
scheduler follows it: it waits the delay on its clock (a 429's delay is the
category's pause), and the retry queues again.
"""

from __future__ import annotations

import http
import logging

from route_planning_async._core import Request, Response, error_for
from route_planning_async._errors import AttemptRecord, RoutePlanningError, TransportError
from route_planning_async._rate_limits._backends import InMemoryBackend, RateLimitBackend, learned_rules
from route_planning_async._rate_limits._limits import Category, RateLimits
from route_planning_async._scheduler._clock import Clock, LoopClock
from route_planning_async._scheduler._lane import Lane, Send
from route_planning_async._scheduler._retry import RetryDecision, RetryPolicy
from route_planning_async._scheduler._stats import CategoryStats, SchedulerStats

__all__ = ["Scheduler"]

logger = logging.getLogger("route_planning_async.scheduler")


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

    Args:
        limits: The rules of each category.
        retry: How failed attempts are retried and how a 429 slows a category.
        backend: Where the limit state lives; an :class:`InMemoryBackend` by default.
        clock: The time source; the running loop's clock by default.
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
            category: Lane(
                category,
                limits.for_category(category),
                self.backend,
                self._clock,
                learning=retry.learning,
                strict_windows=limits.strict_windows,
            )
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
        return SchedulerStats({category: _snapshot(lane) for category, lane in self._lanes.items()})

    async def run(
        self, request: Request, send: Send, *, retry: RetryPolicy | None = None, base_url: str = ""
    ) -> Response:
        """Wait for capacity, send, retry what may be retried; return the final answer.

        A 2xx, or an error answer on the first attempt that is not retried, is
        returned (``_core.decode`` raises the error). After retries, an error
        answer is raised with its ``history``; a :class:`TransportError` that is
        not retried is raised (with ``history`` when there were earlier attempts).
        ``retry`` replaces the scheduler's policy for this request (the learning
        of the category's limit stays the scheduler's). ``base_url`` is the
        service address the request was sent to, which an error raised here names
        (``Request.url``), as the errors of a first attempt do.
        """
        policy = self.retry if retry is None else retry
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
        # Attempts that failed otherwise than with a 429 (RetryPolicy.attempts
        # bounds them), and 429s in a row (their backoff grows with them).
        failures = refusals = 0
        # Read only when a 429 may have to be given up on (RetryPolicy.max_wait).
        queued_at = self._clock.now() if policy.max_wait is not None else None
        refused = False
        # The first attempt's send: a transport error says how long all its attempts took.
        first_sent_at: float | None = None
        while True:
            grant, sent_at = await lane.admit(request.weight, refused)
            if first_sent_at is None:
                first_sent_at = sent_at
            outcome = await lane.send(grant, request, send, sent_at)
            if isinstance(outcome, Response) and outcome.ok:
                # The common case, first: nothing to retry, nothing to learn.
                if lane.learning:
                    await lane.after_answer(sent_at)
                else:
                    lane.untold += 1
                return outcome
            if policy.already_done(request, outcome, after_applied=maybe_applied):
                logger.debug("%s: 404 after a failed attempt: already deleted", request.describe())
                if lane.learning:
                    await lane.after_answer(sent_at)
                return Response(http.HTTPStatus.NO_CONTENT, {}, b"")
            refused = isinstance(outcome, Response) and outcome.status == http.HTTPStatus.TOO_MANY_REQUESTS
            if refused:
                refusals += 1
            else:
                failures += 1
                refusals = 0
            failed_at = self._clock.now()
            decision = policy.decide(
                request,
                outcome,
                refusals if refused else failures,
                waited=0.0 if queued_at is None else failed_at - queued_at,
            )
            if decision.rate_limited:
                try:
                    await lane.rate_limited_answer(decision.delay, sent_at, request.weight)
                finally:
                    lane.scouted(False)
            elif refused:
                lane.scouted(False)
            elif isinstance(outcome, Response) and lane.learning:
                await lane.after_answer(sent_at)
            if not decision.retry:
                return self._give_up(request, outcome, history, failed_at - first_sent_at, base_url)
            status, description = _describe(outcome)
            history.append(
                AttemptRecord(
                    status,
                    description,
                    decision.delay,
                    duration=max(failed_at - sent_at, 0.0),
                    error=outcome if isinstance(outcome, TransportError) else None,
                )
            )
            maybe_applied = maybe_applied or policy.may_have_applied(outcome)
            lane.retries += 1
            self._log_retry(request, description, len(history), decision)
            if decision.delay > 0 and not decision.rate_limited:
                # A 429's wait is the category's pause, which admit() keeps.
                await self._clock.sleep(decision.delay)

    def _log_retry(self, request: Request, description: str, retry: int, decision: RetryDecision) -> None:
        logger.debug("%s: %s; retry %d in %.3f s", request.describe(), description, retry, decision.delay)

    @staticmethod
    def _give_up(
        request: Request,
        outcome: Response | TransportError,
        history: list[AttemptRecord],
        elapsed: float,
        base_url: str,
    ) -> Response:
        if isinstance(outcome, TransportError):
            # "... after 5 attempts over 10.7 s", with the attempts as data.
            outcome.record_attempts(history, max(elapsed, 0.0))
            if history:
                outcome.add_note(
                    f"after {len(history) + 1} attempts: "
                    + "; ".join(record.description for record in history)
                )
            raise outcome
        if not history:
            return outcome
        raise error_for(request, outcome, base_url=base_url, history=history)

    async def aclose(self) -> None:
        """Fail every request still waiting for capacity; later requests are refused."""
        self._closed = True
        for lane in self._lanes.values():
            lane.close()


def _snapshot(lane: Lane) -> CategoryStats:
    """One lane's counters and limits, configured and learned."""
    learned = learned_rules(lane.rules_in_force(), lane.rate_factor)
    request_rates = [rule.amount / rule.period for rule in learned if rule.per == "request"]
    return CategoryStats(
        category=lane.category,
        requests=lane.requests,
        sent=lane.sent,
        sent_weight=lane.sent_weight,
        rate_limited=lane.rate_limited,
        retries=lane.retries,
        wait_seconds=lane.wait_seconds,
        in_flight=lane.in_flight,
        queued=lane.waiting,
        rate_factor=lane.rate_factor,
        effective_rate=min(request_rates) if request_rates else None,
        limits=lane.rules,
        learned_limits=learned,
    )
