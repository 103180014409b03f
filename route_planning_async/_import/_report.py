"""What a bulk import reports: one :class:`Outcome` per input position, counts and failures.

The importer (``_engine.py``) records into an :class:`ImportReport` as its
batches end; the caller reads it, live through ``on_progress`` or at the end.
Every input position ends with exactly one outcome:

``created``
    The item exists; its id is kept (compactly) unless ``keep_ids=False``.
``skipped``
    With ``skip_existing=True``: an item carrying the row's natural key was
    already in the collection, so the row was not sent; its id is kept like a
    created one.
``rejected``
    The service refused this row inside a 200 answer (a ``failed`` entry); its
    message and the input are in :attr:`ImportReport.rejected`.
``not_created``
    Its batch failed as a whole (a 4xx, a 429 after the scheduler's retries, a
    connection never made, or a reconciliation that found it absent after the
    last resend). The inputs are in :attr:`ImportReport.failed_batches`; they
    are safe to send again.
``unknown``
    The outcome could not be established: the batch got an ambiguous failure
    and could not be reconciled (the row has no natural key, or the lookup
    failed), or the import was cancelled while the batch was in flight. The
    inputs are in :attr:`ImportReport.failed_batches`; look them up before
    sending them again. A row that was never sent is never ``unknown``.

After the import, rows whose outcome was once ambiguous are looked up again
(late commits): any second item with the same key is listed in
:attr:`ImportReport.duplicates` and, with ``dedupe=True``, deleted.

Created items are kept only as counts and (unless ``keep_ids=False``) as one
packed string of ids per batch, cut by offsets (``_batch_ids.py``), so a
report of a million rows stays small. Its times are read from the import's
clock; a report pickles (the clock stays behind, its times as they were). The methods whose names start
with ``_record`` are the importer's side.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import attrs

from route_planning_async._deprecated import (
    MISSING,
    FailedBatchAliases,
    ImportReportAliases,
    RejectedRowAliases,
    rejected_row_input,
)
from route_planning_async._docs import described, fields_documented
from route_planning_async._import._batch_ids import PENDING, BatchOutcomes
from route_planning_async._scheduler import Clock

__all__ = [
    "DuplicateRow",
    "FailedBatch",
    "ImportProgress",
    "ImportReport",
    "Outcome",
    "ProgressCallback",
    "RejectedRow",
]

T = TypeVar("T")

ProgressCallback = Callable[["ImportProgress[Any]"], object]
"""What ``on_progress`` is: called synchronously with each :class:`ImportProgress`."""


class Outcome(enum.StrEnum):
    """What became of one input position.

    Attributes:
        CREATED: The row's item exists on the service.
        REJECTED: The service refused this row; see :attr:`ImportReport.rejected`.
        NOT_CREATED: Its batch failed as a whole and the row's item does not exist; safe to resend.
        UNKNOWN: It may or may not exist; look it up before resending.
        SKIPPED: Already in the collection (``skip_existing=True``); not sent.
    """

    CREATED = "created"
    """The row's item exists on the service."""
    REJECTED = "rejected"
    """The service refused this row; see :attr:`ImportReport.rejected`."""
    NOT_CREATED = "not_created"
    """Its batch failed as a whole and the row's item does not exist; safe to resend."""
    UNKNOWN = "unknown"
    """It may or may not exist; look it up before resending."""
    SKIPPED = "skipped"
    """Already in the collection (``skip_existing=True``); not sent."""


_CODE = {
    Outcome.CREATED: ord("c"),
    Outcome.REJECTED: ord("r"),
    Outcome.NOT_CREATED: ord("n"),
    Outcome.UNKNOWN: ord("u"),
    Outcome.SKIPPED: ord("s"),
}
_OUTCOME_OF_CODE = {code: outcome for outcome, code in _CODE.items()}


@fields_documented(title="Attributes")
@attrs.frozen(init=False)
class RejectedRow(RejectedRowAliases, Generic[T]):
    """A row the service refused inside a successful batch answer.

    Built as ``RejectedRow(position, input, message)``; the last release's keyword for
    ``input`` still works, with a :class:`DeprecationWarning` (``_deprecated.py``).

    Attributes:
        position (int): Its position in the input (0-based).
        input (T): The input, to fix and send again.
        message (str): The service's message.
    """

    position: int = attrs.field(metadata=described("Its position in the input (0-based)."))
    input: T = attrs.field(metadata=described("The input, to fix and send again."))
    message: str = attrs.field(metadata=described("The service's message."))

    def __init__(
        self,
        position: int,
        input: T = MISSING,
        message: str = MISSING,
        **deprecated: Any,
    ) -> None:
        input = rejected_row_input(input, deprecated)
        if message is MISSING:
            raise TypeError("RejectedRow() missing required argument: 'message'")
        self.__attrs_init__(position, input, message)


@fields_documented(title="Attributes")
@attrs.frozen
class FailedBatch(FailedBatchAliases, Generic[T]):
    """Rows of one batch whose outcome is ``not_created`` or ``unknown``.

    Attributes:
        outcome (Outcome): :attr:`Outcome.NOT_CREATED` (safe to resend) or :attr:`Outcome.UNKNOWN`.
        positions (tuple[int, ...]): Their positions in the input, in order.
        inputs (tuple[T, ...]): The inputs, in the same order as ``positions``.
        error (BaseException): Why: the API or transport error, a ``CancelledError``, or the
            reconciliation problem.
        not_sent (bool): True when the import stopped before sending these rows (a deadline, the
            breaker, a stop request, a cancellation, or an error of another batch): counted in
            :attr:`ImportReport.not_sent`, not in :attr:`ImportReport.failed`.
    """

    outcome: Outcome = attrs.field(
        metadata=described(":attr:`Outcome.NOT_CREATED` (safe to resend) or :attr:`Outcome.UNKNOWN`.")
    )
    positions: tuple[int, ...] = attrs.field(metadata=described("Their positions in the input, in order."))
    inputs: tuple[T, ...] = attrs.field(metadata=described("The inputs, in the same order as ``positions``."))
    error: BaseException = attrs.field(
        metadata=described(
            "Why: the API or transport error, a ``CancelledError``, or the reconciliation problem."
        )
    )
    not_sent: bool = attrs.field(
        default=False,
        kw_only=True,
        metadata=described(
            """True when the import stopped before sending these rows (a deadline, the breaker,
            a stop request, a cancellation, or an error of another batch): counted in
            :attr:`ImportReport.not_sent`, not in :attr:`ImportReport.failed`."""
        ),
    )

    def items(self) -> Iterator[tuple[int, T]]:
        """``(position, input)`` pairs."""
        return zip(self.positions, self.inputs, strict=True)


@fields_documented(title="Attributes")
@attrs.frozen
class DuplicateRow:
    """A key found more than once in the collection after a late commit.

    Attributes:
        position (int): The input position whose item was stored more than once.
        kept (str): The id the report gives for that position (the one that remains).
        extra_ids (tuple[str, ...]): The other items carrying the same key.
        deleted (bool): True when ``dedupe=True`` deleted every one of ``extra_ids``.
        error (BaseException | None): Why a delete failed, when one did.
    """

    position: int = attrs.field(
        metadata=described("The input position whose item was stored more than once.")
    )
    kept: str = attrs.field(
        metadata=described("The id the report gives for that position (the one that remains).")
    )
    extra_ids: tuple[str, ...] = attrs.field(metadata=described("The other items carrying the same key."))
    deleted: bool = attrs.field(
        metadata=described("True when ``dedupe=True`` deleted every one of ``extra_ids``.")
    )
    error: BaseException | None = attrs.field(
        default=None, metadata=described("Why a delete failed, when one did.")
    )


class ImportReport(ImportReportAliases, Generic[T]):
    """Every input position and its :class:`Outcome`; counts, time and throughput.

    Failures are kept in full (:attr:`rejected`, :attr:`failed_batches`);
    created items only as counts and, unless ``keep_ids=False``, their ids packed
    one string per batch, so the report stays small for millions of rows.

    Attributes:
        keep_ids (bool): Whether the ids of created items were kept.
        total (int): Input positions read: every position below it has an outcome.
        created (int): Rows created.
        not_created (int): Rows of batches that failed as a whole (``not_created``).
        not_sent (int): Rows the import stopped before sending (a deadline, the breaker, a stop request,
            a cancellation, or an error of another batch): ``not_created``, yet no failure;
            :attr:`failed` leaves them out.
        unknown (int): Rows whose outcome is unknown.
        skipped (int): Rows already in the collection, not sent (``skip_existing=True``).
        rejected (list[RejectedRow[T]]): Every row the service refused (``rejected``; ``len()`` counts
            them), with its position, input and the service's message.
        failed_batches (list[FailedBatch[T]]): Every batch (or part of one) that is ``not_created`` or
            ``unknown``, with its inputs.
        unattributed_ids (list[str]): Created ids that an answer gave but that could not be tied to an
            input.
        duplicates (list[DuplicateRow]): Rows whose item was found stored twice after a late commit (and
            deleted with ``dedupe=True``).
        stopped (str | None): Why the import stopped sending early (deadline, breaker, stop request);
            None otherwise.
    """

    def __init__(self, *, id_prefix: str, batch_size: int, keep_ids: bool, clock: Clock) -> None:
        """Made by the importer (``import_many``); not meant to be built by hand.

        Args:
            id_prefix: What the packed ids are completed with (the collection's path, ``drivers/``, ...).
            batch_size: The import's batch size (positions map to batches by it).
            keep_ids: Whether the ids of created items are kept.
            clock: The import's clock, which :attr:`elapsed` is measured with.
        """
        self._id_prefix = id_prefix
        self._batch_size = batch_size
        self._batches: list[BatchOutcomes] = []
        self._clock: Clock | None = clock
        self._started = clock.now()
        self._finished: float | None = None
        self.keep_ids = keep_ids
        """Whether the ids of created items were kept."""
        self.total = 0
        """Input positions read: every position below it has an outcome."""
        self.created = 0
        """Rows created."""
        self.not_created = 0
        """Rows of batches that failed as a whole (``not_created``)."""
        self.not_sent = 0
        """Rows the import stopped before sending (a deadline, the breaker, a stop request,
        a cancellation, or an error of another batch): ``not_created``, yet no failure;
        :attr:`failed` leaves them out."""
        self.unknown = 0
        """Rows whose outcome is unknown."""
        self.skipped = 0
        """Rows already in the collection, not sent (``skip_existing=True``)."""
        self.rejected: list[RejectedRow[T]] = []
        """Every row the service refused (``rejected``; ``len()`` counts them), with its
        position, input and the service's message."""
        self.failed_batches: list[FailedBatch[T]] = []
        """Every batch (or part of one) that is ``not_created`` or ``unknown``, with its inputs."""
        self.unattributed_ids: list[str] = []
        """Created ids that an answer gave but that could not be tied to an input."""
        self.duplicates: list[DuplicateRow] = []
        """Rows whose item was found stored twice after a late commit (and deleted with
        ``dedupe=True``)."""
        self.stopped: str | None = None
        """Why the import stopped sending early (deadline, breaker, stop request); None otherwise."""
        self._waiting = 0
        self._waiting_since = 0.0
        self._waited = 0.0

    def __getstate__(self) -> dict[str, Any]:
        # The clock (the event loop's) stays behind: a report read in another process has
        # its times as they were when it was pickled.
        state = dict(self.__dict__)
        state["_finished"] = self._end()
        state["_waited"] = self.waited
        state["_waiting"] = 0
        state["_clock"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def _end(self) -> float:
        if self._finished is not None:
            return self._finished
        assert self._clock is not None  # only a report from a pickle has none, and it is finished
        return self._clock.now()

    def __repr__(self) -> str:
        return (
            f"<ImportReport total={self.total} created={self.created} rejected={len(self.rejected)} "
            f"not_created={self.not_created} not_sent={self.not_sent} unknown={self.unknown} "
            f"skipped={self.skipped} "
            f"elapsed={self.elapsed:.1f}s>"
        )

    @property
    def done(self) -> int:
        """Positions with a final outcome."""
        return self.created + len(self.rejected) + self.not_created + self.unknown + self.skipped

    @property
    def failed(self) -> int:
        """Rows that failed: ``rejected``, plus ``not_created`` but sent (:attr:`not_sent` apart)."""
        return len(self.rejected) + self.not_created - self.not_sent

    @property
    def ok(self) -> bool:
        """True when every position read was created (or skipped, being there already)."""
        return self.created + self.skipped == self.total

    @property
    def elapsed(self) -> float:
        """Seconds from the start of the import to its end (or to now, while it runs)."""
        return self._end() - self._started

    @property
    def waited(self) -> float:
        """Wall-clock seconds during which at least one batch waited for capacity: queued for the rate
        limits before a request left, or between a refused attempt (a 429, a failure) and its retry.

        Batches that wait side by side count once, so it never exceeds :attr:`elapsed`. The
        scheduler's ``client.stats[category].wait_seconds`` sums the waits over requests instead.
        """
        if self._waiting and self._finished is None:
            return self._waited + self._end() - self._waiting_since
        return self._waited

    @property
    def throughput(self) -> float:
        """Rows created per second."""
        elapsed = self.elapsed
        return self.created / elapsed if elapsed > 0 else 0.0

    def outcome(self, position: int) -> Outcome:
        """The outcome of one input row.

        Args:
            position: The row's position in the input, from 0.

        Returns:
            Its :class:`Outcome`.

        Raises:
            IndexError: ``position`` is beyond :attr:`total`.
            LookupError: The row has no outcome yet (the import is still running).
        """
        batch, offset = self._locate(position)
        code = batch.codes[offset]
        if code == PENDING:
            raise LookupError(f"position {position} has no outcome yet")
        return _OUTCOME_OF_CODE[code]

    def id_of(self, position: int) -> str | None:
        """The id of the item created for one input row (or found, when it was skipped).

        Args:
            position: The row's position in the input, from 0.

        Returns:
            The item's id; None when it was neither created nor skipped.

        Raises:
            LookupError: The report was made with ``keep_ids=False``.
        """
        if not self.keep_ids:
            raise LookupError("the import ran with keep_ids=False: ids were not kept")
        batch, offset = self._locate(position)
        if batch.codes[offset] not in (_CODE[Outcome.CREATED], _CODE[Outcome.SKIPPED]):
            return None
        return batch.id_at(offset, self._id_prefix)

    def created_ids(self) -> Iterator[tuple[int, str]]:
        """``(position, id)`` of every created item, in input order (needs ``keep_ids``)."""
        if not self.keep_ids:
            raise LookupError("the import ran with keep_ids=False: ids were not kept")
        created = _CODE[Outcome.CREATED]
        for batch in self._batches:
            ids = batch.all_ids(self._id_prefix)
            for offset, code in enumerate(batch.codes):
                if code == created:
                    yield batch.start + offset, ids[offset]

    def to_resend(self) -> list[tuple[int, T]]:
        """``(position, input)`` of the rows known not to exist because their batch failed."""
        return [
            item
            for failed in self.failed_batches
            if failed.outcome is Outcome.NOT_CREATED
            for item in failed.items()
        ]

    def uncertain(self) -> list[tuple[int, T]]:
        """``(position, input)`` of the rows whose outcome is unknown."""
        return [
            item
            for failed in self.failed_batches
            if failed.outcome is Outcome.UNKNOWN
            for item in failed.items()
        ]

    # Recording (the importer's side) -----------------------------------------

    def _locate(self, position: int) -> tuple[BatchOutcomes, int]:
        if not 0 <= position < self.total:
            raise IndexError(f"position {position} is outside the {self.total} positions read")
        index, offset = divmod(position, self._batch_size)
        return self._batches[index], offset

    def _open_batch(self, size: int) -> BatchOutcomes:
        batch = BatchOutcomes(self.total, size, self.keep_ids)
        self._batches.append(batch)
        self.total += size
        return batch

    def _set(self, batch: BatchOutcomes, offset: int, outcome: Outcome) -> bool:
        if batch.codes[offset] != PENDING:
            return False
        batch.codes[offset] = _CODE[outcome]
        if outcome is Outcome.CREATED:
            self.created += 1
        elif outcome is Outcome.NOT_CREATED:
            self.not_created += 1
        elif outcome is Outcome.SKIPPED:
            self.skipped += 1
        elif outcome is Outcome.UNKNOWN:
            self.unknown += 1
        # A rejected row is counted by its entry in ``rejected`` (``_record_rejected``).
        return True

    def _count(self, outcome: Outcome, delta: int) -> None:
        if outcome is not Outcome.REJECTED:  # its entries in ``rejected`` are its count
            setattr(self, outcome.value, getattr(self, outcome.value) + delta)

    def _record_waiting(self, waiting: bool) -> None:
        """One batch begins (``True``) or ends (``False``) waiting for capacity (:attr:`waited`)."""
        if self._finished is not None:
            return
        now = self._end()
        if waiting:
            if not self._waiting:
                self._waiting_since = now
            self._waiting += 1
            return
        self._waiting -= 1
        if not self._waiting:
            self._waited += now - self._waiting_since

    def _record_skipped(self, batch: BatchOutcomes, offset: int, item_id: str) -> None:
        if self._set(batch, offset, Outcome.SKIPPED) and batch.ids is not None:
            batch.ids[offset] = item_id

    def _reclassify(self, position: int, outcome: Outcome, item_id: str = "") -> None:
        """Change a ``not_created`` or ``unknown`` outcome after a late lookup; a
        ``rejected`` one only to ``created`` (an earlier send was applied late)."""
        batch, offset = self._locate(position)
        old = _OUTCOME_OF_CODE[batch.codes[offset]]
        refused_yet_created = old is Outcome.REJECTED and outcome is Outcome.CREATED
        if old is outcome or not (old in (Outcome.NOT_CREATED, Outcome.UNKNOWN) or refused_yet_created):
            return
        if refused_yet_created:
            self.rejected[:] = [r for r in self.rejected if r.position != position]
        batch.codes[offset] = _CODE[outcome]
        self._count(old, -1)
        self._count(outcome, +1)
        if outcome is Outcome.CREATED:
            batch.set_id(offset, item_id, self._id_prefix)
        for index, failed in enumerate(self.failed_batches):
            if position not in failed.positions:
                continue
            kept = [(p, s) for p, s in failed.items() if p != position]
            moved = [s for p, s in failed.items() if p == position]
            rest = attrs.evolve(failed, positions=tuple(p for p, _ in kept), inputs=tuple(s for _, s in kept))
            self.failed_batches[index] = rest
            still_not_sent = failed.not_sent and outcome is Outcome.NOT_CREATED
            if failed.not_sent and not still_not_sent:
                self.not_sent -= 1
            if outcome in (Outcome.NOT_CREATED, Outcome.UNKNOWN):
                self.failed_batches.append(
                    FailedBatch(outcome, (position,), tuple(moved), failed.error, not_sent=still_not_sent)
                )
            break
        self.failed_batches = [failed for failed in self.failed_batches if failed.positions]

    def _record_created(self, batch: BatchOutcomes, offset: int, item_id: str) -> None:
        if self._set(batch, offset, Outcome.CREATED) and batch.ids is not None:
            batch.ids[offset] = item_id

    def _record_rejected(self, batch: BatchOutcomes, offset: int, row: T, message: str) -> None:
        if self._set(batch, offset, Outcome.REJECTED):
            self.rejected.append(RejectedRow(batch.start + offset, row, message))

    def _record_failed(
        self,
        batch: BatchOutcomes,
        offsets: Sequence[int],
        rows: Sequence[T],
        outcome: Outcome,
        error: BaseException,
        *,
        not_sent: bool = False,
    ) -> None:
        kept = [(o, s) for o, s in zip(offsets, rows, strict=True) if self._set(batch, o, outcome)]
        if kept:
            not_sent = not_sent and outcome is Outcome.NOT_CREATED
            if not_sent:
                self.not_sent += len(kept)
            self.failed_batches.append(
                FailedBatch(
                    outcome,
                    tuple(batch.start + o for o, _ in kept),
                    tuple(s for _, s in kept),
                    error,
                    not_sent=not_sent,
                )
            )

    def _close_batch(self, batch: BatchOutcomes) -> None:
        batch.pack(self._id_prefix)

    def _finish(self) -> None:
        self._finished = self._end() if self._clock is None else self._clock.now()
        if self._waiting:  # batches abandoned while waiting: the wait ends with the import
            self._waited += self._finished - self._waiting_since
            self._waiting = 0


@fields_documented(title="Attributes")
@attrs.frozen
class ImportProgress(Generic[T]):
    """A snapshot passed to ``on_progress`` each time a batch finishes.

    Attributes:
        done (int): Positions with a final outcome.
        read (int): Positions read from the input so far.
        total (int | None): Length of the input when it has one (a Sequence), else None.
        created (int): Rows created so far.
        failed (int): Rows that failed so far (:attr:`ImportReport.failed`).
        unknown (int): Rows whose outcome is unknown so far.
        elapsed (float): Seconds since the import started.
        report (ImportReport[T]): The live report; complete for every position below ``done`` once
            ``final`` is set.
        final (bool): True for the last call: the import ended, was cancelled, or is about to raise.
        skipped (int): Rows skipped so far, already in the collection (``skip_existing=True``).
        waited (float): Seconds so far during which at least one batch waited for capacity
            (:attr:`ImportReport.waited`).
        not_sent (int): Rows the import stopped before sending, so far (:attr:`ImportReport.not_sent`).
    """

    done: int = attrs.field(metadata=described("Positions with a final outcome."))
    read: int = attrs.field(metadata=described("Positions read from the input so far."))
    total: int | None = attrs.field(
        metadata=described("Length of the input when it has one (a Sequence), else None.")
    )
    created: int = attrs.field(metadata=described("Rows created so far."))
    failed: int = attrs.field(metadata=described("Rows that failed so far (:attr:`ImportReport.failed`)."))
    unknown: int = attrs.field(metadata=described("Rows whose outcome is unknown so far."))
    elapsed: float = attrs.field(metadata=described("Seconds since the import started."))
    report: ImportReport[T] = attrs.field(
        metadata=described(
            "The live report; complete for every position below ``done`` once ``final`` is set."
        )
    )
    final: bool = attrs.field(
        default=False,
        metadata=described("True for the last call: the import ended, was cancelled, or is about to raise."),
    )
    skipped: int = attrs.field(
        default=0,
        metadata=described("Rows skipped so far, already in the collection (``skip_existing=True``)."),
    )
    waited: float = attrs.field(
        default=0.0,
        metadata=described(
            "Seconds so far during which at least one batch waited for capacity "
            "(:attr:`ImportReport.waited`)."
        ),
    )
    not_sent: int = attrs.field(
        default=0,
        metadata=described("Rows the import stopped before sending, so far (:attr:`ImportReport.not_sent`)."),
    )
