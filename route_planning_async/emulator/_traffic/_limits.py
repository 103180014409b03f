"""Server-side rate limiting per API key and category: sliding windows or token buckets.

Two ways of reading the contract's "N requests per period" (``EmulatorConfig.limiter``):

``sliding_window`` (the default)
    A request is admitted only if, counting it, no window of ``period`` seconds
    ending now holds more than ``amount`` (requests, or stops for ``per="weight"``
    rules). That is the strictest reading of the contract, so a client that passes
    here passes a real server.
``token_bucket``
    Each rule is a bucket of ``burst * amount`` tokens, full at first and refilled
    continuously at ``amount / period`` tokens a second; a request takes
    ``rule.cost(weight)`` tokens from every rule of its category and is admitted
    only if every bucket holds that many ("short bursts are tolerated").

With ``count_rejected`` a refused request still counts: in a sliding window it
occupies the window like an admitted one; in a token bucket it takes its cost too,
down to an empty bucket (never into debt, so the penalty for a storm of retries is
bounded by one bucket's refill). Either way "continued retrying at a high rate
keeps being rejected until the rate drops" (contract, Limits): retries faster than
the limit never find room, slower ones do.

Which limits are in force comes from a :class:`LimitTimeline`: the configured
limits from the emulator's start, then the ``limit_schedule``'s changes and any
``Emulator.set_rate_limits`` call. A change keeps the history: the requests of
the last periods stay in the windows, and a bucket keeps what has been taken from
it (``capacity - tokens``), so a lower limit applies at once to what was just sent.
The request log shares the timeline, so it can tell which limits were in force when.

The penalty mode (``punish_sustained``) reads the traffic, not the limiter: every
rule keeps a sliding window of what was counted in its last ``period`` (with both
limiters), and traffic that stays at ``threshold`` of the rule in force or more for
``after`` of the category's longest period (a lull shorter than that period does not
end the streak) is refused until it has stayed below it for a whole period.

The lockout (``lockout``, :class:`~route_planning_async.emulator.Lockout`) is a rule of
its own beside the windows: a key and category whose attempts the limiter refused at a
high rate is refused whole until it slows down.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule
from route_planning_async.emulator._setup._config import LimiterKind, PunishSustained
from route_planning_async.emulator._setup._lockout import Lockout, LockoutRule

__all__ = [
    "Decision",
    "LimitChange",
    "LimitTimeline",
    "LimiterKind",
    "RateLimiter",
    "SlidingWindowLimiter",
    "retry_after_header",
]


@attrs.frozen
class Decision:
    """What the limiter decided for one request."""

    admitted: bool
    """True when the request may proceed."""
    retry_after: float = 0.0
    """Server seconds until a request like this one would be admitted (0 when admitted)."""
    reason: str = ""
    """Why it was rejected, as the request log records it (``RequestRecord.reason``); empty when admitted."""
    rule: Rule | None = None
    """The rule that rejected it."""


# ------------------------------------------------------------------ timeline


@fields_documented(title="Attributes")
@attrs.frozen
class LimitChange:
    """The limits in force from ``time`` on (until the next change).

    Attributes:
        time (float): Server clock reading (monotonic, not sped up) from which these limits apply.
        limits (RateLimits): The limits in contract seconds, as configured.
        server_limits (RateLimits): The same limits in server seconds (periods divided by the speed-up):
            what is enforced.
    """

    time: float = attrs.field(
        metadata=described("Server clock reading (monotonic, not sped up) from which these limits apply.")
    )
    limits: RateLimits = attrs.field(metadata=described("The limits in contract seconds, as configured."))
    server_limits: RateLimits = attrs.field(
        metadata=described(
            "The same limits in server seconds (periods divided by the speed-up): what is enforced."
        )
    )


class LimitTimeline:
    """Which limits are in force when: a list of :class:`LimitChange` in time order.

    Before the first change the first change's limits apply.

    Attributes:
        speedup (float): Divides the periods of every change's limits into its ``server_limits``.
        changes (list[LimitChange]): Every change, in time order (the past ones stay, for the request
            log).
    """

    def __init__(self, limits: RateLimits, speedup: float = 1.0, *, since: float = -math.inf) -> None:
        self.speedup = speedup
        """Divides the periods of every change's limits into its ``server_limits``."""
        self.changes: list[LimitChange] = [LimitChange(since, limits, limits.scaled(speedup))]
        """Every change, in time order (the past ones stay, for the request log)."""
        self._times: list[float] = [since]

    def at(self, time: float) -> LimitChange:
        """The change in force at server time ``time``."""
        index = bisect.bisect_right(self._times, time) - 1
        return self.changes[max(index, 0)]

    def set(self, time: float, limits: RateLimits) -> LimitChange:
        """``limits`` (contract seconds) are in force from ``time`` until the next scheduled change."""
        change = LimitChange(time, limits, limits.scaled(self.speedup))
        index = bisect.bisect_right(self._times, time)
        self.changes.insert(index, change)
        self._times.insert(index, time)
        return change

    def restart(
        self, time: float, limits: RateLimits, schedule: Iterable[tuple[float, RateLimits]] = ()
    ) -> None:
        """Drop every change after ``time``, then ``limits`` from ``time`` and each
        ``(offset, limits)`` of ``schedule`` from ``time + offset / speedup``."""
        keep = bisect.bisect_left(self._times, time)
        del self.changes[keep:]
        del self._times[keep:]
        self.set(time, limits)
        for offset, scheduled in sorted(schedule, key=lambda item: item[0]):
            self.set(time + offset / self.speedup, scheduled)


# ------------------------------------------------------------------- history


class _History:
    """What was counted for one (key, category): (time, weight) entries, oldest first.

    Each rule reads it through a :class:`_Window`: a start index and the running sum of
    its costs in ``(now - period, now]``. Entries are kept for the longest period ever
    in force, so a change of limits can rebuild the windows from the same history.
    """

    __slots__ = ("entries", "horizon", "offset")

    def __init__(self) -> None:
        self.entries: list[tuple[float, int]] = []
        self.offset = 0  # absolute index of entries[0]
        self.horizon = 0.0

    def get(self, index: int) -> tuple[float, int]:
        return self.entries[index - self.offset]

    @property
    def end(self) -> int:
        return self.offset + len(self.entries)

    def append(self, now: float, weight: int) -> None:
        self.entries.append((now, weight))

    def forget_before(self, now: float, first_needed: int) -> None:
        """Drop entries older than the horizon that no window needs any more (in chunks)."""
        cut = self.offset
        limit = min(first_needed, self.end)
        while cut < limit and self.entries[cut - self.offset][0] <= now - self.horizon:
            cut += 1
        del self.entries[: cut - self.offset]
        self.offset = cut


class _Window:
    """One rule's sliding window over a :class:`_History`."""

    __slots__ = ("rule", "start", "total")

    def __init__(self, rule: Rule, history: _History, now: float) -> None:
        self.rule = rule
        self.start = history.end
        self.total = 0
        # Rebuild from the history: the entries in (now - period, now].
        index = history.end
        while index > history.offset and history.get(index - 1)[0] > now - rule.period:
            index -= 1
            self.total += rule.cost(history.get(index)[1])
        self.start = index

    def prune(self, history: _History, now: float) -> None:
        # An entry at time t is in the window (now - period, now].
        horizon = now - self.rule.period
        while self.start < history.end:
            when, weight = history.get(self.start)
            if when > horizon:
                break
            self.total -= self.rule.cost(weight)
            self.start += 1

    def fits(self, cost: int) -> bool:
        return self.total + cost <= self.rule.amount

    def wait_for(self, history: _History, now: float, cost: int) -> float:
        """Seconds until ``cost`` more fits, assuming nothing else arrives."""
        excess = self.total + cost - self.rule.amount
        if excess <= 0:
            return 0.0
        first = self.start - history.offset
        if self.rule.per == "request":
            # Each entry counts 1: the excess-th oldest one has to leave.
            if first + excess <= len(history.entries):
                return max(0.0, history.entries[first + excess - 1][0] + self.rule.period - now)
            return self.rule.period
        for when, weight in itertools.islice(history.entries, first, None):
            excess -= weight
            if excess <= 0:
                return max(0.0, when + self.rule.period - now)
        return self.rule.period


class _TokenBucket:
    """One rule's token bucket: ``burst * amount`` tokens, refilled at ``amount / period`` a second."""

    __slots__ = ("capacity", "rate", "rule", "stamp", "tokens")

    def __init__(self, rule: Rule, burst: float, now: float, used: float = 0.0) -> None:
        self.rule = rule
        self.capacity = burst * rule.amount
        self.rate = rule.amount / rule.period
        self.tokens = min(self.capacity, max(0.0, self.capacity - used))
        self.stamp = now

    @property
    def used(self) -> float:
        return self.capacity - self.tokens

    def refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now

    def fits(self, cost: int) -> bool:
        # A hair of tolerance: refills are floating-point sums.
        return self.tokens + 1e-9 * max(1.0, self.capacity) >= cost

    def take(self, cost: int) -> None:
        self.tokens = max(0.0, self.tokens - cost)

    def wait_for(self, cost: int) -> float:
        """Seconds until ``cost`` tokens are there, assuming nothing else takes any."""
        if cost > self.capacity:
            return self.rule.period  # never fits; the rule's period is as good an answer as any
        return max(0.0, (cost - self.tokens) / self.rate)


class _Bucket:
    """The state of one (key, category): its history, its windows, its token buckets."""

    __slots__ = ("change", "history", "hot_since", "last_near", "rules", "tokens", "windows")

    def __init__(self) -> None:
        self.history = _History()
        self.change: LimitChange | None = None
        self.rules: tuple[Rule, ...] = ()
        self.windows: list[_Window] = []
        self.tokens: list[_TokenBucket] = []
        self.hot_since: float | None = None
        self.last_near: float | None = None

    def adopt(
        self, timeline: LimitTimeline, change: LimitChange, category: Category, burst: float, now: float
    ) -> None:
        """Switch to the rules of ``change``, keeping the history and what the buckets hold."""
        self.change = change
        rules = change.server_limits.for_category(category)
        if rules == self.rules:
            return
        for window in self.windows:
            window.prune(self.history, now)
        for bucket in self.tokens:
            bucket.refill(now)
        old = {kind: [b for b in self.tokens if b.rule.per == kind] for kind in ("request", "weight")}
        tokens: list[_TokenBucket] = []
        for rule in rules:
            # The i-th rule counting requests (or weight) keeps what the i-th such rule held.
            same = old[rule.per]
            if same:
                tokens.append(_TokenBucket(rule, burst, now, same.pop(0).used))
            else:
                recent = sum(rule.cost(w) for t, w in self.history.entries if t > now - rule.period)
                tokens.append(_TokenBucket(rule, burst, now, recent))
        self.rules = rules
        self.tokens = tokens
        self.history.horizon = max(
            [
                self.history.horizon,
                *(
                    rule.period
                    for known in timeline.changes
                    for rule in known.server_limits.for_category(category)
                ),
            ]
        )
        self.windows = [_Window(rule, self.history, now) for rule in rules]


class RateLimiter:
    """Decides 429s per API key and category, with the limits a :class:`LimitTimeline` has in
    force at each request's arrival.

    :param limits: server-time rules (already sped up), used when no ``timeline`` is given.
    :param kind: ``sliding_window`` or ``token_bucket`` (module docstring).
    :param burst: a token bucket's capacity as a multiple of each rule's amount.
    :param count_rejected: whether a refused request counts (module docstring).
    :param punish_sustained: refuse traffic that stays near the limit (module docstring).
    :param lockout: refuse a key refused at a high rate until it slows down (:class:`Lockout`).
    :param timeline: which limits are in force when; its ``server_limits`` are enforced.

    Attributes:
        timeline (LimitTimeline | None): Which limits are in force when.
    """

    def __init__(
        self,
        limits: RateLimits | None = None,
        *,
        kind: LimiterKind = "sliding_window",
        burst: float = 1.0,
        count_rejected: bool = True,
        punish_sustained: PunishSustained | None = None,
        lockout: Lockout | None = None,
        timeline: LimitTimeline | None = None,
    ) -> None:
        if timeline is None:
            timeline = LimitTimeline(limits if limits is not None else RateLimits.default())
        if kind not in ("sliding_window", "token_bucket"):
            raise ValueError(f"kind must be 'sliding_window' or 'token_bucket', got {kind!r}")
        if not burst > 0:
            raise ValueError(f"burst must be positive, got {burst!r}")
        self.timeline = timeline
        """Which limits are in force when."""
        self.kind: LimiterKind = kind
        self.burst = burst
        self.count_rejected = count_rejected
        self.punish_sustained = punish_sustained
        self._lockout = LockoutRule(lockout) if lockout is not None else None
        self._buckets: dict[tuple[str, Category], _Bucket] = {}

    def limits_at(self, now: float) -> RateLimits:
        """The server-time limits in force at ``now``."""
        return self.timeline.at(now).server_limits

    def check(self, key: str, category: Category, weight: int, now: float) -> Decision:
        """Admit or reject one request of ``weight`` arriving at ``now``, and count it."""
        change = self.timeline.at(now)
        bucket = self._buckets.get((key, category))
        if bucket is None:
            if not change.server_limits.for_category(category):
                return Decision(True)
            bucket = self._buckets[(key, category)] = _Bucket()
        if bucket.change is not change:
            bucket.adopt(self.timeline, change, category, self.burst, now)
        if not bucket.rules:
            return Decision(True)
        history = bucket.history
        costs = [rule.cost(weight) for rule in bucket.rules]
        if self._lockout is not None and self._lockout.refuses(key, category, bucket.rules, weight, now):
            if self.count_rejected:
                for window in bucket.windows:
                    window.prune(history, now)
                if self.kind == "token_bucket":
                    for tokens in bucket.tokens:
                        tokens.refill(now)
                self._count(bucket, weight, costs, now)
            self._lockout.record(key, category, bucket.rules, weight, True, now)
            longest = max(rule.period for rule in bucket.rules)
            return Decision(False, longest, "lockout", bucket.rules[0])
        for window in bucket.windows:
            window.prune(history, now)
        fits: list[bool]
        if self.kind == "token_bucket":
            for tokens in bucket.tokens:
                tokens.refill(now)
            fits = [tokens.fits(cost) for tokens, cost in zip(bucket.tokens, costs, strict=True)]
        else:
            fits = [window.fits(cost) for window, cost in zip(bucket.windows, costs, strict=True)]
        rejected_by = next((rule for rule, ok in zip(bucket.rules, fits, strict=True) if not ok), None)
        decision: Decision
        if rejected_by is None and self._sustained(bucket, costs, now):
            longest = max(rule.period for rule in bucket.rules)
            decision = Decision(False, longest, "sustained", bucket.rules[0])
        elif rejected_by is not None:
            decision = Decision(False, 0.0, "window", rejected_by)
        else:
            decision = Decision(True)
        if decision.admitted or self.count_rejected:
            self._count(bucket, weight, costs, now)
        if not decision.admitted and decision.reason == "window":
            # Counting a rejected request makes the retry wait for it too ("continued
            # retrying ... keeps being rejected until the rate drops", contract Limits).
            if self.kind == "token_bucket":
                wait = max(tokens.wait_for(cost) for tokens, cost in zip(bucket.tokens, costs, strict=True))
            else:
                wait = max(
                    window.wait_for(history, now, cost)
                    for window, cost in zip(bucket.windows, costs, strict=True)
                )
            decision = attrs.evolve(decision, retry_after=wait)
        if self._lockout is not None:
            self._lockout.record(key, category, bucket.rules, weight, not decision.admitted, now)
        return decision

    def _count(self, bucket: _Bucket, weight: int, costs: list[int], now: float) -> None:
        bucket.history.append(now, weight)
        for window, cost in zip(bucket.windows, costs, strict=True):
            window.total += cost
        if self.kind == "token_bucket":
            for tokens, cost in zip(bucket.tokens, costs, strict=True):
                tokens.take(cost)
        history = bucket.history
        entries = history.entries
        # Forget in chunks, once half the entries are older than any rule needs.
        if len(entries) > 64 and entries[len(entries) // 2][0] <= now - history.horizon:
            first_needed = min((window.start for window in bucket.windows), default=history.end)
            history.forget_before(now, first_needed)

    def _sustained(self, bucket: _Bucket, costs: list[int], now: float) -> bool:
        punish = self.punish_sustained
        if punish is None:
            return False
        near = any(
            window.total + cost >= punish.threshold * window.rule.amount
            for window, cost in zip(bucket.windows, costs, strict=True)
        )
        longest = max(rule.period for rule in bucket.rules)
        # The streak ends once the traffic has not been near the threshold for a whole
        # period, not at the first request that finds a window emptier: a client
        # sending in bursts starts each window below it.
        lull = bucket.last_near is not None and now - bucket.last_near > longest
        if not near:
            if lull:
                bucket.hot_since = None
            return False
        if bucket.hot_since is None or lull:
            bucket.hot_since = now
        bucket.last_near = now
        return now - bucket.hot_since >= punish.after * longest

    def reset(self) -> None:
        """Forget every window and bucket, and every lockout (the timeline stays)."""
        self._buckets.clear()
        if self._lockout is not None:
            self._lockout.reset()


SlidingWindowLimiter = RateLimiter
"""The former name of :class:`RateLimiter` (whose default ``kind`` is ``sliding_window``)."""


def retry_after_header(seconds: float, speedup: float) -> str:
    """``Retry-After`` value: whole seconds at real speed, milliseconds when sped up.

    HTTP wants whole seconds, but a sped-up emulator's windows last milliseconds and
    rounding up to a second would make every test wait for nothing.
    """
    if speedup == 1.0:
        return str(max(1, math.ceil(seconds)))
    return f"{max(0.001, math.ceil(seconds * 1000) / 1000):.3f}"
