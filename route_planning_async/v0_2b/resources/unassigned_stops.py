"""Unassigned stops (``client.unassigned_stops``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from route_planning_async import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._namespaces import UnassignedStopsNamespace
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import (
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
)
from route_planning_async.v0_2b._models import (
    UnassignedStop,
)
from route_planning_async.v0_2b.resources._common import TABLE, _Client

if TYPE_CHECKING:
    pass


class UnassignedStops(UnassignedStopsNamespace[_Client, UnassignedStop, UnassignedStopInput]):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``)."""

    __slots__ = ()

    _table = TABLE

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
        body = unstructure(TABLE.update(UnassignedStopUpdate, update, fields))
        request = self._endpoint("unassigned_stops.update").request(path, json=body)
        return await self._fetch(request, UnassignedStop)
