"""The v1 namespaces, one module each: ``client.plans``, ``client.stops`` and the rest.

Each method checks every id and input first (raising
:class:`~route_planning_async.ValidationError` before anything is sent), builds
its request from v1's endpoint table (``v1._endpoints.ENDPOINTS``) and sends it
through the client; the answer comes back as a v1 model. Creates take a v1
input object, updates an update object or its fields as keywords. The shared
namespace machinery (``Namespace``, the checks, ``client.raw``) is in
``_client/``; the workflows (pagination, operations, live edit, the importer)
are the shared rooms, reached with v1's import targets (``v1._import_targets``).
"""

from route_planning_async.v1.resources.custom_stop_properties import CustomStopProperties
from route_planning_async.v1.resources.depots import Depots
from route_planning_async.v1.resources.drivers import Drivers
from route_planning_async.v1.resources.members import Members
from route_planning_async.v1.resources.operations import Operations
from route_planning_async.v1.resources.plans import Plans
from route_planning_async.v1.resources.raw import Raw
from route_planning_async.v1.resources.routes import Routes
from route_planning_async.v1.resources.stops import SearchHit, Stops
from route_planning_async.v1.resources.unassigned_stops import UnassignedStops

__all__ = [
    "CustomStopProperties",
    "Depots",
    "Drivers",
    "Members",
    "Operations",
    "Plans",
    "Raw",
    "Routes",
    "SearchHit",
    "Stops",
    "UnassignedStops",
]
