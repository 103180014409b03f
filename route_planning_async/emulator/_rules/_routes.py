"""Route tables: endpoints, their rate-limit categories and body rules, and path matching.

Each API version has a :class:`RouteTable` (its endpoints below its base path):
:data:`SHARED_ROUTES`, the endpoints every version serves alike, and its own;
:meth:`RouteTable.match` finds the endpoint of a path (404 for no such path, 405
for a wrong method) and :meth:`RouteTable.checked_path_ids` checks the ids it
captured (400).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import Category
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._rules._validation import ID_RE

__all__ = ["PATH_PARAMS", "SHARED_ROUTES", "BodyMode", "MethodNotAllowed", "RouteSpec", "RouteTable"]

BodyMode = Literal["none", "required", "optional"]
_SEGMENT = r"[^/:]+"


@fields_documented(title="Attributes")
@attrs.frozen
class RouteSpec:
    """One endpoint of the emulator.

    Attributes:
        name (str): Endpoint name, the same as the client's endpoint table (``plans.optimize``).
        method (str): HTTP method the endpoint takes.
        template (str): Path below the base path with ``{placeholders}``.
        category (Category): Rate-limit category (contract, Limits).
        body (BodyMode): Whether a JSON body is required, optional or refused.
    """

    name: str = attrs.field(
        metadata=described("Endpoint name, the same as the client's endpoint table (``plans.optimize``).")
    )
    method: str = attrs.field(metadata=described("HTTP method the endpoint takes."))
    template: str = attrs.field(metadata=described("Path below the base path with ``{placeholders}``."))
    category: Category = attrs.field(metadata=described("Rate-limit category (contract, Limits)."))
    body: BodyMode = attrs.field(metadata=described("Whether a JSON body is required, optional or refused."))

    @property
    def pattern(self) -> re.Pattern[str]:
        """The template as an anchored regular expression."""
        regex = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>{_SEGMENT})", self.template)
        return re.compile(regex)


class MethodNotAllowed(Problem):
    """405 with the ``Allow`` header listing the methods the path takes."""

    def __init__(self, allowed: list[str]) -> None:
        super().__init__(
            405,
            f"Method not allowed; use {', '.join(allowed)}",
            "method_not_allowed",
            headers={"Allow": ", ".join(allowed)},
        )


class RouteTable:
    """The endpoints of one API version, in matching order.

    Args:
        routes: Every endpoint, in matching order.
        path_params: The name an error gives each captured id (``plan``: ``planId``).
    """

    def __init__(self, routes: tuple[RouteSpec, ...], path_params: Mapping[str, str]) -> None:
        self.routes = routes
        """Every endpoint, in matching order."""
        self._compiled = tuple((route, route.pattern) for route in routes)
        self._path_params = dict(path_params)

    def match(self, method: str, path: str) -> tuple[RouteSpec, dict[str, str]]:
        """The endpoint of ``path`` (below the base path) and the ids it captured."""
        allowed: list[str] = []
        for route, pattern in self._compiled:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            if route.method == method:
                return route, match.groupdict()
            allowed.append(route.method)
        if allowed:
            raise MethodNotAllowed(allowed)
        raise Problem.not_found(f"No endpoint at {path}")

    def checked_path_ids(self, params: dict[str, str]) -> dict[str, str]:
        """The captured ids, once each is 1 to 50 of ``[A-Za-z0-9_-]`` (else 400).

        A custom stop property's id is checked by its handler: the official schemas give it
        no pattern (at most 50 characters), so any other one is a property not found (404).
        """
        for name, value in params.items():
            if name == "custom_stop_property":
                continue
            if ID_RE.fullmatch(value) is None:
                raise Problem.invalid(
                    self._path_params.get(name, name), "must be 1 to 50 letters, digits, '-' or '_'"
                )
        return params


_R, _W, _I, _O = Category.READ, Category.WRITE, Category.BATCH_IMPORT, Category.OPTIMIZE

SHARED_ROUTES: tuple[RouteSpec, ...] = (
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
    RouteSpec("operations.get", "GET", "/operations/{operation}", _R, "none"),
    # The contract does not show the operation list; the public OpenAPI document does.
    RouteSpec("operations.list", "GET", "/operations", _R, "none"),
    RouteSpec("stops.create", "POST", "/plans/{plan}/stops", _W, "required"),
    RouteSpec("stops.list", "GET", "/plans/{plan}/stops", _R, "none"),
    RouteSpec("stops.import_batch", "POST", "/plans/{plan}/stops:import", _I, "required"),
    RouteSpec("stops.get", "GET", "/plans/{plan}/stops/{stop}", _R, "none"),
    RouteSpec("stops.update", "PATCH", "/plans/{plan}/stops/{stop}", _W, "required"),
    RouteSpec("stops.delete", "DELETE", "/plans/{plan}/stops/{stop}", _W, "none"),
    RouteSpec("stops.live_create", "POST", "/plans/{plan}/stops:liveCreate", _W, "required"),
    RouteSpec("stops.live_update", "POST", "/plans/{plan}/stops/{stop}:liveUpdate", _W, "required"),
    RouteSpec("stops.live_delete", "POST", "/plans/{plan}/stops/{stop}:liveDelete", _W, "none"),
    RouteSpec("unassigned_stops.create", "POST", "/unassignedStops", _W, "required"),
    RouteSpec("unassigned_stops.list", "GET", "/unassignedStops", _R, "none"),
    RouteSpec("unassigned_stops.import_batch", "POST", "/unassignedStops:import", _I, "required"),
    RouteSpec("unassigned_stops.get", "GET", "/unassignedStops/{unassigned_stop}", _R, "none"),
    RouteSpec("unassigned_stops.update", "PATCH", "/unassignedStops/{unassigned_stop}", _W, "required"),
    RouteSpec("unassigned_stops.delete", "DELETE", "/unassignedStops/{unassigned_stop}", _W, "none"),
    RouteSpec("depots.list", "GET", "/depots", _R, "none"),
    RouteSpec("depots.get", "GET", "/depots/{depot}", _R, "none"),
    RouteSpec("custom_stop_properties.list", "GET", "/team/customStopProperties", _R, "none"),
    # Serialized ids the public OpenAPI document can also fetch.
    RouteSpec("routes.get", "GET", "/routes/{route}", _R, "none"),
    RouteSpec("drivers.get", "GET", "/drivers/{driver}", _R, "none"),
    # The rest of the public OpenAPI document: drivers (driver create and import in
    # rate-limit categories of their own), operation cancel, live import, one custom
    # stop property.
    RouteSpec("drivers.list", "GET", "/drivers", _R, "none"),
    RouteSpec("drivers.create", "POST", "/drivers", Category.DRIVER_CREATE, "required"),
    RouteSpec("drivers.update", "PATCH", "/drivers/{driver}", _W, "required"),
    RouteSpec("drivers.delete", "DELETE", "/drivers/{driver}", _W, "none"),
    RouteSpec("drivers.import_batch", "POST", "/drivers:import", Category.DRIVER_IMPORT, "required"),
    RouteSpec("operations.cancel", "POST", "/operations/{operation}:cancel", _W, "none"),
    RouteSpec("stops.live_import_batch", "POST", "/plans/{plan}/stops:liveImport", _I, "required"),
    RouteSpec(
        "custom_stop_properties.get",
        "GET",
        "/team/customStopProperties/{custom_stop_property}",
        _R,
        "none",
    ),
)
"""The endpoints every version serves alike (v0.2b's, all of them in v1 too), in matching order."""

PATH_PARAMS: Mapping[str, str] = {
    "plan": "planId",
    "stop": "stopId",
    "unassigned_stop": "unassignedStopId",
    "operation": "operationId",
    "depot": "depotId",
    "route": "routeId",
    "driver": "driverId",
    "custom_stop_property": "customStopPropertyId",
    "member": "memberId",
}
"""The name an error gives each captured id, in every version."""
