"""v1's ``client.drivers``: the shared namespace (``route_planning_async/_namespaces/_drivers.py``)
with v1's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import DriversNamespace
from route_planning_async.v1.resources._common import TABLE, V1Client


class Drivers(DriversNamespace[V1Client]):
    """The team's drivers (``client.drivers``).

    The public API documentation's ``/drivers`` paths. Driver create has a
    rate-limit category of its own (1 per second) and so has driver import (2
    per minute); see :class:`Category`."""

    __slots__ = ()

    _table = TABLE
