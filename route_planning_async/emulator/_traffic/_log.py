"""The request log: every request the emulator saw, with its server time and outcome.

Tests use it to prove a client never broke a limit: :meth:`RequestLog.max_in_window`
replays the admitted requests of a category through a sliding window.

When the limits change mid-run (``EmulatorConfig.limit_schedule``,
``Emulator.set_rate_limits``) the log shares the limiter's :class:`LimitTimeline`:
:meth:`RequestLog.limits_at` and :meth:`RequestLog.rule_at` tell which limits were in
force at a server time, :meth:`RequestLog.occupancy_in_force` measures the traffic
against the limit in force, and :meth:`RequestLog.time_to_reach` how long a client
took to use a (restored) limit again.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Literal

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule
from route_planning_async.emulator._traffic._limits import LimitChange, LimitTimeline

__all__ = ["Outcome", "RequestLog", "RequestRecord"]

Outcome = Literal[
    "ok",
    "error",
    "rate_limited",
    "unauthorized",
    "not_found",
    "fault",
]


@fields_documented(title="Attributes")
@attrs.frozen
class RequestRecord:
    """One request, as the server saw it.

    Attributes:
        seq (int): 1-based order of arrival.
        time (float): Server clock reading when the request was admitted or rejected (monotonic, not
            sped up).
        method (str): HTTP method of the request.
        path (str): Path below the base path, without the query.
        route (str | None): Endpoint name (``stops.import_batch``); None when no endpoint matched.
        category (Category | None): Rate-limit category; None when no endpoint matched.
        weight (int): Stops in a batch import body, else 1.
        status (int | None): HTTP status answered; None when the connection was dropped.
        outcome (Outcome): ``ok`` (2xx), ``error`` (4xx/5xx from the handler), ``rate_limited`` (429
            from the limiter), ``unauthorized``, ``not_found`` (no such endpoint) or ``fault`` (an
            injected fault fired).
        admitted (bool): Whether the rate limiter admitted it (it then counts in every window).
        fault (str | None): Kind of the injected fault, if one fired.
        reason (str): Why the limiter rejected it: ``window`` (the rule's window or bucket was full),
            ``sustained`` (traffic that stays near the limit) or ``lockout`` (a key refused at a high
            rate); empty when it was admitted.
    """

    seq: int = attrs.field(metadata=described("1-based order of arrival."))
    time: float = attrs.field(
        metadata=described(
            "Server clock reading when the request was admitted or rejected (monotonic, not sped up)."
        )
    )
    method: str = attrs.field(metadata=described("HTTP method of the request."))
    path: str = attrs.field(metadata=described("Path below the base path, without the query."))
    route: str | None = attrs.field(
        metadata=described("Endpoint name (``stops.import_batch``); None when no endpoint matched.")
    )
    category: Category | None = attrs.field(
        metadata=described("Rate-limit category; None when no endpoint matched.")
    )
    weight: int = attrs.field(metadata=described("Stops in a batch import body, else 1."))
    status: int | None = attrs.field(
        metadata=described("HTTP status answered; None when the connection was dropped.")
    )
    outcome: Outcome = attrs.field(
        metadata=described(
            "``ok`` (2xx), ``error`` (4xx/5xx from the handler), ``rate_limited`` (429 from the "
            "limiter), ``unauthorized``, ``not_found`` (no such endpoint) or ``fault`` (an injected "
            "fault fired)."
        )
    )
    admitted: bool = attrs.field(
        metadata=described("Whether the rate limiter admitted it (it then counts in every window).")
    )
    fault: str | None = attrs.field(
        default=None, metadata=described("Kind of the injected fault, if one fired.")
    )
    reason: str = attrs.field(
        default="",
        metadata=described(
            "Why the limiter rejected it: ``window`` (the rule's window or bucket was full), "
            "``sustained`` (traffic that stays near the limit) or ``lockout`` (a key refused at a "
            "high rate); empty when it was admitted."
        ),
    )


class RequestLog:
    """Every request in arrival order: ``emu.log``.

    :param timeline: which limits were in force when (the emulator's limiter shares its own).

    Attributes:
        records (list[RequestRecord]): All records.
        timeline (LimitTimeline | None): Which limits were in force when; :meth:`clear` keeps it. None:
            unknown.
    """

    def __init__(self, timeline: LimitTimeline | None = None) -> None:
        self.records: list[RequestRecord] = []
        """All records."""
        self.timeline = timeline
        """Which limits were in force when; :meth:`clear` keeps it. None: unknown."""

    @property
    def limit_changes(self) -> list[LimitChange]:
        """Every change of limits, in time order (server seconds; the scheduled ones to come too)."""
        return [] if self.timeline is None else list(self.timeline.changes)

    def limits_at(self, time: float) -> RateLimits:
        """The server-time limits (periods sped up) in force at server time ``time``."""
        if self.timeline is None:
            raise LookupError("this log does not know which limits were in force")
        return self.timeline.at(time).server_limits

    def rule_at(
        self, category: Category | str, time: float, per: Literal["request", "weight"] = "request"
    ) -> Rule | None:
        """The longest ``per`` rule of ``category`` in force at ``time`` (server seconds); None when
        the category had no such rule then."""
        rules = [r for r in self.limits_at(time).for_category(Category(category)) if r.per == per]
        return max(rules, key=lambda r: r.period) if rules else None

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[RequestRecord]:
        return iter(list(self.records))

    def append(self, record: RequestRecord) -> None:
        """Add one record."""
        self.records.append(record)

    def clear(self) -> None:
        """Forget every record."""
        self.records.clear()

    def select(
        self,
        category: Category | str | None = None,
        *,
        route: str | None = None,
        status: int | None = None,
        admitted: bool | None = None,
    ) -> list[RequestRecord]:
        """Records matching every given criterion."""
        wanted = None if category is None else Category(category)
        return [
            record
            for record in self.records
            if (wanted is None or record.category == wanted)
            and (route is None or record.route == route)
            and (status is None or record.status == status)
            and (admitted is None or record.admitted == admitted)
        ]

    def rejected(self, category: Category | str | None = None) -> list[RequestRecord]:
        """Requests the rate limiter answered with 429."""
        return [record for record in self.select(category) if record.outcome == "rate_limited"]

    def max_in_window(
        self, category: Category | str, period: float, *, per: Literal["request", "weight"] = "request"
    ) -> int:
        """The most admitted requests (or weight) of ``category`` in any window of ``period``
        server seconds, windows being ``(t - period, t]`` like the limiter's."""
        admitted = [record for record in self.select(category) if record.admitted]
        admitted.sort(key=lambda record: record.time)
        best = 0
        total = 0
        start = 0
        for record in admitted:
            total += record.weight if per == "weight" else 1
            while admitted[start].time <= record.time - period:
                total -= admitted[start].weight if per == "weight" else 1
                start += 1
            best = max(best, total)
        return best

    def utilization(
        self,
        category: Category | str,
        amount: int,
        period: float,
        *,
        per: Literal["request", "weight"] = "request",
    ) -> float:
        """Admitted traffic as a fraction of the most a window of ``amount`` per ``period`` could
        admit over the same span: ``amount * (floor(span / period) + 1)``."""
        admitted = sorted((r for r in self.select(category) if r.admitted), key=lambda r: r.time)
        if not admitted:
            return 0.0
        span = admitted[-1].time - admitted[0].time
        served = sum(record.weight if per == "weight" else 1 for record in admitted)
        return served / (amount * (math.floor(span / period) + 1))

    def occupancy(
        self,
        category: Category | str,
        amount: int,
        period: float,
        since: float,
        until: float,
        *,
        per: Literal["request", "weight"] = "request",
    ) -> float:
        """How full a window of ``amount`` per ``period`` was on average over ``[since, until]``
        (1.0: always full).

        Every admission at ``t`` fills the windows ending in ``[t, t + period)``; a
        client that keeps a category saturated scores ``period / (period + latency)``
        whatever the phase of its bursts, unlike a count of whole windows.
        """
        filled = 0.0
        for record in self.select(category, admitted=True):
            cost = record.weight if per == "weight" else 1
            filled += cost * max(0.0, min(record.time + period, until) - max(record.time, since))
        return filled / (amount * (until - since))

    def occupancy_in_force(
        self,
        category: Category | str,
        since: float,
        until: float,
        *,
        per: Literal["request", "weight"] = "request",
    ) -> float:
        """:meth:`occupancy` against the limit in force at each moment (1.0: a window as full as
        the limit allowed all along), for runs whose limits change.

        An admission at ``t`` fills the windows ending in ``[t, t + period)``, with the period of
        the rule in force at ``t``; a moment counts its rule's amount of room. Moments when the
        category had no ``per`` rule count no room, and admissions then fill nothing.
        """
        if not until > since:
            raise ValueError("until must be after since")
        if self.timeline is None:
            raise LookupError("this log does not know which limits were in force")
        room = 0.0
        starts = [since] + [c.time for c in self.timeline.changes if since < c.time < until]
        ends = [*starts[1:], until]
        for start, end in zip(starts, ends, strict=True):
            rule = self.rule_at(category, start, per)
            if rule is not None:
                room += rule.amount * (end - start)
        filled = 0.0
        for record in self.select(category, admitted=True):
            rule = self.rule_at(category, record.time, per)
            if rule is None:
                continue
            cost = record.weight if per == "weight" else 1
            filled += cost * max(0.0, min(record.time + rule.period, until) - max(record.time, since))
        return filled / room if room else 0.0

    def time_to_reach(
        self,
        category: Category | str,
        fraction: float,
        since: float,
        *,
        per: Literal["request", "weight"] = "request",
    ) -> float | None:
        """Server seconds from ``since`` (e.g. a limit's restoration) until the admitted traffic
        admitted after ``since`` first fills ``fraction`` of the rule in force: the first ``t`` at
        which the window ``(t - period, t]`` of that rule holds at least ``fraction * amount`` of
        admissions later than ``since``. None when it never did.

        A client that uses the whole limit the moment it is restored scores at most one period.
        """
        admitted = sorted(
            (r for r in self.select(category, admitted=True) if r.time > since), key=lambda r: r.time
        )
        total = 0
        start = 0
        for record in admitted:
            rule = self.rule_at(category, record.time, per)
            total += record.weight if per == "weight" else 1
            if rule is None:
                continue
            while admitted[start].time <= record.time - rule.period:
                total -= admitted[start].weight if per == "weight" else 1
                start += 1
            if total >= fraction * rule.amount:
                return record.time - since
        return None
