"""v0.2b's ``client.operations``: the shared namespace (``route_planning_async/_namespaces/_operations.py``)
with v0.2b's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import OperationsNamespace
from route_planning_async.v0_2b.resources._common import TABLE, _Client


class Operations(OperationsNamespace[_Client]):
    """Long-running optimizations (``client.operations``): get, cancel, list, wait, wait_many."""

    __slots__ = ()

    _table = TABLE
