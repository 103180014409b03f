"""v1 stops inside a plan, and the stop search (``client.stops``)."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from typing import Any, Literal, Unpack, cast

from route_planning_async import _ids
from route_planning_async._client import checked, stop_path
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import DecodeError, ValidationError
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._import_targets import live_import, split_live_options
from route_planning_async._inputs import check_batch
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async._workflows import LiveEditing
from route_planning_async.v1 import search as _search
from route_planning_async.v1._converter import structure_list, unstructure
from route_planning_async.v1._endpoints import ENDPOINTS
from route_planning_async.v1._import_targets import (
    PLAN_STOP_ROWS,
    LiveImport,
    LiveImportOptions,
    live_plan_stops_target,
    plan_stops_target,
)
from route_planning_async.v1._inputs import (
    LiveStopUpdate,
    LiveStopUpdateFields,
    StopInput,
    StopUpdate,
    StopUpdateFields,
)
from route_planning_async.v1._live_edit import live_edit
from route_planning_async.v1._models import (
    ImportResult,
    LiveChange,
    LiveImportResult,
    Stop,
    StopSearchResult,
    UnassignedStop,
)
from route_planning_async.v1.resources._common import V1Resource, v1_update

SearchHit = Stop | UnassignedStop
"""What a stop search yields: a plan's :class:`Stop` or an :class:`UnassignedStop`."""


def _search_hits(data: Any, _: object) -> list[SearchHit]:
    """One page of search items (:class:`StopSearchResult`) as the stops found; an item
    of a kind this library does not know is skipped."""
    found = (result.found for result in structure_list(data, StopSearchResult))
    return [hit for hit in found if hit is not None]


def _search_query(
    keyword: str | None,
    filter: _search.Filter | None,
    sort_field: str | None,
    sort_order: Literal["asc", "desc"] | None,
    max_page_size: int | None,
) -> tuple[tuple[str, str], ...]:
    query: list[tuple[str, str]] = []
    given: object = keyword
    if keyword is not None:
        if not isinstance(given, str) or not 1 <= len(given) <= _search.MAX_KEYWORD_LENGTH:
            rule = f"must be a string of 1 to {_search.MAX_KEYWORD_LENGTH} characters"
            raise ValidationError("keyword", f"{rule}, got {keyword!r}")
        query.append(("keyword", keyword))
    text: object = filter
    if filter is not None:
        if not isinstance(text, str | _search.Expression):
            kind = type(text).__name__
            raise ValidationError("filter", f"must be a filter text or a search expression, got {kind}")
        query.append(("filter", _search.filter_text(filter)))
    if max_page_size is not None:
        if isinstance(max_page_size, bool) or not isinstance(max_page_size, int):
            raise ValidationError("max_page_size", f"must be an integer, got {type(max_page_size).__name__}")
        if not 1 <= max_page_size <= _search.MAX_PAGE_SIZE:
            rule = f"must be from 1 to {_search.MAX_PAGE_SIZE}"
            raise ValidationError("max_page_size", f"{rule}, got {max_page_size}")
        query.append(("maxPageSize", str(max_page_size)))
    if sort_field is not None:
        if sort_field not in _search.SORTABLE_FIELDS:
            names = ", ".join(sorted(_search.SORTABLE_FIELDS))
            raise ValidationError("sort_field", f"must be one of {names}, got {sort_field!r}")
        query.append(("sortField", sort_field))
    if sort_order is not None:
        if sort_order not in ("asc", "desc"):
            raise ValidationError("sort_order", f"must be 'asc' or 'desc', got {sort_order!r}")
        query.append(("sortOrder", sort_order))
    return tuple(query)


class Stops(V1Resource):
    """v1 stops inside a plan, the live calls and the team-wide search (``client.stops``)."""

    __slots__ = ()

    async def create(self, plan_id: str, stop: StopInput) -> Stop:
        """Add a v1 :class:`StopInput` to a writable plan (``POST /plans/<id>/stops``).

        A stop whose ``allowed_drivers`` are not linked to the plan is refused with 412.

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            stop: The stop.

        Returns:
            The new :class:`Stop`.
        """
        body = unstructure(checked(stop, StopInput, "stop"))
        return await self._fetch(ENDPOINTS["stops.create"].request(_plan(plan_id), json=body), Stop)

    def list(
        self,
        plan_id: str,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Stop]:
        """A plan's stops, page by page (``GET /plans/<id>/stops``).

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            filter: ``{"external_id": ...}`` (exact match); None: every stop.
            max_page_size: 1 to 10 stops a page; None: the service's default.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Stop`.
        """
        return self._paginate(
            "stops.list",
            Stop,
            "stops",
            path=_plan(plan_id),
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, stop_id: str) -> Stop:
        """Read one stop (``GET /plans/<planId>/stops/<stopId>``).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.

        Returns:
            The :class:`Stop`.
        """
        return await self._fetch(ENDPOINTS["stops.get"].request(stop_path(stop_id)), Stop)

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> Stop:
        """Change the fields given; never the address or ``client_id`` (``PATCH``).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`Stop`.
        """
        body = unstructure(v1_update(StopUpdate, update, fields))
        return await self._fetch(ENDPOINTS["stops.update"].request(stop_path(stop_id), json=body), Stop)

    async def delete(self, stop_id: str) -> None:
        """Delete a stop for good (``DELETE``).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.
        """
        await self._client._execute(ENDPOINTS["stops.delete"].request(stop_path(stop_id)))

    async def import_batch(self, plan_id: str, stops: Sequence[StopInput]) -> ImportResult:
        """Import 1 to 100 v1 stops in one request (batch import category, weighed by its stops).

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            stops: The stops.

        Returns:
            The :class:`ImportResult`: the new ids, and the stops refused with why.
        """
        return await self._fetch(self._import_request(plan_id, stops), ImportResult)

    def _import_request(
        self, plan_id: str, stops: Sequence[StopInput], name: str = "stops.import_batch"
    ) -> Request:
        items = check_batch(stops, StopInput)
        body = [unstructure(item) for item in items]
        return ENDPOINTS[name].request(_plan(plan_id), json=body, weight=len(items))

    @options_documented(PLAN_STOP_ROWS)
    async def import_many(
        self,
        plan_id: str,
        stops: Iterable[StopInput] | AsyncIterable[StopInput],
        **options: Unpack[ImportOptions],
    ) -> ImportReport[StopInput]:
        """Import any number of v1 stops into a plan, in batches, each exactly once
        (the natural key: ``recipient.external_id``).

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: A bad option or row (``stops[<position>]``), before it is sent.
        """
        target = plan_stops_target(self, _ids.plan_id(plan_id))
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)

    async def live_create(self, plan_id: str, stop: StopInput) -> LiveChange:
        """Add a stop to a plan that is not writable; applied by re-optimizing, then
        redistributing or saving (``plans.live_edit`` does all of it).

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            stop: The stop.

        Returns:
            The :class:`LiveChange`.
        """
        body = unstructure(checked(stop, StopInput, "stop"))
        return await self._fetch(
            ENDPOINTS["stops.live_create"].request(_plan(plan_id), json=body), LiveChange
        )

    @keywords_documented(keywords_of(LiveStopUpdate, types=LiveStopUpdateFields))
    async def live_update(
        self, stop_id: str, update: LiveStopUpdate | None = None, /, **fields: Unpack[LiveStopUpdateFields]
    ) -> LiveChange:
        """Change a stop of a plan that is not writable (applied as ``live_create`` is).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.
            update: A :class:`LiveStopUpdate`; or give its fields as keywords (not both).

        Returns:
            The :class:`LiveChange`.
        """
        body = unstructure(v1_update(LiveStopUpdate, update, fields))
        request = ENDPOINTS["stops.live_update"].request(stop_path(stop_id), json=body)
        return await self._fetch(request, LiveChange)

    async def live_delete(self, stop_id: str) -> LiveChange:
        """Remove a stop of a plan that is not writable (applied as ``live_create`` is).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.

        Returns:
            The :class:`LiveChange`.
        """
        return await self._fetch(ENDPOINTS["stops.live_delete"].request(stop_path(stop_id)), LiveChange)

    async def live_import_batch(self, plan_id: str, stops: Sequence[StopInput]) -> LiveImportResult:
        """Import 1 to 100 stops into a live plan (``:liveImport``, batch import category);
        ``pending`` says they joined its editing session.

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            stops: The stops.

        Returns:
            The :class:`LiveImportResult`.
        """
        return await self._fetch(self._live_import_request(plan_id, stops), LiveImportResult)

    def _live_import_request(self, plan_id: str, stops: Sequence[StopInput]) -> Request:
        return self._import_request(plan_id, stops, "stops.live_import_batch")

    @options_documented(PLAN_STOP_ROWS, keywords_of(LiveEditing, defaults=True))
    async def live_import_many(
        self,
        plan_id: str,
        stops: Iterable[StopInput] | AsyncIterable[StopInput],
        **options: Unpack[LiveImportOptions],
    ) -> LiveImport:
        """Import any number of stops into a live plan, exactly once, then apply them as
        ``plans.live_edit`` does (v0.2b's ``live_import_many`` explains every case).

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Returns:
            A :class:`LiveImport`: the import's report and the live edit that applied it.
        """
        edit_options, import_options = split_live_options(options)
        checked_id = _ids.plan_id(plan_id)
        client = self._client
        target = live_plan_stops_target(self, client.plans, checked_id)
        context = live_edit(
            client.plans, self, client.operations, checked_id, clock=client._clock, **edit_options
        )
        report, pending, edit = await live_import(
            target,
            context,
            stops,
            pending_marker=LiveChange(pending=True),
            limits=client.rate_limits,
            clock=client._clock,
            **import_options,
        )
        return LiveImport(report=report, pending=pending, edit=edit)

    def search(
        self,
        *,
        keyword: str | None = None,
        filter: _search.Filter | None = None,
        sort_field: str | None = None,
        sort_order: Literal["asc", "desc"] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[SearchHit]:
        """Search every stop and unassigned stop of the team (``GET /stops:search``, read category).

        The index lags the stops a little: a stop just made may not be found yet.
        ``route_planning_async.v1.search`` builds filters::

            from route_planning_async.v1.search import field

            async for hit in client.stops.search(keyword="london", filter=field("activity") == "pickup"):
                print(hit.id)

        Args:
            keyword: Words matched fuzzily (1 to 255 characters); results by relevance
                unless ``sort_field`` is given.
            filter: A :mod:`~route_planning_async.v1.search` expression or the filter text
                (at most 2,048 characters).
            sort_field: One of ``search.SORTABLE_FIELDS``.
            sort_order: ``"asc"`` (the service's default) or ``"desc"``.
            max_page_size: 1 to 20 hits a page; None: the service's 20.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Stop` and :class:`UnassignedStop`.
        """
        query = _search_query(keyword, filter, sort_field, sort_order, max_page_size)
        endpoint = ENDPOINTS["stops.search"]

        def decode(data: Any, item_type: object) -> list[SearchHit]:
            try:
                return _search_hits(data, item_type)
            except DecodeError as error:
                raise self._named(error, endpoint.request()) from error.__cause__

        item_type = cast(type[SearchHit], Stop)
        return Paginator(
            self._execute_object,
            endpoint,
            item_type,
            "stops",
            decode=decode,
            query=query,
            page_token=page_token,
        )


def _plan(plan_id: str) -> dict[str, str]:
    return {"plan": _ids.plan_id(plan_id)}
