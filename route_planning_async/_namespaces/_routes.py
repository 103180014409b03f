"""Routes of optimized plans (``client.routes``): the read every version has alike.

v1 adds its lists (``v1/resources/routes.py``).
"""

from __future__ import annotations

from typing import TypeVar

from route_planning_async._checks import _ids
from route_planning_async._client import ClientCalls, Namespace
from route_planning_async._models import Route

ClientT = TypeVar("ClientT", bound=ClientCalls)

__all__ = ["RoutesNamespace"]


class RoutesNamespace(Namespace[ClientT]):
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
        return await self._fetch(self._endpoint("routes.get").request(path), Route)
