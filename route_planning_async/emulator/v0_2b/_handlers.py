"""v0.2b's handlers: the shared ones (``emulator/_wire/_handlers.py``) over v0.2b's routes,
views and stop bodies."""

from __future__ import annotations

from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._wire._api import OperationTimers
from route_planning_async.emulator._wire._handlers import BaseHandlers
from route_planning_async.emulator.v0_2b._requests import STOP_BODIES
from route_planning_async.emulator.v0_2b._routes import ROUTES
from route_planning_async.emulator.v0_2b._views import Views

__all__ = ["Handlers"]


class Handlers(BaseHandlers):
    """One method per endpoint of v0.2b's :data:`ROUTES`."""

    def __init__(self, config: EmulatorConfig, state: EmulatorState, timers: OperationTimers) -> None:
        super().__init__(config, state, timers, ROUTES, Views(state), STOP_BODIES)
