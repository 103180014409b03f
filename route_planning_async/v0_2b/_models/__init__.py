"""Response models: what the service answers, as slotted attrs classes.

Attributes are snake_case; the JSON is camelCase (the converter in
``v0_2b/_converter.py`` maps one to the other). Conventions, the same for every
model:

- Dates (``{day, month, year}``) are :class:`datetime.date`, times of day
  (``{hour, minute}``) are :class:`datetime.time`, and epoch seconds are aware
  UTC :class:`datetime.datetime` values.
- Forward compatibility: JSON fields this version does not know are ignored,
  and enumerated values are typed ``str`` and kept as they come, known or not.
  The ``StrEnum`` classes (``route_planning_async/_models/_enums.py``) name the values the contract
  documents, for comparisons (``stop.activity == Activity.PICKUP``).
- Fields the contract gives a default (or that may be null) have that default,
  so an answer that leaves them out still decodes.
- Arrays are lists. A model is a snapshot of what the service said: changing
  it changes nothing on the service (the resource methods do). The classes are
  slotted, so a misspelt attribute raises instead of being added. They are not
  frozen: a page of stops builds a dozen models per stop, and a frozen class
  pays for every field it stores (``route_planning_async/_converter.py``, "Speed").
- Each field is described once, in its ``described`` metadata (``_docs/__init__.py``),
  from which the class docstring lists it under ``Attributes:``.

The rooms: what both versions answer alike (the enumerations, the parts of a
stop, drivers, operations and import outcomes) is shared
(``route_planning_async/_models/``); v0.2b's own are the parts of a stop that
changed in v1 (``_stop_parts.py``: ETA, time at stop, delivery facts), the
resources (``_resources.py``: plans, stops, depots) and the live change
(``_results.py``).
"""

from route_planning_async._models import (
    Activity,
    AttemptedLocation,
    CustomStopProperty,
    DeliveryState,
    Depot,
    Driver,
    DriverImportFailure,
    DriverImportResult,
    ImportFailure,
    ImportResult,
    LiveImportResult,
    Operation,
    OperationMetadata,
    OptimizationFailure,
    OptimizationOrder,
    OptimizationSuccess,
    OrderInfo,
    PaymentOnDelivery,
    PlaceInVehicle,
    PlanOptimization,
    ProofOfAttemptRequirements,
    Recipient,
    Route,
    RouteOverrides,
    RouteState,
    SkippedStop,
    StopAddress,
    StopType,
    TimingData,
    UnknownResult,
    Weight,
    WeightUnit,
)
from route_planning_async.v0_2b._models._resources import Plan, Stop, UnassignedStop
from route_planning_async.v0_2b._models._results import LiveChange
from route_planning_async.v0_2b._models._stop_parts import (
    DeliveryInfo,
    Eta,
    EtaNullReason,
    TimeAtStopInfo,
    TimeAtStopInfoNullReason,
)

__all__ = [
    "Activity",
    "AttemptedLocation",
    "CustomStopProperty",
    "DeliveryInfo",
    "DeliveryState",
    "Depot",
    "Driver",
    "DriverImportFailure",
    "DriverImportResult",
    "Eta",
    "EtaNullReason",
    "ImportFailure",
    "ImportResult",
    "LiveChange",
    "LiveImportResult",
    "Operation",
    "OperationMetadata",
    "OptimizationFailure",
    "OptimizationOrder",
    "OptimizationSuccess",
    "OrderInfo",
    "PaymentOnDelivery",
    "PlaceInVehicle",
    "Plan",
    "PlanOptimization",
    "ProofOfAttemptRequirements",
    "Recipient",
    "Route",
    "RouteOverrides",
    "RouteState",
    "SkippedStop",
    "Stop",
    "StopAddress",
    "StopType",
    "TimeAtStopInfo",
    "TimeAtStopInfoNullReason",
    "TimingData",
    "UnassignedStop",
    "UnknownResult",
    "Weight",
    "WeightUnit",
]
