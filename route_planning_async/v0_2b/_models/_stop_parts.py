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
    """Estimated arrival at a stop. An estimate, not a guarantee."""


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
    or a newer value."""


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class TimeAtStopInfo(TimeAtStopFields):
    """When the driver arrived at and left a stop (official schema, ``timeAtStopInfo``)."""


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class TimeAtStopInfoNullReason(_NullReason):
    """Why a stop has no ``time_at_stop_info``: ``reason`` is ``subscription_not_supported``,
    or a newer value."""


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DeliveryInfo(DeliveryFields):
    """What happened when the driver attempted a stop."""

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
