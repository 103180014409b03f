"""Stop body rules every version shares: each field of a stop (or unassigned stop) body.

Written from the contract's field table (Stops in a plan: stop body fields) with
the official schemas' names and bounds (``weight``, ``paymentOnDelivery``, 200
barcodes, an integer ``estimatedAttemptDuration``, string lengths). A version
names the fields each of its bodies takes (:class:`StopBodies`: ``v0_2b/_requests.py``,
``v1/_requests.py``); :func:`stop_fields` checks them. A client id arrives as
``circuitClientId`` (v0.2b) or ``clientId`` (v1) and comes back as
``circuitClientId``, the name the store keeps.
"""

from __future__ import annotations

import decimal
import re
from typing import Any, Final, Literal, get_args

import attrs

from route_planning_async import PAYMENT_CURRENCIES
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._rules._requests import address_fields, reference, time_of_day
from route_planning_async.emulator._rules._validation import (
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
from route_planning_async.emulator._setup._team import WeightUnit

__all__ = ["BodyKind", "StopBodies", "stop_fields"]


def _driver_reference(value: object, path: str) -> str:
    return reference(value, path, "drivers")


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
        # Official schema: any safe integer (the contract's "at least 1" is not in it, and a
        # service driven by it refuses no other; the optimizer takes one below 1 as the default).
        result["estimatedAttemptDuration"] = integer(
            obj["estimatedAttemptDuration"],
            join(path, "estimatedAttemptDuration"),
            minimum=-MAX_SAFE_INTEGER,
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
    """``{amount: 0..999999 in steps of 0.01, unit}`` (official schema). The object is open there:
    unknown keys are dropped unless ``strict`` (``strict_inputs``)."""
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
    value: object,
    allowed: tuple[str, ...],
    path: str = "",
    *,
    partial: bool,
    strict: bool = True,
    strict_inputs: bool = False,
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
        out["weight"] = None if raw is None else _weight(raw, join(path, "weight"), strict_inputs)
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
        self,
        value: object,
        kind: BodyKind,
        path: str = "",
        *,
        strict: bool = True,
        strict_inputs: bool = False,
    ) -> dict[str, Any]:
        """The normalized ``kind`` body (:func:`stop_fields`)."""
        return stop_fields(
            value,
            self.fields(kind),
            path,
            partial=kind.endswith(".update"),
            strict=strict,
            strict_inputs=strict_inputs,
        )
