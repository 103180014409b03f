"""Benchmark: four processes share one API key's limits through Redis, beside in-memory limiters.

Run ``python -m benchmarks.bench_redis`` (``--quick`` for a smoke pass); it needs
``redis-server`` (and ``redis-cli``, for the cluster) on PATH and starts its own
on free ports, and runs the emulator in its own event loop. It measures:

- four worker processes (spawn), each with its own client and event loop, a
  mixed load (reads, writes, 100-stop batch imports, optimizations) against ONE
  emulator: the 429s the service answered and, per category and rule, how much
  of the limit was used, with the shared :class:`RedisBackend`;
- the same four processes with the default in-memory limiter each, which do not
  know about each other: four times the limit is offered and the service
  answers 429s;
- the four processes through Redis learning together a service whose real
  limits are half the configured ones, in ``LEARNING_RUNS`` seeded runs on one
  redis-server and as many on a Redis Cluster of three masters
  (``_redis/_cluster.py``): each run's time over the ideal and 429 share;
- the latency one admission adds (acquire and release, through
  ``Scheduler.run`` with a transport that answers at once), Redis against
  in-memory: median and p99.

``main()`` prints the figures and returns them as a dict.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import shutil
import socket
import statistics
import subprocess
import time
import uuid
from collections import Counter
from multiprocessing.queues import Queue
from typing import Any

from benchmarks._redis._cluster import RedisCluster
from benchmarks._redis._worker import WorkerPlan, WorkerResult
from benchmarks._redis._worker import main as worker_main
from benchmarks._results._figures import check
from route_planning_async import (
    Category,
    RateLimits,
    RetryPolicy,
    Rule,
)
from route_planning_async._core import Response
from route_planning_async._rate_limits._backends import InMemoryBackend, RateLimitBackend
from route_planning_async._scheduler import Scheduler
from route_planning_async.emulator import Emulator, RequestLog
from route_planning_async.redis import RedisBackend
from route_planning_async.v0_2b._endpoints import ENDPOINTS

__all__ = ["main"]

TITLE = "Shared Redis rate-limit backend: 4 processes, one API key"

# The contract's limits, with the per-minute categories turned into per-second
# ones so that each category goes through many windows in a few seconds.
LIMITS = (
    RateLimits.default()
    .replace(Category.BATCH_IMPORT, Rule(10, 1.0), Rule(1000, 1.0, per="weight"))
    .replace(Category.OPTIMIZE, Rule(3, 1.0))
    # The workers send no driver, depot or member requests.
    .replace(Category.DRIVER_CREATE)
    .replace(Category.DRIVER_IMPORT)
    .replace(Category.DEPOT_IMPORT)
    .replace(Category.MEMBER_IMPORT)
)
SPEEDUP = 2.0
WORKERS = 4
TASKS = 3
"""Concurrent tasks per category and worker."""
UTILIZATION_BAR = 0.95
LEARNING_RUNS = 5
"""Seeded runs of the learning fleet on each kind of Redis (the bars hold in every one)."""
TIME_BAR = 1.25
"""Learning at 0.5x: the time to do the admitted work over the ideal, in every run."""
SHARE_BAR = 0.05
"""Learning at 0.5x: 429s over the requests sent, in every run."""
KINDS = ("server", "cluster")
"""One redis-server; a Redis Cluster of three masters."""


def _halved(limits: RateLimits) -> RateLimits:
    """Every rule at half its amount (at least 1): the service's real limits in the learning run."""
    out = limits
    for category, rules in limits.rules.items():
        if rules:
            out = out.replace(category, *(Rule(max(1, round(r.amount / 2)), r.period, r.per) for r in rules))
    return out


async def _fleet(
    redis_url: str | None,
    duration: float,
    served: RateLimits = LIMITS,
    *,
    cluster: bool = False,
    seed: int = 0,
) -> dict[str, Any]:
    """Four worker processes against one emulator enforcing ``served`` (the workers are always
    configured with ``LIMITS``); the figures of what the emulator saw. ``cluster``: ``redis_url``
    is a node of a Redis Cluster."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[tuple[int, str]] = context.Queue()
    results: Queue[WorkerResult] = context.Queue()
    go = context.Event()
    key_prefix = f"bench-{uuid.uuid4().hex[:8]}"
    async with Emulator(speedup=SPEEDUP, tls=False, rate_limits=served, keep_stops=False) as emu:
        processes = [
            context.Process(
                target=worker_main,
                args=(
                    WorkerPlan(
                        i,
                        emu.base_url,
                        emu.api_key,
                        LIMITS.scaled(SPEEDUP),
                        redis_url,
                        key_prefix,
                        duration,
                        tasks=TASKS,
                        cluster=cluster,
                        seed=seed,
                    ),
                    ready,
                    go,
                    results,
                ),
            )
            for i in range(WORKERS)
        ]
        for process in processes:
            process.start()
        try:
            for _ in processes:
                await asyncio.to_thread(ready.get, True, 120.0)
            # The plans created while getting ready hold write slots for one period.
            await asyncio.sleep(1.0 / SPEEDUP + 0.1)
            started = time.monotonic()
            go.set()
            for process in processes:
                await asyncio.to_thread(process.join, duration + 60)
            outcomes = [await asyncio.to_thread(results.get, True, 10.0) for _ in processes]
        finally:
            for process in processes:
                if process.is_alive():
                    process.kill()
                process.join(5)
        log = RequestLog()
        for record in emu.log:
            if record.time >= started:
                log.append(record)

    per_category: dict[str, Any] = {}
    for category in Category:
        rules = served.scaled(SPEEDUP).for_category(category)
        per_category[str(category)] = {
            "admitted": len(log.select(category, admitted=True)),
            "429": len(log.rejected(category)),
            "rules": {
                f"{rule.amount}/{rule.period:g}s {rule.per}": {
                    "utilization": round(
                        log.utilization(category, rule.amount, rule.period, per=rule.per), 4
                    ),
                    "window_fill": round(
                        log.occupancy(
                            category,
                            rule.amount,
                            rule.period,
                            started + rule.period,
                            started + duration - 0.1,
                            per=rule.per,
                        ),
                        4,
                    ),
                    "max_in_window": log.max_in_window(category, rule.period, per=rule.per),
                    "amount": rule.amount,
                }
                for rule in rules
            },
        }
    errors: Counter[str] = Counter()
    for outcome in outcomes:
        errors.update(outcome.other_errors)
        if outcome.backend_errors:
            errors["RedisBackendError"] += outcome.backend_errors
    return {
        "429": len(log.rejected()),
        "sent": len(log.select()),
        "client_429": sum(sum(outcome.rate_limited.values()) for outcome in outcomes),
        "failed_requests": dict(errors),
        "categories": per_category,
    }


async def _latency(backends: dict[str, RateLimitBackend], samples: int) -> dict[str, list[float]]:
    """Seconds ``Scheduler.run`` takes per request with a transport that answers at once, per
    backend; the backends take turns so that a busy moment of the machine hits them alike."""
    limits = RateLimits({Category.READ: [Rule(1_000_000, 1.0)]})
    schedulers = {name: Scheduler(limits, RetryPolicy.disabled(), backend=b) for name, b in backends.items()}
    request = ENDPOINTS["plans.get"].request({"plan": "bench"})
    answer = Response(200, {}, b"{}")

    async def send(_: object) -> Response:
        return answer

    timings: dict[str, list[float]] = {name: [] for name in backends}
    for _ in range(samples):
        for name, scheduler in schedulers.items():
            started = time.perf_counter()
            await scheduler.run(request, send)
            timings[name].append(time.perf_counter() - started)
    for scheduler in schedulers.values():
        await scheduler.aclose()
    return timings


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1)]


def _learned(fleet: dict[str, Any]) -> dict[str, Any]:
    """One learning run's figures: its 429 share and its time over the ideal."""
    sent = sum(d["admitted"] + d["429"] for d in fleet["categories"].values())
    # A closed loop for a fixed time: the time to do the admitted work at the real limits, over the
    # ideal, is 1 / utilization of the real limits; the worst category's rule decides.
    worst_utilization = min(
        rule["utilization"]
        for d in fleet["categories"].values()
        for rule in d["rules"].values()
        if d["admitted"] or d["429"]
    )
    return {
        "sent": sent,
        "429": fleet["429"],
        "share_429": round(fleet["429"] / sent, 4) if sent else math.nan,
        "time_over_ideal": round(1 / worst_utilization, 4) if worst_utilization else math.inf,
        "failed": sum(fleet["failed_requests"].values()),
        "429_by_category": ", ".join(
            f"{c} {d['429']}" for c, d in fleet["categories"].items() if d["admitted"] or d["429"]
        ),
    }


async def _measure(urls: dict[str, str | None], duration: float, samples: int, runs: int) -> dict[str, Any]:
    redis_url = urls["server"]
    assert redis_url is not None
    shared = await _fleet(redis_url, duration)
    separate = await _fleet(None, duration)
    # Learning together: the service's real limits are half the configured ones. The runs on the
    # server and on the cluster take turns, so that a busy moment of the machine hits both alike.
    # Per kind of Redis, each figure of _learned as a list: one value per run.
    learning: dict[str, dict[str, list[Any]]] = {kind: {} for kind in KINDS}
    worst: dict[str, Any] | None = None
    for seed in range(runs):
        for kind in KINDS:
            url = urls[kind]
            if url is not None:
                fleet = await _fleet(url, duration, _halved(LIMITS), cluster=kind == "cluster", seed=seed)
                for name, value in {"seed": seed, **_learned(fleet)}.items():
                    learning[kind].setdefault(name, []).append(value)
                if kind == "server" and (
                    worst is None or _learned(fleet)["share_429"] > _learned(worst)["share_429"]
                ):
                    worst = fleet
    async with RedisBackend(redis_url, key_prefix=f"bench-{uuid.uuid4().hex[:8]}") as backend:
        timings = await _latency({"in_memory": InMemoryBackend(), "redis": backend}, samples)
    latency = {
        name: {
            "median_ms": round(statistics.median(values) * 1000, 4),
            "p99_ms": round(_percentile(values, 99) * 1000, 4),
        }
        for name, values in timings.items()
    }
    latency["added"] = {
        key: round(latency["redis"][key] - latency["in_memory"][key], 4) for key in ("median_ms", "p99_ms")
    }
    return {
        "redis": shared,
        "in_memory": separate,
        "learning": learning,
        "learning_worst_server_run": worst,
        "admission_latency": latency,
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _start_redis() -> tuple[subprocess.Popen[bytes], str]:
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError("redis-server is not on PATH")
    port = _free_port()
    process = subprocess.Popen(
        [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("redis-server did not start")


def _report(figures: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for category in Category:
        for rule, shared in figures["redis"]["categories"][str(category)]["rules"].items():
            separate = figures["in_memory"]["categories"][str(category)]["rules"][rule]
            rows.append(
                [
                    str(category),
                    rule,
                    shared["utilization"],
                    shared["window_fill"],
                    figures["redis"]["categories"][str(category)]["429"],
                    separate["utilization"],
                    separate["window_fill"],
                    figures["in_memory"]["categories"][str(category)]["429"],
                ]
            )
    worst = figures["learning_worst_server_run"]["categories"]
    worst_rows = [
        [str(category), rule, values["utilization"], values["window_fill"], worst[str(category)]["429"]]
        for category in Category
        for rule, values in worst[str(category)]["rules"].items()
    ]
    columns = ("seed", "sent", "429", "share_429", "time_over_ideal", "failed", "429_by_category")
    run_rows = [
        [kind, *(runs[column][index] for column in columns)]
        for kind, runs in figures["learning"].items()
        for index in range(len(runs.get("seed", [])))
    ]
    return [
        {
            "title": f"{WORKERS} processes learning through Redis, the service at half the configured "
            "limits: every run",
            "columns": [
                "Redis",
                "seed",
                "sent",
                "429s",
                "429 share",
                "time / ideal",
                "failed",
                "429s by category",
            ],
            "rows": run_rows,
        },
        {
            "title": f"{WORKERS} processes learning through one redis-server, the service at half the "
            "configured limits: the run with the largest 429 share, by category",
            "columns": ["category", "real rule", "utilization of the real rule", "window fill", "429s"],
            "rows": worst_rows,
        },
        {
            "title": f"{WORKERS} processes, one API key, one emulator",
            "columns": [
                "category",
                "rule",
                "Redis: utilization",
                "Redis: window fill",
                "Redis: 429s",
                "in-memory: utilization",
                "in-memory: window fill",
                "in-memory: 429s",
            ],
            "rows": rows,
        },
    ]


def _print(outcome: dict[str, Any]) -> None:
    print(outcome["title"])
    for key, value in outcome["settings"].items():
        print(f"  {key}: {value}")
    for table in outcome["tables"]:
        print(table["title"])
        columns = len(table["columns"])
        widths = [max(len(str(row[i])) for row in [table["columns"], *table["rows"]]) for i in range(columns)]
        for row in [table["columns"], *table["rows"]]:
            print("  " + "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)))
    latency = outcome["figures"]["admission_latency"]
    for name in ("in_memory", "redis", "added"):
        figure = latency[name]
        print(f"  admission latency {name}: median {figure['median_ms']} ms, p99 {figure['p99_ms']} ms")
    for bar in outcome["checks"]:
        print(f"  {bar['status']}: {bar['name']} = {bar['value']} (bar {bar['bar']})")


def main(quick: bool = False) -> dict[str, Any]:
    """Run the benchmark, print its figures and return them (``title``, ``figures``, ``checks`` ...)."""
    duration = 3.0 if quick else 10.0
    samples = 300 if quick else 3000
    runs = 1 if quick else LEARNING_RUNS
    server, redis_url = _start_redis()
    server_binary, cli_binary = shutil.which("redis-server"), shutil.which("redis-cli")
    cluster = RedisCluster(server_binary, cli_binary) if server_binary and cli_binary else None
    try:
        if cluster is not None:
            cluster.start()
        urls = {"server": redis_url, "cluster": cluster.url if cluster is not None else None}
        figures = asyncio.run(_measure(urls, duration, samples, runs))
    finally:
        server.terminate()
        server.wait(10)
        if cluster is not None:
            cluster.stop()
    checks = [
        {
            "name": "Redis: 429s from the emulator",
            "value": figures["redis"]["429"],
            "bar": "== 0",
            "status": "PASS" if figures["redis"]["429"] == 0 else "MISSED",
        }
    ]
    for category, data in figures["redis"]["categories"].items():
        for rule, values in data["rules"].items():
            checks.append(
                {
                    "name": f"Redis: utilization of {category} {rule}",
                    "value": values["utilization"],
                    "bar": f">= {UTILIZATION_BAR}",
                    "status": "PASS" if values["utilization"] >= UTILIZATION_BAR else "MISSED",
                }
            )
    for kind in KINDS:
        done = figures["learning"][kind]
        redis = "one server" if kind == "server" else "a cluster of three masters"
        where = f"Redis ({redis}), real limits 0.5x, 4 processes learning"
        worst_time = max(done.get("time_over_ideal", []), default=None)
        worst_share = max(done.get("share_429", []), default=None)
        failed = sum(done["failed"]) if done else None
        count = len(done.get("seed", []))
        checks += [
            check(
                f"{where}: time / ideal (1 / worst utilization), worst of {count} runs",
                worst_time,
                "<=",
                TIME_BAR,
            ),
            check(
                f"{where}: 429 share of requests sent, worst of {count} runs",
                worst_share,
                "<=",
                SHARE_BAR,
            ),
            check(f"{where}: requests failed in {count} runs", failed, "==", 0),
        ]
    outcome = {
        "title": TITLE,
        "settings": {
            "workers": WORKERS,
            "tasks per category and worker": TASKS,
            "speed-up": SPEEDUP,
            "seconds of load per run": duration,
            "limits": "contract's, per-minute categories as per-second (read 10/s, write 5/s, "
            "batch import 10/s + 1000 stops/s, optimize 3/s), sped up x2",
            "latency samples": samples,
            "learning runs": "the same 4 processes through Redis, the emulator enforcing every rule at half "
            "its amount (rounded; at least 1): optimize 2/s, the others exactly half; "
            f"{runs} seeded runs on one redis-server and {runs} on a Redis Cluster of three masters "
            "(redis-server --cluster-enabled yes on loopback, joined by redis-cli --cluster create; "
            "the workers reach it through redis.asyncio.cluster.RedisCluster), taking turns",
        },
        "figures": figures,
        "checks": checks,
        "tables": _report(figures),
        "notes": [
            "utilization: admitted traffic over the most the rule allows over the same span "
            "(amount * (floor(span / period) + 1)), the emulator's measure.",
            "window fill: the average fill of the rule's sliding window after the first period; a "
            "saturating client scores period / (period + round trip), since a slot is freed one period "
            "after its answer.",
            "in-memory: each process has its own limiter, so together they offer four times the limit; "
            "utilization counts only what the emulator admitted.",
            "admission latency: Scheduler.run with a transport that answers at once (acquire + release).",
        ],
    }
    _print(outcome)
    return outcome


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="short runs: a smoke pass")
    main(quick=parser.parse_args().quick)
