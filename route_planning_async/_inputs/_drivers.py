"""The bodies of a driver create, import and update (public API documentation:
POST /drivers, PATCH /drivers/<id>, POST /drivers:import; the contract has none),
the same in v0.2b and v1.

The same rules for the three, with e-mail and phone set on create and import
only. The driver's ``active`` flag is not part of any of these bodies. The
e-mail rule and the team's depots list serve v1's members too
(:func:`email_address`, :func:`team_depots`).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Final, TypedDict

import attrs

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import (
    UNSET,
    UnsetType,
    fail,
    instance_of,
    number,
    one_of,
    text,
    time_of_day,
)
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs._limits import MAX_DRIVER_DEPOTS, MAX_SAFE_INTEGER
from route_planning_async._inputs._nested import AddressInput

__all__ = [
    "DRIVING_SPEEDS",
    "VEHICLE_TYPE",
    "VEHICLE_TYPES",
    "DriverInput",
    "DriverUpdate",
    "DriverUpdateFields",
    "PersonFields",
    "RouteOverridesInput",
    "email_address",
    "team_depots",
]

DRIVING_SPEEDS: Final = frozenset({"slower", "average", "faster"})
VEHICLE_TYPES: Final = frozenset({"bike", "scooter", "car", "small_truck", "truck", "electric_cargo_bike"})
# The public API documentation's email pattern.
_EMAIL: Final = re.compile(
    r"(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}"
)


def email_address(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """An e-mail address of 1 to 255 characters, by the public API documentation's pattern."""
    text(1, 255)(instance, attribute, value)
    if isinstance(value, str) and _EMAIL.fullmatch(value) is None:
        fail(attribute.name, f"must be an e-mail address, got {value!r}")


def team_depots(value: Iterable[str] | UnsetType | None) -> list[str] | UnsetType | None:
    """The ``depots`` of a driver or member: 1 to 50 ``depots/<id>`` (bare ids accepted)."""
    if value is None or isinstance(value, UnsetType):
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        fail("depots", f"must be a list of depot references, got {type(value).__name__}")
    # The service ignores duplicates, so they are dropped before counting.
    refs = list(dict.fromkeys(_ids.depot_ref(item, f"depots[{i}]") for i, item in enumerate(value)))
    if not 1 <= len(refs) <= MAX_DRIVER_DEPOTS:
        fail("depots", f"must have 1 to {MAX_DRIVER_DEPOTS} depots (or be None), got {len(refs)}")
    return refs


VEHICLE_TYPE: Final = attrs.field(
    default=UNSET,
    validator=one_of(VEHICLE_TYPES),
    metadata=described(
        "``bike``, ``scooter``, ``car``, ``small_truck``, ``truck`` or ``electric_cargo_bike``."
    ),
)
"""The ``vehicle_type`` field of every route overrides input (a driver's, a plan's, a depot's)."""

_SPEED: Final = described(
    "``slower``, ``average`` (the service's default) or ``faster`` than the team's average."
)


@fields_documented
@attrs.frozen(kw_only=True)
class RouteOverridesInput:
    """Settings that override the route defaults for one driver.

    Keyword Args:
        start_address (AddressInput | None): Where every route of the driver starts.
        end_address (AddressInput | None): Where every route of the driver ends.
        start_time (datetime.time | None): When the driver's work day starts (hour and minute only).
        end_time (datetime.time | None): When the driver's work day ends (hour and minute only).
        max_stops (int | None): Most stops allocated to the driver, at least 0.
        driving_speed (str | None): ``slower``, ``average`` (the service's default) or ``faster`` than
            the team's average.
        delivery_speed (str | None): ``slower``, ``average`` (the service's default) or ``faster`` than
            the team's average.
        vehicle_type (str | None): ``bike``, ``scooter``, ``car``, ``small_truck``, ``truck`` or
            ``electric_cargo_bike``.
    """

    _PATH: ClassVar[str] = "route_overrides."

    start_address: AddressInput | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(AddressInput),
        metadata=described("Where every route of the driver starts."),
    )
    end_address: AddressInput | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(AddressInput),
        metadata=described("Where every route of the driver ends."),
    )
    start_time: datetime.time | UnsetType | None = attrs.field(
        default=UNSET,
        validator=time_of_day,
        metadata=described("When the driver's work day starts (hour and minute only)."),
    )
    end_time: datetime.time | UnsetType | None = attrs.field(
        default=UNSET,
        validator=time_of_day,
        metadata=described("When the driver's work day ends (hour and minute only)."),
    )
    max_stops: int | UnsetType | None = attrs.field(
        default=UNSET,
        validator=number(0, MAX_SAFE_INTEGER, integer=True),
        metadata=described("Most stops allocated to the driver, at least 0."),
    )
    driving_speed: str | UnsetType | None = attrs.field(
        default=UNSET, validator=one_of(DRIVING_SPEEDS), metadata=_SPEED
    )
    delivery_speed: str | UnsetType | None = attrs.field(
        default=UNSET, validator=one_of(DRIVING_SPEEDS), metadata=_SPEED
    )
    vehicle_type: str | UnsetType | None = VEHICLE_TYPE


@attrs.frozen(kw_only=True)
class PersonFields:
    """The fields of every body of a person of the team: a driver's, a v1 member's."""

    name: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("Full name, 1 to 255 characters.")
    )
    display_name: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 255),
        metadata=described("Name shown in the apps, 1 to 255 characters."),
    )
    depots: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=team_depots,
        metadata=described(
            """1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped); None: the
            team's main depot; not given: the main depot on a create, unchanged on an update."""
        ),
    )


@attrs.frozen(kw_only=True)
class _DriverFields(PersonFields):
    """The fields of every driver body."""

    route_overrides: RouteOverridesInput | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(RouteOverridesInput),
        metadata=described("Settings that override the route defaults for this driver."),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class DriverInput(_DriverFields):
    """The body of a driver create or batch import entry. The driver's e-mail or
    phone identifies it (``drivers.import_many`` uses it as the natural key).

    Keyword Args:
        name (str | None): Full name, 1 to 255 characters.
        display_name (str | None): Name shown in the apps, 1 to 255 characters.
        depots (list[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped);
            None: the team's main depot; not given: the main depot on a create, unchanged on an update.
        route_overrides (RouteOverridesInput | None): Settings that override the route defaults for this
            driver.
        email (str | None): E-mail address, 1 to 255 characters; set on create and import only.
        phone (str | None): Phone number, 1 to 255 characters; set on create and import only.
    """

    email: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=email_address,
        metadata=described("E-mail address, 1 to 255 characters; set on create and import only."),
    )
    phone: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 255),
        metadata=described("Phone number, 1 to 255 characters; set on create and import only."),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class DriverUpdate(_DriverFields):
    """The body of a driver PATCH: only the fields given are changed; ``depots``
    and ``route_overrides`` are replaced whole. E-mail and phone cannot be changed.

    Keyword Args:
        name (str | None): Full name, 1 to 255 characters.
        display_name (str | None): Name shown in the apps, 1 to 255 characters.
        depots (list[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped);
            None: the team's main depot; not given: the main depot on a create, unchanged on an update.
        route_overrides (RouteOverridesInput | None): Settings that override the route defaults for this
            driver.
    """


class DriverUpdateFields(TypedDict, total=False):
    """The fields of :class:`DriverUpdate` as keyword arguments (``update(driver_id, name=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    name: str | None
    display_name: str | None
    depots: Sequence[str] | None
    route_overrides: RouteOverridesInput | None
