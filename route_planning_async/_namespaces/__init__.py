"""The namespaces every version has alike, one module per namespace.

A version's namespace (in its ``resources/`` package) is a thin subclass of one
of these: it names its endpoint table and converter as ``_table`` and its own
models and inputs as the type parameters, once::

    class Stops(StopsNamespace[Client, Stop, StopInput, LiveChange]):
        _table = TABLE

and adds what is its own (typed updates, plan create, the live edit block, v1's
depot writes, members and search).

- ``_plans.py``: :class:`PlansNamespace` (``client.plans``);
- ``_stops.py``: :class:`StopsNamespace` (``client.stops``);
- ``_unassigned_stops.py``: :class:`UnassignedStopsNamespace` (``client.unassigned_stops``);
- ``_operations.py``: :class:`OperationsNamespace` (``client.operations``);
- ``_drivers.py``: :class:`DriversNamespace` (``client.drivers``);
- ``_depots.py``: :class:`DepotsReadNamespace` (``client.depots``'s reads);
- ``_routes.py``: :class:`RoutesNamespace` (``client.routes``'s read);
- ``_custom_stop_properties.py``: :class:`CustomStopPropertiesNamespace`;
- ``_client.py``: :class:`NamespaceClient`, what the namespaces that start
  workflows need of their client.

The base class of them all is ``_client/_namespace.py``'s ``Namespace``.
"""

from route_planning_async._namespaces._client import NamespaceClient
from route_planning_async._namespaces._custom_stop_properties import CustomStopPropertiesNamespace
from route_planning_async._namespaces._depots import DepotsReadNamespace
from route_planning_async._namespaces._drivers import DriversNamespace
from route_planning_async._namespaces._operations import OperationsNamespace
from route_planning_async._namespaces._plans import PlansNamespace
from route_planning_async._namespaces._routes import RoutesNamespace
from route_planning_async._namespaces._stops import StopsNamespace
from route_planning_async._namespaces._unassigned_stops import UnassignedStopsNamespace

__all__ = [
    "CustomStopPropertiesNamespace",
    "DepotsReadNamespace",
    "DriversNamespace",
    "NamespaceClient",
    "OperationsNamespace",
    "PlansNamespace",
    "RoutesNamespace",
    "StopsNamespace",
    "UnassignedStopsNamespace",
]
