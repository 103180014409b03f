"""The values the v1 document names for the enumerated fields that are v1's own.

A model keeps an enumerated value as the ``str`` it came as, known or not; these
``StrEnum`` classes name the known ones, for comparisons
(``stop.eta.status == InfoStatus.AVAILABLE``). The enumerations both versions share
(``Activity``, ``DeliveryState`` ...) are in ``route_planning_async/_models/_enums.py``.
"""

from __future__ import annotations

import enum

__all__ = [
    "DeliveryHorizonUnit",
    "InfoStatus",
    "MemberRole",
    "OptimizationObjective",
    "OptimizationSubObjective",
    "RelativeSpeed",
    "RoadSide",
    "VehicleType",
]


class InfoStatus(enum.StrEnum):
    """Known values of the ``status`` of a stop's ``eta``, ``timeAtStopInfo`` and ``serviceInfo``.

    Attributes:
        AVAILABLE: The value is there (``value``).
        RESTRICTED: The team's subscription does not include it (``required_feature``, ``upgrade_url``).
        PENDING: Not known yet (``eta``: the plan is not optimized; ``timeAtStopInfo``: not arrived
            yet).
        EMPTY: ``serviceInfo`` only: the stop has no service.
    """

    AVAILABLE = "available"
    """The value is there (``value``)."""
    RESTRICTED = "restricted"
    """The team's subscription does not include it (``required_feature``, ``upgrade_url``)."""
    PENDING = "pending"
    """Not known yet (``eta``: the plan is not optimized; ``timeAtStopInfo``: not arrived yet)."""
    EMPTY = "empty"
    """``serviceInfo`` only: the stop has no service."""


class MemberRole(enum.StrEnum):
    """Known values of a member's ``roles``.

    Attributes:
        OWNER: Owns the team.
        ADMIN: Administers the team.
        DEPOT_MANAGER: Manages the member's depots.
        DISPATCHER: Plans and dispatches routes.
        READ_ONLY: Sees, changes nothing.
        DRIVER: Drives routes.
    """

    OWNER = "owner"
    """Owns the team."""
    ADMIN = "admin"
    """Administers the team."""
    DEPOT_MANAGER = "depot-manager"
    """Manages the member's depots."""
    DISPATCHER = "dispatcher"
    """Plans and dispatches routes."""
    READ_ONLY = "read-only"
    """Sees, changes nothing."""
    DRIVER = "driver"
    """Drives routes."""


class VehicleType(enum.StrEnum):
    """Known values of a ``vehicleType``.

    Attributes:
        BIKE: A bicycle.
        SCOOTER: A scooter.
        CAR: A car.
        SMALL_TRUCK: A small truck.
        TRUCK: A truck.
        ELECTRIC_CARGO_BIKE: An electric cargo bike.
    """

    BIKE = "bike"
    """A bicycle."""
    SCOOTER = "scooter"
    """A scooter."""
    CAR = "car"
    """A car."""
    SMALL_TRUCK = "small_truck"
    """A small truck."""
    TRUCK = "truck"
    """A truck."""
    ELECTRIC_CARGO_BIKE = "electric_cargo_bike"
    """An electric cargo bike."""


class RelativeSpeed(enum.StrEnum):
    """Known values of a ``drivingSpeed`` and a ``deliverySpeed``.

    Attributes:
        SLOWER: Slower than others.
        AVERAGE: As others.
        FASTER: Faster than others.
    """

    SLOWER = "slower"
    """Slower than others."""
    AVERAGE = "average"
    """As others."""
    FASTER = "faster"
    """Faster than others."""


class RoadSide(enum.StrEnum):
    """Known values of a depot's ``roadSide``.

    Attributes:
        ANY: Either side of the road.
        LEFT_ONLY: The left side only.
        RIGHT_ONLY: The right side only.
    """

    ANY = "any"
    """Either side of the road."""
    LEFT_ONLY = "left_only"
    """The left side only."""
    RIGHT_ONLY = "right_only"
    """The right side only."""


class OptimizationObjective(enum.StrEnum):
    """Known values of a plan's ``optimizationSettings.objective``.

    Attributes:
        MINIMIZE_DRIVERS: Use as few drivers as possible.
        DISTRIBUTE_SERVICES: Spread the stops over the drivers.
    """

    MINIMIZE_DRIVERS = "minimize_drivers"
    """Use as few drivers as possible."""
    DISTRIBUTE_SERVICES = "distribute_services"
    """Spread the stops over the drivers."""


class OptimizationSubObjective(enum.StrEnum):
    """Known values of a plan's ``optimizationSettings.subObjective``.

    Attributes:
        EQUALIZE_WORKLOAD: Give each driver a like number of stops.
        EQUALIZE_TIME: Give each driver a like working time.
        MAXIMIZE_EFFICIENCY: The shortest routes in all.
    """

    EQUALIZE_WORKLOAD = "equalize_workload"
    """Give each driver a like number of stops."""
    EQUALIZE_TIME = "equalize_time"
    """Give each driver a like working time."""
    MAXIMIZE_EFFICIENCY = "maximize_efficiency"
    """The shortest routes in all."""


class DeliveryHorizonUnit(enum.StrEnum):
    """Known values of ``serviceInfo.value.deliveryHorizon.unit``.

    Attributes:
        DAYS: Days.
        HOURS: Hours.
    """

    DAYS = "days"
    """Days."""
    HOURS = "hours"
    """Hours."""
