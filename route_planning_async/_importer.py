"""The bulk importer: any number of stops, streamed in batches of 100, each created exactly once.

:func:`import_many` (``client.stops.import_many``) and :func:`import_unassigned_many`
(``client.unassigned_stops.import_many``) read their input lazily, cut it into
batches of at most 100 (contract, Limits: batch import size), and send a
bounded number of batches concurrently through the client's ``import_batch``.
The scheduler does all the waiting for the batch-import limits (10 requests and
1,000 stops per minute by default), in FIFO order; a 429 is retried there too.

Every input position ends with exactly one :class:`Outcome` in the
:class:`ImportReport`:

``created``
    The stop exists; its id is kept (compactly) unless ``keep_ids=False``.
``rejected``
    The service refused this stop inside a 200 answer (a ``failed`` entry); its
    message and the input are in :attr:`ImportReport.rejected_stops`.
``not_created``
    Its batch failed as a whole (a 4xx, a 429 after the scheduler's retries, a
    connection never made, or a reconciliation that found it absent after the
    last resend). The inputs are in :attr:`ImportReport.failed_batches`; they
    are safe to send again.
``unknown``
    The outcome could not be established: the batch got an ambiguous failure
    and could not be reconciled (no ``recipient.external_id``, or the lookup
    failed), or the import was cancelled while the batch was in flight. The
    inputs are in :attr:`ImportReport.failed_batches`; look them up before
    sending them again.

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
import enum
import math
import time
from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Sequence,
)
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from route_planning_async import _ids
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
from route_planning_async._inputs import MAX_IMPORT_BATCH, StopInput, UnassignedStopInput, UnsetType
from route_planning_async._limits import Category

if TYPE_CHECKING:
    from route_planning_async._client import RoutePlanningClient
    from route_planning_async._models import ImportResult

__all__ = [
    "FailedBatch",
    "ImportProgress",
    "ImportReport",
    "Outcome",
    "RejectedStop",
    "import_many",
    "import_unassigned_many",
]

T = TypeVar("T", bound=StopInput | UnassignedStopInput)

ProgressCallback = Callable[["ImportProgress[Any]"], object]

_DEFAULT_IN_FLIGHT = 8
_MAX_IN_FLIGHT = 32
_LOOKUP_CONCURRENCY = 10
_LOOKUP_ATTEMPTS = 3
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


class Outcome(enum.StrEnum):
    """What became of one input position."""

    CREATED = "created"
    """The stop exists on the service."""
    REJECTED = "rejected"
    """The service refused this stop; see :attr:`ImportReport.rejected_stops`."""
    NOT_CREATED = "not_created"
    """Its batch failed as a whole and the stop does not exist; safe to resend."""
    UNKNOWN = "unknown"
    """It may or may not exist; look it up before resending."""


_CODE = {
    Outcome.CREATED: ord("c"),
    Outcome.REJECTED: ord("r"),
    Outcome.NOT_CREATED: ord("n"),
    Outcome.UNKNOWN: ord("u"),
}
_OUTCOME_OF_CODE = {code: outcome for outcome, code in _CODE.items()}
_PENDING = ord("p")


@attrs.frozen
class RejectedStop(Generic[T]):
    """A stop the service refused inside a successful batch answer."""

    position: int
    """Its position in the input (0-based)."""
    stop: T
    """The input, to fix and send again."""
    message: str
    """The service's message."""


@attrs.frozen
class FailedBatch(Generic[T]):
    """Stops of one batch whose outcome is ``not_created`` or ``unknown``."""

    outcome: Outcome
    """:attr:`Outcome.NOT_CREATED` (safe to resend) or :attr:`Outcome.UNKNOWN`."""
    positions: tuple[int, ...]
    """Their positions in the input, in order."""
    stops: tuple[T, ...]
    """The inputs, in the same order as ``positions``."""
    error: BaseException
    """Why: the API or transport error, a ``CancelledError``, or the reconciliation problem."""

    def items(self) -> Iterator[tuple[int, T]]:
        """``(position, input)`` pairs."""
        return zip(self.positions, self.stops, strict=True)


class _Batch:
    """The outcomes of one slice of the input; ids are kept as one compact string."""

    __slots__ = ("codes", "ids", "packed_ids", "start")

    def __init__(self, start: int, size: int, keep_ids: bool) -> None:
        self.start = start
        self.codes = bytearray([_PENDING]) * size
        self.ids: list[str] | None = [""] * size if keep_ids else None
        self.packed_ids: str | None = None

    def id_at(self, offset: int) -> str:
        if self.ids is not None:
            return self.ids[offset]
        if self.packed_ids is None:
            return ""
        return self.packed_ids.split("\n")[offset]

    def pack(self, prefix: str) -> None:
        # One string per 100 stops instead of 100 string objects: 1,000,000
        # created ids cost tens of megabytes, not hundreds.
        if self.ids is not None:
            self.packed_ids = "\n".join(_shorten(i, prefix) for i in self.ids)
            self.ids = None


def _shorten(stop_id: str, prefix: str) -> str:
    if not stop_id:
        return ""
    # Ids are 1-50 of [A-Za-z0-9_-] (contract, General conventions), so "!" can
    # mark an id that does not start with the expected prefix.
    return stop_id[len(prefix) :] if stop_id.startswith(prefix) else "!" + stop_id


def _expand(short: str, prefix: str) -> str:
    if not short:
        return ""
    return short[1:] if short.startswith("!") else prefix + short


class ImportReport(Generic[T]):
    """Every input position and its :class:`Outcome`; counts, time and throughput.

    Failures are kept in full (:attr:`rejected_stops`, :attr:`failed_batches`);
    created stops only as counts and, unless ``keep_ids=False``, their ids packed
    one string per batch, so the report stays small for millions of stops.
    """

    def __init__(self, *, id_prefix: str, batch_size: int, keep_ids: bool) -> None:
        self._id_prefix = id_prefix
        self._batch_size = batch_size
        self._batches: list[_Batch] = []
        self._started = time.monotonic()
        self._finished: float | None = None
        self.keep_ids = keep_ids
        """Whether the ids of created stops were kept."""
        self.total = 0
        """Input positions read: every position below it has an outcome."""
        self.created = 0
        """Stops created."""
        self.rejected = 0
        """Stops refused by the service (``rejected``)."""
        self.not_created = 0
        """Stops of batches that failed as a whole (``not_created``)."""
        self.unknown = 0
        """Stops whose outcome is unknown."""
        self.rejected_stops: list[RejectedStop[T]] = []
        """Every rejected stop, with the service's message."""
        self.failed_batches: list[FailedBatch[T]] = []
        """Every batch (or part of one) that is ``not_created`` or ``unknown``, with its inputs."""
        self.unattributed_ids: list[str] = []
        """Created ids that an answer gave but that could not be tied to an input."""

    def __repr__(self) -> str:
        return (
            f"<ImportReport total={self.total} created={self.created} rejected={self.rejected} "
            f"not_created={self.not_created} unknown={self.unknown} elapsed={self.elapsed:.1f}s>"
        )

    @property
    def done(self) -> int:
        """Positions with a final outcome."""
        return self.created + self.rejected + self.not_created + self.unknown

    @property
    def failed(self) -> int:
        """Stops known not to exist: ``rejected`` plus ``not_created``."""
        return self.rejected + self.not_created

    @property
    def ok(self) -> bool:
        """True when every position read was created."""
        return self.created == self.total

    @property
    def elapsed(self) -> float:
        """Seconds from the start of the import to its end (or to now, while it runs)."""
        end = self._finished if self._finished is not None else time.monotonic()
        return end - self._started

    @property
    def throughput(self) -> float:
        """Stops created per second."""
        elapsed = self.elapsed
        return self.created / elapsed if elapsed > 0 else 0.0

    def outcome(self, position: int) -> Outcome:
        """The outcome of input ``position``; ``IndexError`` beyond :attr:`total`."""
        batch, offset = self._locate(position)
        code = batch.codes[offset]
        if code == _PENDING:
            raise LookupError(f"position {position} has no outcome yet")
        return _OUTCOME_OF_CODE[code]

    def stop_id(self, position: int) -> str | None:
        """The id of the stop created for ``position``; None when it was not created.

        Raises :class:`LookupError` when the report was made with ``keep_ids=False``.
        """
        if not self.keep_ids:
            raise LookupError("the import ran with keep_ids=False: ids were not kept")
        batch, offset = self._locate(position)
        if batch.codes[offset] != _CODE[Outcome.CREATED]:
            return None
        stop_id = batch.id_at(offset)
        return _expand(stop_id, self._id_prefix) if batch.ids is None else stop_id

    def created_ids(self) -> Iterator[tuple[int, str]]:
        """``(position, stop id)`` of every created stop, in input order (needs ``keep_ids``)."""
        if not self.keep_ids:
            raise LookupError("the import ran with keep_ids=False: ids were not kept")
        created = _CODE[Outcome.CREATED]
        for batch in self._batches:
            if batch.ids is not None:
                ids = batch.ids
            else:
                ids = [_expand(s, self._id_prefix) for s in (batch.packed_ids or "").split("\n")]
            for offset, code in enumerate(batch.codes):
                if code == created:
                    yield batch.start + offset, ids[offset]

    def to_resend(self) -> list[tuple[int, T]]:
        """``(position, input)`` of the stops known not to exist because their batch failed."""
        return [
            item
            for failed in self.failed_batches
            if failed.outcome is Outcome.NOT_CREATED
            for item in failed.items()
        ]

    def uncertain(self) -> list[tuple[int, T]]:
        """``(position, input)`` of the stops whose outcome is unknown."""
        return [
            item
            for failed in self.failed_batches
            if failed.outcome is Outcome.UNKNOWN
            for item in failed.items()
        ]

    # Recording (the importer's side) -----------------------------------------

    def _locate(self, position: int) -> tuple[_Batch, int]:
        if not 0 <= position < self.total:
            raise IndexError(f"position {position} is outside the {self.total} positions read")
        index, offset = divmod(position, self._batch_size)
        return self._batches[index], offset

    def _open_batch(self, size: int) -> _Batch:
        batch = _Batch(self.total, size, self.keep_ids)
        self._batches.append(batch)
        self.total += size
        return batch

    def _set(self, batch: _Batch, offset: int, outcome: Outcome) -> bool:
        if batch.codes[offset] != _PENDING:
            return False
        batch.codes[offset] = _CODE[outcome]
        if outcome is Outcome.CREATED:
            self.created += 1
        elif outcome is Outcome.REJECTED:
            self.rejected += 1
        elif outcome is Outcome.NOT_CREATED:
            self.not_created += 1
        else:
            self.unknown += 1
        return True

    def _record_created(self, batch: _Batch, offset: int, stop_id: str) -> None:
        if self._set(batch, offset, Outcome.CREATED) and batch.ids is not None:
            batch.ids[offset] = stop_id

    def _record_rejected(self, batch: _Batch, offset: int, stop: T, message: str) -> None:
        if self._set(batch, offset, Outcome.REJECTED):
            self.rejected_stops.append(RejectedStop(batch.start + offset, stop, message))

    def _record_failed(
        self,
        batch: _Batch,
        offsets: Sequence[int],
        stops: Sequence[T],
        outcome: Outcome,
        error: BaseException,
    ) -> None:
        kept = [(o, s) for o, s in zip(offsets, stops, strict=True) if self._set(batch, o, outcome)]
        if kept:
            self.failed_batches.append(
                FailedBatch(
                    outcome,
                    tuple(batch.start + o for o, _ in kept),
                    tuple(s for _, s in kept),
                    error,
                )
            )

    def _close_batch(self, batch: _Batch) -> None:
        batch.pack(self._id_prefix)

    def _finish(self) -> None:
        self._finished = time.monotonic()


@attrs.frozen
class ImportProgress(Generic[T]):
    """A snapshot passed to ``on_progress`` each time a batch finishes."""

    done: int
    """Positions with a final outcome."""
    read: int
    """Positions read from the input so far."""
    total: int | None
    """Length of the input when it has one (a Sequence), else None."""
    created: int
    """Stops created so far."""
    failed: int
    """Stops known not to exist so far (rejected plus not created)."""
    unknown: int
    """Stops whose outcome is unknown so far."""
    elapsed: float
    """Seconds since the import started."""
    report: ImportReport[T]
    """The live report; complete for every position below ``done`` once ``final`` is set."""
    final: bool = False
    """True for the last call: the import ended, was cancelled, or is about to raise."""


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
        *,
        item_type: type[T],
        send: Callable[[list[T]], Awaitable[ImportResult]],
        lookup: _Lookup,
        report: ImportReport[T],
        batch_size: int,
        max_in_flight: int,
        at_least_once: bool,
        max_resends: int,
        settle_delay: float,
        max_failed_batches: int | None,
        on_progress: ProgressCallback | None,
        field: str,
    ) -> None:
        self._item_type = item_type
        self._send = send
        self._lookup = lookup
        self.report = report
        self._batch_size = batch_size
        self._max_in_flight = max_in_flight
        self._at_least_once = at_least_once
        self._max_resends = max_resends
        self._settle_delay = settle_delay
        self._max_failed_batches = max_failed_batches
        self._on_progress = on_progress
        self._field = field
        self._length: int | None = None
        self._buffer: list[T] = []
        self._stop_reading: BaseException | None = None
        self._failures_in_a_row = 0

    # Input -------------------------------------------------------------------

    def check_item(self, position: int, item: object) -> T:
        if not isinstance(item, self._item_type):
            raise ValidationError(
                f"{self._field}[{position}]",
                f"must be a {self._item_type.__name__}, got {type(item).__name__}",
            )
        if isinstance(item, UnassignedStopInput) and not isinstance(item.depot, UnsetType):
            # The depot of an unassigned stop import is shared by the whole
            # request (public API documentation, POST /unassignedStops:import).
            raise ValidationError(
                f"{self._field}[{position}].depot",
                "must not be set on stops of a bulk import; pass depot= to the import instead",
            )
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
                    raise exc.at(f"{self._field}[{self._next_position}]") from exc
                yield self.check_item(self._next_position, item)
        else:
            sync_iterator = iter(stops)
            while True:
                try:
                    item = next(sync_iterator)
                except StopIteration:
                    return
                except ValidationError as exc:
                    raise exc.at(f"{self._field}[{self._next_position}]") from exc
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

    async def _run_batch(self, batch: _Batch, items: list[T], gate: asyncio.Semaphore) -> None:
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
        self, batch: _Batch, items: list[T], offsets: list[int], outcome: Outcome, error: BaseException
    ) -> None:
        self.report._record_failed(batch, offsets, [items[o] for o in offsets], outcome, error)

    def _fail_pending(self, batch: _Batch, items: list[T], outcome: Outcome, error: BaseException) -> None:
        offsets = [o for o, code in enumerate(batch.codes) if code == _PENDING]
        self._fail(batch, items, offsets, outcome, error)

    # One batch ---------------------------------------------------------------

    async def _import(self, batch: _Batch, items: list[T]) -> None:
        pending = list(range(len(items)))
        resends = 0
        while pending:
            try:
                result = await self._send([items[o] for o in pending])
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
        self, batch: _Batch, items: list[T], pending: list[int], exc: RoutePlanningError
    ) -> None:
        self._fail(batch, items, pending, Outcome.NOT_CREATED, exc)
        self._failures_in_a_row += 1
        if self._max_failed_batches is not None and self._failures_in_a_row >= self._max_failed_batches:
            self._stop(exc)

    async def _after_ambiguous(
        self, batch: _Batch, items: list[T], pending: list[int], exc: RoutePlanningError, resends: int
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
                await asyncio.sleep(self._settle_delay)
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
        self, batch: _Batch, items: list[T], offsets: list[int], cause: RoutePlanningError
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

    def _attribute(self, batch: _Batch, items: list[T], sent: list[int], result: ImportResult) -> None:
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


# Entry points ------------------------------------------------------------------


def _in_flight(client: RoutePlanningClient, requested: int | None) -> int:
    if requested is not None:
        if requested < 1:
            raise ValidationError("max_in_flight", f"must be at least 1, got {requested}")
        return requested
    # Enough batches queued to use a whole window of the request rule at once
    # (10 per minute by default); the scheduler makes them wait, in order.
    amounts = [r.amount for r in client.rate_limits.for_category(Category.BATCH_IMPORT) if r.per == "request"]
    if not amounts:
        return _DEFAULT_IN_FLIGHT
    return max(2, min(_MAX_IN_FLIGHT, min(amounts)))


def _batch_size(client: RoutePlanningClient, requested: int) -> int:
    if not 1 <= requested <= MAX_IMPORT_BATCH:
        raise ValidationError("batch_size", f"must be 1 to {MAX_IMPORT_BATCH}, got {requested}")
    cap = client.rate_limits.max_weight(Category.BATCH_IMPORT)
    # A batch heavier than a weighted rule's amount could never be admitted.
    return min(requested, cap) if cap is not None else requested


def _check_settings(max_resends: int, settle_delay: float, max_failed_batches: int | None) -> None:
    if max_resends < 0:
        raise ValidationError("max_resends", f"must be at least 0, got {max_resends}")
    if not settle_delay >= 0:
        raise ValidationError("settle_delay", f"must be at least 0, got {settle_delay}")
    if max_failed_batches is not None and max_failed_batches < 1:
        raise ValidationError("max_failed_batches", f"must be at least 1 or None, got {max_failed_batches}")


async def import_many(
    client: RoutePlanningClient,
    plan_id: str,
    stops: Iterable[StopInput] | AsyncIterable[StopInput],
    *,
    on_progress: ProgressCallback | None = None,
    keep_ids: bool = True,
    at_least_once: bool = False,
    batch_size: int = MAX_IMPORT_BATCH,
    max_in_flight: int | None = None,
    max_resends: int = 3,
    settle_delay: float = 2.0,
    max_failed_batches: int | None = 3,
) -> ImportReport[StopInput]:
    """Import any number of stops into a plan, streamed in batches, each stop exactly once.

    ``stops`` is any iterable or async iterable of :class:`StopInput`; it is read
    lazily, so memory stays flat in its length. Batches of ``batch_size`` (at most
    100) go through ``client.stops.import_batch`` (``POST /plans/<id>/stops:import``),
    at most ``max_in_flight`` at a time; the scheduler paces them to the batch
    import limits. See the module documentation for the outcomes, the exactly-once
    reconciliation by ``recipient.external_id``, validation and cancellation.

    :param on_progress: called (synchronously) with an :class:`ImportProgress`
        each time a batch finishes, and once more with ``final=True`` at the end,
        also when the import is cancelled or raises.
    :param keep_ids: keep the id of every created stop (packed, a few bytes per
        stop); False keeps only counts and failures.
    :param at_least_once: resend a batch whose outcome is ambiguous even when its
        stops have no external id to look them up by; they may be duplicated.
    :param max_resends: how many times the stops of one batch are sent again after
        ambiguous failures.
    :param settle_delay: seconds to wait, after a request got no answer, before
        looking up its stops.
    :param max_failed_batches: stop reading the input after this many batches in a
        row were rejected as a whole (4xx): the import then raises that error. None
        never stops. A 401 or a ``plan_not_writable`` stops it at once.
    :raises ValidationError: an input row is invalid (``stops[<position>]...``).
    :returns: the :class:`ImportReport`.
    """
    checked_plan = _ids.plan_id(plan_id)
    _check_settings(max_resends, settle_delay, max_failed_batches)
    size = _batch_size(client, batch_size)

    async def send(batch: list[StopInput]) -> ImportResult:
        return await client.stops.import_batch(checked_plan, batch)

    async def find(key: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in client.stops.list(checked_plan, filter={"externalId": key}):
            yield stop.id, stop.recipient.external_id

    report: ImportReport[StopInput] = ImportReport(
        id_prefix=f"plans/{checked_plan}/stops/", batch_size=size, keep_ids=keep_ids
    )
    importer = _Importer(
        item_type=StopInput,
        send=send,
        lookup=_Lookup(find),
        report=report,
        batch_size=size,
        max_in_flight=_in_flight(client, max_in_flight),
        at_least_once=at_least_once,
        max_resends=max_resends,
        settle_delay=settle_delay,
        max_failed_batches=max_failed_batches,
        on_progress=on_progress,
        field="stops",
    )
    return await importer.run(stops)


async def import_unassigned_many(
    client: RoutePlanningClient,
    stops: Iterable[UnassignedStopInput] | AsyncIterable[UnassignedStopInput],
    *,
    depot: str | None = None,
    on_progress: ProgressCallback | None = None,
    keep_ids: bool = True,
    at_least_once: bool = False,
    batch_size: int = MAX_IMPORT_BATCH,
    max_in_flight: int | None = None,
    max_resends: int = 3,
    settle_delay: float = 2.0,
    max_failed_batches: int | None = 3,
) -> ImportReport[UnassignedStopInput]:
    """Import any number of unassigned stops, streamed in batches, each exactly once.

    The same as :func:`import_many`, through ``client.unassigned_stops.import_batch``:
    the public API documentation's ``POST /unassignedStops:import`` with the body
    ``{unassignedStops, depot}`` (the contract does not show this endpoint). The
    ``depot`` (``depots/<id>``; None: the team's main depot) is shared by every
    stop, so the stops themselves must not set one.

    Reconciliation uses ``GET /unassignedStops`` with ``filter[externalId]``: the
    contract names ``externalId`` as a list filter and the public API
    documentation lists it for unassigned stops. A found stop counts only when it
    carries the external id (and, when ``depot`` is given, belongs to that depot);
    should the service ignore the filter, the importer notices and reports the
    batch ``unknown`` instead of guessing.
    """
    checked_depot = _ids.depot_ref(depot) if depot is not None else None
    _check_settings(max_resends, settle_delay, max_failed_batches)
    size = _batch_size(client, batch_size)

    async def send(batch: list[UnassignedStopInput]) -> ImportResult:
        return await client.unassigned_stops.import_batch(batch, depot=checked_depot)

    async def find(key: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in client.unassigned_stops.list(filter={"externalId": key}):
            if checked_depot is not None and stop.depot and stop.depot != checked_depot:
                continue
            yield stop.id, stop.recipient.external_id

    report: ImportReport[UnassignedStopInput] = ImportReport(
        id_prefix="unassignedStops/", batch_size=size, keep_ids=keep_ids
    )
    importer = _Importer(
        item_type=UnassignedStopInput,
        send=send,
        lookup=_Lookup(find),
        report=report,
        batch_size=size,
        max_in_flight=_in_flight(client, max_in_flight),
        at_least_once=at_least_once,
        max_resends=max_resends,
        settle_delay=settle_delay,
        max_failed_batches=max_failed_batches,
        on_progress=on_progress,
        field="stops",
    )
    return await importer.run(stops)
