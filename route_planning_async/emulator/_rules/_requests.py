"""Request rules every API version shares: plan, re-optimization and driver bodies, list queries.

Written from the contract's field tables (Stops in a plan: stop body fields;
Plans; Limits), with the official schemas' names and bounds where they have them
(``weight``, ``paymentOnDelivery``, 200 barcodes, an integer
``estimatedAttemptDuration``, string lengths: 1..255, and 1..100 for city, state,
zip and country) and, for what the contract does not show (drivers, the
re-optimization body, the operation list), from the public OpenAPI documents.
The stop bodies' rules are in ``_stop_requests.py``.
Every function takes the decoded JSON and the dotted ``param`` path of where it
sits, and returns the value in normalized form or raises a 400 naming the param.
"""

from __future__ import annotations

import datetime
import re
from typing import Any, Final, Literal

from route_planning_async.emulator._rules._pages import FilterParser, ListSpec
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._rules._validation import (
    MAX_SAFE_INTEGER,
    array_of,
    check_keys,
    choice,
    expect_object,
    integer,
    join,
    number,
    required,
    string,
)

__all__ = [
    "ADDRESS_FIELDS",
    "DEPOTS_LIST",
    "DRIVERS_LIST",
    "EMAIL",
    "EXTERNAL_ID_FILTER",
    "OPERATIONS_LIST",
    "OVERRIDE_FIELDS",
    "PLANS_LIST",
    "REOPTIMIZATION_TYPES",
    "STOPS_LIST",
    "UNASSIGNED_LIST",
    "VEHICLES",
    "address_fields",
    "date",
    "reference",
    "route_overrides",
    "time_of_day",
    "validate_driver_body",
    "validate_plan_body",
    "validate_reoptimize_body",
]

_REFERENCE = {
    "drivers": re.compile(r"drivers/([A-Za-z0-9_-]{1,50})"),
    "depots": re.compile(r"depots/([A-Za-z0-9_-]{1,50})"),
}

ADDRESS_FIELDS: Final = {
    "addressName": 255,
    "addressLineOne": 255,
    "addressLineTwo": 255,
    "city": 100,
    "state": 100,
    "zip": 100,
    "country": 100,
}
"""The text fields of a sent address, with their longest length (official schema)."""


def reference(value: object, path: str, collection: Literal["drivers", "depots"]) -> str:
    """The bare id of a ``drivers/<id>`` or ``depots/<id>`` reference."""
    match = _REFERENCE[collection].fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise Problem.invalid(
            path, f"must be '{collection}/<id>' with an id of 1 to 50 [A-Za-z0-9_-], got {value!r}"
        )
    return match.group(1)


def _driver_reference(value: object, path: str) -> str:
    return reference(value, path, "drivers")


def _depot_reference(value: object, path: str) -> str:
    return reference(value, path, "depots")


def time_of_day(value: object, path: str) -> dict[str, int]:
    """TimeOfDay ``{hour: 0..23, minute: 0..59}`` (contract, Driver)."""
    obj = expect_object(value, path)
    check_keys(obj, ("hour", "minute"), path, True)
    required(obj, ("hour", "minute"), path)
    return {
        "hour": integer(obj["hour"], join(path, "hour"), minimum=0, maximum=23),
        "minute": integer(obj["minute"], join(path, "minute"), minimum=0, maximum=59),
    }


def date(value: object, path: str, earliest: datetime.date, latest: datetime.date) -> datetime.date:
    """Date ``{day, month, year}``: a real calendar day within the accepted range."""
    obj = expect_object(value, path)
    check_keys(obj, ("day", "month", "year"), path, True)
    required(obj, ("day", "month", "year"), path)
    day = integer(obj["day"], join(path, "day"), minimum=1, maximum=31)
    month = integer(obj["month"], join(path, "month"), minimum=1, maximum=12)
    year = integer(obj["year"], join(path, "year"), minimum=1, maximum=9999)
    try:
        result = datetime.date(year, month, day)
    except ValueError:
        raise Problem.invalid(path, f"is not a calendar date: {year}-{month:02}-{day:02}") from None
    if not earliest <= result <= latest:
        raise Problem.invalid(path, f"must be between {earliest.isoformat()} and {latest.isoformat()}")
    return result


def address_fields(value: object, path: str, strict: bool) -> dict[str, Any]:
    """The fields of a sent address (a stop's, or a driver's start or end), each checked."""
    obj = expect_object(value, path)
    check_keys(obj, (*ADDRESS_FIELDS, "latitude", "longitude"), path, strict)
    result: dict[str, Any] = {}
    for key, max_len in ADDRESS_FIELDS.items():
        if obj.get(key) is not None:
            result[key] = string(obj[key], join(path, key), max_len=max_len)
    for key, bound in (("latitude", 90), ("longitude", 180)):
        if obj.get(key) is not None:
            result[key] = number(obj[key], join(path, key), minimum=-bound, maximum=bound)
    return result


# ------------------------------------------------------------------ plans


def validate_plan_body(
    value: object,
    *,
    partial: bool,
    earliest: datetime.date,
    latest: datetime.date,
    strict: bool = True,
    with_overrides: bool = False,
) -> dict[str, Any]:
    """A plan create (``partial=False``) or PATCH body; drivers and depot as bare ids.

    ``with_overrides`` (v1) takes the plan's ``routeOverrides`` too: a driver's, with
    ``optimizationSettings``.
    """
    obj = expect_object(value, "")
    keys = ("title", "starts", "drivers", "depot")
    check_keys(obj, (*keys, "routeOverrides") if with_overrides else keys, "", strict)
    out: dict[str, Any] = {}
    if not partial:
        required(obj, ("title", "starts"), "")
    if "title" in obj:
        out["title"] = string(obj["title"], "title")
    if "starts" in obj:
        out["starts"] = date(obj["starts"], "starts", earliest, latest)
    if "drivers" in obj:
        refs = array_of(obj["drivers"], "drivers", _driver_reference, max_items=50)
        # "duplicates ignored" (Plans, POST /plans).
        out["drivers"] = list(dict.fromkeys(refs))
    if "depot" in obj:
        out["depot"] = None if obj["depot"] is None else reference(obj["depot"], "depot", "depots")
    if with_overrides and "routeOverrides" in obj:
        out["routeOverrides"] = _plan_overrides(obj["routeOverrides"], strict)
    return out


_OBJECTIVES = ("distribute_services",)
_SUB_OBJECTIVES = ("equalize_workload", "equalize_time", "maximize_efficiency")


def _plan_overrides(value: object, strict: bool) -> dict[str, Any] | None:
    """A plan's ``routeOverrides``: a driver's, with ``optimizationSettings`` (v1)."""
    if value is None:
        return None
    obj = dict(expect_object(value, "routeOverrides"))
    settings = obj.pop("optimizationSettings", None)
    checked = route_overrides(obj, "routeOverrides", strict, strict) or {}
    if settings is not None:
        path = "routeOverrides.optimizationSettings"
        given = expect_object(settings, path)
        check_keys(given, ("objective", "subObjective"), path, strict)
        checked["optimizationSettings"] = {
            key: choice(given[key], join(path, key), choices)
            for key, choices in (("objective", _OBJECTIVES), ("subObjective", _SUB_OBJECTIVES))
            if given.get(key) is not None
        }
    return checked


REOPTIMIZATION_TYPES = ("reorder_changed_stops", "reorder_all_stops", "redistribute_stops_between_drivers")
"""The ``optimizationType`` values of ``:reoptimize``; the first is the default."""


def validate_reoptimize_body(value: object, *, strict: bool = True) -> str:
    """The ``{optimizationType}`` body of ``:reoptimize``, when one is sent (public OpenAPI
    document): an object, whose ``optimizationType`` is one of the types when present (the
    schema allows no null, neither for the body nor for the type)."""
    obj = expect_object(value, "")
    check_keys(obj, ("optimizationType",), "", strict)
    if "optimizationType" not in obj:
        return REOPTIMIZATION_TYPES[0]
    return choice(obj["optimizationType"], "optimizationType", REOPTIMIZATION_TYPES)


# ---------------------------------------------------------------- drivers

# Body fields of the public OpenAPI document (additionalProperties: false).
_DRIVER_CREATE = ("name", "displayName", "email", "phone", "depots", "routeOverrides")
_DRIVER_UPDATE = ("name", "displayName", "depots", "routeOverrides")
OVERRIDE_FIELDS = (
    "startAddress",
    "endAddress",
    "startTime",
    "endTime",
    "maxStops",
    "drivingSpeed",
    "deliverySpeed",
    "vehicleType",
)
"""The fields of a driver's (and a v1 plan's) ``routeOverrides``."""
_SPEEDS = ("slower", "average", "faster")
VEHICLES = ("bike", "scooter", "car", "small_truck", "truck", "electric_cargo_bike")
EMAIL = re.compile(
    r"(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}"
)


def route_overrides(value: object, path: str, strict: bool, strict_keys: bool) -> dict[str, Any] | None:
    """A driver's (or v1 plan's) ``routeOverrides``: only the keys present, each checked.

    ``strict_keys`` refuses keys of its own it does not know: a plan's object is closed in the
    official schemas, a driver's open (there its unknown keys are dropped, unless
    ``strict_inputs``); ``strict`` is for the closed objects inside.
    """
    if value is None:
        return None
    obj = expect_object(value, path)
    check_keys(obj, OVERRIDE_FIELDS, path, strict_keys)
    result: dict[str, Any] = {}
    for key in ("startAddress", "endAddress"):
        if key in obj:
            result[key] = None if obj[key] is None else address_fields(obj[key], join(path, key), strict)
    for key in ("startTime", "endTime"):
        if key in obj:
            result[key] = None if obj[key] is None else time_of_day(obj[key], join(path, key))
    if obj.get("maxStops") is not None:
        result["maxStops"] = integer(
            obj["maxStops"], join(path, "maxStops"), minimum=0, maximum=MAX_SAFE_INTEGER
        )
    for key in ("drivingSpeed", "deliverySpeed"):
        if obj.get(key) is not None:
            result[key] = choice(obj[key], join(path, key), _SPEEDS)
    if obj.get("vehicleType") is not None:
        result["vehicleType"] = choice(obj["vehicleType"], join(path, "vehicleType"), VEHICLES)
    return result


def validate_driver_body(
    value: object, path: str = "", *, partial: bool, strict: bool, strict_inputs: bool = False
) -> dict[str, Any]:
    """The fields of a driver create (``partial=False``) or PATCH body, checked (400 otherwise);
    ``strict_inputs`` refuses unknown keys in its open ``routeOverrides``."""
    obj = expect_object(value, path)
    check_keys(obj, _DRIVER_UPDATE if partial else _DRIVER_CREATE, path, strict)
    fields: dict[str, Any] = {}
    for key in ("name", "displayName", "phone"):
        if key in obj and (key != "phone" or not partial):
            fields[key] = None if obj[key] is None else string(obj[key], join(path, key))
    if not partial and obj.get("email") is not None:
        email = string(obj["email"], join(path, "email"))
        if EMAIL.fullmatch(email) is None:
            raise Problem.invalid(join(path, "email"), f"must be an e-mail address, got {email!r}")
        fields["email"] = email
    if "depots" in obj:
        depots = obj["depots"]
        if depots is not None:
            refs = array_of(depots, join(path, "depots"), _depot_reference, min_items=1, max_items=50)
            # "duplicates will be ignored" (public OpenAPI document).
            depots = list(dict.fromkeys(refs))
        fields["depots"] = depots
    if "routeOverrides" in obj:
        sub = join(path, "routeOverrides")
        fields["routeOverrides"] = route_overrides(obj["routeOverrides"], sub, strict, strict_inputs)
    return fields


# ------------------------------------------------------------------ lists


def _text(param: str, value: str) -> str:
    return string(value, param)


def _day(param: str, value: str) -> datetime.date:
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is None:
        raise Problem.invalid(param, f"must be a date YYYY-MM-DD, got {value!r}")
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise Problem.invalid(param, f"is not a calendar date: {value!r}") from None


def _yes_or_no(param: str, value: str) -> bool:
    if value not in ("true", "false"):
        raise Problem.invalid(param, f"must be 'true' or 'false', got {value!r}")
    return value == "true"


def _operation_type(param: str, value: str) -> str:
    return choice(value, param, ("plan_optimization",))


# maxPageSize ranges and defaults (contract, Limits; depots, operations and drivers from
# the public OpenAPI document, which also gives their filters).
PLANS_LIST = ListSpec(10, 20, {"title": _text, "startsGte": _day, "startsLte": _day})
EXTERNAL_ID_FILTER: Final[dict[str, FilterParser]] = {"externalId": _text}
"""The one filter of the stop lists: ``filter.externalId``."""
STOPS_LIST = ListSpec(10, 10, EXTERNAL_ID_FILTER)
UNASSIGNED_LIST = ListSpec(20, 20, {"externalId": _text})
DEPOTS_LIST = ListSpec(20, 20)
OPERATIONS_LIST = ListSpec(20, 20, {"done": _yes_or_no, "type": _operation_type})
DRIVERS_LIST = ListSpec(50, 50, {"active": _yes_or_no})
