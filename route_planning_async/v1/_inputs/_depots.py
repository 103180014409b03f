"""The bodies of a depot create, import and update (v1: ``POST /depots``,
``POST /depots:import``, ``PATCH /depots/<id>``)."""

from __future__ import annotations

import datetime
from typing import ClassVar, Final, TypedDict

import attrs

from route_planning_async._checks._validators import (
    UNSET,
    UnsetType,
    absent,
    fail,
    instance_of,
    number,
    one_of,
    text,
    time_of_day,
)
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs import VEHICLE_TYPE, AddressInput
from route_planning_async.v1._inputs._limits import MAX_DEPOT_NAME

__all__ = ["ROAD_SIDES", "DepotInput", "DepotRouteOverridesInput", "DepotUpdate", "DepotUpdateFields"]

ROAD_SIDES: Final = frozenset({"any", "left_only", "right_only"})
"""The values of a depot's ``routeOverrides.roadSide``."""

_NAME: Final = described(
    "The depot's name, 1 to 2048 characters; ``depots.import_many`` uses it as the natural key."
)


@fields_documented
@attrs.frozen(kw_only=True)
class DepotRouteOverridesInput:
    """The defaults of the routes that start at a depot. A create needs ``start_address``
    and ``start_time``; an update replaces the whole object.

    Keyword Args:
        start_address (AddressInput): Where the routes start (the depot's address); required on a
            create.
        start_time (datetime.time): When the routes start (hour and minute only); required on a create.
        end_address (AddressInput | None): Where the routes end.
        end_time (datetime.time | None): When the routes end (hour and minute only).
        default_time_at_stop (float | None): The estimated time at each stop, 0 or more.
        max_stops (int | None): Most stops per driver, 0 or more.
        vehicle_type (str | None): ``bike``, ``scooter``, ``car``, ``small_truck``, ``truck`` or
            ``electric_cargo_bike``.
        road_side (str | None): Visit stops on this side of the road: ``any``, ``left_only`` or
            ``right_only``.
        round_trip (bool | None): Return to the start address at the end of the route.
    """

    _PATH: ClassVar[str] = "route_overrides."

    start_address: AddressInput | UnsetType = attrs.field(
        default=UNSET,
        validator=instance_of(AddressInput, nullable=False),
        metadata=described("Where the routes start (the depot's address); required on a create."),
    )
    start_time: datetime.time | UnsetType = attrs.field(
        default=UNSET,
        validator=time_of_day,
        metadata=described("When the routes start (hour and minute only); required on a create."),
    )
    end_address: AddressInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(AddressInput), metadata=described("Where the routes end.")
    )
    end_time: datetime.time | UnsetType | None = attrs.field(
        default=UNSET,
        validator=time_of_day,
        metadata=described("When the routes end (hour and minute only)."),
    )
    default_time_at_stop: float | UnsetType | None = attrs.field(
        default=UNSET,
        validator=number(0),
        metadata=described("The estimated time at each stop, 0 or more."),
    )
    max_stops: int | UnsetType | None = attrs.field(
        default=UNSET,
        validator=number(0, integer=True),
        metadata=described("Most stops per driver, 0 or more."),
    )
    vehicle_type: str | UnsetType | None = VEHICLE_TYPE
    road_side: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(ROAD_SIDES),
        metadata=described("Visit stops on this side of the road: ``any``, ``left_only`` or ``right_only``."),
    )
    round_trip: bool | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(bool),
        metadata=described("Return to the start address at the end of the route."),
    )

    def __attrs_post_init__(self) -> None:
        if self.start_time is None:
            fail("route_overrides.start_time", "must not be None (leave it out to keep the depot's)")


@fields_documented
@attrs.frozen(kw_only=True)
class DepotInput:
    """The body of a depot create or batch import entry. Its name identifies it
    (``depots.import_many`` uses it as the natural key).

    Keyword Args:
        name (str): The depot's name, 1 to 2048 characters; ``depots.import_many`` uses it as the
            natural key.
        route_overrides (DepotRouteOverridesInput): The defaults of the depot's routes;
            ``start_address`` and ``start_time`` required.
    """

    name: str = attrs.field(validator=text(1, MAX_DEPOT_NAME, nullable=False), metadata=_NAME)
    route_overrides: DepotRouteOverridesInput = attrs.field(
        validator=instance_of(DepotRouteOverridesInput, nullable=False),
        metadata=described(
            "The defaults of the depot's routes; ``start_address`` and ``start_time`` required."
        ),
    )

    def __attrs_post_init__(self) -> None:
        for field in ("start_address", "start_time"):
            if absent(getattr(self.route_overrides, field)):
                fail(f"route_overrides.{field}", "is required when a depot is created")


@fields_documented
@attrs.frozen(kw_only=True)
class DepotUpdate:
    """The body of a depot PATCH: only the fields given are changed; ``route_overrides``
    is replaced whole.

    Keyword Args:
        name (str): 1 to 2048 characters.
        route_overrides (DepotRouteOverridesInput): The defaults of the depot's routes; replaces the
            whole object.
    """

    name: str | UnsetType = attrs.field(
        default=UNSET,
        validator=text(1, MAX_DEPOT_NAME, nullable=False),
        metadata=described("1 to 2048 characters."),
    )
    route_overrides: DepotRouteOverridesInput | UnsetType = attrs.field(
        default=UNSET,
        validator=instance_of(DepotRouteOverridesInput, nullable=False),
        metadata=described("The defaults of the depot's routes; replaces the whole object."),
    )


class DepotUpdateFields(TypedDict, total=False):
    """The fields of :class:`DepotUpdate` as keyword arguments (``update(depot_id, name=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    name: str
    route_overrides: DepotRouteOverridesInput
