"""The rate-limit backend: where the sliding-window slots and 429 penalties live.

This room holds the contract every backend keeps (:class:`RateLimitBackend`,
whose methods state it), the :class:`Grant` a backend hands out for one
admitted attempt, and the default :class:`InMemoryBackend`. It knows rules
(``_limits.py``) and nothing of the scheduler that calls it (``_scheduler/``,
whose docstring argues why the slots below keep the service's windows), so a
shared backend such as the ``redis`` package depends on this module alone.
"""

from __future__ import annotations

import bisect
import collections
import inspect
import itertools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from route_planning_async._docs import Written, described, docstring_documented, fields_documented
from route_planning_async._rate_limits._limits import Rule

__all__ = [
    "Grant",
    "InMemoryBackend",
    "RateLimitBackend",
    "WindowCount",
    "contract_problem",
    "learned_amount",
    "learned_rules",
    "lease_problem",
]


_SECTION_HEADING = re.compile(r"^(Args|Returns|Raises|Example|Examples|Note|Notes):\s*$")


def learned_amount(amount: int, rate_factor: float) -> int:
    """The amount of a rule at ``rate_factor``: ``max(1, floor(amount * rate_factor))``.

    Whole requests (or stops): a service that allows 3 of a configured 10 per
    second is kept to exactly 3, not to 10 spread over 3.3 seconds, which would
    still send its bursts of 10.
    """
    # The epsilon keeps 10 * 0.3 (2.9999999999999996 in binary) at 3.
    return max(1, math.floor(amount * rate_factor + 1e-9))


def learned_rules(rules: Sequence[Rule], rate_factor: float) -> tuple[Rule, ...]:
    """``rules`` with their amounts at ``rate_factor`` (:func:`learned_amount`)."""
    return tuple(attrs.evolve(rule, amount=learned_amount(rule.amount, rate_factor)) for rule in rules)


@fields_documented(title="Attributes")
@attrs.define
class Grant:
    """One admitted attempt's slot in a backend, to be released when the attempt ends.

    A plain record (one is built per request; a frozen class would cost more to
    build): a backend makes it in ``acquire`` and nobody changes it afterwards.

    Attributes:
        key (str): The key the slot was taken in.
        token (str): The backend's name for the slot.
        weight (int): The weight the slot was taken with.
        rate_factor (float): The key's rate factor when it was granted (1.0: not slowed down).
    """

    key: str = attrs.field(metadata=described("The key the slot was taken in."))
    token: str = attrs.field(metadata=described("The backend's name for the slot."))
    weight: int = attrs.field(metadata=described("The weight the slot was taken with."))
    rate_factor: float = attrs.field(
        default=1.0, metadata=described("The key's rate factor when it was granted (1.0: not slowed down).")
    )


@fields_documented(title="Attributes")
@attrs.frozen
class WindowCount:
    """What one rule's trailing window holds of a key, by every process sharing the backend:
    the cost of each of its three kinds of slot (:class:`RateLimitBackend`), as
    :meth:`RateLimitBackend.window` answers it.

    Attributes:
        admitted (int): The cost of the slots answered without a 429 and anchored in the rule's trailing
            period.
        refused (int): The cost of the slots anchored in the rule's trailing period that are not known
            to have been admitted: refused with a 429, ended without an answer, or held by a process
            that never released them (their lease ran out).
        in_flight (int): The cost of the slots granted and not yet released: their answers are not in.
    """

    admitted: int = attrs.field(
        metadata=described(
            "The cost of the slots answered without a 429 and anchored in the rule's trailing period."
        )
    )
    refused: int = attrs.field(
        metadata=described(
            "The cost of the slots anchored in the rule's trailing period that are not known to have been "
            "admitted: refused with a 429, ended without an answer, or held by a process that never "
            "released them (their lease ran out)."
        )
    )
    in_flight: int = attrs.field(
        metadata=described("The cost of the slots granted and not yet released: their answers are not in.")
    )


class RateLimitBackend(Protocol):
    """Where the sliding-window slots and the 429 penalty of each key live.

    A backend holds the slots and the penalty of each *key* (the scheduler uses
    the category's value, ``"read"``, ``"write"``, ...; a shared backend adds its
    own namespace, e.g. per team). All of its methods are coroutines. ``now`` is
    the scheduler's clock reading; a backend with its own time source (Redis
    ``TIME``) ignores it and uses its own everywhere, since the answers it gives
    are relative (seconds to wait), never absolute times.

    A key's slots are of three kinds, kept apart: *in flight* (granted, not
    yet released), *admitted* (released as answered without a 429) and
    *refused* (released after a 429 or without an answer, or whose lease ran
    out). All three count when a request asks to be admitted (:meth:`acquire`);
    only the admitted ones say what the service admits (:meth:`window`), so that
    a process learning from a 429 counts neither another's attempts still in
    flight nor those the service refused as admitted.

    The learned ``rate_factor`` lives here so that every process sharing a
    backend uses what any of them learned. The in-memory backend keeps it for
    the life of the process; a shared backend may forget it once the key has
    been idle for a while (Redis: ten times the longest period), and the
    scheduler then learns it again from the next 429.

    A backend is shared by every scheduler given it
    (:class:`~route_planning_async._scheduler.Scheduler`); the in-process FIFO
    queue stays in front of it. A scheduler learns of slots freed by *another*
    process only by asking again, so when the backend answers ``math.inf`` the
    head asks again at least every ``min(shortest period, 1 s)``.

    A backend may subclass this protocol. Each method of the contract that it
    implements shows the contract's text: a method without a docstring inherits
    it (in ``help()``, an editor and the docs site); what is particular to a
    backend's method goes in its own sections (``Note:``, ``Raises:``), and in
    this package the docstring generator writes the contract's text before them.

    A backend whose in-flight slots expire (a process holding one may have died)
    names how long they last in a ``lease`` attribute, in seconds: a slot whose
    lease ends while its request is still out is freed for others, who may then
    send past the limit, so a client with such a backend must give up an
    attempt before its lease ends (:func:`lease_problem`).

    A client checks the backend it is given against this contract when it is
    built (:func:`contract_problem`): a backend without one of these methods, or
    whose method does not take an argument the scheduler passes (``release``'s
    ``admitted``, added after 0.2.0), is a
    :class:`~route_planning_async.ConfigurationError` then, not a ``TypeError``
    after a request was sent.
    """

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for name, contract in vars(RateLimitBackend).items():
            method = vars(cls).get(name)
            # A method with no docstring inherits the contract's; one with its own sections gets it.
            if inspect.iscoroutinefunction(contract) and inspect.isfunction(method) and method.__doc__:
                docstring_documented(method.__module__, method.__qualname__, _keeping_contract(name))

    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        """Take a slot of ``weight`` under every rule at once, or answer the seconds to wait.

        Called by the scheduler. Atomically: if the key is paused, answer the
        seconds left of the pause. Else, for every rule, let ``A =
        learned_amount(rule.amount, rate_factor)`` (the share of the configured
        amount the scheduler has learned the service really allows) and
        ``used`` = the cost (``rule.cost(weight)`` of each slot's weight) of the
        key's in-flight slots plus that of its anchored slots with ``anchor +
        rule.period > now``. If ``used + rule.cost(weight) <= A``, or ``used ==
        0`` (a request heavier than a learned amount passes alone), for every
        rule, record one in-flight slot of ``weight`` and answer a
        :class:`Grant` with the key's current ``rate_factor``: all rules are
        consumed or none. Otherwise answer the seconds until enough anchored
        slots expire for the tightest rule to admit it (the largest of the
        per-rule waits), or ``math.inf`` when only in-flight slots block it.
        Callers never pass a weight whose cost exceeds a rule's configured
        amount. With no rules, only the pause applies.

        Args:
            key: The scheduler's key of the category.
            rules: The category's configured rules (the backend scales their
                amounts by the key's rate factor).
            weight: The request's weight (stops in a batch; 1 for most requests).
            now: The scheduler's clock.

        Returns:
            A :class:`Grant`, or the seconds to wait before trying again.
        """

    async def release(self, grant: Grant, now: float, *, extra: float = 0.0, admitted: bool = True) -> None:
        """Anchor the grant's in-flight slot at ``now + extra``.

        Called by the scheduler once the attempt ended. ``extra`` may be
        negative: the scheduler anchors an answered slot at its send time plus
        a margin (see its docstring). The slot counts in :meth:`acquire`
        whether or not the service admitted the attempt (a service may count
        the requests it refuses); :meth:`window` keeps it among the admitted or
        the refused slots, as ``admitted`` says. Releasing an unknown or
        already released grant does nothing.

        Args:
            grant: The grant of :meth:`acquire`.
            now: The scheduler's clock.
            extra: Seconds added to the anchor (the spread of recent round trips).
            admitted: Whether the service admitted the attempt: False for a 429,
                and for an attempt that ended without an answer (unknown).
        """

    async def cancel(self, grant: Grant) -> None:
        """Remove the grant's slot as if never granted: the attempt was never sent.

        Args:
            grant: The grant of :meth:`acquire`.
        """

    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        """Pause the key and lower its rate factor after a 429, for every process sharing it.

        The key is paused until at least ``now + pause`` (never shortened), and
        its ``rate_factor`` becomes ``min(rate_factor, factor)`` (never raised
        here).

        Args:
            key: The scheduler's key of the category.
            pause: Seconds from ``now`` during which nothing is admitted.
            factor: The new rate factor (a share of the configured limits).
            now: The scheduler's clock.

        Returns:
            The rate factor now in force (another scheduler sharing the key may have cut lower).
        """

    async def recover(self, key: str, factor: float) -> float:
        """Raise the key's rate factor: a probe upward.

        ``rate_factor = max(rate_factor, min(1.0, factor))`` (never lowered here).
        The scheduler also calls it with ``0.0`` to read the factor in force
        (after a 429, to see a raise another process made).

        Args:
            key: The scheduler's key of the category.
            factor: The new rate factor, at most 1.0.

        Returns:
            The rate factor now in force.
        """

    async def claim_probe(self, key: str, turn: float, now: float) -> float:
        """Take the key's turn to probe its rate factor upward, for every process sharing it.

        Atomically: while a turn taken earlier lasts, answer the seconds left of
        it; else start a turn of ``turn`` seconds and answer 0.0. Processes
        sharing a backend then probe one at a time, a turn apart, rather than
        each at its own pace (a process that sends little may never see the
        factor change while another's probe fails, and probe again at once).
        A turn outlives a raise of the factor to 1.0 (the raise may be the
        probe). The scheduler also takes the turn of ``<key>/scout`` before a
        category's first attempt after a quiet spell (``docs/learning.md``,
        "The fleet"): one process sharing the backend scouts the window for
        all.

        Args:
            key: The scheduler's key of the category.
            turn: Seconds before anybody may probe again (the wait after a failed probe).
            now: The scheduler's clock.

        Returns:
            0.0 when the turn is the caller's, else the seconds until the current one ends.
        """

    async def window(self, key: str, rules: Sequence[Rule], now: float) -> tuple[WindowCount, ...]:
        """Per rule, the key's slots in its trailing period, each kind apart.

        By every process sharing the key: the cost under the rule of the
        admitted and the refused slots with ``anchor > now - rule.period``, and
        of the slots in flight (:class:`WindowCount`). What the service is known
        to have admitted of the key in its window is ``admitted`` alone. The
        scheduler reads it when a 429 comes, to learn the service's real limit
        (``admitted``) and to tell a busy budget from a smaller one (with
        ``in_flight``: what every process sharing the key is sending).

        Args:
            key: The scheduler's key of the category.
            rules: The category's configured rules.
            now: The scheduler's clock.

        Returns:
            One :class:`WindowCount` per rule, in the rules' order.
        """

    async def usage(self, key: str, rules: Sequence[Rule], now: float) -> tuple[int, ...]:
        """Per rule, the ``admitted`` cost of :meth:`window`: what the service is known to have
        admitted of the key in its trailing window.

        Args:
            key: The scheduler's key of the category.
            rules: The category's configured rules.
            now: The scheduler's clock.

        Returns:
            One cost per rule, in the rules' order.
        """


def _keeping_contract(name: str) -> Callable[[list[str], int, Written], list[str]]:
    """The generated docstring of a backend's method ``name``: the contract's description
    and sections (``Args:``, ``Returns:``), then the method's own other sections (``Note:``,
    ``Raises:``), which are kept as written."""

    def rewrite(lines: list[str], width: int, written: Written) -> list[str]:
        contract_text, contract_sections = _split_at_sections(written(__name__, f"RateLimitBackend.{name}"))
        own_text, own_sections = _split_at_sections(lines)
        if own_text and own_text != contract_text:
            raise ValueError(
                f"{name}: a backend's own text goes in a Note: section (the description is the "
                "contract's; if this is the contract's former text, delete it)"
            )
        # The contract's sections are written anew; the method's own others are kept.
        titles = {title for title, _ in contract_sections}
        own_sections = [(title, part) for title, part in own_sections if title not in titles]
        composed: list[str] = []
        for part in [contract_text, *(part for _, part in (*contract_sections, *own_sections))]:
            composed += [*([""] if composed and part else []), *part]
        return composed

    return rewrite


def _split_at_sections(lines: list[str]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A docstring's cleaned ``lines`` cut into its text and its Google-style sections."""
    starts = [i for i, line in enumerate(lines) if _SECTION_HEADING.match(line)]
    text = _trimmed(lines[: starts[0] if starts else len(lines)])
    ends = [*starts[1:], len(lines)] if starts else []
    return text, [(lines[start], _trimmed(lines[start:end])) for start, end in zip(starts, ends, strict=True)]


def _trimmed(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _slot_anchor(slot: tuple[float, str, int, bool]) -> float:
    return slot[0]


def _until_out(anchor: float, period: float, now: float) -> float:
    """Seconds from ``now`` until a slot anchored at ``anchor`` leaves a window of ``period``:
    at least the next float after ``now``, where ``anchor + period`` rounds to ``now`` or below
    while the slot still counts (its anchor above ``now - period``)."""
    return max(anchor + period - now, math.ulp(now))


@attrs.define
class _Bucket:
    """The in-memory state of one key."""

    settled: list[tuple[float, str, int, bool]] = attrs.field(factory=list)
    """Anchored slots as ``(anchor, token, weight, admitted)``, sorted by anchor."""
    in_flight: dict[str, int] = attrs.field(factory=dict)
    """In-flight slots: token -> weight."""
    in_flight_weight: int = 0
    """Sum of the in-flight slots' weights."""
    paused_until: float = -math.inf
    """No slot is granted before this time."""
    rate_factor: float = 1.0
    """The learned share of every rule's amount (1.0: the configured limits)."""
    probe_turn_until: float = -math.inf
    """Nobody probes the rate factor upward before this time (:meth:`RateLimitBackend.claim_probe`)."""
    counts: bool = True
    """Whether answered slots count (the key has rules; without, only its pause applies)."""

    def acquire(self, rules: Sequence[Rule], weight: int, now: float, token: str) -> float:
        """Record slot ``token`` and answer 0.0, or answer the seconds to wait."""
        if now < self.paused_until:
            return self.paused_until - now
        if rules:
            self._forget_expired(rules, now)
            wait = 0.0
            for rule in rules:
                wait = max(wait, self._wait_for(rule, weight, now))
            if wait > 0:
                return wait
        elif self.settled:
            # Without rules only the pause applies; anchored slots never count.
            self.settled.clear()
        self.counts = bool(rules)
        self.in_flight[token] = weight
        self.in_flight_weight += weight
        return 0.0

    def _wait_for(self, rule: Rule, weight: int, now: float) -> float:
        amount = learned_amount(rule.amount, self.rate_factor)

        # A slot counts while its anchor is above ``now - period``, as a service counts its
        # window ``(now - period, now]`` (``anchor + period > now`` may round the other way).
        first = bisect.bisect_right(self.settled, now - rule.period, key=_slot_anchor)
        in_flight = len(self.in_flight) if rule.per == "request" else self.in_flight_weight
        counted = list(itertools.islice(self.settled, first, None))
        used = in_flight + sum(rule.cost(slot[2]) for slot in counted)
        excess = used + rule.cost(weight) - amount
        if excess <= 0 or used == 0:
            return 0.0
        for slot in counted:
            excess -= rule.cost(slot[2])
            if excess <= 0:
                return _until_out(slot[0], rule.period, now)
        if in_flight == 0:
            # Heavier than the learned amount: it passes alone once the window is empty.
            return _until_out(counted[-1][0], rule.period, now)
        return math.inf

    def window(self, rules: Sequence[Rule], now: float) -> tuple[WindowCount, ...]:
        counts = []
        for rule in rules:
            since = now - rule.period
            first = bisect.bisect_right(self.settled, since, key=_slot_anchor)
            admitted = refused = 0
            for _, _, weight, was_admitted in itertools.islice(self.settled, first, None):
                if was_admitted:
                    admitted += rule.cost(weight)
                else:
                    refused += rule.cost(weight)
            in_flight = sum(rule.cost(weight) for weight in self.in_flight.values())
            counts.append(WindowCount(admitted, refused, in_flight))
        return tuple(counts)

    def _forget_expired(self, rules: Sequence[Rule], now: float) -> None:
        horizon = max(rule.period for rule in rules)
        stale = bisect.bisect_right(self.settled, now - horizon, key=_slot_anchor)
        if stale:
            del self.settled[:stale]

    def release(self, token: str, anchor: float, admitted: bool) -> None:
        weight = self.in_flight.pop(token, None)
        if weight is None:
            return
        self.in_flight_weight -= weight
        if self.counts:
            bisect.insort(self.settled, (anchor, token, weight, admitted))

    def cancel(self, token: str) -> None:
        weight = self.in_flight.pop(token, None)
        if weight is not None:
            self.in_flight_weight -= weight


class InMemoryBackend(RateLimitBackend):
    """The default backend: the slots of each key in this process's memory.

    One instance may be shared by several clients of one process so that they
    share limits; separate processes need a shared backend (Redis).
    """

    def __init__(self) -> None:
        self._buckets: collections.defaultdict[str, _Bucket] = collections.defaultdict(_Bucket)
        self._serials = itertools.count(1)
        # Each category's learning estimate (``_learning/``), by key and rules: the schedulers
        # sharing this backend share it, so the clients of one process learn as one.
        self._estimates: dict[tuple[str, tuple[Rule, ...]], Any] = {}

    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        return self._acquire_now(key, rules, weight, now)

    async def release(self, grant: Grant, now: float, *, extra: float = 0.0, admitted: bool = True) -> None:
        self._release_now(grant, now + extra, admitted)

    def _acquire_now(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        """:meth:`acquire`, answered at once: the scheduler calls it without a coroutine."""
        bucket = self._buckets[key]
        token = str(next(self._serials))
        wait = bucket.acquire(rules, weight, now, token)
        if wait > 0:
            return wait
        return Grant(key, token, weight, bucket.rate_factor)

    def _release_now(self, grant: Grant, anchor: float, admitted: bool) -> None:
        """:meth:`release` with the slot's ``anchor`` (``now + extra``), done at once."""
        self._buckets[grant.key].release(grant.token, anchor, admitted)

    async def cancel(self, grant: Grant) -> None:
        self._buckets[grant.key].cancel(grant.token)

    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        bucket = self._buckets[key]
        bucket.paused_until = max(bucket.paused_until, now + pause)
        bucket.rate_factor = min(bucket.rate_factor, factor)
        return bucket.rate_factor

    async def recover(self, key: str, factor: float) -> float:
        bucket = self._buckets[key]
        bucket.rate_factor = max(bucket.rate_factor, min(1.0, factor))
        return bucket.rate_factor

    async def claim_probe(self, key: str, turn: float, now: float) -> float:
        bucket = self._buckets[key]
        if now < bucket.probe_turn_until:
            return bucket.probe_turn_until - now
        bucket.probe_turn_until = now + turn
        return 0.0

    async def window(self, key: str, rules: Sequence[Rule], now: float) -> tuple[WindowCount, ...]:
        return self._buckets[key].window(rules, now)

    async def usage(self, key: str, rules: Sequence[Rule], now: float) -> tuple[int, ...]:
        return tuple(count.admitted for count in self._buckets[key].window(rules, now))


def contract_problem(backend: object) -> str | None:
    """What keeps ``backend`` from meeting :class:`RateLimitBackend`'s contract; None when nothing does.

    Every coroutine method of the contract must be there, be a coroutine
    function (or any callable for a test double), and take the arguments the
    scheduler passes: the contract's positional parameters by position, its
    keyword-only ones by keyword.
    """
    for name, contract in vars(RateLimitBackend).items():
        if not inspect.iscoroutinefunction(contract):
            continue
        method = getattr(backend, name, None)
        if method is None or not callable(method):
            return f"it has no {name}() method"
        if inspect.isfunction(getattr(type(backend), name, None)) and not inspect.iscoroutinefunction(method):
            return f"its {name}() is not a coroutine function (async def)"
        parameters = list(inspect.signature(contract).parameters.values())[1:]
        positional = [p.name for p in parameters if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keywords = {p.name: None for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY}
        try:
            signature = inspect.signature(method)
        except (TypeError, ValueError):
            continue  # a callable without a signature to read (a C function): taken on trust
        try:
            signature.bind(*positional, **keywords)
        except TypeError as exc:
            wanted = ", ".join([*positional, *(f"{k}=" for k in keywords)])
            return f"its {name}() does not take ({wanted}): {exc}"
    return None


def lease_problem(backend: object, timeout: float | None) -> str | None:
    """Why an attempt of a client whose timeout is ``timeout`` (``None``: none) may outlast the
    lease of ``backend``'s in-flight slots (:class:`RateLimitBackend`, its ``lease``); None when
    it cannot, or when the backend's slots have no lease."""
    lease = getattr(backend, "lease", None)
    if isinstance(lease, bool) or not isinstance(lease, int | float) or not math.isfinite(lease):
        return None
    if timeout is not None and timeout < lease:
        return None
    ends = "an attempt still out when its slot's lease ends lets others send past the limit"
    if timeout is None:
        return (
            f"its in-flight slots last {lease:g} s (its lease) and the client has no timeout: {ends}; "
            f"give the client a timeout under {lease:g} s"
        )
    return (
        f"its in-flight slots last {lease:g} s (its lease), no longer than the client's timeout of "
        f"{timeout:g} s: {ends}; give the backend a longer lease or the client a shorter timeout"
    )
