"""The bulk importer's run loop: any number of rows, streamed in batches, each created exactly once.

:func:`run_import` is the one entry point. It reads its input lazily, cuts it
into batches (at most the target's :attr:`RowKind.max_batch` rows), and sends
a bounded number of batches concurrently to an :class:`ImportTarget`: the
collection the rows go into, which tells the engine everything about them
(``_target.py``). The scheduler does all the waiting for the rate limits of
the target's category, in FIFO order; a 429 is retried there too. Every input
position ends with exactly one outcome in the
:class:`~route_planning_async.ImportReport` (``_report.py``).

The parts of one run: the options (``_options.py``), the rows checked as they
are read (``_rows.py``) and their keys (``_keys.py``), the sending of one
batch with isolation of refused rows (``_batches.py``), and the lookups that
make an ambiguous send exactly once (``_reconcile.py``).

Resume and bounded time
-----------------------

``skip_existing=True`` reads the collection's keys once (paged) and sends only
the rows whose key is not there (``skipped``). ``deadline`` (seconds or an
aware datetime, measured with the import's clock), the breaker
(``max_transport_failures`` transport failures in a row) and ``stop_event``
end the import early and return the report: rows never sent are
``not_created`` and counted in ``ImportReport.not_sent`` (not in ``failed``),
rows sent without an answer ``unknown`` (``ImportReport.stopped`` says why).

Validation
----------

A :class:`~collections.abc.Sequence` (a list, a tuple) is checked in full
before anything is sent, so a bad row sends nothing. A stream (generator,
async iterator) is checked as it is read, because holding it whole would
defeat streaming: the batches before the bad row may already have been sent.
The importer then stops reading, lets the batches in flight finish, and
raises; the last ``on_progress`` call (``progress.final``) carries the report
of what was sent.

Errors
------

An error of one batch ends up in the report, and the import goes on: that is
what the outcomes are for. The import itself raises only when going on makes
no sense (a :class:`~route_planning_async.ValidationError` of the input, an
error every batch would get, ``max_failed_batches`` batches in a row rejected
as a whole, or an exception that is not an answer of the service). It then
stops reading the input, lets the batches in flight finish, calls
``on_progress`` with the final report, and raises the error with a note that
counts the rows' outcomes. Rows never read stay in the caller's iterator (from
position ``report.total`` on).

Cancellation
------------

Cancelling the task that runs the import cancels the batches in flight and
re-raises :class:`asyncio.CancelledError`. Before it does, ``on_progress`` is
called one last time with ``progress.final`` set and ``progress.report`` holding
every outcome: rows whose request was handed to the transport are ``unknown``
(it may have reached the service); those still waiting for capacity, and rows
read but not yet handed to the client, are ``not_created``; rows not read
remain in the caller's iterator. The target's ``send`` tells the importer when
a request leaves (``on_sent``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterable, Iterable, Sequence
from typing import Generic, TypeVar, Unpack

from route_planning_async._errors import ValidationError
from route_planning_async._import._batches import BatchSender
from route_planning_async._import._keys import KeyBook
from route_planning_async._import._options import ImportOptions, ImportSettings
from route_planning_async._import._reconcile import Reconciler
from route_planning_async._import._report import ImportProgress, ImportReport, Outcome
from route_planning_async._import._rows import check_row
from route_planning_async._import._state import BatchRun, Control, Halted, RunParts
from route_planning_async._import._target import ImportTarget
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async._scheduler import Clock

__all__ = ["run_import"]

T = TypeVar("T")


async def run_import(
    target: ImportTarget[T],
    rows: Iterable[T] | AsyncIterable[T],
    *,
    limits: RateLimits,
    clock: Clock,
    **options: Unpack[ImportOptions],
) -> ImportReport[T]:
    """Import any number of rows into ``target``, streamed in batches, each row exactly once.

    ``rows`` is any iterable or async iterable of the target's input class; it
    is read lazily, so memory stays flat in its length. Batches of
    ``batch_size`` go to ``target.send``, at most ``max_in_flight`` at a time;
    the scheduler paces them to the limits of the target's category in
    ``limits``, and ``clock`` times the settle delay, the deadline and the
    report. The options, and their defaults, are those of
    :class:`ImportSettings`.

    Raises:
        TypeError: An option that :class:`ImportOptions` does not name.
        ValidationError: An option or an input row is invalid (``<rows>[<position>]...``).

    Returns:
        The :class:`~route_planning_async.ImportReport`.
    """
    settings = ImportSettings.of(options)
    size = settings.batch_size_for(target, limits)
    in_flight = settings.in_flight_for(target.kind, limits, target.weight(size))
    deadline = settings.deadline_seconds()
    report: ImportReport[T] = ImportReport(
        id_prefix=target.id_prefix, batch_size=size, keep_ids=settings.keep_ids, clock=clock
    )
    whole = isinstance(rows, Sequence)
    importer = _Importer(target, report, settings, clock=clock, batch_size=size, whole=whole)
    return await importer.run(rows, in_flight=in_flight, deadline=deadline)


class _Importer(Generic[T]):
    """One run of a bulk import: reads the input, starts its batches, ends with the report."""

    def __init__(
        self,
        target: ImportTarget[T],
        report: ImportReport[T],
        settings: ImportSettings,
        *,
        clock: Clock,
        batch_size: int,
        whole: bool,
    ) -> None:
        self._target = target
        self.report = report
        self._settings = settings
        self._clock = clock
        self._batch_size = batch_size
        self._length: int | None = None
        self._buffer: list[T] = []
        self._existing: dict[str, str] = {}
        self._control = Control(report, settings.max_transport_failures)
        self._keys = KeyBook(target, allow_duplicates=settings.allow_duplicate_keys, whole=whole)
        parts = RunParts(target, report, clock, settings, self._control, self._keys)
        self._reconciler = Reconciler(parts)
        self._sender = BatchSender(parts, self._reconciler)

    # Input -------------------------------------------------------------------

    async def _rows(self, rows: Iterable[T] | AsyncIterable[T], checked: bool) -> AsyncGenerator[T, None]:
        """The input, row by row, each checked and named by its position on error.

        A stream's rows skip the encoding pass (it is on the path of every
        batch): a row that cannot be encoded fails when its batch's body is
        built, before it is sent, and is named then.
        """
        name = self._target.kind.rows
        if isinstance(rows, AsyncIterable):
            iterator = aiter(rows)
            while True:
                try:
                    item = await anext(iterator)
                except StopAsyncIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{name}[{self._next_position}]") from exc
                yield check_row(self._target, self._keys, self._next_position, item, encodable=False)
        else:
            sync_iterator = iter(rows)
            while True:
                try:
                    item = next(sync_iterator)
                except StopIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{name}[{self._next_position}]") from exc
                if not checked:
                    item = check_row(self._target, self._keys, self._next_position, item, encodable=False)
                yield item

    @property
    def _next_position(self) -> int:
        return self.report.total + len(self._buffer)

    # Run ---------------------------------------------------------------------

    async def run(
        self, rows: Iterable[T] | AsyncIterable[T], *, in_flight: int, deadline: float | None
    ) -> ImportReport[T]:
        """Import ``rows``, ``in_flight`` batches at a time, for at most ``deadline`` seconds."""
        if isinstance(rows, str | bytes) or not isinstance(rows, Iterable | AsyncIterable):
            # Before anything is sent (a str would be read as rows of one character each).
            wanted = self._target.item_type.__name__
            raise ValidationError(
                self._target.kind.rows,
                f"must be an iterable or async iterable of {wanted}, got {type(rows).__name__}",
            )
        control = self._control
        started = self._clock.now()
        deadline_at = None if deadline is None else started + deadline
        checked = isinstance(rows, Sequence)
        if isinstance(rows, Sequence):
            self._length = len(rows)
            self._keys.items = rows
            # Already in memory: check every row (its encoding, its key's
            # uniqueness) before the first batch goes out.
            for position, item in enumerate(rows):
                check_row(self._target, self._keys, position, item, encodable=True)
        watchers: list[asyncio.Task[None]] = []
        try:
            if deadline is not None:
                watchers.append(asyncio.create_task(self._watch_deadline(deadline, started)))
            if self._settings.stop_event is not None:
                watchers.append(asyncio.create_task(self._watch_stop(self._settings.stop_event)))
            if self._settings.skip_existing:
                await self._read_existing()
            gate = asyncio.Semaphore(in_flight)
            try:
                async with asyncio.TaskGroup() as group:
                    try:
                        await self._read(rows, checked, gate, group)
                    except Exception as exc:
                        # Raised below, once the batches in flight have ended.
                        control.stop(exc)
                        self._abandon_buffer(exc)
            finally:
                self._sweep_unstarted()
            if isinstance(rows, Sequence) and control.halt_error is not None:
                self._not_sent(rows, control.halt_error)
            if control.stop_reading is None and self._reconciler.to_verify and not control.broken:
                await self._reconciler.check_late_commits(deadline_at)
        except asyncio.CancelledError as exc:
            self._abandon_buffer(exc)
            self._finish()
            raise
        finally:
            for watcher in watchers:
                watcher.cancel()
            for watcher in watchers:
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
        self._finish()
        if control.stop_reading is not None:
            report = self.report
            control.stop_reading.add_note(
                f"The import stopped after reading {report.total} rows: {report.created} created, "
                f"{report.not_created} not created, {report.unknown} of unknown outcome; the last "
                "on_progress call (progress.final) holds every row's outcome."
            )
            raise control.stop_reading
        return self.report

    async def _watch_deadline(self, seconds: float, started: float) -> None:
        await self._clock.sleep(max(0.0, seconds - (self._clock.now() - started)))
        self._control.halt(
            Halted(f"the import's deadline ({seconds:g} s) was reached"), abandon_in_flight=True
        )

    async def _watch_stop(self, event: asyncio.Event) -> None:
        await event.wait()
        self._control.halt(Halted("stop_event was set: no batch was sent after it"), abandon_in_flight=False)

    async def _read_existing(self) -> None:
        """``skip_existing``: the keys already in the collection, from one paged listing."""
        async with contextlib.aclosing(self._target.existing()) as pages:
            async for page in pages:
                for item_id, key in page:
                    # An item outside the collection (listed by mistake) is no row's.
                    if key and self._reconciler.ours(item_id):
                        self._existing.setdefault(key, item_id)

    async def _read(
        self,
        rows: Iterable[T] | AsyncIterable[T],
        checked: bool,
        gate: asyncio.Semaphore,
        group: asyncio.TaskGroup,
    ) -> None:
        control = self._control
        reader = self._rows(rows, checked)
        try:
            while True:
                # A slot is taken before the next batch is read, so at most
                # max_in_flight batches are held in memory, plus the one being read.
                await gate.acquire()
                if control.why_stopped() is not None:
                    gate.release()
                    return
                try:
                    async for item in reader:
                        self._buffer.append(item)
                        if len(self._buffer) == self._batch_size:
                            break
                except BaseException:
                    gate.release()
                    raise
                stopped = control.why_stopped()
                if not self._buffer or stopped is not None:
                    gate.release()
                    self._abandon_buffer(stopped)
                    return
                items, self._buffer = self._buffer, []
                run = BatchRun(self.report._open_batch(len(items)), items)
                pending = self._skip(run)
                if not pending:
                    gate.release()
                    self._end_batch(run)
                    continue
                control.runs.add(run)
                run.task = group.create_task(self._run_batch(run, pending, gate))
                # The batch goes out before the next one is read: reading the input
                # (building its rows) delays the first request by one batch's reading,
                # not by max_in_flight batches'.
                await asyncio.sleep(0)
        finally:
            await reader.aclose()

    def _skip(self, run: BatchRun) -> list[int]:
        """Record the rows already in the collection as skipped; answer the others."""
        if not self._existing:
            return list(range(len(run.items)))
        pending: list[int] = []
        for offset, item in enumerate(run.items):
            key = self._keys.key(item)
            found = self._existing.get(key) if key is not None else None
            if found is not None:
                self.report._record_skipped(run.batch, offset, found)
            else:
                pending.append(offset)
        return pending

    def _not_sent(self, rows: Sequence[T], error: Halted) -> None:
        """After a halt, the rows of a Sequence never read: ``not_created`` (they were never sent)."""
        for begin in range(self.report.total, len(rows), self._batch_size):
            items = list(rows[begin : begin + self._batch_size])
            batch = self.report._open_batch(len(items))
            self.report._record_failed(
                batch, range(len(items)), items, Outcome.NOT_CREATED, error, not_sent=True
            )
            self.report._close_batch(batch)

    def _abandon_buffer(self, error: BaseException | None) -> None:
        """Rows read but never handed to the client: they were not sent."""
        items, self._buffer = self._buffer, []
        if items and error is not None:
            batch = self.report._open_batch(len(items))
            self.report._record_failed(
                batch, range(len(items)), items, Outcome.NOT_CREATED, error, not_sent=True
            )
            self.report._close_batch(batch)

    async def _run_batch(self, run: BatchRun, pending: list[int], gate: asyncio.Semaphore) -> None:
        control = self._control
        try:
            await self._sender.import_batch(run, pending)
        except asyncio.CancelledError as exc:
            task = asyncio.current_task()
            ours = run.halted and task is not None and task.uncancel() == 0
            error: BaseException = control.halt_error if ours and control.halt_error is not None else exc
            run.fail_unsettled(self.report, error, stopped=True)
            if not ours:
                raise
        except Exception as exc:
            # Not an answer of the service (a bug, a closed client, a failed
            # rate-limit backend): record it and end the import.
            run.fail_unsettled(self.report, exc, stopped=False)
            control.stop(exc)
        finally:
            control.runs.discard(run)
            gate.release()
            self._end_batch(run)

    def _sweep_unstarted(self) -> None:
        """Batches whose task was cancelled before it ever ran: nothing of them was sent."""
        control = self._control
        error: BaseException = control.halt_error or asyncio.CancelledError()
        for run in list(control.runs):
            control.runs.discard(run)
            run.fail_unsettled(self.report, error, stopped=True)
            self.report._close_batch(run.batch)

    def _end_batch(self, run: BatchRun) -> None:
        self.report._close_batch(run.batch)
        try:
            self._progress(final=False)
        except Exception as exc:
            self._control.stop(exc)

    # Progress ----------------------------------------------------------------

    def _finish(self) -> None:
        self.report._finish()
        self._progress(final=True)

    def _progress(self, *, final: bool) -> None:
        on_progress = self._settings.on_progress
        if on_progress is None:
            return
        report = self.report
        on_progress(
            ImportProgress(
                done=report.done,
                read=report.total,
                total=self._length,
                created=report.created,
                failed=report.failed,
                unknown=report.unknown,
                elapsed=report.elapsed,
                report=report,
                final=final,
                skipped=report.skipped,
                waited=report.waited,
                not_sent=report.not_sent,
            )
        )
