"""What every v0.2b namespace shares: the client protocol, the base class and update bodies.

The base class is the shared :class:`~route_planning_async._client.TableResource`
with v0.2b's endpoint table and converter (:data:`TABLE`); the checks are the
shared ones of ``_client/_resource.py``, with v0.2b's fields that no update can carry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol

from route_planning_async._client import (
    NOT_UPDATABLE,
    ClientCalls,
    TableResource,
    VersionTable,
    by_serialized_id,
)
from route_planning_async._client import checked as _checked
from route_planning_async._client import stop_path as _stop_path
from route_planning_async.v0_2b._converter import structure, structure_list, unstructure
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._models import (
    Depot,
    Driver,
    Operation,
    Plan,
    Route,
    Stop,
    UnassignedStop,
)

if TYPE_CHECKING:
    from route_planning_async.v0_2b.resources.depots import Depots
    from route_planning_async.v0_2b.resources.drivers import Drivers
    from route_planning_async.v0_2b.resources.operations import Operations
    from route_planning_async.v0_2b.resources.plans import Plans
    from route_planning_async.v0_2b.resources.routes import Routes
    from route_planning_async.v0_2b.resources.stops import Stops
    from route_planning_async.v0_2b.resources.unassigned_stops import UnassignedStops

__all__ = ["TABLE", "_Resource", "_checked", "_stop_path", "get_by_serialized_id"]

# Fields an update can never carry, and why (contract, Stops rule 2 and the
# unassigned stop update table): the shared ones and v0.2b's own.
_NOT_UPDATABLE: Final = {
    **NOT_UPDATABLE,
    "service_client_id": "cannot be updated (it is set on create and import only)",
}

TABLE: Final = VersionTable(ENDPOINTS, structure, structure_list, unstructure, not_updatable=_NOT_UPDATABLE)
"""v0.2b's endpoint table, converter and the fields no update can carry (``TABLE.update``)."""


class _Client(ClientCalls, Protocol):
    """What a v0.2b namespace needs of the client that owns it (``RoutePlanningClient`` is one)."""

    @property
    def plans(self) -> Plans: ...
    @property
    def stops(self) -> Stops: ...
    @property
    def unassigned_stops(self) -> UnassignedStops: ...
    @property
    def operations(self) -> Operations: ...
    @property
    def depots(self) -> Depots: ...
    @property
    def drivers(self) -> Drivers: ...
    @property
    def routes(self) -> Routes: ...


class _Resource(TableResource[_Client]):
    """A v0.2b namespace: its endpoint table and converter."""

    __slots__ = ()

    _table = TABLE


async def get_by_serialized_id(
    client: _Client, serialized_id: str
) -> Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver:
    """Fetch any resource by its serialized id, as the matching model
    (contract, General conventions: GET ``{base_url}/<serialized id>``)."""
    found: Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver = await by_serialized_id(
        client, serialized_id
    )
    return found
