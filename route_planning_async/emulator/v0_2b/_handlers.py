"""v0.2b's handlers: the shared ones (``emulator/_handlers.py``) over v0.2b's routes,
views and stop body rules."""

from __future__ import annotations

from typing import Any

from route_planning_async.emulator._api import OperationTimers
from route_planning_async.emulator._config import EmulatorConfig
from route_planning_async.emulator._handlers import BaseHandlers
from route_planning_async.emulator._requests import BodyKind
from route_planning_async.emulator._state import EmulatorState
from route_planning_async.emulator.v0_2b._requests import validate_stop_body
from route_planning_async.emulator.v0_2b._routes import ROUTES
from route_planning_async.emulator.v0_2b._views import Views

__all__ = ["Handlers"]


class Handlers(BaseHandlers):
    """One method per endpoint of v0.2b's :data:`ROUTES`."""

    def __init__(self, config: EmulatorConfig, state: EmulatorState, timers: OperationTimers) -> None:
        super().__init__(config, state, timers, ROUTES, Views(state))

    def stop_body(self, value: object, kind: BodyKind, path: str = "") -> dict[str, Any]:
        """A v0.2b stop body (``circuitClientId``, ``driver``), validated and normalized."""
        return validate_stop_body(value, kind, path, strict=self.config.strict)
