"""The state one import run shares between its parts: each batch's, and whether the run goes on.

:class:`BatchRun` is one batch while it is imported; :class:`Control` says
whether the import still reads and sends (an error to raise, a halt, the
breaker) and stops the batches a halt leaves behind; :class:`RunParts` is
what the sending of batches and the lookups both work with.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import attrs

from route_planning_async._errors import RoutePlanningError
from route_planning_async._import._batch_ids import PENDING, BatchOutcomes
from route_planning_async._import._keys import KeyBook
from route_planning_async._import._options import ImportSettings
from route_planning_async._import._report import ImportReport, Outcome
from route_planning_async._import._target import ImportTarget
from route_planning_async._scheduler import Clock

__all__ = ["BatchRun", "Control", "Halted", "RunParts"]

T = TypeVar("T")


class Halted(RoutePlanningError):
    """Why the importer stopped sending (deadline, breaker, stop request)."""


@attrs.define(eq=False)
class BatchRun:
    """The state of one batch while it is being imported."""

    batch: BatchOutcomes
    items: list[Any]
    in_air: set[int] = attrs.Factory(set)
    """Offsets that may have reached the service without a settled outcome."""
    sending: bool = False
    """True while a request of this batch is on the wire (handed to the transport)."""
    task: asyncio.Task[None] | None = None
    halted: bool = False

    def fail(
        self,
        report: ImportReport[Any],
        offsets: Sequence[int],
        outcome: Outcome,
        error: BaseException,
        *,
        not_sent: bool = False,
    ) -> None:
        """Record ``offsets`` as ``outcome`` (``not_created`` or ``unknown``) for ``error``;
        ``not_sent``: the import stopped before sending them."""
        report._record_failed(
            self.batch, offsets, [self.items[o] for o in offsets], outcome, error, not_sent=not_sent
        )
        self.in_air.difference_update(offsets)

    def fail_unsettled(self, report: ImportReport[Any], error: BaseException, *, stopped: bool) -> None:
        """The pending rows of a batch that ends early: ``unknown`` if they may have reached the service.

        ``stopped``: the import ends it (a halt, a cancellation), so the others were not sent
        (:attr:`FailedBatch.not_sent`); else its own error ended it, a failure.
        """
        pending = [o for o, code in enumerate(self.batch.codes) if code == PENDING]
        self.fail(report, [o for o in pending if o in self.in_air], Outcome.UNKNOWN, error)
        waiting = [o for o in pending if o not in self.in_air]
        self.fail(report, waiting, Outcome.NOT_CREATED, error, not_sent=stopped)


class Control:
    """Whether one import run goes on reading and sending, and its breaker."""

    def __init__(self, report: ImportReport[Any], max_transport_failures: int | None) -> None:
        self._report = report
        self._max_transport_failures = max_transport_failures
        self._transport_failures = 0
        self.stop_reading: BaseException | None = None
        """The error the import raises once the batches in flight end; no more input is read."""
        self.halt_error: Halted | None = None
        """Why nothing more is sent; the import then returns its report."""
        self.broken = False
        """The breaker is open: no lookup is started any more either."""
        self.runs: set[BatchRun] = set()
        """The batches started and not yet ended."""

    def why_stopped(self) -> BaseException | None:
        """Why no more input is read: an error to raise, or a halt; None while reading goes on."""
        return self.stop_reading or self.halt_error

    def stop(self, error: BaseException) -> None:
        """Read no more input; the import raises ``error`` when the batches in flight end."""
        if self.stop_reading is None:
            self.stop_reading = error

    def halt(self, error: Halted, *, abandon_in_flight: bool, broken: bool = False) -> None:
        """Send nothing more; the import returns its report once the batches still running end.

        Batches waiting for their turn are cancelled (``not_created``); those
        on the wire finish, unless ``abandon_in_flight`` (then ``unknown``).
        With ``broken`` no lookup is started any more either.
        """
        if broken:
            self.broken = True
        if self.halt_error is None:
            self.halt_error = error
            self._report.stopped = str(error)
        for run in list(self.runs):
            if run.task is None or run.task.done() or run.halted:
                continue
            # A batch still settling an ambiguous send keeps its lookups, unless the breaker is open.
            if abandon_in_flight or (not run.sending and (broken or not run.in_air)):
                run.halted = True
                run.task.cancel()

    def answered(self) -> None:
        """The service answered: the breaker's count of transport failures starts again."""
        self._transport_failures = 0

    def transport_failed(self, exc: BaseException) -> None:
        """Count a transport failure; the breaker halts the import after too many in a row."""
        self._transport_failures += 1
        limit = self._max_transport_failures
        if limit is not None and self._transport_failures >= limit:
            self.halt(
                Halted(f"stopped after {self._transport_failures} transport failures in a row: {exc}"),
                abandon_in_flight=False,
                broken=True,
            )


@attrs.frozen
class RunParts(Generic[T]):
    """What the sending of batches and the lookups of one import run work with."""

    target: ImportTarget[T]
    report: ImportReport[T]
    clock: Clock
    settings: ImportSettings
    control: Control
    keys: KeyBook[T]
