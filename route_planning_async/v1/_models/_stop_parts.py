"""The objects of a stop that are v1's own: the order with its invoice number, and
the ``{status, value}`` answers ``eta``, ``timeAtStopInfo`` and ``serviceInfo``.

The service answers each of the three as one of a few shapes told apart by
``status`` (:class:`InfoStatus`): ``available`` with a ``value``, ``restricted``
when the team's subscription lacks the feature (``requiredFeature``,
``upgradeUrl``, ``restrictionCode``), ``pending`` (``pendingReason``), or
``empty``. Each is one class here: ``status`` and every field any of its shapes
has, None where the shape at hand has none; encoding writes back only the fields
that are set, so the shape is kept. A status this version does not know is kept
as it came, with whatever of the known fields it holds.
"""

from __future__ import annotations

import datetime
from typing import Any

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._models import DeliveryFields, EtaFields, TimeAtStopFields
from route_planning_async._models import OrderInfo as _SharedOrderInfo
from route_planning_async.v1._models._enums import InfoStatus

__all__ = [
    "DeliveryHorizon",
    "DeliveryInfo",
    "Eta",
    "EtaValue",
    "OrderInfo",
    "Price",
    "ServiceInfo",
    "ServiceInfoValue",
    "TimeAtStopInfo",
    "TimeAtStopInfoValue",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class OrderInfo(_SharedOrderInfo):
    """The order behind a stop.

    Attributes:
        products (list[str]): Product names.
        seller_order_id (str | None): The seller's order id.
        seller_name (str | None): The seller's name.
        seller_website (str | None): The seller's website.
        invoice_number (str | None): The invoice number.
    """

    invoice_number: str | None = attrs.field(default=None, metadata=described("The invoice number."))


def _status_and_value_first(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
    """A field transformer: ``status``, then ``value``, then the others in their order."""
    return sorted(fields, key=lambda field: (field.name != "status", field.name != "value"))


@attrs.define(kw_only=True)
class _StatusFields:
    """``status`` and the fields of the ``restricted`` shape, common to the three answers."""

    status: str = attrs.field(
        metadata=described("An :class:`InfoStatus` value, or a newer one kept as a string.")
    )
    required_feature: str | None = attrs.field(
        default=None, metadata=described("``restricted``: the subscription feature it needs.")
    )
    upgrade_url: str | None = attrs.field(
        default=None, metadata=described("``restricted``: where the team can upgrade.")
    )
    restriction_code: str | None = attrs.field(
        default=None,
        metadata=described("``restricted``: why, as a code (``subscription_not_supported``)."),
    )

    @property
    def available(self) -> bool:
        """True when ``status`` is ``available`` (then ``value`` holds the answer)."""
        return self.status == InfoStatus.AVAILABLE


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class EtaValue(EtaFields):
    """The arrival estimates of an available ETA. An estimate, not a guarantee.

    Attributes:
        estimated_arrival_at (datetime.datetime): Most likely arrival (UTC).
        estimated_earliest_arrival_at (datetime.datetime): Earliest likely arrival (UTC).
        estimated_latest_arrival_at (datetime.datetime): Latest likely arrival (UTC).
    """


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=_status_and_value_first)
class Eta(_StatusFields):
    """Estimated arrival at a stop: ``available`` (``value``), ``pending`` (the plan is
    not optimized) or ``restricted``.

    Attributes:
        status (str): An :class:`InfoStatus` value, or a newer one kept as a string.
        value (EtaValue | None): ``available``: the estimates.
        required_feature (str | None): ``restricted``: the subscription feature it needs.
        upgrade_url (str | None): ``restricted``: where the team can upgrade.
        restriction_code (str | None): ``restricted``: why, as a code (``subscription_not_supported``).
        pending_reason (str | None): ``pending``: why (``not_optimized``).
    """

    value: EtaValue | None = attrs.field(default=None, metadata=described("``available``: the estimates."))
    pending_reason: str | None = attrs.field(
        default=None, metadata=described("``pending``: why (``not_optimized``).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class TimeAtStopInfoValue(TimeAtStopFields):
    """When the driver arrived at and left a stop.

    Attributes:
        arrived_at (datetime.datetime | None): Arrival (UTC).
        departed_at (datetime.datetime | None): Departure (UTC).
        is_estimated (bool | None): True when the times were estimated rather than measured.
    """


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=_status_and_value_first)
class TimeAtStopInfo(_StatusFields):
    """When the driver arrived and left: ``available`` (``value``), ``pending`` (not
    arrived yet) or ``restricted``.

    Attributes:
        status (str): An :class:`InfoStatus` value, or a newer one kept as a string.
        value (TimeAtStopInfoValue | None): ``available``: arrival and departure.
        required_feature (str | None): ``restricted``: the subscription feature it needs.
        upgrade_url (str | None): ``restricted``: where the team can upgrade.
        restriction_code (str | None): ``restricted``: why, as a code (``subscription_not_supported``).
        pending_reason (str | None): ``pending``: why (``not_yet_arrived``).
    """

    value: TimeAtStopInfoValue | None = attrs.field(
        default=None, metadata=described("``available``: arrival and departure.")
    )
    pending_reason: str | None = attrs.field(
        default=None, metadata=described("``pending``: why (``not_yet_arrived``).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DeliveryHorizon:
    """How long the service gives for delivery.

    Attributes:
        unit (str): A :class:`DeliveryHorizonUnit` value, or a newer one kept as a string.
        value (float): How many units.
    """

    unit: str = attrs.field(
        metadata=described("A :class:`DeliveryHorizonUnit` value, or a newer one kept as a string.")
    )
    value: float = attrs.field(metadata=described("How many units."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Price:
    """The price of a service.

    Attributes:
        value (float): The amount, in ``currency``.
        currency (str): ISO 4217 currency code (``EUR``, ``USD`` ...).
    """

    value: float = attrs.field(metadata=described("The amount, in ``currency``."))
    currency: str = attrs.field(metadata=described("ISO 4217 currency code (``EUR``, ``USD`` ...)."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class ServiceInfoValue:
    """The service a stop is delivered under.

    The service answers it whole, or, for a stop whose service is not defined
    (``identifier`` None), with its ``sla_starts_at`` alone.

    Attributes:
        identifier (str | None): The service's identifier (1 to 32 letters and digits).
        sla_starts_at (datetime.datetime): When the service level agreement starts (UTC).
        name (str | None): The service's name.
        sla_due_date (datetime.date | None): The day the stop is due.
        sla_due_time (datetime.time | None): The time of day the stop is due, if any.
        delivery_horizon (DeliveryHorizon | None): How long the service gives for delivery.
        price (Price | None): The price of the service.
        has_payment_on_delivery (bool | None): The service collects a payment on delivery.
        defined_at (datetime.datetime | None): When the service was defined (UTC).
    """

    identifier: str | None = attrs.field(
        default=None, metadata=described("The service's identifier (1 to 32 letters and digits).")
    )
    sla_starts_at: datetime.datetime = attrs.field(
        metadata=described("When the service level agreement starts (UTC).")
    )
    name: str | None = attrs.field(default=None, metadata=described("The service's name."))
    sla_due_date: datetime.date | None = attrs.field(
        default=None, metadata=described("The day the stop is due.")
    )
    sla_due_time: datetime.time | None = attrs.field(
        default=None, metadata=described("The time of day the stop is due, if any.")
    )
    delivery_horizon: DeliveryHorizon | None = attrs.field(
        default=None, metadata=described("How long the service gives for delivery.")
    )
    price: Price | None = attrs.field(default=None, metadata=described("The price of the service."))
    has_payment_on_delivery: bool | None = attrs.field(
        default=None, metadata=described("The service collects a payment on delivery.")
    )
    defined_at: datetime.datetime | None = attrs.field(
        default=None, metadata=described("When the service was defined (UTC).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=_status_and_value_first)
class ServiceInfo(_StatusFields):
    """The service of a stop: ``available`` (``value``), ``empty`` (none) or ``restricted``.

    Attributes:
        status (str): An :class:`InfoStatus` value, or a newer one kept as a string.
        value (ServiceInfoValue | None): ``available``: the service.
        required_feature (str | None): ``restricted``: the subscription feature it needs.
        upgrade_url (str | None): ``restricted``: where the team can upgrade.
        restriction_code (str | None): ``restricted``: why, as a code (``subscription_not_supported``).
    """

    value: ServiceInfoValue | None = attrs.field(
        default=None, metadata=described("``available``: the service.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DeliveryInfo(DeliveryFields):
    """What happened when the driver attempted a stop.

    Attributes:
        attempted (bool): The stop was attempted.
        attempted_at (datetime.datetime | None): When it was attempted (UTC); use it for the real
            delivery order.
        attempted_location (AttemptedLocation | None): Where it was attempted.
        driver_provided_internal_notes (str | None): Notes from the driver for the team.
        driver_provided_recipient_notes (str | None): Notes from the driver for the recipient.
        photo_urls (list[str]): Proof photos; a URL may answer not found until the driver app finished
            uploading.
        recipient_provided_notes (str | None): Notes from the recipient.
        signature_url (str | None): The signature image (same upload caveat as photos).
        signee_name (str | None): Who signed.
        state (str): A :class:`DeliveryState` value, or a newer one kept as a string.
        succeeded (bool): The attempt succeeded.
        time_at_stop_info (TimeAtStopInfo | None): When the driver arrived and left, or why that is not
            known.
    """

    time_at_stop_info: TimeAtStopInfo | None = attrs.field(
        default=None, metadata=described("When the driver arrived and left, or why that is not known.")
    )
