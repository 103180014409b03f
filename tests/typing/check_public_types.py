"""What the type checker accepts and refuses of the public API (``nox -s lint`` runs mypy --strict here).

Every ``assert_type`` is a claim about an inferred type, and every
``# type: ignore[code]`` a claim that mypy refuses the line with that code:
under ``--strict`` (``warn_unused_ignores``) an ignore that is not needed is an
error, so a call that became accepted by mistake fails the check. The
functions are never run.
"""

from __future__ import annotations

from typing import assert_type

import route_planning_async as rp
from route_planning_async import v0_2b, v1


async def get_is_typed_by_the_id_kind(client: rp.RoutePlanningClient, plan: rp.Plan, stop: rp.Stop) -> None:
    assert_type(await client.get(plan.id), rp.Plan)
    assert_type(await client.get(stop.id), rp.Stop)
    operation = await client.plans.optimize(plan.id)
    assert_type(await client.get(operation.id), rp.Operation)
    depot = await client.depots.get("depots/main")
    assert_type(await client.get(depot.id), rp.Depot)
    driver = await client.drivers.get("drivers/driver-ana")
    assert_type(await client.get(driver.id), rp.Driver)
    unassigned = await client.unassigned_stops.get("unassignedStops/u1")
    assert_type(await client.get(unassigned.id), rp.UnassignedStop)
    route = await client.routes.get("routes/r1")
    assert_type(await client.get(route.id), rp.Route)
    # A plain string: the union of the models, to narrow.
    anything = await client.get("plans/p1")
    assert_type(anything, rp.AnyResource)
    if isinstance(anything, rp.Plan):
        assert_type(anything.title, str)
    # An id is still a str wherever a str is taken.
    title: str = plan.id
    del title


async def updates_take_their_fields_as_typed_keywords(client: rp.RoutePlanningClient, stop: rp.Stop) -> None:
    await client.stops.update(stop.id, notes="Ring twice", package_count=2)
    await client.stops.update(stop.id, bogus_field=1)  # type: ignore[call-arg]
    await client.stops.update(stop.id, notes=3)  # type: ignore[arg-type]
    await client.stops.update(stop.id, rp.StopUpdate(notes="Ring twice"))
    await client.unassigned_stops.update("unassignedStops/u1", depot="depots/main", notes=None)
    await client.unassigned_stops.update("unassignedStops/u1", driver="drivers/d1")  # type: ignore[call-arg]
    await client.drivers.update("drivers/d1", display_name="Ana B.")
    await client.drivers.update("drivers/d1", active=False)  # type: ignore[call-arg]
    await client.plans.update("plans/p1", title="Tuesday")
    await client.plans.update("plans/p1", name="Tuesday")  # type: ignore[call-arg]
    async with client.plans.live_edit("plans/p1") as edit:
        await edit.update(stop.id, notes="Back door")
        await edit.update(stop.id, notez="Back door")  # type: ignore[call-arg]


async def options_are_typed(client: rp.RoutePlanningClient, plan: rp.Plan) -> None:
    slow = client.with_options(timeout=300)
    assert_type(slow, rp.RoutePlanningClient)
    client.with_options(timeout="300")  # type: ignore[arg-type]
    client.with_options(retries=3)  # type: ignore[call-arg]
    await client.plans.optimize_and_wait(plan.id, timeout=600, cancel_on_timeout=True)
    await client.plans.optimize_and_wait(plan.id, timout=600)  # type: ignore[call-arg]
    report = await client.stops.import_many(plan.id, [], skip_existing=True, deadline=120)
    assert_type(report.created, int)
    await client.stops.import_many(plan.id, [], skip_exisiting=True)  # type: ignore[call-arg]


def a_client_without_a_key_reads_the_environment() -> rp.RoutePlanningClient:
    return rp.RoutePlanningClient()


async def the_report_names_rows_and_each_version_package_its_client(
    client: rp.RoutePlanningClient, stops: list[rp.StopInput]
) -> None:
    report = await client.stops.import_many("plans/p1", stops)
    assert_type(report.rejected, list[rp.RejectedRow[rp.StopInput]])
    assert_type(report.rejected[0].input, rp.StopInput)
    assert_type(report.id_of(0), str | None)
    assert_type(report.duplicates, list[rp.DuplicateRow])
    len(report.rejected) + 1
    report.rejected + 1  # type: ignore[operator]
    assert_type(v0_2b.RoutePlanningClient, type[rp.RoutePlanningClient])
    assert_type(v0_2b.StopInput, type[rp.StopInput])
    assert_type(v1.LiveEdit, type[v1.LiveEdit])
