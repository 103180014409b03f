"""Exactly once: the lookups that settle an ambiguous batch, and the check for late commits.

A batch import is a POST: the scheduler does not repeat it after an ambiguous
failure (a 5xx answer, a timeout, or a connection lost after the request went
out), because the service may have created its rows. The importer then
*reconciles*: it looks up each keyed row of the batch by its natural key
(``target.find``), takes the items it finds as created, and sends only the
others again, at most ``max_resends`` times. So the key acts as an
idempotency key: give every row a distinct one, and an item of the collection
that already carries it counts as that row's. Rows without a key cannot be
looked up, so they are reported ``unknown`` and not sent again, unless
``at_least_once=True`` (then they are resent, and may be duplicated).

When many rows of one batch need a lookup, one paged listing of the
collection (``target.existing``) is read instead of one lookup per row, as
long as it takes fewer pages than there are keys to find.

Late commits: the service may apply a request after the lookup found its rows
absent. After the import, every keyed row that was resent (or left unknown)
after an ambiguous failure is looked up again, after twice the longest time a
request of the import was on the wire (at least ``settle_delay``); a second
item with its key is reported in :attr:`ImportReport.duplicates`, and deleted
with ``dedupe=True``. A commit later than that check is not seen.

Only items of the collection count: an id the service answers that does not
start with the target's ``id_prefix`` (an item of another collection listed by
mistake) makes its key's lookup fail (the rows stay ``unknown``), so nothing
outside the collection is taken for a row or deleted. ``dedupe`` deletes only
ids the late-commit check found for a key of this import's rows.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from typing import Final, Generic, TypeVar

from route_planning_async._errors import RoutePlanningError, ServerError, TransportError
from route_planning_async._import._report import DuplicateRow, Outcome
from route_planning_async._import._state import BatchRun, RunParts

__all__ = ["Reconciler"]

T = TypeVar("T")

_LOOKUP_CONCURRENCY: Final = 10
_LOOKUP_ATTEMPTS: Final = 3
_VERIFY_FACTOR: Final = 2.0
"""The late-commit check waits this many times the longest request flight seen (at least ``settle_delay``)."""


class Reconciler(Generic[T]):
    """Settles the ambiguous sends of one import, and checks them once more at its end."""

    def __init__(self, parts: RunParts[T]) -> None:
        self._target, self._report, self._clock = parts.target, parts.report, parts.clock
        self._settings, self._control, self._keys = parts.settings, parts.control, parts.keys
        self._gate = asyncio.Semaphore(_LOOKUP_CONCURRENCY)
        self._listing_too_long = False
        self._longest_flight = 0.0
        self._verify: list[tuple[int, str]] = []
        """``(position, key)`` of every keyed row whose send was once ambiguous: checked for late commits."""

    def ours(self, item_id: str) -> bool:
        """Whether ``item_id`` is an item of the collection the import creates in."""
        prefix = self._target.id_prefix
        return item_id.startswith(prefix) and len(item_id) > len(prefix)

    def _foreign(self, key: str, item_id: str) -> LookupError:
        return LookupError(
            f"the lookup of {key!r} returned {item_id!r}, which is not in {self._target.id_prefix!r}"
        )

    def flew(self, seconds: float) -> None:
        """A request of the import was on the wire this long (the late-commit check waits longer)."""
        self._longest_flight = max(self._longest_flight, seconds)

    @property
    def to_verify(self) -> bool:
        """Whether some row's send was ambiguous, so the late-commit check has work."""
        return bool(self._verify)

    async def after_ambiguous(
        self, run: BatchRun, pending: list[int], exc: RoutePlanningError, resends: int
    ) -> list[int]:
        """Settle an ambiguous failure of ``pending``; answer the offsets to send again."""
        settings, control, report = self._settings, self._control, self._report
        items = run.items
        keyed = [o for o in pending if self._keys.key(items[o]) is not None]
        unkeyed = [o for o in pending if self._keys.key(items[o]) is None]
        last_round = resends >= settings.max_resends
        resend: list[int] = []

        if unkeyed:
            if settings.at_least_once and not last_round and control.halt_error is None:
                run.in_air.difference_update(unkeyed)
                resend.extend(unkeyed)
            else:
                run.fail(report, unkeyed, Outcome.UNKNOWN, exc)

        if keyed:
            if control.broken:
                # The service does not answer: no lookup is started.
                run.fail(report, keyed, Outcome.UNKNOWN, exc)
                return sorted(resend)
            if isinstance(exc, TransportError) and settings.settle_delay > 0:
                # No answer came back: give a request still being processed
                # by the service time to land before looking for its rows.
                await self._clock.sleep(settings.settle_delay)
            absent, unresolved = await self._reconcile(run, keyed, exc)
            # A late commit of this request may still land: these are checked again at the end.
            start = run.batch.start
            self._verify.extend(
                (start + o, key) for o in absent + unresolved if (key := self._keys.key(items[o]))
            )
            if unresolved:
                run.fail(report, unresolved, Outcome.UNKNOWN, exc)
            run.in_air.difference_update(absent)
            if last_round:
                # The lookup shows them absent and no resend is left.
                run.fail(report, absent, Outcome.NOT_CREATED, exc)
            else:
                resend.extend(absent)
        return sorted(resend)

    async def _reconcile(
        self, run: BatchRun, offsets: list[int], cause: RoutePlanningError
    ) -> tuple[list[int], list[int]]:
        """Record the rows whose items exist as created.

        Answers the offsets found absent, and those whose lookup failed.
        """
        by_key: dict[str, list[int]] = {}
        for offset in offsets:
            key = self._keys.key(run.items[offset])
            assert key is not None
            by_key.setdefault(key, []).append(offset)
        answers = await self.look_up(list(by_key))
        absent: list[int] = []
        unresolved: list[int] = []
        failures: list[str] = []
        for key, waiting in by_key.items():
            answer = answers[key]
            if isinstance(answer, BaseException):
                failures.append(f"{self._target.kind.key_name}={key!r}: {answer}")
                unresolved.extend(waiting)
                continue
            for offset, item_id in zip(waiting, answer, strict=False):
                self._report._record_created(run.batch, offset, item_id)
                run.in_air.discard(offset)
            absent.extend(waiting[len(answer) :])
        if failures:
            rows = self._target.kind.rows
            cause.add_note(f"reconciliation failed for {len(failures)} {rows}, first {failures[0]}")
        return sorted(absent), sorted(unresolved)

    # Lookups -----------------------------------------------------------------

    async def look_up(self, keys: list[str]) -> dict[str, list[str] | BaseException]:
        """The ids stored under each key.

        One shared listing when it costs fewer requests, else one lookup per key.
        """
        if len(keys) > 1 and not self._listing_too_long and not self._control.broken:
            listed = await self._list_for(keys)
            if isinstance(listed, BaseException):
                # The service did not answer the listing (after the scheduler's
                # retries): lookups one by one would fare no better.
                return dict.fromkeys(keys, listed)
            if listed is not None:
                return dict(listed)

        async def one(key: str) -> list[str] | BaseException:
            if self._control.broken:
                return RoutePlanningError("not looked up: the import's breaker is open")
            try:
                return await self._ids_for(key)
            except (RoutePlanningError, LookupError) as exc:
                return exc

        answers = await asyncio.gather(*(one(key) for key in keys))
        return dict(zip(keys, answers, strict=True))

    async def _list_for(self, keys: list[str]) -> dict[str, list[str] | BaseException] | BaseException | None:
        """One paged listing of the collection, given up (None) once it needs as many pages as
        there are keys; the error when the service does not answer it."""
        wanted = set(keys)
        found: dict[str, list[str] | BaseException] = {key: [] for key in keys}
        pages = 0
        try:
            async with self._gate, contextlib.aclosing(self._target.existing()) as listing:
                async for page in listing:
                    self._control.answered()
                    pages += 1
                    for item_id, key in page:
                        if key is None or key not in wanted:
                            continue
                        ids = found[key]
                        if isinstance(ids, BaseException):
                            continue
                        found[key] = [*ids, item_id] if self.ours(item_id) else self._foreign(key, item_id)
                    if pages >= len(keys):
                        self._listing_too_long = True
                        return None
        except TransportError as exc:
            self._control.transport_failed(exc)
            return exc
        except RoutePlanningError:
            return None
        return found

    async def _ids_for(self, key: str) -> list[str]:
        """Ids of the items whose key is ``key``.

        Raises :class:`LookupError` when the service answers items that do not
        carry the key: then it ignores the lookup's filter and cannot reconcile.
        """
        async with self._gate:
            attempt = 1
            while True:
                if self._control.broken:
                    raise RoutePlanningError("not looked up: the import's breaker is open")
                try:
                    found: list[str] = []
                    async for item_id, found_key in self._target.find(key):
                        if found_key != key:
                            raise LookupError(
                                f"the lookup of {key!r} returned other {self._target.kind.rows}"
                            )
                        if not self.ours(item_id):
                            raise self._foreign(key, item_id)
                        found.append(item_id)
                    self._control.answered()
                    return found
                except TransportError as exc:
                    # The scheduler already retried it as the retry policy says.
                    self._control.transport_failed(exc)
                    raise
                except ServerError:
                    # A lookup is a read: asking again is harmless. The scheduler
                    # already retried 5xx answers; this covers an answer whose
                    # body could not be read.
                    if attempt >= _LOOKUP_ATTEMPTS or self._control.broken:
                        raise
                    attempt += 1

    # Late commits ------------------------------------------------------------

    async def check_late_commits(self, deadline_at: float | None) -> None:
        """Look up, once more, every keyed row whose send was once ambiguous.

        A request that got no answer may be applied by the service after the
        lookup that found its rows absent, and after their resend: then the
        key is stored twice. The check waits ``settle_delay``, or twice the
        longest time a request of this import was on the wire if that is
        longer, then looks the keys up again; not when that would pass
        ``deadline_at`` (a time of the clock).
        """
        wait = max(self._settings.settle_delay, _VERIFY_FACTOR * self._longest_flight)
        if deadline_at is not None and self._clock.now() + wait >= deadline_at:
            return
        await self._clock.sleep(wait)
        rows = dict(self._verify)
        answers = await self.look_up(sorted(set(rows.values())))
        report = self._report
        # A duplicate is deleted only where its key is proven to be one row's: a
        # stream's keys are checked among its first keyed rows only, so past them
        # two rows may share a key, and the "extra" item be the other's.
        proven = self._keys.proven
        shared = {key for key, count in collections.Counter(rows.values()).items() if count > 1}
        for position, key in sorted(rows.items()):
            answer = answers.get(key)
            if not isinstance(answer, list):
                continue
            # A row refused after its resend may still exist from the ambiguous send
            # before it: found now, it is created (and its refusal dropped).
            outcome = report.outcome(position)
            if outcome is Outcome.CREATED:
                kept = report.id_of(position) if report.keep_ids else None
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
        if self._settings.dedupe and delete and all(self.ours(extra) for extra in extras):
            try:
                for extra in extras:
                    await self._target.delete(extra)
                deleted = True
            except RoutePlanningError as exc:
                error = exc
        self._report.duplicates.append(DuplicateRow(position, kept, tuple(extras), deleted, error))
