"""What the request pipeline and each API version share: the call, the reply, the version.

The pipeline (``_server/_app.py``) is the same for every version; an :class:`ApiVersion`
brings what differs: its base path, its route table, the handlers that turn a
:class:`Call` into a :class:`Reply` (validating the version's bodies and shaping
its answers), and how it counts the stops of an import. Handlers that start an
optimization ask :class:`OperationTimers` to finish it on time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import attrs
from multidict import MultiMapping

from route_planning_async.emulator._rules._routes import RouteSpec, RouteTable
from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._store._records import PlanRecord, StopRecord

__all__ = [
    "NO_BODY",
    "ApiVersion",
    "Call",
    "Handler",
    "OperationTimers",
    "Reply",
    "served_version",
    "stop_import_items",
]

NO_BODY = object()
"""The body of a call that came without one."""


@attrs.frozen
class Call:
    """What a handler gets."""

    route: RouteSpec
    """The matched endpoint."""
    params: dict[str, str]
    """Path ids, already checked."""
    query: MultiMapping[str]
    """Decoded query parameters."""
    json: Any
    """The decoded body, or ``NO_BODY``."""
    now: float
    """Server clock reading."""


@attrs.frozen
class Reply:
    """What a handler answers."""

    status: int
    """HTTP status."""
    body: Any = None
    """JSON-able body; None for an empty body (204)."""


Handler = Callable[[Call], Reply]
"""The handler of one endpoint."""


class OperationTimers:
    """Timers that finish each optimization when its deadline passes, even without a request."""

    def __init__(self, config: EmulatorConfig, state: EmulatorState) -> None:
        self.config = config
        self.state = state
        self._timers: set[asyncio.TimerHandle] = set()

    def finish_on_time(self, plan: PlanRecord) -> None:
        """Settle the state when the operation running on ``plan`` reaches its deadline."""
        operation = self.state.operations.get(plan.running_operation or "")
        if operation is None or operation.done:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, operation.deadline - self.config.clock())

        def fire() -> None:
            self._timers.discard(timer)
            self.state.settle(self.config.clock())

        timer = loop.call_later(delay, fire)
        self._timers.add(timer)

    def cancel(self) -> None:
        """Stop every timer."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()


@attrs.frozen
class ApiVersion:
    """One version of the API, as the emulator serves it below its base path."""

    name: str
    """The version as the service names it (``v0.2b``); also the ``version`` of its webhook events."""
    base_path: str
    """Every endpoint of the version lives below this path."""
    routes: RouteTable
    """The version's endpoints."""
    handlers: Callable[[EmulatorConfig, EmulatorState, OperationTimers], Mapping[str, Handler]]
    """The handler of each endpoint, by endpoint name, over an emulator's state."""
    import_items: Callable[[object], tuple[str, list[Any]]]
    """The items of a decoded batch import body, and the param path they sit under."""
    stop_json: Callable[[EmulatorState, StopRecord], dict[str, Any]]
    """A stop as the version serves it (the ``data`` of a stop's webhook events)."""


def stop_import_items(data: object) -> tuple[str, list[Any]]:
    """The items of a stop import body (a list of stops) or an unassigned stop import body
    (``{"unassignedStops": [...]}``), and the param path they sit under (every version's)."""
    prefix = ""
    if isinstance(data, dict):
        data = data.get("unassignedStops")
        prefix = "unassignedStops"
    return prefix, data if isinstance(data, list) else []


class _Handlers(Protocol):
    table: Mapping[str, Handler]


class _Views(Protocol):
    def stop_json(self, record: StopRecord) -> dict[str, Any]: ...


def served_version(
    name: str,
    base_path: str,
    routes: RouteTable,
    handlers: Callable[[EmulatorConfig, EmulatorState, OperationTimers], _Handlers],
    views: Callable[[EmulatorState], _Views],
) -> ApiVersion:
    """A version from its handlers' and views' classes (each version's package makes its own)."""
    return ApiVersion(
        name,
        base_path,
        routes,
        lambda config, state, timers: handlers(config, state, timers).table,
        stop_import_items,
        lambda state, record: views(state).stop_json(record),
    )
