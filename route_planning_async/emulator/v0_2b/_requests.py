"""v0.2b request rules: which stop fields each of its bodies takes.

The rules themselves (every field's bounds, plans, drivers, list queries) are
shared with the other versions (``emulator/_requests.py``); v0.2b's stop bodies
name the client id ``circuitClientId``, take a single ``driver`` beside
``allowedDrivers``, and know no ``serviceInfo`` or ``orderInfo.invoiceNumber``.
"""

from __future__ import annotations

from typing import Any

from route_planning_async.emulator._requests import BodyKind, stop_fields

__all__ = ["validate_stop_body"]

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
_STOP_UPDATE = tuple(name for name in _STOP_CREATE if name not in ("address", "circuitClientId"))
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


def validate_stop_body(
    value: object, kind: BodyKind, path: str = "", *, strict: bool = True
) -> dict[str, Any]:
    """The normalized stop (or unassigned stop) body of a v0.2b call (:func:`stop_fields`)."""
    return stop_fields(value, _ALLOWED[kind], path, partial=kind.endswith(".update"), strict=strict)
