"""A socket-free service with limits of its own, for learning tests in virtual time.

``LimitedService`` is a :class:`~route_planning_async.Transport` that admits or
refuses (429) each request by its own rule, counted at the request's *arrival*
(after ``up`` seconds of the loop's clock), answers after ``down`` seconds, and
logs every arrival. Its limit can disagree with the client's, change over time
(``schedule``), count refused requests or not, or be a token bucket with a burst.
"""

from __future__ import annotations

import asyncio
import collections
import math
from collections.abc import Awaitable, Callable, Sequence

import attrs

from route_planning_async._core import Request, Response
from route_planning_async._scheduler import Scheduler

OK = Response(200, {}, b"{}")


@attrs.define
class Arrival:
    at: float
    weight: int
    admitted: bool
    source: str = "client"


@attrs.define
class SlidingWindow:
    """At most ``amount`` (requests, or weight with ``per_weight``) in any ``period``."""

    amount: int
    period: float
    per_weight: bool = False
    count_refused: bool = True
    _log: collections.deque[tuple[float, int]] = attrs.field(factory=collections.deque)

    def check(self, now: float, weight: int) -> tuple[bool, float]:
        """Whether this rule admits a request of ``weight`` now, and the wait until it would."""
        cost = weight if self.per_weight else 1
        while self._log and self._log[0][0] <= now - self.period:
            self._log.popleft()
        used = sum(c for _, c in self._log)
        wait = self._log[0][0] + self.period - now if self._log else 0.0
        return used + cost <= self.amount, max(0.0, wait)

    def count(self, now: float, weight: int, admitted: bool) -> None:
        """The service's decision (every rule's): counted if admitted, or if refused ones count."""
        if admitted or self.count_refused:
            self._log.append((now, weight if self.per_weight else 1))


@attrs.define
class TokenBucket:
    """Refills ``amount`` per ``period`` continuously, holds at most ``burst`` tokens."""

    amount: int
    period: float
    burst: float
    per_weight: bool = False
    _tokens: float = math.nan
    _at: float = 0.0

    def check(self, now: float, weight: int) -> tuple[bool, float]:
        """Whether the bucket holds a request of ``weight`` now, and the wait until it would."""
        cost = weight if self.per_weight else 1
        rate = self.amount / self.period
        if math.isnan(self._tokens):
            self._tokens, self._at = self.burst, now
        self._tokens = min(self.burst, self._tokens + (now - self._at) * rate)
        self._at = now
        if self._tokens >= cost:
            return True, 0.0
        return False, (cost - self._tokens) / rate

    def count(self, now: float, weight: int, admitted: bool) -> None:
        """The service's decision (every rule's): an admitted request takes its tokens."""
        if admitted:
            self._tokens -= weight if self.per_weight else 1


Limiter = SlidingWindow | TokenBucket


class LimitedService:
    """Answers 200 or 429 by its own limiters (all must admit), as the real service would.

    :param limiters: what is in force from time 0.
    :param schedule: ``(time, limiters)`` changes, in loop time.
    :param up: seconds to reach the service; :param down: seconds back.
    :param retry_after: send a ``Retry-After`` with each 429 (the wait until it would fit).
    """

    def __init__(
        self,
        limiters: Sequence[Limiter],
        *,
        schedule: Sequence[tuple[float, Sequence[Limiter]]] = (),
        up: float | Callable[[], float] = 0.0,
        down: float | Callable[[], float] = 0.0,
        retry_after: bool = False,
    ) -> None:
        self.limiters = list(limiters)
        self.schedule = sorted(schedule, key=lambda change: change[0])
        self.up = up
        self.down = down
        self.retry_after = retry_after
        self.arrivals: list[Arrival] = []

    async def send(self, request: Request) -> Response:
        return await self.send_as(request, "client")

    def sender(self, source: str) -> Callable[[Request], Awaitable[Response]]:
        """A ``send`` whose arrivals are logged as ``source``'s (another process on the key)."""

        async def send(request: Request) -> Response:
            return await self.send_as(request, source)

        return send

    async def send_as(self, request: Request, source: str) -> Response:
        loop = asyncio.get_running_loop()
        up = self.up() if callable(self.up) else self.up
        if up:
            await asyncio.sleep(up)
        now = loop.time()
        while self.schedule and self.schedule[0][0] <= now:
            self.limiters = list(self.schedule.pop(0)[1])
        # Every rule must admit; then each counts the decision (a request one rule refused is
        # not counted by another as admitted).
        decisions = [limiter.check(now, request.weight) for limiter in self.limiters]
        admitted = all(ok for ok, _ in decisions)
        for limiter in self.limiters:
            limiter.count(now, request.weight, admitted)
        self.arrivals.append(Arrival(now, request.weight, admitted, source))
        down = self.down() if callable(self.down) else self.down
        if down:
            await asyncio.sleep(down)
        if admitted:
            return OK
        headers = {}
        if self.retry_after:
            headers["Retry-After"] = f"{max(wait for _, wait in decisions):.6f}"
        return Response(429, headers, b'{"message": "rate limited", "code": "rate_limited"}')

    def admitted_between(self, start: float, end: float, source: str | None = None) -> int:
        """Requests admitted with arrivals in ``[start, end)`` (of ``source`` only, if given)."""
        return sum(
            1
            for a in self.arrivals
            if a.admitted and start <= a.at < end and (source is None or a.source == source)
        )

    def periods_to_full(
        self,
        since: float,
        amount: int,
        *,
        period: float = 1.0,
        within: float = 30.0,
        source: str = "client",
    ) -> float:
        """Periods from ``since`` until ``source`` has 95 % of ``amount`` admitted in each of four
        periods running (looked for a tenth of a period apart, up to ``within`` periods; inf if never)."""
        for tenth in range(math.floor(within * 10 + 1e-9) + 1):
            start = since + tenth * period / 10
            if all(
                self.admitted_between(start + k * period, start + (k + 1) * period, source) >= 0.95 * amount
                for k in range(4)
            ):
                return tenth / 10
        return math.inf

    def of(self, source: str, start: float = -math.inf, end: float = math.inf) -> list[Arrival]:
        """``source``'s arrivals in ``[start, end)``."""
        return [a for a in self.arrivals if a.source == source and start <= a.at < end]

    @property
    def refused(self) -> int:
        return sum(1 for a in self.arrivals if not a.admitted)


async def run_requests(
    scheduler: Scheduler,
    request: Request,
    send: Callable[[Request], Awaitable[Response]],
    count: int,
    tasks: int,
) -> list[Response]:
    """``count`` copies of ``request`` through ``scheduler`` from ``tasks`` tasks, each sending its next
    as soon as its last is answered (a bulk job's workers); the answers, in the order they came."""
    answers: list[Response] = []
    left = count

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            answers.append(await scheduler.run(request, send))

    await asyncio.gather(*(worker() for _ in range(tasks)))
    return answers
