"""The resources both API versions answer alike: drivers, depots and custom stop
properties, and the fields every version's plans and stops hold."""

from __future__ import annotations

import datetime
from typing import Any

import attrs

from route_planning_async._checks._ids import DepotId, DriverId, PlanId, StopId, UnassignedStopId
from route_planning_async._docs import described, fields_documented
from route_planning_async._models._enums import Activity, OptimizationOrder, StopType
from route_planning_async._models._parts import (
    PaymentOnDelivery,
    PlaceInVehicle,
    ProofOfAttemptRequirements,
    Recipient,
    Route,
    StopAddress,
    TimingData,
    Weight,
)

__all__ = [
    "CustomStopProperty",
    "Depot",
    "Driver",
    "PlanFields",
    "PlanStopFields",
    "RouteOverrides",
    "StopFields",
    "UnassignedStopFields",
    "required_first",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class RouteOverrides:
    """Per-driver settings that override the route defaults.

    Attributes:
        start_time (datetime.time | None): When the driver starts.
        end_time (datetime.time | None): When the driver ends.
        start_address (StopAddress | None): Where the driver starts.
        end_address (StopAddress | None): Where the driver ends.
        max_stops (int | None): Most stops the driver takes in one route.
        driving_speed (str | None): Relative driving speed (``slower``, ``average``, ``faster`` ...).
        delivery_speed (str | None): Relative delivery speed (``slower``, ``average``, ``faster`` ...).
        vehicle_type (str | None): Vehicle (``bike``, ``car``, ``truck`` ...).
    """

    start_time: datetime.time | None = attrs.field(
        default=None, metadata=described("When the driver starts.")
    )
    end_time: datetime.time | None = attrs.field(default=None, metadata=described("When the driver ends."))
    start_address: StopAddress | None = attrs.field(
        default=None, metadata=described("Where the driver starts.")
    )
    end_address: StopAddress | None = attrs.field(default=None, metadata=described("Where the driver ends."))
    max_stops: int | None = attrs.field(
        default=None, metadata=described("Most stops the driver takes in one route.")
    )
    driving_speed: str | None = attrs.field(
        default=None, metadata=described("Relative driving speed (``slower``, ``average``, ``faster`` ...).")
    )
    delivery_speed: str | None = attrs.field(
        default=None, metadata=described("Relative delivery speed (``slower``, ``average``, ``faster`` ...).")
    )
    vehicle_type: str | None = attrs.field(
        default=None, metadata=described("Vehicle (``bike``, ``car``, ``truck`` ...).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Driver:
    """A driver of the team (``client.drivers``), also as listed inside a plan.

    Attributes:
        id (DriverId): ``drivers/<id>``.
        name (str | None): Name.
        email (str | None): E-mail address.
        phone (str | None): Phone number.
        display_name (str | None): Name shown in the apps.
        active (bool): False when the driver's membership is paused.
        depots (list[str]): ``depots/<id>`` of the driver's depots.
        route_overrides (RouteOverrides): Settings that override the route defaults for this driver.
    """

    id: DriverId = attrs.field(metadata=described("``drivers/<id>``."))
    name: str | None = attrs.field(default=None, metadata=described("Name."))
    email: str | None = attrs.field(default=None, metadata=described("E-mail address."))
    phone: str | None = attrs.field(default=None, metadata=described("Phone number."))
    display_name: str | None = attrs.field(default=None, metadata=described("Name shown in the apps."))
    active: bool = attrs.field(
        default=True, metadata=described("False when the driver's membership is paused.")
    )
    depots: list[str] = attrs.field(
        factory=list, metadata=described("``depots/<id>`` of the driver's depots.")
    )
    route_overrides: RouteOverrides = attrs.field(
        factory=RouteOverrides,
        metadata=described("Settings that override the route defaults for this driver."),
    )


def required_first(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
    """A field transformer: the required fields (a stop's ``id``) first, then the
    others in their order (those a class inherits, then its own)."""
    return sorted(fields, key=lambda field: field.default is not attrs.NOTHING)


@attrs.define(kw_only=True)
class StopFields:
    """The fields of every stop, in a plan or not, that both versions answer alike."""

    address: StopAddress = attrs.field(factory=StopAddress, metadata=described("Where the stop is."))
    barcodes: list[str] = attrs.field(factory=list, metadata=described("Barcodes of its packages."))
    timing: TimingData = attrs.field(factory=TimingData, metadata=described("Time window and duration."))
    notes: str | None = attrs.field(default=None, metadata=described("Notes for the driver."))
    package_count: float | None = attrs.field(
        default=None, metadata=described("Number of packages (a JSON number in the official schema).")
    )
    weight: Weight | None = attrs.field(
        default=None, metadata=described("The weight of the load, when the team tracks vehicle capacity.")
    )
    payment_on_delivery: PaymentOnDelivery | None = attrs.field(
        default=None, metadata=described("The payment to collect on delivery.")
    )
    recipient: Recipient = attrs.field(factory=Recipient, metadata=described("Who receives the packages."))
    activity: str = attrs.field(
        default=Activity.DELIVERY.value,
        metadata=described("An :class:`Activity` value: ``delivery`` or ``pickup``."),
    )
    proof_of_attempt_requirements: ProofOfAttemptRequirements = attrs.field(
        factory=ProofOfAttemptRequirements, metadata=described("Whether proof of attempt is collected.")
    )
    optimization_order: str = attrs.field(
        default=OptimizationOrder.DEFAULT.value,
        metadata=described("An :class:`OptimizationOrder` value: ``first``, ``last`` or ``default``."),
    )
    custom_properties: dict[str, str | None] | None = attrs.field(
        default=None, metadata=described("Values keyed by custom stop property id.")
    )
    client_id: str | None = attrs.field(
        default=None,
        metadata=described(
            """Client-portal client id the stop is associated with (v1's ``clientId``; v0.2b
            sends the official ``circuitClientId`` and reads it, the contract's
            ``serviceClientId`` or ``clientId``)."""
        ),
    )


@attrs.define(kw_only=True)
class PlanStopFields(StopFields):
    """The fields of a stop inside a plan that both versions answer alike."""

    id: StopId = attrs.field(metadata=described("``plans/<planId>/stops/<stopId>``."))
    plan: str = attrs.field(default="", metadata=described("``plans/<planId>``."))
    route: Route | None = attrs.field(
        default=None, metadata=described("The route, once the plan is optimized.")
    )
    estimated_travel_duration: float | None = attrs.field(
        default=None, metadata=described("Seconds from the previous stop.")
    )
    estimated_travel_distance: float | None = attrs.field(
        default=None, metadata=described("Meters from the previous stop.")
    )
    place_in_vehicle: PlaceInVehicle | None = attrs.field(
        default=None, metadata=described("Where the packages sit in the vehicle.")
    )
    type: str = attrs.field(
        default=StopType.STOP.value,
        metadata=described("A :class:`StopType` value: ``stop``, ``start`` or ``end``."),
    )
    package_label: str | None = attrs.field(default=None, metadata=described("Label of the package."))
    stop_position: int | None = attrs.field(
        default=None,
        metadata=described("Position in the optimized route (``start`` is 0); not the real delivery order."),
    )
    tracking_link: str | None = attrs.field(
        default=None, metadata=described("Recipient tracking link, once the route has started.")
    )
    web_app_link: str = attrs.field(default="", metadata=described("Link to the stop in the web app."))


@attrs.define(kw_only=True)
class UnassignedStopFields(StopFields):
    """The fields of a stop of a depot, not attached to a plan, that both versions answer alike."""

    id: UnassignedStopId = attrs.field(metadata=described("``unassignedStops/<id>``."))
    depot: str = attrs.field(default="", metadata=described("``depots/<id>``."))
    tracking_link: str | None = attrs.field(default=None, metadata=described("Recipient tracking link."))


@attrs.define(kw_only=True)
class PlanFields:
    """The fields of a plan that both versions answer alike (each adds its ``drivers``)."""

    id: PlanId = attrs.field(metadata=described("``plans/<id>``."))
    title: str = attrs.field(metadata=described("1 to 255 characters."))
    starts: datetime.date = attrs.field(metadata=described("The day the plan is for."))
    depot: str | None = attrs.field(default=None, metadata=described("``depots/<id>``."))
    distributed: bool = attrs.field(
        default=False, metadata=described("True once the routes were sent to the drivers.")
    )
    writable: bool = attrs.field(
        default=True,
        metadata=described("False once optimized: then only the live endpoints change the plan."),
    )
    optimization: str | None = attrs.field(
        default=None,
        metadata=described("A :class:`PlanOptimization` value, or a newer one kept as a string."),
    )
    routes: list[str] = attrs.field(factory=list, metadata=described("``routes/<id>`` of the plan's routes."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Depot:
    """A depot of the team.

    Attributes:
        id (DepotId): ``depots/<id>``.
        name (str): Name of the depot.
    """

    id: DepotId = attrs.field(metadata=described("``depots/<id>``."))
    name: str = attrs.field(default="", metadata=described("Name of the depot."))


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class CustomStopProperty:
    """The definition of one of the team's custom stop properties.

    Attributes:
        id (str): A UUID; the key of the value in a stop's ``custom_properties``.
        name (str): Name of the property.
        visible_to_drivers (bool | None): Drivers see the value (public API documentation).
        visible_to_recipients (bool | None): Recipients see the value (public API documentation).
    """

    id: str = attrs.field(
        metadata=described("A UUID; the key of the value in a stop's ``custom_properties``.")
    )
    name: str = attrs.field(default="", metadata=described("Name of the property."))
    visible_to_drivers: bool | None = attrs.field(
        default=None, metadata=described("Drivers see the value (public API documentation).")
    )
    visible_to_recipients: bool | None = attrs.field(
        default=None, metadata=described("Recipients see the value (public API documentation).")
    )
