"""The objects nested in a stop's body that every API version shares: address, timing,
recipient, the fields of an order, weight, payment and proof of attempt.

A version whose order takes more fields (v1's ``invoiceNumber``) subclasses
:class:`OrderInfoFields` with them; v0.2b's ``OrderInfoInput`` adds none.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import ClassVar, Final

import attrs

from route_planning_async._checks._validators import (
    UNSET,
    UnsetType,
    absent,
    fail,
    instance_of,
    number,
    one_of,
    string_list,
    text,
    time_of_day,
)
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs._limits import (
    MAX_PRODUCTS,
    MAX_SAFE_INTEGER,
    MAX_WEIGHT,
    PAYMENT_CURRENCIES,
)

__all__ = [
    "AddressInput",
    "OrderInfoFields",
    "PaymentOnDeliveryInput",
    "ProofOfAttemptRequirementsInput",
    "RecipientInput",
    "TimingInput",
    "WeightInput",
]

_WEIGHT_UNITS: Final = frozenset({"kilogram", "pound", "metric-ton"})
"""The values of ``WeightUnit`` (the same in every version's schema)."""


def _products(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return string_list("order_info.products", value, max_items=MAX_PRODUCTS, item_min=1, item_max=255)


@fields_documented
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

    address_name: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 255),
        metadata=described("Display name only; not used for geocoding. 1 to 255 characters."),
    )
    address_line_one: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("First address line, 1 to 255 characters.")
    )
    address_line_two: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("Second address line, 1 to 255 characters.")
    )
    city: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 100), metadata=described("City, 1 to 100 characters.")
    )
    state: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 100), metadata=described("State or region, 1 to 100 characters.")
    )
    zip: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 100), metadata=described("Postal code, 1 to 100 characters.")
    )
    country: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 100), metadata=described("Country, 1 to 100 characters.")
    )
    latitude: float | UnsetType | None = attrs.field(
        default=UNSET, validator=number(-90, 90), metadata=described("Decimal degrees, -90..90.")
    )
    longitude: float | UnsetType | None = attrs.field(
        default=UNSET, validator=number(-180, 180), metadata=described("Decimal degrees, -180..180.")
    )

    def __attrs_post_init__(self) -> None:
        if all(absent(getattr(self, a.name)) for a in attrs.fields(type(self))):
            fail("address", "at least one address field is required")
        if absent(self.latitude) != absent(self.longitude):
            missing = "address.longitude" if absent(self.longitude) else "address.latitude"
            fail(missing, "latitude and longitude must be given together")


@fields_documented
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
        default=UNSET,
        validator=time_of_day,
        metadata=described("Earliest time of day (hour and minute only)."),
    )
    latest_attempt_time: datetime.time | UnsetType | None = attrs.field(
        default=UNSET, validator=time_of_day, metadata=described("Latest time of day (hour and minute only).")
    )
    estimated_attempt_duration: int | UnsetType | None = attrs.field(
        default=UNSET,
        validator=number(1, MAX_SAFE_INTEGER, integer=True),
        metadata=described(
            """Whole seconds at the stop (an integer in the official schema), at least 1
            (contract); None means the team default."""
        ),
    )


@fields_documented
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

    external_id: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 255),
        metadata=described(
            """The caller's own id for the recipient (the stop list filter ``externalId``),
            1 to 255 characters."""
        ),
    )
    email: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("E-mail address, 1 to 255 characters.")
    )
    phone: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("Phone number, 1 to 255 characters.")
    )
    name: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("Name, 1 to 255 characters.")
    )


@attrs.frozen(kw_only=True)
class OrderInfoFields:
    """The fields of the order behind a stop that every version takes."""

    _PATH: ClassVar[str] = "order_info."

    products: list[str] | UnsetType = attrs.field(
        default=UNSET,
        converter=_products,
        metadata=described("At most 100 product names, each 1 to 255 characters."),
    )
    seller_order_id: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 255),
        metadata=described("The seller's order id, 1 to 255 characters."),
    )
    seller_name: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("The seller's name, 1 to 255 characters.")
    )
    seller_website: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 255),
        metadata=described("The seller's website, 1 to 255 characters."),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class WeightInput:
    """The weight of a stop's load; the team must track vehicle capacity (else the
    service answers 403 ``vehicle_capacity_disabled``).

    Keyword Args:
        amount (float): 0 to 999999, in steps of 0.01.
        unit (str): A :class:`~route_planning_async.WeightUnit` value: the team's capacity unit.
    """

    _PATH: ClassVar[str] = "weight."

    amount: float = attrs.field(
        validator=number(0, MAX_WEIGHT, nullable=False, step=0.01),
        metadata=described("0 to 999999, in steps of 0.01."),
    )
    unit: str = attrs.field(
        validator=one_of(_WEIGHT_UNITS, nullable=False),
        metadata=described("A :class:`~route_planning_async.WeightUnit` value: the team's capacity unit."),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class PaymentOnDeliveryInput:
    """The payment to collect on delivery ("cash on delivery").

    Keyword Args:
        amount (int | None): In minor units (cents): ``1250`` is 12.50; 0 or more.
        currency (str | None): An ISO 4217 code the service accepts (:data:`PAYMENT_CURRENCIES`).
    """

    _PATH: ClassVar[str] = "payment_on_delivery."

    amount: int | UnsetType | None = attrs.field(
        default=UNSET,
        validator=number(0, MAX_SAFE_INTEGER, integer=True),
        metadata=described("In minor units (cents): ``1250`` is 12.50; 0 or more."),
    )
    currency: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(PAYMENT_CURRENCIES),
        metadata=described("An ISO 4217 code the service accepts (:data:`PAYMENT_CURRENCIES`)."),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class ProofOfAttemptRequirementsInput:
    """Whether proof of attempt is collected at a stop.

    Keyword Args:
        enabled (bool | None): Collect proof of attempt; None means the team's setting.
    """

    _PATH: ClassVar[str] = "proof_of_attempt_requirements."

    enabled: bool | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(bool),
        metadata=described("Collect proof of attempt; None means the team's setting."),
    )
