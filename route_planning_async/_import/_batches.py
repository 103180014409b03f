"""Sending one batch until each of its rows has an outcome: isolation, and the answer mapped back.

Isolation
---------

A 400 creates nothing. When its ``param`` names one element of the batch
(``[k]...``), that row is reported ``rejected`` with the service's message and
the others are sent again; when it names none, the batch is split in halves,
recursively, so one bad row costs only itself. A 400 naming a field of the
request rather than of a row (``depot``) would meet every half: the batch is
``not_created``.

Mapping the answer back to the inputs
-------------------------------------

A 200 answer lists the created ids and the refused rows without input
indices, each refusal echoing its row. Each refusal is matched to the first
still unmatched row of the batch whose natural key is the echo's (among
several, the one the echo shows) or, without a key, that the echo shows
(``target.echoes``); the remaining rows are then paired, in order, with the
created ids. When a refusal matches no row, or the counts disagree, the
remaining rows of that batch are reported ``unknown`` and the ids go to
:attr:`ImportReport.unattributed_ids`: nothing is guessed.

Errors
------

An ambiguous failure (a 5xx, a transport failure after the request went out)
is settled by the :class:`~._reconcile.Reconciler`. A 401, or another answer
every batch would get (:attr:`RowKind.ending_errors`), ends the import;
``max_failed_batches`` batches in a row rejected as a whole with a 4xx end it
too. A 429 (after the scheduler's retries) and a connection never made leave
the batch ``not_created``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from route_planning_async._errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    RateLimitError,
    RoutePlanningError,
    ServerError,
    TransportError,
    ValidationError,
)
from route_planning_async._import._reconcile import Reconciler
from route_planning_async._import._report import ImportReport, Outcome
from route_planning_async._import._rows import unencodable
from route_planning_async._import._state import BatchRun, RunParts
from route_planning_async._import._target import BatchAnswer, ImportTarget
from route_planning_async._scheduler import Clock

__all__ = ["BatchSender"]

T = TypeVar("T")


class _Attempts:
    """The ``on_sent`` of one batch's request: called as each attempt is handed to the transport
    (the rows may then reach the service), and told by the client as each attempt ends.

    Between being handed to the client and an attempt leaving, and between an attempt that ends
    and the next, the batch waits for capacity (``ImportReport.waited``).
    """

    def __init__(self, report: ImportReport[Any], clock: Clock, run: BatchRun, offsets: list[int]) -> None:
        self._report, self._clock, self._run, self._offsets = report, clock, run, offsets
        self._waiting = False
        self.sent_at = math.nan
        """When the last attempt was handed to the transport; NaN while none was."""

    def wait(self, waiting: bool) -> None:
        """The batch begins or ends waiting for capacity."""
        if waiting != self._waiting:
            self._waiting = waiting
            self._report._record_waiting(waiting)

    def __call__(self) -> None:
        self.sent_at = self._clock.now()
        self._run.sending = True
        self._run.in_air.update(self._offsets)
        self.wait(False)

    def attempt_ended(self) -> None:
        """The attempt ended (answered, failed or cancelled): a retry waits for capacity again."""
        self.wait(True)


class BatchSender(Generic[T]):
    """Imports one batch at a time: sends it, isolates refused rows, maps answers back."""

    def __init__(self, parts: RunParts[T], reconciler: Reconciler[T]) -> None:
        self._target, self._report, self._clock = parts.target, parts.report, parts.clock
        self._settings, self._control = parts.settings, parts.control
        self._reconciler = reconciler
        self._failures_in_a_row = 0
        # A 400's param names one element of the batch as ``[20].name`` or
        # ``<body_field>[3]``; a field of a row (``barcodes[2]``) names none.
        self._refused_index = re.compile(rf"^(?:{re.escape(self._target.kind.body_field)})?\[(\d+)\]")

    async def import_batch(self, run: BatchRun, pending: list[int]) -> None:
        """Send the ``pending`` offsets of ``run`` until each has an outcome."""
        isolated = await self._send_group(run, pending, 0)
        start = run.batch.start
        if isolated and all(self._report.outcome(start + o) is not Outcome.CREATED for o in pending):
            # Every row of the batch was refused one by one with a 400 naming none
            # of them: as good as a batch rejected as a whole.
            self._count_rejected_batch(isolated)

    async def _send(self, run: BatchRun, offsets: list[int]) -> BatchAnswer:
        attempts = _Attempts(self._report, self._clock, run, offsets)
        attempts.wait(True)
        try:
            return await self._target.send([run.items[o] for o in offsets], attempts)
        except (UnicodeEncodeError, ValidationError) as exc:
            if not math.isnan(attempts.sent_at):
                raise
            raise _NotBuilt(self._row_error(run, offsets, exc)) from exc
        finally:
            attempts.wait(False)
            run.sending = False
            if not math.isnan(attempts.sent_at):
                self._reconciler.flew(self._clock.now() - attempts.sent_at)

    async def _send_group(self, run: BatchRun, offsets: list[int], resends: int) -> BadRequestError | None:
        """Send ``offsets`` of the batch until each has an outcome.

        Answers the last 400 naming no row that forced a split, if any.
        """
        report, control = self._report, self._control
        unnamed: BadRequestError | None = None
        while offsets:
            stopped = control.halt_error or control.stop_reading
            if stopped is not None:
                # The import is ending: nothing more is sent.
                run.fail(report, offsets, Outcome.NOT_CREATED, stopped, not_sent=True)
                return unnamed
            try:
                answer = await self._send(run, offsets)
            except _NotBuilt as exc:
                # The body could not be built: nothing was sent.
                run.fail(report, offsets, Outcome.NOT_CREATED, exc.error)
                control.stop(exc.error)
                return unnamed
            except AuthenticationError as exc:
                self._end_import(run, offsets, exc)
                return unnamed
            except (ServerError, TransportError) as exc:
                if isinstance(exc, TransportError):
                    if not exc.maybe_sent:
                        # Never sent (a refused connection): the breaker counts it,
                        # not max_failed_batches, so the import ends with its report.
                        run.fail(report, offsets, Outcome.NOT_CREATED, exc)
                        control.transport_failed(exc)
                        return unnamed
                    control.transport_failed(exc)
                else:
                    control.answered()
                offsets = await self._reconciler.after_ambiguous(run, offsets, exc, resends)
                resends += 1
                continue
            except RateLimitError as exc:
                # The scheduler already retried the 429s; a 429 creates nothing.
                control.answered()
                run.fail(report, offsets, Outcome.NOT_CREATED, exc)
                return unnamed
            except BadRequestError as exc:
                # A 400 created nothing: isolate the row it is about and send the others again.
                control.answered()
                run.in_air.difference_update(offsets)
                index = self._refused(exc.param, len(offsets))
                if index is not None:
                    offset = offsets[index]
                    report._record_rejected(run.batch, offset, run.items[offset], exc.message)
                    offsets = offsets[:index] + offsets[index + 1 :]
                    continue
                if exc.param:
                    # The 400 names a field of the request, not one of its rows
                    # (the depot of an unassigned import): every half would meet it.
                    run.fail(report, offsets, Outcome.NOT_CREATED, exc)
                    self._count_rejected_batch(exc)
                    return unnamed
                if len(offsets) == 1:
                    offset = offsets[0]
                    report._record_rejected(run.batch, offset, run.items[offset], exc.message)
                    return exc
                half = len(offsets) // 2
                first = await self._send_group(run, offsets[:half], resends)
                second = await self._send_group(run, offsets[half:], resends)
                return second or first or exc
            except APIError as exc:
                if isinstance(exc, self._target.kind.ending_errors):
                    self._end_import(run, offsets, exc)
                    return unnamed
                control.answered()
                run.fail(report, offsets, Outcome.NOT_CREATED, exc)
                self._count_rejected_batch(exc)
                return unnamed
            control.answered()
            self._failures_in_a_row = 0
            self._attribute(run, offsets, answer)
            return unnamed
        return unnamed

    def _row_error(
        self, run: BatchRun, offsets: list[int], exc: UnicodeEncodeError | ValidationError
    ) -> ValidationError:
        """The error of a body that could not be built, naming the row by its input position.

        The body names a row by its place in the request (``[1].email``); a
        stream's row is named as a Sequence's check names it (``drivers[51].email``).
        """
        rows = self._target.kind.rows
        positioned = [(run.batch.start + o, run.items[o]) for o in offsets]
        found = unencodable(rows, positioned)
        if found is not None:
            return found
        if isinstance(exc, UnicodeEncodeError):
            return ValidationError(f"{rows}[{positioned[0][0]}]", f"cannot be encoded: {exc}")
        match = self._refused_index.match(exc.field)
        if match is None or int(match.group(1)) >= len(positioned):
            return exc  # a field of the request, not of one row
        position = positioned[int(match.group(1))][0]
        return ValidationError(f"{rows}[{position}]{exc.field[match.end() :]}", exc.rule)

    def _end_import(self, run: BatchRun, offsets: list[int], exc: RoutePlanningError) -> None:
        """Every other batch would fail the same way: stop reading input."""
        run.fail(self._report, offsets, Outcome.NOT_CREATED, exc)
        self._control.stop(exc)

    def _count_rejected_batch(self, exc: RoutePlanningError) -> None:
        self._failures_in_a_row += 1
        limit = self._settings.max_failed_batches
        if limit is not None and self._failures_in_a_row >= limit:
            self._control.stop(exc)

    def _refused(self, param: str | None, size: int) -> int | None:
        """The position in the batch a 400's ``param`` names (``[20].name``), if any."""
        match = self._refused_index.match(param) if param else None
        if match is None:
            return None
        index = int(match.group(1))
        return index if index < size else None

    def _attribute(self, run: BatchRun, sent: list[int], answer: BatchAnswer) -> None:
        """Give each sent row its outcome from the answer, or ``unknown`` when the answer cannot be mapped."""
        items = run.items
        remaining = list(sent)
        unmatched = 0
        for refusal in answer.refused:
            offset = _match_refusal(self._target, refusal.echo, items, remaining)
            if offset is None:
                unmatched += 1
                continue
            remaining.remove(offset)
            self._report._record_rejected(run.batch, offset, items[offset], refusal.message)
        if unmatched or len(remaining) != len(answer.created):
            error = RoutePlanningError(
                f"the batch import answer could not be mapped to its inputs: {len(answer.created)} created "
                f"and {len(answer.refused)} failed ({unmatched} unmatched) for {len(sent)} "
                f"{self._target.kind.rows} sent"
            )
            self._report.unattributed_ids.extend(answer.created)
            run.fail(self._report, remaining, Outcome.UNKNOWN, error)
            return
        for offset, item_id in zip(remaining, answer.created, strict=True):
            self._report._record_created(run.batch, offset, item_id)
        run.in_air.difference_update(sent)


class _NotBuilt(Exception):
    """A batch's body could not be built, so nothing was sent; ``error`` names the row."""

    def __init__(self, error: ValidationError) -> None:
        super().__init__(str(error))
        self.error = error


def _match_refusal(
    target: ImportTarget[T], echo: Mapping[str, Any], items: Sequence[T], remaining: list[int]
) -> int | None:
    """The offset of the first unmatched row the refusal's echo stands for."""
    key = target.echo_key(echo)
    if key is not None:
        candidates = [o for o in remaining if target.key(items[o]) == key]
        if len(candidates) == 1:
            return candidates[0]
        for offset in candidates:
            if target.echoes(items[offset], echo):
                return offset
        if candidates:
            return candidates[0]
    for offset in remaining:
        if target.echoes(items[offset], echo):
            return offset
    return None
