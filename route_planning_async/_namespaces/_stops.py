"""Stops inside a plan (``client.stops``): the calls every version sends alike.

A version's ``Stops`` names its stop model, stop input and live change as the
type parameters (``StopsNamespace[Client, Stop, StopInput, LiveChange]``) and
adds what is its own: the updates (typed by its update fields), the live edit
block, and v1's search.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic, TypeVar, Unpack

from route_planning_async._checks import _ids
from route_planning_async._client import Namespace, checked, plan_path, stop_path
from route_planning_async._client._filters import STOP_FILTERS
from route_planning_async._core import Request
from route_planning_async._docs import keywords_of
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._import_targets import (
    PLAN_STOP_ROWS,
    LiveImport,
    LiveImportOptions,
    LivePlanStopsTarget,
    PlanStopsTarget,
    live_import,
    split_live_options,
)
from route_planning_async._inputs import check_batch
from route_planning_async._models import ImportResult, LiveImportResult
from route_planning_async._namespaces._client import NamespaceClient
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async._workflows import (
    LiveEdit,
    LiveEditing,
    LiveEditOptions,
)

ClientT = TypeVar("ClientT", bound=NamespaceClient)
ModelT = TypeVar("ModelT")
InputT = TypeVar("InputT")
ChangeT = TypeVar("ChangeT")

__all__ = ["StopsNamespace"]


class StopsNamespace(Namespace[ClientT], Generic[ClientT, ModelT, InputT, ChangeT]):
    """Stops inside a plan (``client.stops``): what every version sends alike; a version adds
    its updates (and v1 the search)."""

    __slots__ = ()

    _typed = ("_model", "_input", "_live_change")
    _model: type[ModelT]
    _input: type[InputT]
    _live_change: type[ChangeT]

    @abc.abstractmethod
    def _live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit[Any, Any, Any, Any]]:
        """The version's ``client.plans.live_edit`` of ``plan_id`` (a checked bare id)."""

    async def create(self, plan_id: str, stop: InputT) -> ModelT:
        """Add one stop to a writable plan.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stop: The stop, a :class:`StopInput`.

        Returns:
            The created :class:`Stop`.
        """
        body = self._table.unstructure(checked(stop, self._input, "stop"))
        return await self._fetch(
            self._endpoint("stops.create").request(plan_path(plan_id), json=body), self._model
        )

    def list(
        self,
        plan_id: str,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[ModelT]:
        """The plan's stops, lazily.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            filter: ``{"externalId": ...}`` (or ``external_id``), no other; None: every stop.
            max_page_size: Items per page (1..10); None: the service's default.
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "stops.list",
            self._model,
            "stops",
            path=plan_path(plan_id),
            filter=filter,
            filters=STOP_FILTERS,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, stop_id: str) -> ModelT:
        """One stop.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.

        Returns:
            The :class:`Stop`.
        """
        return await self._fetch(self._endpoint("stops.get").request(stop_path(stop_id)), self._model)

    async def delete(self, stop_id: str) -> None:
        """Delete a stop and all its data; it cannot be undone.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
        """
        await self._client._execute(self._endpoint("stops.delete").request(stop_path(stop_id)))

    async def import_batch(self, plan_id: str, stops: Sequence[InputT]) -> ImportResult:
        """Import 1 to 100 stops in one request.

        Stops that fail are reported in ``failed`` and do not fail the call.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: 1 to 100 :class:`StopInput`.

        Returns:
            The :class:`ImportResult`.
        """
        return await self._fetch(self._import_request(plan_id, stops), ImportResult)

    def _import_request(
        self, plan_id: str, stops: Sequence[InputT], name: str = "stops.import_batch"
    ) -> Request:
        items = check_batch(stops, self._input)
        body = [self._table.unstructure(item) for item in items]
        return self._endpoint(name).request(plan_path(plan_id), json=body, weight=len(items))

    @options_documented(PLAN_STOP_ROWS)
    async def import_many(
        self,
        plan_id: str,
        stops: Iterable[InputT] | AsyncIterable[InputT],
        **options: Unpack[ImportOptions],
    ) -> ImportReport[InputT]:
        """Import any number of stops into a plan, streamed in batches, each exactly once.

        A batch whose outcome is ambiguous (no answer, a 5xx) is looked up by
        ``recipient.external_id`` before it is sent again.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the ids of the created stops (packed, a few bytes each); False keeps only
                counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no key
                (recipient.external_id) to look them up by; they may be duplicated. Default False.
            batch_size (int | None): How many stops one request carries, 1 to 100 (and at most a weighted
                rule's amount); None: 100. Default None.
            max_in_flight (int | None): Batches sent concurrently; None: as many as one window of each
                ``batch_import`` rule admits (at least 2, at most 32). Default None.
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401, or
                another error every batch would get, stops it at once. Default 3.
            skip_existing (bool): Read the keys (recipient.external_id) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (recipient.external_id); such
                rows are then imported as if they had no key (no lookup, no skip). Otherwise the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent. Default False.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
                keeping the one the report names; otherwise they are only reported in
                :attr:`ImportReport.duplicates`. Never for a key two rows may share: past a stream's first
                100,000 keyed rows, whose keys are not checked for repeats, duplicates are reported, not
                deleted. Default False.
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        target = PlanStopsTarget(self, _ids.plan_id(plan_id), self._input)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)

    async def live_create(self, plan_id: str, stop: InputT) -> ChangeT:
        """Add a stop to a plan that is not writable.

        It is applied by ``plans.reoptimize`` and then ``plans.redistribute`` or ``plans.save``.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stop: The stop, a :class:`StopInput`.

        Returns:
            The :class:`LiveChange`.
        """
        body = self._table.unstructure(checked(stop, self._input, "stop"))
        request = self._endpoint("stops.live_create").request(plan_path(plan_id), json=body)
        return await self._fetch(request, self._live_change)

    async def live_delete(self, stop_id: str) -> ChangeT:
        """Remove a stop of a plan that is not writable (applied like ``live_create``).

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.

        Returns:
            The :class:`LiveChange`.
        """
        request = self._endpoint("stops.live_delete").request(stop_path(stop_id))
        return await self._fetch(request, self._live_change)

    async def live_import_batch(self, plan_id: str, stops: Sequence[InputT]) -> LiveImportResult:
        """Import 1 to 100 stops into a live plan in one request (batch import category).

        The public API documentation's ``POST /plans/<id>/stops:liveImport``.
        When the plan is not writable the stops join an editing session
        (``pending`` is True) and are applied like ``live_create``:
        ``plans.reoptimize``, then ``plans.redistribute`` or ``plans.save``.
        Stops that fail are reported in ``failed``.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: 1 to 100 :class:`StopInput`.

        Returns:
            The :class:`LiveImportResult`.
        """
        return await self._fetch(self._live_import_request(plan_id, stops), LiveImportResult)

    def _live_import_request(self, plan_id: str, stops: Sequence[InputT]) -> Request:
        return self._import_request(plan_id, stops, "stops.live_import_batch")

    @options_documented(PLAN_STOP_ROWS, keywords_of(LiveEditing, defaults=True))
    async def live_import_many(
        self,
        plan_id: str,
        stops: Iterable[InputT] | AsyncIterable[InputT],
        **options: Unpack[LiveImportOptions],
    ) -> LiveImport:
        """Import any number of stops into a live plan, then apply them as ``live_edit`` does.

        The stops go through the bulk importer (batches of ``live_import_batch``,
        exactly once by ``recipient.external_id``). When an answer says the stops
        are ``pending`` (the plan was not writable and they joined its editing
        session), the import is applied once it has ended: ``:reoptimize``, wait,
        then ``:redistribute`` (or ``:save`` with ``distribute=False``). When the
        import raises, nothing is applied (the editing session keeps what was
        sent, as with ``live_edit``).

        Stops pending in an editing session are not listed by the service, so a
        batch of a plan that is not writable whose answer was lost cannot be
        reconciled: it is reported ``unknown``. Its stops may wait in the
        session all the same, so when rows are ``unknown`` and no answer said
        ``pending`` the plan is read: unless it is writable or ``optimized``
        (its session holds nothing), the session is applied. When the plan
        cannot be read, ``pending`` is True and nothing is applied.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the ids of the created stops (packed, a few bytes each); False keeps only
                counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no key
                (recipient.external_id) to look them up by; they may be duplicated. Default False.
            batch_size (int | None): How many stops one request carries, 1 to 100 (and at most a weighted
                rule's amount); None: 100. Default None.
            max_in_flight (int | None): Batches sent concurrently; None: as many as one window of each
                ``batch_import`` rule admits (at least 2, at most 32). Default None.
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401, or
                another error every batch would get, stops it at once. Default 3.
            skip_existing (bool): Read the keys (recipient.external_id) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (recipient.external_id); such
                rows are then imported as if they had no key (no lookup, no skip). Otherwise the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent. Default False.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
                keeping the one the report names; otherwise they are only reported in
                :attr:`ImportReport.duplicates`. Never for a key two rows may share: past a stream's first
                100,000 keyed rows, whose keys are not checked for repeats, duplicates are reported, not
                deleted. Default False.
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.
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

        Returns:
            A :class:`LiveImport`: the import's report and the live edit that applied it.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        edit_options, import_options = split_live_options(options)
        checked_id = _ids.plan_id(plan_id)
        client = self._client
        target = LivePlanStopsTarget(self, client.plans, checked_id, self._input)
        report, pending, edit = await live_import(
            target,
            self._live_edit(checked_id, **edit_options),
            stops,
            pending_marker=self._live_change(pending=True),  # type: ignore[call-arg]
            limits=client.rate_limits,
            clock=client._clock,
            **import_options,
        )
        return LiveImport(report=report, pending=pending, edit=edit)
