"""The resources as v1 answers them: plans, stops, unassigned stops, depots and
members (drivers, custom stop properties and the fields both versions share are in
``route_planning_async/_models/``)."""

from __future__ import annotations

import datetime

import attrs

from route_planning_async._checks._ids import MemberId
from route_planning_async._docs import described, fields_documented
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
    """What a plan's optimization aims at.

    Attributes:
        objective (str): An :class:`OptimizationObjective` value, or a newer one kept as a string.
        sub_objective (str | None): An :class:`OptimizationSubObjective` value, a newer one, or None.
    """

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
    """A plan's settings that override the route defaults: a driver's, and how to optimize.

    Attributes:
        start_time (datetime.time | None): When the driver starts.
        end_time (datetime.time | None): When the driver ends.
        start_address (StopAddress | None): Where the driver starts.
        end_address (StopAddress | None): Where the driver ends.
        max_stops (int | None): Most stops the driver takes in one route.
        driving_speed (str | None): Relative driving speed (``slower``, ``average``, ``faster`` ...).
        delivery_speed (str | None): Relative delivery speed (``slower``, ``average``, ``faster`` ...).
        vehicle_type (str | None): Vehicle (``bike``, ``car``, ``truck`` ...).
        optimization_settings (OptimizationSettings | None): What the plan's optimization aims at.
    """

    optimization_settings: OptimizationSettings | None = attrs.field(
        default=None, metadata=described("What the plan's optimization aims at.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Plan(PlanFields):
    """A planned day of work for a set of drivers, at a depot.

    Attributes:
        id (PlanId): ``plans/<id>``.
        title (str): 1 to 255 characters.
        starts (datetime.date): The day the plan is for.
        depot (str | None): ``depots/<id>``.
        distributed (bool): True once the routes were sent to the drivers.
        writable (bool): False once optimized: then only the live endpoints change the plan.
        optimization (str | None): A :class:`PlanOptimization` value, or a newer one kept as a string.
        routes (list[str]): ``routes/<id>`` of the plan's routes.
        drivers (list[str]): ``drivers/<id>`` of the plan's drivers.
        route_overrides (PlanRouteOverrides | None): Settings of this plan that override the route
            defaults.
    """

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
    """A stop inside a plan.

    Attributes:
        id (StopId): ``plans/<planId>/stops/<stopId>``.
        address (StopAddress): Where the stop is.
        barcodes (list[str]): Barcodes of its packages.
        timing (TimingData): Time window and duration.
        notes (str | None): Notes for the driver.
        package_count (float | None): Number of packages (a JSON number in the official schema).
        weight (Weight | None): The weight of the load, when the team tracks vehicle capacity.
        payment_on_delivery (PaymentOnDelivery | None): The payment to collect on delivery.
        recipient (Recipient): Who receives the packages.
        activity (str): An :class:`Activity` value: ``delivery`` or ``pickup``.
        proof_of_attempt_requirements (ProofOfAttemptRequirements): Whether proof of attempt is
            collected.
        optimization_order (str): An :class:`OptimizationOrder` value: ``first``, ``last`` or
            ``default``.
        custom_properties (dict[str, str | None] | None): Values keyed by custom stop property id.
        client_id (str | None): Client-portal client id the stop is associated with (v1's ``clientId``;
            v0.2b sends the official ``circuitClientId`` and reads it, the contract's
            ``serviceClientId`` or ``clientId``).
        plan (str): ``plans/<planId>``.
        route (Route | None): The route, once the plan is optimized.
        estimated_travel_duration (float | None): Seconds from the previous stop.
        estimated_travel_distance (float | None): Meters from the previous stop.
        place_in_vehicle (PlaceInVehicle | None): Where the packages sit in the vehicle.
        type (str): A :class:`StopType` value: ``stop``, ``start`` or ``end``.
        package_label (str | None): Label of the package.
        stop_position (int | None): Position in the optimized route (``start`` is 0); not the real
            delivery order.
        tracking_link (str | None): Recipient tracking link, once the route has started.
        web_app_link (str): Link to the stop in the web app.
        allowed_drivers (list[str]): ``drivers/<id>`` of the drivers allowed for the stop; empty means
            any.
        order_info (OrderInfo): The order behind the stop.
        delivery_info (DeliveryInfo | None): What happened at the attempt.
        eta (Eta | None): Estimated arrival, or why there is none (None only if the answer has no
            ``eta``).
        service_info (ServiceInfo | None): The stop's service, or why there is none (None only if the
            answer has no ``serviceInfo``).
    """

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
    """A stop of a depot that is not attached to a plan.

    Attributes:
        id (UnassignedStopId): ``unassignedStops/<id>``.
        address (StopAddress): Where the stop is.
        barcodes (list[str]): Barcodes of its packages.
        timing (TimingData): Time window and duration.
        notes (str | None): Notes for the driver.
        package_count (float | None): Number of packages (a JSON number in the official schema).
        weight (Weight | None): The weight of the load, when the team tracks vehicle capacity.
        payment_on_delivery (PaymentOnDelivery | None): The payment to collect on delivery.
        recipient (Recipient): Who receives the packages.
        activity (str): An :class:`Activity` value: ``delivery`` or ``pickup``.
        proof_of_attempt_requirements (ProofOfAttemptRequirements): Whether proof of attempt is
            collected.
        optimization_order (str): An :class:`OptimizationOrder` value: ``first``, ``last`` or
            ``default``.
        custom_properties (dict[str, str | None] | None): Values keyed by custom stop property id.
        client_id (str | None): Client-portal client id the stop is associated with (v1's ``clientId``;
            v0.2b sends the official ``circuitClientId`` and reads it, the contract's
            ``serviceClientId`` or ``clientId``).
        depot (str): ``depots/<id>``.
        tracking_link (str | None): Recipient tracking link.
        allowed_drivers (list[str]): ``drivers/<id>`` of the drivers allowed for the stop; empty means
            any.
        order_info (OrderInfo): The order behind the stop.
    """

    allowed_drivers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DepotAddress:
    """A depot's address as the service stores it.

    Attributes:
        address (str | None): The full address.
        address_line_one (str | None): First address line.
        address_line_two (str | None): Second address line.
        latitude (float | None): Decimal degrees.
        longitude (float | None): Decimal degrees.
        place_id (str | None): A Google place id of the depot.
        country_code (str | None): The address's country code.
    """

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
    """The route defaults of the routes that start at a depot.

    Attributes:
        start_time (datetime.time | None): Default start time.
        start_address (DepotAddress | None): Where routes start by default.
        end_time (datetime.time | None): Default end time.
        end_address (DepotAddress | None): Where routes end by default; None: back at the start.
        default_time_at_stop (float | None): Seconds spent at a stop by default.
        max_stops (int | None): Most stops assigned to each driver (a JSON number).
        road_side (str | None): A :class:`RoadSide` value: the side of the road drivers stop at.
        vehicle_type (str | None): A :class:`VehicleType` value: the default vehicle.
        round_trip (bool | None): Routes return to their start address.
    """

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
    """A depot of the team, with its route defaults.

    Attributes:
        id (DepotId): ``depots/<id>``.
        name (str): Name of the depot.
        route_overrides (DepotRouteOverrides | None): The route defaults of routes from this depot.
    """

    route_overrides: DepotRouteOverrides | None = attrs.field(
        default=None, metadata=described("The route defaults of routes from this depot.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Member:
    """A member of the team's dashboard (``client.members``).

    Attributes:
        id (MemberId): ``members/<id>``.
        name (str | None): Name.
        email (str | None): E-mail address.
        phone (str | None): Phone number.
        display_name (str | None): Name shown in the apps.
        linked_driver_id (str | None): ``drivers/<id>`` of the driver linked to the member, if any.
        active (bool): False when the membership is paused.
        depots (list[str]): ``depots/<id>`` of the member's depots.
        roles (list[str]): :class:`MemberRole` values (newer ones kept as strings).
    """

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
