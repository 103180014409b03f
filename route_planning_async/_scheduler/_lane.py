"""The lanes of the rate-limit scheduler: every request waits in one for capacity in its category.

The contract (Limits) gives each category a number of requests per period
(``_rate_limits/_limits.py`` holds them as data); it does not say how the service counts.
The scheduler assumes the strictest counter, a *sliding log*: a request is
refused when the service has accepted ``amount`` requests (or units of weight)
in the ``period`` seconds before it arrived. ``amount`` is the configured
amount times what the category has learned of the real limit (``_learning/``, stated in
``docs/learning.md``; and "429s" below).

Safety with strict windows: why the service never sees more than ``amount``
----------------------------------------------------------------------------

The service counts *arrival* times, which we cannot observe: a request sent at
``s`` (our clock) and answered at ``r`` arrived somewhere in ``[s, r]``, and
network latency jitters. So every admitted attempt holds a *slot* in each rule
of its category, and the slot is only freed **one full period after the
attempt ended**:

- from admission until the answer arrives the slot is *in flight* and counts
  against every rule;
- when the answer arrives at ``r`` the slot is *anchored* at ``r`` and still
  counts until ``r + period``;
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
(99% for 10 ms against a 1 s period; 100% with a zero-latency fake transport;
77% over a link with 150 ms each way). This is the rule of
``RateLimits(..., strict_windows=True)``.

Latency: anchoring before the answer (the default)
--------------------------------------------------

By default an answered slot is anchored at ``r - f`` instead of ``r``, where
``f`` is the shortest round trip seen so far. Redo the claim with the delays
of attempt ``i``: out ``d_i``, back ``b_i`` (``r_i = s_i + d_i + b_i`` plus the
service's own time). The last admitted attempt arrived at ``a* = s* + d*``;
attempt ``i`` arrived at ``a_i > a* - period``; its slot counted at ``s*`` if
``r_i - f + period > s*``, which holds when ``r_i - f >= a_i - d*``, i.e. when
``b_i + d* >= f``. Every way out is at least the fastest way out and every way
back at least the fastest way back, so ``b_i + d* >= d_min + b_min``, the true
shortest round trip: the guarantee holds whatever the delays, if ``f`` is not
above it. The shortest round trip *seen* can be (until the fastest has come
by), so ``f`` is that less a share of the spread of the last 64 round trips
(a round trip is the sum of two delays that vary, out and back, and such a sum
is rarely near its minimum: the shortest of ``n`` exceeds the true shortest by
about half the spread divided by ``sqrt(n)``, not by the spread divided by
``n`` as for one delay; twice the spread over ``sqrt(n + 1)`` is kept back,
and nothing is taken off before 16 have been seen: a first burst queues them
all), and less a caution that grows by the spread with every 429 that looks
like a late arrival (the service refused though it had admitted what the
category believed; it is also cut, as any 429). In return, once 16 answers
are in, a slot cycles in ``period`` plus about twice the jitter of the round
trip, not the round trip itself: over a link of 150 ms +- 10 ms each way, 1.02
periods where strict windows take 1.32 (``limit_mismatch`` in
``benchmarks/RESULTS.md`` gives what a whole run of reads uses there, its first
period paced by round trips).

Why not aiolimiter
------------------

aiolimiter (the usual asyncio rate limiter, and one of the benchmarks'
baselines) is a leaky bucket, and its semantics do not fit this core:
``AsyncLimiter(N, period)`` starts empty and lets about ``2N - 1`` requests
through in its first period, which a sliding-window server rejects; it wakes the *smallest* waiting request
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
that anchors a slot it was waiting for, a slot given back, a learned limit
that grows. A task cancelled while it waits takes no capacity; if it was the
head, the next waiter is promoted. A retry after a 5xx or a lost connection
joins the back of the queue; a request refused with a 429 goes back to its
head. A request whose weight is larger than a weighted rule's ``amount`` could
never pass, so :class:`~route_planning_async.ValidationError` is raised before
it queues.

429s: learning the real limit
-----------------------------

A 429 means the service admits less than the lane believed: its limit is lower than
configured, others on the key spent the budget, or a delay outran the anchor margin.
The category pauses for the ``Retry-After`` (or the backoff) the 429 asked for, for
every process sharing the backend, and its learning law (``_learning/``, stated in
``docs/learning.md``) answers what to do with the level. The lane reports three
events to it (a send after a quiet spell, an answer, a 429) and applies each
:class:`~route_planning_async._learning.Action`: the level through the backend
(``penalize`` lowers it, ``recover`` raises it, for every process sharing it; only a
raise the law made goes through ``recover``: the handler of an action that leaves
the level read the factor before a change another answer's handler may still be
writing), a pause, and the gate (``_gate.py``): after a quiet spell, or a raise,
attempts go paced by answers, one alone and one more per admitted answer, so that a
level the service does not admit costs a refusal or a few, not a burst. Below the
configured level it sends no sooner than ``Law.due`` says (evenly, one request every
period over the level; "Evenly below *N*" in ``docs/learning.md``). A 429 alone
never makes a request fail (it goes back to the head of the line); only the caller's
cancel or ``asyncio.timeout``, the client's close, ``RetryPolicy.max_wait`` or a
``Retry-After`` above ``RetryPolicy.max_retry_after`` do. A decrease to a lower
level is logged once at WARNING with the numbers (as the level others sharing the
backend learned, when no 429 of the lane's own came), further changes at DEBUG, a
busy window at INFO (``_level_log.py``); ``client.stats`` shows the learned limits
beside the configured ones.

One round trip at a time
------------------------

A category that learns keeps at most ``IN_FLIGHT_HEADROOM`` (4) times what
its longest recent round trip holds at its rate in flight, one at least, and
no cap before its first answer (``_anchor.py``). Where a round trip is short
against the period, a period's burst goes out about one attempt per round trip,
within a quarter of the period, once (its slots then free apart), and a limit
that fell, or somebody else arriving on the key, refuses what is in flight
before the first 429 is heard (one), not the whole burst; over a long round
trip the cap rises with it, so the rate always fits.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable

from route_planning_async._core import Request, Response
from route_planning_async._errors import RoutePlanningError, TransportError, ValidationError
from route_planning_async._learning import Action, Law, LearningPolicy
from route_planning_async._rate_limits._backends import Grant, InMemoryBackend, RateLimitBackend, WindowCount
from route_planning_async._rate_limits._limits import Category, Rule
from route_planning_async._scheduler._anchor import Anchor
from route_planning_async._scheduler._clock import Clock
from route_planning_async._scheduler._gate import Gate
from route_planning_async._scheduler._level_log import LevelLog
from route_planning_async._scheduler._line import Line
from route_planning_async._scheduler._shared_factor import SharedFactor
from route_planning_async._scheduler._wake import Wake

__all__ = ["Lane", "Send"]

logger = logging.getLogger("route_planning_async.scheduler")

Send = Callable[[Request], Awaitable[Response]]
"""What the scheduler calls to put one attempt on the wire (the transport's ``send``)."""


class Lane:
    """One category's FIFO queue in front of the backend, with its counters."""

    def __init__(
        self,
        category: Category,
        rules: tuple[Rule, ...],
        backend: RateLimitBackend,
        clock: Clock,
        *,
        learning: LearningPolicy | None,
        strict_windows: bool,
    ) -> None:
        self.category = category
        self.key = category.value
        self.rules = rules
        self._backend = backend
        self._shared = SharedFactor(backend, self.key, rules, clock)
        # The default backend answers at once, so its calls need no coroutine; a
        # subclass may override the coroutines, so only the class itself qualifies.
        self._local = backend if type(backend) is InMemoryBackend else None
        self._clock = clock
        self._law: Law | None = None
        if learning is not None and rules:
            # The clients of one process sharing an in-memory backend share one estimate.
            shared = self._local._estimates if self._local is not None else {}
            self._law = Law(learning, rules, shared.get((self.key, rules)))
            shared[(self.key, rules)] = self._law.estimate
        self._strict = strict_windows
        self._anchor = Anchor()
        self._level_log = LevelLog(self.key, rules)
        self._line = Line()
        self._wake = Wake(
            clock,
            shortest_period=min((rule.period for rule in rules), default=0.0),
            recheck=min([rule.period for rule in rules] + [1.0]),
        )
        self._closed = False
        # A quiet spell: nothing sent for two of the longest periods (the law's transition 1;
        # a category sending one request a period is not quiet).
        self._quiet = 2 * max((rule.period for rule in rules), default=0.0)
        self._last_sent = -math.inf
        self._scout_key = f"{self.key}/scout"
        self._claimed_at = -math.inf
        """When the lane last asked for the fleet's scout turn (once per quiet spell)."""
        self._turn_until = -math.inf
        """When the fleet's turn to probe this lane took ends."""
        self._gate = Gate()
        self.rate_factor = self._law.factor if self._law is not None else 1.0
        self.learning = self._law is not None
        self.untold = 0
        """Admitted answers since the law was last told of one (the scheduler counts them while
        :attr:`learning` is off)."""
        """Whether the scheduler reports this lane's answers to it (its law may still change)."""
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

    async def admit(self, weight: int, first: bool = False) -> tuple[Grant, float]:
        """Wait in FIFO order until the backend grants a slot of ``weight``; answer the
        grant and the clock reading the backend was asked with (the send time: with
        a remote backend, one round trip earlier than the grant arrived).

        ``first`` puts the request at the front of the line: a request the service
        refused with a 429 goes back to the head, not behind everything queued since.
        """
        started = now = self._clock.now()
        self.waiting += 1
        try:
            if self._closed:
                raise RoutePlanningError("the client was closed")
            if not self._line.take_free_head():
                await self._line.take_head(first)
                now = self._clock.now()
            try:
                while True:
                    if self._closed:
                        raise RoutePlanningError("the client was closed")
                    if (self._gate.allowed is not None and self._gate.holds(self.in_flight)) or (
                        self.in_flight and self.in_flight >= self._in_flight_cap()
                    ):
                        # Under the gate, or one round trip at a time: an answer lets the next go.
                        await self._wait_for_capacity(math.inf)
                        now = self._clock.now()
                        continue
                    due = self._last_sent if self._law is None else self._law.due(self._last_sent)
                    if now < due:
                        # Below the configured level, evenly (``Law.due``).
                        await self._wait_for_capacity(due - now)
                        now = self._clock.now()
                        continue
                    if self._local is not None:
                        grant = self._local._acquire_now(self.key, self.rules_in_force(), weight, now)
                    else:
                        grant = await self._backend.acquire(self.key, self.rules_in_force(), weight, now)
                    if isinstance(grant, Grant) and self._law is not None and self._scouting(now):
                        # Another process sharing the backend may scout the window after the quiet
                        # spell (``docs/learning.md``, "The fleet"): then this one gives its grant
                        # back and goes once that turn is over. Asked for once granted, so that the
                        # backend has checked this process's rules against the others' first.
                        left = await self._backend.claim_probe(self._scout_key, self._law.period, now)
                        if left > 0:
                            await self._backend.cancel(grant)
                            await self._wait_for_capacity(left)
                            now = self._clock.now()
                            continue
                    if isinstance(grant, Grant):
                        break
                    await self._wait_for_capacity(grant)
                    now = self._clock.now()
                law = self._law
                # A grant asked for before this lane's own last change of the factor was
                # confirmed may carry the factor from before it (a shared backend's answer
                # crossing the change): it tells nothing of other processes.
                current = now >= self._shared.changed_at
                if law is not None:
                    if now - self._last_sent >= self._quiet:
                        self._apply_gate(law.on_quiet(now), now)
                        self.untold = 0
                        self.learning = True
                    if current and abs(grant.rate_factor - self.rate_factor) > 1e-12:
                        self._adopt(grant.rate_factor, now)
                    self._last_sent = now
                    self._gate.let_through(now)
            finally:
                self._line.pass_head()
        finally:
            self.waiting -= 1
        if current:
            self.rate_factor = grant.rate_factor
        self.wait_seconds += now - started
        return grant, now

    def _adopt(self, factor: float, now: float) -> None:
        """Another process sharing the backend changed the level: it is this one's (``Law.adopt``),
        and a raise goes gated, as this one's own would."""
        assert self._law is not None
        raised = factor > self.rate_factor
        self._law.adopt(factor, now)
        self.learning = True
        if raised and self._gate.allowed is None:
            self._gate.close(now)

    def _scouting(self, now: float) -> bool:
        """Whether the next send ends a quiet spell of a category whose backend other processes
        may share, and the scout's turn is still to be asked for (then it is asked for now)."""
        if self._local is not None or self._claimed_at > self._last_sent:
            return False
        if now - self._last_sent < self._quiet:
            return False
        self._claimed_at = now
        return True

    def _in_flight_cap(self) -> float:
        """The most attempts out at once (module docstring, "One round trip at a time")."""
        if self._law is None:
            return math.inf
        return self._anchor.in_flight_cap(self._law.per_second(self._law.level))

    def rules_in_force(self) -> tuple[Rule, ...]:
        """The rules the backend admits by (longer ones paced by shorter: ``_learning/_windows.py``)."""
        return self.rules if self._law is None else self._law.rules_at(self.rate_factor)

    async def _wait_for_capacity(self, wait: float) -> None:
        """Sleep the ``wait`` seconds the backend answered, or less if poked."""
        if math.isinf(wait):
            logger.debug("%s: waiting for an answer to free capacity (%d queued)", self.key, self.waiting)
        else:
            logger.debug("%s: waiting %.3f s for capacity (%d queued)", self.key, wait, self.waiting)
        await self._wake.sleep(wait)

    async def send(
        self, grant: Grant, request: Request, send: Send, sent_at: float
    ) -> Response | TransportError:
        """Send one attempt, granted at ``sent_at``, and settle its slot (see the safety argument)."""
        self.in_flight += 1
        self.sent += 1
        self.sent_weight += grant.weight
        gated = sent_at >= self._gate.since
        if self.rules:
            # The send itself, for the anchor of the answered slot (with a remote
            # backend the grant came one backend round trip after ``sent_at``).
            sent_at = self._clock.now()
        try:
            response = await send(request)
        except TransportError as exc:
            if gated:
                self.scouted(False)
            if exc.maybe_sent:
                await self._release_unanswered(grant, sent_at)
            else:
                await self._backend.cancel(grant)
                self._wake.poke()
            return exc
        except BaseException:
            if gated:
                self.scouted(False)
            await self._release_unanswered(grant, sent_at)
            raise
        else:
            if gated and response.status != 429:
                self.scouted(True)
            answered_at = self._clock.now()
            admitted = response.status != 429
            shift = self._anchor.shift(sent_at, answered_at, strict=self._strict) if self.rules else 0.0
            if self._local is not None:
                self._local._release_now(grant, answered_at + shift, admitted)
            else:
                await self._backend.release(grant, answered_at, extra=shift, admitted=admitted)
            answered_at += shift
            if self._wake.future is not None:
                # Only a head waiting for capacity can use the slot (most of the time, none is).
                self._wake.poke_after_release(answered_at)
            return response
        finally:
            self.in_flight -= 1

    def scouted(self, admitted: bool) -> None:
        """An attempt under the gate is settled (``_gate.py``): its place is free, and, admitted,
        one more may be out."""
        if self._gate.allowed is not None:
            self._gate.settled(admitted)
            self._wake.poke()

    async def _release_unanswered(self, grant: Grant, sent_at: float) -> None:
        ended = self._clock.now()
        # Without an answer the request may still arrive later: add the time it was
        # in flight as a margin (module docstring, "Safety").
        await self._backend.release(grant, ended, extra=ended - sent_at, admitted=False)
        self._wake.poke_after_release(ended)

    async def rate_limited_answer(self, pause: float, sent_at: float, weight: int) -> None:
        """A 429 to an attempt of ``weight`` sent at ``sent_at``: pause the category for ``pause``
        and apply what the law answers (module docstring, "429s")."""
        self.rate_limited += 1
        self._level_log.refused()
        now = self._clock.now()
        law = self._law
        if law is None:
            # The backend keeps the lowest factor: 1.0 leaves it as it is.
            self.rate_factor = await self._shared.penalize(pause, 1.0, now)
            return
        law.count(self.untold)
        self.untold = 0
        window: tuple[WindowCount, ...] | None = None
        teaches = law.teaches(sent_at)
        if teaches and self._local is None:
            # Another process sharing the backend may have raised the level since this attempt
            # went (a probe's first attempt goes at once): the 429 is then the raise's, stale here
            # (``docs/learning.md``, "The fleet"), not a decrease of the level that held.
            level = law.level
            factor = await self._shared.read()
            now = self._clock.now()
            if law.level == level and factor > self.rate_factor + 1e-12:
                self._adopt(factor, now)
                self.rate_factor = factor
                teaches = False
        if teaches:
            # What the service's window holds of ours (every process sharing the backend).
            window = await self._shared.window(now)
            now = self._clock.now()
        admitted = None if window is None else [count.admitted for count in window]
        before = law.level
        action = law.on_refusal(sent_at, now, window, weight)
        if (
            not self._strict
            and admitted is not None
            and action.transition in ("decrease", "measure")
            and law.level_of(admitted) >= before
        ):
            # Refused though the service admitted what was believed: maybe a late arrival.
            # Anchor answered slots later from now on.
            self._anchor.late_arrival()
        await self._apply(action, now, pause=pause, refused=True)
        self._level_log.changed(action, law, admitted)

    async def after_answer(self, sent_at: float) -> None:
        """An answer that is not a 429, to an attempt sent at ``sent_at``: report it to the law."""
        law = self._law
        if law is None:
            return
        now = self._clock.now()
        action = law.on_answer(sent_at, now)
        probe = action is not None and action.transition == "probe"
        if probe and self._local is None and now >= self._turn_until:
            # Other processes may share the backend: the fleet's probes take turns (``docs/learning.md``,
            # "The fleet"); while this one holds the turn, its probes that held go on.
            turn = law.probe_turn()
            left = await self._backend.claim_probe(self.key, turn, now)
            if left > 0:
                law.cede(now + left)
                return
            self._turn_until = now + turn
        if action is not None:
            await self._apply(action, now)
            self._level_log.changed(action, law, None)
        self.learning = law.active

    async def _apply(self, action: Action, now: float, *, pause: float = 0.0, refused: bool = False) -> None:
        """Carry out the law's ``action``: the level through the backend, the pause, the gate."""
        law = self._law
        assert law is not None
        pause = max(pause, action.pause)
        factor = self.rate_factor if action.level is None else action.level / law.top
        if refused or factor < self.rate_factor:
            self.rate_factor = await self._shared.penalize(pause, min(factor, self.rate_factor), now)
        if action.level is not None and factor > self.rate_factor:
            # Only a raise the law made (module docstring, "429s").
            self.rate_factor = await self._shared.recover(factor)
            self._wake.poke()
        if abs(self.rate_factor - factor) > 1e-12:
            # Another process sharing the backend holds another level: it is this one's too.
            law.adopt(self.rate_factor, now)
        self._apply_gate(action, now)
        self.learning = law.active

    def _apply_gate(self, action: Action, now: float) -> None:
        if action.gate is None:
            return
        if action.gate == 0:
            self._gate.open()
            self._wake.poke()
        else:
            self._gate.close(now, action.gate)

    def close(self) -> None:
        self._closed = True
        self._line.close(RoutePlanningError("the client was closed"))
        self._wake.poke()
