"""A closed-loop load generator: N calls from C tasks, timed in wall and CPU seconds."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from benchmarks._harness._emu import EmulatorServer


async def closed_loop(call: Callable[[], Awaitable[Any]], n: int, concurrency: int) -> None:
    """Make ``n`` calls, ``concurrency`` at a time (each task starts its next call when one ends)."""
    remaining = n

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            await call()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


async def measure(
    server: EmulatorServer, call: Callable[[], Awaitable[Any]], n: int, concurrency: int
) -> dict[str, float]:
    """Wall seconds, this process's CPU seconds and the emulator's CPU seconds of ``n`` calls."""
    emu_cpu, cpu, wall = server.cpu_seconds(), time.process_time(), time.perf_counter()
    await closed_loop(call, n, concurrency)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    emu_cpu = server.cpu_seconds() - emu_cpu
    return {
        "wall": wall,
        "throughput": n / wall,
        "cpu_per_request": cpu / n,
        "emulator_busy": emu_cpu / wall,
    }


def med(runs: list[dict[str, float]], key: str) -> float:
    """The median of one figure over runs."""
    return statistics.median(r[key] for r in runs)
