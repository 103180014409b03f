"""The lanes of the rate-limit scheduler: every request waits in one for capacity in its category.

The contract (Limits) gives each category a number of requests per period
(``_limits.py`` holds them as data); it does not say how the service counts.
The scheduler assumes the strictest counter, a *sliding log*: a request is
refused when the service has accepted ``amount`` requests (or units of weight)
in the ``period`` seconds before it arrived. ``amount`` is the configured
amount times what the category has learned of the real limit (``_learning.py``,
and "429s" below).

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
category believed; it is also cut, as any 429). In return a slot cycles in
``period`` plus about twice the jitter of the round trip, not the round trip
itself: about 95% of the limit over a link of 150 ms +- 10 ms each way, where
strict windows keep 77%.

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

A 429 means the service's limit is lower than the configured one (it changed, the public
documentation's numbers apply, or a delay outran the anchor margin), or that others spent the budget
(another client shares the key). The category pauses for the ``Retry-After`` (or the backoff) the
429 asked for, for every process sharing the backend, and its learner (``_learning.py``: the
algorithm, its model of others on the key, its bounds) reads the budget as busy (pause for the
window, keep the level) or cuts the rate factor to what the service counted of ours in its window
(the backend's admitted slots, the 429s the ceiling keeps), then probes back upward; a cut is
followed by a slow start, as after a raise (below). Only a 429 to an attempt sent after the last
change teaches anything: a storm makes one cut per round trip. Under the learner, the 429 ceiling
(``_ceiling.py``) holds whatever it believes: no probe while one more refusal would pass 5 % of what
was sent in 10 periods, and a slower lane when a 429 meets it. A 429 alone never makes a request
fail (it goes back to the head of the line); only the caller's cancel or ``asyncio.timeout``, the
client's close, ``RetryPolicy.max_wait`` or a ``Retry-After`` above ``RetryPolicy.max_retry_after``
do. A cut to a lower level is logged once at WARNING with the numbers, further cuts and probes at
DEBUG, a busy budget at INFO; ``client.stats`` shows the learned limits beside the configured ones.

Others on the key: scouting
---------------------------

A category whose refused burst is dear (a weighted rule, or a rule of 10 s or
more: imports, optimize) *scouts* after a quiet period (nothing sent for the
shortest such rule's period): its first attempt goes out alone, and the others wait for its
answer. Admitted, it lets two go, and every admitted answer one more (TCP's
slow start: the attempts out double per round trip, up to 16, then the burst
goes ungated); the first refusal opens the gate and the 429 decides (a busy
budget: the wait for the window; else the cut). A restart into a window another
process filled then costs one 429 and the wait for the window, not a refused
window's worth; a lower limit, or the tail of another's burst, refuses about as
many as were admitted, not the rest of the burst; a fresh start pays a few round
trips against a period of a minute. Processes sharing a backend scout one at a
time: before its scout, a process takes the backend's turn of ``<key>/scout``
(``RateLimitBackend.claim_probe``, for ``LearningPolicy.confirm`` of the period,
at most a second); a process that finds it taken waits for it to end (a refused
scout pauses the key for all meanwhile), then scouts on its own. A fleet
restarted into a window another run filled then costs one 429, not one per
process.

A probe upward (a raise of the learned level, ``_learning.py``) is gated the
same way, in every category that learns: its attempts go one at a time for
``LearningPolicy.confirm`` of a period, then double per round trip. The ramp
doubles its step, so one raise may add several requests to the window; where
others still fill it, the first of them is refused and its 429 fails the probe
before the rest go: a failed probe costs one 429, not the step's worth. A raise
that another process sharing the backend made is gated in this one too, from
the first attempt it sees at the raised level (each process gates its own
attempts, so two may still go at once). The gate's bookkeeping is ``_gate.py``.

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

from route_planning_async._backends import Grant, InMemoryBackend, RateLimitBackend, WindowCount
from route_planning_async._core import Request, Response
from route_planning_async._errors import RoutePlanningError, TransportError, ValidationError
from route_planning_async._learning import LearningPolicy, LimitLearner
from route_planning_async._limits import Category, Rule
from route_planning_async._scheduler._anchor import Anchor
from route_planning_async._scheduler._ceiling import Ceiling
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


_SCOUTED_PERIOD = 10.0
"""A category with a rule this long (seconds), or a weighted one, scouts after a quiet period."""

_SCOUT_TURN = 1.0
"""Seconds, at most, of a scout's turn among processes sharing the backend ("Others on the key")."""


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
        self._learner = LimitLearner(learning, rules) if learning is not None and rules else None
        self._ceiling = Ceiling(self._learner) if self._learner is not None else None
        self._gate_after_cut = False
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
        # Scouting (module docstring, "Others on the key"): where a refused burst is dear,
        # the first attempt after a quiet period goes alone; the others wait for its answer.
        self._scouts = self._learner is not None and any(
            rule.per == "weight" or rule.period >= _SCOUTED_PERIOD for rule in rules
        )
        self._longest_period = max((rule.period for rule in rules), default=0.0)
        # Quiet: the shortest long rule's period (the next minute's burst may meet a longer rule).
        self._quiet = min([r.period for r in rules if r.period >= _SCOUTED_PERIOD] or [self._longest_period])
        # One process sharing the backend scouts at a time: the turn of ``<key>/scout``
        # (``RateLimitBackend.claim_probe``) lasts while its scout's answer is awaited.
        self._scout_key = f"{self.key}/scout"
        self._scout_turn = min(_SCOUT_TURN, self._longest_period * (learning.confirm if learning else 0.0))
        self._scout_turn_asked = False
        self._last_sent = -math.inf
        self._burst_at = -math.inf
        self._gate = Gate()
        self.rate_factor = 1.0
        self.busy_pause = False
        """Whether the category waits out a window it judged busy (others spent it): an
        admitted answer may still refute that (:meth:`after_answer`), at any rate factor."""
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
                        # The scouts' answers say whether the budget is free (they poke the head), and
                        # one round trip at a time, an answer lets the next go.
                        await self._wait_for_capacity(math.inf)
                        now = self._clock.now()
                        continue
                    if self._scouts and not self._scout_turn_asked and self._scouting_begins(now):
                        self._scout_turn_asked = True
                        wait = await self._backend.claim_probe(self._scout_key, self._scout_turn, now)
                        if wait > 0:
                            # Another process sharing the backend scouts: its answer tells for
                            # both (a refusal pauses the key). Then this one scouts on its own.
                            await self._wait_for_capacity(wait)
                            now = self._clock.now()
                            continue
                    if self._local is not None:
                        grant = self._local._acquire_now(self.key, self.rules_in_force(), weight, now)
                    else:
                        grant = await self._backend.acquire(self.key, self.rules_in_force(), weight, now)
                    if isinstance(grant, Grant):
                        break
                    await self._wait_for_capacity(grant)
                    now = self._clock.now()
                learner = self._learner
                # A grant asked for before this lane's own last change of the factor was
                # confirmed may carry the factor from before it (a shared backend's answer
                # crossing the change): it tells nothing of other processes.
                current = now >= self._shared.changed_at
                if learner is not None:
                    if now - self._last_sent >= self._quiet:
                        # The first attempt after a quiet period (or ever): a burst begins.
                        self._burst_at = now
                        self._scout_turn_asked = False
                        if self._scouts and self.in_flight == 0:
                            self._gate.close(now)
                    raised_elsewhere = current and grant.rate_factor > self.rate_factor + 1e-12
                    if raised_elsewhere and self._gate.allowed is None:
                        # Raised by another process sharing the backend (its probe): this
                        # attempt goes alone, as after a raise of this process's own.
                        self._gate_a_raise(learner, now)
                    self._last_sent = now
                    self._gate.let_through(now)
            finally:
                self._line.pass_head()
        finally:
            self.waiting -= 1
        if current:
            self.rate_factor = grant.rate_factor
            if self._learner is not None:
                self._learner.sync(grant.rate_factor, now)
        self.wait_seconds += now - started
        return grant, now

    def _in_flight_cap(self) -> float:
        """The most attempts out at once (module docstring, "One round trip at a time")."""
        if self._learner is None:
            return math.inf
        return self._anchor.in_flight_cap(self._learner.per_second(self.rate_factor))

    def rules_in_force(self) -> tuple[Rule, ...]:
        """The rules the backend admits by (longer ones paced by shorter: ``_learning.py``)."""
        return self.rules if self._learner is None else self._learner.acquire_rules(self.rate_factor)

    def _scouting_begins(self, now: float) -> bool:
        """Whether an attempt granted at ``now`` would be a scout: the first after a quiet
        period, in a category that scouts, with nothing of the lane's in flight."""
        return self._scouts and self.in_flight == 0 and now - self._last_sent >= self._quiet

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
        if self._ceiling is not None:
            self._ceiling.sent(sent_at)
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

    def _gate_a_raise(self, learner: LimitLearner, now: float) -> None:
        """A raised level's attempts go one at a time for ``confirm`` of a period (module
        docstring, "Others on the key")."""
        self._gate.close(now, alone_until=now + learner.policy.confirm * learner.period)

    def scouted(self, admitted: bool) -> None:
        """An attempt under the gate is settled (``_gate.py``): admitted, the next may go;
        refused or failed, the gate opens (a 429 paused or cut the category)."""
        if self._gate.allowed is not None:
            self._gate.settled(admitted, self._clock.now())
            self._wake.poke()
        if self._gate_after_cut:
            self._gate_after_cut = False
            self._gate.close(self._clock.now())

    async def _release_unanswered(self, grant: Grant, sent_at: float) -> None:
        ended = self._clock.now()
        # Without an answer the request may still arrive later: add the time it was
        # in flight as a margin (module docstring, "Safety").
        await self._backend.release(grant, ended, extra=ended - sent_at, admitted=False)
        self._wake.poke_after_release(ended)

    async def rate_limited_answer(self, pause: float, sent_at: float) -> None:
        """A 429: pause the category and, once per round trip, cut it to what the service admitted."""
        self.rate_limited += 1
        self._level_log.refused()
        now = self._clock.now()
        # A 429 that teaches nothing pauses the category and keeps its factor (the
        # backend keeps the lowest; this process may not have seen the latest).
        factor = 1.0
        learner = self._learner
        cut = answers_due = False
        admitted: list[int] | None = None
        window: tuple[WindowCount, ...] = ()
        in_force = 0.0
        if learner is not None and learner.teaches(sent_at):
            # Asking a shared backend takes a round trip, in which another 429's answer may
            # have changed the level (then this one was sent before that change), and more
            # attempts may have gone out at the level in force (they teach nothing new: the
            # change is dated after them).
            window = await self._shared.window(now)
            admitted = [count.admitted for count in window]
            in_force = await self._shared.in_force()
            now = self._clock.now()
        ceiling = self._ceiling  # (present where the learner is)
        # The learner's cuts so far, if the refused attempt went at the level in force.
        cuts = learner.cuts if learner is not None and learner.teaches(sent_at) else None
        if learner is not None and admitted is not None and learner.teaches(sent_at):
            if in_force > learner.factor + 1e-12:
                # Raised by another process sharing the backend since this one last asked (its
                # probe): this 429 fails that raise, not the level this one believed in force.
                learner.sync(in_force, now)
            probing = learner.probing
            # Ours in the window: what it admitted; while sending steadily, with what is in
            # flight too, by every process sharing the backend (a steady burst is mostly in
            # flight when its first answer comes). Only the first period after a quiet one
            # counts the answered alone (a burst into a window others filled is refused whole).
            ours: list[int] | None = None
            if now - self._burst_at >= learner.period:
                ours = [count.admitted + count.in_flight for count in window]
            busy = learner.busy(now, ours or admitted, pause)
            if busy is not None:
                # Little of the window was ours: others spent the budget. Wait until
                # everything in the service's window now (ours too) has left it, and
                # keep the level (the learner's docstring, "Others on the key").
                pause = busy
                self.busy_pause = True
                self._level_log.busy(learner, admitted, pause)
            else:
                before = learner.factor
                assert ceiling is not None
                # The service counts the 429s too (the ceiling keeps them); a race may be
                # lost at a level that holds while the ceiling has room for this 429.
                counted, spare = ceiling.counted(admitted, now), not ceiling.reached(now)
                factor = learner.cut(now, counted, steady=ours is not None, spare=spare)
                cut = True
                # Read the answers in alone while attempts were in flight: about a round trip later
                # they are in, and may correct it (another process has not seen the cut).
                answers_due = ours is None and any(count.in_flight for count in window)
                if not self._strict and not probing and factor >= before - learner.unit:
                    # Refused though the service admitted what was believed: a late
                    # arrival, not a lower limit. Anchor answered slots later from now on.
                    self._anchor.late_arrival()
                self._level_log.cut(learner, admitted)
                # Then a slow start, as after a raise: one 429 tells a fuller window, not a burst.
                self._gate_after_cut = True
        elif learner is not None and learner.probing:
            # Refused at the level below the probe: the probe fails with it.
            factor = learner.probe_refused(now)
            self._level_log.probe_failed(learner)
        if ceiling is not None:
            # At the 429 ceiling, slower whatever the learner believes (_ceiling.py).
            kept = learner is not None and learner.cuts == cuts
            factor = ceiling.refused(now, sent_at, kept, factor, admitted)
        self.rate_factor = await self._shared.penalize(pause, factor, now)
        if (
            cut
            and learner is not None
            and learner.factor == factor
            and self.rate_factor < factor - learner.unit / 2
        ):
            # Another process sharing the backend cut deeper on the answers in by then (not
            # this one again, meanwhile); the window now shows more admitted (a cut never goes
            # below what passed).
            self.rate_factor = await self._shared.recover(factor)
        if learner is not None:
            learner.sync(self.rate_factor, now)
            if answers_due:
                # (No later than half a period: a correction comes within one of the cut.)
                await self._clock.sleep(min(2 * (now - sent_at), learner.period / 2))
                await self._correct_cut(learner)

    async def _correct_cut(self, learner: LimitLearner) -> None:
        """Up to what the window shows admitted, if the last cut went below (``correct``)."""
        now = self._clock.now()
        level = learner.correct(now, await self._shared.admitted(now))
        if level is not None:
            self.rate_factor = await self._shared.recover(level)
            learner.sync(self.rate_factor, now)
            self._level_log.corrected(learner)
            self._wake.poke()

    async def after_answer(self, sent_at: float) -> None:
        """An answer that is not a 429, to an attempt sent at ``sent_at``: maybe probe upward."""
        learner = self._learner
        if learner is None:
            return
        now = self._clock.now()
        if self.busy_pause:
            self.busy_pause = learner.busy_until > now
        if learner.refutes_busy(sent_at, now):
            # Part of the burst the pause was for passed: the service admits that much.
            self.busy_pause = False
            admitted = await self._shared.admitted(now)
            self.rate_factor = await self._shared.penalize(0.0, learner.cut(now, admitted), now)
            learner.sync(self.rate_factor, now)
            self._level_log.cut(learner, admitted)
            return
        if learner.corrects(sent_at):
            # Sent before the last cut and admitted: the cut left it out (it was in flight). If
            # the window now shows more admitted than the cut allowed, it was too deep.
            await self._correct_cut(learner)
            return
        if self._ceiling is not None and not learner.tail_check and self._ceiling.reached(now):
            # At the 429 ceiling: no probe until the share falls (_ceiling.py), but the one that
            # checks a first period's cut (the learner's docstring, "Others on the key").
            return
        if learner.ramp_due(now):
            # One probe at a time among the processes sharing the backend.
            wait = await self._backend.claim_probe(self.key, learner.probe_turn(now), now)
            if wait > 0:
                learner.defer_probe(now + wait)
                return
        target = learner.probe(self._clock.now(), sent_at)
        if target is None:
            return
        # A level the service does not admit costs one 429, not the step's worth. The gate
        # closes before the backend hears of the raise, so that nothing slips past it.
        self._gate_a_raise(learner, self._clock.now())
        self.rate_factor = await self._shared.recover(target)
        learner.sync(self.rate_factor, self._clock.now())
        self._level_log.raised(self.rate_factor)
        self._wake.poke()

    def close(self) -> None:
        self._closed = True
        self._line.close(RoutePlanningError("the client was closed"))
        self._wake.poke()
