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

The rooms, from the outside in:

- ``_server.py``: :class:`Emulator`, the server on a loopback socket and its
  measures (``max_in_window`` ...); ``_tls.py``: the throwaway CA;
  ``__main__.py``: the process; ``pytest_plugin.py``: the fixtures;
- ``_config.py``: :class:`EmulatorConfig`; ``_team.py``: the team (drivers, depots, custom
  stop properties, service offerings); ``_team_file.py``: the team read from a TOML or JSON file;
  ``_options.py``: the command line both emulator commands take;
- ``_app.py``: the aiohttp application and the request pipeline (base path,
  authentication, route, path ids, rate limits, faults, body) that ends in a
  version's handler; ``_api.py``: what the pipeline and a version share (the
  call, the reply, :class:`ApiVersion`); ``_versions.py``: the versions served;
  ``_routes.py``: route tables, the endpoints every version serves, and path
  matching; ``_pages.py``: page sizes, filters and page tokens of the lists;
  ``_validation.py``: the JSON value checks request rules are written with;
  ``_requests.py`` and ``_stop_requests.py``: the request rules the versions
  share (each version names its stop fields); ``_handlers.py``: the handlers the versions share;
  ``_views.py``: the answers the versions give alike; ``_problems.py``: error
  answers;
- ``v0_2b/``: v0.2b's base path, route table, stop fields, views (the JSON
  answers) and handlers;
- ``v1/``: v1's base path, route table, request rules (stop fields, depots,
  members), views, handlers (the depot rule, depots, members, routes) and the stop
  search (``_search.py``);
- ``_limits.py``: the server's rate limits per API key (sliding windows or token
  buckets, the penalty for sustained traffic) and the timeline of the limits in
  force; ``_lockout.py``: the lockout of a key refused at a high rate;
  ``_link.py``: the link's latency and jitter; ``_faults.py``: scripted faults;
  ``_log.py``: the request log (and the limits in force when);
- ``_state.py``: :class:`EmulatorState`, the one object that holds the data, put
  together from ``_store.py`` (collections, ids, lookups and guards),
  ``_edits.py`` (plain writes to plans, stops and unassigned stops),
  ``_live.py`` (live changes), ``_optimizations.py`` (optimization operations),
  ``_lifecycle.py`` (save and distribution: the plan state machine),
  ``_drivers.py`` (the team's drivers, changeable as the public API documentation
  allows), ``_depots.py`` and ``_members.py`` (v1's depots and members);
  ``_services.py``: the service offerings a stop's ``serviceInfo`` names (v1);
- ``_records.py``: the stored records; ``_bodies.py``: stop bodies in their stored
  JSON form; ``_collections.py``: ordered stores with cursor pagination;
- ``_driving.py``: a driver working through a distributed route
  (``Emulator.simulate_route``); ``_webhooks.py``: the webhook events, signed and
  POSTed to ``webhook_url`` with retries;
- ``_optimizer.py``: the deterministic route optimizer; ``_geo.py``: the geocoder
  and distances.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from route_planning_async.emulator._config import EmulatorConfig, LimiterKind, PunishSustained
    from route_planning_async.emulator._faults import Fault, FaultEvent, FaultInjector, FaultKind
    from route_planning_async.emulator._limits import LimitChange, LimitTimeline, RateLimiter
    from route_planning_async.emulator._lockout import Lockout
    from route_planning_async.emulator._log import RequestLog, RequestRecord
    from route_planning_async.emulator._routes import RouteSpec
    from route_planning_async.emulator._server import Emulator
    from route_planning_async.emulator._state import EmulatorState
    from route_planning_async.emulator._team import (
        CustomStopPropertyConfig,
        DepotConfig,
        DriverConfig,
        ServiceOfferingConfig,
        TeamConfig,
    )
    from route_planning_async.emulator._team_file import TeamFile, read_team_file
    from route_planning_async.emulator._webhooks import WebhookDelivery, WebhookSender
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
    "RouteSpec": "_routes",
    "CustomStopPropertyConfig": "_team",
    "DepotConfig": "_team",
    "DriverConfig": "_team",
    "EmulatorConfig": "_config",
    "LimiterKind": "_config",
    "PunishSustained": "_config",
    "Lockout": "_lockout",
    "ServiceOfferingConfig": "_team",
    "TeamConfig": "_team",
    "TeamFile": "_team_file",
    "read_team_file": "_team_file",
    "Fault": "_faults",
    "FaultEvent": "_faults",
    "FaultInjector": "_faults",
    "FaultKind": "_faults",
    "LimitChange": "_limits",
    "LimitTimeline": "_limits",
    "RateLimiter": "_limits",
    "RequestLog": "_log",
    "RequestRecord": "_log",
    "Emulator": "_server",
    "EmulatorState": "_state",
    "WebhookDelivery": "_webhooks",
    "WebhookSender": "_webhooks",
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
