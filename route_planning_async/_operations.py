"""Waiting for operations to finish, on the scheduler's clock.

An optimization is a long-running *operation*, polled with GET
``/operations/<id>`` "with a delay between polls so as to avoid being rate
limited" (contract, Operations). This room holds the waiting and nothing else:

- :func:`wait` (``client.operations.wait``) follows one operation, with a poll
  delay that grows to a cap;
- :func:`wait_many` (``client.operations.wait_many``) follows any number of them
  with one shared poll loop whose rate is capped to a share of the read budget;
- the poll-interval defaults, the waiting options (:class:`PollOptions`,
  :class:`WaitManyOptions`), read and checked into :class:`Polling` and
  :class:`ManyPolling` (whose fields hold each option's text), and the deadline
  that every wait keeps.

It knows nothing of the client, nor of an API version: every poll goes through an
:class:`OperationReader` (``client.operations``, whose ``get`` waits for
capacity in the read category like any other read), and all time is read and
slept on the :class:`~route_planning_async._scheduler.Clock` it is given (the
scheduler's), never on the event loop directly: the first-poll delay, the
growing delays, the deadline and the share cap. Tests hand in a fake clock or
run the default loop clock on a virtual-time loop, and assert exact schedules.

The share cap of :func:`wait_many` allows one poll at a time at the average
rate, so two polls are never closer than ``1 / (read_share * read rate)``
seconds. That is exactly what an ``aiolimiter.AsyncLimiter(1, period)`` (a
bucket of one) did here before; it is now one sleep on the same clock as every
other wait of this module, which keeps a single time source and makes the
schedule exact, instead of a second limiter beside the scheduler that reads the
loop's time on its own.

An operation is *finished* when ``done`` is true or ``metadata.canceled`` is set.
A finished operation whose ``result`` has a ``code`` failed (contract,
Operations). That is all this room reads of an operation (:class:`OperationState`),
so it waits for any version's operations; :func:`wait` raises
:class:`~route_planning_async.OptimizationFailedError` for it and
:class:`~route_planning_async.OperationCanceledError` for a canceled one.
"""

from __future__ import annotations

import asyncio
import datetime
import math
from collections.abc import AsyncGenerator, Awaitable, Iterable
from typing import Protocol, Self, TypedDict, TypeVar, Unpack, runtime_checkable

import attrs

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import check_options
from route_planning_async._docs import described
from route_planning_async._errors import (
    ConflictError,
    OperationCanceledError,
    OperationTimeoutError,
    OptimizationFailedError,
    RoutePlanningError,
    ValidationError,
)
from route_planning_async._rate_limits._limits import Category, RateLimits
from route_planning_async._scheduler import Clock

__all__ = [
    "CONTRACT_READ_RATE",
    "DEFAULT_MAX_POLL_INTERVAL",
    "DEFAULT_POLL_INTERVAL",
    "POLL_GROWTH",
    "Deadline",
    "Failure",
    "ManyPolling",
    "OperationCanceller",
    "OperationMetadata",
    "OperationReader",
    "OperationState",
    "PollOptions",
    "Polling",
    "WaitManyOptions",
    "check_intervals",
    "check_timeout",
    "finished",
    "poll_until_finished",
    "read_rate",
    "settled",
    "wait",
    "wait_many",
]

R = TypeVar("R")

DEFAULT_POLL_INTERVAL = 1.0
"""Seconds before the first poll of an operation that is not done."""
DEFAULT_MAX_POLL_INTERVAL = 15.0
"""The cap of the growing delay between two polls of one operation."""
POLL_GROWTH = 1.5
"""Each poll of an operation that is still running multiplies its delay by this."""
CONTRACT_READ_RATE = 10.0
"""Reads per second of the contract (Limits) when the limits have no read rule."""


class OperationMetadata(Protocol):
    """What waiting reads of an operation's ``metadata``."""

    @property
    def canceled(self) -> bool:
        """Whether the operation was canceled (it will never produce a result)."""

    @property
    def started_at(self) -> datetime.datetime | None:
        """When the operation started, when the service says."""


@runtime_checkable
class Failure(Protocol):
    """The ``result`` of a failed operation: it has a ``code`` (contract, Operations)."""

    code: str
    """The failure's machine-readable code."""
    message: str
    """What went wrong."""


class OperationState(Protocol):
    """What waiting reads of an operation (``Operation`` of the API version)."""

    @property
    def id(self) -> str:
        """The serialized id, ``operations/<id>``."""

    @property
    def done(self) -> bool:
        """Whether the operation finished."""

    @property
    def metadata(self) -> OperationMetadata:
        """Whether it was canceled, and when it started."""

    @property
    def result(self) -> object:
        """Its result once done: a :class:`Failure` when it failed."""


OperationT = TypeVar("OperationT", bound=OperationState)
OperationT_co = TypeVar("OperationT_co", bound=OperationState, covariant=True)


class OperationReader(Protocol[OperationT_co]):
    """What waiting needs of the service: one operation by id (``client.operations``)."""

    async def get(self, operation_id: str) -> OperationT_co:
        """The operation ``operations/<id>`` as the service has it now."""


@runtime_checkable
class OperationCanceller(OperationReader[OperationT_co], Protocol[OperationT_co]):
    """A reader that can also cancel an operation (``client.operations``), for ``cancel_on_timeout``."""

    async def cancel(self, operation_id: str) -> OperationT_co:
        """Cancel ``operations/<id>`` on the service (public API documentation, ``:cancel``)."""


class PollOptions(TypedDict, total=False):
    """The options of every wait (``operations.wait``, ``plans.optimize_and_wait``);
    :class:`Polling` says what each one is."""

    timeout: float | None
    poll_interval: float
    max_poll_interval: float
    cancel_on_timeout: bool


class WaitManyOptions(PollOptions, total=False):
    """The options of ``operations.wait_many``; :class:`ManyPolling` says what each one is."""

    read_share: float
    raise_on_failure: bool


def _default_cap(poll_interval: object) -> float:
    """The cap of a wait that gives none: a first delay above the usual cap is the cap (a
    client's ``poll_interval=20`` is no contradiction, as ``20`` with ``max_poll_interval=15`` is)."""
    if isinstance(poll_interval, int | float) and not isinstance(poll_interval, bool):
        return max(DEFAULT_MAX_POLL_INTERVAL, poll_interval)
    return DEFAULT_MAX_POLL_INTERVAL  # refused by check_intervals, with the option's name


def check_intervals(poll_interval: float, max_poll_interval: float) -> None:
    """Refuse a poll interval that is not positive, or a cap below it."""
    if not poll_interval > 0:
        raise ValidationError("poll_interval", f"must be a positive number of seconds, got {poll_interval}")
    if not max_poll_interval >= poll_interval:
        raise ValidationError(
            "max_poll_interval", f"must be at least poll_interval ({poll_interval}), got {max_poll_interval}"
        )


def check_timeout(timeout: float | None) -> None:
    """Refuse a timeout that is neither None nor a number of seconds >= 0."""
    if timeout is not None and not timeout >= 0:
        raise ValidationError("timeout", f"must be None or a number of seconds >= 0, got {timeout}")


@attrs.frozen
class Polling:
    """How one wait polls: the :class:`PollOptions` of a call, checked, with their defaults.

    Each field's text is what every waiting method's docstring says of its option.
    """

    timeout: float | None = attrs.field(
        default=None,
        metadata=described("Seconds before :class:`OperationTimeoutError`; None waits for ever."),
    )
    poll_interval: float = attrs.field(
        default=DEFAULT_POLL_INTERVAL,
        metadata=described("Seconds before the first poll; the delay grows after each poll."),
    )
    max_poll_interval: float = attrs.field(
        default=attrs.Factory(lambda self: _default_cap(self.poll_interval), takes_self=True),
        metadata=described(
            """The cap of the growing delay between two polls. Default 15.0, or
            ``poll_interval`` when that is longer."""
        ),
    )
    cancel_on_timeout: bool = attrs.field(
        default=False,
        metadata=described(
            """On :class:`OperationTimeoutError`, cancel the operation on the service too
            (``operations.cancel``; not in the contract, the public API documentation's
            ``:cancel``); otherwise the operation goes on."""
        ),
    )

    def __attrs_post_init__(self) -> None:
        check_intervals(self.poll_interval, self.max_poll_interval)
        check_timeout(self.timeout)

    @classmethod
    def of(cls, options: PollOptions) -> Self:
        """The settings ``options`` give, the defaults for the others."""
        return cls(**options)

    def next_delay(self, delay: float) -> float:
        """The delay after ``delay``, for an operation that is still running: grown, capped."""
        return min(delay * POLL_GROWTH, self.max_poll_interval)


@attrs.frozen
class ManyPolling(Polling):
    """How :func:`wait_many` polls: the :class:`WaitManyOptions` of a call, checked, with their defaults."""

    read_share: float = attrs.field(
        default=0.5,
        metadata=described("The share (0 < share <= 1) of the read category's rate the poll loop may use."),
    )
    raise_on_failure: bool = attrs.field(
        default=False,
        metadata=described("Raise at the first failed or canceled operation instead of yielding it."),
    )

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if not 0 < self.read_share <= 1:
            raise ValidationError("read_share", f"must be more than 0 and at most 1, got {self.read_share}")


def finished(operation: OperationState) -> bool:
    """Whether the operation is over: done, or canceled."""
    return operation.done or operation.metadata.canceled


def settled(operation: OperationT) -> OperationT:
    """The finished operation itself on success; raise for a failure or a cancellation."""
    if operation.metadata.canceled:
        raise OperationCanceledError(operation)
    result = operation.result
    if isinstance(result, Failure):
        raise OptimizationFailedError(operation, result.code, result.message)
    return operation


def _serialized_operation_id(value: OperationState | str) -> str:
    """The serialized id of an operation or of its id; anything else is refused as every
    id-taking method refuses it (a ``ValidationError`` before anything is sent)."""
    if isinstance(value, str):
        return f"operations/{_ids.operation_id(value)}"
    given: object = value
    if not isinstance(getattr(given, "id", None), str) or not hasattr(given, "metadata"):
        _ids.operation_id(given, "operation")
    return value.id


class Deadline:
    """An absolute end time on a :class:`Clock`; a timeout of None never ends.

    Scoped per await (never across a ``yield``), so a timeout can only cancel
    the library's own awaits, not the caller's code between two items.
    """

    def __init__(self, clock: Clock, timeout: float | None, operation_id: str) -> None:
        self._clock = clock
        self._timeout = timeout
        self._operation_id = operation_id
        self._end = None if timeout is None else clock.now() + timeout

    def expired_error(self, operation_id: str | None = None) -> OperationTimeoutError:
        """The error of this deadline, naming ``operation_id`` (else the one it was made for)."""
        return OperationTimeoutError(operation_id or self._operation_id, self._timeout or 0.0)

    def remaining(self) -> float:
        """Seconds of the clock left; ``math.inf`` without a timeout, negative once past."""
        if self._end is None:
            return math.inf
        return self._end - self._clock.now()

    def timeout_left(self) -> float | None:
        """What is left as a timeout for a nested wait: None without one, else >= 0."""
        remaining = self.remaining()
        return None if math.isinf(remaining) else max(0.0, remaining)

    async def run(self, awaitable: Awaitable[R], operation_id: str | None = None) -> R:
        """Await ``awaitable``; raise :class:`OperationTimeoutError` when the deadline passes first.

        A timer task sleeps on the clock until the end and then cancels this
        task, the way :func:`asyncio.timeout` does with a loop timer; a
        cancellation from anyone else still propagates as one.
        """
        if self._end is None:
            return await awaitable
        task = asyncio.current_task()
        assert task is not None, "Deadline.run needs a running task"
        cancelling = task.cancelling()
        expired = over = False

        def expire(timer: asyncio.Task[None]) -> None:
            nonlocal expired
            if not over and not timer.cancelled() and timer.exception() is None:
                expired = True
                task.cancel()

        timer = asyncio.ensure_future(self._clock.sleep(max(0.0, self.remaining())))
        timer.add_done_callback(expire)
        try:
            return await awaitable
        except asyncio.CancelledError:
            if expired and task.uncancel() <= cancelling:
                raise self.expired_error(operation_id) from None
            raise
        finally:
            over = True
            timer.cancel()

    async def sleep(self, seconds: float, operation_id: str | None = None) -> None:
        """Sleep on the clock; raise :class:`OperationTimeoutError` at once when the deadline comes first."""
        remaining = self.remaining()
        if seconds > remaining:
            await self._clock.sleep(max(0.0, remaining))
            raise self.expired_error(operation_id)
        await self._clock.sleep(max(0.0, seconds))


async def wait(
    reader: OperationReader[OperationT],
    operation: OperationT | str,
    *,
    clock: Clock,
    **options: Unpack[PollOptions],
) -> OperationT:
    """Wait for one operation to finish and return it (``result`` holds
    ``num_optimized_stops`` and ``skipped_stops``).

    An operation that is already finished is settled at once, without a
    request (small plans come back done from ``:optimize``; contract, States and
    transitions). Otherwise it is polled through ``reader.get`` (the read
    category): first after ``poll_interval`` seconds, then with a delay
    multiplied by :data:`POLL_GROWTH` each time, up to ``max_poll_interval``. An
    operation id (``operations/<id>`` or ``<id>``) is fetched once first.

    Cancelling the waiting task stops the polling; the operation itself goes on
    on the service. With ``cancel_on_timeout=True`` a timeout also cancels the
    operation on the service (``reader`` must have a ``cancel`` method, as
    ``client.operations`` does); the error's notes say whether that worked.

    Raises:
        OptimizationFailedError: The result is a failure (``code``, ``message``).
        OperationCanceledError: ``metadata.canceled`` is set.
        OperationTimeoutError: It was not finished after ``timeout`` seconds.
    """
    check_options(options, PollOptions.__optional_keys__, "wait")
    return await poll_until_finished(reader, operation, clock=clock, polling=Polling.of(options))


async def poll_until_finished(
    reader: OperationReader[OperationT], operation: OperationT | str, *, clock: Clock, polling: Polling
) -> OperationT:
    """:func:`wait`, with its options already read into ``polling``."""
    operation_id = _serialized_operation_id(operation)
    canceller = _canceller(reader, polling)
    deadline = Deadline(clock, polling.timeout, operation_id)
    try:
        if isinstance(operation, str):
            current = await deadline.run(reader.get(operation_id))
        else:
            current = operation
        delay = polling.poll_interval
        while not finished(current):
            await deadline.sleep(delay)
            current = await deadline.run(reader.get(operation_id))
            delay = polling.next_delay(delay)
    except OperationTimeoutError as timed_out:
        if canceller is not None:
            await cancel_after_timeout(canceller, operation_id, timed_out)
        raise
    return settled(current)


def _canceller(
    reader: OperationReader[OperationT], polling: Polling
) -> OperationCanceller[OperationT] | None:
    """The reader as a canceller when ``cancel_on_timeout`` is asked for; None otherwise."""
    if not polling.cancel_on_timeout:
        return None
    if not isinstance(reader, OperationCanceller):
        raise ValidationError("cancel_on_timeout", "needs operations that can be canceled (a cancel method)")
    return reader


async def cancel_after_timeout(
    canceller: OperationCanceller[OperationState], operation_id: str, timed_out: OperationTimeoutError
) -> None:
    """Cancel an operation whose wait timed out; what happened goes into the error's notes.

    An operation that finished in the meantime answers 409
    ``operation_already_done``; any other failure of the cancel call is noted
    too, and the timeout is raised all the same (by the caller).
    """
    try:
        await canceller.cancel(operation_id)
    except ConflictError as exc:
        timed_out.add_note(f"{operation_id} was not canceled: it finished first ({exc.code})")
    except RoutePlanningError as exc:
        timed_out.add_note(f"{operation_id} could not be canceled: {exc}")
    else:
        timed_out.add_note(f"{operation_id} was canceled on the service")


def read_rate(limits: RateLimits) -> float:
    """The read category's sustained rate (requests per second) under ``limits``."""
    rates = [
        rule.amount / rule.period for rule in limits.for_category(Category.READ) if rule.per == "request"
    ]
    return min(rates) if rates else CONTRACT_READ_RATE


@attrs.define
class _Pending:
    """An operation that :func:`wait_many` still polls."""

    id: str
    """Its serialized id."""
    checked: float
    """Clock time its state was last learnt; -inf for an id never fetched."""
    started: float
    """When it started (epoch seconds); +inf while unknown."""
    due: float
    """Clock time of its next poll."""
    delay: float
    """The delay that follows its next poll, when it is still running then."""
    order: int
    """Position in the input, for ties."""

    def priority(self) -> tuple[float, float, int]:
        # Unseen the longest first (the most likely to have finished since), then
        # the oldest: under a tight read share this is a fair round robin.
        return (self.checked, self.started, self.order)


def _started(operation: OperationState) -> float:
    started_at = operation.metadata.started_at
    return started_at.timestamp() if started_at is not None else math.inf


async def wait_many(
    reader: OperationReader[OperationT],
    operations: Iterable[OperationT | str],
    *,
    clock: Clock,
    limits: RateLimits,
    **options: Unpack[WaitManyOptions],
) -> AsyncGenerator[OperationT, None]:
    """Yield operations as they finish, from one shared poll loop.

    N operations cost one loop, not N pollers. Polls are spaced so that the
    loop never uses more than ``read_share`` of the read category's rate in
    ``limits`` (:func:`read_rate`): two polls are at least
    ``1 / (read_share * read_rate(limits))`` seconds of ``clock`` apart, and
    every poll still passes the scheduler's read limits. Each operation has its
    own delay, growing like :func:`wait`'s. Among the operations that are due,
    the one unseen the longest (then the one that started first) is polled
    first: it is the most likely to have finished, and when the read share is
    too small for every operation's own delay, the operations share it round
    robin instead of the first ones starving the rest.

    Finished operations are yielded in the order they are seen to finish; the
    ones given already finished come first, without a request. Failed and
    canceled operations are yielded like the others (look at ``result`` and
    ``metadata.canceled``), so one failed plan does not hide the rest; with
    ``raise_on_failure=True`` the iteration instead raises
    :class:`OptimizationFailedError` or :class:`OperationCanceledError` at that
    operation and ends. An operation given twice is yielded once. The options
    are checked when the iteration starts.

    Use it with ``async for``; break out (or close it with
    :func:`contextlib.aclosing`) to stop polling early.

    Raises:
        OperationTimeoutError: Some operation was not finished after
            ``timeout`` seconds (it names the first one still pending); with
            ``cancel_on_timeout=True`` every operation still pending is then
            canceled on the service first.
    """
    check_options(options, WaitManyOptions.__optional_keys__, "wait_many")
    polling = ManyPolling.of(options)
    spacing = 1 / (polling.read_share * read_rate(limits))
    canceller = _canceller(reader, polling)
    deadline = Deadline(clock, polling.timeout, "")

    def deliver(operation: OperationT) -> OperationT:
        return settled(operation) if polling.raise_on_failure else operation

    pending: dict[str, _Pending] = {}
    seen: set[str] = set()
    given_finished: list[OperationT] = []
    now = clock.now()
    for order, item in enumerate(operations):
        operation_id = _serialized_operation_id(item)
        if operation_id in seen:
            continue
        seen.add(operation_id)
        if isinstance(item, str):
            pending[operation_id] = _Pending(
                operation_id, -math.inf, math.inf, now, polling.poll_interval, order
            )
        elif finished(item):
            given_finished.append(item)
        else:
            pending[operation_id] = _Pending(
                operation_id,
                now,
                _started(item),
                now + polling.poll_interval,
                polling.next_delay(polling.poll_interval),
                order,
            )
    for operation in given_finished:
        yield deliver(operation)

    next_poll = -math.inf
    while pending:
        try:
            first = min(pending.values(), key=lambda p: p.due)
            await deadline.sleep(first.due - clock.now(), first.id)
            # The share cap: one poll at a time at the average rate never bursts.
            gap = next_poll - clock.now()
            if gap > 0:
                await deadline.sleep(gap, first.id)
            now = clock.now()
            next_poll = now + spacing
            due = [p for p in pending.values() if p.due <= now] or [first]
            chosen = min(due, key=_Pending.priority)
            operation = await deadline.run(reader.get(chosen.id), chosen.id)
        except OperationTimeoutError as timed_out:
            if canceller is not None:
                # Every operation still waited for, one at a time (write category).
                for operation_id in list(pending):
                    await cancel_after_timeout(canceller, operation_id, timed_out)
            raise
        if finished(operation):
            del pending[chosen.id]
            yield deliver(operation)
        else:
            chosen.started = _started(operation)
            chosen.checked = clock.now()
            chosen.due = chosen.checked + chosen.delay
            chosen.delay = polling.next_delay(chosen.delay)
