"""The request bodies every API version shares, and the bases of those it does not.

A version's inputs package (``v0_2b/_inputs/``, ``v1/_inputs/``) publishes
these classes as its own where its schema has the same body (an address, a
recipient, a driver ...), and subclasses the bases where it adds fields (a
stop's order, plan and stop bodies). The rules every input follows (UNSET,
None, typed nested inputs, bare ids) are described in
``v0_2b/_inputs/__init__.py``; how a field is checked, in ``_checks/_validators.py``.

The rooms: the limits (``_limits.py``), the objects nested in a stop
(``_nested.py``), the stop body bases (``_stops.py``), the plan body bases
(``_plans.py``), drivers (``_drivers.py``) and the request rules that belong to
no single field (``_requests.py``).
"""

from route_planning_async._inputs._drivers import (
    DRIVING_SPEEDS,
    VEHICLE_TYPE,
    VEHICLE_TYPES,
    DriverInput,
    DriverUpdate,
    DriverUpdateFields,
    PersonFields,
    RouteOverridesInput,
    email_address,
    team_depots,
)
from route_planning_async._inputs._limits import (
    MAX_ALLOWED_DRIVERS,
    MAX_BARCODES,
    MAX_DRIVER_DEPOTS,
    MAX_DRIVER_IMPORT_BATCH,
    MAX_IMPORT_BATCH,
    MAX_PLAN_DRIVERS,
    MAX_PRODUCTS,
    MAX_SAFE_INTEGER,
    MAX_WEIGHT,
    PAYMENT_CURRENCIES,
    PLAN_YEAR_RANGE,
)
from route_planning_async._inputs._nested import (
    AddressInput,
    OrderInfoFields,
    PaymentOnDeliveryInput,
    ProofOfAttemptRequirementsInput,
    RecipientInput,
    TimingInput,
    WeightInput,
)
from route_planning_async._inputs._plans import PlanChanges, PlanFields
from route_planning_async._inputs._requests import (
    ReoptimizationType,
    check_batch,
    check_driver_batch,
    check_items,
    check_no_depot,
    reoptimization_body,
)
from route_planning_async._inputs._stops import (
    ACTIVITIES,
    CHANGED_STOP_DEPOT,
    NEW_STOP_DEPOT,
    OPTIMIZATION_ORDERS,
    NewStop,
    StopBody,
    StopChangeFields,
    StopChanges,
    allowed_drivers,
    in_body_order,
)

__all__ = [
    "ACTIVITIES",
    "CHANGED_STOP_DEPOT",
    "DRIVING_SPEEDS",
    "MAX_ALLOWED_DRIVERS",
    "MAX_BARCODES",
    "MAX_DRIVER_DEPOTS",
    "MAX_DRIVER_IMPORT_BATCH",
    "MAX_IMPORT_BATCH",
    "MAX_PLAN_DRIVERS",
    "MAX_PRODUCTS",
    "MAX_SAFE_INTEGER",
    "MAX_WEIGHT",
    "NEW_STOP_DEPOT",
    "OPTIMIZATION_ORDERS",
    "PAYMENT_CURRENCIES",
    "PLAN_YEAR_RANGE",
    "VEHICLE_TYPE",
    "VEHICLE_TYPES",
    "AddressInput",
    "DriverInput",
    "DriverUpdate",
    "DriverUpdateFields",
    "NewStop",
    "OrderInfoFields",
    "PaymentOnDeliveryInput",
    "PersonFields",
    "PlanChanges",
    "PlanFields",
    "ProofOfAttemptRequirementsInput",
    "RecipientInput",
    "ReoptimizationType",
    "RouteOverridesInput",
    "StopBody",
    "StopChangeFields",
    "StopChanges",
    "TimingInput",
    "WeightInput",
    "allowed_drivers",
    "check_batch",
    "check_driver_batch",
    "check_items",
    "check_no_depot",
    "email_address",
    "in_body_order",
    "reoptimization_body",
    "team_depots",
]
