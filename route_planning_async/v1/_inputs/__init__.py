"""v1's request bodies as attrs classes, checked against the official v1 schema when they are built.

The same rules as v0.2b's inputs (``v0_2b/_inputs/__init__.py``): every bound of
the schema (lengths, ranges, enumerations, required fields, array sizes) is
checked in the constructor, which raises
:class:`~route_planning_async.ValidationError` naming the field path and the
rule; an optional field defaults to :data:`UNSET` and is then left out of the
body, ``None`` is sent as ``null``; nested objects are typed inputs; driver and
depot references may be bare ids; times of day are :class:`datetime.time` and
a plan's day a :class:`datetime.date` (its year 2000 to 2100).

What changed from v0.2b: a stop has no ``driver`` (``allowed_drivers`` holds
``drivers/<id>`` references, each a driver of the plan), its client id is sent
as ``clientId``, its order takes ``invoice_number``, a plan stop takes
``service_info`` (not on a live update, nor on an unassigned stop), proof of
attempt is an input (:class:`ProofOfAttemptRequirementsInput`), a plan takes
route overrides with optimization settings, and depots and members have
bodies of their own.

The bodies v1 shares with v0.2b (address, timing, recipient, weight, payment,
drivers, the limits and batch rules) are one class each, in
``route_planning_async/_inputs/``, published here as v1's too. v1's own: its
limits (``_limits.py``), order and service info (``_nested.py``), stop bodies
(``_stops.py``), plans (``_plans.py``), depots (``_depots.py``), members
(``_members.py``) and the batch rules of depot and member imports
(``_requests.py``).
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
    ProofOfAttemptRequirementsInput,
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
from route_planning_async.v1._inputs._depots import (
    ROAD_SIDES,
    DepotInput,
    DepotRouteOverridesInput,
    DepotUpdate,
    DepotUpdateFields,
)
from route_planning_async.v1._inputs._limits import (
    MAX_DEPOT_IMPORT_BATCH,
    MAX_DEPOT_NAME,
    MAX_MEMBER_DEPOTS,
    MAX_MEMBER_IMPORT_BATCH,
    MAX_SERVICE_IDENTIFIER,
)
from route_planning_async.v1._inputs._members import (
    MEMBER_ROLES,
    MemberInput,
    MemberUpdate,
    MemberUpdateFields,
)
from route_planning_async.v1._inputs._nested import OrderInfoInput, ServiceInfoInput
from route_planning_async.v1._inputs._plans import (
    OPTIMIZATION_OBJECTIVES,
    OPTIMIZATION_SUB_OBJECTIVES,
    OptimizationSettingsInput,
    PlanInput,
    PlanRouteOverridesInput,
    PlanUpdate,
)
from route_planning_async.v1._inputs._requests import check_depot_batch, check_member_batch
from route_planning_async.v1._inputs._stops import (
    LiveStopUpdate,
    LiveStopUpdateFields,
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
    "MAX_DEPOT_IMPORT_BATCH",
    "MAX_DEPOT_NAME",
    "MAX_DRIVER_DEPOTS",
    "MAX_DRIVER_IMPORT_BATCH",
    "MAX_IMPORT_BATCH",
    "MAX_MEMBER_DEPOTS",
    "MAX_MEMBER_IMPORT_BATCH",
    "MAX_PLAN_DRIVERS",
    "MAX_SERVICE_IDENTIFIER",
    "MEMBER_ROLES",
    "OPTIMIZATION_OBJECTIVES",
    "OPTIMIZATION_SUB_OBJECTIVES",
    "PAYMENT_CURRENCIES",
    "PLAN_YEAR_RANGE",
    "ROAD_SIDES",
    "UNSET",
    "AddressInput",
    "DepotInput",
    "DepotRouteOverridesInput",
    "DepotUpdate",
    "DepotUpdateFields",
    "DriverInput",
    "DriverUpdate",
    "DriverUpdateFields",
    "LiveStopUpdate",
    "LiveStopUpdateFields",
    "MemberInput",
    "MemberUpdate",
    "MemberUpdateFields",
    "OptimizationSettingsInput",
    "OrderInfoInput",
    "PaymentOnDeliveryInput",
    "PlanInput",
    "PlanRouteOverridesInput",
    "PlanUpdate",
    "ProofOfAttemptRequirementsInput",
    "RecipientInput",
    "ReoptimizationType",
    "RouteOverridesInput",
    "ServiceInfoInput",
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
    "check_depot_batch",
    "check_driver_batch",
    "check_member_batch",
    "check_no_depot",
    "reoptimization_body",
]
