"""v0.2b stop bodies: the create, update and import bodies of stops and unassigned stops.

Written from the contract's stop body fields (Stops in a plan), with the official
schema's names and bounds where it has them (``circuitClientId``, ``weight``,
``paymentOnDelivery``, 200 barcodes, an integer ``estimatedAttemptDuration``,
string lengths: 1..255, and 1..100 for city, state, zip and country).
"""

from __future__ import annotations

import decimal
from typing import Any, Literal

from route_planning_async import PAYMENT_CURRENCIES
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
from route_planning_async.emulator.v0_2b._requests import address_fields, reference, time_of_day

__all__ = ["WEIGHT_UNITS", "BodyKind", "validate_stop_body"]

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
_NOT_UPDATABLE = ("address", "circuitClientId")
_STOP_UPDATE = tuple(name for name in _STOP_CREATE if name not in _NOT_UPDATABLE)
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

WEIGHT_UNITS = ("kilogram", "pound", "metric-ton")
"""``weight.unit`` values (official schema)."""
_CURRENCIES = tuple(sorted(PAYMENT_CURRENCIES))


def _driver(value: object, path: str) -> str:
    return reference(value, path, "drivers")


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


def _order_info(value: object, path: str, strict: bool, partial: bool) -> dict[str, Any]:
    obj = expect_object(value, path)
    keys = ("products", "sellerOrderId", "sellerName", "sellerWebsite")
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
    return {"amount": amount, "unit": choice(obj["unit"], join(path, "unit"), WEIGHT_UNITS)}


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
        raw = obj["allowedDrivers"]
        sub = join(path, "allowedDrivers")
        out["allowedDrivers"] = None if raw is None else array_of(raw, sub, _driver, max_items=100)
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
