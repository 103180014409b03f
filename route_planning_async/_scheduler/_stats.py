"""Per-category statistics of the scheduler: what ``client.stats`` answers.

:class:`CategoryStats` is a frozen snapshot of one category's counters;
:class:`SchedulerStats` maps every category to its snapshot. The scheduler's
lanes (``_lane.py``) keep the live counters and builds these on request.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import Category, Rule

__all__ = ["CategoryStats", "SchedulerStats"]


@fields_documented(title="Attributes")
@attrs.frozen
class CategoryStats:
    """A snapshot of one category's traffic through the scheduler.

    Attributes:
        category (Category): The category.
        requests (int): Requests handed to the scheduler (each counted once, however often retried).
        sent (int): Attempts put on the wire, retries included.
        sent_weight (int): Total weight of the attempts sent (stops, for batch imports).
        rate_limited (int): 429 answers received.
        retries (int): Attempts that were retries of an earlier one.
        wait_seconds (float): Seconds requests spent waiting for capacity, summed over requests.
        in_flight (int): Attempts sent and not yet answered.
        queued (int): Requests waiting for capacity now.
        rate_factor (float): The share of the configured limits in force: below 1.0 once 429s taught a
            lower limit.
        effective_rate (float | None): Requests per second now allowed by the tightest learned request
            rule; None when not limited.
        limits (tuple[Rule, ...]): The configured rules.
        learned_limits (tuple[Rule, ...]): The rules in force: the configured ones with their learned
            amounts.
    """

    category: Category = attrs.field(metadata=described("The category."))
    requests: int = attrs.field(
        metadata=described("Requests handed to the scheduler (each counted once, however often retried).")
    )
    sent: int = attrs.field(metadata=described("Attempts put on the wire, retries included."))
    sent_weight: int = attrs.field(
        metadata=described("Total weight of the attempts sent (stops, for batch imports).")
    )
    rate_limited: int = attrs.field(metadata=described("429 answers received."))
    retries: int = attrs.field(metadata=described("Attempts that were retries of an earlier one."))
    wait_seconds: float = attrs.field(
        metadata=described("Seconds requests spent waiting for capacity, summed over requests.")
    )
    in_flight: int = attrs.field(metadata=described("Attempts sent and not yet answered."))
    queued: int = attrs.field(metadata=described("Requests waiting for capacity now."))
    rate_factor: float = attrs.field(
        metadata=described(
            "The share of the configured limits in force: below 1.0 once 429s taught a lower limit."
        )
    )
    effective_rate: float | None = attrs.field(
        metadata=described(
            "Requests per second now allowed by the tightest learned request rule; None when not limited."
        )
    )
    limits: tuple[Rule, ...] = attrs.field(default=(), metadata=described("The configured rules."))
    learned_limits: tuple[Rule, ...] = attrs.field(
        default=(), metadata=described("The rules in force: the configured ones with their learned amounts.")
    )


class SchedulerStats(Mapping[Category, CategoryStats]):
    """Per-category :class:`CategoryStats`, a snapshot: ``client.stats["read"].sent``."""

    def __init__(self, categories: Mapping[Category, CategoryStats]) -> None:
        self._categories = dict(categories)

    def __getitem__(self, category: Category) -> CategoryStats:
        return self._categories[Category(category)]

    def __iter__(self) -> Iterator[Category]:
        return iter(self._categories)

    def __len__(self) -> int:
        return len(self._categories)

    def __repr__(self) -> str:
        return f"SchedulerStats({list(self._categories.values())!r})"
