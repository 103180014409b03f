"""v1's route table: every endpoint, its rate-limit category and body rule, below its base path.

``ROUTES`` names each endpoint as the client's v1 endpoint table does
(``depots.set_main``), in matching order; ``ROUTE_TABLE`` matches paths against
them. Depot and member imports have categories of their own (the public text
names no limit for them; ``route_planning_async._limits`` says what was chosen).
"""

from __future__ import annotations

from typing import Final

from route_planning_async._limits import Category
from route_planning_async.emulator._routes import RouteSpec, RouteTable

__all__ = ["BASE_PATH", "ROUTES", "ROUTE_TABLE"]

BASE_PATH: Final = "/public/v1"
"""Every endpoint lives below this path (v1 document, Address)."""

_R, _W, _I, _O = Category.READ, Category.WRITE, Category.BATCH_IMPORT, Category.OPTIMIZE
_DEPOT_IMPORT: Final = Category.DEPOT_IMPORT
_MEMBER_IMPORT: Final = Category.MEMBER_IMPORT

ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("plans.create", "POST", "/plans", _W, "required"),
    RouteSpec("plans.list", "GET", "/plans", _R, "none"),
    RouteSpec("plans.get", "GET", "/plans/{plan}", _R, "none"),
    RouteSpec("plans.update", "PATCH", "/plans/{plan}", _W, "required"),
    RouteSpec("plans.delete", "DELETE", "/plans/{plan}", _W, "none"),
    RouteSpec("plans.optimize", "POST", "/plans/{plan}:optimize", _O, "none"),
    RouteSpec("plans.distribute", "POST", "/plans/{plan}:distribute", _W, "none"),
    RouteSpec("plans.reoptimize", "POST", "/plans/{plan}:reoptimize", _O, "optional"),
    RouteSpec("plans.redistribute", "POST", "/plans/{plan}:redistribute", _W, "none"),
    RouteSpec("plans.save", "POST", "/plans/{plan}:save", _W, "none"),
    RouteSpec("stops.create", "POST", "/plans/{plan}/stops", _W, "required"),
    RouteSpec("stops.list", "GET", "/plans/{plan}/stops", _R, "none"),
    RouteSpec("stops.import_batch", "POST", "/plans/{plan}/stops:import", _I, "required"),
    RouteSpec("stops.get", "GET", "/plans/{plan}/stops/{stop}", _R, "none"),
    RouteSpec("stops.update", "PATCH", "/plans/{plan}/stops/{stop}", _W, "required"),
    RouteSpec("stops.delete", "DELETE", "/plans/{plan}/stops/{stop}", _W, "none"),
    RouteSpec("stops.live_create", "POST", "/plans/{plan}/stops:liveCreate", _W, "required"),
    RouteSpec("stops.live_import_batch", "POST", "/plans/{plan}/stops:liveImport", _I, "required"),
    RouteSpec("stops.live_update", "POST", "/plans/{plan}/stops/{stop}:liveUpdate", _W, "required"),
    RouteSpec("stops.live_delete", "POST", "/plans/{plan}/stops/{stop}:liveDelete", _W, "none"),
    RouteSpec("stops.search", "GET", "/stops:search", _R, "none"),
    RouteSpec("unassigned_stops.create", "POST", "/unassignedStops", _W, "required"),
    RouteSpec("unassigned_stops.list", "GET", "/unassignedStops", _R, "none"),
    RouteSpec("unassigned_stops.import_batch", "POST", "/unassignedStops:import", _I, "required"),
    RouteSpec("unassigned_stops.get", "GET", "/unassignedStops/{unassigned_stop}", _R, "none"),
    RouteSpec("unassigned_stops.update", "PATCH", "/unassignedStops/{unassigned_stop}", _W, "required"),
    RouteSpec("unassigned_stops.delete", "DELETE", "/unassignedStops/{unassigned_stop}", _W, "none"),
    RouteSpec("operations.list", "GET", "/operations", _R, "none"),
    RouteSpec("operations.get", "GET", "/operations/{operation}", _R, "none"),
    RouteSpec("operations.cancel", "POST", "/operations/{operation}:cancel", _W, "none"),
    RouteSpec("depots.list", "GET", "/depots", _R, "none"),
    RouteSpec("depots.create", "POST", "/depots", _W, "required"),
    RouteSpec("depots.import_batch", "POST", "/depots:import", _DEPOT_IMPORT, "required"),
    RouteSpec("depots.get", "GET", "/depots/{depot}", _R, "none"),
    RouteSpec("depots.update", "PATCH", "/depots/{depot}", _W, "required"),
    RouteSpec("depots.delete", "DELETE", "/depots/{depot}", _W, "none"),
    RouteSpec("depots.set_main", "POST", "/depots/{depot}:setMain", _W, "none"),
    RouteSpec("members.create", "POST", "/members", _W, "required"),
    RouteSpec("members.import_batch", "POST", "/members:import", _MEMBER_IMPORT, "required"),
    RouteSpec("members.update", "PATCH", "/members/{member}", _W, "required"),
    RouteSpec("members.delete", "DELETE", "/members/{member}", _W, "none"),
    RouteSpec("drivers.list", "GET", "/drivers", _R, "none"),
    RouteSpec("drivers.create", "POST", "/drivers", Category.DRIVER_CREATE, "required"),
    RouteSpec("drivers.import_batch", "POST", "/drivers:import", Category.DRIVER_IMPORT, "required"),
    RouteSpec("drivers.get", "GET", "/drivers/{driver}", _R, "none"),
    RouteSpec("drivers.update", "PATCH", "/drivers/{driver}", _W, "required"),
    RouteSpec("drivers.delete", "DELETE", "/drivers/{driver}", _W, "none"),
    RouteSpec("routes.list", "GET", "/routes", _R, "none"),
    RouteSpec("routes.get", "GET", "/routes/{route}", _R, "none"),
    RouteSpec("routes.list_stops", "GET", "/routes/{route}/stops", _R, "none"),
    RouteSpec("custom_stop_properties.list", "GET", "/team/customStopProperties", _R, "none"),
    RouteSpec(
        "custom_stop_properties.get",
        "GET",
        "/team/customStopProperties/{custom_stop_property}",
        _R,
        "none",
    ),
)
"""Every endpoint, in matching order."""

_PATH_PARAMS = {
    "plan": "planId",
    "stop": "stopId",
    "unassigned_stop": "unassignedStopId",
    "operation": "operationId",
    "depot": "depotId",
    "member": "memberId",
    "route": "routeId",
    "driver": "driverId",
    "custom_stop_property": "customStopPropertyId",
}

ROUTE_TABLE: Final = RouteTable(ROUTES, _PATH_PARAMS)
"""The endpoints, matched in order."""
