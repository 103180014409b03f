"""The contract's limits on a per-second scale, for real-time tests against the emulator.

The per-minute categories (batch import, optimize) become per-second ones, so
that every category goes through many windows in a few seconds; ``SPEEDUP``
then halves every window. The scheduler's emulator tests and the multi-process
Redis tests share this one block.
"""

from __future__ import annotations

from route_planning_async import Category, RateLimits, Rule

__all__ = ["LIMITS", "LOADED", "SPEEDUP"]

LIMITS = (
    RateLimits.default()
    .replace(Category.BATCH_IMPORT, Rule(10, 1.0), Rule(1000, 1.0, per="weight"))
    .replace(Category.OPTIMIZE, Rule(3, 1.0))
    # These tests send no driver, depot import or member import requests.
    .replace(Category.DRIVER_CREATE)
    .replace(Category.DRIVER_IMPORT)
    .replace(Category.DEPOT_IMPORT)
    .replace(Category.MEMBER_IMPORT)
)
"""The contract's limits with every period one second (read 10/s, write 5/s,
batch import 10/s and 1,000 stops/s, optimize 3/s); the driver and v1 import categories unlimited."""
LOADED = tuple(category for category in Category if LIMITS.for_category(category))
"""The categories these tests send requests in: the contract's four."""
SPEEDUP = 2.0
"""The emulator's speed-up: every window lasts 0.5 s of real time."""
