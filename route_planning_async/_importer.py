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
duplicated).

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
(``stops[1234].address.latitude``) when the input iterator raises one, or when
an item is not a ``StopInput``. A :class:`~collections.abc.Sequence` (a list, a
tuple) is checked in full before anything is sent, so a bad row sends nothing.
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
every outcome: the batches that were in flight are ``unknown`` (the request may
have reached the service); rows read but not yet handed to the client are
``not_created``; rows not read remain in the caller's iterator.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypedDict, TypeVar, Unpack

from route_planning_async._converter import unstructure
from route_planning_async._errors import (
    APIError,
    AuthenticationError,
    PlanNotWritableError,
    RateLimitError,
    RoutePlanningError,
    ServerError,
    TransportError,
    ValidationError,
)
from route_planning_async._import_report import (
    PENDING,
    BatchOutcomes,
    ImportProgress,
    ImportReport,
    Outcome,
    ProgressCallback,
)
from route_planning_async._inputs import MAX_IMPORT_BATCH, StopInput, UnassignedStopInput
from route_planning_async._limits import Category, RateLimits
from route_planning_async._models import ImportResult
from route_planning_async._scheduler import Clock
from route_planning_async._validators import UnsetType, check_options

__all__ = ["ImportOptions", "ImportTarget", "run_import"]

T = TypeVar("T", bound=StopInput | UnassignedStopInput)

_DEFAULT_IN_FLIGHT = 8
_MAX_IN_FLIGHT = 32
_LOOKUP_CONCURRENCY = 10
_LOOKUP_ATTEMPTS = 3
_FIELD = "stops"
"""How validation errors name the input: ``stops[<position>]``."""
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


class ImportTarget(Protocol[T]):
    """The collection a bulk import creates its stops in."""

    @property
    def item_type(self) -> type[T]:
        """The input class every row must be."""

    @property
    def id_prefix(self) -> str:
        """What every created stop's id starts with (``plans/<id>/stops/``); ids are kept without it."""

    def check(self, item: T, field: str) -> None:
        """Raise :class:`~route_planning_async.ValidationError` for a row this target refuses."""

    async def send(self, batch: list[T]) -> ImportResult:
        """Import one batch (1 to 100 rows) in one request."""

    def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        """``(stop id, recipient external id)`` of the stops the service lists for ``external_id``."""


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
    """Seconds to wait, after a request got no answer, before looking up its stops. Default 2.0."""
    max_failed_batches: int | None
    """Stop reading the input after this many batches in a row were rejected as
    a whole (4xx): the import then raises that error. None never stops. A 401
    or a ``plan_not_writable`` stops it at once. Default 3."""


class _Lookup:
    """Finds the stops of the collection that carry an external id (the reconciliation)."""

    def __init__(self, find: Callable[[str], AsyncIterator[tuple[str, str | None]]]) -> None:
        self._find = find
        self._gate = asyncio.Semaphore(_LOOKUP_CONCURRENCY)

    async def ids_for(self, key: str) -> list[str]:
        """Ids of the stops whose ``recipient.externalId`` is ``key``.

        Raises :class:`LookupError` when the service answers stops that do not
        carry the key: then it ignores the filter and cannot reconcile.
        """
        async with self._gate:
            attempt = 1
            while True:
                try:
                    return await self._ids_for(key)
                except (ServerError, TransportError):
                    # A list is a read: asking again is harmless. The scheduler
                    # already retried 5xx answers; this covers an answer whose
                    # body could not be read.
                    if attempt == _LOOKUP_ATTEMPTS:
                        raise
                    attempt += 1

    async def _ids_for(self, key: str) -> list[str]:
        found: list[str] = []
        async for stop_id, external_id in self._find(key):
            if external_id != key:
                raise LookupError(f"the list filter externalId={key!r} returned other stops")
            found.append(stop_id)
        return found


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
    ) -> None:
        self._target = target
        self._clock = clock
        self._lookup = _Lookup(target.find)
        self.report = report
        self._batch_size = batch_size
        self._max_in_flight = max_in_flight
        self._at_least_once = at_least_once
        self._max_resends = max_resends
        self._settle_delay = settle_delay
        self._max_failed_batches = max_failed_batches
        self._on_progress = on_progress
        self._length: int | None = None
        self._buffer: list[T] = []
        self._stop_reading: BaseException | None = None
        self._failures_in_a_row = 0

    # Input -------------------------------------------------------------------

    def check_item(self, position: int, item: object) -> T:
        item_type = self._target.item_type
        if not isinstance(item, item_type):
            raise ValidationError(
                f"{_FIELD}[{position}]", f"must be a {item_type.__name__}, got {type(item).__name__}"
            )
        self._target.check(item, f"{_FIELD}[{position}]")
        return item

    async def _rows(self, stops: Iterable[T] | AsyncIterable[T]) -> AsyncGenerator[T, None]:
        """The input, item by item, each checked and named by its position on error."""
        if isinstance(stops, AsyncIterable):
            iterator = aiter(stops)
            while True:
                try:
                    item = await anext(iterator)
                except StopAsyncIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{_FIELD}[{self._next_position}]") from exc
                yield self.check_item(self._next_position, item)
        else:
            sync_iterator = iter(stops)
            while True:
                try:
                    item = next(sync_iterator)
                except StopIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{_FIELD}[{self._next_position}]") from exc
                yield self.check_item(self._next_position, item)

    @property
    def _next_position(self) -> int:
        return self.report.total + len(self._buffer)

    # Run ---------------------------------------------------------------------

    async def run(self, stops: Iterable[T] | AsyncIterable[T]) -> ImportReport[T]:
        if isinstance(stops, Sequence):
            self._length = len(stops)
            # Already in memory: check every item before the first batch goes out.
            for position, item in enumerate(stops):
                self.check_item(position, item)
        gate = asyncio.Semaphore(self._max_in_flight)
        try:
            async with asyncio.TaskGroup() as group:
                try:
                    await self._read(stops, gate, group)
                except Exception as exc:
                    # Raised below, once the batches in flight have ended.
                    self._stop(exc)
                    self._abandon_buffer(exc)
        except asyncio.CancelledError as exc:
            self._abandon_buffer(exc)
            self._finish()
            raise
        self._finish()
        if self._stop_reading is not None:
            raise self._stop_reading
        return self.report

    def _stop(self, error: BaseException) -> None:
        """Read no more input; the import raises ``error`` when the batches in flight end."""
        if self._stop_reading is None:
            self._stop_reading = error

    async def _read(
        self, stops: Iterable[T] | AsyncIterable[T], gate: asyncio.Semaphore, group: asyncio.TaskGroup
    ) -> None:
        rows = self._rows(stops)
        try:
            while True:
                # A slot is taken before the next batch is read, so at most
                # max_in_flight batches are held in memory, plus the one being read.
                await gate.acquire()
                if self._stop_reading is not None:
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
                if not self._buffer or self._stop_reading is not None:
                    gate.release()
                    self._abandon_buffer(self._stop_reading)
                    return
                items, self._buffer = self._buffer, []
                batch = self.report._open_batch(len(items))
                group.create_task(self._run_batch(batch, items, gate))
        finally:
            await rows.aclose()

    def _abandon_buffer(self, error: BaseException | None) -> None:
        """Rows read but never handed to the client: they were not sent."""
        items, self._buffer = self._buffer, []
        if items and error is not None:
            batch = self.report._open_batch(len(items))
            self.report._record_failed(batch, range(len(items)), items, Outcome.NOT_CREATED, error)
            self.report._close_batch(batch)

    async def _run_batch(self, batch: BatchOutcomes, items: list[T], gate: asyncio.Semaphore) -> None:
        try:
            await self._import(batch, items)
        except asyncio.CancelledError as exc:
            # The request may have reached the service: its outcome is unknown.
            self._fail_pending(batch, items, Outcome.UNKNOWN, exc)
            raise
        except Exception as exc:
            # Not an answer of the service (a bug, a closed client): record it and end the import.
            self._fail_pending(batch, items, Outcome.UNKNOWN, exc)
            self._stop(exc)
        finally:
            gate.release()
            self.report._close_batch(batch)
            try:
                self._progress(final=False)
            except Exception as exc:
                self._stop(exc)

    def _fail(
        self, batch: BatchOutcomes, items: list[T], offsets: list[int], outcome: Outcome, error: BaseException
    ) -> None:
        self.report._record_failed(batch, offsets, [items[o] for o in offsets], outcome, error)

    def _fail_pending(
        self, batch: BatchOutcomes, items: list[T], outcome: Outcome, error: BaseException
    ) -> None:
        offsets = [o for o, code in enumerate(batch.codes) if code == PENDING]
        self._fail(batch, items, offsets, outcome, error)

    # One batch ---------------------------------------------------------------

    async def _import(self, batch: BatchOutcomes, items: list[T]) -> None:
        pending = list(range(len(items)))
        resends = 0
        while pending:
            try:
                result = await self._target.send([items[o] for o in pending])
            except (AuthenticationError, PlanNotWritableError) as exc:
                # Every other batch would fail the same way: stop reading input.
                self._fail(batch, items, pending, Outcome.NOT_CREATED, exc)
                self._stop(exc)
                return
            except (ServerError, TransportError) as exc:
                if isinstance(exc, TransportError) and not exc.maybe_sent:
                    self._batch_rejected(batch, items, pending, exc)
                    return
                pending = await self._after_ambiguous(batch, items, pending, exc, resends)
                resends += 1
                continue
            except RateLimitError as exc:
                # The scheduler already retried the 429s; a 429 creates nothing.
                self._fail(batch, items, pending, Outcome.NOT_CREATED, exc)
                return
            except APIError as exc:
                self._batch_rejected(batch, items, pending, exc)
                return
            self._failures_in_a_row = 0
            self._attribute(batch, items, pending, result)
            return

    def _batch_rejected(
        self, batch: BatchOutcomes, items: list[T], pending: list[int], exc: RoutePlanningError
    ) -> None:
        self._fail(batch, items, pending, Outcome.NOT_CREATED, exc)
        self._failures_in_a_row += 1
        if self._max_failed_batches is not None and self._failures_in_a_row >= self._max_failed_batches:
            self._stop(exc)

    async def _after_ambiguous(
        self, batch: BatchOutcomes, items: list[T], pending: list[int], exc: RoutePlanningError, resends: int
    ) -> list[int]:
        """Settle an ambiguous failure; answer the offsets to send again."""
        keyed = [o for o in pending if _external_id(items[o]) is not None]
        unkeyed = [o for o in pending if _external_id(items[o]) is None]
        last_round = resends >= self._max_resends
        resend: list[int] = []

        if unkeyed:
            if self._at_least_once and not last_round:
                resend.extend(unkeyed)
            else:
                self._fail(batch, items, unkeyed, Outcome.UNKNOWN, exc)

        if keyed:
            if isinstance(exc, TransportError) and self._settle_delay > 0:
                # No answer came back: give a request still being processed
                # by the service time to land before looking for its stops.
                await self._clock.sleep(self._settle_delay)
            absent, unresolved = await self._reconcile(batch, items, keyed, exc)
            if unresolved:
                self._fail(batch, items, unresolved, Outcome.UNKNOWN, exc)
            if last_round:
                # The lookup shows them absent and no resend is left.
                self._fail(batch, items, absent, Outcome.NOT_CREATED, exc)
            else:
                resend.extend(absent)
        return sorted(resend)

    async def _reconcile(
        self, batch: BatchOutcomes, items: list[T], offsets: list[int], cause: RoutePlanningError
    ) -> tuple[list[int], list[int]]:
        """Record the stops that exist as created.

        Answers the offsets found absent, and those whose lookup failed.
        """
        lookup = self._lookup
        by_key: dict[str, list[int]] = {}
        for offset in offsets:
            key = _external_id(items[offset])
            assert key is not None
            by_key.setdefault(key, []).append(offset)

        async def look_up(key: str) -> list[str] | Exception:
            try:
                return await lookup.ids_for(key)
            except (RoutePlanningError, LookupError) as exc:
                return exc

        keys = list(by_key)
        answers = await asyncio.gather(*(look_up(key) for key in keys))
        absent: list[int] = []
        unresolved: list[int] = []
        failures: list[str] = []
        for key, answer in zip(keys, answers, strict=True):
            waiting = by_key[key]
            if isinstance(answer, Exception):
                failures.append(f"externalId={key!r}: {answer}")
                unresolved.extend(waiting)
                continue
            for offset, stop_id in zip(waiting, answer, strict=False):
                self.report._record_created(batch, offset, stop_id)
            absent.extend(waiting[len(answer) :])
        if failures:
            cause.add_note(f"reconciliation failed for {len(failures)} stops, first {failures[0]}")
        return sorted(absent), sorted(unresolved)

    def _attribute(self, batch: BatchOutcomes, items: list[T], sent: list[int], result: ImportResult) -> None:
        remaining = list(sent)
        unmatched = 0
        for failure in result.failed:
            offset = _match_failure(failure.stop, items, remaining)
            if offset is None:
                unmatched += 1
                continue
            remaining.remove(offset)
            self.report._record_rejected(batch, offset, items[offset], failure.message)
        if unmatched or len(remaining) != len(result.success):
            error = RoutePlanningError(
                f"the batch import answer could not be mapped to its inputs: {len(result.success)} created "
                f"and {len(result.failed)} failed ({unmatched} unmatched) for {len(sent)} stops sent"
            )
            self.report.unattributed_ids.extend(result.success)
            self._fail(batch, items, remaining, Outcome.UNKNOWN, error)
            return
        for offset, stop_id in zip(remaining, result.success, strict=True):
            self.report._record_created(batch, offset, stop_id)

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
            )
        )


def _external_id(item: StopInput | UnassignedStopInput) -> str | None:
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
    echo: dict[str, Any], items: Sequence[StopInput | UnassignedStopInput], remaining: list[int]
) -> int | None:
    """The offset of the first unmatched input the failure's echo stands for."""
    recipient = echo.get("recipient")
    key = recipient.get("externalId") if isinstance(recipient, dict) else None
    address = echo.get("address")
    if isinstance(key, str) and key:
        candidates = [o for o in remaining if _external_id(items[o]) == key]
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
    ``clock`` times the settle delay. The options, and their defaults, are
    those of :class:`ImportOptions`. See the module documentation for the
    exactly-once reconciliation by ``recipient.external_id``, validation,
    errors and cancellation.

    :raises ValidationError: an option or an input row is invalid (``stops[<position>]...``).
    :returns: the :class:`~route_planning_async.ImportReport`.
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
    )
    return await importer.run(stops)


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
