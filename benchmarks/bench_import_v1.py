"""1c. Bulk import on v1: 20,000 stops at the public documentation's batch-import limits.

The same import as 1a (``bench_import``), through the v1 client
(``route_planning_async.v1``) against the emulator's ``/public/v1``, with the
client and the emulator both on :meth:`RateLimits.public_docs`: 100 requests per
10 minutes, at most 30 per minute, and 1,000 stops per minute.

Theoretical minimum: each rule alone admits ``amount`` per window of ``period``
and the first window is free, so ``C`` units of a rule (requests, or stops for
the per-stop rule) need ``(ceil(C / amount) - 1) x period`` between the first and
the last admitted request; the binding rule is the largest, and the import ends
when the last answer is back::

    T_min = max over rules of (ceil(C / amount) - 1) x period + L_last

For 20,000 stops in 200 batches of 100: the per-stop rule needs 19 minutes, the
10-minute rule 10, the 1-minute rule 6: the per-stop rule binds.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from benchmarks._harness._emu import EmulatorServer
from benchmarks._results._figures import check, result, rounded
from benchmarks.bench_import import BATCH, library_import
from route_planning_async import Category, RateLimits
from route_planning_async import v1 as api

RATIO_BAR = 1.03
"""Acceptance: time / theoretical minimum <= 1.03."""


def _sizes(quick: bool) -> tuple[int, float]:
    # As 1a: a minute of the service lasts 1 s at speed-up 60.
    return (2_000, 600.0) if quick else (20_000, 60.0)


def floor_schedule(limits: RateLimits, stops: int, speedup: float) -> float:
    """The shortest first-to-last arrival span the batch-import rules allow, in real seconds."""
    requests = math.ceil(stops / BATCH)
    return max(
        (math.ceil((stops if rule.per == "weight" else requests) / rule.amount) - 1) * rule.period / speedup
        for rule in limits.for_category(Category.BATCH_IMPORT)
    )


def run(quick: bool = False) -> dict[str, Any]:
    """Import N stops with the v1 client; time against the theoretical minimum."""
    n, speedup = _sizes(quick)
    limits = RateLimits.public_docs()
    floor = floor_schedule(limits, n, speedup)
    with EmulatorServer(limits=limits, speedup=speedup, tls=not quick) as server:
        lib = asyncio.run(library_import(server, n, cap=10 * floor + 30, api=api))
    last_latency = lib["last"][1] - lib["last"][0] if lib["last"] else math.nan
    t_min = floor + last_latency
    ratio = lib["elapsed"] / t_min
    refused = lib["requests"]["rejected_429"] + lib["client_429"]
    return result(
        f"v1 bulk import of {n:,} stops at the public documentation's limits",
        settings={
            "stops": n,
            "batch size": BATCH,
            "client": "route_planning_async.v1.RoutePlanningClient (RateLimits.public_docs())",
            "limits": "100 requests / 600 s, 30 requests / 60 s, 1,000 stops / 60 s (public documentation), "
            "exact sliding windows, rejected requests count",
            "speed-up": speedup,
            "transport": f"{'HTTP' if quick else 'HTTPS'} on loopback to /public/v1, "
            "emulator in its own process",
        },
        figures={
            "elapsed (s)": rounded(lib["elapsed"], 3),
            "T_min = max over rules + L_last (s)": rounded(t_min, 3),
            "L_last, latency of the last request (s)": rounded(last_latency, 4),
            "time / T_min": rounded(ratio, 4),
            "stops created": lib["created"],
            "429 answers (emulator log)": lib["requests"]["rejected_429"],
            "429 answers (client stats)": lib["client_429"],
            "max stops in any window (limit 1,000)": lib["stops"]["max_in_window"],
            "stop utilization": lib["stops"]["utilization"],
        },
        checks=[
            check("v1 import time / theoretical minimum", rounded(ratio, 4), "<=", RATIO_BAR),
            check("v1 import 429s", refused, "==", 0),
            check("v1 import stops created", lib["created"], "==", n),
        ],
        notes=[
            "T_min: for each rule, the first window is free, so C units need (ceil(C / amount) - 1) periods "
            "between the first and the last admitted request; the largest binds, and the import ends when "
            "the last answer is back.",
        ],
    ) | {"raw": {"library": lib}}
