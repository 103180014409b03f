"""The team's custom stop property definitions (``client.custom_stop_properties``), read only.

The same in every version but for the endpoint table and converter (``_table``).
"""

from __future__ import annotations

from typing import TypeVar

from route_planning_async._checks import _ids
from route_planning_async._client import ClientCalls, Namespace
from route_planning_async._models import CustomStopProperty
from route_planning_async._pagination import Paginator

ClientT = TypeVar("ClientT", bound=ClientCalls)

__all__ = ["CustomStopPropertiesNamespace"]


class CustomStopPropertiesNamespace(Namespace[ClientT]):
    """The team's custom stop property definitions, read only."""

    __slots__ = ()

    def list(self) -> Paginator[CustomStopProperty]:
        """Every definition (at most 3 per team; one page)."""
        return self._paginate("custom_stop_properties.list", CustomStopProperty, "customStopProperties")

    async def get(self, custom_stop_property_id: str) -> CustomStopProperty:
        """One definition by its id.

        Public API documentation, ``GET /team/customStopProperties/<id>``.

        Args:
            custom_stop_property_id: The definition's id.

        Returns:
            The :class:`CustomStopProperty`.
        """
        path = {"custom_stop_property": _ids.custom_stop_property_id(custom_stop_property_id)}
        return await self._fetch(
            self._endpoint("custom_stop_properties.get").request(path), CustomStopProperty
        )
