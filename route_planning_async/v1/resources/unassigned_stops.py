"""v1 unassigned stops (``client.unassigned_stops``)."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from typing import Any, Unpack

from route_planning_async import _ids
from route_planning_async._client import checked
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._inputs import check_batch, check_no_depot
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._endpoints import ENDPOINTS
from route_planning_async.v1._import_targets import UNASSIGNED_STOP_ROWS, unassigned_stops_target
from route_planning_async.v1._inputs import (
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
)
from route_planning_async.v1._models import ImportResult, UnassignedStop
from route_planning_async.v1.resources._common import V1Resource, v1_update


class UnassignedStops(V1Resource):
    """v1 stops of a depot that are in no plan yet (``client.unassigned_stops``)."""

    __slots__ = ()

    async def create(self, stop: UnassignedStopInput) -> UnassignedStop:
        """Create one from an :class:`UnassignedStopInput` (``POST /unassignedStops``).

        Args:
            stop: The stop.

        Returns:
            The new :class:`UnassignedStop`.
        """
        body = unstructure(checked(stop, UnassignedStopInput, "stop"))
        return await self._fetch(ENDPOINTS["unassigned_stops.create"].request(json=body), UnassignedStop)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[UnassignedStop]:
        """Every unassigned stop of the team, page by page (``GET /unassignedStops``).

        Args:
            filter: ``{"external_id": ...}`` (exact match); None: all of them.
            max_page_size: 1 to 20 a page; None: the service's 20.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`UnassignedStop`.
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
        """Read one (``GET /unassignedStops/<id>``).

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.

        Returns:
            The :class:`UnassignedStop`.
        """
        return await self._fetch(
            ENDPOINTS["unassigned_stops.get"].request(_path(unassigned_stop_id)), UnassignedStop
        )

    @keywords_documented(keywords_of(UnassignedStopUpdate, types=UnassignedStopUpdateFields))
    async def update(
        self,
        unassigned_stop_id: str,
        update: UnassignedStopUpdate | None = None,
        /,
        **fields: Unpack[UnassignedStopUpdateFields],
    ) -> UnassignedStop:
        """Change the fields given; never the address or ``client_id`` (``PATCH``).

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
            update: An :class:`UnassignedStopUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`UnassignedStop`.
        """
        body = unstructure(v1_update(UnassignedStopUpdate, update, fields))
        request = ENDPOINTS["unassigned_stops.update"].request(_path(unassigned_stop_id), json=body)
        return await self._fetch(request, UnassignedStop)

    async def delete(self, unassigned_stop_id: str) -> None:
        """Delete one for good (``DELETE``).

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
        """
        await self._client._execute(ENDPOINTS["unassigned_stops.delete"].request(_path(unassigned_stop_id)))

    async def import_batch(
        self, stops: Sequence[UnassignedStopInput], *, depot: str | None = None
    ) -> ImportResult:
        """Import 1 to 100 in one request (``POST /unassignedStops:import``, body
        ``{"unassignedStops": [...], "depot": "depots/<id>"}``; batch import category).

        Args:
            stops: The stops; none of them names a depot.
            depot: ``depots/<id>`` or ``<id>``, for the whole batch; None: the team's main depot.

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
        """Import any number of unassigned stops, in batches, each exactly once
        (the natural key: ``recipient.external_id``).

        Args:
            stops: :class:`UnassignedStopInput` objects (none naming a depot), an iterable
                or an async iterable (read lazily).
            depot: ``depots/<id>`` or ``<id>`` for every stop; None: the team's main depot.

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: A bad option or row (``stops[<position>]``), before it is sent.
        """
        target = unassigned_stops_target(self, _ids.depot_ref(depot) if depot is not None else None)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)


def _path(unassigned_stop_id: str) -> dict[str, str]:
    return {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
