"""The objects a stop is made of that both API versions answer alike: its address,
timing, recipient, order, load, route and the facts of its delivery attempt."""

from __future__ import annotations

import datetime

import attrs

from route_planning_async._checks._ids import RouteId
from route_planning_async._docs import described, fields_documented
from route_planning_async._models._enums import DeliveryState

__all__ = [
    "AttemptedLocation",
    "DeliveryFields",
    "EtaFields",
    "OrderInfo",
    "PaymentOnDelivery",
    "PlaceInVehicle",
    "ProofOfAttemptRequirements",
    "Recipient",
    "Route",
    "RouteState",
    "StopAddress",
    "TimeAtStopFields",
    "TimingData",
    "Weight",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class StopAddress:
    """A stop's address as the service stores it (also a driver's start or end address).

    Attributes:
        address (str): The combined address; empty when the stop was imported by coordinates only.
        address_line_one (str): First address line.
        address_line_two (str): Second address line.
        latitude (float | None): Decimal degrees, -90..90.
        longitude (float | None): Decimal degrees, -180..180.
        place_id (str | None): Id of the place in a places provider.
        place_types (list[str]): Place types from the places provider.
    """

    address: str = attrs.field(
        default="",
        metadata=described("The combined address; empty when the stop was imported by coordinates only."),
    )
    address_line_one: str = attrs.field(default="", metadata=described("First address line."))
    address_line_two: str = attrs.field(default="", metadata=described("Second address line."))
    latitude: float | None = attrs.field(default=None, metadata=described("Decimal degrees, -90..90."))
    longitude: float | None = attrs.field(default=None, metadata=described("Decimal degrees, -180..180."))
    place_id: str | None = attrs.field(
        default=None, metadata=described("Id of the place in a places provider.")
    )
    place_types: list[str] = attrs.field(
        factory=list, metadata=described("Place types from the places provider.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class TimingData:
    """When a stop may be attempted and how long the attempt takes.

    Attributes:
        earliest_attempt_time (datetime.time | None): Earliest time of day for the attempt.
        latest_attempt_time (datetime.time | None): Latest time of day for the attempt.
        estimated_attempt_duration (float | None): Seconds spent at the stop (an integer on the wire);
            None means the team default.
    """

    earliest_attempt_time: datetime.time | None = attrs.field(
        default=None, metadata=described("Earliest time of day for the attempt.")
    )
    latest_attempt_time: datetime.time | None = attrs.field(
        default=None, metadata=described("Latest time of day for the attempt.")
    )
    estimated_attempt_duration: float | None = attrs.field(
        default=None,
        metadata=described(
            "Seconds spent at the stop (an integer on the wire); None means the team default."
        ),
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Recipient:
    """Who receives (or hands over) the packages of a stop.

    Attributes:
        email (str | None): E-mail address.
        external_id (str | None): The caller's own id for the recipient.
        name (str | None): Name.
        phone (str | None): Phone number.
    """

    email: str | None = attrs.field(default=None, metadata=described("E-mail address."))
    external_id: str | None = attrs.field(
        default=None, metadata=described("The caller's own id for the recipient.")
    )
    name: str | None = attrs.field(default=None, metadata=described("Name."))
    phone: str | None = attrs.field(default=None, metadata=described("Phone number."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class OrderInfo:
    """The order behind a stop.

    Attributes:
        products (list[str]): Product names.
        seller_order_id (str | None): The seller's order id.
        seller_name (str | None): The seller's name.
        seller_website (str | None): The seller's website.
    """

    products: list[str] = attrs.field(factory=list, metadata=described("Product names."))
    seller_order_id: str | None = attrs.field(default=None, metadata=described("The seller's order id."))
    seller_name: str | None = attrs.field(default=None, metadata=described("The seller's name."))
    seller_website: str | None = attrs.field(default=None, metadata=described("The seller's website."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class PlaceInVehicle:
    """Where the packages sit in the vehicle.

    Attributes:
        x (str | None): ``left``, ``right`` or None.
        y (str | None): ``front``, ``middle``, ``back`` or None.
        z (str | None): ``floor``, ``shelf`` or None.
    """

    x: str | None = attrs.field(default=None, metadata=described("``left``, ``right`` or None."))
    y: str | None = attrs.field(default=None, metadata=described("``front``, ``middle``, ``back`` or None."))
    z: str | None = attrs.field(default=None, metadata=described("``floor``, ``shelf`` or None."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Weight:
    """The weight of a stop's load (official schema, ``weight``).

    Attributes:
        amount (float): The amount, at least 0, in ``unit``.
        unit (str): A :class:`WeightUnit` value, or a newer one kept as a string.
    """

    amount: float = attrs.field(metadata=described("The amount, at least 0, in ``unit``."))
    unit: str = attrs.field(
        metadata=described("A :class:`WeightUnit` value, or a newer one kept as a string.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class PaymentOnDelivery:
    """The payment due on delivery, "cash on delivery" (official schema, ``paymentOnDelivery``).

    Attributes:
        amount (int | None): The amount in minor units (cents), None when not set.
        currency (str | None): ISO 4217 currency code (``EUR``, ``USD`` ...).
    """

    amount: int | None = attrs.field(
        default=None, metadata=described("The amount in minor units (cents), None when not set.")
    )
    currency: str | None = attrs.field(
        default=None, metadata=described("ISO 4217 currency code (``EUR``, ``USD`` ...).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class ProofOfAttemptRequirements:
    """Whether proof of attempt is collected at a stop (also used as an input).

    Attributes:
        enabled (bool | None): None: the team default; False: off; True: on, following team policy.
    """

    enabled: bool | None = attrs.field(
        default=None,
        metadata=described("None: the team default; False: off; True: on, following team policy."),
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class RouteState:
    """Progress of a route.

    Attributes:
        completed (bool): The route is completed.
        completed_at (datetime.datetime | None): When it was completed (UTC).
        distributed (bool): The route was sent to its driver.
        distributed_at (datetime.datetime | None): When it was distributed (UTC).
        notified_recipients (bool): The recipients were notified.
        notified_recipients_at (datetime.datetime | None): When the recipients were notified (UTC).
        started (bool): The driver started the route.
        started_at (datetime.datetime | None): When it was started (UTC).
    """

    completed: bool = attrs.field(default=False, metadata=described("The route is completed."))
    completed_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When it was completed (UTC).")
    )
    distributed: bool = attrs.field(default=False, metadata=described("The route was sent to its driver."))
    distributed_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When it was distributed (UTC).")
    )
    notified_recipients: bool = attrs.field(
        default=False, metadata=described("The recipients were notified.")
    )
    notified_recipients_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When the recipients were notified (UTC).")
    )
    started: bool = attrs.field(default=False, metadata=described("The driver started the route."))
    started_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When it was started (UTC).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Route:
    """A route: the one a stop belongs to once its plan is optimized, or one of ``client.routes``.

    Attributes:
        id (RouteId): ``routes/<id>``.
        title (str): Title of the route.
        stop_count (int): Number of stops in the route.
        driver (str | None): ``drivers/<id>`` of the route's driver.
        plan (str | None): ``plans/<id>`` of the route's plan.
        state (RouteState | None): Progress of the route.
    """

    id: RouteId = attrs.field(metadata=described("``routes/<id>``."))
    title: str = attrs.field(default="", metadata=described("Title of the route."))
    stop_count: int = attrs.field(default=0, metadata=described("Number of stops in the route."))
    driver: str | None = attrs.field(
        default=None, metadata=described("``drivers/<id>`` of the route's driver.")
    )
    plan: str | None = attrs.field(default=None, metadata=described("``plans/<id>`` of the route's plan."))
    state: RouteState | None = attrs.field(default=None, metadata=described("Progress of the route."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class AttemptedLocation:
    """Where a delivery was attempted.

    Attributes:
        latitude (float): Decimal degrees.
        longitude (float): Decimal degrees.
    """

    latitude: float = attrs.field(metadata=described("Decimal degrees."))
    longitude: float = attrs.field(metadata=described("Decimal degrees."))


@attrs.define(kw_only=True)
class EtaFields:
    """The three arrival estimates of a stop (v0.2b's ``Eta``, v1's ``EtaValue``)."""

    estimated_arrival_at: datetime.datetime = attrs.field(metadata=described("Most likely arrival (UTC)."))
    estimated_earliest_arrival_at: datetime.datetime = attrs.field(
        metadata=described("Earliest likely arrival (UTC).")
    )
    estimated_latest_arrival_at: datetime.datetime = attrs.field(
        metadata=described("Latest likely arrival (UTC).")
    )


@attrs.define(kw_only=True)
class TimeAtStopFields:
    """When the driver arrived at and left a stop (v0.2b's ``TimeAtStopInfo``, v1's
    ``TimeAtStopInfoValue``)."""

    arrived_at: datetime.datetime | None = attrs.field(default=None, metadata=described("Arrival (UTC)."))
    departed_at: datetime.datetime | None = attrs.field(default=None, metadata=described("Departure (UTC)."))
    is_estimated: bool | None = attrs.field(
        default=None, metadata=described("True when the times were estimated rather than measured.")
    )


@attrs.define(kw_only=True)
class DeliveryFields:
    """The facts of a delivery attempt that both versions answer alike (each version's
    ``DeliveryInfo`` adds when the driver arrived and left, in its own shape)."""

    attempted: bool = attrs.field(default=False, metadata=described("The stop was attempted."))
    attempted_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When it was attempted (UTC); use it for the real delivery order.")
    )
    attempted_location: AttemptedLocation | None = attrs.field(
        default=None, metadata=described("Where it was attempted.")
    )
    driver_provided_internal_notes: str | None = attrs.field(
        default=None, metadata=described("Notes from the driver for the team.")
    )
    driver_provided_recipient_notes: str | None = attrs.field(
        default=None, metadata=described("Notes from the driver for the recipient.")
    )
    photo_urls: list[str] = attrs.field(
        factory=list,
        metadata=described(
            "Proof photos; a URL may answer not found until the driver app finished uploading."
        ),
    )
    recipient_provided_notes: str | None = attrs.field(
        default=None, metadata=described("Notes from the recipient.")
    )
    signature_url: str | None = attrs.field(
        default=None, metadata=described("The signature image (same upload caveat as photos).")
    )
    signee_name: str | None = attrs.field(default=None, metadata=described("Who signed."))
    state: str = attrs.field(
        default=DeliveryState.UNATTEMPTED.value,
        metadata=described("A :class:`DeliveryState` value, or a newer one kept as a string."),
    )
    succeeded: bool = attrs.field(default=False, metadata=described("The attempt succeeded."))
