"""v1 unassigned stops (``client.unassigned_stops``)."""

from __future__ import annotations

from typing import Unpack

from route_planning_async import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._namespaces import UnassignedStopsNamespace
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._inputs import (
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
)
from route_planning_async.v1._models import UnassignedStop
from route_planning_async.v1.resources._common import TABLE, V1Client


class UnassignedStops(UnassignedStopsNamespace[V1Client, UnassignedStop, UnassignedStopInput]):
    """v1 stops of a depot that are in no plan yet (``client.unassigned_stops``)."""

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
        """Change the fields given; never the address or ``client_id`` (``PATCH``).

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
            update: An :class:`UnassignedStopUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`UnassignedStop`.
        """
        body = unstructure(TABLE.update(UnassignedStopUpdate, update, fields))
        request = self._endpoint("unassigned_stops.update").request(_path(unassigned_stop_id), json=body)
        return await self._fetch(request, UnassignedStop)


def _path(unassigned_stop_id: str) -> dict[str, str]:
    return {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
