"""Request rules every API version shares: stop, plan, re-optimization and driver bodies, list queries.

Written from the contract's field tables (Stops in a plan: stop body fields;
Plans; Limits), with the official schemas' names and bounds where they have them
(``weight``, ``paymentOnDelivery``, 200 barcodes, an integer
``estimatedAttemptDuration``, string lengths: 1..255, and 1..100 for city, state,
zip and country) and, for what the contract does not show (drivers, the
re-optimization body, the operation list), from the public OpenAPI documents.
A version names the stop fields each of its bodies takes (``v0_2b/_requests.py``,
``v1/_requests.py``); :func:`stop_fields` checks them. A client id arrives as
``circuitClientId`` (v0.2b) or ``clientId`` (v1) and comes back as
``circuitClientId``, the name the store keeps.
Every function takes the decoded JSON and the dotted ``param`` path of where it
sits, and returns the value in normalized form or raises a 400 naming the param.
"""

from __future__ import annotations

import datetime
import decimal
import re
from typing import Any, Final, Literal, get_args

import attrs

from route_planning_async import PAYMENT_CURRENCIES
from route_planning_async.emulator._config import WeightUnit
from route_planning_async.emulator._pages import FilterParser, ListSpec
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._validation import (
    MAX_SAFE_INTEGER,
    array_of,
    boolean,
    check_keys,
    choice,
    expect_object,
    integer,
    join,
    number,
    optional,
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
    "PLANS_LIST",
    "REOPTIMIZATION_TYPES",
    "STOPS_LIST",
    "UNASSIGNED_LIST",
    "VEHICLES",
    "BodyKind",
    "StopBodies",
    "address_fields",
    "date",
    "reference",
    "route_overrides",
    "stop_fields",
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


# ------------------------------------------------------------------ stops

BodyKind = Literal[
    "stop.create",
    "stop.update",
    "unassigned.create",
    "unassigned.import",
    "unassigned.update",
]
"""Which stop body a call sends: each version names the fields of each."""

_NOT_UPDATABLE = ("address", "circuitClientId", "clientId")
"""Stop fields an update cannot change (contract, Stops in a plan, rule 2)."""

_WEIGHT_UNITS: Final = get_args(WeightUnit)
"""``weight.unit`` values (official schema)."""
_CURRENCIES = tuple(sorted(PAYMENT_CURRENCIES))


def _address(value: object, path: str, strict: bool) -> dict[str, Any]:
    result = address_fields(value, path, strict)
    # "both must be set if either is" and "at least one field is required" (stop body, address).
    if ("latitude" in result) != ("longitude" in result):
        missing = "latitude" if "longitude" in result else "longitude"
        raise Problem.invalid(join(path, missing), "latitude and longitude must be set together")
    if not result:
        raise Problem.invalid(path, "at least one address field is required")
    return result


def _timing(value: object, path: str, strict: bool, partial: bool) -> dict[str, Any]:
    obj = expect_object(value, path)
    keys = ("earliestAttemptTime", "latestAttemptTime", "estimatedAttemptDuration")
    check_keys(obj, keys, path, strict)
    result: dict[str, Any] = {} if partial else dict.fromkeys(keys)
    for key in ("earliestAttemptTime", "latestAttemptTime"):
        if key in obj:
            result[key] = optional(time_of_day)(obj[key], join(path, key))
    if "estimatedAttemptDuration" in obj and obj["estimatedAttemptDuration"] is not None:
        # Official schema: an integer; contract: at least 1.
        result["estimatedAttemptDuration"] = integer(
            obj["estimatedAttemptDuration"],
            join(path, "estimatedAttemptDuration"),
            minimum=1,
            maximum=MAX_SAFE_INTEGER,
        )
    elif "estimatedAttemptDuration" in obj:
        result["estimatedAttemptDuration"] = None
    return result


def _strings_object(
    value: object, path: str, keys: tuple[str, ...], strict: bool, partial: bool
) -> dict[str, str | None]:
    obj = expect_object(value, path)
    check_keys(obj, keys, path, strict)
    result: dict[str, str | None] = {} if partial else dict.fromkeys(keys)
    for key in keys:
        if key in obj:
            result[key] = optional(string)(obj[key], join(path, key))
    return result


_ORDER_KEYS: tuple[str, ...] = ("products", "sellerOrderId", "sellerName", "sellerWebsite", "invoiceNumber")


def _order_info(
    value: object, path: str, keys: tuple[str, ...], strict: bool, partial: bool
) -> dict[str, Any]:
    obj = expect_object(value, path)
    check_keys(obj, keys, path, strict)
    result: dict[str, Any] = _strings_object(
        {k: v for k, v in obj.items() if k != "products"}, path, keys[1:], strict, partial
    )
    if "products" in obj:
        result["products"] = array_of(obj["products"], join(path, "products"), string, max_items=100)
    elif not partial:
        result["products"] = []
    return result


def _proof(value: object, path: str, strict: bool) -> dict[str, bool | None]:
    obj = expect_object(value, path)
    check_keys(obj, ("enabled",), path, strict)
    return {"enabled": optional(boolean)(obj.get("enabled"), join(path, "enabled"))}


def _custom_properties(value: object, path: str) -> dict[str, str | None]:
    obj = expect_object(value, path)
    result: dict[str, str | None] = {}
    for key, item in obj.items():
        if len(key) > 50:
            raise Problem.invalid(path, f"keys must be at most 50 characters, got {len(key)}")
        result[key] = optional(string)(item, join(path, key))
    return result


def _weight(value: object, path: str, strict: bool) -> dict[str, Any]:
    """``{amount: 0..999999 in steps of 0.01, unit}`` (official schema)."""
    obj = expect_object(value, path)
    check_keys(obj, ("amount", "unit"), path, strict)
    required(obj, ("amount", "unit"), path)
    amount = number(obj["amount"], join(path, "amount"), minimum=0, maximum=999999)
    if decimal.Decimal(repr(amount)) % decimal.Decimal("0.01") != 0:
        raise Problem.invalid(join(path, "amount"), f"must be a multiple of 0.01, got {amount:g}")
    return {"amount": amount, "unit": choice(obj["unit"], join(path, "unit"), _WEIGHT_UNITS)}


def _payment(value: object, path: str, strict: bool) -> dict[str, Any]:
    """``{amount: integer >= 0 in minor units | null, currency: ISO 4217 | null}`` (official schema)."""
    obj = expect_object(value, path)
    check_keys(obj, ("amount", "currency"), path, strict)
    result: dict[str, Any] = {}
    if "amount" in obj:
        raw = obj["amount"]
        sub = join(path, "amount")
        result["amount"] = None if raw is None else integer(raw, sub, minimum=0, maximum=MAX_SAFE_INTEGER)
    if "currency" in obj:
        raw = obj["currency"]
        sub = join(path, "currency")
        result["currency"] = None if raw is None else choice(raw, sub, _CURRENCIES)
    return result


def _service_info(value: object, path: str, strict: bool) -> dict[str, Any]:
    """``{identifier: 1..32 letters and digits | null, slaStartsAt: epoch seconds > 0 | null}`` (v1)."""
    obj = expect_object(value, path)
    check_keys(obj, ("identifier", "slaStartsAt"), path, strict)
    result: dict[str, Any] = {}
    if "identifier" in obj:
        raw = obj["identifier"]
        sub = join(path, "identifier")
        if raw is not None:
            raw = string(raw, sub, max_len=32)
            if re.fullmatch(r"[a-zA-Z0-9]+", raw) is None:
                raise Problem.invalid(sub, f"must be 1 to 32 letters or digits, got {raw!r}")
        result["identifier"] = raw
    if "slaStartsAt" in obj:
        raw = obj["slaStartsAt"]
        sub = join(path, "slaStartsAt")
        result["slaStartsAt"] = (
            None if raw is None else integer(raw, sub, minimum=1, maximum=MAX_SAFE_INTEGER)
        )
    return result


def stop_fields(
    value: object, allowed: tuple[str, ...], path: str = "", *, partial: bool, strict: bool = True
) -> dict[str, Any]:
    """The normalized stop (or unassigned stop) body, of the fields ``allowed``.

    Create and import bodies (``partial=False``) come back complete (defaults filled
    in, ``address`` as sent); update bodies come back with only the fields that were
    present, and nested objects with only the keys that were present (PATCH semantics,
    contract General conventions). ``driver``/``allowedDrivers``/``depot`` come back as
    bare ids, ``clientId`` as ``circuitClientId``; ``orderInfo.invoiceNumber`` and
    ``serviceInfo`` (v1) only when ``allowed`` names them.
    """
    obj = expect_object(value, path)
    if partial:
        for key in _NOT_UPDATABLE:
            if key in obj:
                # Contract, Stops in a plan, rule 2: delete the stop and create a new one instead.
                raise Problem.invalid(join(path, key), "cannot be changed by an update")
    check_keys(obj, tuple(key for key in allowed if "." not in key), path, strict)
    out: dict[str, Any] = {}
    if "address" in allowed:
        if "address" not in obj or obj["address"] is None:
            raise Problem.invalid(join(path, "address"), "is required")
        out["address"] = _address(obj["address"], join(path, "address"), strict)

    def present(key: str) -> bool:
        return key in allowed and key in obj

    if present("timing"):
        sub = join(path, "timing")
        out["timing"] = None if obj["timing"] is None else _timing(obj["timing"], sub, strict, partial)
    if present("recipient"):
        sub = join(path, "recipient")
        keys = ("externalId", "email", "phone", "name")
        raw = obj["recipient"]
        out["recipient"] = None if raw is None else _strings_object(raw, sub, keys, strict, partial)
    if present("orderInfo"):
        sub = join(path, "orderInfo")
        order_keys = _ORDER_KEYS if "orderInfo.invoiceNumber" in allowed else _ORDER_KEYS[:-1]
        raw = obj["orderInfo"]
        out["orderInfo"] = None if raw is None else _order_info(raw, sub, order_keys, strict, partial)
    if present("proofOfAttemptRequirements"):
        raw = obj["proofOfAttemptRequirements"]
        sub = join(path, "proofOfAttemptRequirements")
        out["proofOfAttemptRequirements"] = None if raw is None else _proof(raw, sub, strict)
    if present("driver"):
        out["driver"] = (
            None if obj["driver"] is None else reference(obj["driver"], join(path, "driver"), "drivers")
        )
    if present("allowedDrivers"):
        raw = obj["allowedDrivers"]
        sub = join(path, "allowedDrivers")
        out["allowedDrivers"] = None if raw is None else array_of(raw, sub, _driver_reference, max_items=100)
    if out.get("driver") is not None and out.get("allowedDrivers") is not None:
        raise Problem.invalid(
            join(path, "allowedDrivers"), "driver and allowedDrivers are mutually exclusive"
        )
    if present("activity"):
        raw = obj["activity"]
        out["activity"] = None if raw is None else choice(raw, join(path, "activity"), ("delivery", "pickup"))
    if present("optimizationOrder"):
        raw = obj["optimizationOrder"]
        sub = join(path, "optimizationOrder")
        out["optimizationOrder"] = None if raw is None else choice(raw, sub, ("first", "last", "default"))
    if present("packageCount"):
        raw = obj["packageCount"]
        sub = join(path, "packageCount")
        out["packageCount"] = None if raw is None else number(raw, sub, minimum=1, maximum=10000)
    if present("notes"):
        raw = obj["notes"]
        out["notes"] = None if raw is None else string(raw, join(path, "notes"), max_len=2000)
    for key in ("circuitClientId", "clientId"):
        if present(key):
            raw = obj[key]
            out["circuitClientId"] = None if raw is None else string(raw, join(path, key), max_len=100)
    if present("serviceInfo"):
        raw = obj["serviceInfo"]
        out["serviceInfo"] = None if raw is None else _service_info(raw, join(path, "serviceInfo"), strict)
    if present("weight"):
        raw = obj["weight"]
        out["weight"] = None if raw is None else _weight(raw, join(path, "weight"), strict)
    if present("paymentOnDelivery"):
        raw = obj["paymentOnDelivery"]
        sub = join(path, "paymentOnDelivery")
        out["paymentOnDelivery"] = None if raw is None else _payment(raw, sub, strict)
    if present("barcodes"):
        out["barcodes"] = array_of(obj["barcodes"], join(path, "barcodes"), string, max_items=200)
    if present("customProperties"):
        raw = obj["customProperties"]
        sub = join(path, "customProperties")
        out["customProperties"] = None if raw is None else _custom_properties(raw, sub)
    if present("depot"):
        out["depot"] = (
            None if obj["depot"] is None else reference(obj["depot"], join(path, "depot"), "depots")
        )
    return out


_COMMON_STOP_FIELDS = (
    "address",
    "timing",
    "recipient",
    "orderInfo",
    "proofOfAttemptRequirements",
    "allowedDrivers",
    "activity",
    "optimizationOrder",
    "packageCount",
    "notes",
    "barcodes",
    "customProperties",
    "weight",
    "paymentOnDelivery",
)
"""The stop body fields of every version (contract, Stops in a plan; the official documents)."""


@attrs.frozen
class StopBodies:
    """Which fields each stop body of a version takes, and their check (:func:`stop_fields`).

    A stop create body takes the fields of every version, the version's ``extra``
    ones, its client id and the fields only a stop in a plan has (``stop_only``); an
    update cannot change the address or the client id (contract, Stops rule 2); an
    unassigned stop has a depot instead of the ``stop_only`` fields.
    """

    client_id: str
    """The client id's name (``circuitClientId``, ``clientId``)."""
    stop_only: tuple[str, ...]
    """Fields of a stop in a plan that an unassigned stop does not take."""
    extra: tuple[str, ...] = ()
    """The version's other fields (``orderInfo.invoiceNumber`` names a nested one)."""

    def fields(self, kind: BodyKind) -> tuple[str, ...]:
        """The fields a ``kind`` body takes."""
        create = (*_COMMON_STOP_FIELDS, *self.extra, self.client_id, *self.stop_only)
        update = tuple(name for name in create if name not in ("address", self.client_id))
        if kind == "stop.create":
            return create
        if kind == "stop.update":
            return update
        base = update if kind == "unassigned.update" else create
        fields = tuple(name for name in base if name not in self.stop_only)
        return fields if kind == "unassigned.import" else (*fields, "depot")

    def validate(
        self, value: object, kind: BodyKind, path: str = "", *, strict: bool = True
    ) -> dict[str, Any]:
        """The normalized ``kind`` body (:func:`stop_fields`)."""
        return stop_fields(value, self.fields(kind), path, partial=kind.endswith(".update"), strict=strict)


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
    checked = route_overrides(obj, "routeOverrides", strict) or {}
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
    """The optional ``{optimizationType}`` body of ``:reoptimize`` (public OpenAPI document)."""
    if value is None:
        return REOPTIMIZATION_TYPES[0]
    obj = expect_object(value, "")
    check_keys(obj, ("optimizationType",), "", strict)
    raw = obj.get("optimizationType")
    return REOPTIMIZATION_TYPES[0] if raw is None else choice(raw, "optimizationType", REOPTIMIZATION_TYPES)


# ---------------------------------------------------------------- drivers

# Body fields of the public OpenAPI document (additionalProperties: false).
_DRIVER_CREATE = ("name", "displayName", "email", "phone", "depots", "routeOverrides")
_DRIVER_UPDATE = ("name", "displayName", "depots", "routeOverrides")
_OVERRIDE_FIELDS = (
    "startAddress",
    "endAddress",
    "startTime",
    "endTime",
    "maxStops",
    "drivingSpeed",
    "deliverySpeed",
    "vehicleType",
)
_SPEEDS = ("slower", "average", "faster")
VEHICLES = ("bike", "scooter", "car", "small_truck", "truck", "electric_cargo_bike")
EMAIL = re.compile(
    r"(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}"
)


def route_overrides(value: object, path: str, strict: bool) -> dict[str, Any] | None:
    """A driver's (or v1 plan's) ``routeOverrides``: only the keys present, each checked."""
    if value is None:
        return None
    obj = expect_object(value, path)
    check_keys(obj, _OVERRIDE_FIELDS, path, strict)
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


def validate_driver_body(value: object, path: str = "", *, partial: bool, strict: bool) -> dict[str, Any]:
    """The fields of a driver create (``partial=False``) or PATCH body, checked (400 otherwise)."""
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
        fields["routeOverrides"] = route_overrides(obj["routeOverrides"], sub, strict)
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
