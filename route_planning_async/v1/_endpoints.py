"""v1's endpoint table: every operation of the official v1 document, its method, path, category and page size.

Each row is a shared :class:`~route_planning_async._core.Endpoint`, named
``namespace.method`` as the client calls it (the emulator's v1 route table uses
the same names). This table is the one place that decides which rate-limit
category a v1 endpoint belongs to (the v1 document's "On Rate-Limiting"; where
it names no limit, :class:`~route_planning_async._rate_limits._limits.Category` says what was
chosen) and how many items a page of a list may hold (``maxPageSize``).
"""

from __future__ import annotations

from typing import Final

import attrs

from route_planning_async._core import Endpoint
from route_planning_async._rate_limits._limits import Category
from route_planning_async._versions import V1

__all__ = ["ENDPOINTS", "OPERATION_IDS"]

_R, _W, _I, _O = Category.READ, Category.WRITE, Category.BATCH_IMPORT, Category.OPTIMIZE
_DC, _DI = Category.DRIVER_CREATE, Category.DRIVER_IMPORT
_DEPOT_I, _MEMBER_I = Category.DEPOT_IMPORT, Category.MEMBER_IMPORT

_ROWS: Final = (
    # Plans
    ("createPlan", Endpoint("plans.create", "POST", "/plans", _W, True)),
    ("listPlans", Endpoint("plans.list", "GET", "/plans", _R, False, max_page_size=20)),
    ("getPlan", Endpoint("plans.get", "GET", "/plans/{plan}", _R, False)),
    ("updatePlan", Endpoint("plans.update", "PATCH", "/plans/{plan}", _W, True)),
    ("deletePlan", Endpoint("plans.delete", "DELETE", "/plans/{plan}", _W, False)),
    ("optimizePlan", Endpoint("plans.optimize", "POST", "/plans/{plan}:optimize", _O, False)),
    ("distributePlan", Endpoint("plans.distribute", "POST", "/plans/{plan}:distribute", _W, False)),
    ("reoptimizePlan", Endpoint("plans.reoptimize", "POST", "/plans/{plan}:reoptimize", _O, True)),
    ("redistributePlan", Endpoint("plans.redistribute", "POST", "/plans/{plan}:redistribute", _W, False)),
    ("savePlan", Endpoint("plans.save", "POST", "/plans/{plan}:save", _W, False)),
    # Stops in a plan
    ("createStop", Endpoint("stops.create", "POST", "/plans/{plan}/stops", _W, True)),
    ("listPlanStops", Endpoint("stops.list", "GET", "/plans/{plan}/stops", _R, False, max_page_size=10)),
    ("importStops", Endpoint("stops.import_batch", "POST", "/plans/{plan}/stops:import", _I, True)),
    ("getStop", Endpoint("stops.get", "GET", "/plans/{plan}/stops/{stop}", _R, False)),
    ("updateStop", Endpoint("stops.update", "PATCH", "/plans/{plan}/stops/{stop}", _W, True)),
    ("deleteStop", Endpoint("stops.delete", "DELETE", "/plans/{plan}/stops/{stop}", _W, False)),
    ("createLiveStop", Endpoint("stops.live_create", "POST", "/plans/{plan}/stops:liveCreate", _W, True)),
    (
        "updateLiveStop",
        Endpoint("stops.live_update", "POST", "/plans/{plan}/stops/{stop}:liveUpdate", _W, True),
    ),
    (
        "deleteLiveStop",
        Endpoint("stops.live_delete", "POST", "/plans/{plan}/stops/{stop}:liveDelete", _W, False),
    ),
    # A batch import of stops (1..100), so it counts against the batch import limits.
    (
        "importLiveStops",
        Endpoint("stops.live_import_batch", "POST", "/plans/{plan}/stops:liveImport", _I, True),
    ),
    # The search: a read (Category.READ says why). Its document's page size
    # contradicts itself (default 20, exclusive maximum 20): 1..20 is taken.
    # Its page token has no maxLength in the document.
    (
        "searchStops",
        Endpoint("stops.search", "GET", "/stops:search", _R, False, max_page_size=20, max_page_token=None),
    ),
    # Unassigned stops
    ("createUnassignedStop", Endpoint("unassigned_stops.create", "POST", "/unassignedStops", _W, True)),
    (
        "listUnassignedStops",
        Endpoint("unassigned_stops.list", "GET", "/unassignedStops", _R, False, max_page_size=20),
    ),
    (
        "importUnassignedStops",
        Endpoint("unassigned_stops.import_batch", "POST", "/unassignedStops:import", _I, True),
    ),
    (
        "getUnassignedStop",
        Endpoint("unassigned_stops.get", "GET", "/unassignedStops/{unassigned_stop}", _R, False),
    ),
    (
        "updateUnassignedStop",
        Endpoint("unassigned_stops.update", "PATCH", "/unassignedStops/{unassigned_stop}", _W, True),
    ),
    (
        "deleteUnassignedStop",
        Endpoint("unassigned_stops.delete", "DELETE", "/unassignedStops/{unassigned_stop}", _W, False),
    ),
    # Operations
    ("getOperation", Endpoint("operations.get", "GET", "/operations/{operation}", _R, False)),
    ("listOperations", Endpoint("operations.list", "GET", "/operations", _R, False, max_page_size=20)),
    ("cancelOperation", Endpoint("operations.cancel", "POST", "/operations/{operation}:cancel", _W, False)),
    # Depots: writes are writes; the import has a category of its own (Category.DEPOT_IMPORT).
    ("listDepots", Endpoint("depots.list", "GET", "/depots", _R, False, max_page_size=20)),
    ("getDepot", Endpoint("depots.get", "GET", "/depots/{depot}", _R, False)),
    ("createDepot", Endpoint("depots.create", "POST", "/depots", _W, True)),
    ("updateDepot", Endpoint("depots.update", "PATCH", "/depots/{depot}", _W, True)),
    ("deleteDepot", Endpoint("depots.delete", "DELETE", "/depots/{depot}", _W, False)),
    ("setMainDepot", Endpoint("depots.set_main", "POST", "/depots/{depot}:setMain", _W, False)),
    ("importDepots", Endpoint("depots.import_batch", "POST", "/depots:import", _DEPOT_I, True)),
    # Members: writes are writes; the import has a category of its own (Category.MEMBER_IMPORT).
    ("createMember", Endpoint("members.create", "POST", "/members", _W, True)),
    ("updateMember", Endpoint("members.update", "PATCH", "/members/{member}", _W, True)),
    ("deleteMember", Endpoint("members.delete", "DELETE", "/members/{member}", _W, False)),
    ("importMembers", Endpoint("members.import_batch", "POST", "/members:import", _MEMBER_I, True)),
    # Drivers: create and import in categories of their own.
    ("listDrivers", Endpoint("drivers.list", "GET", "/drivers", _R, False, max_page_size=50)),
    ("createDriver", Endpoint("drivers.create", "POST", "/drivers", _DC, True)),
    ("getDriver", Endpoint("drivers.get", "GET", "/drivers/{driver}", _R, False)),
    ("updateDriver", Endpoint("drivers.update", "PATCH", "/drivers/{driver}", _W, True)),
    ("deleteDriver", Endpoint("drivers.delete", "DELETE", "/drivers/{driver}", _W, False)),
    ("importDrivers", Endpoint("drivers.import_batch", "POST", "/drivers:import", _DI, True)),
    # Routes
    ("listRoutes", Endpoint("routes.list", "GET", "/routes", _R, False, max_page_size=20)),
    ("getRoute", Endpoint("routes.get", "GET", "/routes/{route}", _R, False)),
    (
        "listRouteStops",
        Endpoint("routes.list_stops", "GET", "/routes/{route}/stops", _R, False, max_page_size=10),
    ),
    # The team's custom stop properties
    (
        "listCustomStopProperties",
        Endpoint("custom_stop_properties.list", "GET", "/team/customStopProperties", _R, False),
    ),
    (
        "getCustomStopProperty",
        Endpoint(
            "custom_stop_properties.get",
            "GET",
            "/team/customStopProperties/{custom_stop_property}",
            _R,
            False,
        ),
    ),
)

ENDPOINTS: Final[dict[str, Endpoint]] = {
    endpoint.name: attrs.evolve(endpoint, api_version=V1.name) for _, endpoint in _ROWS
}
"""Every v1 endpoint by its ``namespace.method`` name (its requests' error codes read as v1's)."""

OPERATION_IDS: Final[dict[str, str]] = {endpoint.name: operation for operation, endpoint in _ROWS}
"""The official document's ``operationId`` of each endpoint, by its ``namespace.method`` name."""
