"""5. Memory of a million-stop import, and 6. scaling of the import with its size.

Each import runs in a fresh client process (``_harness/_child.py``) against the emulator
in another process (``keep_stops`` off, limits off on both sides, plain HTTP), so
the client's peak RSS is that import's alone. Stops are
generated lazily and streamed through ``client.stops.import_many`` with its
defaults (ids of created stops kept, compactly).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from benchmarks._harness._emu import REPO, EmulatorServer
from benchmarks._results._figures import check, result, rounded, table
from route_planning_async import RateLimits

MEMORY_BAR_MB = 150.0
"""Acceptance: peak RSS of the client process below 150 MB while streaming 1,000,000 stops."""
LINEAR_BAR = 1.25
"""Time is linear: the per-stop time at the largest size is at most 1.25 x that at the middle size."""
FLAT_BAR = 1.10
"""Memory is flat: the peak RSS at the largest size is at most 1.10 x that at the smallest."""
MB = 1_000_000


def _import(server: EmulatorServer, stops: int, timeout: float, sample_every: float) -> dict[str, Any]:
    emulator_cpu = server.cpu_seconds()
    settings = {
        "base_url": server.base_url,
        "api_key": server.api_key,
        "stops": stops,
        "sample_every": sample_every,
    }
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks._harness._child", json.dumps(settings)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )
    figures_emulator_cpu = server.cpu_seconds()
    if done.returncode != 0:
        raise RuntimeError(f"the import process failed ({done.returncode}):\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["created"] != stops:
        raise RuntimeError(f"{figures['created']} of {stops} stops created")
    figures["max_sampled_rss"] = max(rss for _, rss in figures["samples"])
    figures["emulator_cpu"] = figures_emulator_cpu - emulator_cpu
    return figures


def _server() -> EmulatorServer:
    return EmulatorServer(limits=RateLimits.unlimited(), tls=False, keep_stops=False)


def run_memory(quick: bool = False) -> dict[str, Any]:
    """Peak RSS of the client process while 1,000,000 stops stream through import_many."""
    stops = 5_000 if quick else 1_000_000
    with _server() as server:
        out = _import(server, stops, timeout=900, sample_every=0.25)
    samples = out.pop("samples")
    peak = out["peak_rss"] / MB
    # RSS over the run, in tenths of the import, to show it stays flat.
    tenths = []
    for k in range(1, 11):
        upto = [rss for t, rss in samples if t <= out["elapsed"] * k / 10]
        tenths.append(rounded(max(upto) / MB, 1) if upto else None)
    return result(
        f"Memory: streaming {stops:,} stops through import_many",
        settings={
            "stops": stops,
            "input": "a generator of StopInput (nothing held in memory up front)",
            "import_many": "defaults (batches of 100, 8 in flight without limits, ids kept compactly)",
            "emulator": "its own process, keep_stops off, limits off, plain HTTP",
            "RSS": "peak: VmHWM of the client process (/proc/self/status); samples every 0.25 s from "
            f"{out['rss_source']}",
        },
        figures={
            "peak RSS of the client process, VmHWM (MB)": rounded(peak, 1),
            "ru_maxrss of the client process (MB)": rounded(out["ru_maxrss"] / MB, 1),
            "RSS before the import (MB)": rounded(out["rss_before"] / MB, 1),
            "RSS after the import (MB)": rounded(out["rss_after"] / MB, 1),
            "largest RSS sampled during the import (MB)": rounded(out["max_sampled_rss"] / MB, 1),
            "largest RSS sampled - RSS before the import (MB)": rounded(
                (out["max_sampled_rss"] - out["rss_before"]) / MB, 1
            ),
            "stops created": out["created"],
            "time (s)": rounded(out["elapsed"], 2),
            "client CPU per stop (us)": rounded(out["cpu"] / stops * 1e6, 2),
            "emulator CPU per stop (us)": rounded(out["emulator_cpu"] / stops * 1e6, 2),
            "stops per second": rounded(stops / out["elapsed"], 0),
        },
        checks=[
            check(f"peak RSS streaming {stops:,} stops (MB)", rounded(peak, 1), "<", MEMORY_BAR_MB),
        ],
        tables=[
            table(
                "Largest RSS sample (MB) up to each tenth of the import",
                [f"{k}0%" for k in range(1, 11)],
                [tenths],
            )
        ],
        notes=[
            "On Linux, ru_maxrss keeps the high-water mark of the address space a process had before exec, "
            "which for a child is a copy of its parent's (here the benchmark runner), so it can only "
            "overstate the client's peak; VmHWM counts the client's own address space.",
        ],
    )


def run_scaling(quick: bool = False) -> dict[str, Any]:
    """Import 1k, 10k and 100k stops: time and peak memory against the input size."""
    sizes = (200, 1_000, 4_000) if quick else (1_000, 10_000, 100_000)
    with _server() as server:
        runs = [_import(server, n, timeout=600, sample_every=0.01) for n in sizes]
    rows = []
    for out in runs:
        n = out["stops"]
        rows.append(
            [
                f"{n:,}",
                rounded(out["elapsed"], 3),
                rounded(out["elapsed"] / n * 1e6, 2),
                rounded(out["cpu"] / n * 1e6, 2),
                rounded(out["emulator_cpu"] / n * 1e6, 2),
                rounded(out["rss_before"] / MB, 1),
                rounded(out["max_sampled_rss"] / MB, 1),
                rounded(out["peak_rss"] / MB, 1),
                rounded(out["ru_maxrss"] / MB, 1),
            ]
        )
    per_stop = [out["elapsed"] / out["stops"] for out in runs]
    linear = per_stop[-1] / per_stop[1]
    flat = runs[-1]["peak_rss"] / runs[0]["peak_rss"]
    return result(
        "Scaling: import time and memory against the number of stops",
        settings={
            "sizes": ", ".join(f"{n:,}" for n in sizes),
            "each size": "a fresh client process; emulator in its own process, keep_stops off, limits off",
            "RSS": "peak: VmHWM of the client process; also sampled every 10 ms during the import",
        },
        figures={
            f"per-stop time {sizes[-1]:,} / {sizes[1]:,}": rounded(linear, 3),
            f"per-stop time {sizes[-1]:,} / {sizes[0]:,}": rounded(per_stop[-1] / per_stop[0], 3),
            f"client CPU per stop {sizes[-1]:,} / {sizes[1]:,}": rounded(
                (runs[-1]["cpu"] / sizes[-1]) / (runs[1]["cpu"] / sizes[1]), 3
            ),
            f"emulator CPU per stop {sizes[-1]:,} / {sizes[1]:,}": rounded(
                (runs[-1]["emulator_cpu"] / sizes[-1]) / (runs[1]["emulator_cpu"] / sizes[1]), 3
            ),
            f"peak RSS (VmHWM) {sizes[-1]:,} / {sizes[0]:,}": rounded(flat, 3),
            f"largest RSS sampled during the import {sizes[-1]:,} / {sizes[0]:,}": rounded(
                runs[-1]["max_sampled_rss"] / runs[0]["max_sampled_rss"], 3
            ),
        },
        checks=[
            check(
                f"time linear: per-stop time {sizes[-1]:,} / {sizes[1]:,}",
                rounded(linear, 3),
                "<=",
                LINEAR_BAR,
            ),
            check(
                f"memory flat: peak RSS {sizes[-1]:,} / {sizes[0]:,}",
                rounded(flat, 3),
                "<=",
                FLAT_BAR,
            ),
        ],
        tables=[
            table(
                "Per size",
                [
                    "Stops",
                    "time (s)",
                    "time per stop (us)",
                    "client CPU per stop (us)",
                    "emulator CPU per stop (us)",
                    "RSS before (MB)",
                    "largest RSS sampled during the import (MB)",
                    "peak RSS, VmHWM (MB)",
                    "ru_maxrss (MB)",
                ],
                rows,
            )
        ],
        notes=[
            "The acceptance asks for time linear and memory flat without a number; the bars used here are "
            f"per-stop time at the largest size <= {LINEAR_BAR} x that at the middle size (the smallest "
            f"carries fixed costs: connections, the first batches), and peak RSS at the largest size <= "
            f"{FLAT_BAR} x that at the smallest.",
            "ru_maxrss is shown for completeness: on Linux it keeps the high-water mark of the address space "
            "before exec, a copy of the benchmark runner's.",
        ],
    )
