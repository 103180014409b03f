"""One import in a fresh process, for the memory and scaling benchmarks.

``python -m benchmarks._harness._child '<json>'`` streams ``stops`` generated stops
through ``client.stops.import_many`` into a new plan of the emulator at
``base_url`` and prints one JSON line: the elapsed time, the CPU time, the
process's RSS before the import, its peak RSS (``VmHWM``; ``ru_maxrss`` too) and
RSS samples taken during the import. A fresh process per size makes the peak that
of one import alone (plus the interpreter and the libraries).
"""

from __future__ import annotations

import asyncio
import datetime
import importlib
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks._harness._payloads import stop_inputs
from route_planning_async import RateLimits, RoutePlanningClient

psutil: Any
try:
    psutil = importlib.import_module("psutil")
except ImportError:  # ``nox -s bench`` installs psutil; without it /proc is read (Linux)
    psutil = None

PAGE = os.sysconf("SC_PAGE_SIZE")


def current_rss() -> int:
    """This process's resident set size in bytes, now."""
    if psutil is not None:
        return int(psutil.Process().memory_info().rss)
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE


def peak_rss() -> int:
    """This process's own peak resident set size in bytes: ``VmHWM`` (Linux), else ``ru_maxrss``.

    On Linux ``ru_maxrss`` also keeps the high-water mark of the address space the process had
    before ``exec``: a copy of the parent's, which is the benchmark runner. ``VmHWM`` belongs to
    the address space made at ``exec``, so it is the client's alone.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return maxrss()


def maxrss() -> int:
    """``getrusage(RUSAGE_SELF).ru_maxrss`` in bytes (KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


async def _import(settings: dict[str, Any]) -> dict[str, Any]:
    samples: list[tuple[float, int]] = []
    async with RoutePlanningClient(
        settings["api_key"], base_url=settings["base_url"], rate_limits=RateLimits.unlimited()
    ) as client:
        plan = await client.plans.create(title="bench stream", starts=datetime.date(2030, 1, 7))
        rss_before, peak_before = current_rss(), peak_rss()
        started, cpu = time.perf_counter(), time.process_time()

        async def sample() -> None:
            while True:
                samples.append((time.perf_counter() - started, current_rss()))
                await asyncio.sleep(settings.get("sample_every", 0.25))

        sampler = asyncio.create_task(sample())
        report = await client.stops.import_many(
            plan.id, stop_inputs(settings["stops"]), keep_ids=settings.get("keep_ids", True)
        )
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        sampler.cancel()
    return {
        "stops": settings["stops"],
        "created": report.created,
        "ok": report.ok,
        "elapsed": elapsed,
        "cpu": cpu,
        "rss_before": rss_before,
        "peak_rss_before": peak_before,
        "peak_rss": peak_rss(),
        "ru_maxrss": maxrss(),
        "rss_after": current_rss(),
        "samples": samples,
        "rss_source": "psutil" if psutil is not None else "/proc/self/statm",
    }


def main() -> None:
    """Run one import and print its figures as JSON."""
    print(json.dumps(asyncio.run(_import(json.loads(sys.argv[1])))), flush=True)


if __name__ == "__main__":
    main()
