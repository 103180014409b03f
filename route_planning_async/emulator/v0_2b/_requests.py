"""v0.2b request rules: which stop fields its bodies take.

The rules themselves (every field's bounds, plans, drivers, list queries) are
shared with the other versions (``emulator/_rules/_requests.py``); v0.2b's stop bodies
name the client id ``circuitClientId`` and take a single ``driver`` beside
``allowedDrivers``.
"""

from __future__ import annotations

from typing import Final

from route_planning_async.emulator._rules._stop_requests import StopBodies

__all__ = ["STOP_BODIES"]

STOP_BODIES: Final = StopBodies("circuitClientId", ("driver",))
"""v0.2b's stop bodies (contract, Stops in a plan: stop body fields)."""
