"""The resources as v1 answers them: plans, stops, unassigned stops, depots and
members (drivers, custom stop properties and the fields both versions share are in
``route_planning_async/_models/``)."""

from __future__ import annotations

import datetime

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._ids import MemberId
from route_planning_async._models import Depot as _SharedDepot
from route_planning_async._models import (
    PlanFields,
    PlanStopFields,
    RouteOverrides,
    UnassignedStopFields,
    required_first,
)
from route_planning_async.v1._models._stop_parts import DeliveryInfo, Eta, OrderInfo, ServiceInfo

__all__ = [
    "Depot",
    "DepotAddress",
    "DepotRouteOverrides",
    "Member",
    "OptimizationSettings",
    "Plan",
    "PlanRouteOverrides",
    "Stop",
    "UnassignedStop",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class OptimizationSettings:
    """What a plan's optimization aims at."""

    objective: str = attrs.field(
        metadata=described("An :class:`OptimizationObjective` value, or a newer one kept as a string.")
    )
    sub_objective: str | None = attrs.field(
        default=None,
        metadata=described("An :class:`OptimizationSubObjective` value, a newer one, or None."),
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class PlanRouteOverrides(RouteOverrides):
    """A plan's settings that override the route defaults: a driver's, and how to optimize."""

    optimization_settings: OptimizationSettings | None = attrs.field(
        default=None, metadata=described("What the plan's optimization aims at.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Plan(PlanFields):
    """A planned day of work for a set of drivers, at a depot."""

    drivers: list[str] = attrs.field(
        factory=list, metadata=described("``drivers/<id>`` of the plan's drivers.")
    )
    route_overrides: PlanRouteOverrides | None = attrs.field(
        default=None, metadata=described("Settings of this plan that override the route defaults.")
    )


_ALLOWED_DRIVERS = described("``drivers/<id>`` of the drivers allowed for the stop; empty means any.")


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=required_first)
class Stop(PlanStopFields):
    """A stop inside a plan."""

    allowed_drivers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))
    delivery_info: DeliveryInfo | None = attrs.field(
        default=None, metadata=described("What happened at the attempt.")
    )
    eta: Eta | None = attrs.field(
        default=None,
        metadata=described(
            "Estimated arrival, or why there is none (None only if the answer has no ``eta``)."
        ),
    )
    service_info: ServiceInfo | None = attrs.field(
        default=None,
        metadata=described(
            "The stop's service, or why there is none (None only if the answer has no ``serviceInfo``)."
        ),
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=required_first)
class UnassignedStop(UnassignedStopFields):
    """A stop of a depot that is not attached to a plan."""

    allowed_drivers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DepotAddress:
    """A depot's address as the service stores it."""

    address: str | None = attrs.field(default=None, metadata=described("The full address."))
    address_line_one: str | None = attrs.field(default=None, metadata=described("First address line."))
    address_line_two: str | None = attrs.field(default=None, metadata=described("Second address line."))
    latitude: float | None = attrs.field(default=None, metadata=described("Decimal degrees."))
    longitude: float | None = attrs.field(default=None, metadata=described("Decimal degrees."))
    place_id: str | None = attrs.field(default=None, metadata=described("A Google place id of the depot."))
    country_code: str | None = attrs.field(default=None, metadata=described("The address's country code."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DepotRouteOverrides:
    """The route defaults of the routes that start at a depot."""

    start_time: datetime.time | None = attrs.field(default=None, metadata=described("Default start time."))
    start_address: DepotAddress | None = attrs.field(
        default=None, metadata=described("Where routes start by default.")
    )
    end_time: datetime.time | None = attrs.field(default=None, metadata=described("Default end time."))
    end_address: DepotAddress | None = attrs.field(
        default=None, metadata=described("Where routes end by default; None: back at the start.")
    )
    default_time_at_stop: float | None = attrs.field(
        default=None, metadata=described("Seconds spent at a stop by default.")
    )
    max_stops: int | None = attrs.field(
        default=None, metadata=described("Most stops assigned to each driver (a JSON number).")
    )
    road_side: str | None = attrs.field(
        default=None,
        metadata=described("A :class:`RoadSide` value: the side of the road drivers stop at."),
    )
    vehicle_type: str | None = attrs.field(
        default=None, metadata=described("A :class:`VehicleType` value: the default vehicle.")
    )
    round_trip: bool | None = attrs.field(
        default=None, metadata=described("Routes return to their start address.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Depot(_SharedDepot):
    """A depot of the team, with its route defaults."""

    route_overrides: DepotRouteOverrides | None = attrs.field(
        default=None, metadata=described("The route defaults of routes from this depot.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Member:
    """A member of the team's dashboard (``client.members``)."""

    id: MemberId = attrs.field(metadata=described("``members/<id>``."))
    name: str | None = attrs.field(default=None, metadata=described("Name."))
    email: str | None = attrs.field(default=None, metadata=described("E-mail address."))
    phone: str | None = attrs.field(default=None, metadata=described("Phone number."))
    display_name: str | None = attrs.field(default=None, metadata=described("Name shown in the apps."))
    linked_driver_id: str | None = attrs.field(
        default=None, metadata=described("``drivers/<id>`` of the driver linked to the member, if any.")
    )
    active: bool = attrs.field(default=True, metadata=described("False when the membership is paused."))
    depots: list[str] = attrs.field(
        factory=list, metadata=described("``depots/<id>`` of the member's depots.")
    )
    roles: list[str] = attrs.field(
        factory=list, metadata=described(":class:`MemberRole` values (newer ones kept as strings).")
    )
