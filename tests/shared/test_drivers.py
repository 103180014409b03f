"""Drivers (``client.drivers``) and routes (``client.routes``) against the emulator.

The first part checks each call and the answers' shapes against the official
schema; the second runs ``drivers.import_many`` through the faults the stop
importer is tested with (``tests/importing/test_importer.py``) and ends each test with the
same invariant: every input driver is in the team exactly once when the report
says ``created`` (with the id it gives), absent when it says ``rejected`` or
``not_created``, at most once when ``unknown``. Rows are told apart in the team
by their ``name`` (``row-<position>``); their natural key is the e-mail.
"""

from __future__ import annotations

import asyncio
import datetime
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from support.fault_schedules import fault_schedules
from support.fixtures import load
from support.import_checks import assert_accounted

import route_planning_async as rp
from route_planning_async import RetryPolicy, RoutePlanningClient
from route_planning_async.emulator import Emulator, Fault
from route_planning_async.v0_2b._converter import structure, unstructure

pytestmark = pytest.mark.asyncio

SPEEDUP = 600.0
"""A minute of rate limit lasts 0.1 s: two driver imports per 0.1 s."""

IMPORT = "drivers.import_batch"


@asynccontextmanager
async def running(**config: Any) -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    """An emulator (sped up, its default limits) and a client with the same limits."""
    retry = config.pop("retry", RetryPolicy(attempts=12, base=0.001, cap=0.01, rng=random.Random(1)))
    config.setdefault("speedup", SPEEDUP)
    async with Emulator(**config) as emu, emu.client(retry=retry) as client:
        yield emu, client
    assert emu.internal_errors == []


def driver_row(position: int, *, keyed: bool = True, rejected: bool = False) -> rp.DriverInput:
    """Input row ``position``: named ``row-<position>``, with an e-mail unless ``keyed`` is False.

    A ``rejected`` row names a depot the team does not have, which the service
    refuses inside a successful answer. (A row whose e-mail a team driver already
    has is not rejected by the importer: the key says it is in the team.)
    """
    email = f"row{position}@example.com" if keyed else rp.UNSET
    depots = ["depots/nowhere"] if rejected else rp.UNSET
    return rp.DriverInput(name=f"row-{position}", email=email, depots=depots)


def team_rows(emu: Emulator) -> dict[int, list[str]]:
    """Position -> ``drivers/<id>`` of the team drivers that stand for it."""
    found: dict[int, list[str]] = {}
    for driver_id, driver in emu.state._drivers.items():
        if emu.state.driver(driver_id) is None or not (driver.name or "").startswith("row-"):
            continue
        found.setdefault(int(driver.name[4:]), []).append(f"drivers/{driver_id}")  # type: ignore[index]
    return found


# The calls ------------------------------------------------------------------------------


async def test_list_pages_and_filters_the_team() -> None:
    async with running() as (_, client):
        everyone = await client.drivers.list(max_page_size=2).collect()
        assert [d.id for d in everyone] == [
            "drivers/driver-ana",
            "drivers/driver-ben",
            "drivers/driver-cleo",
            "drivers/driver-dan",
            "drivers/driver-paused",
        ]
        pages = [page async for page in client.drivers.list(max_page_size=2).pages()]
        assert [len(page.items) for page in pages] == [2, 2, 1]
        paused = await client.drivers.list(filter={"active": False}).collect()
        assert [d.id for d in paused] == ["drivers/driver-paused"]
        active = await client.drivers.list(filter={"active": True}).collect()
        assert len(active) == 4
        assert all(d.active for d in active)


async def test_create_get_update_delete() -> None:
    async with running() as (emu, client):
        created = await client.drivers.create(
            rp.DriverInput(
                name="Zoe Quinn",
                email="zoe@example.com",
                phone="+440000000042",
                depots=["north", "depots/north"],
                route_overrides=rp.RouteOverridesInput(
                    start_time=datetime.time(6, 45),
                    start_address=rp.AddressInput(
                        address_line_one="9 Yard Road", latitude=51.6, longitude=-0.2
                    ),
                    max_stops=12,
                    vehicle_type="bike",
                ),
            )
        )
        assert created.id.startswith("drivers/")
        assert (created.name, created.email, created.phone) == (
            "Zoe Quinn",
            "zoe@example.com",
            "+440000000042",
        )
        assert created.active
        assert created.depots == ["depots/north"]
        overrides = created.route_overrides
        assert overrides.start_time == datetime.time(6, 45)
        assert overrides.max_stops == 12
        assert overrides.vehicle_type == "bike"
        assert overrides.start_address is not None
        assert overrides.start_address.address_line_one == "9 Yard Road"
        assert overrides.start_address.latitude == pytest.approx(51.6)
        assert await client.drivers.get(created.id) == created
        assert await client.get(created.id) == created

        updated = await client.drivers.update(created.id, display_name="Zoe", depots=None)
        assert updated.display_name == "Zoe"
        assert updated.depots == ["depots/main"]  # None: the team's main depot
        assert updated.email == "zoe@example.com"
        assert updated.route_overrides.max_stops == 12  # not given: unchanged

        replaced = await client.drivers.update(
            created.id, rp.DriverUpdate(route_overrides=rp.RouteOverridesInput(driving_speed="faster"))
        )
        assert replaced.route_overrides.driving_speed == "faster"
        assert replaced.route_overrides.max_stops is None  # the object is replaced whole

        # A driver that is in the team can be added to a plan; a removed one cannot.
        plan = await client.plans.create(
            title="Zoe", starts=datetime.date(2026, 11, 23), drivers=[created.id]
        )
        assert [d.id for d in plan.drivers] == [created.id]
        await client.drivers.delete(created.id)
        with pytest.raises(rp.NotFoundError) as gone:
            await client.drivers.get(created.id)
        assert gone.value.code == "driver_not_found"
        with pytest.raises(rp.NotFoundError):
            await client.drivers.delete(created.id)
        with pytest.raises(rp.NotFoundError):
            await client.plans.create(title="No", starts=datetime.date(2026, 11, 23), drivers=[created.id])
        assert (await client.plans.get(plan.id)).drivers == []
        assert created.id not in [d.id for d in await client.drivers.list().collect()]
        categories = [r.category for r in emu.log.select(route="drivers.create")]
        assert categories == [rp.Category.DRIVER_CREATE]


async def test_a_taken_email_is_refused() -> None:
    async with running() as (_, client):
        with pytest.raises(rp.UnprocessableEntityError):
            await client.drivers.create(rp.DriverInput(email="ana@example.com"))


async def test_import_batch_reports_failures_in_the_answer() -> None:
    async with running() as (_, client):
        result = await client.drivers.import_batch(
            [
                driver_row(0),
                rp.DriverInput(name="row-1", email="ana@example.com"),
                rp.DriverInput(phone="+449999"),
            ]
        )
        assert len(result.success) == 2
        [failure] = result.failed
        assert failure.driver == {"name": "row-1", "email": "ana@example.com"}
        assert "email" in failure.message
        drivers = [await client.drivers.get(driver_id) for driver_id in result.success]
        assert [d.name for d in drivers] == ["row-0", None]


async def test_routes_of_an_optimized_plan_resolve() -> None:
    async with running(rate_limits=rp.RateLimits.unlimited()) as (_, client):
        plan = await client.plans.create(
            title="Routes", starts=datetime.date(2026, 11, 23), drivers=["driver-ana", "driver-ben"]
        )
        await client.stops.import_batch(
            plan.id,
            [rp.StopInput(address=rp.AddressInput(address_line_one=f"{i} Route Road")) for i in range(8)],
        )
        await client.plans.optimize_and_wait(plan.id, poll_interval=0.01)
        plan = await client.plans.get(plan.id)
        assert len(plan.routes) == 2
        routes = [await client.routes.get(route_id) for route_id in plan.routes]
        assert {r.driver for r in routes} == {"drivers/driver-ana", "drivers/driver-ben"}
        assert all(r.plan == plan.id for r in routes)
        assert sum(r.stop_count for r in routes) == 8
        assert await client.get(plan.routes[0]) == routes[0]
        stop = (await client.stops.list(plan.id).collect())[0]
        assert stop.route is not None
        assert (await client.routes.get(stop.route.id)).id == stop.route.id
        with pytest.raises(rp.NotFoundError):
            await client.routes.get("routes/none")


async def test_a_custom_stop_property_by_id() -> None:
    async with running() as (_, client):
        [first, second] = await client.custom_stop_properties.list().collect()
        assert await client.custom_stop_properties.get(second.id) == second
        assert (await client.custom_stop_properties.get(first.id)).name == first.name
        with pytest.raises(rp.NotFoundError):
            await client.custom_stop_properties.get("no-such-property")


# drivers.import_many, exactly once ------------------------------------------------------


async def test_import_many_streams_batches_of_50_in_the_driver_import_category() -> None:
    async with running() as (emu, client):
        report = await client.drivers.import_many(driver_row(p) for p in range(120))
        assert report.ok
        assert report.created == 120
        assert_accounted(report, team_rows(emu), 120)
        imports = emu.log.select(route=IMPORT)
        assert len(imports) == 3
        assert {r.category for r in imports} == {rp.Category.DRIVER_IMPORT}
        assert emu.max_in_window("driver_import") <= 2
        assert not emu.log.rejected()


async def test_sequence_and_async_inputs_give_back_the_callers_objects() -> None:
    async def source() -> AsyncIterator[rp.DriverInput]:
        for position in range(30):
            await asyncio.sleep(0)
            yield driver_row(position, rejected=position == 7)

    async with running() as (emu, client):
        report = await client.drivers.import_many(source(), batch_size=10)
        assert_accounted(report, team_rows(emu), 30)
        [rejected] = report.rejected
        assert rejected.position == 7
        assert isinstance(rejected.input, rp.DriverInput)
        assert rejected.input.email == "row7@example.com"
        assert "Depot not found" in rejected.message
        rows = [driver_row(100 + p, keyed=False) for p in range(5)]
        # A 400 naming no driver is isolated by halving the batch; a 409 refuses it whole.
        emu.faults.add(Fault("error", route=IMPORT, nth=1, status=409))
        failed = await client.drivers.import_many(rows)
        assert failed.failed_batches[0].inputs == tuple(rows)  # the very objects given
        assert [item for _, item in failed.to_resend()] == rows


async def test_bad_input_is_refused_before_anything_is_sent() -> None:
    async with running() as (emu, client):
        with pytest.raises(rp.ValidationError) as bad:
            await client.drivers.import_many([driver_row(0), "bob@example.com"])  # type: ignore[list-item]
        assert bad.value.field == "drivers[1]"
        with pytest.raises(rp.ValidationError) as size:
            await client.drivers.import_many([driver_row(0)], batch_size=51)
        assert size.value.field == "batch_size"
        assert emu.log.select(route=IMPORT) == []


@pytest.mark.parametrize("kind", ["error_after_commit", "drop_after_commit", "error", "drop"])
async def test_ambiguous_batch_is_reconciled_by_email(kind: str) -> None:
    async with running() as (emu, client):
        emu.faults.add(Fault(kind, route=IMPORT, nth=2))
        report = await client.drivers.import_many((driver_row(p) for p in range(150)), settle_delay=0.01)
        assert_accounted(report, team_rows(emu), 150)
        assert report.ok, report.failed_batches
        # One listing of the team (at most 155 drivers, pages of 50) serves every key of
        # the batch, and one more checks the resent drivers for a late commit.
        assert 1 <= len(emu.log.select(route="drivers.list")) <= 8
        sent = [r for r in emu.log.select(route=IMPORT) if r.status == 200]
        # Committed batches are found and not sent again; a lost one is sent once more.
        assert len(sent) == (2 if kind.endswith("after_commit") else 3)


async def test_ambiguous_batch_without_a_key_is_unknown_and_not_resent() -> None:
    async with running() as (emu, client):
        # The batch of rows 0-49, by its content: the two batches go out concurrently.
        emu.faults.add(Fault("error_after_commit", route=IMPORT, marker='"row-0"', times=1))
        report = await client.drivers.import_many([driver_row(p, keyed=False) for p in range(60)])
        assert_accounted(report, team_rows(emu), 60)
        assert report.unknown == 50
        assert report.created == 10
        assert len(emu.log.select(route=IMPORT)) == 2


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(fault_schedules(routes=[IMPORT, "drivers.list"], max_rows=120, max_nth=8, max_faults=5))
async def test_every_driver_is_in_the_team_once_or_reported(
    schedule: tuple[int, int, list[tuple[str, str, int]]],
) -> None:
    rows, seed, faults = schedule
    rng = random.Random(seed)
    drivers = [driver_row(p, keyed=rng.random() < 0.8, rejected=rng.random() < 0.05) for p in range(rows)]
    # Faster than the other tests: driver import allows 2 requests per (sped-up) minute.
    async with running(seed=seed, speedup=3000.0) as (emu, client):
        for kind, route, nth in faults:
            if kind == "client_error":
                emu.faults.add(Fault("error", route=route, nth=nth, status=400))
            elif kind == "rate_limit":
                emu.faults.add(Fault(kind, route=route, nth=nth, retry_after=0.001))
            else:
                emu.faults.add(Fault(kind, route=route, nth=nth))
        report = await client.drivers.import_many(
            iter(drivers), settle_delay=0, max_failed_batches=None, batch_size=rng.choice([10, 25, 50])
        )
        assert_accounted(report, team_rows(emu), rows)
    # Rows with a key are never left unknown when their lookups work.
    lookups_failed = any(route == "drivers.list" and kind == "client_error" for kind, route, _ in faults)
    if not lookups_failed:
        for position, driver in report.uncertain():
            assert not driver.email, position


@pytest.mark.parametrize(
    ("name", "model"),
    [
        ("driver.json", rp.Driver),
        ("route.json", rp.Route),
        ("driver_import_result.json", rp.DriverImportResult),
        ("live_import_result.json", rp.LiveImportResult),
        ("operation_canceled.json", rp.Operation),
    ],
)
async def test_the_new_answers_round_trip(name: str, model: type[Any]) -> None:
    data = load(name)
    value = structure(data, model)
    assert isinstance(value, model)
    again = unstructure(value)
    assert structure(again, model) == value
    if model is not rp.Operation:  # an absent result comes back as null
        assert again == data


async def test_errors_of_a_driver_stream_name_drivers_not_stops() -> None:
    async def source() -> AsyncIterator[rp.DriverInput]:
        yield driver_row(0)
        yield driver_row(1)
        yield driver_row(0)  # the same e-mail again

    async with running() as (_, client):
        with pytest.raises(rp.ValidationError) as repeated:
            await client.drivers.import_many(source())
        assert repeated.value.field == "drivers[2].email"
        assert "drivers[0]" in repeated.value.rule


async def test_an_email_repeated_in_another_case_is_the_same_key() -> None:
    rows = [driver_row(0), rp.DriverInput(name="row-1", email="ROW0@Example.com")]
    async with running() as (emu, client):
        with pytest.raises(rp.ValidationError) as repeated:
            await client.drivers.import_many(rows)
        assert repeated.value.field == "drivers[1].email"
        assert "drivers[0]" in repeated.value.rule
        assert emu.log.select(route=IMPORT) == []
        # Already in the team under another case: skipped, not imported twice.
        await client.drivers.import_many([driver_row(0)])
        report = await client.drivers.import_many(rows[1:], skip_existing=True)
        assert report.skipped == 1
        assert team_rows(emu).keys() == {0}
        assert len(team_rows(emu)[0]) == 1


def _unsendable_row(position: int) -> rp.DriverInput:
    """Row ``position`` with a depot UTF-8 cannot carry, put in its list after the row was built."""
    driver = rp.DriverInput(name=f"row-{position}", email=f"row{position}@example.com", depots=["depots/d"])
    assert isinstance(driver.depots, list)
    driver.depots.append("depots/\udcff")
    return driver


def _as(kind: str, rows: list[rp.DriverInput]) -> Any:
    """``rows`` as a list, an iterator or an async iterator."""

    async def source() -> AsyncIterator[rp.DriverInput]:
        for row in rows:
            yield row

    return {"list": rows, "iterator": iter(rows), "async iterator": source()}[kind]


@pytest.mark.parametrize("kind", ["list", "iterator", "async iterator"])
async def test_a_bad_row_is_named_by_its_position_and_field_whatever_the_input(kind: str) -> None:
    rows = [driver_row(0), driver_row(1), driver_row(2), _unsendable_row(3)]
    async with running() as (emu, client):
        with pytest.raises(rp.ValidationError) as bad:
            await client.drivers.import_many(_as(kind, rows), batch_size=2)
        assert bad.value.field == "drivers[3].depots[1]"
        assert "cannot be encoded as UTF-8" in bad.value.rule
        assert 3 not in team_rows(emu)  # the bad row was never sent


@pytest.mark.parametrize("kind", ["list", "iterator", "async iterator"])
async def test_emails_that_differ_only_in_case_are_one_key(kind: str) -> None:
    rows = [driver_row(0), rp.DriverInput(name="zoe", email="zoe@example.com"), driver_row(2)]
    rows.append(rp.DriverInput(name="zoe-again", email="zoe@EXAMPLE.COM"))
    async with running() as (emu, client):
        with pytest.raises(rp.ValidationError) as repeated:
            await client.drivers.import_many(_as(kind, rows), batch_size=10)
        assert repeated.value.field == "drivers[3].email"
        assert "drivers[1]" in repeated.value.rule
        assert emu.log.select(route=IMPORT) == []
