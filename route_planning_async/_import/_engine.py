"""The bulk importer: any number of stops, streamed in batches of 100, each created exactly once.

:func:`run_import` is the one entry point. It reads its input lazily, cuts it
into batches of at most 100 (contract, Limits: batch import size), and sends a
bounded number of batches concurrently to an :class:`ImportTarget`: the
collection the stops go into (a plan's stops, the unassigned stops; the
targets live beside their resources in ``_resources.py``, where
``client.stops.import_many`` and ``client.unassigned_stops.import_many`` call
it). The scheduler does all the waiting for the batch-import limits (10
requests and 1,000 stops per minute by default), in FIFO order; a 429 is
retried there too. Every input position ends with exactly one outcome in the
:class:`~route_planning_async.ImportReport` (``_import_report.py``).

Exactly once
------------

A batch import is a POST: the scheduler does not repeat it after an ambiguous
failure (a 5xx answer, a timeout, or a connection lost after the request went
out), because the service may have created the stops. The importer then
*reconciles*: for each stop of the batch that carries ``recipient.external_id``
it lists the collection with ``filter[externalId]`` (contract, GET
``/plans/<planId>/stops``), takes the stops it finds as created, and sends only
the others again; at most ``max_resends`` times. So ``recipient.external_id``
acts as an idempotency key: give every stop a distinct one, and a stop of the
plan that already carries it counts as that input's stop. Stops without an
external id cannot be looked up, so their batch is reported ``unknown`` and not
sent again, unless ``at_least_once=True`` (then it is resent, and may be
duplicated). Two rows with the same key are refused before anything is sent,
unless ``allow_duplicate_keys=True`` (then they count as rows without a key).

When many stops of one batch need a lookup, one paged listing of the
collection is read instead of one filtered list per stop, as long as it takes
fewer pages than there are stops to find.

Late commits: the service may apply a request after the lookup found its stops
absent. After the import, every keyed row that was resent (or left unknown)
after an ambiguous failure is looked up again, after twice the longest time a
request of the import was on the wire (at least ``settle_delay``); a second
stop with its key is reported in :attr:`ImportReport.duplicates`, and deleted
with ``dedupe=True``. A commit later than that check is not seen.

Isolation
---------

A 400 creates nothing. When its ``param`` names one element of the batch
(``[k]...``), that stop is reported ``rejected`` with the service's message and
the others are sent again; when it names none, the batch is split in halves,
recursively, so one bad stop costs only itself.

Resume and bounded time
-----------------------

``skip_existing=True`` reads the collection's keys once (paged) and sends only
the rows whose key is not there (``skipped``). ``deadline`` (seconds or an
aware datetime), the breaker (``max_transport_failures`` transport failures in
a row) and ``stop_event`` end the import early and return the report: rows
never sent are ``not_created``, rows sent without an answer ``unknown``
(``ImportReport.stopped`` says why).

Mapping the answer back to the inputs
-------------------------------------

The 200 answer is ``{success: [ids], failed: [{error: {message}, stop: {address,
recipient}}]}`` without input indices. Each failure is matched to the first
still unmatched input of the batch whose ``recipient.external_id`` equals the
echoed ``recipient.externalId`` or, without one, whose address equals the echoed
address; the remaining inputs are then paired, in order, with the ``success``
ids. When a failure matches no input, or the counts disagree, the remaining
inputs of that batch are reported ``unknown`` and the ids go to
:attr:`ImportReport.unattributed_ids`: nothing is guessed.

Validation
----------

Inputs are checked when they are built (``StopInput(...)`` raises
:class:`~route_planning_async.ValidationError`). The importer raises, before the
batch that holds it is sent, a ``ValidationError`` naming the position
(``stops[1234].address.latitude``) when the input iterator raises one, when
an item is not a ``StopInput``, when one of its strings cannot be encoded as
UTF-8 (a lone surrogate), or when its key repeats an earlier row's (in a
stream: among its first 100,000 keyed rows, so memory stays flat). A
:class:`~collections.abc.Sequence` (a list, a tuple) is checked in full before
anything is sent, so a bad row sends nothing.
A stream (generator, async iterator) is checked as it is read, because holding
it whole would defeat streaming: the batches before the bad row may already
have been sent. The importer then stops reading, lets the batches in flight
finish, and raises; the last ``on_progress`` call (``progress.final``) carries
the report of what was sent.

Errors
------

An error of one batch ends up in the report, and the import goes on: that is
what the outcomes are for. The import itself raises only when going on makes
no sense: a :class:`~route_planning_async.ValidationError` of the input (above);
a 401 or a 409 ``plan_not_writable``, which every batch would get; ``max_failed_batches``
batches in a row rejected as a whole with a 4xx (a plan that does not exist);
or an exception that is not an answer of the service. It then stops reading the
input, lets the batches in flight finish, calls ``on_progress`` with the final
report, and raises. Rows never read stay in the caller's iterator (from
position ``report.total`` on).

Cancellation
------------

Cancelling the task that runs the import cancels the batches in flight and
re-raises :class:`asyncio.CancelledError`. Before it does, ``on_progress`` is
called one last time with ``progress.final`` set and ``progress.report`` holding
every outcome: stops whose request was handed to the transport are ``unknown``
(it may have reached the service); those still waiting for capacity, and rows
read but not yet handed to the client, are ``not_created``; rows not read
remain in the caller's iterator. The target's ``send`` tells the importer when
a request leaves (``on_sent``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime
import math
import re
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypedDict, TypeVar, Unpack, cast

import attrs

from route_planning_async._errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    PlanNotWritableError,
    RateLimitError,
    RoutePlanningError,
    ServerError,
    TransportError,
    ValidationError,
)
from route_planning_async._import._report import (
    PENDING,
    BatchOutcomes,
    DuplicateStop,
    ImportProgress,
    ImportReport,
    Outcome,
    ProgressCallback,
)
from route_planning_async._limits import Category, RateLimits
from route_planning_async._scheduler import Clock
from route_planning_async._validators import UnsetType, check_options
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import MAX_IMPORT_BATCH, StopInput, UnassignedStopInput
from route_planning_async.v0_2b._models import ImportResult

__all__ = ["ImportOptions", "ImportTarget", "run_import", "stop_key"]

T = TypeVar("T", bound=StopInput | UnassignedStopInput)

_DEFAULT_IN_FLIGHT = 8
_MAX_IN_FLIGHT = 32
_LOOKUP_CONCURRENCY = 10
_LOOKUP_ATTEMPTS = 3
_STREAM_KEYS = 100_000
"""A stream is checked for repeated keys among its first this many keyed rows, so memory stays flat."""
_VERIFY_FACTOR = 2.0
"""The late-commit check waits this many times the longest request flight seen (at least ``settle_delay``)."""
_REFUSED_INDEX = re.compile(r"^(?:stops|unassignedStops|drivers)?\[(\d+)\]")
"""A 400's ``param`` that names one element of the batch: ``[20].recipient.name``,
``unassignedStops[3]``; a field of a stop (``barcodes[2]``) names none."""
_ADDRESS_KEYS = (
    "addressName",
    "addressLineOne",
    "addressLineTwo",
    "city",
    "state",
    "zip",
    "country",
    "latitude",
    "longitude",
)

Listing = AsyncGenerator[list[tuple[str, str | None]], None]
"""Pages of ``(id, key)`` of every item of a collection."""


class ImportTarget(Protocol[T]):
    """The collection a bulk import creates its items in (a plan's stops, the unassigned stops, ...).

    The importer knows items only through this protocol: their natural key
    (what reconciliation, ``skip_existing`` and ``dedupe`` match on), a send of
    one batch, a filtered lookup, a paged listing of the whole collection and a
    delete.
    """

    @property
    def item_type(self) -> type[T]:
        """The input class every row must be."""

    @property
    def id_prefix(self) -> str:
        """What every created item's id starts with (``plans/<id>/stops/``); ids are kept without it."""

    @property
    def rows_name(self) -> str:
        """How errors name the input's rows: ``stops`` gives ``stops[<position>]``."""

    @property
    def key_field(self) -> str:
        """The dotted field of an input that holds its natural key (``recipient.external_id``), for errors."""

    def check(self, item: T, field: str) -> None:
        """Raise :class:`~route_planning_async.ValidationError` for a row this target refuses."""

    def key(self, item: T) -> str | None:
        """The natural key of an input (a stop's ``recipient.external_id``); None when it has none."""

    async def send(self, batch: list[T], on_sent: Callable[[], None]) -> ImportResult:
        """Import one batch (1 to 100 rows) in one request.

        ``on_sent`` is called when the request is handed to the transport: up
        to then nothing can have reached the service (the request waited for
        capacity, the client was closed, the rate-limit backend failed).
        """

    def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        """``(id, key)`` of the items the service lists for ``key`` (a filtered list)."""

    def existing(self) -> Listing:
        """Every item of the collection as ``(id, key)``, one list per page of the service's list."""

    async def delete(self, item_id: str) -> None:
        """Delete one item (a duplicate found after a late commit, with ``dedupe=True``)."""


class ImportOptions(TypedDict, total=False):
    """How a bulk import runs: the keyword options of ``import_many``, each optional.

    Declared once here; ``client.stops.import_many`` and
    ``client.unassigned_stops.import_many`` pass them through to :func:`run_import`,
    which applies the defaults named below.
    """

    on_progress: ProgressCallback | None
    """Called (synchronously) with an :class:`ImportProgress` each time a batch
    finishes, and once more with ``final=True`` at the end, also when the
    import is cancelled or raises. Default None."""
    keep_ids: bool
    """Keep the id of every created stop (packed, a few bytes per stop); False
    keeps only counts and failures. Default True."""
    at_least_once: bool
    """Resend a batch whose outcome is ambiguous even when its stops have no
    external id to look them up by; they may be duplicated. Default False."""
    batch_size: int
    """Stops per request, 1 to 100 (and at most a weighted rule's amount). Default 100."""
    max_in_flight: int | None
    """Batches sent concurrently; None: enough to fill one window of the batch
    import request rule (at least 2, at most 32)."""
    max_resends: int
    """How many times the stops of one batch are sent again after ambiguous failures. Default 3."""
    settle_delay: float
    """Seconds to wait, after a request got no answer, before looking up its
    stops; also the least wait before the late-commit check. Default 2.0."""
    max_failed_batches: int | None
    """Stop reading the input after this many batches in a row were rejected as
    a whole (4xx): the import then raises that error. None never stops. A 401
    or a ``plan_not_writable`` stops it at once. Default 3."""
    skip_existing: bool
    """Read the keys (``recipient.external_id``) already in the collection once,
    paging through it, and send only the rows whose key is not there: they are
    reported ``skipped``. Resumes an interrupted import. Default False."""
    allow_duplicate_keys: bool
    """Accept two rows with the same key (``recipient.external_id``); such rows
    are then imported as if they had no key (no lookup, no skip). Default False:
    the import raises :class:`~route_planning_async.ValidationError` naming
    both positions before anything is sent."""
    dedupe: bool
    """Delete the extra stops that the late-commit check finds (a key stored
    twice), keeping the one the report names. Default False (they are only
    reported in :attr:`ImportReport.duplicates`). Never for a key two rows may
    share: past a stream's first 100,000 keyed rows, whose keys are not checked
    for repeats, duplicates are reported, not deleted."""
    deadline: float | datetime.datetime | None
    """Seconds from the start, or an aware absolute time: then nothing more is
    sent, requests in flight are abandoned (``unknown``), rows never sent are
    ``not_created``, and the report is returned. Default None."""
    max_transport_failures: int | None
    """The breaker: after this many transport failures in a row (timeouts,
    refused or lost connections), stop sending and looking up; the report is
    returned with the rest ``not_created`` and the ambiguous ``unknown``.
    None never trips. Default 5."""
    stop_event: asyncio.Event | None
    """When set, no new batch is sent: the batches whose request is on the wire
    finish, the rest is ``not_created``, and the report is returned. Default None."""


@attrs.define(eq=False)
class _BatchRun:
    """The state of one batch while it is being imported."""

    batch: BatchOutcomes
    items: list[Any]
    in_air: set[int] = attrs.Factory(set)
    """Offsets that may have reached the service without a settled outcome."""
    sending: bool = False
    """True while a request of this batch is on the wire (handed to the transport)."""
    task: asyncio.Task[None] | None = None
    halted: bool = False


class _Halted(RoutePlanningError):
    """Why the importer stopped sending (deadline, breaker, stop request)."""


class _Importer(Generic[T]):
    """One run of a bulk import."""

    def __init__(
        self,
        target: ImportTarget[T],
        *,
        clock: Clock,
        report: ImportReport[T],
        batch_size: int,
        max_in_flight: int,
        at_least_once: bool,
        max_resends: int,
        settle_delay: float,
        max_failed_batches: int | None,
        on_progress: ProgressCallback | None,
        skip_existing: bool,
        allow_duplicate_keys: bool,
        dedupe: bool,
        deadline: float | None,
        max_transport_failures: int | None,
        stop_event: asyncio.Event | None,
    ) -> None:
        self._target = target
        self._clock = clock
        self._gate_lookups = asyncio.Semaphore(_LOOKUP_CONCURRENCY)
        self.report = report
        self._batch_size = batch_size
        self._max_in_flight = max_in_flight
        self._at_least_once = at_least_once
        self._max_resends = max_resends
        self._settle_delay = settle_delay
        self._max_failed_batches = max_failed_batches
        self._on_progress = on_progress
        self._skip_existing = skip_existing
        self._allow_duplicate_keys = allow_duplicate_keys
        self._dedupe = dedupe
        self._deadline = deadline
        self._max_transport_failures = max_transport_failures
        self._stop_event = stop_event
        self._started = clock.now()
        self._length: int | None = None
        self._buffer: list[T] = []
        self._stop_reading: BaseException | None = None
        self._failures_in_a_row = 0
        self._transport_failures = 0
        self._halt_error: _Halted | None = None
        self._broken = False
        self._runs: set[_BatchRun] = set()
        self._keys_seen: dict[str, int] = {}
        self._duplicate_keys: set[str] = set()
        self._existing: dict[str, str] = {}
        self._listing_too_long = False
        self._longest_flight = 0.0
        self._verify: list[tuple[int, str]] = []
        """``(position, key)`` of every keyed row whose send was once ambiguous: checked for late commits."""

    # Input -------------------------------------------------------------------

    def check_item(self, position: int, item: object, *, encodable: bool = False) -> T:
        """Check one row; ``encodable`` also proves every string of it can be sent as UTF-8.

        A stream skips that pass (it is on the path of every batch): a row that
        cannot be encoded fails when its batch's body is built, before it is
        sent, and is named then (:meth:`_unencodable`).
        """
        item_type = self._target.item_type
        field = f"{self._target.rows_name}[{position}]"
        if not isinstance(item, item_type):
            raise ValidationError(field, f"must be a {item_type.__name__}, got {type(item).__name__}")
        self._target.check(item, field)
        if encodable:
            _check_encodable(item, field)
        key = self._target.key(item)
        if key is not None and (self._length is not None or len(self._keys_seen) < _STREAM_KEYS):
            first = self._keys_seen.setdefault(key, position)
            if first != position:
                if not self._allow_duplicate_keys:
                    raise ValidationError(
                        f"{field}.{self._target.key_field}",
                        f"repeats {key!r}, the key of {self._target.rows_name}[{first}]: two rows would be "
                        "one stop to reconciliation and skip_existing (pass allow_duplicate_keys=True to "
                        "import both as rows without a key)",
                    )
                self._duplicate_keys.add(key)
        return item

    def _key(self, item: T) -> str | None:
        key = self._target.key(item)
        return None if key is None or key in self._duplicate_keys else key

    async def _rows(self, stops: Iterable[T] | AsyncIterable[T], checked: bool) -> AsyncGenerator[T, None]:
        """The input, item by item, each checked and named by its position on error."""
        if isinstance(stops, AsyncIterable):
            iterator = aiter(stops)
            while True:
                try:
                    item = await anext(iterator)
                except StopAsyncIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{self._target.rows_name}[{self._next_position}]") from exc
                yield self.check_item(self._next_position, item)
        else:
            sync_iterator = iter(stops)
            while True:
                try:
                    item = next(sync_iterator)
                except StopIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{self._target.rows_name}[{self._next_position}]") from exc
                yield item if checked else self.check_item(self._next_position, item)

    @property
    def _next_position(self) -> int:
        return self.report.total + len(self._buffer)

    # Run ---------------------------------------------------------------------

    async def run(self, stops: Iterable[T] | AsyncIterable[T]) -> ImportReport[T]:
        checked = isinstance(stops, Sequence)
        if isinstance(stops, Sequence):
            self._length = len(stops)
            # Already in memory: check every item (its encoding, its key's
            # uniqueness) before the first batch goes out.
            for position, item in enumerate(stops):
                self.check_item(position, item, encodable=True)
        watchers: list[asyncio.Task[None]] = []
        try:
            if self._deadline is not None:
                watchers.append(asyncio.create_task(self._watch_deadline(self._deadline)))
            if self._stop_event is not None:
                watchers.append(asyncio.create_task(self._watch_stop(self._stop_event)))
            if self._skip_existing:
                await self._read_existing()
            gate = asyncio.Semaphore(self._max_in_flight)
            try:
                async with asyncio.TaskGroup() as group:
                    try:
                        await self._read(stops, checked, gate, group)
                    except Exception as exc:
                        # Raised below, once the batches in flight have ended.
                        self._stop(exc)
                        self._abandon_buffer(exc)
            finally:
                self._sweep_unstarted()
            if isinstance(stops, Sequence) and self._halt_error is not None:
                self._not_sent(stops)
            if self._stop_reading is None and self._verify and not self._broken:
                await self._check_late_commits()
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
        if self._stop_reading is not None:
            raise self._stop_reading
        return self.report

    def _stop(self, error: BaseException) -> None:
        """Read no more input; the import raises ``error`` when the batches in flight end."""
        if self._stop_reading is None:
            self._stop_reading = error

    def _halt(self, error: _Halted, *, abandon_in_flight: bool, broken: bool = False) -> None:
        """Send nothing more; the import returns its report once the batches still running end.

        Batches waiting for their turn are cancelled (``not_created``); those
        on the wire finish, unless ``abandon_in_flight`` (then ``unknown``).
        With ``broken`` no lookup is started any more either.
        """
        if broken:
            self._broken = True
        if self._halt_error is None:
            self._halt_error = error
            self.report.stopped = str(error)
        for run in list(self._runs):
            if run.task is None or run.task.done() or run.halted:
                continue
            # A batch still settling an ambiguous send keeps its lookups, unless the breaker is open.
            if abandon_in_flight or (not run.sending and (broken or not run.in_air)):
                run.halted = True
                run.task.cancel()

    async def _watch_deadline(self, seconds: float) -> None:
        await self._clock.sleep(max(0.0, seconds - (self._clock.now() - self._started)))
        self._halt(_Halted(f"the import's deadline ({seconds:g} s) was reached"), abandon_in_flight=True)

    async def _watch_stop(self, event: asyncio.Event) -> None:
        await event.wait()
        self._halt(_Halted("the import was stopped before this batch was sent"), abandon_in_flight=False)

    async def _read_existing(self) -> None:
        """``skip_existing``: the keys already in the collection, from one paged listing."""
        async with contextlib.aclosing(self._target.existing()) as pages:
            async for page in pages:
                for item_id, key in page:
                    if key:
                        self._existing.setdefault(key, item_id)

    async def _read(
        self,
        stops: Iterable[T] | AsyncIterable[T],
        checked: bool,
        gate: asyncio.Semaphore,
        group: asyncio.TaskGroup,
    ) -> None:
        rows = self._rows(stops, checked)
        try:
            while True:
                # A slot is taken before the next batch is read, so at most
                # max_in_flight batches are held in memory, plus the one being read.
                await gate.acquire()
                if self._why_stopped() is not None:
                    gate.release()
                    return
                try:
                    async for item in rows:
                        self._buffer.append(item)
                        if len(self._buffer) == self._batch_size:
                            break
                except BaseException:
                    gate.release()
                    raise
                stopped = self._why_stopped()
                if not self._buffer or stopped is not None:
                    gate.release()
                    self._abandon_buffer(stopped)
                    return
                items, self._buffer = self._buffer, []
                batch = self.report._open_batch(len(items))
                run = _BatchRun(batch, items)
                pending = self._skip(run)
                if not pending:
                    gate.release()
                    self._end_batch(run)
                    continue
                self._runs.add(run)
                run.task = group.create_task(self._run_batch(run, pending, gate))
        finally:
            await rows.aclose()

    def _why_stopped(self) -> BaseException | None:
        """Why no more input is read: an error to raise, or a halt; None while reading goes on."""
        return self._stop_reading or self._halt_error

    def _skip(self, run: _BatchRun) -> list[int]:
        """Record the rows already in the collection as skipped; answer the others."""
        if not self._existing:
            return list(range(len(run.items)))
        pending: list[int] = []
        for offset, item in enumerate(run.items):
            key = self._key(item)
            found = self._existing.get(key) if key is not None else None
            if found is not None:
                self.report._record_skipped(run.batch, offset, found)
            else:
                pending.append(offset)
        return pending

    def _not_sent(self, stops: Sequence[T]) -> None:
        """After a halt, the rows of a Sequence never read: ``not_created`` (they were never sent)."""
        assert self._halt_error is not None
        start = self.report.total
        for begin in range(start, len(stops), self._batch_size):
            items = list(stops[begin : begin + self._batch_size])
            batch = self.report._open_batch(len(items))
            self.report._record_failed(batch, range(len(items)), items, Outcome.NOT_CREATED, self._halt_error)
            self.report._close_batch(batch)

    def _abandon_buffer(self, error: BaseException | None) -> None:
        """Rows read but never handed to the client: they were not sent."""
        items, self._buffer = self._buffer, []
        if items and error is not None:
            batch = self.report._open_batch(len(items))
            self.report._record_failed(batch, range(len(items)), items, Outcome.NOT_CREATED, error)
            self.report._close_batch(batch)

    async def _run_batch(self, run: _BatchRun, pending: list[int], gate: asyncio.Semaphore) -> None:
        try:
            await self._import(run, pending)
        except asyncio.CancelledError as exc:
            task = asyncio.current_task()
            ours = run.halted and task is not None and task.uncancel() == 0
            error: BaseException = self._halt_error if ours and self._halt_error is not None else exc
            self._fail_unsettled(run, error)
            if not ours:
                raise
        except Exception as exc:
            # Not an answer of the service (a bug, a closed client, a failed
            # rate-limit backend): record it and end the import.
            self._fail_unsettled(run, exc)
            self._stop(exc)
        finally:
            self._runs.discard(run)
            gate.release()
            self._end_batch(run)

    def _sweep_unstarted(self) -> None:
        """Batches whose task was cancelled before it ever ran: nothing of them was sent."""
        error: BaseException = self._halt_error or asyncio.CancelledError()
        for run in list(self._runs):
            self._runs.discard(run)
            self._fail_unsettled(run, error)
            self.report._close_batch(run.batch)

    def _end_batch(self, run: _BatchRun) -> None:
        self.report._close_batch(run.batch)
        try:
            self._progress(final=False)
        except Exception as exc:
            self._stop(exc)

    def _fail(self, run: _BatchRun, offsets: list[int], outcome: Outcome, error: BaseException) -> None:
        self.report._record_failed(run.batch, offsets, [run.items[o] for o in offsets], outcome, error)
        run.in_air.difference_update(offsets)

    def _fail_unsettled(self, run: _BatchRun, error: BaseException) -> None:
        """The pending rows of a batch that ends early: ``unknown`` if they may have reached the service."""
        pending = [o for o, code in enumerate(run.batch.codes) if code == PENDING]
        self._fail(run, [o for o in pending if o in run.in_air], Outcome.UNKNOWN, error)
        self._fail(run, [o for o in pending if o not in run.in_air], Outcome.NOT_CREATED, error)

    # One batch ---------------------------------------------------------------

    def _transport_failed(self, exc: BaseException) -> None:
        self._transport_failures += 1
        limit = self._max_transport_failures
        if limit is not None and self._transport_failures >= limit:
            self._halt(
                _Halted(f"stopped after {self._transport_failures} transport failures in a row: {exc}"),
                abandon_in_flight=False,
                broken=True,
            )

    async def _send(self, run: _BatchRun, offsets: list[int]) -> ImportResult:
        sent_at = math.nan

        def on_sent() -> None:
            nonlocal sent_at
            sent_at = self._clock.now()
            run.sending = True
            run.in_air.update(offsets)

        try:
            return await self._target.send([run.items[o] for o in offsets], on_sent)
        finally:
            run.sending = False
            if not math.isnan(sent_at):
                self._longest_flight = max(self._longest_flight, self._clock.now() - sent_at)

    async def _import(self, run: _BatchRun, pending: list[int]) -> None:
        isolated = await self._send_group(run, pending, 0)
        report = self.report
        start = run.batch.start
        if isolated and all(report.outcome(start + o) is not Outcome.CREATED for o in pending):
            # Every stop of the batch was refused one by one with a 400 naming none
            # of them: as good as a batch rejected as a whole.
            self._count_rejected_batch(isolated)

    async def _send_group(self, run: _BatchRun, offsets: list[int], resends: int) -> BadRequestError | None:
        """Send ``offsets`` of the batch until each has an outcome.

        Answers the last 400 naming no stop that forced a split, if any.
        """
        unnamed: BadRequestError | None = None
        while offsets:
            stopped = self._halt_error or self._stop_reading
            if stopped is not None:
                # The import is ending: nothing more is sent.
                self._fail(run, offsets, Outcome.NOT_CREATED, stopped)
                return unnamed
            try:
                result = await self._send(run, offsets)
            except UnicodeEncodeError as exc:
                # The body could not be built: nothing was sent.
                error = self._unencodable(run, offsets, exc)
                self._fail(run, offsets, Outcome.NOT_CREATED, error)
                self._stop(error)
                return unnamed
            except (AuthenticationError, PlanNotWritableError) as exc:
                # Every other batch would fail the same way: stop reading input.
                self._fail(run, offsets, Outcome.NOT_CREATED, exc)
                self._stop(exc)
                return unnamed
            except (ServerError, TransportError) as exc:
                if isinstance(exc, TransportError):
                    if not exc.maybe_sent:
                        # Never sent (a refused connection): the breaker counts it,
                        # not max_failed_batches, so the import ends with its report.
                        self._fail(run, offsets, Outcome.NOT_CREATED, exc)
                        self._transport_failed(exc)
                        return unnamed
                    self._transport_failed(exc)
                else:
                    self._transport_failures = 0
                offsets = await self._after_ambiguous(run, offsets, exc, resends)
                resends += 1
                continue
            except RateLimitError as exc:
                # The scheduler already retried the 429s; a 429 creates nothing.
                self._transport_failures = 0
                self._fail(run, offsets, Outcome.NOT_CREATED, exc)
                return unnamed
            except BadRequestError as exc:
                # A 400 created nothing: isolate the stop it is about and send the others again.
                self._transport_failures = 0
                run.in_air.difference_update(offsets)
                index = _refused_index(exc.param, len(offsets))
                if index is not None:
                    offset = offsets[index]
                    self.report._record_rejected(run.batch, offset, run.items[offset], exc.message)
                    offsets = offsets[:index] + offsets[index + 1 :]
                    continue
                if exc.param:
                    # The 400 names a field of the request, not one of its stops
                    # (the depot of an unassigned import): every half would meet it.
                    self._fail(run, offsets, Outcome.NOT_CREATED, exc)
                    self._count_rejected_batch(exc)
                    return unnamed
                if len(offsets) == 1:
                    offset = offsets[0]
                    self.report._record_rejected(run.batch, offset, run.items[offset], exc.message)
                    return exc
                half = len(offsets) // 2
                first = await self._send_group(run, offsets[:half], resends)
                second = await self._send_group(run, offsets[half:], resends)
                return second or first or exc
            except APIError as exc:
                self._transport_failures = 0
                self._fail(run, offsets, Outcome.NOT_CREATED, exc)
                self._count_rejected_batch(exc)
                return unnamed
            self._transport_failures = 0
            self._failures_in_a_row = 0
            self._attribute(run, offsets, result)
            return unnamed
        return unnamed

    def _unencodable(self, run: _BatchRun, offsets: list[int], exc: UnicodeEncodeError) -> ValidationError:
        """The row (and field) of a batch whose body could not be encoded."""
        for offset in offsets:
            try:
                _check_encodable(run.items[offset], f"{self._target.rows_name}[{run.batch.start + offset}]")
            except ValidationError as error:
                return error
        first = f"{self._target.rows_name}[{run.batch.start + offsets[0]}]"
        return ValidationError(first, f"cannot be encoded: {exc}")

    def _count_rejected_batch(self, exc: RoutePlanningError) -> None:
        self._failures_in_a_row += 1
        if self._max_failed_batches is not None and self._failures_in_a_row >= self._max_failed_batches:
            self._stop(exc)

    async def _after_ambiguous(
        self, run: _BatchRun, pending: list[int], exc: RoutePlanningError, resends: int
    ) -> list[int]:
        """Settle an ambiguous failure; answer the offsets to send again."""
        items = run.items
        keyed = [o for o in pending if self._key(items[o]) is not None]
        unkeyed = [o for o in pending if self._key(items[o]) is None]
        last_round = resends >= self._max_resends
        resend: list[int] = []

        if unkeyed:
            if self._at_least_once and not last_round and self._halt_error is None:
                run.in_air.difference_update(unkeyed)
                resend.extend(unkeyed)
            else:
                self._fail(run, unkeyed, Outcome.UNKNOWN, exc)

        if keyed:
            if self._broken:
                # The service does not answer: no lookup is started.
                self._fail(run, keyed, Outcome.UNKNOWN, exc)
                return sorted(resend)
            if isinstance(exc, TransportError) and self._settle_delay > 0:
                # No answer came back: give a request still being processed
                # by the service time to land before looking for its stops.
                await self._clock.sleep(self._settle_delay)
            absent, unresolved = await self._reconcile(run, keyed, exc)
            # A late commit of this request may still land: these are checked again at the end.
            start = run.batch.start
            self._verify.extend((start + o, key) for o in absent + unresolved if (key := self._key(items[o])))
            if unresolved:
                self._fail(run, unresolved, Outcome.UNKNOWN, exc)
            run.in_air.difference_update(absent)
            if last_round:
                # The lookup shows them absent and no resend is left.
                self._fail(run, absent, Outcome.NOT_CREATED, exc)
            else:
                resend.extend(absent)
        return sorted(resend)

    async def _reconcile(
        self, run: _BatchRun, offsets: list[int], cause: RoutePlanningError
    ) -> tuple[list[int], list[int]]:
        """Record the stops that exist as created.

        Answers the offsets found absent, and those whose lookup failed.
        """
        by_key: dict[str, list[int]] = {}
        for offset in offsets:
            key = self._key(run.items[offset])
            assert key is not None
            by_key.setdefault(key, []).append(offset)
        answers = await self._look_up(list(by_key))
        absent: list[int] = []
        unresolved: list[int] = []
        failures: list[str] = []
        for key, waiting in by_key.items():
            answer = answers[key]
            if isinstance(answer, BaseException):
                failures.append(f"externalId={key!r}: {answer}")
                unresolved.extend(waiting)
                continue
            for offset, stop_id in zip(waiting, answer, strict=False):
                self.report._record_created(run.batch, offset, stop_id)
                run.in_air.discard(offset)
            absent.extend(waiting[len(answer) :])
        if failures:
            cause.add_note(f"reconciliation failed for {len(failures)} stops, first {failures[0]}")
        return sorted(absent), sorted(unresolved)

    # Lookups -----------------------------------------------------------------

    async def _look_up(self, keys: list[str]) -> dict[str, list[str] | BaseException]:
        """The ids stored under each key.

        One shared listing when it costs fewer requests, else one filtered list per key.
        """
        if len(keys) > 1 and not self._listing_too_long and not self._broken:
            listed = await self._list_for(keys)
            if isinstance(listed, BaseException):
                # The service did not answer the listing (after the scheduler's
                # retries): filtered lists would fare no better.
                return dict.fromkeys(keys, listed)
            if listed is not None:
                return dict(listed)

        async def one(key: str) -> list[str] | BaseException:
            if self._broken:
                return RoutePlanningError("not looked up: the import's breaker is open")
            try:
                return await self._ids_for(key)
            except (RoutePlanningError, LookupError) as exc:
                return exc

        answers = await asyncio.gather(*(one(key) for key in keys))
        return dict(zip(keys, answers, strict=True))

    async def _list_for(self, keys: list[str]) -> dict[str, list[str]] | BaseException | None:
        """One paged listing of the collection, given up (None) once it needs as many pages as
        there are keys; the error when the service does not answer it."""
        wanted = set(keys)
        found: dict[str, list[str]] = {key: [] for key in keys}
        pages = 0
        try:
            async with self._gate_lookups, contextlib.aclosing(self._target.existing()) as listing:
                async for page in listing:
                    self._transport_failures = 0
                    pages += 1
                    for item_id, key in page:
                        if key in wanted:
                            found[key].append(item_id)
                    if pages >= len(keys):
                        self._listing_too_long = True
                        return None
        except TransportError as exc:
            self._transport_failed(exc)
            return exc
        except RoutePlanningError:
            return None
        return found

    async def _ids_for(self, key: str) -> list[str]:
        """Ids of the stops whose key is ``key``.

        Raises :class:`LookupError` when the service answers stops that do not
        carry the key: then it ignores the filter and cannot reconcile.
        """
        async with self._gate_lookups:
            attempt = 1
            while True:
                if self._broken:
                    raise RoutePlanningError("not looked up: the import's breaker is open")
                try:
                    found: list[str] = []
                    async for stop_id, external_id in self._target.find(key):
                        if external_id != key:
                            raise LookupError(f"the list filter externalId={key!r} returned other stops")
                        found.append(stop_id)
                    self._transport_failures = 0
                    return found
                except TransportError as exc:
                    # The scheduler already retried it as the retry policy says.
                    self._transport_failed(exc)
                    raise
                except ServerError:
                    # A list is a read: asking again is harmless. The scheduler
                    # already retried 5xx answers; this covers an answer whose
                    # body could not be read.
                    if attempt >= _LOOKUP_ATTEMPTS or self._broken:
                        raise
                    attempt += 1

    # Late commits ------------------------------------------------------------

    async def _check_late_commits(self) -> None:
        """Look up, once more, every keyed row whose send was once ambiguous.

        A request that got no answer may be applied by the service after the
        lookup that found its stops absent, and after their resend: then the
        key is stored twice. The check waits ``settle_delay``, or twice the
        longest time a request of this import was on the wire if that is
        longer, then lists the keys again.
        """
        wait = max(self._settle_delay, _VERIFY_FACTOR * self._longest_flight)
        if self._deadline is not None and self._clock.now() - self._started + wait >= self._deadline:
            return
        await self._clock.sleep(wait)
        rows = dict(self._verify)
        answers = await self._look_up(sorted(set(rows.values())))
        report = self.report
        # A duplicate is deleted only where its key is proven to be one row's: a
        # stream's keys are checked among its first _STREAM_KEYS keyed rows, so
        # past them two rows may share a key, and the "extra" stop be the other's.
        proven = self._length is not None or len(self._keys_seen) < _STREAM_KEYS
        shared = {key for key, count in collections.Counter(rows.values()).items() if count > 1}
        for position, key in sorted(rows.items()):
            answer = answers.get(key)
            if not isinstance(answer, list):
                continue
            # A row refused after its resend may still exist from the ambiguous send
            # before it: found now, it is created (and its refusal dropped).
            outcome = report.outcome(position)
            if outcome is Outcome.CREATED:
                kept = report.stop_id(position) if report.keep_ids else None
                extras = [i for i in answer if i != kept] if kept is not None else answer[1:]
                if kept is None and answer:
                    kept = answer[0]
            elif answer:
                kept = answer[0]
                report._reclassify(position, Outcome.CREATED, kept)
                extras = answer[1:]
            else:
                report._reclassify(position, Outcome.NOT_CREATED)
                continue
            if extras and kept is not None:
                await self._record_duplicate(position, kept, extras, delete=proven and key not in shared)

    async def _record_duplicate(self, position: int, kept: str, extras: list[str], *, delete: bool) -> None:
        error: BaseException | None = None
        deleted = False
        if self._dedupe and delete:
            try:
                for extra in extras:
                    await self._target.delete(extra)
                deleted = True
            except RoutePlanningError as exc:
                error = exc
        self.report.duplicates.append(DuplicateStop(position, kept, tuple(extras), deleted, error))

    def _attribute(self, run: _BatchRun, sent: list[int], result: ImportResult) -> None:
        items = run.items
        remaining = list(sent)
        unmatched = 0
        for failure in result.failed:
            offset = _match_failure(failure.stop, items, remaining, self._target)
            if offset is None:
                unmatched += 1
                continue
            remaining.remove(offset)
            self.report._record_rejected(run.batch, offset, items[offset], failure.message)
        if unmatched or len(remaining) != len(result.success):
            error = RoutePlanningError(
                f"the batch import answer could not be mapped to its inputs: {len(result.success)} created "
                f"and {len(result.failed)} failed ({unmatched} unmatched) for {len(sent)} stops sent"
            )
            self.report.unattributed_ids.extend(result.success)
            self._fail(run, remaining, Outcome.UNKNOWN, error)
            return
        for offset, stop_id in zip(remaining, result.success, strict=True):
            self.report._record_created(run.batch, offset, stop_id)
        run.in_air.difference_update(sent)

    # Progress ----------------------------------------------------------------

    def _finish(self) -> None:
        self.report._finish()
        self._progress(final=True)

    def _progress(self, *, final: bool) -> None:
        if self._on_progress is None:
            return
        report = self.report
        self._on_progress(
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
            )
        )


def _refused_index(param: str | None, size: int) -> int | None:
    """The position in the batch a 400's ``param`` names (``[20].recipient.name``), if any."""
    if not param:
        return None
    match = _REFUSED_INDEX.match(param)
    if match is None:
        return None
    index = int(match.group(1))
    return index if index < size else None


_ATTRIBUTE_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _ATTRIBUTE_NAMES.get(cls)
    if names is None:
        names = tuple(a.name for a in attrs.fields(cast(Any, cls))) if attrs.has(cls) else ()
        _ATTRIBUTE_NAMES[cls] = names
    return names


def _encode_strings(value: object) -> None:
    """Encode every string of an input as UTF-8 (the fast pass: no field names built)."""
    cls = type(value)
    if cls is str:
        cast(str, value).encode("utf-8")
        return
    names = _names(cls)
    if names:
        for name in names:
            _encode_strings(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            _encode_strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _encode_strings(key)
            _encode_strings(item)


def _check_encodable(value: object, field: str) -> None:
    """Raise a ``ValidationError`` naming the field of a string that cannot be sent as UTF-8."""
    try:
        _encode_strings(value)
    except UnicodeEncodeError:
        _find_unencodable(value, field)


def _find_unencodable(value: object, field: str) -> None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValidationError(
                field,
                f"is not valid text: {exc.object[exc.start : exc.end]!r} at character {exc.start} cannot be "
                "encoded as UTF-8 (a lone surrogate, e.g. from a file decoded with errors='surrogateescape')",
            ) from None
    elif names := _names(type(value)):
        for name in names:
            _find_unencodable(getattr(value, name), f"{field}.{name}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _find_unencodable(item, f"{field}[{index}]")
    elif isinstance(value, dict):
        for name, item in value.items():
            _find_unencodable(name, f"{field}.{name}")
            _find_unencodable(item, f"{field}.{name}")


def stop_key(item: StopInput | UnassignedStopInput) -> str | None:
    """A stop's natural key: its ``recipient.external_id``, when it has a non-empty one."""
    recipient = item.recipient
    if recipient is None or isinstance(recipient, UnsetType):
        return None
    key = recipient.external_id
    return key if isinstance(key, str) and key else None


def _same_value(given: object, echoed: object) -> bool:
    if given in (None, "") and echoed in (None, ""):
        return True
    if isinstance(given, int | float) and isinstance(echoed, int | float):
        return math.isclose(given, echoed, rel_tol=1e-9, abs_tol=1e-9)
    return given == echoed


def _same_address(item: StopInput | UnassignedStopInput, echoed: object) -> bool:
    if not isinstance(echoed, dict):
        return False
    given = unstructure(item.address)
    return all(_same_value(given.get(key), echoed.get(key)) for key in _ADDRESS_KEYS)


def _match_failure(
    echo: dict[str, Any],
    items: Sequence[StopInput | UnassignedStopInput],
    remaining: list[int],
    target: ImportTarget[Any],
) -> int | None:
    """The offset of the first unmatched input the failure's echo stands for."""
    recipient = echo.get("recipient")
    key = recipient.get("externalId") if isinstance(recipient, dict) else None
    address = echo.get("address")
    if isinstance(key, str) and key:
        candidates = [o for o in remaining if target.key(items[o]) == key]
        if len(candidates) == 1:
            return candidates[0]
        for offset in candidates:
            if _same_address(items[offset], address):
                return offset
        if candidates:
            return candidates[0]
    for offset in remaining:
        if _same_address(items[offset], address):
            return offset
    return None


# The entry point -----------------------------------------------------------------


async def run_import(
    target: ImportTarget[T],
    stops: Iterable[T] | AsyncIterable[T],
    *,
    limits: RateLimits,
    clock: Clock,
    **options: Unpack[ImportOptions],
) -> ImportReport[T]:
    """Import any number of stops into ``target``, streamed in batches, each stop exactly once.

    ``stops`` is any iterable or async iterable of the target's input class; it
    is read lazily, so memory stays flat in its length. Batches of
    ``batch_size`` go to ``target.send``, at most ``max_in_flight`` at a time;
    the scheduler paces them to the batch import limits in ``limits``, and
    ``clock`` times the settle delay and the deadline. The options, and their
    defaults, are those of :class:`ImportOptions`. See the module documentation
    for the exactly-once reconciliation by ``recipient.external_id``,
    isolation, validation, errors and cancellation.

    Raises:
        ValidationError: An option or an input row is invalid (``stops[<position>]...``).

    Returns:
        The :class:`~route_planning_async.ImportReport`.
    """
    check_options(options, ImportOptions.__optional_keys__, "import_many")
    max_resends = options.get("max_resends", 3)
    if max_resends < 0:
        raise ValidationError("max_resends", f"must be at least 0, got {max_resends}")
    settle_delay = options.get("settle_delay", 2.0)
    if not settle_delay >= 0:
        raise ValidationError("settle_delay", f"must be at least 0, got {settle_delay}")
    max_failed_batches = options.get("max_failed_batches", 3)
    if max_failed_batches is not None and max_failed_batches < 1:
        raise ValidationError("max_failed_batches", f"must be at least 1 or None, got {max_failed_batches}")
    max_transport_failures = options.get("max_transport_failures", 5)
    if max_transport_failures is not None and max_transport_failures < 1:
        raise ValidationError(
            "max_transport_failures", f"must be at least 1 or None, got {max_transport_failures}"
        )
    deadline = _deadline_seconds(options.get("deadline"))
    stop_event = options.get("stop_event")
    if stop_event is not None and not isinstance(stop_event, asyncio.Event):
        raise ValidationError("stop_event", f"must be an asyncio.Event, got {type(stop_event).__name__}")
    size = _batch_size(limits, options.get("batch_size", MAX_IMPORT_BATCH))
    keep_ids = options.get("keep_ids", True)
    report: ImportReport[T] = ImportReport(id_prefix=target.id_prefix, batch_size=size, keep_ids=keep_ids)
    importer = _Importer(
        target,
        clock=clock,
        report=report,
        batch_size=size,
        max_in_flight=_in_flight(limits, options.get("max_in_flight")),
        at_least_once=options.get("at_least_once", False),
        max_resends=max_resends,
        settle_delay=settle_delay,
        max_failed_batches=max_failed_batches,
        on_progress=options.get("on_progress"),
        skip_existing=options.get("skip_existing", False),
        allow_duplicate_keys=options.get("allow_duplicate_keys", False),
        dedupe=options.get("dedupe", False),
        deadline=deadline,
        max_transport_failures=max_transport_failures,
        stop_event=stop_event,
    )
    return await importer.run(stops)


def _deadline_seconds(deadline: object) -> float | None:
    """The deadline as seconds from now: given so, or as an aware absolute time."""
    if deadline is None:
        return None
    if isinstance(deadline, datetime.datetime):
        if deadline.tzinfo is None:
            raise ValidationError("deadline", "an absolute time must be timezone-aware")
        return max(0.0, (deadline - datetime.datetime.now(datetime.UTC)).total_seconds())
    if isinstance(deadline, int | float) and not isinstance(deadline, bool) and deadline >= 0:
        return float(deadline)
    raise ValidationError("deadline", f"must be seconds (at least 0) or an aware datetime, got {deadline!r}")


def _batch_size(limits: RateLimits, requested: int) -> int:
    if not 1 <= requested <= MAX_IMPORT_BATCH:
        raise ValidationError("batch_size", f"must be 1 to {MAX_IMPORT_BATCH}, got {requested}")
    cap = limits.max_weight(Category.BATCH_IMPORT)
    # A batch heavier than a weighted rule's amount could never be admitted.
    return min(requested, cap) if cap is not None else requested


def _in_flight(limits: RateLimits, requested: int | None) -> int:
    if requested is not None:
        if requested < 1:
            raise ValidationError("max_in_flight", f"must be at least 1, got {requested}")
        return requested
    # Enough batches queued to use a whole window of the request rule at once
    # (10 per minute by default); the scheduler makes them wait, in order.
    amounts = [r.amount for r in limits.for_category(Category.BATCH_IMPORT) if r.per == "request"]
    if not amounts:
        return _DEFAULT_IN_FLIGHT
    return max(2, min(_MAX_IN_FLIGHT, min(amounts)))
