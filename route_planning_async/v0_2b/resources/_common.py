"""What every v0.2b namespace shares: the client protocol and the version's table.

Each namespace is a shared :class:`~route_planning_async._client.Namespace`
subclass that sends through :data:`TABLE`: v0.2b's endpoint table and converter,
and the fields no update can carry (the shared ones and v0.2b's own).
"""

from __future__ import annotations

from typing import Final, Protocol

from route_planning_async import _workflows
from route_planning_async._client import (
    NOT_UPDATABLE,
    ClientCalls,
    SerializedIdCalls,
    VersionTable,
    by_serialized_id,
)
from route_planning_async.v0_2b._converter import structure, structure_list, unstructure
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._live_edit import LiveStopCalls
from route_planning_async.v0_2b._models import (
    Depot,
    Driver,
    Operation,
    Plan,
    Route,
    Stop,
    UnassignedStop,
)

__all__ = ["TABLE", "_Client", "get_by_serialized_id"]

# Fields an update can never carry, and why (contract, Stops rule 2 and the
# unassigned stop update table): the shared ones and v0.2b's own.
_NOT_UPDATABLE: Final = {
    **NOT_UPDATABLE,
    "service_client_id": "cannot be updated (it is set on create and import only)",
}

TABLE: Final = VersionTable(ENDPOINTS, structure, structure_list, unstructure, not_updatable=_NOT_UPDATABLE)
"""v0.2b's endpoint table, converter and the fields no update can carry (``TABLE.update``)."""


class _Client(ClientCalls, Protocol):
    """What a v0.2b namespace needs of the client that owns it (``RoutePlanningClient`` is one):
    the calls a live edit makes (``plans.live_edit``, ``stops.live_edit``), by what they do, so
    that no namespace names another's class."""

    @property
    def plans(self) -> _workflows.PlanCalls[Plan, Operation]: ...
    @property
    def stops(self) -> LiveStopCalls: ...
    @property
    def operations(self) -> _workflows.OperationCalls[Operation]: ...


async def get_by_serialized_id(
    client: SerializedIdCalls, serialized_id: str
) -> Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver:
    """Fetch any resource by its serialized id, as the matching model
    (contract, General conventions: GET ``{base_url}/<serialized id>``)."""
    found: Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver = await by_serialized_id(
        client, serialized_id
    )
    return found
