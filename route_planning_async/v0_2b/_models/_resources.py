"""The resources as v0.2b answers them: plans, stops and unassigned stops (drivers,
depots, custom stop properties and the fields both versions share are in
``route_planning_async/_models/``)."""

from __future__ import annotations

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._models import (
    Driver,
    OrderInfo,
    PlanFields,
    PlanStopFields,
    UnassignedStopFields,
    required_first,
)
from route_planning_async.v0_2b._models._stop_parts import DeliveryInfo, Eta, EtaNullReason

__all__ = ["Plan", "Stop", "UnassignedStop"]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Plan(PlanFields):
    """A planned day of work for a set of drivers, at a depot."""

    drivers: list[Driver] = attrs.field(factory=list, metadata=described("The plan's drivers."))


class _ServiceClientId:
    """The former name of ``client_id``, on v0.2b's stops."""

    __slots__ = ()
    client_id: str | None

    @property
    def service_client_id(self) -> str | None:
        """The former name of :attr:`client_id`, kept for existing code."""
        return self.client_id


_ALLOWED_DRIVERS_IDENTIFIERS = described(
    "E-mails or phones of the drivers allowed for the stop; empty means any."
)


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=required_first)
class Stop(PlanStopFields, _ServiceClientId):
    """A stop inside a plan."""

    allowed_drivers_identifiers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS_IDENTIFIERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))
    driver_identifier: str | None = attrs.field(
        default=None,
        metadata=described(
            "Deprecated: an e-mail or phone of a driver; see ``allowed_drivers_identifiers``."
        ),
    )
    delivery_info: DeliveryInfo | None = attrs.field(
        default=None, metadata=described("What happened at the attempt.")
    )
    eta: Eta | None = attrs.field(default=None, metadata=described("Estimated arrival."))
    eta_null_reason: EtaNullReason | None = attrs.field(
        default=None, metadata=described("Why ``eta`` is None.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=required_first)
class UnassignedStop(UnassignedStopFields, _ServiceClientId):
    """A stop of a depot that is not attached to a plan."""

    allowed_drivers_identifiers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS_IDENTIFIERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))
