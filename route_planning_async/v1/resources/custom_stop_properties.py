"""v1's ``client.custom_stop_properties``: the shared namespace
(``route_planning_async/_namespaces/_custom_stop_properties.py``)
with v1's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import CustomStopPropertiesNamespace
from route_planning_async.v1.resources._common import TABLE, V1Client


class CustomStopProperties(CustomStopPropertiesNamespace[V1Client]):
    """The team's custom stop property definitions, read only."""

    __slots__ = ()

    _table = TABLE
