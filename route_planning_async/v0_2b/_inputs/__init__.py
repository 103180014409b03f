"""Request bodies as attrs classes, checked against the contract when they are built.

Every rule the contract documents for a request body, and every bound of the
official OpenAPI schema (string lengths, integer durations, 200 barcodes,
weights and payments; ``docs/differences.md``), is checked in the constructor,
as is that every string can be sent as UTF-8. The constructor raises
:class:`~route_planning_async.ValidationError` naming the field path
(``address.latitude``, ``allowed_drivers[3]``) and the rule. So a bad input
fails before any request is built, and before any rate-limit budget is spent.

One rule for every optional field of every input: it defaults to :data:`UNSET`
and is then left out of the JSON body; ``None`` is sent as JSON ``null``; arrays
are sent whole (a PATCH replaces an array in full; contract, General
conventions). Field names are the snake_case forms of the JSON names, and the
one converter (``v0_2b/_converter.py``) turns an input into its camelCase JSON body.

Nested objects are typed inputs too (``StopInput(address=AddressInput(...))``);
plain dicts are not accepted, so a type checker sees every field. Conveniences:
driver and depot references may be bare ids (``"d1"`` becomes ``"drivers/d1"``),
times of day are :class:`datetime.time` and dates :class:`datetime.date`, and
the enumerated values accept the ``StrEnum`` members or their strings.

Each field is declared once, its text in its ``described`` metadata
(``_docs/__init__.py``), from which the class docstrings list the constructor's keywords.
What every version shares (the limits, the objects nested in a stop but its
order, drivers, the bases of stop and plan bodies, and the request rules that
belong to no single field) is in ``route_planning_async/_inputs/``; here are
v0.2b's own: its order (``_nested.py``), stop bodies (``_stops.py``) and plans
(``_plans.py``). How a field is checked (validators, converters,
:data:`UNSET`) is in ``route_planning_async/_checks/_validators.py``.
"""

from route_planning_async._checks._validators import UNSET, UnsetType
from route_planning_async._inputs import (
    MAX_ALLOWED_DRIVERS,
    MAX_BARCODES,
    MAX_DRIVER_DEPOTS,
    MAX_DRIVER_IMPORT_BATCH,
    MAX_IMPORT_BATCH,
    MAX_PLAN_DRIVERS,
    PAYMENT_CURRENCIES,
    PLAN_YEAR_RANGE,
    AddressInput,
    DriverInput,
    DriverUpdate,
    DriverUpdateFields,
    PaymentOnDeliveryInput,
    RecipientInput,
    ReoptimizationType,
    RouteOverridesInput,
    TimingInput,
    WeightInput,
    check_batch,
    check_driver_batch,
    check_no_depot,
    reoptimization_body,
)
from route_planning_async.v0_2b._inputs._nested import OrderInfoInput
from route_planning_async.v0_2b._inputs._plans import PlanInput, PlanUpdate
from route_planning_async.v0_2b._inputs._stops import (
    StopInput,
    StopUpdate,
    StopUpdateFields,
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
)

__all__ = [
    "MAX_ALLOWED_DRIVERS",
    "MAX_BARCODES",
    "MAX_DRIVER_DEPOTS",
    "MAX_DRIVER_IMPORT_BATCH",
    "MAX_IMPORT_BATCH",
    "MAX_PLAN_DRIVERS",
    "PAYMENT_CURRENCIES",
    "PLAN_YEAR_RANGE",
    "UNSET",
    "AddressInput",
    "DriverInput",
    "DriverUpdate",
    "DriverUpdateFields",
    "OrderInfoInput",
    "PaymentOnDeliveryInput",
    "PlanInput",
    "PlanUpdate",
    "RecipientInput",
    "ReoptimizationType",
    "RouteOverridesInput",
    "StopInput",
    "StopUpdate",
    "StopUpdateFields",
    "TimingInput",
    "UnassignedStopInput",
    "UnassignedStopUpdate",
    "UnassignedStopUpdateFields",
    "UnsetType",
    "WeightInput",
    "check_batch",
    "check_driver_batch",
    "check_no_depot",
    "reoptimization_body",
]
