"""Request body validation, written from the contract's field tables.

Every function takes the decoded JSON and the dotted ``param`` path of where it
sits, and either returns the value in normalized form or raises a 400
:class:`~._problems.Problem` naming the param. The rules are the contract's
(Stops in a plan: stop body fields; Plans; Limits), with the official schema's
names and bounds where it has them (``circuitClientId``, ``weight``,
``paymentOnDelivery``, 200 barcodes, an integer ``estimatedAttemptDuration``,
string lengths: 1..255, and 1..100 for city, state, zip and country).
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

from route_planning_async.emulator._problems import Problem

__all__ = [
    "BodyKind",
    "validate_plan_body",
    "validate_reoptimize_body",
    "validate_stop_body",
]

T = TypeVar("T")

ID_RE = re.compile(r"[A-Za-z0-9_-]{1,50}")
_DRIVER_RE = re.compile(r"drivers/([A-Za-z0-9_-]{1,50})")
_DEPOT_RE = re.compile(r"depots/([A-Za-z0-9_-]{1,50})")

BodyKind = Literal[
    "stop.create",
    "stop.update",
    "unassigned.create",
    "unassigned.import",
    "unassigned.update",
]

# Stop body fields (contract, Stops in a plan). Update cannot change the location or
# circuitClientId (rule 2), and unassigned stops have a depot instead of a driver.
_STOP_CREATE = (
    "address",
    "timing",
    "recipient",
    "orderInfo",
    "proofOfAttemptRequirements",
    "driver",
    "allowedDrivers",
    "activity",
    "optimizationOrder",
    "packageCount",
    "notes",
    "circuitClientId",
    "barcodes",
    "customProperties",
    "weight",
    "paymentOnDelivery",
)
_STOP_UPDATE = (
    "recipient",
    "orderInfo",
    "proofOfAttemptRequirements",
    "driver",
    "allowedDrivers",
    "activity",
    "optimizationOrder",
    "packageCount",
    "notes",
    "barcodes",
    "customProperties",
    "timing",
    "weight",
    "paymentOnDelivery",
)
_UNASSIGNED_IMPORT = tuple(name for name in _STOP_CREATE if name != "driver")
_UNASSIGNED_CREATE = (*_UNASSIGNED_IMPORT, "depot")
_UNASSIGNED_UPDATE = (*(name for name in _STOP_UPDATE if name != "driver"), "depot")

_ALLOWED: dict[str, tuple[str, ...]] = {
    "stop.create": _STOP_CREATE,
    "stop.update": _STOP_UPDATE,
    "unassigned.create": _UNASSIGNED_CREATE,
    "unassigned.import": _UNASSIGNED_IMPORT,
    "unassigned.update": _UNASSIGNED_UPDATE,
}
_NOT_UPDATABLE = ("address", "circuitClientId")

WEIGHT_UNITS = ("kilogram", "pound", "metric-ton")
"""``weight.unit`` values (official schema)."""
PAYMENT_CURRENCIES = (
    *[
        "AED",
        "ARS",
        "AUD",
        "BRL",
        "CAD",
        "CHF",
        "CLP",
        "CNY",
        "COP",
        "DKK",
        "EGP",
        "EUR",
        "GBP",
        "HKD",
        "HUF",
        "ILS",
        "INR",
        "JPY",
        "KRW",
        "MYR",
        "MXN",
    ],
    *["NOK", "NZD", "PEN", "RON", "RUB", "SAR", "SEK", "SGD", "TRY", "USD", "UYU", "ZAR"],
)
"""``paymentOnDelivery.currency`` values (official schema)."""
_MAX_SAFE_INTEGER = 2**53 - 1

_ADDRESS_FIELDS: dict[str, int] = {
    "addressName": 255,
    "addressLineOne": 255,
    "addressLineTwo": 255,
    "city": 100,
    "state": 100,
    "zip": 100,
    "country": 100,
}


def join(path: str, key: str | int) -> str:
    """``path.key`` or ``path[3]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def expect_object(value: object, path: str) -> dict[str, Any]:
    """A JSON object, or 400."""
    if not isinstance(value, dict):
        raise Problem.invalid(path, f"must be an object, got {_type_name(value)}")
    return value


def check_keys(value: Mapping[str, object], allowed: tuple[str, ...], path: str, strict: bool) -> None:
    """400 on a key the contract does not define (strict servers, like ``additionalProperties: false``)."""
    if not strict:
        return
    for key in value:
        if key not in allowed:
            raise Problem.invalid(join(path, key), "is not a known field")


def string(value: object, path: str, *, max_len: int = 255, min_len: int = 1) -> str:
    """A string of ``min_len`` to ``max_len`` characters."""
    if not isinstance(value, str):
        raise Problem.invalid(path, f"must be a string, got {_type_name(value)}")
    if not min_len <= len(value) <= max_len:
        raise Problem.invalid(path, f"must be {min_len} to {max_len} characters long, got {len(value)}")
    return value


def optional(check: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
    """``check`` that lets null through."""

    def checked(value: object, path: str) -> T | None:
        return None if value is None else check(value, path)

    return checked


def number(value: object, path: str, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """A JSON number (never a boolean) within the bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Problem.invalid(path, f"must be a number, got {_type_name(value)}")
    if minimum is not None and value < minimum:
        raise Problem.invalid(path, f"must be at least {minimum:g}, got {value:g}")
    if maximum is not None and value > maximum:
        raise Problem.invalid(path, f"must be at most {maximum:g}, got {value:g}")
    return value


def integer(value: object, path: str, *, minimum: int, maximum: int) -> int:
    """A whole JSON number within the bounds."""
    checked = number(value, path)
    if checked != int(checked):
        raise Problem.invalid(path, f"must be an integer, got {checked:g}")
    if not minimum <= checked <= maximum:
        raise Problem.invalid(path, f"must be between {minimum} and {maximum}, got {int(checked)}")
    return int(checked)


def boolean(value: object, path: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise Problem.invalid(path, f"must be a boolean, got {_type_name(value)}")
    return value


def choice(value: object, path: str, options: tuple[str, ...]) -> str:
    """One of ``options``."""
    if not isinstance(value, str) or value not in options:
        raise Problem.invalid(path, f"must be one of {', '.join(options)}, got {value!r}")
    return value


def array(value: object, path: str, *, max_items: int, min_items: int = 0) -> list[Any]:
    """A JSON array with an allowed number of items."""
    if not isinstance(value, list):
        raise Problem.invalid(path, f"must be an array, got {_type_name(value)}")
    if not min_items <= len(value) <= max_items:
        raise Problem.invalid(path, f"must have {min_items} to {max_items} items, got {len(value)}")
    return value


def reference(value: object, path: str, collection: Literal["drivers", "depots"]) -> str:
    """The bare id of a ``drivers/<id>`` or ``depots/<id>`` reference."""
    pattern = _DRIVER_RE if collection == "drivers" else _DEPOT_RE
    match = pattern.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise Problem.invalid(
            path, f"must be '{collection}/<id>' with an id of 1 to 50 [A-Za-z0-9_-], got {value!r}"
        )
    return match.group(1)


def time_of_day(value: object, path: str) -> dict[str, int]:
    """TimeOfDay ``{hour: 0..23, minute: 0..59}`` (contract, Driver)."""
    obj = expect_object(value, path)
    check_keys(obj, ("hour", "minute"), path, True)
    for key in ("hour", "minute"):
        if key not in obj:
            raise Problem.invalid(join(path, key), "is required")
    return {
        "hour": integer(obj["hour"], join(path, "hour"), minimum=0, maximum=23),
        "minute": integer(obj["minute"], join(path, "minute"), minimum=0, maximum=59),
    }


def date(value: object, path: str, earliest: datetime.date, latest: datetime.date) -> datetime.date:
    """Date ``{day, month, year}``: a real calendar day within the accepted range."""
    obj = expect_object(value, path)
    check_keys(obj, ("day", "month", "year"), path, True)
    for key in ("day", "month", "year"):
        if key not in obj:
            raise Problem.invalid(join(path, key), "is required")
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


def _address(value: object, path: str, strict: bool) -> dict[str, Any]:
    obj = expect_object(value, path)
    check_keys(obj, (*_ADDRESS_FIELDS, "latitude", "longitude"), path, strict)
    result: dict[str, Any] = {}
    for key, max_len in _ADDRESS_FIELDS.items():
        if obj.get(key) is not None:
            result[key] = string(obj[key], join(path, key), max_len=max_len)
    lat = obj.get("latitude")
    lng = obj.get("longitude")
    if lat is not None:
        result["latitude"] = number(lat, join(path, "latitude"), minimum=-90, maximum=90)
    if lng is not None:
        result["longitude"] = number(lng, join(path, "longitude"), minimum=-180, maximum=180)
    # "both must be set if either is" and "at least one field is required" (stop body, address).
    if (lat is None) != (lng is None):
        missing = "longitude" if lng is None else "latitude"
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
            maximum=_MAX_SAFE_INTEGER,
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


def _order_info(value: object, path: str, strict: bool, partial: bool) -> dict[str, Any]:
    obj = expect_object(value, path)
    keys = ("products", "sellerOrderId", "sellerName", "sellerWebsite")
    check_keys(obj, keys, path, strict)
    result: dict[str, Any] = _strings_object(
        {k: v for k, v in obj.items() if k != "products"}, path, keys[1:], strict, partial
    )
    if "products" in obj:
        products = array(obj["products"], join(path, "products"), max_items=100)
        result["products"] = [
            string(item, join(join(path, "products"), i)) for i, item in enumerate(products)
        ]
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
    for key in ("amount", "unit"):
        if key not in obj:
            raise Problem.invalid(join(path, key), "is required")
    amount = number(obj["amount"], join(path, "amount"), minimum=0, maximum=999999)
    if decimal.Decimal(repr(amount)) % decimal.Decimal("0.01") != 0:
        raise Problem.invalid(join(path, "amount"), f"must be a multiple of 0.01, got {amount:g}")
    return {"amount": amount, "unit": choice(obj["unit"], join(path, "unit"), WEIGHT_UNITS)}


def _payment(value: object, path: str, strict: bool) -> dict[str, Any]:
    """``{amount: integer >= 0 in minor units | null, currency: ISO 4217 | null}`` (official schema)."""
    obj = expect_object(value, path)
    check_keys(obj, ("amount", "currency"), path, strict)
    result: dict[str, Any] = {}
    if "amount" in obj:
        raw = obj["amount"]
        sub = join(path, "amount")
        result["amount"] = None if raw is None else integer(raw, sub, minimum=0, maximum=_MAX_SAFE_INTEGER)
    if "currency" in obj:
        raw = obj["currency"]
        sub = join(path, "currency")
        result["currency"] = None if raw is None else choice(raw, sub, PAYMENT_CURRENCIES)
    return result


def validate_stop_body(
    value: object, kind: BodyKind, path: str = "", *, strict: bool = True
) -> dict[str, Any]:
    """The normalized stop (or unassigned stop) body.

    Create and import bodies come back complete (defaults filled in, ``address`` as
    sent); update bodies come back with only the fields that were present, and nested
    objects with only the keys that were present (PATCH semantics, contract General
    conventions). ``driver``/``allowedDrivers``/``depot`` come back as bare ids.
    """
    obj = expect_object(value, path)
    partial = kind.endswith(".update")
    if partial:
        for key in _NOT_UPDATABLE:
            if key in obj:
                # Contract, Stops in a plan, rule 2: delete the stop and create a new one instead.
                raise Problem.invalid(join(path, key), "cannot be changed by an update")
    check_keys(obj, _ALLOWED[kind], path, strict)
    allowed = _ALLOWED[kind]
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
        out["orderInfo"] = (
            None if obj["orderInfo"] is None else _order_info(obj["orderInfo"], sub, strict, partial)
        )
    if present("proofOfAttemptRequirements"):
        raw = obj["proofOfAttemptRequirements"]
        sub = join(path, "proofOfAttemptRequirements")
        out["proofOfAttemptRequirements"] = None if raw is None else _proof(raw, sub, strict)
    if present("driver"):
        out["driver"] = (
            None if obj["driver"] is None else reference(obj["driver"], join(path, "driver"), "drivers")
        )
    if present("allowedDrivers"):
        sub = join(path, "allowedDrivers")
        raw = obj["allowedDrivers"]
        if raw is None:
            out["allowedDrivers"] = None
        else:
            items = array(raw, sub, max_items=100)
            out["allowedDrivers"] = [reference(item, join(sub, i), "drivers") for i, item in enumerate(items)]
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
    if present("circuitClientId"):
        raw = obj["circuitClientId"]
        out["circuitClientId"] = (
            None if raw is None else string(raw, join(path, "circuitClientId"), max_len=100)
        )
    if present("weight"):
        raw = obj["weight"]
        out["weight"] = None if raw is None else _weight(raw, join(path, "weight"), strict)
    if present("paymentOnDelivery"):
        raw = obj["paymentOnDelivery"]
        sub = join(path, "paymentOnDelivery")
        out["paymentOnDelivery"] = None if raw is None else _payment(raw, sub, strict)
    if present("barcodes"):
        sub = join(path, "barcodes")
        items = array(obj["barcodes"], sub, max_items=200)
        out["barcodes"] = [string(item, join(sub, i)) for i, item in enumerate(items)]
    if present("customProperties"):
        raw = obj["customProperties"]
        sub = join(path, "customProperties")
        out["customProperties"] = None if raw is None else _custom_properties(raw, sub)
    if present("depot"):
        out["depot"] = (
            None if obj["depot"] is None else reference(obj["depot"], join(path, "depot"), "depots")
        )
    return out


def validate_plan_body(
    value: object,
    *,
    partial: bool,
    earliest: datetime.date,
    latest: datetime.date,
    strict: bool = True,
) -> dict[str, Any]:
    """A plan create (``partial=False``) or PATCH body; drivers and depot as bare ids."""
    obj = expect_object(value, "")
    check_keys(obj, ("title", "starts", "drivers", "depot"), "", strict)
    out: dict[str, Any] = {}
    if not partial:
        for key in ("title", "starts"):
            if key not in obj:
                raise Problem.invalid(key, "is required")
    if "title" in obj:
        out["title"] = string(obj["title"], "title")
    if "starts" in obj:
        out["starts"] = date(obj["starts"], "starts", earliest, latest)
    if "drivers" in obj:
        items = array(obj["drivers"], "drivers", max_items=50)
        refs = [reference(item, join("drivers", i), "drivers") for i, item in enumerate(items)]
        # "duplicates ignored" (Plans, POST /plans).
        out["drivers"] = list(dict.fromkeys(refs))
    if "depot" in obj:
        out["depot"] = None if obj["depot"] is None else reference(obj["depot"], "depot", "depots")
    return out


REOPTIMIZATION_TYPES = ("reorder_changed_stops", "reorder_all_stops", "redistribute_stops_between_drivers")


def validate_reoptimize_body(value: object, *, strict: bool = True) -> str:
    """The optional ``{optimizationType}`` body of ``:reoptimize`` (public OpenAPI document)."""
    if value is None:
        return REOPTIMIZATION_TYPES[0]
    obj = expect_object(value, "")
    check_keys(obj, ("optimizationType",), "", strict)
    raw = obj.get("optimizationType")
    return REOPTIMIZATION_TYPES[0] if raw is None else choice(raw, "optimizationType", REOPTIMIZATION_TYPES)
