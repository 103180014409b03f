"""v1's route table: every endpoint, its rate-limit category and body rule, below its base path.

``ROUTES`` names each endpoint as the client's v1 endpoint table does
(``depots.set_main``), in matching order: the endpoints every version serves
alike (``SHARED_ROUTES`` of ``emulator/_rules/_routes.py``), then v1's own;
``ROUTE_TABLE`` matches paths against them. Depot and member imports have
categories of their own (the public text names no limit for them;
``route_planning_async._rate_limits._limits`` says what was chosen).
"""

from __future__ import annotations

from typing import Final

from route_planning_async._rate_limits._limits import Category
from route_planning_async._versions import V1
from route_planning_async.emulator._rules._routes import PATH_PARAMS, SHARED_ROUTES, RouteSpec, RouteTable

__all__ = ["BASE_PATH", "ROUTES", "ROUTE_TABLE"]

BASE_PATH: Final = V1.base_path
"""Every endpoint lives below this path (v1 document, Address): the registry's."""

_W, _R = Category.WRITE, Category.READ

ROUTES: tuple[RouteSpec, ...] = (
    *SHARED_ROUTES,
    RouteSpec("stops.search", "GET", "/stops:search", _R, "none"),
    RouteSpec("depots.create", "POST", "/depots", _W, "required"),
    RouteSpec("depots.import_batch", "POST", "/depots:import", Category.DEPOT_IMPORT, "required"),
    RouteSpec("depots.update", "PATCH", "/depots/{depot}", _W, "required"),
    RouteSpec("depots.delete", "DELETE", "/depots/{depot}", _W, "none"),
    RouteSpec("depots.set_main", "POST", "/depots/{depot}:setMain", _W, "none"),
    RouteSpec("members.create", "POST", "/members", _W, "required"),
    RouteSpec("members.import_batch", "POST", "/members:import", Category.MEMBER_IMPORT, "required"),
    RouteSpec("members.update", "PATCH", "/members/{member}", _W, "required"),
    RouteSpec("members.delete", "DELETE", "/members/{member}", _W, "none"),
    RouteSpec("routes.list", "GET", "/routes", _R, "none"),
    RouteSpec("routes.list_stops", "GET", "/routes/{route}/stops", _R, "none"),
)
"""Every endpoint, in matching order: the shared ones, then v1's own."""

ROUTE_TABLE: Final = RouteTable(ROUTES, PATH_PARAMS)
"""The endpoints, matched in order."""
