"""v0.2b's route table: every endpoint, its rate-limit category and body rule, below its base path.

v0.2b's endpoints are the ones every version serves alike (``SHARED_ROUTES`` of
``emulator/_rules/_routes.py``), named as the client's endpoint table names them
(``plans.optimize``), in matching order; ``ROUTE_TABLE`` matches paths against them.
"""

from __future__ import annotations

from typing import Final

from route_planning_async._versions import V0_2B
from route_planning_async.emulator._rules._routes import PATH_PARAMS, SHARED_ROUTES, RouteSpec, RouteTable

__all__ = ["BASE_PATH", "ROUTES", "ROUTE_TABLE"]

BASE_PATH: Final = V0_2B.base_path
"""Every endpoint lives below this path (contract, General conventions): the registry's."""

ROUTES: tuple[RouteSpec, ...] = SHARED_ROUTES
"""Every endpoint, in matching order."""

ROUTE_TABLE: Final = RouteTable(ROUTES, PATH_PARAMS)
"""The endpoints, matched in order."""
