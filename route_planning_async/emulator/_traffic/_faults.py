"""Scriptable, seeded fault injection.

A :class:`Fault` says *what* goes wrong (``kind``), *for which requests*
(``route``, ``category``, ``method``; all optional, all must match) and *when*
(``nth`` matching request, or each matching request with ``probability``, at most
``times`` times)::

    emu.faults.add(Fault("error_after_commit", route="stops.import_batch", nth=3))
    emu.faults.add(Fault("rate_limit", category="read", probability=0.1))
    emu.faults.add(Fault("drop", route="plans.get", nth=1))

What each kind does is written once, in :class:`FaultKind` (``help(FaultKind)``;
the docs' fault guide runs an example of each).

Probabilities draw from one ``random.Random(seed)``, so a run is reproducible.
Injected answers do not count in the rate-limit windows.
"""

from __future__ import annotations

import enum
import random

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import Category

__all__ = ["Fault", "FaultEvent", "FaultInjector", "FaultKind"]


class FaultKind(enum.StrEnum):
    """What an injected fault does; ``Fault("rate_limit")`` and ``Fault(FaultKind.RATE_LIMIT)`` are one.

    "Nothing done" means the request is not carried out; "handled" means it is,
    as without the fault, before the fault shows.

    Attributes:
        RATE_LIMIT: 429 with ``Retry-After`` (``retry_after`` contract seconds, divided by the
            speed-up); nothing done.
        ERROR: An error answer (``status``, 500 by default); nothing done.
        DROP: The connection is closed without an answer; nothing done.
        DELAY: The answer comes ``delay`` real seconds late; the request is handled normally.
        MALFORMED_JSON: Handled, then a 2xx answer whose body is cut short (not JSON).
        ERROR_AFTER_COMMIT: Handled (an import is stored), then a ``status`` (500) answer.
        DROP_AFTER_COMMIT: Handled, then the connection is closed without an answer.
        HANG: No answer and nothing done: the connection is held open until the client
            gives up (its timeout) or ``delay`` real seconds pass, then closed.
        LATE_COMMIT: No answer: the connection is held open, the request is handled
            ``delay`` real seconds after it arrived (whether the client still waits or
            not), then the connection is closed. A client timeout shorter than ``delay``
            sees a timeout, and the change lands later.
        REJECT_STOP: A batch import holding a stop whose JSON contains ``marker`` is
            refused with a 400 whose ``param`` names that stop (``[k].<param>``, or
            ``unassignedStops[k].<param>``; with ``param=None`` it names no stop); nothing
            done. A batch without the marker is not matched.
        commits (bool): Whether the request is carried out before the fault shows.
    """

    RATE_LIMIT = "rate_limit"
    ERROR = "error"
    DROP = "drop"
    DELAY = "delay"
    MALFORMED_JSON = "malformed_json"
    ERROR_AFTER_COMMIT = "error_after_commit"
    DROP_AFTER_COMMIT = "drop_after_commit"
    HANG = "hang"
    LATE_COMMIT = "late_commit"
    REJECT_STOP = "reject_stop"

    @property
    def commits(self) -> bool:
        """Whether the request is carried out before the fault shows."""
        return self in (
            FaultKind.DELAY,
            FaultKind.MALFORMED_JSON,
            FaultKind.ERROR_AFTER_COMMIT,
            FaultKind.DROP_AFTER_COMMIT,
            FaultKind.LATE_COMMIT,
        )


def _optional_category(value: Category | str | None) -> Category | None:
    return None if value is None else Category(value)


def _optional_upper(value: str | None) -> str | None:
    return None if value is None else value.upper()


def _check_probability(
    instance: Fault, attribute: attrs.Attribute[float | None], value: float | None
) -> None:
    if value is not None and not 0.0 <= value <= 1.0:
        raise ValueError(f"probability must be within [0, 1], got {value}")


def _check_nth(instance: Fault, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    if value is not None and value < 1:
        raise ValueError(f"nth counts from 1, got {value}")


@attrs.define(eq=False)
class Fault:
    """One scripted fault: what goes wrong, for which requests, and when.

    A request matches when every matcher given (``route``, ``category``,
    ``method``, ``marker``, ``key``) matches it. Without ``nth`` or ``probability`` the
    fault fires on every matching request, at most ``times`` times; ``nth`` and
    ``probability`` are exclusive. Arm it with ``emu.faults.add(fault)``.

    Attributes:
        kind (FaultKind): What happens: a :class:`FaultKind` or its value (``"rate_limit"``).
        route (str | None): Endpoint name to match, as in the client's endpoint table
            (``stops.import_batch``); None matches every endpoint.
        category (Category | None): Rate-limit category to match (``"read"``); None matches
            every one.
        method (str | None): HTTP method to match, in any case; None matches every one.
        nth (int | None): Fire on the nth matching request only, counted from 1 from when
            the fault was added.
        probability (float | None): Fire on each matching request with this probability,
            drawn from the emulator's seeded random numbers (``emu.faults.seed``).
        times (int | None): Fire at most this many times; None is unlimited.
        status (int): Status of ``error`` and ``error_after_commit`` answers. Default 500.
        retry_after (float): ``Retry-After`` of a ``rate_limit`` answer, in contract
            seconds (divided by the emulator's speed-up). Default 1.0.
        delay (float): Real seconds a ``delay`` answer waits, a ``hang`` lasts at most,
            a ``late_commit`` is late. Default 1.0.
        marker (str | None): A text the request body must contain to match; for
            ``reject_stop``, the text in a stop's JSON that marks the stop to refuse.
        param (str | None): ``reject_stop``: the field named after ``[k].`` in the 400's
            ``param``; None names no stop. Default ``"notes"``.
        key (str | None): API key the request must carry to match; None matches every key.
        matched (int): Requests that matched so far (set by the emulator).
        fired (int): Times it fired so far (set by the emulator).
    """

    kind: FaultKind = attrs.field(converter=FaultKind)
    route: str | None = None
    category: Category | None = attrs.field(default=None, converter=_optional_category)
    method: str | None = attrs.field(default=None, converter=_optional_upper)
    nth: int | None = attrs.field(default=None, validator=_check_nth)
    probability: float | None = attrs.field(default=None, validator=_check_probability)
    times: int | None = None
    status: int = 500
    retry_after: float = 1.0
    delay: float = 1.0
    marker: str | None = None
    param: str | None = "notes"
    key: str | None = None
    matched: int = attrs.field(default=0, init=False)
    fired: int = attrs.field(default=0, init=False)

    def __attrs_post_init__(self) -> None:
        if self.nth is not None and self.probability is not None:
            raise ValueError("give nth or probability, not both")

    def matches(
        self, route: str, category: Category | None, method: str, body: bytes = b"", key: str | None = None
    ) -> bool:
        """Whether a request is one this fault is about."""
        return (
            (self.key is None or self.key == key)
            and (self.route is None or self.route == route)
            and (self.category is None or self.category == category)
            and (self.method is None or self.method == method)
            and (self.marker is None or self.marker.encode() in body)
        )

    @property
    def exhausted(self) -> bool:
        """True once it can never fire again."""
        if self.times is not None and self.fired >= self.times:
            return True
        return self.nth is not None and self.matched >= self.nth


@fields_documented(title="Attributes")
@attrs.frozen
class FaultEvent:
    """A fault that fired.

    Attributes:
        request_seq (int): Sequence number of the request in the emulator's log.
        route (str): Endpoint name of the request.
        fault (Fault): The fault.
    """

    request_seq: int = attrs.field(
        metadata=described("Sequence number of the request in the emulator's log.")
    )
    route: str = attrs.field(metadata=described("Endpoint name of the request."))
    fault: Fault = attrs.field(metadata=described("The fault."))


class FaultInjector:
    """The emulator's list of faults: ``emu.faults``.

    Attributes:
        events (list[FaultEvent]): Every fault that fired, in order.
    """

    def __init__(self, seed: int = 0) -> None:
        self._faults: list[Fault] = []
        self._rng = random.Random(seed)
        self.events: list[FaultEvent] = []
        """Every fault that fired, in order."""

    def add(self, *faults: Fault) -> Fault:
        """Arm faults; returns the last one (to remove it later)."""
        if not faults:
            raise ValueError("add() needs at least one Fault")
        self._faults.extend(faults)
        return faults[-1]

    def remove(self, fault: Fault) -> None:
        """Disarm one fault."""
        self._faults.remove(fault)

    def clear(self) -> None:
        """Disarm every fault and forget what fired."""
        self._faults.clear()
        self.events.clear()

    def seed(self, seed: int) -> None:
        """Restart the random draws from ``seed``."""
        self._rng.seed(seed)

    @property
    def armed(self) -> list[Fault]:
        """The faults that may still fire."""
        return [fault for fault in self._faults if not fault.exhausted]

    def pick(
        self,
        request_seq: int,
        route: str,
        category: Category | None,
        method: str,
        body: bytes = b"",
        key: str | None = None,
    ) -> Fault | None:
        """The fault for this request, if one fires. Every matching fault counts the request."""
        chosen: Fault | None = None
        for fault in self._faults:
            if fault.exhausted or not fault.matches(route, category, method, body, key):
                continue
            fault.matched += 1
            if chosen is not None:
                continue
            if fault.nth is not None:
                fires = fault.matched == fault.nth
            elif fault.probability is not None:
                fires = self._rng.random() < fault.probability
            else:
                fires = True
            if fires:
                fault.fired += 1
                chosen = fault
                self.events.append(FaultEvent(request_seq, route, fault))
        return chosen
