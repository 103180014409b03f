"""The objects of a stop that are v0.2b's own: its ETA, its time at the stop and
why either is missing, and the delivery facts that hold them (the parts both
versions share are in ``route_planning_async/_models/``)."""

from __future__ import annotations

import datetime

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._models import DeliveryFields, EtaFields, TimeAtStopFields

__all__ = [
    "DeliveryInfo",
    "Eta",
    "EtaNullReason",
    "TimeAtStopInfo",
    "TimeAtStopInfoNullReason",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Eta(EtaFields):
    """Estimated arrival at a stop. An estimate, not a guarantee.

    Attributes:
        estimated_arrival_at (datetime.datetime): Most likely arrival (UTC).
        estimated_earliest_arrival_at (datetime.datetime): Earliest likely arrival (UTC).
        estimated_latest_arrival_at (datetime.datetime): Latest likely arrival (UTC).
    """


@attrs.define(kw_only=True)
class _NullReason:
    """Why a field of a stop is None."""

    reason: str = attrs.field(
        metadata=described("The reason, as a code: the class names the known ones; a newer one is kept.")
    )
    message: str = attrs.field(default="", metadata=described("Human-readable explanation."))
    url: str | None = attrs.field(default=None, metadata=described("Where to read more."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class EtaNullReason(_NullReason):
    """Why a stop has no ETA: ``reason`` is ``not_optimized``, ``subscription_not_supported``,
    or a newer value.

    Attributes:
        reason (str): The reason, as a code: the class names the known ones; a newer one is kept.
        message (str): Human-readable explanation.
        url (str | None): Where to read more.
    """


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class TimeAtStopInfo(TimeAtStopFields):
    """When the driver arrived at and left a stop (official schema, ``timeAtStopInfo``).

    Attributes:
        arrived_at (datetime.datetime | None): Arrival (UTC).
        departed_at (datetime.datetime | None): Departure (UTC).
        is_estimated (bool | None): True when the times were estimated rather than measured.
    """


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class TimeAtStopInfoNullReason(_NullReason):
    """Why a stop has no ``time_at_stop_info``: ``reason`` is ``subscription_not_supported``,
    or a newer value.

    Attributes:
        reason (str): The reason, as a code: the class names the known ones; a newer one is kept.
        message (str): Human-readable explanation.
        url (str | None): Where to read more.
    """


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
        arrived_at (datetime.datetime | None): Deprecated by the service: when the driver arrived (UTC);
            see ``time_at_stop_info``.
        time_at_stop_info (TimeAtStopInfo | None): When the driver arrived and left.
        time_at_stop_info_null_reason (TimeAtStopInfoNullReason | None): Why ``time_at_stop_info`` is
            None.
    """

    arrived_at: datetime.datetime | None = attrs.field(
        default=None,
        metadata=described(
            "Deprecated by the service: when the driver arrived (UTC); see ``time_at_stop_info``."
        ),
    )
    time_at_stop_info: TimeAtStopInfo | None = attrs.field(
        default=None, metadata=described("When the driver arrived and left.")
    )
    time_at_stop_info_null_reason: TimeAtStopInfoNullReason | None = attrs.field(
        default=None, metadata=described("Why ``time_at_stop_info`` is None.")
    )
