"""The answers both API versions give alike: operations and their results, and the
outcomes of batch imports."""

from __future__ import annotations

import datetime
from typing import Any

import attrs

from route_planning_async._checks._ids import OperationId, StopId
from route_planning_async._docs import described, fields_documented

__all__ = [
    "DriverImportFailure",
    "DriverImportResult",
    "ImportFailure",
    "ImportResult",
    "LiveChangeFields",
    "LiveImportResult",
    "Operation",
    "OperationMetadata",
    "OptimizationFailure",
    "OptimizationSuccess",
    "SkippedStop",
    "UnknownResult",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class SkippedStop:
    """A stop the optimization could not place.

    Attributes:
        id (StopId): ``plans/<planId>/stops/<stopId>``.
        reason (str): Why (``impossible_time_window`` ...); unknown values are kept.
    """

    id: StopId = attrs.field(metadata=described("``plans/<planId>/stops/<stopId>``."))
    reason: str = attrs.field(
        metadata=described("Why (``impossible_time_window`` ...); unknown values are kept.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class OptimizationSuccess:
    """The result of an optimization that succeeded.

    Attributes:
        num_optimized_stops (int): Stops that were considered for optimization.
        skipped_stops (list[SkippedStop]): Stops that could not be placed.
    """

    num_optimized_stops: int = attrs.field(
        default=0, metadata=described("Stops that were considered for optimization.")
    )
    skipped_stops: list[SkippedStop] = attrs.field(
        factory=list, metadata=described("Stops that could not be placed.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class OptimizationFailure:
    """The result of an optimization that failed.

    Attributes:
        code (str): Machine-readable error code.
        message (str): Human-readable explanation.
    """

    code: str = attrs.field(metadata=described("Machine-readable error code."))
    message: str = attrs.field(default="", metadata=described("Human-readable explanation."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class UnknownResult:
    """An operation result of a shape this version does not know, kept as it came.

    Attributes:
        raw (dict[str, Any]): The result's JSON object, untouched.
    """

    raw: dict[str, Any] = attrs.field(
        factory=dict, metadata=described("The result's JSON object, untouched.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class OperationMetadata:
    """Facts about a plan optimization operation.

    Attributes:
        canceled (bool): The operation was canceled and will never produce a result.
        started_at (datetime.datetime | None): When it started (UTC).
        finished_at (datetime.datetime | None): When it finished (UTC).
        started_by (str | None): Who started it (``dispatcher``, ``api`` ...).
        target_plan_id (str): ``plans/<id>`` of the optimized plan.
    """

    canceled: bool = attrs.field(
        default=False, metadata=described("The operation was canceled and will never produce a result.")
    )
    started_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When it started (UTC).")
    )
    finished_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When it finished (UTC).")
    )
    started_by: str | None = attrs.field(
        default=None, metadata=described("Who started it (``dispatcher``, ``api`` ...).")
    )
    target_plan_id: str = attrs.field(default="", metadata=described("``plans/<id>`` of the optimized plan."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Operation:
    """A long-running plan optimization, polled until ``done``.

    Attributes:
        id (OperationId): ``operations/<id>``.
        type (str): The kind of operation.
        done (bool): True once finished; then ``result`` is set.
        metadata (OperationMetadata): Facts about the operation.
        result (OptimizationSuccess | OptimizationFailure | UnknownResult | None): None until done; then
            a success (``numOptimizedStops``), a failure (a ``code`` key), or an :class:`UnknownResult`
            holding a result of any other shape.
    """

    id: OperationId = attrs.field(metadata=described("``operations/<id>``."))
    type: str = attrs.field(default="plan_optimization", metadata=described("The kind of operation."))
    done: bool = attrs.field(default=False, metadata=described("True once finished; then ``result`` is set."))
    metadata: OperationMetadata = attrs.field(
        factory=OperationMetadata, metadata=described("Facts about the operation.")
    )
    result: OptimizationSuccess | OptimizationFailure | UnknownResult | None = attrs.field(
        default=None,
        metadata=described(
            """None until done; then a success (``numOptimizedStops``), a failure (a ``code``
            key), or an :class:`UnknownResult` holding a result of any other shape."""
        ),
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class ImportFailure:
    """A stop of a batch import that was not imported.

    Attributes:
        message (str): Why it failed.
        stop (dict[str, Any]): The service's echo of the failed stop (its address and recipient), as
            JSON.
    """

    message: str = attrs.field(metadata=described("Why it failed."))
    stop: dict[str, Any] = attrs.field(
        factory=dict,
        metadata=described("The service's echo of the failed stop (its address and recipient), as JSON."),
    )


@attrs.define(kw_only=True)
class _ImportOutcome:
    """The stops a batch import created and those it did not."""

    success: list[str] = attrs.field(
        factory=list, metadata=described("Serialized ids of the imported stops.")
    )
    failed: list[ImportFailure] = attrs.field(
        factory=list, metadata=described("The stops that were not imported, and why.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class ImportResult(_ImportOutcome):
    """The answer of a batch import: per-stop failures do not fail the call.

    Attributes:
        success (list[str]): Serialized ids of the imported stops.
        failed (list[ImportFailure]): The stops that were not imported, and why.
    """


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DriverImportFailure:
    """A driver of a batch import that was not imported.

    Attributes:
        message (str): Why it failed.
        driver (dict[str, Any]): The service's echo of the failed driver, as JSON.
    """

    message: str = attrs.field(metadata=described("Why it failed."))
    driver: dict[str, Any] = attrs.field(
        factory=dict, metadata=described("The service's echo of the failed driver, as JSON.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DriverImportResult:
    """The answer of a driver batch import (``POST /drivers:import``): per-driver
    failures do not fail the call.

    Attributes:
        success (list[str]): ``drivers/<id>`` of the imported drivers, in input order.
        failed (list[DriverImportFailure]): The drivers that were not imported, and why.
    """

    success: list[str] = attrs.field(
        factory=list, metadata=described("``drivers/<id>`` of the imported drivers, in input order.")
    )
    failed: list[DriverImportFailure] = attrs.field(
        factory=list, metadata=described("The drivers that were not imported, and why.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class LiveImportResult(_ImportOutcome):
    """The answer of a live batch import (``POST /plans/<id>/stops:liveImport``).

    Attributes:
        success (list[str]): Serialized ids of the imported stops.
        failed (list[ImportFailure]): The stops that were not imported, and why.
        pending (bool): True when the plan was not writable: the stops wait in an editing session for
            ``reoptimize`` and then ``redistribute`` or ``save``; False when they were added at once.
    """

    pending: bool = attrs.field(
        metadata=described(
            """True when the plan was not writable: the stops wait in an editing session
            for ``reoptimize`` and then ``redistribute`` or ``save``; False when they
            were added at once."""
        )
    )


@attrs.define(kw_only=True)
class LiveChangeFields:
    """What every version's live change holds (each version adds its ``stop``)."""

    pending: bool = attrs.field(
        metadata=described("True while the change waits for ``reoptimize`` and ``redistribute`` or ``save``.")
    )
