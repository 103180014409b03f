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
one converter (``_converter.py``) turns an input into its camelCase JSON body.

Nested objects are typed inputs too (``StopInput(address=AddressInput(...))``);
plain dicts are not accepted, so a type checker sees every field. Conveniences:
driver and depot references may be bare ids (``"d1"`` becomes ``"drivers/d1"``),
times of day are :class:`datetime.time` and dates :class:`datetime.date`, and
the enumerated values accept the ``StrEnum`` members or their strings.

This room holds the contract's side: its limits (``MAX_*``), the input classes,
and the request rules that belong to no single field (:func:`check_batch`,
:func:`check_no_depot`, :func:`reoptimization_body`). How a field is checked
(validators, converters, :data:`UNSET`) is in ``_validators.py``.
"""

from __future__ import annotations

import datetime
import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypedDict

import attrs

from route_planning_async import _ids
from route_planning_async._validators import (
    UNSET,
    UnsetType,
    a_or_an,
    absent,
    custom_property_values,
    date_in_years,
    depot_reference,
    driver_list,
    driver_reference,
    fail,
    instance_of,
    number,
    one_of,
    string_list,
    text,
    time_of_day,
)
from route_planning_async.v0_2b._models import (
    Activity,
    OptimizationOrder,
    ProofOfAttemptRequirements,
    WeightUnit,
)

__all__ = [
    "MAX_ALLOWED_DRIVERS",
    "MAX_BARCODES",
    "MAX_IMPORT_BATCH",
    "MAX_PLAN_DRIVERS",
    "PAYMENT_CURRENCIES",
    "PLAN_YEAR_RANGE",
    "UNSET",
    "AddressInput",
    "OrderInfoInput",
    "PaymentOnDeliveryInput",
    "PlanInput",
    "PlanUpdate",
    "RecipientInput",
    "ReoptimizationType",
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
    "check_no_depot",
    "reoptimization_body",
]


class ReoptimizationType(enum.StrEnum):
    """``optimizationType`` values of ``:reoptimize`` (public API documentation)."""

    REORDER_CHANGED_STOPS = "reorder_changed_stops"
    """Place only the stops changed by live calls (the service's default)."""
    REORDER_ALL_STOPS = "reorder_all_stops"
    """Re-order every stop of each route."""
    REDISTRIBUTE_STOPS_BETWEEN_DRIVERS = "redistribute_stops_between_drivers"
    """Move stops between drivers as well."""


# Limits of the contract's Limits section and stop body table.
MAX_IMPORT_BATCH: Final = 100
"""Stops in one batch import (1 to 100)."""
MAX_PLAN_DRIVERS: Final = 50
"""Drivers of a plan."""
MAX_ALLOWED_DRIVERS: Final = 100
"""``allowedDrivers`` of a stop."""
MAX_BARCODES: Final = 200
"""Barcodes of a stop, each 1 to 255 characters (official schema; the contract said 50)."""
MAX_PRODUCTS: Final = 100
"""Product names of a stop's order, each 1 to 255 characters (official schema)."""
MAX_WEIGHT: Final = 999999
"""Largest ``weight.amount`` (official schema), in steps of 0.01."""
MAX_SAFE_INTEGER: Final = 2**53 - 1
"""Largest ``paymentOnDelivery.amount`` (official schema: JavaScript's safe integer)."""
PAYMENT_CURRENCIES: Final = frozenset(
    [
        "AED",
        "ARS",
        "AUD",
        "BRL",
        "CAD",
        "CHF",
        "CLP",
        "CNY",
        "COP",
        "DKK",
        "EGP",
        "EUR",
        "GBP",
        "HKD",
        "HUF",
        "ILS",
        "INR",
        "JPY",
        "KRW",
        "MYR",
        "MXN",
        "NOK",
        "NZD",
        "PEN",
        "RON",
        "RUB",
        "SAR",
        "SEK",
        "SGD",
        "TRY",
        "USD",
        "UYU",
        "ZAR",
    ]
)
"""The ISO 4217 codes the official schema accepts for ``paymentOnDelivery.currency``."""
PLAN_YEAR_RANGE: Final = (2000, 2100)
"""Years accepted for a plan's ``starts``, inclusive. The contract only says dates
"too far in the future or past are rejected" without bounds; this range keeps
obvious mistakes (year 20026, year 26) on the client and lets every real plan through."""

_ACTIVITIES: Final = frozenset(Activity)
_WEIGHT_UNITS: Final = frozenset(WeightUnit)
_OPTIMIZATION_ORDERS: Final = frozenset(OptimizationOrder)
_REOPTIMIZATION_TYPES: Final = frozenset(ReoptimizationType)
_PLAN_DATE: Final = date_in_years(*PLAN_YEAR_RANGE)


# Converters bound to the contract's limits -----------------------------------


def _barcodes(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return string_list("barcodes", value, max_items=MAX_BARCODES, item_min=1, item_max=255)


def _products(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return string_list("order_info.products", value, max_items=MAX_PRODUCTS, item_min=1, item_max=255)


def _plan_drivers(value: Iterable[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    # The service ignores duplicates (contract, POST /plans), so they are
    # dropped before the "at most 50" rule is applied.
    return driver_list("drivers", value, max_items=MAX_PLAN_DRIVERS, dedupe=True)


def _allowed_drivers(value: Iterable[str] | UnsetType | None) -> list[str] | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    return driver_list("allowed_drivers", value, max_items=MAX_ALLOWED_DRIVERS, dedupe=False)


# Nested objects --------------------------------------------------------------


@attrs.frozen(kw_only=True)
class AddressInput:
    """Where a stop is. At least one field is required; latitude and longitude,
    when given, override the other fields and must be given together.

    Keyword Args:
        address_name (str | None): Display name only; not used for geocoding. 1 to 255 characters.
        address_line_one (str | None): First address line, 1 to 255 characters.
        address_line_two (str | None): Second address line, 1 to 255 characters.
        city (str | None): City, 1 to 100 characters.
        state (str | None): State or region, 1 to 100 characters.
        zip (str | None): Postal code, 1 to 100 characters.
        country (str | None): Country, 1 to 100 characters.
        latitude (float | None): Decimal degrees, -90..90.
        longitude (float | None): Decimal degrees, -180..180.
    """

    _PATH: ClassVar[str] = "address."

    address_name: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """Display name only; not used for geocoding. 1 to 255 characters."""
    address_line_one: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """First address line, 1 to 255 characters."""
    address_line_two: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """Second address line, 1 to 255 characters."""
    city: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 100))
    """City, 1 to 100 characters."""
    state: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 100))
    """State or region, 1 to 100 characters."""
    zip: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 100))
    """Postal code, 1 to 100 characters."""
    country: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 100))
    """Country, 1 to 100 characters."""
    latitude: float | UnsetType | None = attrs.field(default=UNSET, validator=number(-90, 90))
    """Decimal degrees, -90..90."""
    longitude: float | UnsetType | None = attrs.field(default=UNSET, validator=number(-180, 180))
    """Decimal degrees, -180..180."""

    def __attrs_post_init__(self) -> None:
        if all(absent(getattr(self, a.name)) for a in attrs.fields(type(self))):
            fail("address", "at least one address field is required")
        if absent(self.latitude) != absent(self.longitude):
            missing = "address.longitude" if absent(self.longitude) else "address.latitude"
            fail(missing, "latitude and longitude must be given together")


@attrs.frozen(kw_only=True)
class TimingInput:
    """Time window and duration of a stop.

    Keyword Args:
        earliest_attempt_time (datetime.time | None): Earliest time of day (hour and minute only).
        latest_attempt_time (datetime.time | None): Latest time of day (hour and minute only).
        estimated_attempt_duration (int | None): Whole seconds at the stop (an integer in the official
            schema), at least 1 (contract); None means the team default.
    """

    _PATH: ClassVar[str] = "timing."

    earliest_attempt_time: datetime.time | UnsetType | None = attrs.field(
        default=UNSET, validator=time_of_day
    )
    """Earliest time of day (hour and minute only)."""
    latest_attempt_time: datetime.time | UnsetType | None = attrs.field(default=UNSET, validator=time_of_day)
    """Latest time of day (hour and minute only)."""
    estimated_attempt_duration: int | UnsetType | None = attrs.field(
        default=UNSET, validator=number(1, MAX_SAFE_INTEGER, integer=True)
    )
    """Whole seconds at the stop (an integer in the official schema), at least 1
    (contract); None means the team default."""


@attrs.frozen(kw_only=True)
class RecipientInput:
    """Who receives (or hands over) the packages.

    Keyword Args:
        external_id (str | None): The caller's own id for the recipient (the stop list filter
            ``externalId``), 1 to 255 characters.
        email (str | None): E-mail address, 1 to 255 characters.
        phone (str | None): Phone number, 1 to 255 characters.
        name (str | None): Name, 1 to 255 characters.
    """

    _PATH: ClassVar[str] = "recipient."

    external_id: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """The caller's own id for the recipient (the stop list filter ``externalId``), 1 to 255 characters."""
    email: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """E-mail address, 1 to 255 characters."""
    phone: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """Phone number, 1 to 255 characters."""
    name: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """Name, 1 to 255 characters."""


@attrs.frozen(kw_only=True)
class OrderInfoInput:
    """The order behind a stop.

    Keyword Args:
        products (list[str]): At most 100 product names, each 1 to 255 characters.
        seller_order_id (str | None): The seller's order id, 1 to 255 characters.
        seller_name (str | None): The seller's name, 1 to 255 characters.
        seller_website (str | None): The seller's website, 1 to 255 characters.
    """

    _PATH: ClassVar[str] = "order_info."

    products: list[str] | UnsetType = attrs.field(default=UNSET, converter=_products)
    """At most 100 product names, each 1 to 255 characters."""
    seller_order_id: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """The seller's order id, 1 to 255 characters."""
    seller_name: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """The seller's name, 1 to 255 characters."""
    seller_website: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """The seller's website, 1 to 255 characters."""


@attrs.frozen(kw_only=True)
class WeightInput:
    """The weight of a stop's load; the team must track vehicle capacity (else the
    service answers 403 ``vehicle_capacity_disabled``).

    Keyword Args:
        amount (float): 0 to 999999, in steps of 0.01.
        unit (str): A :class:`~route_planning_async.WeightUnit` value: the team's capacity unit.
    """

    _PATH: ClassVar[str] = "weight."

    amount: float = attrs.field(validator=number(0, MAX_WEIGHT, nullable=False, step=0.01))
    """0 to 999999, in steps of 0.01."""
    unit: str = attrs.field(validator=one_of(_WEIGHT_UNITS, nullable=False))
    """A :class:`~route_planning_async.WeightUnit` value: the team's capacity unit."""


@attrs.frozen(kw_only=True)
class PaymentOnDeliveryInput:
    """The payment to collect on delivery ("cash on delivery").

    Keyword Args:
        amount (int | None): In minor units (cents): ``1250`` is 12.50; 0 or more.
        currency (str | None): An ISO 4217 code the service accepts (:data:`PAYMENT_CURRENCIES`).
    """

    _PATH: ClassVar[str] = "payment_on_delivery."

    amount: int | UnsetType | None = attrs.field(
        default=UNSET, validator=number(0, MAX_SAFE_INTEGER, integer=True)
    )
    """In minor units (cents): ``1250`` is 12.50; 0 or more."""
    currency: str | UnsetType | None = attrs.field(default=UNSET, validator=one_of(PAYMENT_CURRENCIES))
    """An ISO 4217 code the service accepts (:data:`PAYMENT_CURRENCIES`)."""


# Stops -----------------------------------------------------------------------
# The stop body table of the contract: the same rules for plan stops and
# unassigned stops, for create, import, update and the live calls. Each field's
# default and check is declared once here, as one attrs field that the four
# classes below share (attrs only reads it); each class lists the fields it
# takes in its own order (the order of the JSON body), each with its own
# docstring.
#
# The required address and the fields with a converter (driver, depot,
# allowed_drivers, barcodes, custom_properties) keep their attrs.field(...)
# call in the class body, with the converter declared once above: a type
# checker's attrs support reads a field's required-ness and its converter's
# argument type (a tuple of barcodes is accepted, a list is stored) only there.


_TIMING: Final = attrs.field(default=UNSET, validator=instance_of(TimingInput))
_RECIPIENT: Final = attrs.field(default=UNSET, validator=instance_of(RecipientInput))
_ORDER_INFO: Final = attrs.field(default=UNSET, validator=instance_of(OrderInfoInput))
_PROOF: Final = attrs.field(default=UNSET, validator=instance_of(ProofOfAttemptRequirements))
_ACTIVITY: Final = attrs.field(default=UNSET, validator=one_of(_ACTIVITIES))
_OPTIMIZATION_ORDER: Final = attrs.field(default=UNSET, validator=one_of(_OPTIMIZATION_ORDERS))
_PACKAGE_COUNT: Final = attrs.field(default=UNSET, validator=number(1, 10000))
_NOTES: Final = attrs.field(default=UNSET, validator=text(1, 2000))
_CLIENT_ID: Final = attrs.field(default=UNSET, validator=text(1, 100))
_WEIGHT: Final = attrs.field(default=UNSET, validator=instance_of(WeightInput))
_PAYMENT: Final = attrs.field(default=UNSET, validator=instance_of(PaymentOnDeliveryInput))

_ADDRESS: Final = instance_of(AddressInput, nullable=False)


def _not_both_drivers(instance: StopInput | StopUpdate) -> None:
    # Contract, stop body table: driver and allowedDrivers are mutually exclusive.
    if not absent(instance.driver) and not absent(instance.allowed_drivers):
        fail("driver", "driver and allowed_drivers are mutually exclusive; give only one")


@attrs.frozen(kw_only=True)
class StopInput:
    """The body of a stop create, batch import entry or live create.

    Keyword Args:
        address (AddressInput): Where the stop is (required).
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
            ``allowed_drivers``.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop; on
            creation they join the plan.
        activity (str | None): ``delivery`` (the service's default) or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        client_id (str | None): Client-portal client id, 1 to 100 characters (wire ``circuitClientId``);
            set on create and import only, never updated.
        barcodes (list[str]): At most 200, each 1 to 255 characters.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """

    address: AddressInput = attrs.field(validator=_ADDRESS)
    """Where the stop is (required)."""
    timing: TimingInput | UnsetType | None = _TIMING
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = _RECIPIENT
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = _PROOF
    """Whether proof of attempt is collected."""
    driver: str | UnsetType | None = attrs.field(default=UNSET, converter=driver_reference)
    """Deprecated: one ``drivers/<id>``; mutually exclusive with ``allowed_drivers``."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>`` allowed for the stop; on creation they join the plan."""
    activity: str | UnsetType | None = _ACTIVITY
    """``delivery`` (the service's default) or ``pickup``."""
    optimization_order: str | UnsetType | None = _OPTIMIZATION_ORDER
    """``first``, ``last`` or ``default``."""
    package_count: float | UnsetType | None = _PACKAGE_COUNT
    """1 to 10000 (a number in the official schema)."""
    weight: WeightInput | UnsetType | None = _WEIGHT
    """The weight of the load (needs vehicle capacity on the team)."""
    payment_on_delivery: PaymentOnDeliveryInput | UnsetType | None = _PAYMENT
    """The payment to collect on delivery."""
    notes: str | UnsetType | None = _NOTES
    """1 to 2000 characters."""
    client_id: str | UnsetType | None = _CLIENT_ID
    """Client-portal client id, 1 to 100 characters (wire ``circuitClientId``); set on
    create and import only, never updated."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 200, each 1 to 255 characters."""
    custom_properties: dict[str, str | None] | UnsetType | None = attrs.field(
        default=UNSET, converter=custom_property_values
    )
    """Values (1 to 255 characters, or None to clear) keyed by custom stop property id."""

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@attrs.frozen(kw_only=True)
class StopUpdate:
    """The body of a stop PATCH or live update: only the fields given are changed.

    A stop's location and ``client_id`` cannot be updated (contract,
    Stops rule 2): delete the stop and create a new one.

    Keyword Args:
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
            ``allowed_drivers``.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>``; an update does not add them to
            the plan.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """

    timing: TimingInput | UnsetType | None = _TIMING
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = _RECIPIENT
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = _PROOF
    """Whether proof of attempt is collected."""
    driver: str | UnsetType | None = attrs.field(default=UNSET, converter=driver_reference)
    """Deprecated: one ``drivers/<id>``; mutually exclusive with ``allowed_drivers``."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>``; an update does not add them to the plan."""
    activity: str | UnsetType | None = _ACTIVITY
    """``delivery`` or ``pickup``."""
    optimization_order: str | UnsetType | None = _OPTIMIZATION_ORDER
    """``first``, ``last`` or ``default``."""
    package_count: float | UnsetType | None = _PACKAGE_COUNT
    """1 to 10000 (a number in the official schema)."""
    weight: WeightInput | UnsetType | None = _WEIGHT
    """The weight of the load (needs vehicle capacity on the team)."""
    payment_on_delivery: PaymentOnDeliveryInput | UnsetType | None = _PAYMENT
    """The payment to collect on delivery."""
    notes: str | UnsetType | None = _NOTES
    """1 to 2000 characters."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 200, each 1 to 255 characters; replaces the whole list."""
    custom_properties: dict[str, str | None] | UnsetType | None = attrs.field(
        default=UNSET, converter=custom_property_values
    )
    """Values (1 to 255 characters, or None to clear) keyed by custom stop property id."""

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@attrs.frozen(kw_only=True)
class UnassignedStopInput:
    """The body of an unassigned stop create, or an entry of its batch import.

    Keyword Args:
        address (AddressInput): Where the stop is (required).
        depot (str | None): ``depots/<id>``; None or not given means the team's main depot. Not allowed
            in a batch import, where the depot is given once for the whole batch.
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` (the service's default) or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        client_id (str | None): Client-portal client id, 1 to 100 characters (wire ``circuitClientId``);
            set on create and import only, never updated.
        barcodes (list[str]): At most 200, each 1 to 255 characters.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """

    address: AddressInput = attrs.field(validator=_ADDRESS)
    """Where the stop is (required)."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=depot_reference)
    """``depots/<id>``; None or not given means the team's main depot. Not allowed in a
    batch import, where the depot is given once for the whole batch."""
    timing: TimingInput | UnsetType | None = _TIMING
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = _RECIPIENT
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = _PROOF
    """Whether proof of attempt is collected."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>`` allowed for the stop."""
    activity: str | UnsetType | None = _ACTIVITY
    """``delivery`` (the service's default) or ``pickup``."""
    optimization_order: str | UnsetType | None = _OPTIMIZATION_ORDER
    """``first``, ``last`` or ``default``."""
    package_count: float | UnsetType | None = _PACKAGE_COUNT
    """1 to 10000 (a number in the official schema)."""
    weight: WeightInput | UnsetType | None = _WEIGHT
    """The weight of the load (needs vehicle capacity on the team)."""
    payment_on_delivery: PaymentOnDeliveryInput | UnsetType | None = _PAYMENT
    """The payment to collect on delivery."""
    notes: str | UnsetType | None = _NOTES
    """1 to 2000 characters."""
    client_id: str | UnsetType | None = _CLIENT_ID
    """Client-portal client id, 1 to 100 characters (wire ``circuitClientId``); set on
    create and import only, never updated."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 200, each 1 to 255 characters."""
    custom_properties: dict[str, str | None] | UnsetType | None = attrs.field(
        default=UNSET, converter=custom_property_values
    )
    """Values (1 to 255 characters, or None to clear) keyed by custom stop property id."""


@attrs.frozen(kw_only=True)
class UnassignedStopUpdate:
    """The body of an unassigned stop PATCH: only the fields given are changed.

    The location and ``client_id`` cannot be updated.

    Keyword Args:
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>``.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
        depot (str | None): ``depots/<id>``; None means the team's main depot.
    """

    timing: TimingInput | UnsetType | None = _TIMING
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = _RECIPIENT
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = _PROOF
    """Whether proof of attempt is collected."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>``."""
    activity: str | UnsetType | None = _ACTIVITY
    """``delivery`` or ``pickup``."""
    optimization_order: str | UnsetType | None = _OPTIMIZATION_ORDER
    """``first``, ``last`` or ``default``."""
    package_count: float | UnsetType | None = _PACKAGE_COUNT
    """1 to 10000 (a number in the official schema)."""
    weight: WeightInput | UnsetType | None = _WEIGHT
    """The weight of the load (needs vehicle capacity on the team)."""
    payment_on_delivery: PaymentOnDeliveryInput | UnsetType | None = _PAYMENT
    """The payment to collect on delivery."""
    notes: str | UnsetType | None = _NOTES
    """1 to 2000 characters."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 200, each 1 to 255 characters; replaces the whole list."""
    custom_properties: dict[str, str | None] | UnsetType | None = attrs.field(
        default=UNSET, converter=custom_property_values
    )
    """Values (1 to 255 characters, or None to clear) keyed by custom stop property id."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=depot_reference)
    """``depots/<id>``; None means the team's main depot."""


# Plans -----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class PlanInput:
    """The body of a plan create (contract, POST /plans).

    Keyword Args:
        title (str): 1 to 255 characters.
        starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
        drivers (list[str]): ``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50.
        depot (str | None): ``depots/<id>``; None or not given means the team's main depot.
    """

    title: str = attrs.field(validator=text(1, 255, nullable=False))
    """1 to 255 characters."""
    starts: datetime.date = attrs.field(validator=_PLAN_DATE)
    """The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`."""
    drivers: list[str] | UnsetType = attrs.field(default=UNSET, converter=_plan_drivers)
    """``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=depot_reference)
    """``depots/<id>``; None or not given means the team's main depot."""


@attrs.frozen(kw_only=True)
class PlanUpdate:
    """The body of a plan PATCH: only the fields given are changed; ``drivers``
    replaces the whole list. Same rules as :class:`PlanInput`.

    Keyword Args:
        title (str): 1 to 255 characters.
        starts (datetime.date): The day of the plan.
        drivers (list[str]): ``drivers/<id>``; replaces the plan's whole list.
        depot (str | None): ``depots/<id>``; None means the team's main depot.
    """

    title: str | UnsetType = attrs.field(default=UNSET, validator=text(1, 255, nullable=False))
    """1 to 255 characters."""
    starts: datetime.date | UnsetType = attrs.field(default=UNSET, validator=_PLAN_DATE)
    """The day of the plan."""
    drivers: list[str] | UnsetType = attrs.field(default=UNSET, converter=_plan_drivers)
    """``drivers/<id>``; replaces the plan's whole list."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=depot_reference)
    """``depots/<id>``; None means the team's main depot."""


def check_batch(stops: object, cls: type, field: str = "stops") -> list[Any]:
    """The items of a batch import as a list, after the contract's batch rules:
    1 to 100 entries (Limits: batch import size), each an instance of ``cls``."""
    if isinstance(stops, str | bytes | Mapping) or not isinstance(stops, Iterable):
        fail(field, f"must be a sequence of {cls.__name__}, got {type(stops).__name__}")
    items = list(stops)
    if not 1 <= len(items) <= MAX_IMPORT_BATCH:
        fail(field, f"must have 1 to {MAX_IMPORT_BATCH} stops, got {len(items)}")
    for index, item in enumerate(items):
        if not isinstance(item, cls):
            fail(f"{field}[{index}]", f"must be {a_or_an(cls.__name__)}, got {type(item).__name__}")
    return items


def check_no_depot(item: UnassignedStopInput, field: str) -> None:
    """Refuse an unassigned stop of a batch or bulk import that names its own depot.

    The depot of an unassigned stop import is given once for the whole request
    (public API documentation, POST /unassignedStops:import); ``field`` is the
    stop's path (``stops[3]``).
    """
    if not isinstance(item.depot, UnsetType):
        fail(
            f"{field}.depot", "must not be set on stops of a batch import; pass depot= to the import instead"
        )


def reoptimization_body(optimization_type: str | None) -> dict[str, str]:
    """The body of ``:reoptimize``: ``{}`` for the service's default
    (``reorder_changed_stops``), else ``{"optimizationType": value}`` for a
    :class:`ReoptimizationType` value."""
    if optimization_type is None:
        return {}
    if optimization_type not in _REOPTIMIZATION_TYPES:
        names = ", ".join(sorted(_REOPTIMIZATION_TYPES))
        fail("optimization_type", f"must be one of {names}, got {optimization_type!r}")
    return {"optimizationType": str(optimization_type)}


# Drivers (public API documentation; the contract has none) --------------------
# POST /drivers, PATCH /drivers/<id> and POST /drivers:import: the same body
# rules, with email and phone set on create and import only. The driver's
# ``active`` flag is not part of any of these bodies.


class StopUpdateFields(TypedDict, total=False):
    """The fields of :class:`StopUpdate` as keyword arguments (``update(stop_id, notes=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    timing: TimingInput | None
    recipient: RecipientInput | None
    order_info: OrderInfoInput | None
    proof_of_attempt_requirements: ProofOfAttemptRequirements | None
    driver: str | None
    allowed_drivers: Iterable[str] | None
    activity: str | None
    optimization_order: str | None
    package_count: float | None
    weight: WeightInput | None
    payment_on_delivery: PaymentOnDeliveryInput | None
    notes: str | None
    barcodes: Sequence[str]
    custom_properties: dict[str, str | None] | None


class UnassignedStopUpdateFields(TypedDict, total=False):
    """The fields of :class:`UnassignedStopUpdate` as keyword arguments (``update(stop_id, notes=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    timing: TimingInput | None
    recipient: RecipientInput | None
    order_info: OrderInfoInput | None
    proof_of_attempt_requirements: ProofOfAttemptRequirements | None
    allowed_drivers: Iterable[str] | None
    activity: str | None
    optimization_order: str | None
    package_count: float | None
    weight: WeightInput | None
    payment_on_delivery: PaymentOnDeliveryInput | None
    notes: str | None
    barcodes: Sequence[str]
    custom_properties: dict[str, str | None] | None
    depot: str | None


__all__ += [
    "MAX_DRIVER_DEPOTS",
    "MAX_DRIVER_IMPORT_BATCH",
    "DriverInput",
    "DriverUpdate",
    "DriverUpdateFields",
    "RouteOverridesInput",
    "check_driver_batch",
]

MAX_DRIVER_IMPORT_BATCH: Final = 50
"""Drivers in one batch import (1 to 50)."""
MAX_DRIVER_DEPOTS: Final = 50
"""Depots of one driver (1 to 50, after duplicates are dropped)."""

_SPEEDS: Final = frozenset({"slower", "average", "faster"})
_VEHICLE_TYPES: Final = frozenset({"bike", "scooter", "car", "small_truck", "truck", "electric_cargo_bike"})
# The public API documentation's email pattern.
_EMAIL: Final = re.compile(
    r"(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}"
)


def _email(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    text(1, 255)(instance, attribute, value)
    if isinstance(value, str) and _EMAIL.fullmatch(value) is None:
        fail(attribute.name, f"must be an e-mail address, got {value!r}")


def _driver_depots(value: Iterable[str] | UnsetType | None) -> list[str] | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        fail("depots", f"must be a list of depot references, got {type(value).__name__}")
    # The service ignores duplicates, so they are dropped before counting.
    refs = list(dict.fromkeys(_ids.depot_ref(item, f"depots[{i}]") for i, item in enumerate(value)))
    if not 1 <= len(refs) <= MAX_DRIVER_DEPOTS:
        fail("depots", f"must have 1 to {MAX_DRIVER_DEPOTS} depots (or be None), got {len(refs)}")
    return refs


@attrs.frozen(kw_only=True)
class RouteOverridesInput:
    """Settings that override the route defaults for one driver.

    Keyword Args:
        start_address (AddressInput | None): Where every route of the driver starts.
        end_address (AddressInput | None): Where every route of the driver ends.
        start_time (datetime.time | None): When the driver's work day starts (hour and minute only).
        end_time (datetime.time | None): When the driver's work day ends (hour and minute only).
        max_stops (int | None): Most stops allocated to the driver, at least 0.
        driving_speed (str | None): ``slower``, ``average`` (the service's default) or ``faster`` than
            the team's average.
        delivery_speed (str | None): ``slower``, ``average`` (the service's default) or ``faster`` than
            the team's average.
        vehicle_type (str | None): ``bike``, ``scooter``, ``car``, ``small_truck``, ``truck`` or
            ``electric_cargo_bike``.
    """

    _PATH: ClassVar[str] = "route_overrides."

    start_address: AddressInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(AddressInput)
    )
    """Where every route of the driver starts."""
    end_address: AddressInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(AddressInput)
    )
    """Where every route of the driver ends."""
    start_time: datetime.time | UnsetType | None = attrs.field(default=UNSET, validator=time_of_day)
    """When the driver's work day starts (hour and minute only)."""
    end_time: datetime.time | UnsetType | None = attrs.field(default=UNSET, validator=time_of_day)
    """When the driver's work day ends (hour and minute only)."""
    max_stops: int | UnsetType | None = attrs.field(default=UNSET, validator=number(0, integer=True))
    """Most stops allocated to the driver, at least 0."""
    driving_speed: str | UnsetType | None = attrs.field(default=UNSET, validator=one_of(_SPEEDS))
    """``slower``, ``average`` (the service's default) or ``faster`` than the team's average."""
    delivery_speed: str | UnsetType | None = attrs.field(default=UNSET, validator=one_of(_SPEEDS))
    """``slower``, ``average`` (the service's default) or ``faster`` than the team's average."""
    vehicle_type: str | UnsetType | None = attrs.field(default=UNSET, validator=one_of(_VEHICLE_TYPES))
    """``bike``, ``scooter``, ``car``, ``small_truck``, ``truck`` or ``electric_cargo_bike``."""


_DRIVER_NAME: Final = attrs.field(default=UNSET, validator=text(1, 255))
_ROUTE_OVERRIDES: Final = attrs.field(default=UNSET, validator=instance_of(RouteOverridesInput))


@attrs.frozen(kw_only=True)
class DriverInput:
    """The body of a driver create or batch import entry. The driver's e-mail or
    phone identifies it (``drivers.import_many`` uses it as the natural key).

    Keyword Args:
        name (str | None): Full name, 1 to 255 characters.
        display_name (str | None): Name shown in the apps, 1 to 255 characters.
        email (str | None): E-mail address, 1 to 255 characters; set on create and import only.
        phone (str | None): Phone number, 1 to 255 characters; set on create and import only.
        depots (list[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped); None
            or not given: the team's main depot.
        route_overrides (RouteOverridesInput | None): Settings that override the route defaults for this
            driver.
    """

    name: str | UnsetType | None = _DRIVER_NAME
    """Full name, 1 to 255 characters."""
    display_name: str | UnsetType | None = _DRIVER_NAME
    """Name shown in the apps, 1 to 255 characters."""
    email: str | UnsetType | None = attrs.field(default=UNSET, validator=_email)
    """E-mail address, 1 to 255 characters; set on create and import only."""
    phone: str | UnsetType | None = attrs.field(default=UNSET, validator=text(1, 255))
    """Phone number, 1 to 255 characters; set on create and import only."""
    depots: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_driver_depots)
    """1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped); None or
    not given: the team's main depot."""
    route_overrides: RouteOverridesInput | UnsetType | None = _ROUTE_OVERRIDES
    """Settings that override the route defaults for this driver."""


@attrs.frozen(kw_only=True)
class DriverUpdate:
    """The body of a driver PATCH: only the fields given are changed; ``depots``
    and ``route_overrides`` are replaced whole. E-mail and phone cannot be changed.

    Keyword Args:
        name (str | None): Full name, 1 to 255 characters.
        display_name (str | None): Name shown in the apps, 1 to 255 characters.
        depots (list[str] | None): 1 to 50 ``depots/<id>``; None: the team's main depot.
        route_overrides (RouteOverridesInput | None): Settings that override the route defaults for this
            driver.
    """

    name: str | UnsetType | None = _DRIVER_NAME
    """Full name, 1 to 255 characters."""
    display_name: str | UnsetType | None = _DRIVER_NAME
    """Name shown in the apps, 1 to 255 characters."""
    depots: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_driver_depots)
    """1 to 50 ``depots/<id>``; None: the team's main depot."""
    route_overrides: RouteOverridesInput | UnsetType | None = _ROUTE_OVERRIDES
    """Settings that override the route defaults for this driver."""


def check_driver_batch(drivers: object, field: str = "drivers") -> list[DriverInput]:
    """The drivers of a batch import as a list: 1 to 50, each a :class:`DriverInput`
    (public API documentation, POST /drivers:import)."""
    if isinstance(drivers, str | bytes | Mapping) or not isinstance(drivers, Iterable):
        fail(field, f"must be a sequence of DriverInput, got {type(drivers).__name__}")
    items = list(drivers)
    if not 1 <= len(items) <= MAX_DRIVER_IMPORT_BATCH:
        fail(field, f"must have 1 to {MAX_DRIVER_IMPORT_BATCH} drivers, got {len(items)}")
    for index, item in enumerate(items):
        if not isinstance(item, DriverInput):
            fail(f"{field}[{index}]", f"must be a DriverInput, got {type(item).__name__}")
    return items


class DriverUpdateFields(TypedDict, total=False):
    """The fields of :class:`DriverUpdate` as keyword arguments (``update(stop_id, notes=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    name: str | None
    display_name: str | None
    depots: Sequence[str] | None
    route_overrides: RouteOverridesInput | None
