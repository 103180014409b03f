"""The service's rule against retrying into 429s: a key refused at a high rate stays refused.

The v1 description ("On Rate-Limiting"): "If the client keeps retrying rate-limited requests
while being rejected with a 429 at a high rate, Spoke will keep rejecting the requests until you
turn down the request rate." The service does not say what "a high rate" is, nor how far down is
far enough; :class:`Lockout` states one reading of it, and :class:`LockoutRule` applies it per
API key and category beside the limiter's windows.
"""

from __future__ import annotations

from collections import deque

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import Category, Rule

__all__ = ["Lockout", "LockoutRule"]


def _fraction(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0.0 < value <= 1.0:
        raise ValueError(f"{attribute.name} must be in (0, 1], got {value!r}")


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not value > 0:
        raise ValueError(f"{attribute.name} must be positive, got {value!r}")


@fields_documented(title="Attributes")
@attrs.frozen
class Lockout:
    """Refuse every request of a key and category that was refused at a high rate, until it slows
    down (the v1 description: a client that "keeps retrying rate-limited requests while being
    rejected with a 429 at a high rate" is rejected "until you turn down the request rate").

    The rule, per API key and rate-limit category, ``P`` the category's longest period in force:

    - **Locked out**: when, over the trailing ``periods * P``, the limiter (its windows or
      the sustained-use penalty) refused at least ``refusals`` of the key's attempts and more than
      ``share`` of them. Injected faults are the service's own and do not count.
    - **While locked out** every request is refused (``reason="lockout"``, ``Retry-After`` ``P``)
      and counts as an attempt.
    - **Released**: at the first request, at least ``P`` after the lockout began, such that the
      key's attempts in the trailing ``P``, this one included, cost less than ``release`` of every
      rule's amount, i.e. the key sent less than that share of the limit over a whole period. The
      trailing record starts afresh then, so the lockout's own refusals do not lock it again.

    The service does not publish its thresholds; these defaults are one reading of "a high rate"
    (a tenth of the attempts, and more than the 3 refusals in 10 periods a well-behaved client
    allows itself) and of "turn down the request rate" (well under the limit: four fifths of it).

    Attributes:
        share (float): Fraction of the attempts in the trailing window that, refused, locks the key out.
        refusals (int): The fewest refusals in the trailing window that lock the key out.
        periods (float): The trailing window, in the category's longest period.
        release (float): The lockout lifts once the key sent less than this fraction of the limit over a
            whole period.
    """

    share: float = attrs.field(
        default=0.1,
        validator=_fraction,
        metadata=described(
            "Fraction of the attempts in the trailing window that, refused, locks the key out."
        ),
    )
    refusals: int = attrs.field(
        default=5,
        validator=attrs.validators.ge(1),
        metadata=described("The fewest refusals in the trailing window that lock the key out."),
    )
    periods: float = attrs.field(
        default=10.0,
        validator=_positive,
        metadata=described("The trailing window, in the category's longest period."),
    )
    release: float = attrs.field(
        default=0.8,
        validator=_fraction,
        metadata=described(
            "The lockout lifts once the key sent less than this fraction of the limit over a whole period."
        ),
    )


class _Trail:
    """One key and category: its attempts in the trailing window, and since when it is locked out."""

    __slots__ = ("attempts", "locked_since", "refused")

    def __init__(self) -> None:
        self.attempts: deque[tuple[float, int, bool]] = deque()  # (time, weight, refused)
        self.refused = 0
        self.locked_since: float | None = None

    def forget_before(self, horizon: float) -> None:
        attempts = self.attempts
        while attempts and attempts[0][0] <= horizon:
            if attempts.popleft()[2]:
                self.refused -= 1

    def restart(self) -> None:
        self.attempts.clear()
        self.refused = 0
        self.locked_since = None


class LockoutRule:
    """:class:`Lockout` applied: ``refuses`` before the limiter's windows, ``record`` after them.

    Times are server seconds, the rules' periods server seconds too (already sped up).
    """

    def __init__(self, lockout: Lockout) -> None:
        self.lockout = lockout
        self._trails: dict[tuple[str, Category], _Trail] = {}

    def refuses(self, key: str, category: Category, rules: tuple[Rule, ...], weight: int, now: float) -> bool:
        """Whether a request of ``weight`` is refused because its key is locked out at ``now``
        (releasing the key when it slowed down enough)."""
        trail = self._trails.get((key, category))
        if trail is None or trail.locked_since is None or not rules:
            return False
        longest = max(rule.period for rule in rules)
        trail.forget_before(now - self.lockout.periods * longest)
        if now - trail.locked_since < longest:
            return True
        for rule in rules:
            recent = sum(rule.cost(sent) for when, sent, _ in trail.attempts if when > now - longest)
            if recent + rule.cost(weight) >= self.lockout.release * rule.amount:
                return True
        trail.restart()
        return False

    def record(
        self, key: str, category: Category, rules: tuple[Rule, ...], weight: int, refused: bool, now: float
    ) -> None:
        """Count one attempt (``refused`` by the limiter or the lockout) and lock the key out when the
        trailing window's refusals call for it."""
        if not rules:
            return
        trail = self._trails.get((key, category))
        if trail is None:
            trail = self._trails[(key, category)] = _Trail()
        longest = max(rule.period for rule in rules)
        trail.forget_before(now - self.lockout.periods * longest)
        trail.attempts.append((now, weight, refused))
        trail.refused += refused
        if (
            trail.locked_since is None
            and trail.refused >= self.lockout.refusals
            and trail.refused > self.lockout.share * len(trail.attempts)
        ):
            trail.locked_since = now

    def locked(self, key: str, category: Category) -> bool:
        """Whether the key and category are locked out now (without releasing them)."""
        trail = self._trails.get((key, category))
        return trail is not None and trail.locked_since is not None

    def reset(self) -> None:
        """Forget every key."""
        self._trails.clear()
