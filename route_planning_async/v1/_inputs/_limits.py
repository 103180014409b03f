"""The limits on v1's own request bodies (the official v1 schema); the limits every
version shares are in ``route_planning_async/_inputs/_limits.py``."""

from __future__ import annotations

from typing import Final

__all__ = [
    "MAX_DEPOT_IMPORT_BATCH",
    "MAX_DEPOT_NAME",
    "MAX_MEMBER_DEPOTS",
    "MAX_MEMBER_IMPORT_BATCH",
    "MAX_SERVICE_IDENTIFIER",
]

MAX_DEPOT_IMPORT_BATCH: Final = 100
"""Depots in one batch import (1 to 100, ``POST /depots:import``)."""
MAX_MEMBER_IMPORT_BATCH: Final = 50
"""Members in one batch import (1 to 50, ``POST /members:import``)."""
MAX_MEMBER_DEPOTS: Final = 50
"""Depots of one member (1 to 50, after duplicates are dropped)."""
MAX_DEPOT_NAME: Final = 2048
"""Longest depot name."""
MAX_SERVICE_IDENTIFIER: Final = 32
"""Longest ``serviceInfo.identifier`` (letters and digits only)."""
