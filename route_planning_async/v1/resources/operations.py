"""v1's ``client.operations``: the shared namespace (``route_planning_async/_namespaces/_operations.py``)
with v1's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import OperationsNamespace
from route_planning_async.v1.resources._common import TABLE, V1Client


class Operations(OperationsNamespace[V1Client]):
    """Long-running optimizations (``client.operations``): get, cancel, list, wait, wait_many."""

    __slots__ = ()

    _table = TABLE
