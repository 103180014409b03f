"""A faithful local Route Planning server, for demos, tests and benchmarks.

Like moto or stripe-mock, it re-implements the service (v0.2b and v1) on its own, so it
catches the client's mistakes instead of sharing them: strict validation, the
plan state machine, exact sliding-window rate limits per API key, a deterministic
optimizer and geocoder, and scriptable seeded faults. It serves HTTPS on
loopback with a throwaway CA::

    from route_planning_async.emulator import Emulator, Fault

    async with Emulator(speedup=60) as emu:
        emu.faults.add(Fault("error_after_commit", route="stops.import_batch", nth=3))
        async with emu.client() as client:
            report = await client.stops.import_many(plan_id, rows)
        assert emu.max_in_window("batch_import", per="weight") <= 1000

Its limits are its own, and can disagree with any client's, as a real service's
do: ``rate_limits`` per category, read as exact sliding windows or as token
buckets with a burst (``limiter``, ``burst``), with or without refused requests
counting (``count_rejected``), changing mid-run (``limit_schedule``,
``emu.set_rate_limits``), with the penalty for sustained traffic near the limit
(``punish_sustained``), with the lockout of a key that keeps retrying into 429s
(``lockout``), behind a link with latency and jitter (``latency``,
``latency_jitter``)::

    slow = RateLimits.default().replace("read", Rule(4, 1.0))
    async with Emulator(speedup=10, limit_schedule=[(20, slow), (40, RateLimits.default())]) as emu:
        async with emu.client(rate_limits=RateLimits.default().scaled(10)) as client:
            plans = await client.plans.list().collect()  # learns the slower reads at t=20
        emu.log.limits_at(emu.log.records[-1].time)  # the limits in force then

Run it as a process with ``python -m route_planning_async.emulator``; pytest gets
the ``route_planning_emulator`` and ``route_planning_client`` fixtures from
``route_planning_async.emulator.pytest_plugin``.

Names are loaded on first use, so importing this package (and the pytest plugin)
costs nothing until an emulator is made.

It serves each API version below its base path, from one store, as the service
does: a plan made through one version is read through the other
(``emu.base_url_for("v0.2b")``, ``emu.base_url_for("v1")``; ``emu.base_url`` is
v0.2b's). What every version shares knows no version: the store, the plan
lifecycle, the limits, the faults, the server and the pipeline, and the request
rules, handlers and answers the versions have in common; what a version decides
(its route table, stop fields and answers) is in its own package, ``v0_2b/`` and
``v1/``.

The rooms, top-down (a room imports only the rooms below it; each room's
``__init__.py`` says what lives there and what it may import):

- ``_server/``: :class:`Emulator` and its measures, the aiohttp application and the
  request pipeline, the versions served, the throwaway CA; ``__main__.py``: the
  process; ``pytest_plugin.py``: the fixtures;
- ``v0_2b/`` and ``v1/``: what each version decides (base path, route table, request
  rules, views, handlers; v1's stop search);
- ``_wire/``: what the versions share on the wire: the call and reply, the handlers,
  the answers, and the webhook events POSTed out;
- ``_service/``: the service's behaviour on the data: :class:`EmulatorState`, edits,
  live changes, optimizations, the plan state machine, drivers, depots, members,
  service offerings, a driver driving a route;
- ``_store/``: the stored records, their JSON bodies, the collections, the store;
- ``_rules/``: what a request must look like (value checks, route tables, pages,
  request rules) and the error answer when it does not;
- ``_routing/``: the deterministic geocoder, distances and optimizer;
- ``_traffic/``: what happens to a request before a handler: the rate limits per API
  key, the link's latency, scripted faults, the request log;
- ``_setup/``: what an emulator is told to be: :class:`EmulatorConfig`, the team and
  its file, the lockout policy, the command line both emulator commands take.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from route_planning_async.emulator._rules._routes import RouteSpec
    from route_planning_async.emulator._server._server import Emulator
    from route_planning_async.emulator._service._state import EmulatorState
    from route_planning_async.emulator._setup._config import EmulatorConfig, LimiterKind, PunishSustained
    from route_planning_async.emulator._setup._lockout import Lockout
    from route_planning_async.emulator._setup._team import (
        CustomStopPropertyConfig,
        DepotConfig,
        DriverConfig,
        ServiceOfferingConfig,
        TeamConfig,
    )
    from route_planning_async.emulator._setup._team_file import TeamFile, read_team_file
    from route_planning_async.emulator._traffic._faults import Fault, FaultEvent, FaultInjector, FaultKind
    from route_planning_async.emulator._traffic._limits import LimitChange, LimitTimeline, RateLimiter
    from route_planning_async.emulator._traffic._log import RequestLog, RequestRecord
    from route_planning_async.emulator._wire._webhooks import WebhookDelivery, WebhookSender
    from route_planning_async.emulator.v0_2b import BASE_PATH, ROUTES

__all__ = [
    "BASE_PATH",
    "ROUTES",
    "CustomStopPropertyConfig",
    "DepotConfig",
    "DriverConfig",
    "Emulator",
    "EmulatorConfig",
    "EmulatorState",
    "Fault",
    "FaultEvent",
    "FaultInjector",
    "FaultKind",
    "LimitChange",
    "LimitTimeline",
    "LimiterKind",
    "Lockout",
    "PunishSustained",
    "RateLimiter",
    "RequestLog",
    "RequestRecord",
    "RouteSpec",
    "ServiceOfferingConfig",
    "TeamConfig",
    "TeamFile",
    "WebhookDelivery",
    "WebhookSender",
    "read_team_file",
]

_WHERE = {
    "BASE_PATH": "v0_2b",
    "ROUTES": "v0_2b",
    "RouteSpec": "_rules._routes",
    "CustomStopPropertyConfig": "_setup._team",
    "DepotConfig": "_setup._team",
    "DriverConfig": "_setup._team",
    "EmulatorConfig": "_setup._config",
    "LimiterKind": "_setup._config",
    "PunishSustained": "_setup._config",
    "Lockout": "_setup._lockout",
    "ServiceOfferingConfig": "_setup._team",
    "TeamConfig": "_setup._team",
    "TeamFile": "_setup._team_file",
    "read_team_file": "_setup._team_file",
    "Fault": "_traffic._faults",
    "FaultEvent": "_traffic._faults",
    "FaultInjector": "_traffic._faults",
    "FaultKind": "_traffic._faults",
    "LimitChange": "_traffic._limits",
    "LimitTimeline": "_traffic._limits",
    "RateLimiter": "_traffic._limits",
    "RequestLog": "_traffic._log",
    "RequestRecord": "_traffic._log",
    "Emulator": "_server._server",
    "EmulatorState": "_service._state",
    "WebhookDelivery": "_wire._webhooks",
    "WebhookSender": "_wire._webhooks",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
