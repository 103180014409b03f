"""Resource namespaces. (Placeholder; the core client issue fills it in.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from route_planning_async._client import RoutePlanningClient


class _Resource:
    def __init__(self, client: RoutePlanningClient) -> None:
        self._client = client


class Plans(_Resource):
    pass


class Stops(_Resource):
    pass


class UnassignedStops(_Resource):
    pass


class Operations(_Resource):
    pass


class Depots(_Resource):
    pass


class CustomStopProperties(_Resource):
    pass


async def get_by_serialized_id(client: RoutePlanningClient, serialized_id: str) -> Any:
    raise LookupError(serialized_id)
