"""1a. Bulk import utilization: 20,000 stops at the contract's batch-import limits.

The emulator enforces the contract's limits exactly (sliding windows, 429s that
still count), sped up; the library's ``client.stops.import_many`` and the four
baselines import the same stops into a fresh emulator each.

Theoretical minimum (the formula of RESULTS.md): at most 1,000 stops (and 10
requests) are admitted in any window of ``P`` seconds, and the first window is
free, so N stops need ``W = ceil(N / 1000)`` windows whose starts are at least
``P`` apart: the last request can arrive no sooner than ``(W - 1) x P`` after
the first, and the import ends when its answer is back::

    T_min = (ceil(N / 1000) - 1) x P + L_last

with ``L_last`` the measured latency (send to answer) of the last request.
"""

from __future__ import annotations

import asyncio
import datetime
import math
import time
from types import ModuleType
from typing import Any

import route_planning_async
from benchmarks._harness import _baselines as baselines
from benchmarks._harness._emu import EmulatorServer, category_figures
from benchmarks._harness._payloads import stop_inputs
from benchmarks._harness._tracing import Latencies
from benchmarks._results._figures import check, median, result, rounded, table
from route_planning_async import Category, RateLimits

RATIO_BAR = 1.03
"""Acceptance: time / theoretical minimum <= 1.03."""
BASELINE_CAP = 1.25
"""A baseline is stopped after this many times the theoretical minimum (plus 1 s)."""
STOPS_PER_WINDOW = 1000
BATCH = 100
PLAN_DATE = datetime.date(2030, 1, 7)


def _sizes(quick: bool) -> tuple[int, float]:
    # Speed-up 60: a contract minute lasts 1 s, about 100 times the loopback latency of a
    # 100-stop import, so the window edges are measured, not the latency.
    return (2_000, 600.0) if quick else (20_000, 60.0)


async def _fresh_plan(server: EmulatorServer, api: ModuleType) -> str:
    """A plan to import into; the setup traffic is then forgotten by the log and the limiter."""
    async with api.RoutePlanningClient(server.api_key, **server.client_kwargs(api)) as client:
        plan = await client.plans.create(title="bench import", starts=PLAN_DATE)
    server.reset()
    return str(plan.id)


async def library_import(
    server: EmulatorServer, n: int, cap: float, api: ModuleType = route_planning_async
) -> dict[str, Any]:
    """``client.stops.import_many`` of ``n`` stops into a fresh plan, with the client of ``api``
    (the package of an API version: v0.2b's by default, or ``route_planning_async.v1``)."""
    latencies = Latencies()
    plan_id = await _fresh_plan(server, api)
    async with (
        latencies.session() as session,
        api.RoutePlanningClient(server.api_key, session=session, **server.client_kwargs(api)) as client,
    ):
        started = time.monotonic()
        try:
            report = await asyncio.wait_for(client.stops.import_many(plan_id, stop_inputs(n, api)), cap)
        except TimeoutError:
            report = None
        elapsed = time.monotonic() - started
        stats = client.stats[Category.BATCH_IMPORT]
    log = server.log()
    imports = sorted(r.time for r in log.select("batch_import") if r.admitted)
    return {
        "elapsed": elapsed,
        "created": report.created if report is not None else None,
        "report": repr(report),
        "last": latencies.last_started(":import"),
        "latency_median": median(latencies.durations(":import")),
        "requests": category_figures(log, server.limits, server.speedup, "batch_import"),
        "stops": category_figures(log, server.limits, server.speedup, "batch_import", weighted=True),
        "schedule_span": imports[-1] - imports[0] if imports else math.nan,
        "first_arrival_after": imports[0] - started if imports else math.nan,
        "client_429": stats.rate_limited,
    }


async def _baseline(server: EmulatorServer, name: str, n: int, cap: float) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, route_planning_async)
    workload = baselines.import_calls(plan_id, n, BATCH)
    target = baselines.Target(server.base_url, server.api_key, server.ssl_context)
    strategy = baselines.strategies(server.limits.scaled(server.speedup))[name]
    outcome = await baselines.run_capped(strategy, target, workload, server.speedup, cap)
    log = server.log()
    outcome["server_429"] = len(log.rejected("batch_import"))
    outcome["max_in_window_stops"] = category_figures(
        log, server.limits, server.speedup, "batch_import", weighted=True
    )["max_in_window"]
    return outcome


def run(quick: bool = False) -> dict[str, Any]:
    """Import N stops with the library and with each baseline; time against the theoretical minimum."""
    n, speedup = _sizes(quick)
    period = 60.0 / speedup
    windows = math.ceil(n / STOPS_PER_WINDOW)
    floor_schedule = (windows - 1) * period
    # --quick serves plain HTTP: no certificate to make, a faster smoke pass.
    with EmulatorServer(speedup=speedup, tls=not quick) as server:
        return _run(server, n, speedup, period, windows, floor_schedule, quick)


def _run(
    server: EmulatorServer,
    n: int,
    speedup: float,
    period: float,
    windows: int,
    floor_schedule: float,
    quick: bool,
) -> dict[str, Any]:
    lib = asyncio.run(library_import(server, n, cap=10 * floor_schedule + 30))
    last_latency = lib["last"][1] - lib["last"][0] if lib["last"] else math.nan
    t_min = floor_schedule + last_latency
    ratio = lib["elapsed"] / t_min
    zero_429 = lib["requests"]["rejected_429"] + lib["client_429"]

    cap = BASELINE_CAP * t_min + (0.3 if quick else 1.0)
    rows: list[list[Any]] = [
        [
            "library: client.stops.import_many",
            "yes" if lib["created"] == n else "no",
            rounded(lib["elapsed"], 2),
            rounded(ratio, 3),
            f"{lib['created']:,} / {n:,}" if lib["created"] is not None else f"? / {n:,}",
            lib["requests"]["rejected_429"],
            lib["stops"]["max_in_window"],
            "",
        ]
    ]
    baseline_figures: dict[str, Any] = {}
    for name in baselines.strategies(RateLimits.default()):
        out = asyncio.run(_baseline(server, name, n, cap))
        baseline_figures[name] = out
        note = ""
        if not out["finished"]:
            projected = out["projected_seconds"]
            note = (
                f"stopped at the cap; at its pace it would need {projected:.1f} s ({projected / t_min:.2f}x)"
                if math.isfinite(projected)
                else "stopped at the cap with nothing imported"
            )
        elif out["calls_lost"]:
            note = f"{out['calls_lost']} batches lost to 429 (no retry)"
        rows.append(
            [
                name,
                "yes" if out["finished"] and out["weight_ok"] == n else "no",
                rounded(out["seconds"], 2),
                rounded(out["seconds"] / t_min, 3),
                f"{out['weight_ok']:,} / {n:,}",
                out["server_429"],
                out["max_in_window_stops"],
                note,
            ]
        )
    return result(
        f"Bulk import of {n:,} stops at the contract's batch-import limits",
        settings={
            "stops": n,
            "batch size": BATCH,
            "limits": "10 requests and 1,000 stops per 60 s window (contract), exact sliding windows, "
            "rejected requests count",
            "speed-up": speedup,
            "window P": f"{period:g} s",
            "transport": f"{'HTTP' if quick else 'HTTPS'} on loopback, emulator in its own process",
            "baseline cap": f"{BASELINE_CAP} x T_min + {0.3 if quick else 1:g} s = {cap:.1f} s",
        },
        figures={
            "elapsed (s)": rounded(lib["elapsed"], 3),
            "T_min = (ceil(N/1000) - 1) x P + L_last (s)": rounded(t_min, 3),
            "L_last, latency of the last request (s)": rounded(last_latency, 4),
            "time / T_min": rounded(ratio, 4),
            "first request sent after (s)": rounded(lib["first_arrival_after"], 4),
            "first-to-last arrival span / ((W - 1) x P)": rounded(lib["schedule_span"] / floor_schedule, 4)
            if floor_schedule
            else None,
            "median import latency (s)": rounded(lib["latency_median"], 4),
            "stops created": lib["created"],
            "429 answers (emulator log)": lib["requests"]["rejected_429"],
            "429 answers (client stats)": lib["client_429"],
            "max stops in any window (limit 1,000)": lib["stops"]["max_in_window"],
            "max requests in any window (limit 10)": lib["requests"]["max_in_window"],
            "stop utilization": lib["stops"]["utilization"],
        },
        checks=[
            check("import time / theoretical minimum", rounded(ratio, 4), "<=", RATIO_BAR),
            check("import 429s", zero_429, "==", 0),
            check("import stops created", lib["created"], "==", n),
        ],
        tables=[
            table(
                "Library and baselines (same emulator settings, same run)",
                [
                    "Strategy",
                    "Finished",
                    "Time (s)",
                    "x T_min",
                    "Stops imported",
                    "429s",
                    "Max stops/window",
                    "Note",
                ],
                rows,
            )
        ],
        notes=[
            "T_min: the first window is free, so ceil(N/1000) windows need (ceil(N/1000) - 1) full periods "
            "between the first and the last admitted request; the import ends when the last answer is back.",
            *(f"Baseline {name}: {text}." for name, text in baselines.DESCRIPTIONS.items()),
        ],
    ) | {"raw": {"library": lib, "baselines": baseline_figures}}
