"""The endpoint table: every call of the API, its method, path, category and page size.

The contract's calls, and those only the public API documentation (the official
OpenAPI schema) shows: drivers, routes, operation cancel, live import and one
custom stop property.

Each row is a shared :class:`~route_planning_async._core.Endpoint`. This
table is the one place that decides which rate-limit category an endpoint
belongs to (contract, Limits section), and how many items a page of a list
endpoint may hold (``maxPageSize``). The rate limits guide (``docs/rate-limits.md``) copies
it, and a test holds the two equal.
"""

from __future__ import annotations

import attrs

from route_planning_async._core import Endpoint
from route_planning_async._rate_limits._limits import Category
from route_planning_async._versions import V0_2B

__all__ = ["ENDPOINTS", "Endpoint"]

_R, _W, _I, _O = Category.READ, Category.WRITE, Category.BATCH_IMPORT, Category.OPTIMIZE
_DC, _DI = Category.DRIVER_CREATE, Category.DRIVER_IMPORT

ENDPOINTS: dict[str, Endpoint] = {
    e.name: attrs.evolve(e, api_version=V0_2B.name)  # its requests' error codes read as v0.2b's
    for e in (
        # Plans
        Endpoint("plans.create", "POST", "/plans", _W, True),
        # Contract, Limits: maxPageSize plans 1..20, stops 1..10, unassigned stops 1..20.
        Endpoint("plans.list", "GET", "/plans", _R, False, max_page_size=20),
        Endpoint("plans.get", "GET", "/plans/{plan}", _R, False),
        Endpoint("plans.update", "PATCH", "/plans/{plan}", _W, True),
        Endpoint("plans.delete", "DELETE", "/plans/{plan}", _W, False),
        Endpoint("plans.optimize", "POST", "/plans/{plan}:optimize", _O, False),
        Endpoint("plans.distribute", "POST", "/plans/{plan}:distribute", _W, False),
        Endpoint("plans.reoptimize", "POST", "/plans/{plan}:reoptimize", _O, True),
        Endpoint("plans.redistribute", "POST", "/plans/{plan}:redistribute", _W, False),
        Endpoint("plans.save", "POST", "/plans/{plan}:save", _W, False),
        # Operations
        Endpoint("operations.get", "GET", "/operations/{operation}", _R, False),
        # Not in the contract; the public API documentation's GET /operations,
        # maxPageSize 1..20 (default 20).
        Endpoint("operations.list", "GET", "/operations", _R, False, max_page_size=20),
        # Not in the contract; the public API documentation's cancelOperation.
        Endpoint("operations.cancel", "POST", "/operations/{operation}:cancel", _W, False),
        # Stops in a plan
        Endpoint("stops.create", "POST", "/plans/{plan}/stops", _W, True),
        Endpoint("stops.list", "GET", "/plans/{plan}/stops", _R, False, max_page_size=10),
        Endpoint("stops.import_batch", "POST", "/plans/{plan}/stops:import", _I, True),
        Endpoint("stops.get", "GET", "/plans/{plan}/stops/{stop}", _R, False),
        Endpoint("stops.update", "PATCH", "/plans/{plan}/stops/{stop}", _W, True),
        Endpoint("stops.delete", "DELETE", "/plans/{plan}/stops/{stop}", _W, False),
        Endpoint("stops.live_create", "POST", "/plans/{plan}/stops:liveCreate", _W, True),
        Endpoint("stops.live_update", "POST", "/plans/{plan}/stops/{stop}:liveUpdate", _W, True),
        Endpoint("stops.live_delete", "POST", "/plans/{plan}/stops/{stop}:liveDelete", _W, False),
        # Not in the contract; the public API documentation's importLiveStops (1..100
        # stops): a batch import of stops, so it counts against the batch import limits.
        Endpoint("stops.live_import_batch", "POST", "/plans/{plan}/stops:liveImport", _I, True),
        # Unassigned stops
        Endpoint("unassigned_stops.create", "POST", "/unassignedStops", _W, True),
        Endpoint("unassigned_stops.list", "GET", "/unassignedStops", _R, False, max_page_size=20),
        Endpoint("unassigned_stops.import_batch", "POST", "/unassignedStops:import", _I, True),
        Endpoint("unassigned_stops.get", "GET", "/unassignedStops/{unassigned_stop}", _R, False),
        Endpoint("unassigned_stops.update", "PATCH", "/unassignedStops/{unassigned_stop}", _W, True),
        Endpoint("unassigned_stops.delete", "DELETE", "/unassignedStops/{unassigned_stop}", _W, False),
        # Reference lists
        # The contract does not show the depot list's parameters; the public API
        # documentation gives maxPageSize 1..20.
        Endpoint("depots.list", "GET", "/depots", _R, False, max_page_size=20),
        Endpoint("depots.get", "GET", "/depots/{depot}", _R, False),
        Endpoint("custom_stop_properties.list", "GET", "/team/customStopProperties", _R, False),
        Endpoint(
            "custom_stop_properties.get",
            "GET",
            "/team/customStopProperties/{custom_stop_property}",
            _R,
            False,
        ),
        # Drivers and routes: not in the contract; the public API documentation's
        # paths, maxPageSize 1..50 for the driver list (default 50), driver create
        # and driver import in categories of their own (_rate_limits._limits.Category).
        Endpoint("drivers.list", "GET", "/drivers", _R, False, max_page_size=50),
        Endpoint("drivers.create", "POST", "/drivers", _DC, True),
        Endpoint("drivers.get", "GET", "/drivers/{driver}", _R, False),
        Endpoint("drivers.update", "PATCH", "/drivers/{driver}", _W, True),
        Endpoint("drivers.delete", "DELETE", "/drivers/{driver}", _W, False),
        Endpoint("drivers.import_batch", "POST", "/drivers:import", _DI, True),
        Endpoint("routes.get", "GET", "/routes/{route}", _R, False),
    )
}
