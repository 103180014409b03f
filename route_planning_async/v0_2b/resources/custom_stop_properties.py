"""v0.2b's ``client.custom_stop_properties``: the shared namespace
(``route_planning_async/_namespaces/_custom_stop_properties.py``)
with v0.2b's endpoint table."""

from __future__ import annotations

from route_planning_async._namespaces import CustomStopPropertiesNamespace
from route_planning_async.v0_2b.resources._common import TABLE, _Client


class CustomStopProperties(CustomStopPropertiesNamespace[_Client]):
    """The team's custom stop property definitions, read only."""

    __slots__ = ()

    _table = TABLE
