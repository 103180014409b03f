"""Stop bodies in their stored JSON form: built and patched.

The store keeps a stop as the JSON v0.2b serves (without ``route``, which is
rendered from the route record); a version's views render their answers from it.
This room builds that body from a validated create body and applies a validated
PATCH body to it (PATCH semantics: null resets an object field, present keys
replace, absent keys stay). Nothing here checks references or raises: the callers
in ``_service/_edits.py`` check drivers and custom properties first.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from route_planning_async.emulator._setup._team import DepotConfig

__all__ = [
    "ETA_SPREAD",
    "NOT_OPTIMIZED",
    "UNASSIGNED_KEYS",
    "empty_recipient",
    "patched_body",
    "patched_extra",
    "split_extra",
    "stop_body",
    "terminal_body",
]

_WEB_APP = "https://route-planning.example/app"

NOT_OPTIMIZED = {
    "reason": "not_optimized",
    "message": "The plan has not been optimized yet",
    "url": None,
}
"""``etaNullReason`` of a stop outside any route (copy it before storing)."""

ETA_SPREAD = 900
"""Seconds either side of an ETA for its earliest and latest arrival."""

UNASSIGNED_KEYS = (
    "id",
    "address",
    "barcodes",
    "allowedDriversIdentifiers",
    "timing",
    "notes",
    "orderInfo",
    "packageCount",
    "recipient",
    "activity",
    "proofOfAttemptRequirements",
    "optimizationOrder",
    "customProperties",
    "weight",
    "paymentOnDelivery",
    "trackingLink",
    "circuitClientId",
)
"""The keys of a stop body an unassigned stop keeps (official schema, unassignedStopSchema)."""


def split_extra(fields: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A validated body without what the v0.2b body has no field for, and those parts.

    The parts are ``invoiceNumber`` (of ``orderInfo``) and ``serviceInfo`` (v1); the
    stop keeps them in :attr:`StopRecord.extra`.
    """
    extra: dict[str, Any] = {}
    if "serviceInfo" in fields:
        fields = dict(fields)
        extra["serviceInfo"] = fields.pop("serviceInfo")
    order = fields.get("orderInfo")
    if isinstance(order, dict) and "invoiceNumber" in order:
        order = dict(order)
        extra["invoiceNumber"] = order.pop("invoiceNumber")
        fields = {**fields, "orderInfo": order}
    elif "orderInfo" in fields and order is None:
        extra["invoiceNumber"] = None
    return fields, extra


def patched_extra(extra: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The kept parts after a PATCH of them: ``serviceInfo`` merges key by key (null clears it)."""
    result = dict(extra)
    if "invoiceNumber" in patch:
        result["invoiceNumber"] = patch["invoiceNumber"]
    if "serviceInfo" in patch:
        value = patch["serviceInfo"]
        result["serviceInfo"] = None if value is None else {**(extra.get("serviceInfo") or {}), **value}
    return result


def _default_timing() -> dict[str, Any]:
    return {"earliestAttemptTime": None, "latestAttemptTime": None, "estimatedAttemptDuration": None}


def empty_recipient() -> dict[str, Any]:
    return {"email": None, "externalId": None, "name": None, "phone": None}


def _default_order_info() -> dict[str, Any]:
    return {"products": [], "sellerOrderId": None, "sellerName": None, "sellerWebsite": None}


def _merge(
    base: dict[str, Any] | None, patch: dict[str, Any] | None, default: dict[str, Any]
) -> dict[str, Any]:
    """PATCH an object field: null resets it, present keys replace, absent keys stay."""
    if patch is None:
        return dict(default)
    result = dict(default if base is None else base)
    result.update(patch)
    return result


def stop_body(
    plan_id: str,
    stop_id: str,
    fields: dict[str, Any],
    placed: tuple[float, float, str, str | None] | None,
    identifiers: dict[str, str],
) -> dict[str, Any]:
    """A stop's JSON body (without ``route``) from a validated create body.

    ``placed`` is ``(lat, lng, address text, placeId)`` from the geocoder;
    ``identifiers`` maps bare driver ids to their e-mail or phone.
    """
    address = fields.get("address") or {}
    driver = fields.get("driver")
    allowed = fields.get("allowedDrivers") or ([driver] if driver else [])
    body: dict[str, Any] = {
        "id": f"plans/{plan_id}/stops/{stop_id}",
        "plan": f"plans/{plan_id}",
        "address": {
            "address": placed[2] if placed else "",
            "addressLineOne": address.get("addressLineOne") or "",
            "addressLineTwo": address.get("addressLineTwo") or "",
            "latitude": placed[0] if placed else None,
            "longitude": placed[1] if placed else None,
            "placeId": placed[3] if placed else None,
            "placeTypes": ["street_address"] if placed and placed[3] else [],
        },
        "barcodes": list(fields.get("barcodes") or []),
        "driverIdentifier": identifiers.get(driver) if driver else None,
        "allowedDriversIdentifiers": [identifiers.get(ref, f"drivers/{ref}") for ref in allowed],
        "timing": _merge(None, fields.get("timing") or {}, _default_timing()),
        "estimatedTravelDuration": None,
        "estimatedTravelDistance": None,
        "notes": fields.get("notes"),
        "orderInfo": _merge(None, fields.get("orderInfo") or {}, _default_order_info()),
        "packageCount": fields.get("packageCount"),
        "weight": fields.get("weight"),
        "paymentOnDelivery": _payment(fields.get("paymentOnDelivery")),
        "placeInVehicle": None,
        "type": "stop",
        "recipient": _merge(None, fields.get("recipient") or {}, empty_recipient()),
        "activity": fields.get("activity") or "delivery",
        "packageLabel": None,
        "deliveryInfo": None,
        "proofOfAttemptRequirements": fields.get("proofOfAttemptRequirements") or {"enabled": None},
        "optimizationOrder": fields.get("optimizationOrder") or "default",
        "eta": None,
        "etaNullReason": dict(NOT_OPTIMIZED),
        "customProperties": fields.get("customProperties"),
        "stopPosition": None,
        "trackingLink": None,
        "webAppLink": f"{_WEB_APP}/plans/{plan_id}/stops/{stop_id}",
        "circuitClientId": fields.get("circuitClientId"),
    }
    return body


def terminal_body(plan_id: str, stop_id: str, kind: str, position: int, depot: DepotConfig) -> dict[str, Any]:
    """The body of a route's ``start`` (position 0) or ``end`` (last) stop, at the depot.

    Contract, Stop: "the ``start`` stop is 0, ``stop`` stops start at 1, the ``end``
    stop is last"; official schema: ``type`` is ``start|stop|end``. An optimization
    makes them; they carry no recipient, order or tracking link, and the depot's full
    address (its one-line form, both lines, coordinates and ``placeId``).
    """
    placed = (depot.latitude, depot.longitude, depot.one_line, depot.served_place_id)
    body = stop_body(plan_id, stop_id, {}, placed, {})
    body["address"].update(addressLineOne=depot.address_line_one, addressLineTwo=depot.second_line)
    body["address"]["placeTypes"] = ["premise"]
    body.update(type=kind, stopPosition=position, etaNullReason=None)
    return body


PAYMENT_CURRENCY = "GBP"
"""The currency of a ``paymentOnDelivery`` sent without one: the default team's (it is in GB).
The official answer schemas require a currency string, and the request schemas let it out."""


def _payment(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """The stored ``paymentOnDelivery``: both keys present, the currency a string (official
    schema, stopSchema); a payment with neither an amount nor a currency is none."""
    if value is None or (value.get("amount") is None and value.get("currency") is None):
        return None
    return {"amount": value.get("amount"), "currency": value.get("currency") or PAYMENT_CURRENCY}


def patched_body(
    body: dict[str, Any],
    patch: dict[str, Any],
    allowed: list[str],
    identifiers: dict[str, str],
) -> dict[str, Any]:
    """A copy of a stop body with a validated (and reference-checked) PATCH body applied.

    ``allowed`` is the stop's bare driver ids after the patch; location and
    ``circuitClientId`` never change (contract, Stops rule 2).
    """
    body = copy.deepcopy(body)
    if "driver" in patch:
        driver = patch["driver"]
        body["driverIdentifier"] = None if driver is None else identifiers[driver]
    body["allowedDriversIdentifiers"] = [identifiers.get(ref, f"drivers/{ref}") for ref in allowed]
    if "customProperties" in patch:
        value = patch["customProperties"]
        body["customProperties"] = (
            None if value is None else {**(body.get("customProperties") or {}), **value}
        )
    for key, default in (
        ("recipient", empty_recipient()),
        ("orderInfo", _default_order_info()),
        ("timing", _default_timing()),
    ):
        if key in patch:
            body[key] = _merge(body.get(key), patch[key], default)
    if "proofOfAttemptRequirements" in patch:
        body["proofOfAttemptRequirements"] = patch["proofOfAttemptRequirements"] or {"enabled": None}
    for key, default_value in (("activity", "delivery"), ("optimizationOrder", "default")):
        if key in patch:
            body[key] = patch[key] or default_value
    for key in ("packageCount", "notes", "weight"):
        if key in patch:
            body[key] = patch[key]
    if "paymentOnDelivery" in patch:
        body["paymentOnDelivery"] = _payment(patch["paymentOnDelivery"])
    if "barcodes" in patch:
        body["barcodes"] = list(patch["barcodes"])
    return body
