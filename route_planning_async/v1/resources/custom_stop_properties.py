"""v1 custom stop property definitions (``client.custom_stop_properties``)."""

from __future__ import annotations

from route_planning_async import _ids
from route_planning_async._pagination import Paginator
from route_planning_async.v1._endpoints import ENDPOINTS
from route_planning_async.v1._models import CustomStopProperty
from route_planning_async.v1.resources._common import V1Resource


class CustomStopProperties(V1Resource):
    """The team's custom stop property definitions, read only; search filters name a
    property by its id (``search.custom_property(id)``)."""

    __slots__ = ()

    def list(self) -> Paginator[CustomStopProperty]:
        """Every definition (``GET /team/customStopProperties``; one page)."""
        return self._paginate("custom_stop_properties.list", CustomStopProperty, "customStopProperties")

    async def get(self, custom_stop_property_id: str) -> CustomStopProperty:
        """One definition (``GET /team/customStopProperties/<id>``).

        Args:
            custom_stop_property_id: The definition's id.

        Returns:
            The :class:`CustomStopProperty`.
        """
        path = {"custom_stop_property": _ids.custom_stop_property_id(custom_stop_property_id)}
        return await self._fetch(ENDPOINTS["custom_stop_properties.get"].request(path), CustomStopProperty)
