"""The response models both API versions answer alike, and their converter hooks.

Each version's ``_models`` package exports these beside its own (a v0.2b
``Driver`` and a v1 ``Driver`` are the same class), and each version's converter
registers them with its own (:func:`register_hooks`). The conventions of every
model are those written in ``v0_2b/_models/__init__.py``.

The rooms: the enumerations (``_enums.py``), the objects a stop is made of
(``_parts.py``), drivers, custom stop properties and the fields of every stop
(``_resources.py``), operations and import outcomes (``_results.py``), and the
hooks of their own shapes (``_hooks.py``).
"""

from route_planning_async._models._enums import (
    Activity,
    DeliveryState,
    OptimizationOrder,
    PlanOptimization,
    StopType,
    WeightUnit,
)
from route_planning_async._models._hooks import register_hooks, register_import_failure
from route_planning_async._models._parts import (
    AttemptedLocation,
    DeliveryFields,
    EtaFields,
    OrderInfo,
    PaymentOnDelivery,
    PlaceInVehicle,
    ProofOfAttemptRequirements,
    Recipient,
    Route,
    RouteState,
    StopAddress,
    TimeAtStopFields,
    TimingData,
    Weight,
)
from route_planning_async._models._resources import (
    CustomStopProperty,
    Depot,
    Driver,
    PlanFields,
    PlanStopFields,
    RouteOverrides,
    StopFields,
    UnassignedStopFields,
    required_first,
)
from route_planning_async._models._results import (
    DriverImportFailure,
    DriverImportResult,
    ImportFailure,
    ImportResult,
    LiveChangeFields,
    LiveImportResult,
    Operation,
    OperationMetadata,
    OptimizationFailure,
    OptimizationSuccess,
    SkippedStop,
    UnknownResult,
)

__all__ = [
    "Activity",
    "AttemptedLocation",
    "CustomStopProperty",
    "DeliveryFields",
    "DeliveryState",
    "Depot",
    "Driver",
    "DriverImportFailure",
    "DriverImportResult",
    "EtaFields",
    "ImportFailure",
    "ImportResult",
    "LiveChangeFields",
    "LiveImportResult",
    "Operation",
    "OperationMetadata",
    "OptimizationFailure",
    "OptimizationOrder",
    "OptimizationSuccess",
    "OrderInfo",
    "PaymentOnDelivery",
    "PlaceInVehicle",
    "PlanFields",
    "PlanOptimization",
    "PlanStopFields",
    "ProofOfAttemptRequirements",
    "Recipient",
    "Route",
    "RouteOverrides",
    "RouteState",
    "SkippedStop",
    "StopAddress",
    "StopFields",
    "StopType",
    "TimeAtStopFields",
    "TimingData",
    "UnassignedStopFields",
    "UnknownResult",
    "Weight",
    "WeightUnit",
    "register_hooks",
    "register_import_failure",
    "required_first",
]
