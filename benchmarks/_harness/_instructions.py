"""Instructions per GET, counted by valgrind: the overhead without the machine's noise.

CPU time per request on a shared machine drifts by a factor of two between
rounds; the number of instructions a process executes does not. The parent
(``bench_overhead.py``) runs this module under ``valgrind --tool=cachegrind``
twice per side, with a small and a large number of GETs against the emulator it
already started; the difference of the two totals, divided by the difference
of the counts, is the instructions per GET with start-up, imports and warm-up
cancelled out. The emulator itself is not under valgrind. The child makes the
very GETs the benchmark times (``_gets.py``).

Child: ``python -m benchmarks._harness._instructions raw|client N BASE_URL API_KEY PLAN_ID``.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys

import aiohttp

from benchmarks._harness._gets import CONCURRENCY, get_calls
from benchmarks._harness._load import closed_loop
from route_planning_async import RateLimits, RoutePlanningClient

SMALL, LARGE = 200, 1200
"""GETs in the two runs whose totals are subtracted."""

_TOTAL = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions_counted(valgrind_stderr: str) -> int:
    """The total of instructions executed, read from cachegrind's summary on stderr."""
    match = _TOTAL.search(valgrind_stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {valgrind_stderr[-500:]}")
    return int(match.group(1).replace(",", ""))


def available() -> bool:
    """Whether valgrind is installed."""
    return shutil.which("valgrind") is not None


def _total(side: str, gets: int, base_url: str, api_key: str, plan_id: str) -> int:
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "benchmarks._harness._instructions",
        side,
        str(gets),
        base_url,
        api_key,
        plan_id,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return instructions_counted(done.stderr)


def per_get(base_url: str, api_key: str, plan_id: str) -> dict[str, float]:
    """Instructions per GET of each side (``raw``, ``client``), counted in child processes."""
    counts = {}
    for side in ("raw", "client"):
        large = _total(side, LARGE, base_url, api_key, plan_id)
        small = _total(side, SMALL, base_url, api_key, plan_id)
        counts[side] = (large - small) / (LARGE - SMALL)
    return counts


async def _run(side: str, gets: int, base_url: str, api_key: str, plan_id: str) -> None:
    async with RoutePlanningClient(api_key, base_url=base_url, rate_limits=RateLimits.unlimited()) as client:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=100)) as session:
            raw_get, client_get = get_calls(session, client, base_url, api_key, plan_id)
            await closed_loop(raw_get if side == "raw" else client_get, gets, CONCURRENCY)


if __name__ == "__main__":
    side, gets, base_url, api_key, plan_id = sys.argv[1:6]
    asyncio.run(_run(side, int(gets), base_url, api_key, plan_id))
