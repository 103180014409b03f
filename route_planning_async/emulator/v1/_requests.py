"""v1 request rules: its stop bodies' fields, plan route overrides, depots, members, list queries.

The field rules themselves are shared (``emulator/_rules/_requests.py``); v1's stop
bodies name the client id ``clientId``, have no single ``driver`` (only
``allowedDrivers``), and add ``serviceInfo`` (stops in a plan) and
``orderInfo.invoiceNumber`` (plans take ``routeOverrides``: the shared
``validate_plan_body`` with ``with_overrides``); depots (``name`` and ``routeOverrides`` with a start
address and time) and members (a ``role``) are v1's own. Every function takes
the decoded JSON and the dotted ``param`` path of where it sits, and returns the
value in normalized form or raises a 400 naming the param.
"""

from __future__ import annotations

from typing import Any, Final

from route_planning_async.emulator._rules._pages import ListSpec
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._rules._requests import (
    EMAIL,
    EXTERNAL_ID_FILTER,
    VEHICLES,
    address_fields,
    reference,
    time_of_day,
)
from route_planning_async.emulator._rules._stop_requests import StopBodies
from route_planning_async.emulator._rules._validation import (
    array_of,
    boolean,
    check_keys,
    choice,
    expect_object,
    join,
    number,
    required,
    string,
)

__all__ = [
    "MEMBER_ROLES",
    "ROUTES_LIST",
    "ROUTE_STOPS_LIST",
    "STOP_BODIES",
    "validate_depot_body",
    "validate_member_body",
]

STOP_BODIES: Final = StopBodies("clientId", ("serviceInfo",), ("orderInfo.invoiceNumber",))
"""v1's stop bodies (v1 document: createStop, updateStop, createUnassignedStop ...)."""


# ----------------------------------------------------------------- depots

_DEPOT_OVERRIDES = (
    "startAddress",
    "startTime",
    "endAddress",
    "endTime",
    "defaultTimeAtStop",
    "maxStops",
    "vehicleType",
    "roadSide",
    "roundTrip",
)
_ROAD_SIDES = ("any", "left_only", "right_only")


def _depot_overrides(
    value: object, path: str, strict: bool, strict_inputs: bool, partial: bool
) -> dict[str, Any]:
    """A depot's ``routeOverrides``: complete on create and import (``startAddress`` and
    ``startTime`` required, the rest null when left out); on PATCH (``partial``) only the keys
    sent, for the schema of PATCH requires none. The object is open in the official schema:
    unknown keys are dropped unless ``strict_inputs``."""
    obj = expect_object(value, path)
    check_keys(obj, _DEPOT_OVERRIDES, path, strict_inputs)
    result: dict[str, Any] = {}
    if not partial:
        required(obj, ("startAddress", "startTime"), path)
        result = dict.fromkeys(_DEPOT_OVERRIDES)
    if "startAddress" in obj:
        start = address_fields(obj["startAddress"], join(path, "startAddress"), strict)
        if not start:
            raise Problem.invalid(join(path, "startAddress"), "at least one address field is required")
        result["startAddress"] = start
    if "startTime" in obj:
        result["startTime"] = time_of_day(obj["startTime"], join(path, "startTime"))
    for key in _DEPOT_OVERRIDES[2:]:
        if key in obj and obj[key] is None:
            result[key] = None
    if obj.get("endAddress") is not None:
        result["endAddress"] = address_fields(obj["endAddress"], join(path, "endAddress"), strict)
    if obj.get("endTime") is not None:
        result["endTime"] = time_of_day(obj["endTime"], join(path, "endTime"))
    for key in ("defaultTimeAtStop", "maxStops"):
        # The official file types both a plain ``number``: no bound is the emulator's to add.
        if obj.get(key) is not None:
            result[key] = number(obj[key], join(path, key))
    if obj.get("vehicleType") is not None:
        result["vehicleType"] = choice(obj["vehicleType"], join(path, "vehicleType"), VEHICLES)
    if obj.get("roadSide") is not None:
        result["roadSide"] = choice(obj["roadSide"], join(path, "roadSide"), _ROAD_SIDES)
    if obj.get("roundTrip") is not None:
        result["roundTrip"] = boolean(obj["roundTrip"], join(path, "roundTrip"))
    return result


def validate_depot_body(
    value: object, path: str = "", *, partial: bool, strict: bool, strict_inputs: bool = False
) -> dict[str, Any]:
    """A depot create or import entry (``name`` and ``routeOverrides`` required) or PATCH body."""
    obj = expect_object(value, path)
    check_keys(obj, ("name", "routeOverrides"), path, strict)
    if not partial:
        required(obj, ("name", "routeOverrides"), path)
    fields: dict[str, Any] = {}
    if "name" in obj:
        fields["name"] = string(obj["name"], join(path, "name"), max_len=2048)
    if "routeOverrides" in obj:
        fields["routeOverrides"] = _depot_overrides(
            obj["routeOverrides"], join(path, "routeOverrides"), strict, strict_inputs, partial
        )
    return fields


# ---------------------------------------------------------------- members

MEMBER_ROLES: Final = ("admin", "depot-manager", "dispatcher", "read-only")
"""The roles a member can be given."""


def _depot_ref(value: object, path: str) -> str:
    return reference(value, path, "depots")


def validate_member_body(value: object, path: str = "", *, partial: bool, strict: bool) -> dict[str, Any]:
    """A member create or import entry (``role`` required) or PATCH body (no ``email`` or
    ``linkedDriverId``); the driver and depots as bare ids."""
    obj = expect_object(value, path)
    keys = ("name", "displayName", "role", "depots")
    check_keys(obj, keys if partial else (*keys, "email", "linkedDriverId"), path, strict)
    fields: dict[str, Any] = {}
    if not partial:
        required(obj, ("role",), path)
    for key in ("name", "displayName"):
        if key in obj:
            fields[key] = None if obj[key] is None else string(obj[key], join(path, key))
    if obj.get("role") is not None or not partial:
        fields["role"] = choice(obj.get("role"), join(path, "role"), MEMBER_ROLES)
    if "depots" in obj:
        raw = obj["depots"]
        sub = join(path, "depots")
        fields["depots"] = (
            None
            if raw is None
            else list(dict.fromkeys(array_of(raw, sub, _depot_ref, min_items=1, max_items=50)))
        )
    if not partial and obj.get("email") is not None:
        email = string(obj["email"], join(path, "email"))
        if EMAIL.fullmatch(email) is None:
            raise Problem.invalid(join(path, "email"), f"must be an e-mail address, got {email!r}")
        fields["email"] = email
    if not partial and obj.get("linkedDriverId") is not None:
        fields["linkedDriverId"] = reference(obj["linkedDriverId"], join(path, "linkedDriverId"), "drivers")
    return fields


# ------------------------------------------------------------------ lists

ROUTES_LIST = ListSpec(20, 20)
"""``GET /routes``: 1 to 20 a page, no filter."""
ROUTE_STOPS_LIST = ListSpec(10, 10, EXTERNAL_ID_FILTER)
"""``GET /routes/<id>/stops``: 1 to 10 a page, ``filter.externalId``."""
