"""The v1 import targets beyond ``test_import_exactly_once.py``: the live stop target under
random faults (on a writable plan, where the stops are added at once, and on an optimized one,
where they join the editing session that ``live_import_many`` applies), rows the service refuses
inside a successful answer for every target, and what each natural key means (a depot's name,
a member's e-mail without case).

The harness (emulator, v1 client, rows, fault schedules, the stored rows by position) is that
file's; every test ends with the accounting of ``support/import_checks.py``.
"""

from __future__ import annotations

import asyncio
import datetime
import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from support.import_checks import assert_accounted

from route_planning_async import RoutePlanningError, ValidationError
from route_planning_async._import import ImportReport
from route_planning_async.emulator import Emulator
from route_planning_async.v1 import AddressInput, PlanInput, RoutePlanningClient
from tests.v1.test_import_exactly_once import (
    TARGETS,
    _arm,
    depot_row,
    import_depots,
    import_members,
    member_row,
    plan_stops,
    running,
    schedules,
    stop_row,
    team_depots,
)

_UNGEOCODABLE = AddressInput(address_line_one="1 UNGEOCODABLE Road", city="Nowhere")
"""An address the emulator cannot place: the service refuses its row inside a successful answer."""


_BEFORE = 10_000
"""The positions of the stops an optimized plan is made with, after every input row's."""


async def _plan(client: RoutePlanningClient, *, optimized: bool) -> str:
    plan = await client.plans.create(
        PlanInput(title="Live", starts=datetime.date(2026, 3, 2), drivers=["driver-ana", "driver-ben"])
    )
    if optimized:
        await client.stops.import_batch(plan.id, [stop_row(_BEFORE + p, True) for p in range(4)])
        await client.plans.optimize_and_wait(plan.id)
    return plan.id


# 1. The live stop target, exactly once --------------------------------------------------------


@pytest.mark.parametrize("optimized", [False, True], ids=["writable plan", "optimized plan"])
def test_every_live_row_is_on_the_plan_once_or_reported(optimized: bool) -> None:
    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(schedules("stops.live_import_batch", "stops.list"))
    def check(schedule: tuple[int, int, list[tuple[str, str, int]]]) -> None:
        rows, seed, faults = schedule
        rng = random.Random(seed)
        inputs = [stop_row(p, rng.random() < 0.8) for p in range(rows)]

        async def main() -> tuple[ImportReport[Any], dict[int, list[str]]]:
            async with running(seed) as (emu, client):
                plan_id = await _plan(client, optimized=optimized)
                _arm(emu, faults)
                live = await client.stops.live_import_many(
                    plan_id,
                    iter(inputs),
                    settle_delay=0,
                    max_failed_batches=None,
                    batch_size=rng.choice([10, 50]),
                )
                # The stops the optimized plan was made with are not the import's.
                return live.report, {p: ids for p, ids in plan_stops(emu, plan_id).items() if p < _BEFORE}

        report, on_plan = asyncio.run(main())
        assert_accounted(report, on_plan, rows)

    check()


# 2. A row the service refuses costs only itself, for every target ----------------------------


def _refused(target: str, row: Any) -> Any:
    """``row`` made one the emulator refuses inside a successful answer."""
    if target in ("stops", "unassigned_stops"):
        return attrs.evolve(row, address=_UNGEOCODABLE)
    if target == "depots":
        return attrs.evolve(
            row, route_overrides=attrs.evolve(row.route_overrides, start_address=_UNGEOCODABLE)
        )
    return attrs.evolve(row, depots=["depots/nowhere"])  # drivers, members


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_refused_row_is_rejected_and_the_others_are_created(target: str) -> None:
    make_row, run, stored, *_ = TARGETS[target]
    bad = {3, 17, 18}
    rows = [_refused(target, make_row(p, True)) if p in bad else make_row(p, True) for p in range(40)]

    async def main() -> tuple[ImportReport[Any], dict[int, list[str]]]:
        async with running(5) as (emu, client):
            plan_id = (await _plan(client, optimized=False)) if target == "stops" else ""
            report = await run(client, plan_id, rows, 10)
            return report, stored(emu, plan_id)

    report, on_service = asyncio.run(main())
    assert_accounted(report, on_service, 40)
    assert {rejected.position for rejected in report.rejected} == bad
    assert report.created == 37


# 3. What the keys mean ---------------------------------------------------------------------


def test_skip_existing_finds_the_depots_of_the_same_name() -> None:
    async def main() -> tuple[ImportReport[Any], ImportReport[Any], dict[int, list[str]]]:
        async with running(3) as (emu, client):
            first = await import_depots(client, "", [depot_row(p, True) for p in range(12)], 10)
            again = await client.depots.import_many(
                [depot_row(p, True) for p in range(25)], skip_existing=True
            )
            return first, again, team_depots(emu, "")

    first, again, on_service = asyncio.run(main())
    assert again.skipped == 12
    assert again.created == 13
    assert again.id_of(3) == first.id_of(3)
    assert_accounted(again, on_service, 25)


def test_two_depots_of_one_name_are_refused_before_anything_is_sent() -> None:
    rows = [depot_row(p, True) for p in range(5)]
    rows[4] = attrs.evolve(rows[4], name="row-1")

    async def main() -> tuple[ValidationError, Emulator]:
        async with running(4) as (emu, client):
            with pytest.raises(ValidationError) as caught:
                await client.depots.import_many(rows)
            return caught.value, emu

    error, emu = asyncio.run(main())
    assert error.field == "depots[4].name"
    assert "depots[1]" in error.rule
    assert len(emu.log) == 0


def test_member_emails_that_differ_only_in_case_are_one_key() -> None:
    rows = [member_row(0, True), attrs.evolve(member_row(1, True), email="MEMBER0@Example.com")]

    async def main() -> tuple[ValidationError, Emulator]:
        async with running(6) as (emu, client):
            with pytest.raises(ValidationError) as caught:
                await client.members.import_many(rows)
            return caught.value, emu

    error, emu = asyncio.run(main())
    assert error.field == "members[1].email"
    assert len(emu.log) == 0


def test_members_cannot_skip_existing_since_v1_cannot_list_them() -> None:
    async def main() -> None:
        async with running(9) as (_, client):
            await import_members(client, "", [member_row(0, True)], 10)
            with pytest.raises(RoutePlanningError, match="skip_existing cannot be used for members"):
                await client.members.import_many([member_row(0, True)], skip_existing=True)

    asyncio.run(main())
