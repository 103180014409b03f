"""Response models: what the service answers, as slotted attrs classes.

Attributes are snake_case; the JSON is camelCase (the converter in
``_converter.py`` maps one to the other). Conventions, the same for every model:

- Dates (``{day, month, year}``) are :class:`datetime.date`, times of day
  (``{hour, minute}``) are :class:`datetime.time`, and epoch seconds are aware
  UTC :class:`datetime.datetime` values.
- Forward compatibility: JSON fields this version does not know are ignored,
  and enumerated values are typed ``str`` and kept as they come, known or not.
  The ``StrEnum`` classes below name the values the contract documents, for
  comparisons (``stop.activity == Activity.PICKUP``).
- Fields the contract gives a default (or that may be null) have that default,
  so an answer that leaves them out still decodes.
- Arrays are lists. A model is a snapshot of what the service said: changing
  it changes nothing on the service (the resource methods do). The classes are
  slotted, so a misspelt attribute raises instead of being added. They are not
  frozen: a page of stops builds a dozen models per stop, and a frozen class
  pays for every field it stores (``_converter.py``, "Speed").
"""

from __future__ import annotations

import datetime
import enum
from typing import Any

import attrs

from route_planning_async._ids import (
    DepotId,
    DriverId,
    OperationId,
    PlanId,
    RouteId,
    StopId,
    UnassignedStopId,
)

__all__ = [
    "Activity",
    "AttemptedLocation",
    "CustomStopProperty",
    "DeliveryInfo",
    "DeliveryState",
    "Depot",
    "Driver",
    "Eta",
    "EtaNullReason",
    "ImportFailure",
    "ImportResult",
    "LiveChange",
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


class Activity(enum.StrEnum):
    """Known values of a stop's ``activity``."""

    DELIVERY = "delivery"
    """Drop packages off (the default)."""
    PICKUP = "pickup"
    """Collect packages."""


class OptimizationOrder(enum.StrEnum):
    """Known values of a stop's ``optimizationOrder``."""

    FIRST = "first"
    """Placed first in its route."""
    LAST = "last"
    """Placed last in its route."""
    DEFAULT = "default"
    """The optimizer decides (the default)."""


class StopType(enum.StrEnum):
    """Known values of a stop's ``type``."""

    STOP = "stop"
    """A stop in the middle of a route."""
    START = "start"
    """The first stop of a route."""
    END = "end"
    """The last stop of a route."""


class PlanOptimization(enum.StrEnum):
    """Values of a plan's ``optimization`` named by the public API documentation."""

    CREATING = "creating"
    """The plan is being set up (the value the contract shows)."""
    EDITING = "editing"
    """The plan is being edited."""
    PREVIEW = "preview"
    """An optimization result is shown for review."""
    OPTIMIZED = "optimized"
    """The plan has been optimized."""
    OPTIMIZING = "optimizing"
    """An optimization is running."""


class DeliveryState(enum.StrEnum):
    """Known values of ``deliveryInfo.state`` (contract, DeliveryState values)."""

    UNATTEMPTED = "unattempted"
    """Not attempted yet (the default)."""
    DELIVERED_TO_RECIPIENT = "delivered_to_recipient"
    """Handed to the recipient."""
    DELIVERED_TO_THIRD_PARTY = "delivered_to_third_party"
    """Handed to someone else."""
    DELIVERED_TO_MAILBOX = "delivered_to_mailbox"
    """Left in the mailbox."""
    DELIVERED_TO_SAFE_PLACE = "delivered_to_safe_place"
    """Left in a safe place."""
    DELIVERED_TO_PICKUP_POINT = "delivered_to_pickup_point"
    """Left at a pickup point."""
    DELIVERED_OTHER = "delivered_other"
    """Delivered some other way."""
    PICKED_UP_FROM_CUSTOMER = "picked_up_from_customer"
    """Collected from the customer."""
    PICKED_UP_UNMANNED = "picked_up_unmanned"
    """Collected with nobody present."""
    PICKED_UP_FROM_LOCKER = "picked_up_from_locker"
    """Collected from a locker."""
    PICKED_UP_OTHER = "picked_up_other"
    """Collected some other way."""
    FAILED_NOT_HOME = "failed_not_home"
    """Failed: nobody home."""
    FAILED_CANT_FIND_ADDRESS = "failed_cant_find_address"
    """Failed: the address could not be found."""
    FAILED_NO_PARKING = "failed_no_parking"
    """Failed: no parking."""
    FAILED_NO_TIME = "failed_no_time"
    """Failed: out of time."""
    FAILED_PACKAGE_NOT_AVAILABLE = "failed_package_not_available"
    """Failed: the package was not available."""
    FAILED_MISSING_REQUIRED_PROOF = "failed_missing_required_proof"
    """Failed: the required proof could not be collected."""
    FAILED_OTHER = "failed_other"
    """Failed for another reason."""


# Shared shapes ---------------------------------------------------------------


@attrs.define(kw_only=True)
class StopAddress:
    """A stop's address as the service stores it (also a driver's start or end address)."""

    address: str = ""
    """The combined address; empty when the stop was imported by coordinates only."""
    address_line_one: str = ""
    """First address line."""
    address_line_two: str = ""
    """Second address line."""
    latitude: float | None = None
    """Decimal degrees, -90..90."""
    longitude: float | None = None
    """Decimal degrees, -180..180."""
    place_id: str | None = None
    """Id of the place in a places provider."""
    place_types: list[str] = attrs.field(factory=list)
    """Place types from the places provider."""


@attrs.define(kw_only=True)
class TimingData:
    """When a stop may be attempted and how long the attempt takes."""

    earliest_attempt_time: datetime.time | None = None
    """Earliest time of day for the attempt."""
    latest_attempt_time: datetime.time | None = None
    """Latest time of day for the attempt."""
    estimated_attempt_duration: float | None = None
    """Seconds spent at the stop (an integer on the wire); None means the team default."""


@attrs.define(kw_only=True)
class Recipient:
    """Who receives (or hands over) the packages of a stop."""

    email: str | None = None
    """E-mail address."""
    external_id: str | None = None
    """The caller's own id for the recipient."""
    name: str | None = None
    """Name."""
    phone: str | None = None
    """Phone number."""


@attrs.define(kw_only=True)
class OrderInfo:
    """The order behind a stop."""

    products: list[str] = attrs.field(factory=list)
    """Product names."""
    seller_order_id: str | None = None
    """The seller's order id."""
    seller_name: str | None = None
    """The seller's name."""
    seller_website: str | None = None
    """The seller's website."""


@attrs.define(kw_only=True)
class PlaceInVehicle:
    """Where the packages sit in the vehicle."""

    x: str | None = None
    """``left``, ``right`` or None."""
    y: str | None = None
    """``front``, ``middle``, ``back`` or None."""
    z: str | None = None
    """``floor``, ``shelf`` or None."""


class WeightUnit(enum.StrEnum):
    """Known values of ``weight.unit`` (official schema; the team's capacity unit)."""

    KILOGRAM = "kilogram"
    """Kilograms."""
    POUND = "pound"
    """Pounds."""
    METRIC_TON = "metric-ton"
    """Metric tons."""


@attrs.define(kw_only=True)
class Weight:
    """The weight of a stop's load (official schema, ``weight``)."""

    amount: float
    """The amount, at least 0, in ``unit``."""
    unit: str
    """A :class:`WeightUnit` value, or a newer one kept as a string."""


@attrs.define(kw_only=True)
class PaymentOnDelivery:
    """The payment due on delivery, "cash on delivery" (official schema, ``paymentOnDelivery``)."""

    amount: int | None = None
    """The amount in minor units (cents), None when not set."""
    currency: str | None = None
    """ISO 4217 currency code (``EUR``, ``USD`` ...)."""


@attrs.define(kw_only=True)
class ProofOfAttemptRequirements:
    """Whether proof of attempt is collected at a stop (also used as an input)."""

    enabled: bool | None = None
    """None: the team default; False: off; True: on, following team policy."""


@attrs.define(kw_only=True)
class Eta:
    """Estimated arrival at a stop. An estimate, not a guarantee."""

    estimated_arrival_at: datetime.datetime
    """Most likely arrival (UTC)."""
    estimated_earliest_arrival_at: datetime.datetime
    """Earliest likely arrival (UTC)."""
    estimated_latest_arrival_at: datetime.datetime
    """Latest likely arrival (UTC)."""


@attrs.define(kw_only=True)
class EtaNullReason:
    """Why a stop has no ETA."""

    reason: str
    """``not_optimized``, ``subscription_not_supported``, or a newer value."""
    message: str = ""
    """Human-readable explanation."""
    url: str | None = None
    """Where to read more."""


@attrs.define(kw_only=True)
class RouteState:
    """Progress of a route."""

    completed: bool = False
    """The route is completed."""
    completed_at: datetime.datetime | None = None
    """When it was completed (UTC)."""
    distributed: bool = False
    """The route was sent to its driver."""
    distributed_at: datetime.datetime | None = None
    """When it was distributed (UTC)."""
    notified_recipients: bool = False
    """The recipients were notified."""
    notified_recipients_at: datetime.datetime | None = None
    """When the recipients were notified (UTC)."""
    started: bool = False
    """The driver started the route."""
    started_at: datetime.datetime | None = None
    """When it was started (UTC)."""


@attrs.define(kw_only=True)
class Route:
    """The route a stop belongs to, once its plan is optimized."""

    id: RouteId
    """``routes/<id>``."""
    title: str = ""
    """Title of the route."""
    stop_count: int = 0
    """Number of stops in the route."""
    driver: str | None = None
    """``drivers/<id>`` of the route's driver."""
    plan: str | None = None
    """``plans/<id>`` of the route's plan."""
    state: RouteState | None = None
    """Progress of the route."""


@attrs.define(kw_only=True)
class AttemptedLocation:
    """Where a delivery was attempted."""

    latitude: float
    """Decimal degrees."""
    longitude: float
    """Decimal degrees."""


@attrs.define(kw_only=True)
class TimeAtStopInfo:
    """When the driver arrived at and left a stop (official schema, ``timeAtStopInfo``)."""

    arrived_at: datetime.datetime | None = None
    """Arrival (UTC)."""
    departed_at: datetime.datetime | None = None
    """Departure (UTC)."""
    is_estimated: bool | None = None
    """True when the times were estimated rather than measured."""


@attrs.define(kw_only=True)
class TimeAtStopInfoNullReason:
    """Why a stop has no ``time_at_stop_info``."""

    reason: str
    """``subscription_not_supported``, or a newer value."""
    message: str = ""
    """Human-readable explanation."""
    url: str | None = None
    """Where to read more."""


@attrs.define(kw_only=True)
class DeliveryInfo:
    """What happened when the driver attempted a stop."""

    attempted: bool = False
    """The stop was attempted."""
    attempted_at: datetime.datetime | None = None
    """When it was attempted (UTC); use it for the real delivery order."""
    arrived_at: datetime.datetime | None = None
    """Deprecated by the service: when the driver arrived (UTC); see ``time_at_stop_info``."""
    time_at_stop_info: TimeAtStopInfo | None = None
    """When the driver arrived and left."""
    time_at_stop_info_null_reason: TimeAtStopInfoNullReason | None = None
    """Why ``time_at_stop_info`` is None."""
    attempted_location: AttemptedLocation | None = None
    """Where it was attempted."""
    driver_provided_internal_notes: str | None = None
    """Notes from the driver for the team."""
    driver_provided_recipient_notes: str | None = None
    """Notes from the driver for the recipient."""
    photo_urls: list[str] = attrs.field(factory=list)
    """Proof photos; a URL may answer not found until the driver app finished uploading."""
    recipient_provided_notes: str | None = None
    """Notes from the recipient."""
    signature_url: str | None = None
    """The signature image (same upload caveat as photos)."""
    signee_name: str | None = None
    """Who signed."""
    state: str = DeliveryState.UNATTEMPTED.value
    """A :class:`DeliveryState` value, or a newer one kept as a string."""
    succeeded: bool = False
    """The attempt succeeded."""


# Resources -------------------------------------------------------------------


@attrs.define(kw_only=True)
class RouteOverrides:
    """Per-driver settings that override the route defaults."""

    start_time: datetime.time | None = None
    """When the driver starts."""
    end_time: datetime.time | None = None
    """When the driver ends."""
    start_address: StopAddress | None = None
    """Where the driver starts."""
    end_address: StopAddress | None = None
    """Where the driver ends."""
    max_stops: int | None = None
    """Most stops the driver takes in one route."""
    driving_speed: str | None = None
    """Relative driving speed (``slower``, ``average``, ``faster`` ...)."""
    delivery_speed: str | None = None
    """Relative delivery speed (``slower``, ``average``, ``faster`` ...)."""
    vehicle_type: str | None = None
    """Vehicle (``bike``, ``car``, ``truck`` ...)."""


@attrs.define(kw_only=True)
class Driver:
    """A driver of the team (``client.drivers``), also as listed inside a plan."""

    id: DriverId
    """``drivers/<id>``."""
    name: str | None = None
    """Name."""
    email: str | None = None
    """E-mail address."""
    phone: str | None = None
    """Phone number."""
    display_name: str | None = None
    """Name shown in the apps."""
    active: bool = True
    """False when the driver's membership is paused."""
    depots: list[str] = attrs.field(factory=list)
    """``depots/<id>`` of the driver's depots."""
    route_overrides: RouteOverrides = attrs.field(factory=RouteOverrides)
    """Settings that override the route defaults for this driver."""


@attrs.define(kw_only=True)
class Plan:
    """A planned day of work for a set of drivers, at a depot."""

    id: PlanId
    """``plans/<id>``."""
    title: str
    """1 to 255 characters."""
    starts: datetime.date
    """The day the plan is for."""
    depot: str | None = None
    """``depots/<id>``."""
    distributed: bool = False
    """True once the routes were sent to the drivers."""
    writable: bool = True
    """False once optimized: then only the live endpoints change the plan."""
    optimization: str | None = None
    """A :class:`PlanOptimization` value, or a newer one kept as a string."""
    drivers: list[Driver] = attrs.field(factory=list)
    """The plan's drivers."""
    routes: list[str] = attrs.field(factory=list)
    """``routes/<id>`` of the plan's routes."""


@attrs.define(kw_only=True)
class Stop:
    """A stop inside a plan."""

    id: StopId
    """``plans/<planId>/stops/<stopId>``."""
    plan: str = ""
    """``plans/<planId>``."""
    route: Route | None = None
    """The route, once the plan is optimized."""
    address: StopAddress = attrs.field(factory=StopAddress)
    """Where the stop is."""
    barcodes: list[str] = attrs.field(factory=list)
    """Barcodes of its packages."""
    driver_identifier: str | None = None
    """Deprecated: an e-mail or phone of a driver; see ``allowed_drivers_identifiers``."""
    allowed_drivers_identifiers: list[str] = attrs.field(factory=list)
    """E-mails or phones of the drivers allowed for the stop; empty means any."""
    timing: TimingData = attrs.field(factory=TimingData)
    """Time window and duration."""
    estimated_travel_duration: float | None = None
    """Seconds from the previous stop."""
    estimated_travel_distance: float | None = None
    """Meters from the previous stop."""
    notes: str | None = None
    """Notes for the driver."""
    order_info: OrderInfo = attrs.field(factory=OrderInfo)
    """The order behind the stop."""
    package_count: float | None = None
    """Number of packages (a JSON number in the official schema)."""
    weight: Weight | None = None
    """The weight of the load, when the team tracks vehicle capacity."""
    payment_on_delivery: PaymentOnDelivery | None = None
    """The payment to collect on delivery."""
    place_in_vehicle: PlaceInVehicle | None = None
    """Where the packages sit in the vehicle."""
    type: str = StopType.STOP.value
    """A :class:`StopType` value: ``stop``, ``start`` or ``end``."""
    recipient: Recipient = attrs.field(factory=Recipient)
    """Who receives the packages."""
    activity: str = Activity.DELIVERY.value
    """An :class:`Activity` value: ``delivery`` or ``pickup``."""
    package_label: str | None = None
    """Label of the package."""
    delivery_info: DeliveryInfo | None = None
    """What happened at the attempt."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements = attrs.field(
        factory=ProofOfAttemptRequirements
    )
    """Whether proof of attempt is collected."""
    optimization_order: str = OptimizationOrder.DEFAULT.value
    """An :class:`OptimizationOrder` value: ``first``, ``last`` or ``default``."""
    eta: Eta | None = None
    """Estimated arrival."""
    eta_null_reason: EtaNullReason | None = None
    """Why ``eta`` is None."""
    custom_properties: dict[str, str | None] | None = None
    """Values keyed by custom stop property id."""
    stop_position: int | None = None
    """Position in the optimized route (``start`` is 0); not the real delivery order."""
    tracking_link: str | None = None
    """Recipient tracking link, once the route has started."""
    web_app_link: str = ""
    """Link to the stop in the web app."""
    client_id: str | None = None
    """Client-portal client id the stop is associated with (wire ``circuitClientId``; the
    contract's ``serviceClientId`` and v1's ``clientId`` are read too)."""

    @property
    def service_client_id(self) -> str | None:
        """The former name of :attr:`client_id`, kept for existing code."""
        return self.client_id


@attrs.define(kw_only=True)
class UnassignedStop:
    """A stop of a depot that is not attached to a plan."""

    id: UnassignedStopId
    """``unassignedStops/<id>``."""
    depot: str = ""
    """``depots/<id>``."""
    address: StopAddress = attrs.field(factory=StopAddress)
    """Where the stop is."""
    barcodes: list[str] = attrs.field(factory=list)
    """Barcodes of its packages."""
    allowed_drivers_identifiers: list[str] = attrs.field(factory=list)
    """E-mails or phones of the drivers allowed for the stop; empty means any."""
    timing: TimingData = attrs.field(factory=TimingData)
    """Time window and duration."""
    notes: str | None = None
    """Notes for the driver."""
    order_info: OrderInfo = attrs.field(factory=OrderInfo)
    """The order behind the stop."""
    package_count: float | None = None
    """Number of packages (a JSON number in the official schema)."""
    weight: Weight | None = None
    """The weight of the load, when the team tracks vehicle capacity."""
    payment_on_delivery: PaymentOnDelivery | None = None
    """The payment to collect on delivery."""
    recipient: Recipient = attrs.field(factory=Recipient)
    """Who receives the packages."""
    activity: str = Activity.DELIVERY.value
    """An :class:`Activity` value: ``delivery`` or ``pickup``."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements = attrs.field(
        factory=ProofOfAttemptRequirements
    )
    """Whether proof of attempt is collected."""
    optimization_order: str = OptimizationOrder.DEFAULT.value
    """An :class:`OptimizationOrder` value: ``first``, ``last`` or ``default``."""
    custom_properties: dict[str, str | None] | None = None
    """Values keyed by custom stop property id."""
    tracking_link: str | None = None
    """Recipient tracking link."""
    client_id: str | None = None
    """Client-portal client id the stop is associated with (wire ``circuitClientId``; the
    contract's ``serviceClientId`` and v1's ``clientId`` are read too)."""

    @property
    def service_client_id(self) -> str | None:
        """The former name of :attr:`client_id`, kept for existing code."""
        return self.client_id


@attrs.define(kw_only=True)
class SkippedStop:
    """A stop the optimization could not place."""

    id: StopId
    """``plans/<planId>/stops/<stopId>``."""
    reason: str
    """Why (``impossible_time_window`` ...); unknown values are kept."""


@attrs.define(kw_only=True)
class OptimizationSuccess:
    """The result of an optimization that succeeded."""

    num_optimized_stops: int = 0
    """Stops that were considered for optimization."""
    skipped_stops: list[SkippedStop] = attrs.field(factory=list)
    """Stops that could not be placed."""


@attrs.define(kw_only=True)
class OptimizationFailure:
    """The result of an optimization that failed."""

    code: str
    """Machine-readable error code."""
    message: str = ""
    """Human-readable explanation."""


@attrs.define(kw_only=True)
class UnknownResult:
    """An operation result of a shape this version does not know, kept as it came."""

    raw: dict[str, Any] = attrs.field(factory=dict)
    """The result's JSON object, untouched."""


@attrs.define(kw_only=True)
class OperationMetadata:
    """Facts about a plan optimization operation."""

    canceled: bool = False
    """The operation was canceled and will never produce a result."""
    started_at: datetime.datetime | None = None
    """When it started (UTC)."""
    finished_at: datetime.datetime | None = None
    """When it finished (UTC)."""
    started_by: str | None = None
    """Who started it (``dispatcher``, ``api`` ...)."""
    target_plan_id: str = ""
    """``plans/<id>`` of the optimized plan."""


@attrs.define(kw_only=True)
class Operation:
    """A long-running plan optimization, polled until ``done``."""

    id: OperationId
    """``operations/<id>``."""
    type: str = "plan_optimization"
    """The kind of operation."""
    done: bool = False
    """True once finished; then ``result`` is set."""
    metadata: OperationMetadata = attrs.field(factory=OperationMetadata)
    """Facts about the operation."""
    result: OptimizationSuccess | OptimizationFailure | UnknownResult | None = None
    """None until done; then a success (``numOptimizedStops``), a failure (a ``code``
    key), or an :class:`UnknownResult` holding a result of any other shape."""


@attrs.define(kw_only=True)
class Depot:
    """A depot of the team."""

    id: DepotId
    """``depots/<id>``."""
    name: str = ""
    """Name of the depot."""


@attrs.define(kw_only=True)
class CustomStopProperty:
    """The definition of one of the team's custom stop properties."""

    id: str
    """A UUID; the key of the value in a stop's ``custom_properties``."""
    name: str = ""
    """Name of the property."""
    visible_to_drivers: bool | None = None
    """Drivers see the value (public API documentation)."""
    visible_to_recipients: bool | None = None
    """Recipients see the value (public API documentation)."""


@attrs.define(kw_only=True)
class ImportFailure:
    """A stop of a batch import that was not imported."""

    message: str
    """Why it failed."""
    stop: dict[str, Any] = attrs.field(factory=dict)
    """The service's echo of the failed stop (its address and recipient), as JSON."""


@attrs.define(kw_only=True)
class ImportResult:
    """The answer of a batch import: per-stop failures do not fail the call."""

    success: list[str] = attrs.field(factory=list)
    """Serialized ids of the imported stops."""
    failed: list[ImportFailure] = attrs.field(factory=list)
    """The stops that were not imported, and why."""


@attrs.define(kw_only=True)
class LiveChange:
    """The answer of a live call: the change waits for re-optimization."""

    pending: bool
    """True while the change waits for ``reoptimize`` and ``redistribute`` or ``save``."""
    stop: Stop | None = None
    """The stop as it will be (None for a live delete)."""


# Drivers, live import (public API documentation) -----------------------------

__all__ += ["DriverImportFailure", "DriverImportResult", "LiveImportResult"]


@attrs.define(kw_only=True)
class DriverImportFailure:
    """A driver of a batch import that was not imported."""

    message: str
    """Why it failed."""
    driver: dict[str, Any] = attrs.field(factory=dict)
    """The service's echo of the failed driver, as JSON."""


@attrs.define(kw_only=True)
class DriverImportResult:
    """The answer of a driver batch import (``POST /drivers:import``): per-driver
    failures do not fail the call."""

    success: list[str] = attrs.field(factory=list)
    """``drivers/<id>`` of the imported drivers, in input order."""
    failed: list[DriverImportFailure] = attrs.field(factory=list)
    """The drivers that were not imported, and why."""


@attrs.define(kw_only=True)
class LiveImportResult:
    """The answer of a live batch import (``POST /plans/<id>/stops:liveImport``)."""

    pending: bool
    """True when the plan was not writable: the stops wait in an editing session
    for ``reoptimize`` and then ``redistribute`` or ``save``; False when they
    were added at once."""
    success: list[str] = attrs.field(factory=list)
    """Serialized ids of the imported stops."""
    failed: list[ImportFailure] = attrs.field(factory=list)
    """The stops that were not imported, and why."""
