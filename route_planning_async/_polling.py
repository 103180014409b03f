"""Waiting for operations, and the workflows built on them.

An optimization is a long-running *operation*, polled with GET
``/operations/<id>`` "with a delay between polls so as to avoid being rate
limited" (contract, Operations). Every poll goes through
``client.operations.get``, so it waits for capacity in the read category like any
other read.

- :func:`wait` (``client.operations.wait``) follows one operation, with a poll
  delay that grows to a cap.
- :func:`wait_many` (``client.operations.wait_many``) follows any number of them
  with one shared poll loop whose rate is capped to a share of the read budget.
- :func:`optimize_and_wait` (``client.plans.optimize_and_wait``) and
  :func:`live_edit` (``client.plans.live_edit``) are the contract's workflows:
  optimize then poll; live changes, then re-optimize, then redistribute or save.

An operation is *finished* when ``done`` is true or ``metadata.canceled`` is set.
A finished operation whose ``result`` has a ``code`` failed (contract,
Operations); :func:`wait` raises
:class:`~route_planning_async.OptimizationFailedError` for it and
:class:`~route_planning_async.OperationCanceledError` for a canceled one.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Awaitable, Iterable
from contextlib import AbstractAsyncContextManager, aclosing
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
from aiolimiter import AsyncLimiter

from route_planning_async import _ids
from route_planning_async._errors import (
    ConflictError,
    OperationCanceledError,
    OperationTimeoutError,
    OptimizationFailedError,
    OptimizationInProgressError,
    RoutePlanningError,
    ValidationError,
)
from route_planning_async._inputs import StopInput, StopUpdate
from route_planning_async._limits import Category
from route_planning_async._models import LiveChange, Operation, OptimizationFailure, Plan, PlanOptimization

if TYPE_CHECKING:
    from route_planning_async._client import RoutePlanningClient

__all__ = [
    "DEFAULT_MAX_POLL_INTERVAL",
    "DEFAULT_POLL_INTERVAL",
    "LiveEdit",
    "live_edit",
    "optimize_and_wait",
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
"""Reads per second of the contract (Limits) when the client has no read limit."""
MAX_IN_PROGRESS_ROUNDS = 5
"""Times an optimize call answered 409 ``plan_optimization_in_progress`` is waited out."""


def _check_intervals(poll_interval: float, max_poll_interval: float) -> None:
    if not poll_interval > 0:
        raise ValidationError("poll_interval", f"must be a positive number of seconds, got {poll_interval}")
    if not max_poll_interval >= poll_interval:
        raise ValidationError(
            "max_poll_interval", f"must be at least poll_interval ({poll_interval}), got {max_poll_interval}"
        )


def _check_timeout(timeout: float | None) -> None:
    if timeout is not None and not timeout >= 0:
        raise ValidationError("timeout", f"must be None or a number of seconds >= 0, got {timeout}")


def _finished(operation: Operation) -> bool:
    return operation.done or operation.metadata.canceled


def _settled(operation: Operation) -> Operation:
    """The finished operation itself on success; raise for a failure or a cancellation."""
    if operation.metadata.canceled:
        raise OperationCanceledError(operation)
    result = operation.result
    if isinstance(result, OptimizationFailure):
        raise OptimizationFailedError(operation, result.code, result.message)
    return operation


def _serialized_operation_id(value: Operation | str) -> str:
    if isinstance(value, Operation):
        return value.id
    return f"operations/{_ids.operation_id(value)}"


class _Deadline:
    """An absolute end time on the loop's clock; None never ends.

    Scoped per await (never across a ``yield``), so a timeout can only cancel
    the library's own awaits, not the caller's code between two items.
    """

    def __init__(self, timeout: float | None, operation_id: str) -> None:
        self._timeout = timeout
        self._operation_id = operation_id
        self._end = None if timeout is None else asyncio.get_running_loop().time() + timeout

    def expired_error(self, operation_id: str | None = None) -> OperationTimeoutError:
        return OperationTimeoutError(operation_id or self._operation_id, self._timeout or 0.0)

    def remaining(self) -> float:
        if self._end is None:
            return math.inf
        return self._end - asyncio.get_running_loop().time()

    async def run(self, awaitable: Awaitable[R], operation_id: str | None = None) -> R:
        """Await ``awaitable``; raise :class:`OperationTimeoutError` when the deadline passes first."""
        if self._end is None:
            return await awaitable
        scope = asyncio.timeout_at(self._end)
        try:
            async with scope:
                return await awaitable
        except TimeoutError:
            if scope.expired():
                raise self.expired_error(operation_id) from None
            raise

    async def sleep(self, seconds: float, operation_id: str | None = None) -> None:
        """Sleep; raise :class:`OperationTimeoutError` at once when the deadline comes first."""
        if seconds > self.remaining():
            await asyncio.sleep(max(0.0, self.remaining()))
            raise self.expired_error(operation_id)
        await asyncio.sleep(max(0.0, seconds))


async def wait(
    client: RoutePlanningClient,
    operation: Operation | str,
    *,
    timeout: float | None = None,  # noqa: ASYNC109 - it raises OperationTimeoutError naming the operation
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    max_poll_interval: float = DEFAULT_MAX_POLL_INTERVAL,
) -> Operation:
    """Wait for one operation to finish and return it (``result`` holds
    ``num_optimized_stops`` and ``skipped_stops``).

    An :class:`Operation` that is already finished is settled at once, without a
    request (small plans come back done from ``:optimize``; contract, States and
    transitions). Otherwise it is polled through ``client.operations.get`` (the
    read category): first after ``poll_interval`` seconds, then with a delay
    multiplied by :data:`POLL_GROWTH` each time, up to ``max_poll_interval``. An
    operation id (``operations/<id>`` or ``<id>``) is fetched once first.

    Cancelling the waiting task stops the polling; the operation itself goes on
    on the service.

    :raises OptimizationFailedError: the result is a failure (``code``, ``message``).
    :raises OperationCanceledError: ``metadata.canceled`` is set.
    :raises OperationTimeoutError: it was not finished after ``timeout`` seconds.
    """
    _check_intervals(poll_interval, max_poll_interval)
    _check_timeout(timeout)
    operation_id = _serialized_operation_id(operation)
    deadline = _Deadline(timeout, operation_id)
    if isinstance(operation, Operation):
        current = operation
    else:
        current = await deadline.run(client.operations.get(operation_id))
    delay = poll_interval
    while not _finished(current):
        await deadline.sleep(delay)
        current = await deadline.run(client.operations.get(operation_id))
        delay = min(delay * POLL_GROWTH, max_poll_interval)
    return _settled(current)


def read_rate(client: RoutePlanningClient) -> float:
    """The read category's sustained rate (requests per second) of the client's limits."""
    rates = [
        rule.amount / rule.period
        for rule in client.rate_limits.for_category(Category.READ)
        if rule.per == "request"
    ]
    return min(rates) if rates else CONTRACT_READ_RATE


@attrs.define
class _Pending:
    """An operation that :func:`wait_many` still polls."""

    id: str
    """Its serialized id."""
    checked: float
    """Loop time its state was last learnt; -inf for an id never fetched."""
    started: float
    """When it started (epoch seconds); +inf while unknown."""
    due: float
    """Loop time of its next poll."""
    delay: float
    """The delay that follows its next poll, when it is still running then."""
    order: int
    """Position in the input, for ties."""

    def priority(self) -> tuple[float, float, int]:
        # Unseen the longest first (the most likely to have finished since), then
        # the oldest: under a tight read share this is a fair round robin.
        return (self.checked, self.started, self.order)


async def wait_many(
    client: RoutePlanningClient,
    operations: Iterable[Operation | str],
    *,
    read_share: float = 0.5,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    max_poll_interval: float = DEFAULT_MAX_POLL_INTERVAL,
    raise_on_failure: bool = False,
    timeout: float | None = None,  # noqa: ASYNC109 - it raises OperationTimeoutError naming the operation
) -> AsyncIterator[Operation]:
    """Yield operations as they finish, from one shared poll loop.

    N operations cost one loop, not N pollers. Polls are spread so that the
    loop never uses more than ``read_share`` of the read category's rate
    (:func:`read_rate`; an :class:`aiolimiter.AsyncLimiter` holds that cap, and
    every poll still passes the scheduler's read limits). Each operation has its
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
    operation and ends. An operation given twice is yielded once.

    Use it with ``async for``; break out (or close it with
    :func:`contextlib.aclosing`) to stop polling early.

    :raises OperationTimeoutError: some operation was not finished after
        ``timeout`` seconds (it names the first one still pending).
    """
    _check_intervals(poll_interval, max_poll_interval)
    _check_timeout(timeout)
    if not 0 < read_share <= 1:
        raise ValidationError("read_share", f"must be more than 0 and at most 1, got {read_share}")
    loop = asyncio.get_running_loop()
    poll_rate = read_share * read_rate(client)
    # One poll at a time at the average rate: a bucket of one never bursts.
    limiter = AsyncLimiter(1, 1 / poll_rate)
    deadline = _Deadline(timeout, "")

    def deliver(operation: Operation) -> Operation:
        return _settled(operation) if raise_on_failure else operation

    pending: dict[str, _Pending] = {}
    seen: set[str] = set()
    finished: list[Operation] = []
    now = loop.time()
    for order, item in enumerate(operations):
        operation_id = _serialized_operation_id(item)
        if operation_id in seen:
            continue
        seen.add(operation_id)
        if isinstance(item, Operation):
            if _finished(item):
                finished.append(item)
            else:
                pending[operation_id] = _Pending(
                    operation_id, now, _started(item), now + poll_interval, poll_interval * POLL_GROWTH, order
                )
        else:
            pending[operation_id] = _Pending(operation_id, -math.inf, math.inf, now, poll_interval, order)
    for operation in finished:
        yield deliver(operation)

    while pending:
        first = min(pending.values(), key=lambda p: p.due)
        await deadline.sleep(first.due - loop.time(), first.id)
        await deadline.run(limiter.acquire(), first.id)
        now = loop.time()
        due = [p for p in pending.values() if p.due <= now] or [first]
        chosen = min(due, key=_Pending.priority)
        operation = await deadline.run(client.operations.get(chosen.id), chosen.id)
        if _finished(operation):
            del pending[chosen.id]
            yield deliver(operation)
        else:
            chosen.started = _started(operation)
            chosen.checked = loop.time()
            chosen.due = chosen.checked + chosen.delay
            chosen.delay = min(chosen.delay * POLL_GROWTH, max_poll_interval)


def _started(operation: Operation) -> float:
    started_at = operation.metadata.started_at
    return started_at.timestamp() if started_at is not None else math.inf


# Workflows ---------------------------------------------------------------------


async def _wait_until_not_optimizing(
    client: RoutePlanningClient,
    plan_id: str,
    deadline: _Deadline,
    poll_interval: float,
    max_poll_interval: float,
) -> Plan:
    """Poll the plan until its ``optimization`` is no longer ``optimizing``."""
    delay = poll_interval
    while True:
        await deadline.sleep(delay)
        plan = await deadline.run(client.plans.get(plan_id))
        if plan.optimization != PlanOptimization.OPTIMIZING:
            return plan
        delay = min(delay * POLL_GROWTH, max_poll_interval)


_OPTIMIZATIONS = "plan_optimization"


def _recency(operation: Operation) -> tuple[float, float]:
    """Sort key of the most recent operation: started, then finished (unknown times first)."""
    started = operation.metadata.started_at
    finished = operation.metadata.finished_at
    return (
        started.timestamp() if started is not None else -math.inf,
        finished.timestamp() if finished is not None else -math.inf,
    )


async def _running_optimization(client: RoutePlanningClient, plan_ref: str) -> Operation | None:
    """The plan's optimization that is still running, from the operation list; None when none is."""
    listing = client.operations.list(filter={"done": False, "type": _OPTIMIZATIONS})
    async with aclosing(listing.pages()) as pages:
        async for page in pages:
            for operation in page.items:
                # A plan runs one optimization at a time (409 otherwise), so the first match is it.
                if operation.metadata.target_plan_id == plan_ref and not _finished(operation):
                    return operation
    return None


async def _latest_optimization(client: RoutePlanningClient, plan_ref: str) -> Operation | None:
    """The plan's most recent finished optimization, from the operation list; None when it shows none.

    The public API documentation gives the list no order, so every page is read.
    """
    latest: Operation | None = None
    listing = client.operations.list(filter={"done": True, "type": _OPTIMIZATIONS})
    async for operation in listing:
        if operation.metadata.target_plan_id != plan_ref:
            continue
        if latest is None or _recency(operation) > _recency(latest):
            latest = operation
    return latest


async def optimize_and_wait(
    client: RoutePlanningClient,
    plan_id: str,
    *,
    timeout: float | None = None,  # noqa: ASYNC109 - it raises OperationTimeoutError naming the operation
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    max_poll_interval: float = DEFAULT_MAX_POLL_INTERVAL,
) -> Operation:
    """Optimize a plan, wait for the result, and return the finished :class:`Operation`.

    The ``:optimize`` call waits in the scheduler's optimize category (3 per
    minute by default) like any other, and the operation is waited for like
    :func:`wait` does. When the service answers 409
    ``plan_optimization_in_progress``, another optimization of the plan is
    running (an ``:optimize`` or a ``:reoptimize``, by anyone). It is found in
    the operation list (``client.operations.list`` with ``done`` false and type
    ``plan_optimization``, by ``metadata.target_plan_id``; the contract does not
    show that list, the public API documentation does), and that operation is
    waited for and returned, or raised for, exactly as if this call had started it.

    When the list shows no running optimization of the plan (it finished
    between the 409 and the listing), the plan is polled (read category) until
    its ``optimization`` is no longer ``optimizing``, and then:

    - if the plan is writable again (that optimization failed or was canceled),
      it is optimized again and waited for, as if nothing had happened;
    - otherwise the plan's most recent finished optimization is looked up in the
      operation list (every page of the finished ones, since the list has no
      documented order) and returned, or raised for like :func:`wait`.

    :raises OptimizationFailedError: the optimization failed.
    :raises OperationCanceledError: it was canceled.
    :raises OperationTimeoutError: it did not finish within ``timeout`` seconds.
    :raises OptimizationInProgressError: the plan stayed busy for
        :data:`MAX_IN_PROGRESS_ROUNDS` optimizations in a row.
    :raises RoutePlanningError: the plan was optimized by an operation that the
        operation list does not show at all (then no operation can be returned).
    """
    _check_intervals(poll_interval, max_poll_interval)
    _check_timeout(timeout)
    checked = _ids.plan_id(plan_id)
    plan_ref = f"plans/{checked}"
    deadline = _Deadline(timeout, plan_ref)
    for _ in range(MAX_IN_PROGRESS_ROUNDS):
        try:
            operation = await deadline.run(client.plans.optimize(checked))
        except OptimizationInProgressError as busy:
            last_busy = busy
            running = await deadline.run(_running_optimization(client, plan_ref))
            if running is None:
                plan = await _wait_until_not_optimizing(
                    client, checked, deadline, poll_interval, max_poll_interval
                )
                if plan.writable:
                    continue
                latest = await deadline.run(_latest_optimization(client, plan_ref))
                if latest is None:
                    raise RoutePlanningError(
                        f"{plan_ref} was optimized by an operation the operation list does not show"
                    ) from busy
                return _settled(latest)
            operation = running
        remaining = deadline.remaining()
        return await wait(
            client,
            operation,
            timeout=None if math.isinf(remaining) else max(0.0, remaining),
            poll_interval=poll_interval,
            max_poll_interval=max_poll_interval,
        )
    raise last_busy


class LiveEdit:
    """The changes of one :func:`live_edit` block, sent as they are made."""

    def __init__(self, client: RoutePlanningClient, plan_id: str) -> None:
        self._client = client
        self.plan_id = plan_id
        """The bare id of the plan being edited."""
        self.changes: list[LiveChange] = []
        """The answers of every live call made in the block, in order."""
        self.operation: Operation | None = None
        """The re-optimization, once the block has been applied."""
        self.plan: Plan | None = None
        """The plan returned by ``:redistribute`` (None with ``distribute=False``)."""

    def __repr__(self) -> str:
        return f"<LiveEdit plans/{self.plan_id} changes={len(self.changes)}>"

    @property
    def pending(self) -> bool:
        """Whether a change of the block waits for re-optimization on the service."""
        return any(change.pending for change in self.changes)

    def _own_stop(self, stop_id: str) -> str:
        plan, _ = _ids.stop_ref(stop_id)
        if plan != self.plan_id:
            raise ValidationError("stop_id", f"{stop_id!r} is not a stop of plans/{self.plan_id}")
        return stop_id

    async def create(self, stop: StopInput) -> LiveChange:
        """Add a stop (``client.stops.live_create``); ``change.stop`` is the new stop."""
        change = await self._client.stops.live_create(self.plan_id, stop)
        self.changes.append(change)
        return change

    async def update(self, stop_id: str, update: StopUpdate | None = None, /, **fields: Any) -> LiveChange:
        """Change a stop (``client.stops.live_update``): a :class:`StopUpdate` or its fields."""
        change = await self._client.stops.live_update(self._own_stop(stop_id), update, **fields)
        self.changes.append(change)
        return change

    async def delete(self, stop_id: str) -> LiveChange:
        """Remove a stop (``client.stops.live_delete``); applied by the re-optimization too."""
        change = await self._client.stops.live_delete(self._own_stop(stop_id))
        self.changes.append(change)
        return change


async def _apply_live_changes(
    client: RoutePlanningClient,
    edit: LiveEdit,
    *,
    distribute: bool,
    optimization_type: str | None,
    deadline: _Deadline,
    poll_interval: float,
    max_poll_interval: float,
) -> None:
    """Re-optimize, wait, then redistribute or save."""
    for _ in range(MAX_IN_PROGRESS_ROUNDS):
        try:
            operation = await deadline.run(
                client.plans.reoptimize(edit.plan_id, optimization_type=optimization_type)
            )
        except OptimizationInProgressError as busy:
            last_busy = busy
            await _wait_until_not_optimizing(client, edit.plan_id, deadline, poll_interval, max_poll_interval)
            continue
        except ConflictError as conflict:
            if conflict.code == "plan_already_optimized":
                # Every pending change was undone inside the block (a live create
                # then deleted): the service has nothing left to apply.
                return
            raise
        break
    else:
        raise last_busy
    remaining = deadline.remaining()
    edit.operation = await wait(
        client,
        operation,
        timeout=None if math.isinf(remaining) else max(0.0, remaining),
        poll_interval=poll_interval,
        max_poll_interval=max_poll_interval,
    )
    if distribute:
        edit.plan = await client.plans.redistribute(edit.plan_id)
    else:
        await client.plans.save(edit.plan_id)


class _LiveEditContext(AbstractAsyncContextManager[LiveEdit]):
    """What :func:`live_edit` returns: enter it with ``async with``."""

    def __init__(
        self,
        edit: LiveEdit,
        *,
        distribute: bool,
        optimization_type: str | None,
        timeout: float | None,
        poll_interval: float,
        max_poll_interval: float,
    ) -> None:
        self._edit = edit
        self._distribute = distribute
        self._optimization_type = optimization_type
        self._timeout = timeout
        self._poll_interval = poll_interval
        self._max_poll_interval = max_poll_interval

    async def __aenter__(self) -> LiveEdit:
        return self._edit

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is not None:
            # The block failed: nothing is applied, and the exception propagates.
            return
        if not self._edit.pending:
            # No change waits on the service (none was made, or the plan was
            # writable and took them at once): there is nothing to apply.
            return
        await _apply_live_changes(
            self._edit._client,
            self._edit,
            distribute=self._distribute,
            optimization_type=self._optimization_type,
            deadline=_Deadline(self._timeout, f"plans/{self._edit.plan_id}"),
            poll_interval=self._poll_interval,
            max_poll_interval=self._max_poll_interval,
        )


def live_edit(
    client: RoutePlanningClient,
    plan_id: str,
    *,
    distribute: bool = True,
    optimization_type: str | None = None,
    timeout: float | None = None,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    max_poll_interval: float = DEFAULT_MAX_POLL_INTERVAL,
) -> AbstractAsyncContextManager[LiveEdit]:
    """Edit a plan that is not writable, and apply the changes on a clean exit::

        async with live_edit(client, plan_id) as edit:
            await edit.create(StopInput(address=AddressInput(address_line_one="1 Main St")))
            await edit.update(stop_id, notes="Ring twice")
            await edit.delete(other_stop_id)

    Each call is sent at once through ``client.stops.live_create`` /
    ``live_update`` / ``live_delete`` (write category) and answered with a
    :class:`LiveChange`; the service keeps the changes pending. When the block
    exits cleanly and a change is pending, the plan is re-optimized
    (``:reoptimize`` with ``optimization_type``, even when the only change is a
    deletion: contract, Stops rule 5), the operation is waited for, and the plan
    is redistributed (``:redistribute``), or saved (``:save``) when
    ``distribute=False``. ``edit.operation`` and ``edit.plan`` then hold the
    results. A 409 ``plan_optimization_in_progress`` is waited out by polling the
    plan until it is no longer ``optimizing``, then re-optimizing.

    When the block raises, nothing is applied and the exception propagates. The
    live calls already made stay pending on the service (``edit.changes`` lists
    them): drivers do not see them, and the next re-optimization of the plan
    (by anyone) applies them together with its own changes, unless they are
    undone with further live calls first. A failed re-optimization
    (:class:`OptimizationFailedError`) leaves them pending the same way.

    :param distribute: ``:redistribute`` after the re-optimization (True), or ``:save``.
    :param optimization_type: a :class:`ReoptimizationType` value; the service's
        default (``reorder_changed_stops``) when None.
    :param timeout: seconds for applying the changes (the re-optimization and the
        wait for it); :class:`OperationTimeoutError` after that, changes still pending.
    """
    _check_intervals(poll_interval, max_poll_interval)
    _check_timeout(timeout)
    return _LiveEditContext(
        LiveEdit(client, _ids.plan_id(plan_id)),
        distribute=distribute,
        optimization_type=optimization_type,
        timeout=timeout,
        poll_interval=poll_interval,
        max_poll_interval=max_poll_interval,
    )
