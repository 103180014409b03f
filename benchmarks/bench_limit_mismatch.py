"""8. Limit mismatch: the service's real limits differ from the client's configured ones.

The client is always configured with ``RateLimits.default()`` (sped up); the
emulator, in its own process, enforces limits of its own:

- **matrix**: reads (``plans.get`` from many tasks) and a bulk import
  (``stops.import_many``) against a real limit of 1.0, 0.8, 0.5 and 0.3 times the
  configured one, read by the server as exact sliding windows where refused
  requests count, as sliding windows where they do not, and as a token bucket
  whose burst is one period's amount (refused requests take tokens too);
- **latency**: reads over a link with one-way latency and jitter, with the
  default (send-time) windows and with ``strict_windows=True``;
- **penalty**: reads against the sustained-use penalty (``punish_sustained``);
- **drop**: reads while the limit drops to 0.4 of itself and comes back.

Beside the library run the baselines of ``_harness/_baselines.py`` (fixed sleeps,
aiolimiter plus retry, backoff and jitter), configured with the same belief
(the default limits), against the same emulator settings in the same run: in
every latency, penalty and drop scenario, and in the matrix runs that
``Sizes.baseline_cases`` lists (the settings line of RESULTS.md names them).

Ideal time at the real limit ``L`` per period ``P`` (the first window is free):
with sliding windows, ``(ceil(N / L) - 1) x P``; with a token bucket of ``L``
tokens refilled at ``L / P``, ``(N - L) / L x P``; for imports, per rule (requests
of 100 stops, and stops), the larger; plus the measured latency of the last
request of the library, as in ``bench_import``.

This module runs the scenarios; their bars, sizes and measures are in
``_mismatch/_ground.py``, and the report (checks, tables, notes) in ``_mismatch/_report.py``.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from typing import Any

import attrs

from benchmarks._harness import _baselines as baselines
from benchmarks._harness._emu import EmulatorServer, category_figures
from benchmarks._harness._payloads import stop_inputs
from benchmarks._harness._tracing import Latencies
from benchmarks._mismatch._ground import (
    BASELINE_CAP,
    BASELINES,
    BATCH,
    CONFIGURED,
    MODES,
    PLAN_DATE,
    Sizes,
    ideal_periods,
    real_limits,
    recovery_periods,
    sizes_for,
    slot_occupancy,
    traffic,
)
from benchmarks._mismatch._report import Runs, report
from route_planning_async import Category, RateLimits, RoutePlanningClient, RoutePlanningError, Rule
from route_planning_async.emulator import PunishSustained

# ------------------------------------------------------------ runs


def _client_kwargs(server: EmulatorServer, limits: RateLimits) -> dict[str, Any]:
    return {
        "base_url": server.base_url,
        "ssl": server.ssl_context,
        "rate_limits": limits.scaled(server.speedup),
    }


async def _fresh_plan(server: EmulatorServer, title: str, schedule: bool = False) -> str:
    """A plan to read or import into; the setup traffic is then forgotten by the log and the limiter
    (and with ``schedule`` the emulator's limit schedule starts over)."""
    async with RoutePlanningClient(server.api_key, **_client_kwargs(server, CONFIGURED)) as client:
        plan = await client.plans.create(title=title, starts=PLAN_DATE)
    server.reset()
    if schedule:
        server.restart_limit_schedule()
    return plan.id


def _split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


async def _library_reads(
    server: EmulatorServer,
    n: int,
    tasks: int,
    cap: float,
    limits: RateLimits = CONFIGURED,
    schedule: bool = False,
) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, "bench reads", schedule)
    latencies = Latencies()
    failures: Counter[str] = Counter()
    done = 0
    async with (
        latencies.session() as session,
        RoutePlanningClient(server.api_key, session=session, **_client_kwargs(server, limits)) as client,
    ):

        async def task(count: int) -> None:
            nonlocal done
            for _ in range(count):
                try:
                    await client.plans.get(plan_id)
                    done += 1
                except RoutePlanningError as exc:
                    failures[type(exc).__name__] += 1

        started = time.monotonic()
        finished = True
        try:
            async with asyncio.timeout(cap):
                await asyncio.gather(*(task(k) for k in _split(n, tasks)))
        except TimeoutError:
            finished = False
        elapsed = time.monotonic() - started
        stats = client.stats[Category.READ]
    last = latencies.last_started()
    return {
        "finished": finished,
        "started": started,
        "elapsed": elapsed,
        "done": done,
        "failed": n - done,
        "failures": dict(failures),
        "last_latency": last[1] - last[0] if last else math.nan,
        "client_429": stats.rate_limited,
        "learned": [repr(r) for r in getattr(stats, "learned_limits", ())],
        "traffic": traffic(server.log(), "read"),
    }


async def _library_import(server: EmulatorServer, n: int, cap: float) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, "bench import")
    latencies = Latencies()
    async with (
        latencies.session() as session,
        RoutePlanningClient(server.api_key, session=session, **_client_kwargs(server, CONFIGURED)) as client,
    ):
        started = time.monotonic()
        try:
            report = await asyncio.wait_for(client.stops.import_many(plan_id, stop_inputs(n)), cap)
        except TimeoutError:
            report = None
        elapsed = time.monotonic() - started
        stats = client.stats[Category.BATCH_IMPORT]
    last = latencies.last_started(":import")
    created = report.created if report is not None else 0
    return {
        "finished": report is not None,
        "started": started,
        "elapsed": elapsed,
        "done": created,
        "failed": n - created,
        "report": repr(report),
        "last_latency": last[1] - last[0] if last else math.nan,
        "client_429": stats.rate_limited,
        "learned": [repr(r) for r in getattr(stats, "learned_limits", ())],
        "traffic": traffic(server.log(), "batch_import"),
    }


def _read_workload(plan_id: str, n: int, tasks: int) -> list[list[baselines.Call]]:
    bare = plan_id.split("/", 1)[1]
    return [[baselines.Call("GET", f"/plans/{bare}", "read")] * k for k in _split(n, tasks)]


def _import_workload(plan_id: str, n: int) -> list[list[baselines.Call]]:
    return baselines.import_calls(plan_id, n, BATCH)


async def _baseline(
    server: EmulatorServer, name: str, workload: str, n: int, tasks: int, cap: float, schedule: bool = False
) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, f"bench {workload}", schedule)
    calls = _read_workload(plan_id, n, tasks) if workload == "reads" else _import_workload(plan_id, n)
    target = baselines.Target(server.base_url, server.api_key, server.ssl_context)
    strategy = baselines.strategies(CONFIGURED.scaled(server.speedup))[name]
    started = time.monotonic()
    out = await baselines.run_capped(strategy, target, calls, server.speedup, cap)
    out["started"] = started
    out["elapsed"] = out["seconds"]
    out["traffic"] = traffic(server.log(), "read" if workload == "reads" else "batch_import")
    out["done"] = out["weight_ok"]
    out["failed"] = out["weight_total"] - out["weight_ok"]
    return out


# ------------------------------------------------------------ scenarios


def _matrix_case(sizes: Sizes, workload: str, mode: str, ratio: float) -> dict[str, Any]:
    real = real_limits(workload, ratio)
    reads = workload == "reads"
    speedup = sizes.read_speedup if reads else sizes.import_speedup
    n = sizes.reads if reads else sizes.stops
    category = Category.READ if reads else Category.BATCH_IMPORT
    rules = real.for_category(category)
    period = rules[0].period / speedup
    units = {"request": n if reads else math.ceil(n / BATCH), "weight": n}
    schedule = ideal_periods(units, rules, MODES[mode]["limiter"] == "token_bucket") * period
    with EmulatorServer(limits=real, speedup=speedup, tls=False, **MODES[mode]) as server:
        cap = 6 * schedule / min(ratio, 1.0) + 10
        if reads:
            lib = asyncio.run(_library_reads(server, n, sizes.read_tasks, cap))
        else:
            lib = asyncio.run(_library_import(server, n, cap))
        ideal = schedule + (lib["last_latency"] if math.isfinite(lib["last_latency"]) else 0.0)
        lib["ideal"] = ideal
        lib["ratio"] = lib["elapsed"] / ideal if lib["finished"] else math.inf
        lib["share_429"] = lib["traffic"]["share_429"]
        outs: dict[str, Any] = {}
        if sizes.baselines and (workload, mode, ratio) in sizes.baseline_cases:
            base_cap = BASELINE_CAP * ideal + 0.5
            for name in BASELINES:
                outs[name] = asyncio.run(_baseline(server, name, workload, n, sizes.read_tasks, base_cap))
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return {"workload": workload, "mode": mode, "ratio": ratio, "library": lib, "baselines": outs}


def _latency_case(sizes: Sizes, latency: float) -> dict[str, Any]:
    speedup = sizes.latency_speedup
    rule = CONFIGURED.for_category(Category.READ)[0]
    period = rule.period / speedup
    n = sizes.latency_reads
    out: dict[str, Any] = {"latency": latency}
    with EmulatorServer(
        limits=CONFIGURED,
        speedup=speedup,
        tls=False,
        latency=latency / speedup,
        latency_jitter=sizes.jitter / speedup,
        seed=7,
    ) as server:
        for label, limits in (
            ("library", CONFIGURED),
            ("strict", attrs.evolve(CONFIGURED, strict_windows=True)),
        ):
            run = asyncio.run(
                _library_reads(server, n, sizes.read_tasks, 20 * n / rule.amount * period + 10, limits)
            )
            log = server.log()
            run["utilization"] = category_figures(log, CONFIGURED, speedup, "read")["utilization"]
            out[label] = run
        ideal = (math.ceil(n / rule.amount) - 1) * period + 2 * (latency + sizes.jitter) / speedup
        out["ideal"] = ideal
        out["baselines"] = {}
        if sizes.baselines and latency in sizes.latency_baselines:
            for name in BASELINES:
                base = asyncio.run(
                    _baseline(server, name, "reads", n, sizes.read_tasks, BASELINE_CAP * ideal + 0.5)
                )
                base["utilization"] = category_figures(server.log(), CONFIGURED, speedup, "read")[
                    "utilization"
                ]
                out["baselines"][name] = base
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return out


def _penalty(sizes: Sizes) -> dict[str, Any]:
    speedup = sizes.penalty_speedup
    rule = CONFIGURED.for_category(Category.READ)[0]
    period = rule.period / speedup
    n = sizes.penalty_reads
    penalty = PunishSustained(sizes.penalty_threshold, sizes.penalty_after)
    out: dict[str, Any] = {}

    def settled(times: list[float]) -> float | None:
        """Slot occupancy over the second half of the run (the level the client settled at)."""
        if len(times) < 2 or times[-1] - times[0] < 4 * period:
            return None
        mid = (times[0] + times[-1]) / 2
        return slot_occupancy(times, rule.amount, period, mid, times[-1])

    with EmulatorServer(limits=CONFIGURED, speedup=speedup, tls=False, punish_sustained=penalty) as server:
        lib = asyncio.run(_library_reads(server, n, sizes.read_tasks, 40 * n / rule.amount * period + 10))
        lib["utilization"] = category_figures(server.log(), CONFIGURED, speedup, "read")["utilization"]
        lib["settled"] = settled(lib["traffic"]["times"])
        out["library"] = lib
        # What the client may use without drawing the penalty: just under the threshold.
        ideal = (math.ceil(n / (rule.amount * sizes.penalty_threshold)) - 1) * period
        out["ideal"] = ideal
        out["baselines"] = {}
        if sizes.baselines:
            for name in BASELINES:
                base = asyncio.run(
                    _baseline(server, name, "reads", n, sizes.read_tasks, BASELINE_CAP * ideal + 0.5)
                )
                base["utilization"] = category_figures(server.log(), CONFIGURED, speedup, "read")[
                    "utilization"
                ]
                base["settled"] = settled(base["traffic"]["times"])
                out["baselines"][name] = base
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return out


def _drop(sizes: Sizes) -> dict[str, Any]:
    speedup = sizes.drop_speedup
    rule = CONFIGURED.for_category(Category.READ)[0]
    low = CONFIGURED.replace(Category.READ, Rule(max(1, round(rule.amount * 0.4)), rule.period))
    period = rule.period / speedup
    n = sizes.drop_reads
    schedule = [(sizes.drop_at, low), (sizes.return_at, CONFIGURED)]
    out: dict[str, Any] = {"low": low.for_category(Category.READ)[0].amount}

    def measure(run: dict[str, Any]) -> dict[str, Any]:
        # The schedule restarts just before each run: its last two changes are the drop and the return.
        times = run["traffic"]["times"]
        drop, back = run["traffic"]["limit_changes"][-2:]
        k, windows = recovery_periods(times, rule.amount, period, back, times[-1] if times else back)
        run["recovery_periods"] = k
        run["windows_after_return"] = [round(w, 3) for w in windows]
        run["windows_measured"] = len(windows)
        # How much of the lowered limit was used once the drop was two periods old.
        run["occupancy_during_drop"] = (
            slot_occupancy(times, out["low"], period, drop + 2 * period, back)
            if back > drop + 2 * period
            else None
        )
        return run

    with EmulatorServer(limits=CONFIGURED, speedup=speedup, tls=False, limit_schedule=schedule) as server:
        # The ideal: every read the real limits allow, at full rate before and after the drop.
        low_reads = out["low"] * (sizes.return_at - sizes.drop_at)
        after = max(0.0, n - rule.amount * sizes.drop_at - low_reads) / rule.amount
        ideal = (sizes.return_at + after) * period
        out["ideal"] = ideal
        cap = 4 * ideal + 10
        out["library"] = measure(asyncio.run(_library_reads(server, n, sizes.read_tasks, cap, schedule=True)))
        out["baselines"] = {}
        if sizes.baselines:
            for name in BASELINES:
                base_cap = BASELINE_CAP * ideal + 0.5
                base = asyncio.run(
                    _baseline(server, name, "reads", n, sizes.read_tasks, base_cap, schedule=True)
                )
                out["baselines"][name] = measure(base)
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return out


def run(quick: bool = False, sizes: Sizes | None = None) -> dict[str, Any]:
    """Every scenario, the library beside the baselines; figures, bars and tables.

    ``sizes`` overrides the full (or ``quick``) sizes, for the smoke test.
    """
    sizes = sizes if sizes is not None else sizes_for(quick)
    matrix = [_matrix_case(sizes, *case) for case in sizes.cases]
    latency = [_latency_case(sizes, lat) for lat in sizes.latencies]
    return report(sizes, Runs(matrix, latency, _penalty(sizes), _drop(sizes)))
