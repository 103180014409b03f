"""4. Polling: 500 operations through ``client.operations.wait_many``.

Each operation's completion time is drawn (seeded) uniformly from [30, 600]
contract seconds after it starts; the emulator marks it done at that time. The
detection delay of an operation is the time from its completion to the moment
``wait_many`` yields it. Reads are limited as the contract says (10 per
second, sped up); the setup's writes and optimizes are not limited, so 500
operations can be started at once.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from typing import Any

from benchmarks._harness._emu import EmulatorServer, category_figures
from benchmarks._results._figures import check, percentile, result, rounded
from route_planning_async import Category, Operation, RateLimits, RoutePlanningClient
from route_planning_async._operations import DEFAULT_MAX_POLL_INTERVAL, DEFAULT_POLL_INTERVAL

SEED = 20240501
LOW, HIGH = 30.0, 600.0
"""Completion times, contract seconds after the start."""
PLAN_DATE = datetime.date(2030, 1, 7)


def _sizes(quick: bool) -> tuple[int, float, float]:
    """(operations, highest completion time in contract seconds, speed-up)."""
    return (30, 60.0, 240.0) if quick else (500, HIGH, 60.0)


async def _bench(server: EmulatorServer, count: int, high: float) -> dict[str, Any]:
    speedup = server.speedup
    async with RoutePlanningClient(server.api_key, **server.client_kwargs()) as client:
        plans = await asyncio.gather(
            *(
                client.plans.create(title=f"poll {i}", starts=PLAN_DATE, drivers=["drivers/driver-ana"])
                for i in range(count)
            )
        )
        operations: list[Operation] = list(
            await asyncio.gather(*(client.plans.optimize(p.id) for p in plans))
        )
        if any(op.done for op in operations):
            raise RuntimeError("an operation finished before its completion time was set")
        deadlines = server.randomize_deadlines(SEED, LOW, high)
        server.reset()
        started = time.monotonic()
        seen: dict[str, float] = {}
        # The library's default poll intervals, at the emulator's speed.
        async for operation in client.operations.wait_many(
            operations,
            poll_interval=DEFAULT_POLL_INTERVAL / speedup,
            max_poll_interval=DEFAULT_MAX_POLL_INTERVAL / speedup,
        ):
            seen[operation.id] = time.monotonic()
        elapsed = time.monotonic() - started
        client_429 = client.stats[Category.READ].rate_limited
    log = server.log()
    gets = len(log.select("read", route="operations.get"))
    delays = [(seen[op] - deadline) * speedup for op, deadline in deadlines.items() if op in seen]
    early = [d for d in delays if d < 0]
    return {
        "elapsed": elapsed,
        "seen": len(seen),
        "delays": delays,
        "early": len(early),
        "gets": gets,
        "reads": category_figures(log, server.limits, speedup, "read"),
        "server_429": len(log.rejected()),
        "client_429": client_429,
        "last_completion": (max(deadlines.values()) - started) * speedup,
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Detection delay, GETs per operation and 429s of wait_many over many operations."""
    count, high, speedup = _sizes(quick)
    limits = RateLimits.default().replace("write").replace("batch_import").replace("optimize")
    with EmulatorServer(
        limits=limits,
        speedup=speedup,
        tls=not quick,
        instant_optimization_max_stops=-1,
        optimization_delay=1e6,
    ) as server:
        out = asyncio.run(_bench(server, count, high))
    delays = out["delays"]
    n429 = out["server_429"] + out["client_429"]
    return result(
        f"Polling {count} operations with wait_many",
        settings={
            "operations": count,
            "completion times": f"uniform in [{LOW:g}, {high:g}] contract seconds, seed {SEED}",
            "speed-up": speedup,
            "read limit": "10 per second (contract), sped up; exact sliding windows",
            "wait_many": f"defaults (read_share 0.5, poll_interval {DEFAULT_POLL_INTERVAL:g} s, "
            f"max_poll_interval {DEFAULT_MAX_POLL_INTERVAL:g} s), at the emulator's speed",
            "transport": f"{'HTTP' if quick else 'HTTPS'} on loopback, emulator in its own process",
        },
        figures={
            "operations seen finished": out["seen"],
            "detection delay median (contract s)": rounded(percentile(delays, 50), 2),
            "detection delay p99 (contract s)": rounded(percentile(delays, 99), 2),
            "detection delay max (contract s)": rounded(max(delays) if delays else None, 2),
            "operations yielded before their completion time": out["early"],
            "GET /operations per operation": rounded(out["gets"] / count, 3),
            "GET /operations in all": out["gets"],
            "read utilization over the run (the poll loop takes at most read_share = 0.5)": out["reads"][
                "utilization"
            ],
            "max reads in any window (limit 10)": out["reads"]["max_in_window"],
            "429 answers (emulator log + client stats)": n429,
            "last completion / run time (contract s)": f"{out['last_completion']:.1f} / "
            f"{out['elapsed'] * speedup:.1f}",
        },
        checks=[
            check("polling 429s", n429, "==", 0),
            check("operations seen finished", out["seen"], "==", count),
        ],
        notes=[
            "Detection delay = the time wait_many yields an operation minus its completion time, both on the "
            "shared monotonic clock, multiplied by the speed-up (contract seconds).",
        ],
    ) | {"raw": {"delays": sorted(round(d, 3) for d in delays)}}
