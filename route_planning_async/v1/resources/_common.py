"""What every v1 namespace shares: the client protocol, the base class and update bodies.

The base class is the shared :class:`~route_planning_async._client.TableResource`
with v1's endpoint table and converter (:data:`TABLE`); the checks are the
shared ones of ``_client/_resource.py``, with v1's fields that no update can carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from route_planning_async._client import ClientCalls, TableResource, VersionTable, update_body
from route_planning_async.v1._converter import structure, structure_list, unstructure
from route_planning_async.v1._endpoints import ENDPOINTS

if TYPE_CHECKING:
    from route_planning_async.v1.resources.depots import Depots
    from route_planning_async.v1.resources.drivers import Drivers
    from route_planning_async.v1.resources.members import Members
    from route_planning_async.v1.resources.operations import Operations
    from route_planning_async.v1.resources.plans import Plans
    from route_planning_async.v1.resources.routes import Routes
    from route_planning_async.v1.resources.stops import Stops
    from route_planning_async.v1.resources.unassigned_stops import UnassignedStops

__all__ = ["TABLE", "V1Client", "V1Resource", "v1_update"]

U = TypeVar("U")

TABLE: Final = VersionTable(ENDPOINTS, structure, structure_list, unstructure)
"""v1's endpoint table and converter."""

# Fields an update can never carry in v1, and why (the v1 document's update bodies).
_NOT_UPDATABLE: Final = {
    "address": "a stop's location cannot be updated; delete the stop and create a new one",
    "client_id": "cannot be updated (it is set on create and import only)",
    "email": "an e-mail cannot be changed (it is set on create and import only)",
    "phone": "a driver's phone cannot be changed (it is set on create and import only)",
    "linked_driver_id": "a member's linked driver is set on create and import only",
}


def v1_update(cls: type[U], update: U | None, fields: Mapping[str, Any]) -> U:
    """The v1 update object from either an instance of ``cls`` or its fields as keywords."""
    return update_body(cls, update, fields, _NOT_UPDATABLE)


class V1Client(ClientCalls, Protocol):
    """What a v1 namespace needs of the client that owns it (v1's ``RoutePlanningClient`` is one)."""

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
    def members(self) -> Members: ...
    @property
    def drivers(self) -> Drivers: ...
    @property
    def routes(self) -> Routes: ...


class V1Resource(TableResource[V1Client]):
    """A v1 namespace: its endpoint table and converter."""

    __slots__ = ()

    _table = TABLE
