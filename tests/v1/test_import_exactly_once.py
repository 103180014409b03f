"""Exactly once, for every v1 import target: under random fault schedules against the
emulator's v1, every input row is on the service once when the report says created,
absent when it says rejected or not created, and at most once when unknown
(``support.import_checks.assert_accounted``)."""

from __future__ import annotations

import asyncio
import datetime
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fault_schedules import Schedule, fault_schedules
from support.import_checks import assert_accounted

from route_planning_async import RetryPolicy
from route_planning_async._import import ImportReport, Outcome
from route_planning_async.emulator import Emulator, Fault
from route_planning_async.v1 import (
    AddressInput,
    DepotInput,
    DepotRouteOverridesInput,
    DriverInput,
    MemberInput,
    PlanInput,
    RecipientInput,
    RoutePlanningClient,
    StopInput,
    UnassignedStopInput,
)

_KINDS = ("error", "drop", "error_after_commit", "drop_after_commit", "rate_limit", "client_error")


@asynccontextmanager
async def running(seed: int) -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    """The emulator (fast) and a v1 client with its limits, retrying quickly.

    No fault here waits for the client to give up (a drop closes the connection at once),
    so the timeout is one a loaded machine never reaches. A short one is real time: a stall
    of a loaded machine's event loop times out every batch in flight at once, and five in a
    row halt the import (the breaker), its rows past ``report.total`` never read."""
    retry = RetryPolicy(attempts=12, base=0.001, cap=0.01, rng=random.Random(seed))
    async with Emulator(speedup=3000.0, seed=seed) as emu:
        async with RoutePlanningClient(
            emu.api_key,
            base_url=emu.base_url_for("v1"),
            ssl=emu.ssl_context,
            rate_limits=emu.config.server_limits,
            retry=retry,
            timeout=30.0,
        ) as client:
            yield emu, client
        assert emu.internal_errors == []


def _address(position: int) -> AddressInput:
    return AddressInput(address_line_one=f"{position} Import Road", latitude=51.5, longitude=-0.1)


def _position(name: object) -> int | None:
    return int(name[4:]) if isinstance(name, str) and name.startswith("row-") else None


# The targets: how a row is made, imported, and found on the service --------------------


Rows = Callable[[Emulator, str], dict[int, list[str]]]
Import = Callable[[RoutePlanningClient, str, list[Any], int], Awaitable[ImportReport[Any]]]


def stop_row(position: int, keyed: bool) -> StopInput:
    recipient = RecipientInput(external_id=f"ext-{position}") if keyed else None
    return StopInput(address=_address(position), recipient=recipient, notes=f"row-{position}")


def unassigned_row(position: int, keyed: bool) -> UnassignedStopInput:
    recipient = RecipientInput(external_id=f"uext-{position}") if keyed else None
    return UnassignedStopInput(address=_address(position), recipient=recipient, notes=f"row-{position}")


def driver_row(position: int, keyed: bool) -> DriverInput:
    return DriverInput(name=f"row-{position}", email=f"row{position}@example.com" if keyed else None)


def depot_row(position: int, keyed: bool) -> DepotInput:
    overrides = DepotRouteOverridesInput(start_address=_address(position), start_time=datetime.time(8))
    return DepotInput(name=f"row-{position}", route_overrides=overrides)


def member_row(position: int, keyed: bool) -> MemberInput:
    email = f"member{position}@example.com" if keyed else None
    return MemberInput(name=f"row-{position}", email=email, role="read-only")


def plan_stops(emu: Emulator, plan_id: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for record in emu.state.stops_of(plan_id.removeprefix("plans/")):
        if (position := _position(record.body.get("notes"))) is not None:
            found.setdefault(position, []).append(record.body["id"])
    return found


def unassigned_stops(emu: Emulator, _: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for record in emu.state.unassigned_stops.values():
        if (position := _position(record.body.get("notes"))) is not None:
            found.setdefault(position, []).append(record.body["id"])
    return found


def team_drivers(emu: Emulator, _: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for driver_id, driver in emu.state._drivers.items():
        if emu.state.driver(driver_id) is not None and (position := _position(driver.name)) is not None:
            found.setdefault(position, []).append(f"drivers/{driver_id}")
    return found


def team_depots(emu: Emulator, _: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for depot in emu.state.depots():
        if (position := _position(depot.name)) is not None:
            found.setdefault(position, []).append(f"depots/{depot.id}")
    return found


def team_members(emu: Emulator, _: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for member in emu.state.members.values():
        if (position := _position(member.name)) is not None:
            found.setdefault(position, []).append(f"members/{member.id}")
    return found


async def import_stops(client: RoutePlanningClient, plan_id: str, rows: list[Any], size: int) -> Any:
    return await client.stops.import_many(
        plan_id, iter(rows), settle_delay=0, max_failed_batches=None, batch_size=size
    )


async def import_unassigned(client: RoutePlanningClient, _: str, rows: list[Any], size: int) -> Any:
    return await client.unassigned_stops.import_many(
        iter(rows), settle_delay=0, max_failed_batches=None, batch_size=size
    )


async def import_drivers(client: RoutePlanningClient, _: str, rows: list[Any], size: int) -> Any:
    return await client.drivers.import_many(
        iter(rows), settle_delay=0, max_failed_batches=None, batch_size=size
    )


async def import_depots(client: RoutePlanningClient, _: str, rows: list[Any], size: int) -> Any:
    return await client.depots.import_many(
        iter(rows), settle_delay=0, max_failed_batches=None, batch_size=size
    )


async def import_members(client: RoutePlanningClient, _: str, rows: list[Any], size: int) -> Any:
    return await client.members.import_many(
        iter(rows), settle_delay=0, max_failed_batches=None, batch_size=size
    )


TARGETS = {
    "stops": (stop_row, import_stops, plan_stops, "stops.import_batch", "stops.list", (10, 50, 100)),
    "unassigned_stops": (
        unassigned_row,
        import_unassigned,
        unassigned_stops,
        "unassigned_stops.import_batch",
        "unassigned_stops.list",
        (10, 50, 100),
    ),
    "drivers": (
        driver_row,
        import_drivers,
        team_drivers,
        "drivers.import_batch",
        "drivers.list",
        (10, 25, 50),
    ),
    "depots": (depot_row, import_depots, team_depots, "depots.import_batch", "depots.list", (10, 50, 100)),
    "members": (member_row, import_members, team_members, "members.import_batch", None, (10, 25, 50)),
}


def schedules(batch_route: str, lookup_route: str | None) -> st.SearchStrategy[Schedule]:
    routes = [batch_route, batch_route] + ([lookup_route] if lookup_route else [])
    return fault_schedules(kinds=_KINDS, routes=routes, max_rows=120, max_nth=6, max_faults=4)


def _arm(emu: Emulator, faults: list[tuple[str, str, int]]) -> None:
    for kind, route, nth in faults:
        if kind == "client_error":
            emu.faults.add(Fault("error", route=route, nth=nth, status=400))
        elif kind == "rate_limit":
            emu.faults.add(Fault(kind, route=route, nth=nth, retry_after=0.001))
        else:
            emu.faults.add(Fault(kind, route=route, nth=nth))


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_every_row_is_on_the_service_once_or_reported(target: str) -> None:
    make_row, run, stored, batch_route, lookup_route, sizes = TARGETS[target]

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(schedules(batch_route, lookup_route))
    def check(schedule: tuple[int, int, list[tuple[str, str, int]]]) -> None:
        rows, seed, faults = schedule
        rng = random.Random(seed)
        inputs = [make_row(p, rng.random() < 0.8) for p in range(rows)]

        async def main() -> tuple[ImportReport[Any], dict[int, list[str]]]:
            async with running(seed) as (emu, client):
                plan_id = ""
                if target == "stops":
                    plan = await client.plans.create(
                        PlanInput(title="Import", starts=datetime.date(2026, 3, 2))
                    )
                    plan_id = plan.id
                _arm(emu, faults)
                report = await run(client, plan_id, inputs, rng.choice(sizes))
                return report, stored(emu, plan_id)

        report, on_service = asyncio.run(main())
        assert_accounted(report, on_service, rows)
        lookups_failed = any(route == lookup_route and kind == "client_error" for kind, route, _ in faults)
        if lookup_route is not None and not lookups_failed and report.stopped is None:
            # A keyed row is never left unknown while the lookups work.
            for position, row in report.uncertain():
                assert report.outcome(position) is Outcome.UNKNOWN
                assert row != make_row(position, True), position

    check()


def test_a_depot_batch_whose_answer_was_lost_is_found_by_name_and_not_sent_again() -> None:
    async def main() -> tuple[ImportReport[Any], dict[int, list[str]], int]:
        async with running(7) as (emu, client):
            emu.faults.add(Fault("error_after_commit", route="depots.import_batch", nth=1))
            report = await import_depots(client, "", [depot_row(p, True) for p in range(12)], 5)
            sent = sum(1 for record in emu.log if record.route == "depots.import_batch")
            return report, team_depots(emu, ""), sent

    report, on_service, sent = asyncio.run(main())
    assert report.created == 12
    assert report.unknown == 0
    assert all(len(ids) == 1 for ids in on_service.values())
    assert sent == 3  # the lost batch was reconciled by the depot list, not resent
    assert_accounted(report, on_service, 12)


def test_a_member_batch_whose_answer_was_lost_is_unknown_since_v1_cannot_list_members() -> None:
    async def main() -> tuple[ImportReport[Any], dict[int, list[str]]]:
        async with running(8) as (emu, client):
            emu.faults.add(Fault("error_after_commit", route="members.import_batch", nth=1))
            report = await import_members(client, "", [member_row(p, True) for p in range(8)], 5)
            return report, team_members(emu, "")

    report, on_service = asyncio.run(main())
    assert report.unknown == 5
    assert report.created == 3
    assert sorted(on_service) == list(range(8))  # each stored once, the lost batch not resent
    assert_accounted(report, on_service, 8)
