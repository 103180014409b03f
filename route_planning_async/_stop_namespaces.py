"""The calls of plans, stops and unassigned stops that every version has alike.

v0.2b and v1 send these the same way and answer them in the same shapes; what
differs is the version's endpoint table and converter (``_table``), its models
and inputs, and its live edit. A version's namespace subclasses these with its
classes named once::

    class Stops(StopsNamespace[_Client, Stop, StopInput, LiveChange]):
        _table = TABLE
        _model = Stop
        _input = StopInput
        _live_change = LiveChange

and adds what is its own: the updates (typed by the version's update fields),
plan create, the live edit block, v1's depot writes and stop search.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic, Protocol, TypeVar, Unpack

from route_planning_async import _ids
from route_planning_async._client import ClientCalls, TableResource, checked, stop_path
from route_planning_async._client._filters import PLAN_FILTERS, STOP_FILTERS
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._import_targets import (
    PLAN_STOP_ROWS,
    UNASSIGNED_STOP_ROWS,
    LiveImport,
    LiveImportOptions,
    LivePlanStopsTarget,
    PlanStopsTarget,
    UnassignedStopsTarget,
    live_import,
    split_live_options,
)
from route_planning_async._inputs import check_batch, check_no_depot, reoptimization_body
from route_planning_async._models import ImportResult, LiveImportResult
from route_planning_async._operations import Polling, PollOptions
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async._workflows import (
    LiveEdit,
    LiveEditing,
    LiveEditOptions,
    PlanState,
    optimize_and_wait,
)

__all__ = [
    "NamespaceClient",
    "PlansNamespace",
    "StopsNamespace",
    "UnassignedStopsNamespace",
]


class NamespaceClient(ClientCalls, Protocol):
    """What these namespaces need of their client: the namespaces the workflows call."""

    @property
    def plans(self) -> Any: ...
    @property
    def stops(self) -> Any: ...
    @property
    def operations(self) -> Any: ...


ClientT = TypeVar("ClientT", bound=NamespaceClient)
ModelT = TypeVar("ModelT")
InputT = TypeVar("InputT")
ChangeT = TypeVar("ChangeT")
OperationT = TypeVar("OperationT")
PlanT = TypeVar("PlanT", bound=PlanState)


def _plan(plan_id: str) -> dict[str, str]:
    return {"plan": _ids.plan_id(plan_id)}


class PlansNamespace(TableResource[ClientT], Generic[ClientT, PlanT, OperationT]):
    """Plans: list, read, delete, optimize, distribute (``client.plans``); a version adds
    create, update and its live edit."""

    __slots__ = ()

    _model: type[PlanT]
    _operation: type[OperationT]

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[PlanT]:
        """The team's plans, lazily.

        Args:
            filter: ``title`` (1 to 255 characters), ``startsGte`` and ``startsLte`` (a
                ``datetime.date`` or ``YYYY-MM-DD``), or their snake case names; no other;
                None: every plan.
            max_page_size: Items per page (1..20); None: the service's default (10).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "plans.list",
            self._model,
            "plans",
            filter=filter,
            filters=PLAN_FILTERS,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, plan_id: str) -> PlanT:
        """One plan by id.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The :class:`Plan`.
        """
        return await self._fetch(self._endpoint("plans.get").request(_plan(plan_id)), self._model)

    async def delete(self, plan_id: str) -> None:
        """Delete a plan and all of its routes; it cannot be undone.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        """
        await self._client._execute(self._endpoint("plans.delete").request(_plan(plan_id)))

    async def optimize(self, plan_id: str) -> OperationT:
        """Start optimizing the plan; poll the returned operation until ``done``.

        Small plans may come back already done. ``optimize_and_wait`` does both.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The optimization's :class:`Operation`.
        """
        return await self._fetch(self._endpoint("plans.optimize").request(_plan(plan_id)), self._operation)

    async def distribute(self, plan_id: str) -> PlanT:
        """Send the optimized plan's routes to its drivers.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The distributed :class:`Plan`.
        """
        return await self._fetch(self._endpoint("plans.distribute").request(_plan(plan_id)), self._model)

    async def reoptimize(self, plan_id: str, *, optimization_type: str | None = None) -> OperationT:
        """Re-optimize after live changes.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            optimization_type: A :class:`ReoptimizationType` value; None: the service's
                default (``reorder_changed_stops``).

        Returns:
            The re-optimization's :class:`Operation`.
        """
        body = reoptimization_body(optimization_type)
        request = self._endpoint("plans.reoptimize").request(_plan(plan_id), json=body)
        return await self._fetch(request, self._operation)

    async def redistribute(self, plan_id: str) -> PlanT:
        """Apply the re-optimized live changes and send the routes to the drivers.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The :class:`Plan`.
        """
        return await self._fetch(self._endpoint("plans.redistribute").request(_plan(plan_id)), self._model)

    async def save(self, plan_id: str) -> None:
        """Apply the re-optimized live changes without distributing (the service answers 204).

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        """
        await self._client._execute(self._endpoint("plans.save").request(_plan(plan_id)))

    @keywords_documented(keywords_of(Polling, defaults=True))
    async def optimize_and_wait(self, plan_id: str, **options: Unpack[PollOptions]) -> OperationT:
        """Optimize the plan and wait for the finished operation.

        If the plan is already being optimized, wait for that optimization instead.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The optimization failed.
            OperationCanceledError: It was canceled.
            OperationTimeoutError: It did not finish within ``timeout`` seconds.
        """
        client = self._client
        finished: OperationT = await optimize_and_wait(
            self, client.operations, plan_id, clock=client._clock, **options
        )
        return finished


class StopsNamespace(TableResource[ClientT], Generic[ClientT, ModelT, InputT, ChangeT]):
    """Stops inside a plan (``client.stops``): what every version sends alike; a version adds
    its updates (and v1 the search)."""

    __slots__ = ()

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
            self._endpoint("stops.create").request(_plan(plan_id), json=body), self._model
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
            path=_plan(plan_id),
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
        return self._endpoint(name).request(_plan(plan_id), json=body, weight=len(items))

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
        request = self._endpoint("stops.live_create").request(_plan(plan_id), json=body)
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


class UnassignedStopsNamespace(TableResource[ClientT], Generic[ClientT, ModelT, InputT]):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``); a version adds
    its update."""

    __slots__ = ()

    _model: type[ModelT]
    _input: type[InputT]

    async def create(self, stop: InputT) -> ModelT:
        """Create one unassigned stop.

        Args:
            stop: The stop, an :class:`UnassignedStopInput`.

        Returns:
            The created :class:`UnassignedStop`.
        """
        body = self._table.unstructure(checked(stop, self._input, "stop"))
        return await self._fetch(self._endpoint("unassigned_stops.create").request(json=body), self._model)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[ModelT]:
        """The team's unassigned stops, lazily.

        Args:
            filter: Filters by name; None: every unassigned stop.
            max_page_size: Items per page (1..20); None: the service's default (20).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "unassigned_stops.list",
            self._model,
            "unassignedStops",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, unassigned_stop_id: str) -> ModelT:
        """One unassigned stop.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.

        Returns:
            The :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        return await self._fetch(self._endpoint("unassigned_stops.get").request(path), self._model)

    async def delete(self, unassigned_stop_id: str) -> None:
        """Delete an unassigned stop; it cannot be undone.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        await self._client._execute(self._endpoint("unassigned_stops.delete").request(path))

    async def import_batch(self, stops: Sequence[InputT], *, depot: str | None = None) -> ImportResult:
        """Import 1 to 100 unassigned stops in one request.

        The public API documentation's ``POST /unassignedStops:import`` with the
        body ``{"unassignedStops": [...], "depot": "depots/<id>"}``.

        Args:
            stops: 1 to 100 :class:`UnassignedStopInput`, none of which sets a depot.
            depot: ``depots/<id>``, given once for the whole batch (it biases
                geocoding); None: the team's main depot.

        Returns:
            The :class:`ImportResult`.
        """
        return await self._fetch(self._import_request(stops, depot), ImportResult)

    def _import_request(self, stops: Sequence[InputT], depot: str | None) -> Request:
        items = check_batch(stops, self._input)
        for index, item in enumerate(items):
            check_no_depot(item, f"stops[{index}]")
        body: dict[str, Any] = {"unassignedStops": [self._table.unstructure(item) for item in items]}
        if depot is not None:
            body["depot"] = _ids.depot_ref(depot)
        return self._endpoint("unassigned_stops.import_batch").request(json=body, weight=len(items))

    @options_documented(UNASSIGNED_STOP_ROWS)
    async def import_many(
        self,
        stops: Iterable[InputT] | AsyncIterable[InputT],
        *,
        depot: str | None = None,
        **options: Unpack[ImportOptions],
    ) -> ImportReport[InputT]:
        """Import any number of unassigned stops, streamed in batches, each exactly once.

        Args:
            stops: :class:`UnassignedStopInput` objects, an iterable or an async
                iterable (read lazily); none of them sets a depot.
            depot: ``depots/<id>``, shared by every stop; None: the team's main depot.

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        depot_ref = _ids.depot_ref(depot) if depot is not None else None
        target = UnassignedStopsTarget(self, depot_ref, self._input, check_no_depot)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)
