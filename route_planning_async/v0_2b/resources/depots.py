"""v0.2b's ``client.depots``: the shared depot reads (``route_planning_async/_namespaces/_depots.py``)
with v0.2b's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import DepotsReadNamespace
from route_planning_async.v0_2b._models import Depot
from route_planning_async.v0_2b.resources._common import TABLE, _Client


class Depots(DepotsReadNamespace[_Client, Depot]):
    """The team's depots, read only (``client.depots``)."""

    __slots__ = ()

    _table = TABLE
