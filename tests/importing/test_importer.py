"""The bulk importer against the emulator, over HTTPS on a real socket, with faults injected.

Every test ends with the same check (:func:`assert_accounted`): each input row is
on the server exactly once when the report says ``created`` (with the id the
report gives), absent when it says ``rejected`` or ``not_created``, and at most
once when it says ``unknown``; the server holds nothing else. Rows are told
apart on the server by their ``notes`` (``row-<position>``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from support.fault_schedules import fault_schedules
from support.import_checks import assert_accounted
from support.stop_import import (
    IMPORT,
    create_plan,
    row,
    running,
    server_rows,
    unassigned_row,
    until_no_other_task,
)

from route_planning_async import (
    AuthenticationError,
    Category,
    PlanNotWritableError,
    RateLimits,
    RetryPolicy,
    RoutePlanningClient,
    Rule,
    ValidationError,
)
from route_planning_async._import import ImportProgress, ImportReport, Outcome
from route_planning_async.emulator import Emulator, Fault
from route_planning_async.v0_2b._inputs import AddressInput, StopInput, UnassignedStopInput

# Clean imports ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_generator_is_streamed_in_bounded_batches() -> None:
    rows = 1050
    read = 0
    progress: list[ImportProgress[StopInput]] = []

    def source() -> Iterator[StopInput]:
        nonlocal read
        for position in range(rows):
            read += 1
            yield row(position)

    def on_progress(p: ImportProgress[StopInput]) -> None:
        progress.append(p)
        # Never more than max_in_flight batches, plus the one being read, ahead of the results.
        assert read - p.done <= (4 + 1) * 100

    async with running() as (emu, client):
        plan_id = await create_plan(client)
        report = await client.stops.import_many(plan_id, source(), on_progress=on_progress, max_in_flight=4)
        assert report.ok
        assert report.created == rows
        assert_accounted(report, server_rows(emu, plan_id), rows)
        imports = emu.log.select(route=IMPORT)
        # Four batches fly at once, so they may arrive in any order.
        assert sorted((r.weight for r in imports), reverse=True) == [100] * 10 + [50]
        assert emu.max_in_window("batch_import", per="weight") <= 1000
        assert emu.max_in_window("batch_import") <= 10
    assert len(progress) == 12
    assert progress[-1].final
    assert not progress[-2].final
    assert [p.done for p in progress[:-1]] == sorted(p.done for p in progress[:-1])
    assert progress[-1].created == rows
    assert progress[-1].total is None
    assert report.throughput > 0
    assert report.elapsed > 0
    ids = dict(report.created_ids())
    assert len(ids) == rows
    assert len(set(ids.values())) == rows


@pytest.mark.asyncio
async def test_async_iterable_and_sequence_inputs() -> None:
    async def source() -> AsyncIterator[StopInput]:
        for position in range(120):
            await asyncio.sleep(0)
            yield row(position)

    async with running() as (emu, client):
        plan_id = await create_plan(client)
        report = await client.stops.import_many(plan_id, source())
        assert_accounted(report, server_rows(emu, plan_id), 120)
        second = await create_plan(client)
        totals: list[int | None] = []
        listed = await client.stops.import_many(
            second, [row(p) for p in range(30)], on_progress=lambda p: totals.append(p.total)
        )
        assert listed.created == 30
        assert totals == [30, 30]


@pytest.mark.asyncio
async def test_saturates_the_batch_import_limits_without_exceeding_them() -> None:
    # Strict windows: no 429 whatever the latency. The default's early anchor holds while one-way
    # delays vary less than round trips, which a loaded machine's event loops do not promise.
    async with running(speedup=100.0, strict_windows=True) as (emu, client):
        plan_id = await create_plan(client)
        report = await client.stops.import_many(plan_id, (row(p) for p in range(3000)))
        assert report.created == 3000
        # 1,000 stops per (sped-up) minute: the weighted rule is the binding one. Three
        # full windows over the span; a fourth would mean the importer left capacity unused.
        assert emu.max_in_window("batch_import", per="weight") == 1000
        assert emu.utilization("batch_import", per="weight") >= 0.75
        assert not emu.log.rejected("batch_import")


@pytest.mark.asyncio
async def test_keep_ids_false_keeps_counts_and_failures_only() -> None:
    async with running() as (_, client):
        plan_id = await create_plan(client)
        stops = [row(p, rejected=p == 7) for p in range(150)]
        report = await client.stops.import_many(plan_id, stops, keep_ids=False)
        assert report.created == 149
        assert len(report.rejected) == 1
        assert report.rejected[0].position == 7
        assert report.outcome(8) is Outcome.CREATED
        with pytest.raises(LookupError):
            report.id_of(0)
        with pytest.raises(LookupError):
            list(report.created_ids())


# Per-stop failures ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_per_stop_failures_are_mapped_back_to_their_positions() -> None:
    bad = {3, 4, 150, 151, 199}
    # Rows with and without an external id: failures are matched by external id, else by address.
    stops = [row(p, external=p % 2 == 0, rejected=p in bad) for p in range(200)]
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        report = await client.stops.import_many(plan_id, stops)
        assert_accounted(report, server_rows(emu, plan_id), 200)
    assert {r.position for r in report.rejected} == bad
    for rejected in report.rejected:
        assert rejected.input is stops[rejected.position]
        assert "geocod" in rejected.message
    assert report.created == 195
    assert not report.ok


# Ambiguous failures: reconciliation ------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["error_after_commit", "drop_after_commit", "error", "drop"])
async def test_ambiguous_batch_is_reconciled_by_external_id(kind: str) -> None:
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        emu.faults.add(Fault(kind, route=IMPORT, nth=2), Fault(kind, route=IMPORT, nth=5))
        report = await client.stops.import_many(plan_id, (row(p) for p in range(500)), settle_delay=0.01)
        on_server = server_rows(emu, plan_id)
        assert_accounted(report, on_server, 500)
        assert report.ok, report.failed_batches
        assert len(emu.faults.events) == 2
        lookups = emu.log.select(route="stops.list")
        # The 100 keys of an ambiguous batch share paged listings of the plan (10 stops a
        # page) instead of 100 filtered lists each; the late-commit check lists once more.
        assert 0 < len(lookups) < 200
        resent = [r for r in emu.log.select(route=IMPORT) if r.status == 200]
        # Committed batches are found and not sent again; lost ones are sent once more.
        assert len(resent) == (3 if kind.endswith("after_commit") else 5)


@pytest.mark.asyncio
async def test_ambiguous_batch_without_external_ids_is_unknown_and_not_resent() -> None:
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        # The batch of rows 100-199, by its content: batches go out concurrently.
        emu.faults.add(Fault("error_after_commit", route=IMPORT, marker='"row-100"', times=1))
        report = await client.stops.import_many(plan_id, [row(p, external=False) for p in range(300)])
        on_server = server_rows(emu, plan_id)
        assert_accounted(report, on_server, 300)
        assert report.unknown == 100
        assert report.created == 200
        [batch] = report.failed_batches
        assert batch.outcome is Outcome.UNKNOWN
        assert batch.positions == tuple(range(100, 200))
        assert batch.inputs[0].notes == "row-100"
        assert "500" in str(batch.error)
        # They were committed before the 500, and were not sent a second time.
        assert sum(len(ids) for ids in on_server.values()) == 300
        assert len(emu.log.select(route=IMPORT)) == 3


@pytest.mark.asyncio
async def test_at_least_once_resends_batches_that_cannot_be_reconciled() -> None:
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        emu.faults.add(Fault("drop", route=IMPORT, nth=1))
        report = await client.stops.import_many(
            plan_id, [row(p, external=False) for p in range(100)], at_least_once=True
        )
        assert report.ok
        assert_accounted(report, server_rows(emu, plan_id), 100)
        assert len(emu.log.select(route=IMPORT)) == 2


@pytest.mark.asyncio
async def test_resends_are_bounded() -> None:
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        emu.faults.add(Fault("error", route=IMPORT))  # every import fails, nothing is stored
        report = await client.stops.import_many(
            plan_id, [row(p) for p in range(40)], max_resends=2, settle_delay=0
        )
        assert_accounted(report, server_rows(emu, plan_id), 40)
        assert report.not_created == 40
        assert len(emu.log.select(route=IMPORT)) == 3
        assert report.to_resend()[0] == (0, report.failed_batches[0].inputs[0])


@pytest.mark.asyncio
async def test_failed_lookup_leaves_the_outcome_unknown() -> None:
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        emu.faults.add(Fault("error_after_commit", route=IMPORT, nth=1))
        emu.faults.add(Fault("error", route="stops.list", status=403))
        report = await client.stops.import_many(plan_id, [row(p) for p in range(10)])
        assert_accounted(report, server_rows(emu, plan_id), 10)
        assert report.unknown == 10
        assert any(
            "reconciliation failed for 10 stops" in note for note in report.failed_batches[0].error.__notes__
        )


# Whole-batch failures -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_batch_rejected_with_4xx_fails_as_a_whole_and_can_be_resent() -> None:
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        emu.faults.add(Fault("error", route=IMPORT, nth=2, status=422))
        report = await client.stops.import_many(plan_id, (row(p) for p in range(300)))
        assert_accounted(report, server_rows(emu, plan_id), 300)
        assert report.not_created == 100
        retry = await client.stops.import_many(plan_id, [stop for _, stop in report.to_resend()])
        assert retry.ok
        assert len(emu.state.stops_of(plan_id.removeprefix("plans/"))) == 300


@pytest.mark.asyncio
async def test_rate_limit_storm_is_absorbed_by_the_scheduler() -> None:
    async with running(seed=4) as (emu, client):
        plan_id = await create_plan(client)
        emu.faults.add(Fault("rate_limit", route=IMPORT, probability=0.5, retry_after=0.002))
        report = await client.stops.import_many(plan_id, (row(p) for p in range(1000)))
        assert_accounted(report, server_rows(emu, plan_id), 1000)
        assert report.ok
        assert len(emu.faults.events) >= 5
        assert not emu.log.select(route="stops.list")  # a 429 is never ambiguous


@pytest.mark.asyncio
async def test_plan_not_writable_stops_the_import() -> None:
    finals: list[ImportProgress[StopInput]] = []
    async with running() as (emu, client):
        plan_id = await create_plan(client)
        await client.stops.import_many(plan_id, [row(p) for p in range(5)])
        operation = await client.plans.optimize(plan_id)
        assert operation.done
        with pytest.raises(PlanNotWritableError):
            await client.stops.import_many(
                plan_id,
                (row(p) for p in range(5, 100_000)),
                on_progress=finals.append,
                max_in_flight=2,
            )
        imports = emu.log.select(route=IMPORT)
        assert len(imports) <= 3
    report = finals[-1].report
    assert finals[-1].final
    assert report.created == 0
    assert report.total <= 300
    assert report.not_created == report.total


@pytest.mark.asyncio
async def test_wrong_key_raises_authentication_error() -> None:
    async with running() as (emu, _):
        wrong = RoutePlanningClient("not-the-key", base_url=emu.base_url, ssl=emu.ssl_context)
        async with wrong as client:
            with pytest.raises(AuthenticationError):
                await client.stops.import_many("plan1", (row(p) for p in range(1000)), max_in_flight=2)
        assert len(emu.log.select(route=IMPORT)) <= 2


# Validation ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_sequence_is_checked_before_anything_is_sent() -> None:
    stops: list[Any] = [row(p) for p in range(300)]
    stops[234] = {"address": "1 Main St"}
    async with running() as (emu, client):
        with pytest.raises(ValidationError) as caught:
            await client.stops.import_many("plan1", stops)
        assert caught.value.field == "stops[234]"
        assert len(emu.log) == 0


@pytest.mark.asyncio
async def test_invalid_row_in_a_stream_names_its_position() -> None:
    finals: list[ImportProgress[StopInput]] = []

    def source() -> Iterator[StopInput]:
        for position in range(1000):
            latitude = 123.0 if position == 234 else 51.0 + position * 1e-5
            yield StopInput(address=AddressInput(latitude=latitude, longitude=0.1), notes=f"row-{position}")

    async with running() as (emu, client):
        plan_id = await create_plan(client)
        with pytest.raises(ValidationError) as caught:
            await client.stops.import_many(plan_id, source(), on_progress=finals.append, max_in_flight=1)
        assert caught.value.field == "stops[234].address.latitude"
        report = finals[-1].report
        # The batches before the bad row were sent and finished; the rows read after them were not sent.
        assert report.created == 200
        assert report.not_created == 34
        assert report.total == 234
        assert_accounted(report, server_rows(emu, plan_id), 234)


@pytest.mark.asyncio
async def test_settings_are_checked() -> None:
    async with running() as (_, client):
        for kwargs in (
            {"batch_size": 101},
            {"max_in_flight": 0},
            {"max_resends": -1},
            {"settle_delay": -1.0},
        ):
            with pytest.raises(ValidationError):
                await client.stops.import_many("plan1", [row(0)], **kwargs)
        with pytest.raises(ValidationError):
            await client.stops.import_many("../plans", [row(0)])
        # A misspelt option is refused as Python refuses an unknown keyword, before anything is sent.
        with pytest.raises(TypeError, match="unexpected keyword argument 'max_inflight'"):
            await client.stops.import_many("plan1", [row(0)], max_inflight=2)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="unexpected keyword argument 'dept'"):
            await client.unassigned_stops.import_many([unassigned_row(0)], dept="depots/d1")  # type: ignore[call-arg]
        assert client.stats[Category.BATCH_IMPORT].requests == 0


# Cancellation -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_cancelled_import_reports_every_row_it_read() -> None:
    finals: list[ImportProgress[StopInput]] = []
    first_batch_done = asyncio.Event()

    def on_progress(progress: ImportProgress[StopInput]) -> None:
        finals.append(progress)
        first_batch_done.set()

    async with running() as (emu, client):
        plan_id = await create_plan(client)
        # Every batch stays in flight for a while (handled, answered late).
        emu.faults.add(Fault("delay", route=IMPORT, delay=0.3))
        task = asyncio.create_task(
            client.stops.import_many(
                plan_id, (row(p) for p in range(10_000)), on_progress=on_progress, max_in_flight=3
            )
        )
        await first_batch_done.wait()
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # Let the delayed handlers finish on the server: every task but this one
        # ends (a loaded machine may need longer than the 0.3 s delay).
        await until_no_other_task(deadline=10.0)
        report = finals[-1].report
        assert finals[-1].final
        assert report.done == report.total
        assert report.created >= 100
        assert report.unknown > 0
        assert report.total < 10_000
        assert_accounted(report, server_rows(emu, plan_id), report.total)
        # The client is still usable, and nothing of the import is left running.
        assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
        assert (await client.plans.get(plan_id)).id == plan_id


# Unassigned stops ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_unassigned_import_reconciles_by_external_id() -> None:
    async with running() as (emu, client):
        emu.faults.add(Fault("error_after_commit", route="unassigned_stops.import_batch", nth=2))
        report = await client.unassigned_stops.import_many(
            (unassigned_row(p) for p in range(250)), depot="depots/north", settle_delay=0
        )
        assert report.ok
        assert report.created == 250
        stored = list(emu.state.unassigned_stops.values())
        assert len(stored) == 250
        assert {record.body["depot"] for record in stored} == {"depots/north"}
        assert sorted(record.body["notes"] for record in stored) == sorted(f"row-{p}" for p in range(250))
        ids = {stop_id for _, stop_id in report.created_ids()}
        assert len(ids) == 250
        assert all(i.startswith("unassignedStops/") for i in ids)
        assert 0 < len(emu.log.select(route="unassigned_stops.list")) < 100


@pytest.mark.asyncio
async def test_unassigned_import_without_external_ids_reports_unknown() -> None:
    async with running() as (emu, client):
        emu.faults.add(Fault("drop_after_commit", route="unassigned_stops.import_batch", nth=1))
        report = await client.unassigned_stops.import_many(
            [unassigned_row(p, external=False) for p in range(120)]
        )
        assert report.unknown == 100
        assert report.created == 20
        assert report.uncertain()[0][0] == 0
        assert not emu.log.select(route="unassigned_stops.list")


@pytest.mark.asyncio
async def test_unassigned_stops_may_not_carry_a_depot() -> None:
    async with running() as (_, client):
        stops = [unassigned_row(0), UnassignedStopInput(address=AddressInput(city="Leeds"), depot="main")]
        with pytest.raises(ValidationError) as caught:
            await client.unassigned_stops.import_many(stops)
        assert caught.value.field == "stops[1].depot"


# The invariant, over random fault schedules -------------------------------------------------


@pytest.mark.asyncio
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(fault_schedules(routes=[IMPORT, "stops.list"], max_rows=450, max_nth=12, max_faults=6))
async def test_every_row_is_on_the_server_once_or_reported(
    schedule: tuple[int, int, list[tuple[str, str, int]]],
) -> None:
    rows, seed, faults = schedule
    rng = random.Random(seed)
    stops = [row(p, external=rng.random() < 0.8, rejected=rng.random() < 0.05) for p in range(rows)]
    async with running(seed=seed) as (emu, client):
        plan_id = await create_plan(client)
        for kind, route, nth in faults:
            if kind == "client_error":
                emu.faults.add(Fault("error", route=route, nth=nth, status=400))
            elif kind == "rate_limit":
                emu.faults.add(Fault(kind, route=route, nth=nth, retry_after=0.001))
            else:
                emu.faults.add(Fault(kind, route=route, nth=nth))
        report = await client.stops.import_many(
            plan_id,
            iter(stops),
            settle_delay=0,
            max_failed_batches=None,
            batch_size=rng.choice([7, 50, 100]),
        )
        assert_accounted(report, server_rows(emu, plan_id), rows)
        assert not emu.internal_errors
    # Rows with an external id are never left unknown when their lookups work.
    lookups_failed = any(route == "stops.list" and kind == "client_error" for kind, route, _ in faults)
    if not lookups_failed:
        for position, stop in report.uncertain():
            assert stop.recipient is None, position


# Limits that disagree with the client's ---------------------------------------------


def half_the_contract() -> RateLimits:
    """The service allows half of what the client is configured for: 5 imports and 500 stops a minute."""
    return RateLimits.default().replace(Category.BATCH_IMPORT, Rule(5, 60.0), Rule(500, 60.0, per="weight"))


@pytest.mark.asyncio
@pytest.mark.parametrize("limiter", ["sliding_window", "token_bucket"])
async def test_an_import_learns_a_lower_real_limit_and_creates_every_stop_once(limiter: str) -> None:
    rows = 3000
    # Slower than SPEEDUP, for a loaded machine. At 600 the service allows 5,000
    # stops a second, and a loaded machine that sends more slowly than that
    # never met a 429 (a token bucket refills as it goes; a window slides on):
    # the test learned nothing. At 120 it allows 1,000 a second (ten 100-stop
    # batches; any machine sends faster) and 500 at once, so the first ten
    # batches are refused in part unless sending them took over half a second.
    speedup = 120.0
    async with Emulator(speedup=speedup, rate_limits=half_the_contract(), limiter=limiter) as emu:
        configured = RateLimits.default().scaled(speedup)
        async with emu.client(rate_limits=configured, retry=RetryPolicy(rng=random.Random(2))) as client:
            plan_id = await create_plan(client)
            # Rows made beforehand: on a loaded machine, making them on the fly could
            # spread the first ten batches out enough that the service never pushes back.
            report = await client.stops.import_many(plan_id, [row(p) for p in range(rows)])
            stats = client.stats[Category.BATCH_IMPORT]
        # Every stop created once, none lost to the service's 429s.
        assert report.ok
        assert_accounted(report, server_rows(emu, plan_id), rows)
        # The service pushed back (the first ten batches go at once), and nothing failed.
        # What the category learned is timing: test_learning.py pins it in virtual time.
        assert stats.rate_limited > 0
        assert emu.internal_errors == []


@pytest.mark.asyncio
async def test_reads_against_a_lower_real_limit_never_fail() -> None:
    real = RateLimits.default().replace(Category.READ, Rule(4, 1.0))
    async with Emulator(speedup=60.0, rate_limits=real) as emu:
        async with emu.client(rate_limits=RateLimits.default().scaled(60.0)) as client:
            plan_id = await create_plan(client)
            plans = await asyncio.gather(*(client.plans.get(plan_id) for _ in range(200)))
            stats = client.stats[Category.READ]
    assert {plan.id for plan in plans} == {plan_id}
    assert stats.rate_limited > 0


class StoppedClock:
    """A clock that reads the same time until it is moved by hand."""

    def __init__(self) -> None:
        self.time = 50.0

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        self.time += seconds


def test_a_rejected_row_found_by_the_late_commit_check_becomes_created() -> None:
    # A row resent after an ambiguous send and then refused may exist from the
    # first send: when the late-commit check finds it, it is created, not rejected.
    report: ImportReport[str] = ImportReport(
        id_prefix="plans/p1/stops/", batch_size=2, keep_ids=True, clock=StoppedClock()
    )
    batch = report._open_batch(2)
    report._record_rejected(batch, 0, "row 0", "refused on its resend")
    report._record_rejected(batch, 1, "row 1", "refused")
    report._reclassify(0, Outcome.CREATED, "plans/p1/stops/s0")
    report._reclassify(1, Outcome.NOT_CREATED)  # a refusal never becomes anything but created
    assert (report.created, len(report.rejected)) == (1, 1)
    assert report.outcome(0) is Outcome.CREATED
    assert report.id_of(0) == "plans/p1/stops/s0"
    assert [r.position for r in report.rejected] == [1]


def test_the_report_measures_its_time_with_the_import_clock() -> None:
    clock = StoppedClock()
    report: ImportReport[str] = ImportReport(id_prefix="drivers/", batch_size=1, keep_ids=True, clock=clock)
    clock.time += 4.0
    assert report.elapsed == 4.0
    report._finish()
    clock.time += 10.0
    assert report.elapsed == 4.0
