"""The contract's limits on request bodies (its Limits section and stop body table,
and the bounds of the official OpenAPI schema)."""

from __future__ import annotations

from typing import Final

__all__ = [
    "MAX_ALLOWED_DRIVERS",
    "MAX_BARCODES",
    "MAX_DRIVER_DEPOTS",
    "MAX_DRIVER_IMPORT_BATCH",
    "MAX_IMPORT_BATCH",
    "MAX_PLAN_DRIVERS",
    "MAX_PRODUCTS",
    "MAX_SAFE_INTEGER",
    "MAX_WEIGHT",
    "PAYMENT_CURRENCIES",
    "PLAN_YEAR_RANGE",
]

MAX_IMPORT_BATCH: Final = 100
"""Stops in one batch import (1 to 100)."""
MAX_PLAN_DRIVERS: Final = 50
"""Drivers of a plan."""
MAX_ALLOWED_DRIVERS: Final = 100
"""``allowedDrivers`` of a stop."""
MAX_BARCODES: Final = 200
"""Barcodes of a stop, each 1 to 255 characters (official schema; the contract said 50)."""
MAX_PRODUCTS: Final = 100
"""Product names of a stop's order, each 1 to 255 characters (official schema)."""
MAX_WEIGHT: Final = 999999
"""Largest ``weight.amount`` (official schema), in steps of 0.01."""
MAX_SAFE_INTEGER: Final = 2**53 - 1
"""Largest ``paymentOnDelivery.amount`` (official schema: JavaScript's safe integer)."""
PAYMENT_CURRENCIES: Final = frozenset(
    [
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
        "NOK",
        "NZD",
        "PEN",
        "RON",
        "RUB",
        "SAR",
        "SEK",
        "SGD",
        "TRY",
        "USD",
        "UYU",
        "ZAR",
    ]
)
"""The ISO 4217 codes the official schema accepts for ``paymentOnDelivery.currency``."""
PLAN_YEAR_RANGE: Final = (2000, 2100)
"""Years accepted for a plan's ``starts``, inclusive. The contract only says dates
"too far in the future or past are rejected" without bounds; this range keeps
obvious mistakes (year 20026, year 26) on the client and lets every real plan through."""

# Drivers (public API documentation; the contract has none).
MAX_DRIVER_IMPORT_BATCH: Final = 50
"""Drivers in one batch import (1 to 50)."""
MAX_DRIVER_DEPOTS: Final = 50
"""Depots of one driver (1 to 50, after duplicates are dropped)."""
