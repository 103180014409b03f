"""The v0.2b namespaces, one module each: ``client.plans``, ``client.stops`` and the rest.

Each method does the same three things, in this order: check every id and
input (raising :class:`~route_planning_async.ValidationError` before anything is
sent), build the request from the endpoint table (``v0_2b._endpoints.ENDPOINTS``),
and hand it to ``client._execute``; the JSON answer comes back as a model.

Ids: plan methods take ``"plans/<id>"`` or a bare ``"<id>"``; stop methods
take the serialized stop id ``"plans/<planId>/stops/<stopId>"`` that every
:class:`~route_planning_async.Stop` carries.

Inputs are the typed classes of ``v0_2b._inputs``. Updates take either the update
object or its fields as keywords (``stops.update(stop_id, notes="Ring twice")``).

The workflows built on these calls live in their own modules and are reached
from here, their options passed through once as keywords (``Unpack`` of the
workflow's options ``TypedDict``): ``plans.optimize_and_wait`` /
``plans.live_edit`` (``_workflows.py``), ``operations.wait`` /
``operations.wait_many`` (``_operations.py``), and the ``import_many`` calls
(``_import/``, through the import targets of ``v0_2b._import_targets``). The
workflows never see the client: they get the namespaces they call (which
satisfy their small protocols) and the scheduler's clock.
"""

from route_planning_async.v0_2b._import_targets import LiveImport, LiveImportOptions
from route_planning_async.v0_2b.resources._common import get_by_serialized_id
from route_planning_async.v0_2b.resources.custom_stop_properties import CustomStopProperties
from route_planning_async.v0_2b.resources.depots import Depots
from route_planning_async.v0_2b.resources.drivers import Drivers
from route_planning_async.v0_2b.resources.operations import Operations
from route_planning_async.v0_2b.resources.plans import Plans
from route_planning_async.v0_2b.resources.raw import Raw
from route_planning_async.v0_2b.resources.routes import Routes
from route_planning_async.v0_2b.resources.stops import Stops
from route_planning_async.v0_2b.resources.unassigned_stops import UnassignedStops

__all__ = [
    "CustomStopProperties",
    "Depots",
    "Drivers",
    "LiveImport",
    "LiveImportOptions",
    "Operations",
    "Plans",
    "Raw",
    "Routes",
    "Stops",
    "UnassignedStops",
    "get_by_serialized_id",
]
