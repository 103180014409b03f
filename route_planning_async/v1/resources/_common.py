"""What every v1 namespace shares: the client protocol, the version's table and base class.

Each namespace is a shared :class:`~route_planning_async._client.Namespace`
subclass that sends through :data:`TABLE`: v1's endpoint table and converter,
and the fields no update can carry (the shared ones and v1's own);
:class:`V1Namespace` is the base of those only v1 has (members).
"""

from __future__ import annotations

from typing import Final, Protocol

from route_planning_async import _workflows
from route_planning_async._client import NOT_UPDATABLE, ClientCalls, Namespace, VersionTable
from route_planning_async.v1._converter import structure, structure_list, unstructure
from route_planning_async.v1._endpoints import ENDPOINTS
from route_planning_async.v1._live_edit import LiveStopCalls
from route_planning_async.v1._models import Operation, Plan

__all__ = ["TABLE", "V1Client", "V1Namespace"]

# Fields an update can never carry in v1, and why (the v1 document's update bodies):
# the shared ones and v1's own.
_NOT_UPDATABLE: Final = {
    **NOT_UPDATABLE,
    "email": "an e-mail cannot be changed (it is set on create and import only)",
    "phone": "a driver's phone cannot be changed (it is set on create and import only)",
    "linked_driver_id": "a member's linked driver is set on create and import only",
}

TABLE: Final = VersionTable(ENDPOINTS, structure, structure_list, unstructure, not_updatable=_NOT_UPDATABLE)
"""v1's endpoint table, converter and the fields no update can carry (``TABLE.update``)."""


class V1Client(ClientCalls, Protocol):
    """What a v1 namespace needs of the client that owns it (v1's ``RoutePlanningClient`` is one):
    the calls a live edit makes (``plans.live_edit``, ``stops.live_edit``), by what they do, so
    that no namespace names another's class."""

    @property
    def plans(self) -> _workflows.PlanCalls[Plan, Operation]: ...
    @property
    def stops(self) -> LiveStopCalls: ...
    @property
    def operations(self) -> _workflows.OperationCalls[Operation]: ...


class V1Namespace(Namespace[V1Client]):
    """A v1 namespace: its endpoint table and converter."""

    __slots__ = ()

    _table = TABLE
