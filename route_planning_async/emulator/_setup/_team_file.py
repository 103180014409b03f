"""A team file: the emulated team (and its limits) as TOML or JSON, read without Python.

``route-planning emulator --team FILE`` and ``python -m route_planning_async.emulator --team
FILE`` read it with :func:`read_team_file`, whose docstring is the format.
"""

from __future__ import annotations

import datetime
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import ConfigurationError
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async._rate_limits._limits_file import limits_from_data, load_data, read_limits_file
from route_planning_async.emulator._setup._team import (
    CustomStopPropertyConfig,
    DepotConfig,
    DriverConfig,
    ServiceOfferingConfig,
    TeamConfig,
)

__all__ = ["TEAM_FILE_HELP", "TeamFile", "read_limits", "read_team_file"]

TEAM_FILE_HELP = (
    "a TOML (or .json) file of the team to emulate: depots with their addresses, drivers, custom "
    "stop properties and limits (format: the emulator docs, 'Team file', or "
    "help(route_planning_async.emulator.read_team_file)); '-' reads stdin."
)
"""The ``--team`` option's help."""


@fields_documented(title="Attributes")
@attrs.frozen
class TeamFile:
    """What a team file sets: the team, and the limits when it has a ``limits`` table.

    Attributes:
        team (TeamConfig): The team, the sections left out taken from the seed data.
        limits (RateLimits | None): The contract's limits with the categories the file names replaced;
            None without ``limits``.
    """

    team: TeamConfig = attrs.field(
        metadata=described("The team, the sections left out taken from the seed data.")
    )
    limits: RateLimits | None = attrs.field(
        metadata=described(
            "The contract's limits with the categories the file names replaced; None without ``limits``."
        )
    )


_SECTIONS: dict[str, type[Any]] = {
    "depots": DepotConfig,
    "drivers": DriverConfig,
    "custom_stop_properties": CustomStopPropertyConfig,
    "service_offerings": ServiceOfferingConfig,
}
_TEAM_SCALARS = ("timezone", "default_start_time", "default_attempt_duration", "capacity_unit")


class _Wrong(Exception):
    """A value that does not fit, said in words (caught and given its place)."""


def _time(value: object) -> datetime.time:
    if not isinstance(value, str | datetime.time):
        raise _Wrong(f"expected a time of day as 'HH:MM', got {value!r}")
    if isinstance(value, datetime.time):
        return value
    try:
        return datetime.time.fromisoformat(value)
    except ValueError:
        raise _Wrong(f"expected a time of day as 'HH:MM', got {value!r}") from None


_TOO_LARGE = 10**15
"""The smallest integer a team file's number may not reach."""


def _convert(hint: Any, value: object) -> object:
    """``value`` as the field type ``hint`` (str, float, int, bool, time, tuple of str, Literal, X | None)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        (inner,) = (option for option in options if option is not type(None))
        return _convert(inner, value)
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            names = ", ".join(repr(choice) for choice in typing.get_args(hint))
            raise _Wrong(f"expected one of {names}, got {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
            raise _Wrong(f"expected a list of strings, got {value!r}")
        return tuple(value)
    if hint is datetime.time:
        return _time(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise _Wrong(f"expected true or false, got {value!r}")
        return value
    if hint in (float, int):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (hint is int and isinstance(value, float))
        ):
            raise _Wrong(f"expected {'an integer' if hint is int else 'a number'}, got {value!r}")
        if isinstance(value, int) and abs(value) >= _TOO_LARGE:
            # No count, capacity or coordinate of a team comes near; beyond a float's range
            # it would be an OverflowError later.
            raise _Wrong(f"expected a number below 10^15, got one of {len(str(abs(value)))} digits")
        return float(value) if hint is float else value
    if hint is str and not isinstance(value, str):
        raise _Wrong(f"expected a string, got {value!r}")
    return value


def _at(file: str, place: str) -> str:
    """Where something is: ``team.toml: drivers[0].email``, or ``team.toml`` for the top."""
    return f"{file}: {place}" if place else file


def _key(place: str, key: object) -> str:
    """The place of ``key`` in the table at ``place``."""
    return f"{place}.{key}" if place else str(key)


def _fields(
    cls: type[Any], file: str, place: str, data: object, skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The keyword arguments of ``cls`` from a table, each checked against the field's type."""
    where = _at(file, place)
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"{where}: expected a table, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    known = [field.name for field in attrs.fields(cls) if field.name not in skip]
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigurationError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(known)})")
    missing = [
        field.name
        for field in attrs.fields(cls)
        if field.default is attrs.NOTHING and field.name not in data and field.name not in skip
    ]
    if missing:
        raise ConfigurationError(f"{where}: {', '.join(missing)} missing")
    converted = {}
    for key, value in data.items():
        try:
            converted[key] = _convert(hints[key], value)
        except _Wrong as exc:
            raise ConfigurationError(f"{_at(file, _key(place, key))}: {exc}") from None
    return converted


def _made(cls: type[Any], file: str, place: str, kwargs: dict[str, Any]) -> Any:
    """``cls(**kwargs)``; a value its validators refuse is named by its place in the file (a
    validator's message that starts with ``<key>: `` names the key)."""
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as exc:
        key, colon, rule = str(exc).partition(": ")
        if colon and key in kwargs:
            raise ConfigurationError(f"{_at(file, _key(place, key))}: {rule}") from None
        raise ConfigurationError(f"{_at(file, place)}: {exc}") from None


def _name(path: Path) -> str:
    """The file as messages name it: ``stdin`` for ``-``."""
    return "stdin" if str(path) == "-" else str(path)


def read_limits(path: Path) -> RateLimits:
    """The limits of a limits file (the format of the command line's ``--limits FILE``, which a
    team file's ``limits`` table shares; ``-``: standard input); a :class:`ConfigurationError`
    naming what is wrong."""
    return read_limits_file(path, _name(path))


def read_team_file(path: str | Path) -> TeamFile:
    """The team (and limits) a team file describes.

    A ``.json`` file is read as JSON, any other as TOML; ``-`` reads standard input (JSON, else
    TOML). Every key is optional: a section left
    out keeps the emulator's seed data (its depots, drivers or custom stop properties), and
    ``limits`` categories left out keep the contract's rules. At the top: ``timezone``,
    ``default_start_time``, ``default_attempt_duration`` and ``capacity_unit`` (the fields of
    :class:`TeamConfig`); then lists of tables ``depots`` (the first is the main depot),
    ``drivers``, ``custom_stop_properties`` (at most 3) and ``service_offerings`` (v1's
    ``serviceInfo``), whose keys are the fields of :class:`DepotConfig`,
    :class:`DriverConfig`, :class:`CustomStopPropertyConfig` and
    :class:`ServiceOfferingConfig`; times of
    day are ``"HH:MM"``. A driver without ``email`` and ``phone`` has no contact details. The
    table ``limits`` holds the limits the emulator enforces, in the format of a limits file (the
    command line's ``--limits FILE``: ``route-planning emulator --help`` shows it).
    An example is ``docs/team.toml`` (shown in the emulator docs, "Team file").

    Args:
        path: The team file.

    Returns:
        The team, and the limits when the file has a ``limits`` table.

    Raises:
        ConfigurationError: The file cannot be read or parsed, or a key is unknown, missing or
            of the wrong type or value; the message names the file, the key and what is wrong.
    """
    path = Path(path)
    file = _name(path)
    data = load_data(path, file)
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"{file}: expected a table at the top, got {type(data).__name__}")
    unknown = sorted(set(data) - {*_SECTIONS, *_TEAM_SCALARS, "limits"})
    if unknown:
        known = ", ".join((*_SECTIONS, *_TEAM_SCALARS, "limits"))
        raise ConfigurationError(f"{file}: unknown key(s) {', '.join(unknown)} (known: {known})")
    skip = tuple(
        name for name in (field.name for field in attrs.fields(TeamConfig)) if name not in _TEAM_SCALARS
    )
    team_fields: dict[str, Any] = _fields(
        TeamConfig, file, "", {k: data[k] for k in _TEAM_SCALARS if k in data}, skip
    )
    for section, cls in _SECTIONS.items():
        if section not in data:
            continue
        items = data[section]
        if not isinstance(items, list):
            raise ConfigurationError(
                f"{file}: {section}: expected a list of tables, got {type(items).__name__}"
            )
        made = []
        for index, item in enumerate(items):
            place = f"{section}[{index}]"
            made.append(_made(cls, file, place, _fields(cls, file, place, item)))
        team_fields[section] = tuple(made)
    team = _made(TeamConfig, file, "", team_fields)
    _check_references(file, team)
    limits = limits_from_data(data["limits"], file, "limits") if "limits" in data else None
    return TeamFile(team, limits)


def _check_references(file: str, team: TeamConfig) -> None:
    """Drivers name depots of the team, and ids are not repeated."""
    depots = [depot.id for depot in team.depots]
    properties = [prop.id for prop in team.custom_stop_properties]
    for section, ids in (
        ("depots", depots),
        ("drivers", [driver.id for driver in team.drivers]),
        ("custom_stop_properties", properties),
    ):
        repeated = sorted({one for one in ids if ids.count(one) > 1})
        if repeated:
            raise ConfigurationError(f"{file}: {section}: id(s) {', '.join(repeated)} given more than once")
    for index, driver in enumerate(team.drivers):
        for depot in driver.depots:
            if depot not in depots:
                raise ConfigurationError(
                    f"{file}: drivers[{index}].depots: no depot {depot!r} (depots: {', '.join(depots)})"
                )
