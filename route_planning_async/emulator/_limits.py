"""Server-side rate limiting: exact sliding windows per API key and category.

Unlike a token bucket, a sliding window admits a request only if, counting it, no
window of ``period`` seconds ending now holds more than ``amount`` (requests, or
stops for ``per="weight"`` rules). That is the strictest reading of the contract's
"N requests per period", so a client that passes here passes a real server.
"""

from __future__ import annotations

import math
from collections import deque

import attrs

from route_planning_async._limits import Category, RateLimits, Rule
from route_planning_async.emulator._config import PunishSustained

__all__ = ["Decision", "SlidingWindowLimiter"]


@attrs.frozen
class Decision:
    """What the limiter decided for one request."""

    admitted: bool
    """True when the request may proceed."""
    retry_after: float = 0.0
    """Server seconds until a request like this one would be admitted (0 when admitted)."""
    reason: str = ""
    """``window`` or ``sustained`` for a rejection."""
    rule: Rule | None = None
    """The rule that rejected it."""


class _Window:
    """One rule's window for one (key, category): (time, cost) entries and their running sum."""

    __slots__ = ("entries", "rule", "total")

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.entries: deque[tuple[float, int]] = deque()
        self.total = 0

    def prune(self, now: float) -> None:
        # An entry at time t is in the window (now - period, now].
        horizon = now - self.rule.period
        while self.entries and self.entries[0][0] <= horizon:
            self.total -= self.entries.popleft()[1]

    def fits(self, cost: int) -> bool:
        return self.total + cost <= self.rule.amount

    def record(self, now: float, cost: int) -> None:
        if cost:
            self.entries.append((now, cost))
            self.total += cost

    def wait_for(self, now: float, cost: int) -> float:
        """Seconds until ``cost`` more fits, assuming nothing else arrives."""
        excess = self.total + cost - self.rule.amount
        if excess <= 0:
            return 0.0
        for when, amount in self.entries:
            excess -= amount
            if excess <= 0:
                return max(0.0, when + self.rule.period - now)
        return self.rule.period


class _Bucket:
    __slots__ = ("hot_since", "windows")

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.windows = [_Window(rule) for rule in rules]
        self.hot_since: float | None = None


class SlidingWindowLimiter:
    """Decides 429s. ``limits`` are server-time rules (already sped up)."""

    def __init__(
        self,
        limits: RateLimits,
        *,
        count_rejected: bool = True,
        punish_sustained: PunishSustained | None = None,
    ) -> None:
        self.limits = limits
        self.count_rejected = count_rejected
        self.punish_sustained = punish_sustained
        self._buckets: dict[tuple[str, Category], _Bucket] = {}

    def check(self, key: str, category: Category, weight: int, now: float) -> Decision:
        """Admit or reject one request of ``weight`` and record it in the windows."""
        rules = self.limits.for_category(category)
        if not rules:
            return Decision(True)
        bucket = self._buckets.get((key, category))
        if bucket is None:
            bucket = self._buckets[(key, category)] = _Bucket(rules)
        costs = [window.rule.cost(weight) for window in bucket.windows]
        for window in bucket.windows:
            window.prune(now)
        rejected_by = next(
            (window for window, cost in zip(bucket.windows, costs, strict=True) if not window.fits(cost)),
            None,
        )
        decision: Decision
        if rejected_by is None and self._sustained(bucket, costs, now):
            longest = max(window.rule.period for window in bucket.windows)
            decision = Decision(False, longest, "sustained", bucket.windows[0].rule)
        elif rejected_by is not None:
            decision = Decision(False, 0.0, "window", rejected_by.rule)
        else:
            decision = Decision(True)
        if decision.admitted or self.count_rejected:
            for window, cost in zip(bucket.windows, costs, strict=True):
                window.record(now, cost)
        if not decision.admitted and decision.reason == "window":
            # Counting a rejected request makes the retry wait for it too ("continued
            # retrying ... keeps being rejected until the rate drops", contract Limits).
            wait = max(window.wait_for(now, cost) for window, cost in zip(bucket.windows, costs, strict=True))
            decision = attrs.evolve(decision, retry_after=wait)
        return decision

    def _sustained(self, bucket: _Bucket, costs: list[int], now: float) -> bool:
        punish = self.punish_sustained
        if punish is None:
            return False
        near = any(
            window.total + cost >= punish.threshold * window.rule.amount
            for window, cost in zip(bucket.windows, costs, strict=True)
        )
        if not near:
            bucket.hot_since = None
            return False
        if bucket.hot_since is None:
            bucket.hot_since = now
        longest = max(window.rule.period for window in bucket.windows)
        return now - bucket.hot_since >= punish.after * longest

    def reset(self) -> None:
        """Forget every window."""
        self._buckets.clear()


def retry_after_header(seconds: float, speedup: float) -> str:
    """``Retry-After`` value: whole seconds at real speed, milliseconds when sped up.

    HTTP wants whole seconds, but a sped-up emulator's windows last milliseconds and
    rounding up to a second would make every test wait for nothing.
    """
    if speedup == 1.0:
        return str(max(1, math.ceil(seconds)))
    return f"{max(0.001, math.ceil(seconds * 1000) / 1000):.3f}"
