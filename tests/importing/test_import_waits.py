"""The importer's wait for capacity: wall-clock time with at least one batch waiting, not a sum.

In virtual time, against a scripted service whose answers take one second: the
report's ``waited`` is the time during which some batch was held back (queued
for the rate limits, or between a refused attempt and its retry), counted once
however many batches wait side by side. The scheduler's ``wait_seconds`` sums
the same waits over requests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.fake_transport import FakeService, answer
from support.virtual_time import run_virtual

import route_planning_async as rp
from route_planning_async import Category, RateLimits, RetryPolicy, Rule

KEY = "k"
URL = "http://127.0.0.1:9"
IMPORT = ("POST", "/plans/p1/stops:import")
LATENCY = 1.0
"""Seconds each answer takes (on the wire, not waiting)."""


def _created(request: rp.Request) -> rp.Response:
    count = len(json.loads(request.body or b"[]"))
    return answer({"success": [f"plans/p1/stops/s{id(request)}-{i}" for i in range(count)], "failed": []})


def _stops(count: int) -> list[rp.StopInput]:
    return [rp.StopInput(address=rp.AddressInput(address_line_one=f"{i} Main St")) for i in range(count)]


def _import(
    service: FakeService, limits: RateLimits, count: int, **options: Any
) -> tuple[rp.ImportReport[rp.StopInput], rp.CategoryStats, list[rp.ImportProgress[Any]]]:
    progress: list[rp.ImportProgress[Any]] = []

    async def main() -> tuple[rp.ImportReport[rp.StopInput], rp.CategoryStats]:
        retry = RetryPolicy(attempts=3, base=0.5, cap=0.5)
        async with rp.RoutePlanningClient(
            KEY, base_url=URL, transport=service, rate_limits=limits, retry=retry
        ) as client:
            report = await client.stops.import_many(
                "plans/p1", _stops(count), on_progress=progress.append, **options
            )
            return report, client.stats[Category.BATCH_IMPORT]

    report, stats = run_virtual(main)
    return report, stats, progress


def test_batches_queued_side_by_side_count_their_wait_once() -> None:
    service = FakeService(latency=LATENCY).on(*IMPORT, forever=_created)
    # One import request per 10 s, a slot counting until 10 s after its answer: of three batches
    # sent together, the second waits 11 s (0 to 11), the third 22 s (0 to 22).
    limits = RateLimits.unlimited().replace(Category.BATCH_IMPORT, Rule(1, 10))
    report, stats, progress = _import(service, limits, 30, batch_size=10, max_in_flight=3)
    assert report.created == 30
    assert stats.wait_seconds == pytest.approx(33.0, abs=0.01)  # summed: 11 + 22
    assert report.waited == pytest.approx(22.0, abs=0.01)  # wall time: from 0 until the third left
    assert report.waited <= report.elapsed
    assert progress[-1].final
    assert progress[-1].waited == report.waited
    assert [p.waited for p in progress] == sorted(p.waited for p in progress)


def test_the_wait_before_a_retry_counts_and_time_on_the_wire_does_not() -> None:
    refused = answer({"message": "slow down"}, status=429, headers={"Retry-After": "5"})
    service = FakeService(latency=LATENCY).on(*IMPORT, refused, forever=_created)
    report, stats, _ = _import(service, RateLimits.unlimited(), 10)
    assert report.created == 10
    assert stats.rate_limited == 1
    # Two attempts of 1 s on the wire; the rest of the import was the wait for the retry.
    assert report.waited == pytest.approx(report.elapsed - 2 * LATENCY, abs=0.01)
    assert report.waited >= 5.0


def test_an_import_never_held_back_waited_nothing() -> None:
    service = FakeService(latency=LATENCY).on(*IMPORT, forever=_created)
    report, _, progress = _import(service, RateLimits.unlimited(), 25, batch_size=10)
    assert report.created == 25
    assert report.waited == 0.0
    assert all(p.waited == 0.0 for p in progress)


def test_a_batch_still_waiting_when_the_deadline_ends_the_import_waited_until_then() -> None:
    service = FakeService(latency=LATENCY).on(*IMPORT, forever=_created)
    limits = RateLimits.unlimited().replace(Category.BATCH_IMPORT, Rule(1, 100))
    report, _, progress = _import(service, limits, 20, batch_size=10, max_in_flight=2, deadline=30)
    assert (report.created, report.not_created) == (10, 10)
    assert report.stopped is not None
    assert report.waited == pytest.approx(30.0, abs=0.01)  # the second batch, from 0 to the deadline
    assert progress[-1].waited == report.waited
