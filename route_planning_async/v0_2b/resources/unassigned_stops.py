"""Unassigned stops (``client.unassigned_stops``)."""

from __future__ import annotations

from collections.abc import (
    AsyncIterable,
    Iterable,
    Mapping,
    Sequence,
)
from typing import TYPE_CHECKING, Any, Unpack

from route_planning_async import _ids
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._import import (
    ImportOptions,
    ImportReport,
    options_documented,
    run_import,
)
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._import_targets import UNASSIGNED_STOP_ROWS, unassigned_stops_target
from route_planning_async.v0_2b._inputs import (
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
    check_batch,
    check_no_depot,
)
from route_planning_async.v0_2b._models import (
    ImportResult,
    UnassignedStop,
)
from route_planning_async.v0_2b.resources._common import _checked, _Resource, _update_body

if TYPE_CHECKING:
    pass


class UnassignedStops(_Resource):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``)."""

    __slots__ = ()

    async def create(self, stop: UnassignedStopInput) -> UnassignedStop:
        """Create one unassigned stop.

        Args:
            stop: The stop, an :class:`UnassignedStopInput`.

        Returns:
            The created :class:`UnassignedStop`.
        """
        body = unstructure(_checked(stop, UnassignedStopInput, "stop"))
        return await self._fetch(ENDPOINTS["unassigned_stops.create"].request(json=body), UnassignedStop)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[UnassignedStop]:
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
            UnassignedStop,
            "unassignedStops",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, unassigned_stop_id: str) -> UnassignedStop:
        """One unassigned stop.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.

        Returns:
            The :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        return await self._fetch(ENDPOINTS["unassigned_stops.get"].request(path), UnassignedStop)

    @keywords_documented(keywords_of(UnassignedStopUpdate, types=UnassignedStopUpdateFields))
    async def update(
        self,
        unassigned_stop_id: str,
        update: UnassignedStopUpdate | None = None,
        /,
        **fields: Unpack[UnassignedStopUpdateFields],
    ) -> UnassignedStop:
        """Change the fields given; the location and ``client_id`` cannot be changed.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
            update: An :class:`UnassignedStopUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        body = unstructure(_update_body(UnassignedStopUpdate, update, fields))
        request = ENDPOINTS["unassigned_stops.update"].request(path, json=body)
        return await self._fetch(request, UnassignedStop)

    async def delete(self, unassigned_stop_id: str) -> None:
        """Delete an unassigned stop; it cannot be undone.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        await self._client._execute(ENDPOINTS["unassigned_stops.delete"].request(path))

    async def import_batch(
        self, stops: Sequence[UnassignedStopInput], *, depot: str | None = None
    ) -> ImportResult:
        """Import 1 to 100 unassigned stops in one request.

        The contract does not show this call; it follows the public API
        documentation: ``POST /unassignedStops:import`` with the body
        ``{"unassignedStops": [...], "depot": "depots/<id>"}``.

        Args:
            stops: 1 to 100 :class:`UnassignedStopInput`, none of which sets a depot.
            depot: ``depots/<id>``, given once for the whole batch (it biases
                geocoding); None: the team's main depot.

        Returns:
            The :class:`ImportResult`.
        """
        return await self._fetch(self._import_request(stops, depot), ImportResult)

    def _import_request(self, stops: Sequence[UnassignedStopInput], depot: str | None) -> Request:
        items = check_batch(stops, UnassignedStopInput)
        for index, item in enumerate(items):
            check_no_depot(item, f"stops[{index}]")
        body: dict[str, Any] = {"unassignedStops": [unstructure(item) for item in items]}
        if depot is not None:
            body["depot"] = _ids.depot_ref(depot)
        return ENDPOINTS["unassigned_stops.import_batch"].request(json=body, weight=len(items))

    @options_documented(UNASSIGNED_STOP_ROWS)
    async def import_many(
        self,
        stops: Iterable[UnassignedStopInput] | AsyncIterable[UnassignedStopInput],
        *,
        depot: str | None = None,
        **options: Unpack[ImportOptions],
    ) -> ImportReport[UnassignedStopInput]:
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
        target = unassigned_stops_target(self, _ids.depot_ref(depot) if depot is not None else None)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)
