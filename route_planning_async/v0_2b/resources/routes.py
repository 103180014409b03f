"""v0.2b's ``client.routes``: the shared namespace (``route_planning_async/_namespaces/_routes.py``)
with v0.2b's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import RoutesNamespace
from route_planning_async.v0_2b.resources._common import TABLE, _Client


class Routes(RoutesNamespace[_Client]):
    """Routes of optimized plans, read only (``client.routes``); a plan's
    ``routes`` ids and a stop's ``route.id`` resolve here."""

    __slots__ = ()

    _table = TABLE
