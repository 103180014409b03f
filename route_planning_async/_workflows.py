"""The plan workflows of the contract, built on waiting for operations.

- :func:`optimize_and_wait` (``client.plans.optimize_and_wait``): optimize a
  plan, then wait for the operation, the one it started or the one already
  running;
- :func:`live_edit` (``client.plans.live_edit``, yielding a :class:`LiveEdit`):
  live changes to a plan that is not writable, then re-optimize, wait, and
  redistribute or save.

The workflows never see the client, nor an API version. They take the
resource namespaces they call, typed by the small protocols declared here
(:class:`PlanCalls`, :class:`OperationCalls`; ``client.plans`` and
``client.operations`` satisfy them), read of a plan, an operation and a live
change only what :class:`PlanState`, :class:`Optimization` and
:class:`LiveChangeState` say, and wait on the scheduler's
:class:`~route_planning_async._scheduler.Clock`, on which every delay and
deadline runs (``_operations.py``). A version's :class:`LiveEdit` adds the live
stop calls, typed with its inputs (its package's ``_live_edit.py``).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import AsyncGenerator, Mapping
from contextlib import AbstractAsyncContextManager, aclosing
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar, Unpack

import attrs

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import check_options
from route_planning_async._docs import described, keywords_documented, keywords_of
from route_planning_async._errors import (
    ConflictError,
    OptimizationInProgressError,
    RoutePlanningError,
    ValidationError,
)
from route_planning_async._operations import (
    Deadline,
    OperationMetadata,
    OperationReader,
    OperationState,
    Polling,
    PollOptions,
    finished,
    poll_until_finished,
    settled,
)
from route_planning_async._pagination import FilterValue
from route_planning_async._scheduler import Clock

__all__ = [
    "MAX_IN_PROGRESS_ROUNDS",
    "Listing",
    "LiveChangeState",
    "LiveEdit",
    "LiveEditOptions",
    "LiveEditing",
    "LiveStopCalls",
    "OperationCalls",
    "Optimization",
    "OptimizationMetadata",
    "PlanCalls",
    "PlanState",
    "live_edit",
    "optimize_and_wait",
]

MAX_IN_PROGRESS_ROUNDS = 5
"""Times an optimize call answered 409 ``plan_optimization_in_progress`` is waited out."""

_OPTIMIZATIONS = "plan_optimization"
"""The operation type of an optimization (public API documentation, GET /operations)."""
_OPTIMIZING = "optimizing"
"""A plan's ``optimization`` while an optimization of it runs."""


class PlanState(Protocol):
    """What the workflows read of a plan."""

    @property
    def writable(self) -> bool:
        """Whether the plan takes changes directly (it was not optimized yet)."""

    @property
    def optimization(self) -> str | None:
        """The plan's optimization state; ``optimizing`` while one runs."""


class OptimizationMetadata(OperationMetadata, Protocol):
    """What the workflows read of an optimization's ``metadata``."""

    @property
    def finished_at(self) -> datetime.datetime | None:
        """When the operation finished, when the service says."""

    @property
    def target_plan_id(self) -> str:
        """The serialized id of the plan it optimizes."""


class Optimization(OperationState, Protocol):
    """What the workflows read of an optimization operation."""

    @property
    def metadata(self) -> OptimizationMetadata:
        """Whether it was canceled, when it started and finished, which plan it optimizes."""


class LiveChangeState(Protocol):
    """What a :class:`LiveEdit` reads of the answer to a live call."""

    @property
    def pending(self) -> bool:
        """Whether the change waits for a re-optimization on the service."""


PlanT = TypeVar("PlanT", bound=PlanState)
PlanT_co = TypeVar("PlanT_co", bound=PlanState, covariant=True)
OptimizationT = TypeVar("OptimizationT", bound=Optimization)
OptimizationT_co = TypeVar("OptimizationT_co", bound=Optimization, covariant=True)
ChangeT = TypeVar("ChangeT", bound=LiveChangeState)
ChangeT_co = TypeVar("ChangeT_co", bound=LiveChangeState, covariant=True)
StopInputT = TypeVar("StopInputT")
StopInputT_contra = TypeVar("StopInputT_contra", contravariant=True)


class LiveStopCalls(Protocol[StopInputT_contra, ChangeT_co]):
    """The live stop calls every version's :class:`LiveEdit` makes (``client.stops``);
    a version's protocol adds its ``live_update``, typed by its update input."""

    async def live_create(self, plan_id: str, stop: StopInputT_contra, /) -> ChangeT_co: ...

    async def live_delete(self, stop_id: str, /) -> ChangeT_co: ...


class PlanCalls(Protocol[PlanT_co, OptimizationT_co]):
    """The plan calls the workflows make (``client.plans``)."""

    async def get(self, plan_id: str) -> PlanT_co: ...

    async def optimize(self, plan_id: str) -> OptimizationT_co: ...

    async def reoptimize(self, plan_id: str, *, optimization_type: str | None = None) -> OptimizationT_co: ...

    async def redistribute(self, plan_id: str) -> PlanT_co: ...

    async def save(self, plan_id: str) -> None: ...


class Listing(Protocol[OptimizationT_co]):
    """A list the workflows walk item by item, and may stop early (a ``Paginator``)."""

    def __aiter__(self) -> AsyncGenerator[OptimizationT_co, None]: ...


class OperationCalls(OperationReader[OptimizationT_co], Protocol[OptimizationT_co]):
    """The operation calls the workflows make (``client.operations``): get, and the list."""

    def list(self, *, filter: Mapping[str, FilterValue] | None = None) -> Listing[OptimizationT_co]: ...


class LiveEditOptions(PollOptions, total=False):
    """The options of ``plans.live_edit`` (the waiting ones, plus how the changes are
    applied); :class:`LiveEditing` says what each one is."""

    distribute: bool
    optimization_type: str | None


@attrs.frozen
class LiveEditing(Polling):
    """How a live edit is applied: the :class:`LiveEditOptions` of a call, checked, with their defaults."""

    distribute: bool = attrs.field(
        default=True,
        metadata=described("``:redistribute`` after the re-optimization, or ``:save`` when False."),
    )
    optimization_type: str | None = attrs.field(
        default=None,
        metadata=described(
            "A :class:`ReoptimizationType` value; None: the service's default (``reorder_changed_stops``)."
        ),
    )


async def _wait_until_not_optimizing(
    plans: PlanCalls[PlanT, Optimization], plan_id: str, deadline: Deadline, polling: Polling
) -> PlanT:
    """Poll the plan until its ``optimization`` is no longer ``optimizing``."""
    delay = polling.poll_interval
    while True:
        await deadline.sleep(delay)
        plan = await deadline.run(plans.get(plan_id))
        if plan.optimization != _OPTIMIZING:
            return plan
        delay = polling.next_delay(delay)


def _recency(operation: Optimization) -> tuple[float, float]:
    """Sort key of the most recent operation: started, then finished (unknown times first)."""
    started = operation.metadata.started_at
    finished_at = operation.metadata.finished_at
    return (
        started.timestamp() if started is not None else -math.inf,
        finished_at.timestamp() if finished_at is not None else -math.inf,
    )


async def _running_optimization(
    operations: OperationCalls[OptimizationT], plan_ref: str
) -> OptimizationT | None:
    """The plan's optimization that is still running, from the operation list; None when none is."""
    listing = operations.list(filter={"done": False, "type": _OPTIMIZATIONS})
    async with aclosing(aiter(listing)) as running:
        async for operation in running:
            # A plan runs one optimization at a time (409 otherwise), so the first match is it.
            if operation.metadata.target_plan_id == plan_ref and not finished(operation):
                return operation
    return None


async def _latest_optimization(
    operations: OperationCalls[OptimizationT], plan_ref: str
) -> OptimizationT | None:
    """The plan's most recent finished optimization, from the operation list; None when it shows none.

    The public API documentation gives the list no order, so every page is read.
    """
    latest: OptimizationT | None = None
    async for operation in operations.list(filter={"done": True, "type": _OPTIMIZATIONS}):
        if operation.metadata.target_plan_id != plan_ref:
            continue
        if latest is None or _recency(operation) > _recency(latest):
            latest = operation
    return latest


async def optimize_and_wait(
    plans: PlanCalls[PlanState, OptimizationT],
    operations: OperationCalls[OptimizationT],
    plan_id: str,
    *,
    clock: Clock,
    **options: Unpack[PollOptions],
) -> OptimizationT:
    """Optimize a plan, wait for the result, and return the finished operation.

    The ``:optimize`` call waits in the scheduler's optimize category (3 per
    minute by default) like any other, and the operation is waited for like
    :func:`~route_planning_async._operations.wait` does. When the service
    answers 409 ``plan_optimization_in_progress``, another optimization of the
    plan is running (an ``:optimize`` or a ``:reoptimize``, by anyone). It is
    found in the operation list (``operations.list`` with ``done`` false and
    type ``plan_optimization``, by ``metadata.target_plan_id``; the contract
    does not show that list, the public API documentation does), and that
    operation is waited for and returned, or raised for, exactly as if this
    call had started it.

    When the list shows no running optimization of the plan (it finished
    between the 409 and the listing), the plan is polled (read category) until
    its ``optimization`` is no longer ``optimizing``, and then:

    - if the plan is writable again (that optimization failed or was canceled),
      it is optimized again and waited for, as if nothing had happened;
    - otherwise the plan's most recent finished optimization is looked up in the
      operation list (every page of the finished ones, since the list has no
      documented order) and returned, or raised for like ``wait``.

    Raises:
        OptimizationFailedError: The optimization failed.
        OperationCanceledError: It was canceled.
        OperationTimeoutError: It did not finish within ``timeout`` seconds.
            With ``cancel_on_timeout=True`` the operation being waited for is then
            canceled on the service (``operations.cancel``; the error's notes say
            how that went); a timeout before an operation is known (while the
            ``:optimize`` call itself waits) has nothing to cancel.
        OptimizationInProgressError: The plan stayed busy for
            :data:`MAX_IN_PROGRESS_ROUNDS` optimizations in a row.
        RoutePlanningError: The plan was optimized by an operation that the
            operation list does not show at all (then no operation can be returned).
    """
    check_options(options, PollOptions.__optional_keys__, "optimize_and_wait")
    polling = Polling.of(options)
    checked = _ids.plan_id(plan_id)
    plan_ref = f"plans/{checked}"
    deadline = Deadline(clock, polling.timeout, plan_ref)
    for _ in range(MAX_IN_PROGRESS_ROUNDS):
        try:
            operation = await deadline.run(plans.optimize(checked))
        except OptimizationInProgressError as busy:
            last_busy = busy
            running = await deadline.run(_running_optimization(operations, plan_ref))
            if running is None:
                plan = await _wait_until_not_optimizing(plans, checked, deadline, polling)
                if plan.writable:
                    continue
                latest = await deadline.run(_latest_optimization(operations, plan_ref))
                if latest is None:
                    raise RoutePlanningError(
                        f"{plan_ref} was optimized by an operation the operation list does not show"
                    ) from busy
                return settled(latest)
            operation = running
        left = attrs.evolve(polling, timeout=deadline.timeout_left())
        return await poll_until_finished(operations, operation, clock=clock, polling=left)
    raise last_busy


class LiveEdit(Generic[ChangeT, OptimizationT, PlanT, StopInputT]):
    """The changes of one :func:`live_edit` block, sent as they are made.

    ``create`` and ``delete`` are every version's; a version's live edit adds
    ``update``, typed by its update input. Each answer is kept in :attr:`changes`.
    """

    def __init__(self, stops: LiveStopCalls[StopInputT, ChangeT], plan_id: str) -> None:
        """Made by ``client.plans.live_edit``; not meant to be built by hand.

        Args:
            stops: The live stop calls (``client.stops``).
            plan_id: The bare id of the plan being edited.
        """
        self._stops = stops
        self.plan_id = plan_id
        """The bare id of the plan being edited."""
        self.changes: list[ChangeT] = []
        """The answers of every live call made in the block, in order."""
        self.operation: OptimizationT | None = None
        """The re-optimization, once the block has been applied."""
        self.plan: PlanT | None = None
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

    def _record(self, change: ChangeT) -> ChangeT:
        self.changes.append(change)
        return change

    async def create(self, stop: StopInputT) -> ChangeT:
        """Add a stop (``client.stops.live_create``).

        Args:
            stop: The stop, a ``StopInput`` of the plan's version.

        Returns:
            The ``LiveChange``; ``change.stop`` is the new stop.
        """
        return self._record(await self._stops.live_create(self.plan_id, stop))

    async def delete(self, stop_id: str) -> ChangeT:
        """Remove a stop (``client.stops.live_delete``); applied by the re-optimization too.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``, of this plan.

        Returns:
            The ``LiveChange``.

        Raises:
            ValidationError: The stop is not one of this plan's.
        """
        return self._record(await self._stops.live_delete(self._own_stop(stop_id)))


EditT = TypeVar("EditT", bound=LiveEdit[Any, Any, Any, Any])


class _LiveEditContext(AbstractAsyncContextManager[EditT], Generic[EditT, PlanT, OptimizationT]):
    """What :func:`live_edit` returns: enter it with ``async with``."""

    def __init__(
        self,
        edit: EditT,
        plans: PlanCalls[PlanT, OptimizationT],
        operations: OperationCalls[OptimizationT],
        *,
        clock: Clock,
        editing: LiveEditing,
    ) -> None:
        self._edit = edit
        self._plans = plans
        self._operations = operations
        self._clock = clock
        self._editing = editing

    async def __aenter__(self) -> EditT:
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
        await self._apply(Deadline(self._clock, self._editing.timeout, f"plans/{self._edit.plan_id}"))

    async def _apply(self, deadline: Deadline) -> None:
        """Re-optimize, wait, then redistribute or save."""
        edit, plans = self._edit, self._plans
        for _ in range(MAX_IN_PROGRESS_ROUNDS):
            try:
                operation = await deadline.run(
                    plans.reoptimize(edit.plan_id, optimization_type=self._editing.optimization_type)
                )
            except OptimizationInProgressError as busy:
                last_busy = busy
                await _wait_until_not_optimizing(plans, edit.plan_id, deadline, self._editing)
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
        left = attrs.evolve(self._editing, timeout=deadline.timeout_left())
        edit.operation = await poll_until_finished(
            self._operations, operation, clock=self._clock, polling=left
        )
        if self._editing.distribute:
            edit.plan = await plans.redistribute(edit.plan_id)
        else:
            await plans.save(edit.plan_id)


@keywords_documented(keywords_of(LiveEditing, defaults=True))
def live_edit(
    plans: PlanCalls[PlanT, OptimizationT],
    operations: OperationCalls[OptimizationT],
    edit: EditT,
    *,
    clock: Clock,
    **options: Unpack[LiveEditOptions],
) -> AbstractAsyncContextManager[EditT]:
    """Edit a plan that is not writable, and apply the changes on a clean exit::

        async with client.plans.live_edit(plan_id) as edit:
            await edit.create(StopInput(address=AddressInput(address_line_one="1 Main St")))
            await edit.update(stop_id, notes="Ring twice")
            await edit.delete(other_stop_id)

    Each call is sent at once through ``stops.live_create`` / ``live_update`` /
    ``live_delete`` (write category) and answered with a :class:`LiveChange`;
    the service keeps the changes pending. When the block exits cleanly and a
    change is pending, the plan is re-optimized (``:reoptimize`` with
    ``optimization_type``, even when the only change is a deletion: contract,
    Stops rule 5), the operation is waited for, and the plan is redistributed
    (``:redistribute``), or saved (``:save``) when ``distribute=False``.
    ``edit.operation`` and ``edit.plan`` then hold the results. A 409
    ``plan_optimization_in_progress`` is waited out by polling the plan until it
    is no longer ``optimizing``, then re-optimizing.

    When the block raises, nothing is applied and the exception propagates. The
    live calls already made stay pending on the service (``edit.changes`` lists
    them): drivers do not see them, and the next re-optimization of the plan
    (by anyone) applies them together with its own changes, unless they are
    undone with further live calls first. A failed re-optimization
    (:class:`OptimizationFailedError`) leaves them pending the same way.

    Discarding the editing session: the public API documentation says a live
    change "can be applied through a new optimization, or be discarded", but
    neither it nor the contract has a call that discards a session. Undo the
    block's changes with further live calls (a ``live_delete`` of a stop the
    block created drops that pending create) before leaving it.

    Args:
        plans: The plan calls (``client.plans``).
        operations: The operation calls (``client.operations``).
        edit: The version's :class:`LiveEdit` of the plan, whose calls make the changes.
        clock: The scheduler's clock, on which every delay and deadline runs.

    Keyword Args:
        timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
            Default None.
        poll_interval (float): Seconds before the first poll; the delay grows after each poll. Default
            1.0.
        max_poll_interval (float): The cap of the growing delay between two polls. Default 15.0, or
            ``poll_interval`` when that is longer.
        cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
            too (``operations.cancel``; not in the contract, the public API documentation's
            ``:cancel``); otherwise the operation goes on. Default False.
        distribute (bool): ``:redistribute`` after the re-optimization, or ``:save`` when False. Default
            True.
        optimization_type (str | None): A :class:`ReoptimizationType` value; None: the service's default
            (``reorder_changed_stops``). Default None.
    """
    check_options(options, LiveEditOptions.__optional_keys__, "live_edit")
    return _LiveEditContext(edit, plans, operations, clock=clock, editing=LiveEditing.of(options))
