"""The emulated team, as plain frozen data: its depots, drivers, custom stop
properties and service offerings (``TeamConfig``, the ``team`` of ``EmulatorConfig``).
"""

from __future__ import annotations

import datetime
import math
import re
import zoneinfo
from collections.abc import Callable
from typing import Literal

import attrs

from route_planning_async._docs import described, fields_documented

__all__ = [
    "CustomStopPropertyConfig",
    "DepotConfig",
    "DriverConfig",
    "ServiceOfferingConfig",
    "TeamConfig",
    "WeightUnit",
]

WeightUnit = Literal["kilogram", "pound", "metric-ton"]
"""A unit of weight: of a team's vehicle capacity, and of a stop's ``weight`` (official schema)."""

_ID = re.compile(r"[A-Za-z0-9_-]{1,50}")


def _bare_id(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if _ID.fullmatch(value) is None:
        raise ValueError(f"{attribute.name} must be 1 to 50 letters, digits, '-' or '_', got {value!r}")


def _degrees(bound: int) -> Callable[[object, attrs.Attribute[float], float], None]:
    """A latitude (``bound`` 90) or longitude (180): a finite number within ±``bound``."""

    def check(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not (math.isfinite(value) and -bound <= value <= bound)
        ):
            raise ValueError(f"{attribute.name}: expected a number from -{bound} to {bound}, got {value!r}")

    return check


def _zone(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(
            f"{attribute.name}: expected an IANA time zone (Europe/London), got {value!r}"
        ) from None


@fields_documented(title="Attributes")
@attrs.frozen
class DepotConfig:
    """A depot of the emulated team: where its routes start and end, with a full address.

    Only ``id`` and ``name`` are served as the Depot (contract, Depot); the address is what a
    route's ``start`` and ``end`` stops carry (official schema, stopSchema ``address``):
    ``address`` (the one-line form, :attr:`one_line`), ``addressLineOne``, ``addressLineTwo``,
    ``latitude``, ``longitude`` and ``placeId``.

    Attributes:
        id (str): Bare id; served as ``depots/<id>``.
        name (str): Display name; the first part of the one-line address.
        latitude (float): Latitude of where routes start and end, and of the centre of the deterministic
            geocoder.
        longitude (float): Longitude of the same place.
        address_line_one (str): Street and number: the start and end stops' ``addressLineOne``.
        address_line_two (str): Flat, floor, building (may be empty).
        city (str): City, in the one-line address and the stops' ``addressLineTwo``.
        state (str): State or region (may be empty).
        zip (str): ZIP or postal code.
        country (str): Country (ISO 3166-1 alpha-2 code or name).
        place_id (str | None): The stops' ``placeId``; None: ``depot-<id>``, so a client can tell depot
            stops by it.
    """

    id: str = attrs.field(validator=_bare_id, metadata=described("Bare id; served as ``depots/<id>``."))
    name: str = attrs.field(metadata=described("Display name; the first part of the one-line address."))
    latitude: float = attrs.field(
        validator=_degrees(90),
        metadata=described(
            "Latitude of where routes start and end, and of the centre of the deterministic geocoder."
        ),
    )
    longitude: float = attrs.field(
        validator=_degrees(180), metadata=described("Longitude of the same place.")
    )
    address_line_one: str = attrs.field(
        default="1 Example Street",
        metadata=described("Street and number: the start and end stops' ``addressLineOne``."),
    )
    address_line_two: str = attrs.field(
        default="", metadata=described("Flat, floor, building (may be empty).")
    )
    city: str = attrs.field(
        default="London",
        metadata=described("City, in the one-line address and the stops' ``addressLineTwo``."),
    )
    state: str = attrs.field(default="", metadata=described("State or region (may be empty)."))
    zip: str = attrs.field(default="N1 1AA", metadata=described("ZIP or postal code."))
    country: str = attrs.field(default="GB", metadata=described("Country (ISO 3166-1 alpha-2 code or name)."))
    place_id: str | None = attrs.field(
        default=None,
        metadata=described(
            "The stops' ``placeId``; None: ``depot-<id>``, so a client can tell depot stops by it."
        ),
    )

    @property
    def one_line(self) -> str:
        """The full one-line address: name, lines, city, state, zip and country joined by ``", "``."""
        parts = (self.name, self.address_line_one, self.address_line_two, self.city, self.state, self.zip)
        return ", ".join(part for part in (*parts, self.country) if part)

    @property
    def second_line(self) -> str:
        """The stops' ``addressLineTwo``: the second line, city, state, zip and country."""
        parts = (self.address_line_two, self.city, self.state, self.zip, self.country)
        return ", ".join(part for part in parts if part)

    @property
    def served_place_id(self) -> str:
        """The ``placeId`` of the depot's start and end stops."""
        return self.place_id if self.place_id is not None else f"depot-{self.id}"


@fields_documented(title="Attributes")
@attrs.frozen
class DriverConfig:
    """A driver of the emulated team.

    Attributes:
        id (str): Bare id; served as ``drivers/<id>``.
        name (str | None): Driver name; also the title of the driver's routes.
        email (str | None): E-mail; the identifier a stop's ``allowedDriversIdentifiers`` lists.
        phone (str | None): Phone; the identifier used when the driver has no e-mail.
        display_name (str | None): The driver's ``displayName``.
        active (bool): Paused (inactive) drivers cannot be added to plans and get no routes.
        depots (tuple[str, ...]): Bare depot ids; empty means the team's main depot.
        start_time (datetime.time | None): Route start; ETAs count from here. None: the team default.
        end_time (datetime.time | None): Route end (served in routeOverrides only).
        max_stops (int | None): Most stops the optimizer gives this driver; the rest are skipped.
        driving_speed (str): How fast the driver drives: ``routeOverrides.drivingSpeed``.
        delivery_speed (str): How fast the driver delivers at a stop: ``routeOverrides.deliverySpeed``.
        vehicle_type (str | None): The driver's vehicle: ``routeOverrides.vehicleType``.
    """

    id: str = attrs.field(validator=_bare_id, metadata=described("Bare id; served as ``drivers/<id>``."))
    name: str | None = attrs.field(
        default=None, metadata=described("Driver name; also the title of the driver's routes.")
    )
    email: str | None = attrs.field(
        default=None,
        metadata=described("E-mail; the identifier a stop's ``allowedDriversIdentifiers`` lists."),
    )
    phone: str | None = attrs.field(
        default=None, metadata=described("Phone; the identifier used when the driver has no e-mail.")
    )
    display_name: str | None = attrs.field(default=None, metadata=described("The driver's ``displayName``."))
    active: bool = attrs.field(
        default=True,
        metadata=described("Paused (inactive) drivers cannot be added to plans and get no routes."),
    )
    depots: tuple[str, ...] = attrs.field(
        default=(), metadata=described("Bare depot ids; empty means the team's main depot.")
    )
    start_time: datetime.time | None = attrs.field(
        default=None, metadata=described("Route start; ETAs count from here. None: the team default.")
    )
    end_time: datetime.time | None = attrs.field(
        default=None, metadata=described("Route end (served in routeOverrides only).")
    )
    max_stops: int | None = attrs.field(
        default=None, metadata=described("Most stops the optimizer gives this driver; the rest are skipped.")
    )
    driving_speed: str = attrs.field(
        default="average", metadata=described("How fast the driver drives: ``routeOverrides.drivingSpeed``.")
    )
    delivery_speed: str = attrs.field(
        default="average",
        metadata=described("How fast the driver delivers at a stop: ``routeOverrides.deliverySpeed``."),
    )
    vehicle_type: str | None = attrs.field(
        default=None, metadata=described("The driver's vehicle: ``routeOverrides.vehicleType``.")
    )

    @property
    def identifier(self) -> str:
        """How stops refer to this driver in ``allowedDriversIdentifiers``: e-mail, else phone, else id."""
        return self.email or self.phone or f"drivers/{self.id}"


@fields_documented(title="Attributes")
@attrs.frozen
class CustomStopPropertyConfig:
    """A custom stop property definition of the team (at most 3, contract Limits).

    Attributes:
        id (str): A UUID string; stops send values keyed by it.
        name (str): The property's name, as the service shows it.
        visible_to_drivers (bool): Served as ``visibleToDrivers`` (public docs field).
        visible_to_recipients (bool): Served as ``visibleToRecipients`` (public docs field).
    """

    id: str = attrs.field(metadata=described("A UUID string; stops send values keyed by it."))
    name: str = attrs.field(metadata=described("The property's name, as the service shows it."))
    visible_to_drivers: bool = attrs.field(
        default=True, metadata=described("Served as ``visibleToDrivers`` (public docs field).")
    )
    visible_to_recipients: bool = attrs.field(
        default=False, metadata=described("Served as ``visibleToRecipients`` (public docs field).")
    )


def _service_identifier(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if re.fullmatch(r"[A-Za-z0-9]{1,32}", value) is None:
        raise ValueError(f"identifier must be 1 to 32 letters or digits, got {value!r}")


@fields_documented
@attrs.frozen
class ServiceOfferingConfig:
    """A service the team offers (v1's ``serviceInfo``): a stop names it by ``identifier``.

    A stop may take it when its activity is one of ``activities``, its plan's depot one of
    ``depots`` (none: every depot) and, with an operating area, its place within
    ``area_radius_km`` of the area's centre; otherwise its create or update is refused
    (400 ``service_activity_not_supported``, ``service_not_available_at_depot``,
    ``operating_area_violation``). Its SLA is due ``horizon_days`` after it starts.

    Keyword Args:
        identifier (str): 1 to 32 letters or digits; stops send it as ``serviceInfo.identifier``.
        name (str): Display name.
        activities (tuple[str, ...]): The stop activities it serves.
        depots (tuple[str, ...]): Bare ids of the depots it is offered at; empty: every depot.
        area_latitude (float | None): Latitude of its operating area's centre; None: it operates
            everywhere.
        area_longitude (float | None): Longitude of its operating area's centre.
        area_radius_km (float | None): Radius of its operating area, in kilometres.
        horizon_days (int): Days from the SLA start to its due date (``deliveryHorizon``).
        due_time (datetime.time | None): Time of day the SLA is due (``slaDueTime``); None: the whole
            day.
        price (float): Its price (``price.value``).
        currency (str): Its price's currency (ISO 4217).
    """

    identifier: str = attrs.field(
        validator=_service_identifier,
        metadata=described("1 to 32 letters or digits; stops send it as ``serviceInfo.identifier``."),
    )
    name: str = attrs.field(metadata=described("Display name."))
    activities: tuple[str, ...] = attrs.field(
        default=("delivery", "pickup"), metadata=described("The stop activities it serves.")
    )
    depots: tuple[str, ...] = attrs.field(
        default=(), metadata=described("Bare ids of the depots it is offered at; empty: every depot.")
    )
    area_latitude: float | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(_degrees(90)),
        metadata=described("Latitude of its operating area's centre; None: it operates everywhere."),
    )
    area_longitude: float | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(_degrees(180)),
        metadata=described("Longitude of its operating area's centre."),
    )
    area_radius_km: float | None = attrs.field(
        default=None, metadata=described("Radius of its operating area, in kilometres.")
    )
    horizon_days: int = attrs.field(
        default=1, metadata=described("Days from the SLA start to its due date (``deliveryHorizon``).")
    )
    due_time: datetime.time | None = attrs.field(
        default=None,
        metadata=described("Time of day the SLA is due (``slaDueTime``); None: the whole day."),
    )
    price: float = attrs.field(default=0.0, metadata=described("Its price (``price.value``)."))
    currency: str = attrs.field(default="GBP", metadata=described("Its price's currency (ISO 4217)."))


def _default_services() -> tuple[ServiceOfferingConfig, ...]:
    return (
        ServiceOfferingConfig(
            "NEXTDAY",
            "Next day delivery",
            activities=("delivery",),
            area_latitude=51.5074,
            area_longitude=-0.1278,
            area_radius_km=40.0,
            price=4.5,
        ),
    )


def _default_depots() -> tuple[DepotConfig, ...]:
    return (
        DepotConfig("main", "Main depot", 51.5074, -0.1278, "1 Example Street", zip="WC2N 5DU"),
        DepotConfig("north", "North depot", 51.5560, -0.1180, "2 Holloway Road", zip="N7 8JG"),
    )


def _default_drivers() -> tuple[DriverConfig, ...]:
    return (
        DriverConfig("driver-ana", "Ana", "ana@example.com", "+440000000001"),
        DriverConfig("driver-ben", "Ben", "ben@example.com", "+440000000002"),
        DriverConfig(
            "driver-cleo", "Cleo", "cleo@example.com", "+440000000003", start_time=datetime.time(7, 30)
        ),
        DriverConfig("driver-dan", "Dan", "dan@example.com", "+440000000004", max_stops=40),
        DriverConfig("driver-paused", "Pat", "pat@example.com", "+440000000005", active=False),
    )


def _default_properties() -> tuple[CustomStopPropertyConfig, ...]:
    return (
        CustomStopPropertyConfig("6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01", "Gate code"),
        CustomStopPropertyConfig("6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a02", "Floor", visible_to_recipients=True),
    )


def _at_most_three(
    instance: object,
    attribute: attrs.Attribute[tuple[CustomStopPropertyConfig, ...]],
    value: tuple[object, ...],
) -> None:
    if len(value) > 3:
        raise ValueError("a team has at most 3 custom stop properties (contract, Limits)")


def _some(
    instance: object, attribute: attrs.Attribute[tuple[DepotConfig, ...]], value: tuple[object, ...]
) -> None:
    if not value:
        raise ValueError("a team needs at least one depot (its main depot)")


@fields_documented(title="Attributes")
@attrs.frozen
class TeamConfig:
    """The emulated team: depots (the first is the main depot), drivers, custom stop properties,
    service offerings.

    Attributes:
        depots (tuple[DepotConfig, ...]): The team's depots; the first one is the main depot used when a
            plan names none.
        drivers (tuple[DriverConfig, ...]): The team's drivers.
        custom_stop_properties (tuple[CustomStopPropertyConfig, ...]): The team's custom stop property
            definitions.
        service_offerings (tuple[ServiceOfferingConfig, ...]): The services the team offers (v1's
            ``serviceInfo``): by default ``NEXTDAY``, deliveries within 40 km of central London.
        default_start_time (datetime.time): Route start for drivers without a ``start_time``.
        default_attempt_duration (float): Seconds spent at a stop whose ``estimatedAttemptDuration`` is
            null (the team default).
        timezone (str): IANA zone of the team; plan dates and times of day are read in it for ETAs.
        capacity_unit (WeightUnit | None): The team's vehicle capacity unit. None (the default) leaves
            capacity off, as a new team has it: a stop sent with a ``weight`` is then refused with 403
            ``vehicle_capacity_disabled`` (official schema). With a unit, a weight must be given in it
            (400 ``weight.unit`` otherwise).
    """

    depots: tuple[DepotConfig, ...] = attrs.field(
        factory=_default_depots,
        converter=tuple,
        validator=_some,
        metadata=described("The team's depots; the first one is the main depot used when a plan names none."),
    )
    drivers: tuple[DriverConfig, ...] = attrs.field(
        factory=_default_drivers, converter=tuple, metadata=described("The team's drivers.")
    )
    custom_stop_properties: tuple[CustomStopPropertyConfig, ...] = attrs.field(
        factory=_default_properties,
        converter=tuple,
        validator=_at_most_three,
        metadata=described("The team's custom stop property definitions."),
    )
    service_offerings: tuple[ServiceOfferingConfig, ...] = attrs.field(
        factory=_default_services,
        converter=tuple,
        metadata=described(
            "The services the team offers (v1's ``serviceInfo``): by default ``NEXTDAY``, deliveries "
            "within 40 km of central London."
        ),
    )
    default_start_time: datetime.time = attrs.field(
        default=datetime.time(9, 0), metadata=described("Route start for drivers without a ``start_time``.")
    )
    default_attempt_duration: float = attrs.field(
        default=120.0,
        metadata=described(
            "Seconds spent at a stop whose ``estimatedAttemptDuration`` is null (the team default)."
        ),
    )
    timezone: str = attrs.field(
        default="UTC",
        validator=_zone,
        metadata=described("IANA zone of the team; plan dates and times of day are read in it for ETAs."),
    )
    capacity_unit: WeightUnit | None = attrs.field(
        default=None,
        metadata=described(
            "The team's vehicle capacity unit. None (the default) leaves capacity off, as a new team "
            "has it: a stop sent with a ``weight`` is then refused with 403 "
            "``vehicle_capacity_disabled`` (official schema). With a unit, a weight must be given in it "
            "(400 ``weight.unit`` otherwise)."
        ),
    )

    @property
    def main_depot(self) -> DepotConfig:
        """The depot plans and unassigned stops get when they name none."""
        return self.depots[0]
