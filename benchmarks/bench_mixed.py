"""1b. Mixed sustained load: reads, writes, imports and optimizes from 200 tasks.

Every category gets exactly what its limit allows in ``D`` contract seconds
(``amount x D / period`` calls), so a client that saturates every limit
finishes all four categories together after ``D - period``. Utilization is read
from the emulator's log per category: admitted / (amount x (span / period + 1)).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from benchmarks._harness import _baselines as baselines
from benchmarks._harness._emu import EmulatorServer, category_figures
from benchmarks._harness._payloads import stop_body, stop_input
from benchmarks._harness._tracing import Latencies
from benchmarks._results._figures import check, median, result, rounded, table
from route_planning_async import Category, RateLimits, RoutePlanningClient, Rule

UTILIZATION_BAR = 0.97
"""Acceptance: at least 97% of every category's limit."""
BASELINE_CAP = 1.25
"""A baseline is stopped after this many times the theoretical time (plus 1 s)."""
CATEGORIES = ("read", "write", "batch_import", "optimize")
TASKS = {"read": 110, "write": 60, "batch_import": 20, "optimize": 10}
"""200 tasks in all."""
PLAN_DATE = datetime.date(2030, 1, 7)
BATCH = 100


def _settings(quick: bool) -> tuple[float, float]:
    """(speed-up, D in contract seconds).

    Speed-up 5: the read window lasts 200 ms, about 100 times a loopback round trip, and the
    import and optimize windows 12 s; D = 120 contract seconds gives those two categories two
    full windows and the reads 120.
    """
    return (120.0, 30.0) if quick else (5.0, 120.0)


def _request_rule(limits: RateLimits, category: str) -> Rule:
    return next(r for r in limits.for_category(Category(category)) if r.per == "request")


def _counts(limits: RateLimits, duration: float) -> dict[str, int]:
    counts = {}
    for category in CATEGORIES:
        rule = _request_rule(limits, category)
        counts[category] = int(rule.amount * duration / rule.period)
    return counts


class _Setup:
    """The plans the workload touches, made before the measured run."""

    def __init__(self, read: str, write: str, imports: str, optimize: list[str]) -> None:
        self.read, self.write, self.imports, self.optimize = read, write, imports, optimize


async def _setup(server: EmulatorServer, optimizes: int) -> _Setup:
    # The previous arm's traffic still fills the windows: a client at first contact there is
    # refused (a setup 429 the measured figures never see, but the level log prints).
    server.reset()
    async with RoutePlanningClient(server.api_key, **server.client_kwargs()) as client:

        async def plan(title: str) -> str:
            created = await client.plans.create(title=title, starts=PLAN_DATE, drivers=["drivers/driver-ana"])
            return created.id

        ids = [await plan(f"bench {i}") for i in range(3 + optimizes)]
    server.reset()
    return _Setup(ids[0], ids[1], ids[2], ids[3:])


def _split(items: list[Any], parts: int) -> list[list[Any]]:
    return [items[i::parts] for i in range(parts)]


def _import_body(start: int) -> list[dict[str, Any]]:
    return [stop_body(i) for i in range(start, start + BATCH)]


def _raw_workload(setup: _Setup, counts: dict[str, int]) -> list[list[baselines.Call]]:
    bare = {name: getattr(setup, name).split("/", 1)[1] for name in ("read", "write", "imports")}
    calls: dict[str, list[baselines.Call]] = {
        "read": [baselines.Call("GET", f"/plans/{bare['read']}", "read")] * counts["read"],
        "write": [
            baselines.Call(
                "PATCH", f"/plans/{bare['write']}", "write", json.dumps({"title": f"w{i}"}).encode()
            )
            for i in range(counts["write"])
        ],
        "batch_import": [
            baselines.Call(
                "POST",
                f"/plans/{bare['imports']}/stops:import",
                "batch_import",
                json.dumps(_import_body(i * BATCH)).encode(),
                BATCH,
            )
            for i in range(counts["batch_import"])
        ],
        "optimize": [
            baselines.Call("POST", f"/plans/{plan.split('/', 1)[1]}:optimize", "optimize")
            for plan in setup.optimize[: counts["optimize"]]
        ],
    }
    return [task for category in CATEGORIES for task in _split(calls[category], TASKS[category])]


def _library_workload(
    client: RoutePlanningClient, setup: _Setup, counts: dict[str, int]
) -> list[list[Callable[[], Awaitable[object]]]]:
    def read() -> Awaitable[object]:
        return client.plans.get(setup.read)

    def write(i: int) -> Callable[[], Awaitable[object]]:
        return lambda: client.plans.update(setup.write, title=f"w{i}")

    def imports(i: int) -> Callable[[], Awaitable[object]]:
        return lambda: client.stops.import_batch(
            setup.imports, [stop_input(j) for j in range(i * BATCH, (i + 1) * BATCH)]
        )

    def optimize(plan: str) -> Callable[[], Awaitable[object]]:
        return lambda: client.plans.optimize(plan)

    calls: dict[str, list[Callable[[], Awaitable[object]]]] = {
        "read": [read] * counts["read"],
        "write": [write(i) for i in range(counts["write"])],
        "batch_import": [imports(i) for i in range(counts["batch_import"])],
        "optimize": [optimize(p) for p in setup.optimize[: counts["optimize"]]],
    }
    return [task for category in CATEGORIES for task in _split(calls[category], TASKS[category])]


async def _library(server: EmulatorServer, counts: dict[str, int], cap: float) -> dict[str, Any]:
    setup = await _setup(server, counts["optimize"])
    latencies = Latencies()
    finished_at: dict[str, float] = {}
    async with (
        latencies.session() as session,
        RoutePlanningClient(server.api_key, session=session, **server.client_kwargs()) as client,
    ):
        workload = _library_workload(client, setup, counts)
        categories = [c for c in CATEGORIES for _ in range(TASKS[c])]

        async def task(category: str, calls: list[Callable[[], Awaitable[object]]]) -> None:
            for call in calls:
                await call()
            finished_at[category] = max(finished_at.get(category, 0.0), time.monotonic())

        started = time.monotonic()
        finished = True
        try:
            async with asyncio.timeout(cap):
                await asyncio.gather(*(task(c, t) for c, t in zip(categories, workload, strict=True)))
        except TimeoutError:
            finished = False
        elapsed = time.monotonic() - started
        stats = client.stats
    log = server.log()
    per_category = {c: category_figures(log, server.limits, server.speedup, c) for c in CATEGORIES}
    per_category["batch_import (stops)"] = category_figures(
        log, server.limits, server.speedup, "batch_import", weighted=True
    )
    suffix = {"read": "", "write": "", "batch_import": ":import", "optimize": ":optimize"}
    return {
        "finished": finished,
        "elapsed": elapsed,
        "per_category": per_category,
        "finish": {c: finished_at[c] - started for c in finished_at},
        "client_429": sum(stats[Category(c)].rate_limited for c in CATEGORIES),
        "server_429": len(log.rejected()),
        "latency": {
            "import": median(latencies.durations(suffix["batch_import"])),
            "optimize": median(latencies.durations(suffix["optimize"])),
            "read/write": median([e - s for m, url, s, e in latencies.records if m in ("GET", "PATCH")]),
        },
    }


async def _baseline(server: EmulatorServer, name: str, counts: dict[str, int], cap: float) -> dict[str, Any]:
    setup = await _setup(server, counts["optimize"])
    target = baselines.Target(server.base_url, server.api_key, server.ssl_context)
    strategy = baselines.strategies(server.limits.scaled(server.speedup))[name]
    outcome = await baselines.run_capped(strategy, target, _raw_workload(setup, counts), server.speedup, cap)
    log = server.log()
    outcome["server_429"] = len(log.rejected())
    outcome["utilization"] = {
        c: category_figures(log, server.limits, server.speedup, c)["utilization"] for c in CATEGORIES
    }
    return outcome


def run(quick: bool = False) -> dict[str, Any]:
    """The mixed load through the library and each baseline; utilization per category."""
    speedup, duration = _settings(quick)
    limits = RateLimits.default()
    counts = _counts(limits, duration)
    # Every category's last window starts D - period after its first (the first is free).
    theoretical = max(duration - _request_rule(limits, c).period for c in CATEGORIES) / speedup
    with EmulatorServer(limits=limits, speedup=speedup, tls=not quick) as server:
        lib = asyncio.run(_library(server, counts, cap=5 * theoretical + 30))
        cap = BASELINE_CAP * theoretical + (0.3 if quick else 1.0)
        outcomes = {
            name: asyncio.run(_baseline(server, name, counts, cap)) for name in baselines.strategies(limits)
        }
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")

    pc = lib["per_category"]
    total_calls = sum(counts.values())
    rows: list[list[Any]] = [
        [
            "library (one client, 200 tasks)",
            "yes" if lib["finished"] else "no",
            rounded(lib["elapsed"], 2),
            rounded(lib["elapsed"] / theoretical, 3),
            f"{sum(pc[c]['admitted'] for c in CATEGORIES):,} / {total_calls:,}",
            sum(pc[c]["rejected_429"] for c in CATEGORIES),
            *(pc[c]["utilization"] for c in CATEGORIES),
            "",
        ]
    ]
    for name, out in outcomes.items():
        note = ""
        if not out["finished"]:
            projected = out["projected_seconds"]
            note = (
                f"stopped at the cap; at its pace it would need {projected:.1f} s"
                f" ({projected / theoretical:.2f}x)"
            )
        elif out["calls_lost"]:
            note = f"{out['calls_lost']} calls lost to 429 (no retry)"
        if out["errors"]:
            note += f"; {out['errors']} other errors"
        rows.append(
            [
                name,
                "yes" if out["finished"] and out["calls_ok"] == out["calls_total"] else "no",
                rounded(out["seconds"], 2),
                rounded(out["seconds"] / theoretical, 3),
                f"{out['calls_ok']:,} / {out['calls_total']:,}",
                out["server_429"],
                *(out["utilization"][c] for c in CATEGORIES),
                note,
            ]
        )
    figures: dict[str, Any] = {
        "time to finish (s)": rounded(lib["elapsed"], 3),
        "theoretical time, max over categories of (D - period) / speed-up (s)": rounded(theoretical, 3),
        "429 answers (emulator log)": sum(pc[c]["rejected_429"] for c in CATEGORIES),
        "429 answers (client stats)": lib["client_429"],
    }
    for c, fig in pc.items():
        figures[f"{c}: admitted / max in any window (limit)"] = (
            f"{fig['admitted']:,} / {fig['max_in_window']} ({fig['limit']})"
        )
        figures[f"{c}: utilization (emulator's floor formula)"] = fig["utilization_emulator"]
        figures[f"{c}: utilization"] = fig["utilization"]
    for c, t in sorted(lib["finish"].items()):
        figures[f"{c}: last call answered after (s)"] = rounded(t, 3)
    for what, seconds in lib["latency"].items():
        figures[f"median latency, {what} (ms)"] = rounded(seconds * 1000, 2)
    return result(
        "Mixed sustained load from 200 tasks, at the contract's limits",
        settings={
            "speed-up": speedup,
            "D (contract seconds)": duration,
            "calls": ", ".join(f"{c} {n:,}" for c, n in counts.items()),
            "tasks": ", ".join(f"{c} {n}" for c, n in TASKS.items()),
            "operations": "read: plans.get; write: plans.update (PATCH title); import: stops.import_batch "
            "of 100 stops; optimize: plans.optimize of a fresh plan",
            "limits": "contract defaults, exact sliding windows, rejected requests count",
            "transport": f"{'HTTP' if quick else 'HTTPS'} on loopback, emulator in its own process",
            "baseline cap": f"{BASELINE_CAP} x theoretical + {0.3 if quick else 1:g} s = {cap:.1f} s",
        },
        figures=figures,
        checks=[
            *(check(f"{c} utilization", pc[c]["utilization"], ">=", UTILIZATION_BAR) for c in CATEGORIES),
            check("mixed-load 429s", lib["server_429"] + lib["client_429"], "==", 0),
        ],
        tables=[
            table(
                "Library and baselines: time to finish, 429s and utilization per category",
                [
                    "Strategy",
                    "Finished",
                    "Time (s)",
                    "x theoretical",
                    "Calls OK",
                    "429s",
                    "read util",
                    "write util",
                    "import util",
                    "optimize util",
                    "Note",
                ],
                rows,
            )
        ],
        notes=[
            "Utilization = admitted x period / (amount x (span + period)), span = first to last admitted "
            "request of the category in the emulator's log; the emulator's own figure rounds span/period "
            "down to whole windows and is never lower.",
            "(a) and (b) make the calls of all 200 tasks from one loop in round-robin order; (c) and (d) run "
            "the 200 tasks concurrently, like the library.",
            *(f"Baseline {name}: {text}." for name, text in baselines.DESCRIPTIONS.items()),
        ],
    ) | {"raw": {"library": lib, "baselines": outcomes}}
