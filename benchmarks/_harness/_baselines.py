"""The four baseline strategies, with raw aiohttp, against the same emulator as the library.

Each strategy is the few lines its description says, and no more:

(a) ``sequential``: one call after another, no limiter; a 429 is not retried (the call is lost).
(b) ``fixed_sleeps``: one call after another with a fixed sleep after each: 100 ms per read,
    200 ms per write, 6 s per import, 20 s per optimize (divided by the speed-up) - what public
    scripts for this API do today; a 429 is not retried.
(c) ``aiolimiter``: every task concurrently, one ``aiolimiter.AsyncLimiter(amount, period)`` per
    rule of the category with default settings (a weighted rule acquires the batch size), and a 429
    is retried (after ``Retry-After`` when the answer has one, through the limiter again).
(d) ``backoff``: every task concurrently, no limiter; a 429 is retried after an exponential
    backoff with full jitter (1 s doubling to at most 60 s, divided by the speed-up).

A strategy that has not finished at its deadline is stopped; its partial progress is
reported and its finish time extrapolated from it: from the share of calls done, or for
(b), whose time is known in advance, as the sum of its sleeps and of its calls at the
latency seen so far.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple

import aiohttp
from aiolimiter import AsyncLimiter

from benchmarks._harness._payloads import stop_body
from route_planning_async import RateLimits


class Call(NamedTuple):
    """One HTTP call of a workload, as raw data."""

    method: str
    path: str
    category: str
    body: bytes | None = None
    weight: int = 1


def import_calls(plan_id: str, n: int, batch: int = 100) -> list[list[Call]]:
    """A bulk import of ``n`` stops into ``plan_id`` as baseline calls: one task, batches of ``batch``."""
    bare = plan_id.split("/", 1)[1]
    return [
        [
            Call(
                "POST",
                f"/plans/{bare}/stops:import",
                "batch_import",
                json.dumps([stop_body(i) for i in range(start, min(n, start + batch))]).encode(),
                min(batch, n - start),
            )
        ]
        for start in range(0, n, batch)
    ]


Workload = Sequence[Sequence[Call]]
"""One list of calls per task; a task makes its calls in order."""

FIXED_SLEEPS = {"read": 0.1, "write": 0.2, "batch_import": 6.0, "optimize": 20.0}
"""Seconds slept after each call by strategy (b), at speed-up 1."""


class Target(NamedTuple):
    """Where the raw strategies send: the emulator's address and key."""

    base_url: str
    api_key: str
    ssl_context: ssl.SSLContext | None


class Progress:
    """What a strategy got done; shared by its tasks."""

    def __init__(self, workload: Workload) -> None:
        self.calls_total = sum(len(t) for t in workload)
        self.weight_total = sum(c.weight for t in workload for c in t)
        self.calls_ok = 0
        self.weight_ok = 0
        self.calls_lost = 0
        self.errors = 0
        self.responses_429 = 0
        self.attempts = 0
        self.send_seconds = 0.0

    def record(self, call: Call, status: int) -> None:
        self.attempts += 1
        if status == 429:
            self.responses_429 += 1
        elif 200 <= status < 300:
            self.calls_ok += 1
            self.weight_ok += call.weight
        else:
            self.errors += 1


Strategy = Callable[[Target, Workload, Progress, float], Awaitable[None]]
"""A baseline: runs a workload against a target, recording into a Progress."""


def interleave(workload: Workload) -> list[Call]:
    """The calls of every task in round-robin order: how one loop would make them."""
    out: list[Call] = []
    longest = max((len(t) for t in workload), default=0)
    for i in range(longest):
        out += [t[i] for t in workload if i < len(t)]
    return out


def _session(limit: int = 100) -> aiohttp.ClientSession:
    # The same connection pool size as the library's own session.
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=limit))


async def _send(session: aiohttp.ClientSession, target: Target, call: Call) -> tuple[int, float | None]:
    token = base64.b64encode(f"{target.api_key}:".encode()).decode()
    headers = {"Authorization": f"Basic {token}"}
    if call.body is not None:
        headers["Content-Type"] = "application/json"
    async with session.request(
        call.method,
        target.base_url + call.path,
        data=call.body,
        headers=headers,
        ssl=target.ssl_context if target.ssl_context is not None else True,
    ) as resp:
        await resp.read()
        retry_after = resp.headers.get("Retry-After")
        return resp.status, float(retry_after) if retry_after else None


async def sequential(target: Target, workload: Workload, progress: Progress, speedup: float) -> None:
    """(a) Sequential awaits, no limiter, no retry."""
    async with _session() as session:
        for call in interleave(workload):
            status, _ = await _send(session, target, call)
            progress.record(call, status)
            if status == 429:
                progress.calls_lost += 1


async def fixed_sleeps(target: Target, workload: Workload, progress: Progress, speedup: float) -> None:
    """(b) Sequential awaits with a fixed sleep per category after each call."""
    async with _session() as session:
        for call in interleave(workload):
            sent = time.perf_counter()
            status, _ = await _send(session, target, call)
            progress.send_seconds += time.perf_counter() - sent
            progress.record(call, status)
            if status == 429:
                progress.calls_lost += 1
            await asyncio.sleep(FIXED_SLEEPS[call.category] / speedup)


def aiolimiter_strategy(limits: RateLimits) -> Strategy:
    """(c) One ``AsyncLimiter(amount, period)`` per rule, all tasks concurrently, retry on 429."""

    async def run(target: Target, workload: Workload, progress: Progress, speedup: float) -> None:
        limiters = {
            str(cat): [(AsyncLimiter(rule.amount, rule.period), rule.per == "weight") for rule in rules]
            for cat, rules in limits.rules.items()
        }

        async def task(calls: Sequence[Call]) -> None:
            for call in calls:
                while True:
                    for limiter, weighted in limiters.get(call.category, []):
                        await limiter.acquire(call.weight if weighted else 1)
                    status, retry_after = await _send(session, target, call)
                    progress.record(call, status)
                    if status != 429:
                        break
                    if retry_after:
                        await asyncio.sleep(retry_after)

        async with _session() as session:
            await asyncio.gather(*(task(t) for t in workload))

    return run


async def backoff(target: Target, workload: Workload, progress: Progress, speedup: float) -> None:
    """(d) Everything concurrently, retry on 429 with exponential backoff and full jitter."""
    rng = random.Random(1234)

    async def task(calls: Sequence[Call]) -> None:
        for call in calls:
            attempt = 0
            while True:
                status, _ = await _send(session, target, call)
                progress.record(call, status)
                if status != 429:
                    break
                await asyncio.sleep(rng.uniform(0, min(60.0, 2.0**attempt)) / speedup)
                attempt += 1

    async with _session() as session:
        await asyncio.gather(*(task(t) for t in workload))


DESCRIPTIONS = {
    "(a) sequential, no limiter": "one call after another, no limiter; a 429 is not retried "
    "(the call is lost)",
    "(b) fixed sleeps": "one call after another, sleeping 100 ms after a read, 200 ms after a write, "
    "6 s after an import and 20 s after an optimize (divided by the speed-up); a 429 is not retried",
    "(c) aiolimiter + retry on 429": "all tasks concurrently; one aiolimiter.AsyncLimiter(amount, period) "
    "per rule of the category, default settings (a weighted rule acquires the batch size); a 429 is "
    "retried through the limiter again, after Retry-After when the answer has one",
    "(d) concurrent + backoff & jitter": "all tasks concurrently, no limiter; a 429 is retried after a "
    "full-jitter exponential backoff, 1 s doubling to at most 60 s (divided by the speed-up)",
}
"""What each baseline does, for RESULTS.md."""


def strategies(limits: RateLimits) -> dict[str, Strategy]:
    """The four baselines by their row label in RESULTS.md."""
    return {
        "(a) sequential, no limiter": sequential,
        "(b) fixed sleeps": fixed_sleeps,
        "(c) aiolimiter + retry on 429": aiolimiter_strategy(limits),
        "(d) concurrent + backoff & jitter": backoff,
    }


async def run_capped(
    strategy: Strategy, target: Target, workload: Workload, speedup: float, cap_seconds: float
) -> dict[str, Any]:
    """Run one strategy until it finishes or ``cap_seconds`` pass; its figures."""
    progress = Progress(workload)
    started = time.perf_counter()
    finished = True
    try:
        async with asyncio.timeout(cap_seconds):
            await strategy(target, workload, progress, speedup)
    except TimeoutError:
        finished = False
    elapsed = time.perf_counter() - started
    done_share = progress.calls_ok / progress.calls_total if progress.calls_total else 0.0
    if finished:
        projected = elapsed
    elif strategy is fixed_sleeps and progress.attempts:
        # Its time is known in advance: every sleep, plus every call at the latency seen so far
        # (the round-robin order puts the long sleeps of imports and optimizes first, so the
        # share of calls done would overstate it).
        sleeps = sum(FIXED_SLEEPS[c.category] for task in workload for c in task) / speedup
        projected = sleeps + progress.send_seconds / progress.attempts * progress.calls_total
    elif done_share > 0:
        projected = elapsed / done_share
    else:
        projected = float("inf")
    return {
        "finished": finished,
        "seconds": elapsed,
        "projected_seconds": projected,
        "calls_total": progress.calls_total,
        "calls_ok": progress.calls_ok,
        "calls_lost": progress.calls_lost,
        "errors": progress.errors,
        "weight_total": progress.weight_total,
        "weight_ok": progress.weight_ok,
        "attempts": progress.attempts,
        "responses_429": progress.responses_429,
    }
