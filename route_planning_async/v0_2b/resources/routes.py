"""Routes (``client.routes``)."""

from __future__ import annotations

from route_planning_async import _ids
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._models import (
    Route,
)
from route_planning_async.v0_2b.resources._common import _Resource


class Routes(_Resource):
    """Routes of optimized plans, read only (``client.routes``); a plan's
    ``routes`` ids and a stop's ``route.id`` resolve here."""

    __slots__ = ()

    async def get(self, route_id: str) -> Route:
        """One route (public API documentation, ``GET /routes/<id>``).

        Args:
            route_id: ``routes/<id>`` or ``<id>``.

        Returns:
            The :class:`Route`.

        Raises:
            PermissionDeniedError: 403 ``route_inaccessible``, for a route older than the team may read.
        """
        path = {"route": _ids.route_id(route_id)}
        return await self._fetch(ENDPOINTS["routes.get"].request(path), Route)
