"""A client generated from the official v1 document runs a working day against the emulator.

openapi-python-client (a test dependency) generates a client from the v1 document
once per test session (``generated_client.py``); the emulator serves v1 over a real
socket; and the generated async functions, called with the generated defaults, take
depots, drivers, a plan, a stop import, its optimization and operations, the
distribution, routes, route stops and a stop search through it; a second test makes
every other call of the document. Every answer must be a 2xx that decodes into the
generated model of its status and encodes back to the same JSON, with no key the
document does not name.

The list calls send the generated default page size, a float (``20.0``: the document
types ``maxPageSize`` ``number``), which the emulator takes as the whole number it is.
The calls the document leaves without ``requestBody.required`` are sent a body: without
one the emulator answers 400 "a JSON body is required".
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

import pytest
import pytest_asyncio

import route_planning_async as rp
from route_planning_async.emulator import Emulator

from .generated_client import Calls, bare_id, generate
from .versions import V1


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The generated package, made once per session (per worker under xdist)."""
    return generate(V1.schema, tmp_path_factory.mktemp("generated"))


@pytest_asyncio.fixture
async def calls(generated: ModuleType) -> AsyncIterator[Calls]:
    """The generated client, at the emulator's v1 base URL, as a user would make it."""
    # Plans of up to 20 stops are optimized at once; a larger one takes 100 hours (6 minutes
    # sped up), so that its optimization is still running when it is canceled, however
    # busy the machine.
    slow_above_20: dict[str, Any] = {"instant_optimization_max_stops": 20, "optimization_delay": 360_000.0}
    async with Emulator(speedup=1000, rate_limits=rp.RateLimits.unlimited(), **slow_above_20) as emu:
        # The document's scheme is HTTP Basic with the key as the user name.
        token = base64.b64encode(f"{emu.api_key}:".encode()).decode()
        client = generated.AuthenticatedClient(
            base_url=emu.base_url_for("v1"),
            token=token,
            prefix="Basic",
            verify_ssl=emu.ssl_context,
            raise_on_unexpected_status=True,
        )
        async with client:
            yield Calls(generated, client)
        assert emu.internal_errors == []


def _stop(i: int) -> dict[str, Any]:
    return {
        "address": {"addressLineOne": f"{i} Generated Road", "city": "London"},
        "recipient": {"externalId": f"ext-{i}", "name": f"Customer {i}"},
        "timing": {"estimatedAttemptDuration": 60},
    }


@pytest.mark.asyncio
async def test_a_generated_client_runs_a_working_day(calls: Calls) -> None:
    models = calls.package.models
    depots = await calls("depots.list_depots")
    depot = await calls("depots.get_depot", bare_id(depots.depots[0].id))
    yard = await calls(
        "depots.create_depot",
        body=models.CreateDepotBody.from_dict(
            {
                "name": "Yard",
                "routeOverrides": {
                    "startAddress": {"addressLineOne": "9 Yard Street", "city": "London"},
                    "startTime": {"hour": 8, "minute": 0},
                },
            }
        ),
    )
    assert yard.name == "Yard"

    drivers = await calls("drivers.list_drivers")
    driver = await calls(
        "drivers.create_driver",
        body=models.CreateDriverBody.from_dict(
            {"name": "Zoe", "email": "zoe@example.com", "depots": [depot.id]}
        ),
    )
    await calls("drivers.get_driver", bare_id(driver.id))

    plan = await calls(
        "plans.create_plan",
        body=models.CreatePlanBody.from_dict(
            {
                "title": "Generated day",
                "starts": {"day": 6, "month": 7, "year": 2026},
                "drivers": [d.id for d in drivers.drivers[:2]],
            }
        ),
    )
    imported = await calls(
        "stops.import_stops",
        bare_id(plan.id),
        body=[models.ImportStopsBodyItem.from_dict(_stop(i)) for i in range(8)],
    )
    assert len(imported.success) == 8
    await calls("plans.list_plan_stops", bare_id(plan.id))

    operation = await calls("plans.optimize_plan", bare_id(plan.id))
    done = await calls("operations.get_operation", bare_id(operation.id))
    assert done.done
    await calls("operations.list_operations")

    distributed = await calls("plans.distribute_plan", bare_id(plan.id))
    assert distributed.distributed
    await calls("plans.get_plan", bare_id(plan.id))
    await calls("plans.list_plans")

    routes = await calls("routes.list_routes")
    route = await calls("routes.get_route", bare_id(routes.routes[0].id))
    stops = await calls("routes.list_route_stops", bare_id(route.id))
    assert stops.stops

    found = await calls("stops.search_stops", keyword="Generated")
    assert found.stops


def _depot(name: str) -> dict[str, Any]:
    start = {"addressLineOne": "9 Yard Street", "city": "London"}
    return {"name": name, "routeOverrides": {"startAddress": start, "startTime": {"hour": 8, "minute": 0}}}


@pytest.mark.asyncio
async def test_a_generated_client_makes_the_other_calls(calls: Calls) -> None:
    # Every other operation of the document, each with a body where it takes one.
    models = calls.package.models
    properties = await calls("team.list_custom_stop_properties")
    await calls("team.get_custom_stop_property", properties.custom_stop_properties[0].id)
    depots = await calls("depots.list_depots")
    yard = await calls("depots.create_depot", body=models.CreateDepotBody.from_dict(_depot("Yard")))
    await calls(
        "depots.update_depot", bare_id(yard.id), body=models.UpdateDepotBody.from_dict({"name": "Yard 2"})
    )
    east = await calls("depots.import_depots", body=[models.ImportDepotsBodyItem.from_dict(_depot("East"))])
    await calls("depots.set_main_depot", bare_id(yard.id))
    await calls("depots.set_main_depot", bare_id(depots.depots[0].id))
    await calls("depots.delete_depot", bare_id(east.success[0]))

    drivers = await calls("drivers.list_drivers")
    zoe = await calls(
        "drivers.create_driver", body=models.CreateDriverBody.from_dict({"email": "zoe@example.com"})
    )
    await calls(
        "drivers.update_driver", bare_id(zoe.id), body=models.UpdateDriverBody.from_dict({"name": "Zoe"})
    )
    await calls(
        "drivers.import_drivers", body=[models.ImportDriversBodyItem.from_dict({"email": "bo@example.com"})]
    )
    await calls("drivers.delete_driver", bare_id(zoe.id))
    ann = await calls(
        "members.create_member",
        body=models.CreateMemberBody.from_dict({"role": "dispatcher", "email": "ann@example.com"}),
    )
    await calls(
        "members.update_member", bare_id(ann.id), body=models.UpdateMemberBody.from_dict({"role": "admin"})
    )
    await calls(
        "members.import_members",
        body=[models.ImportMembersBodyItem.from_dict({"role": "read-only", "email": "cy@example.com"})],
    )
    await calls("members.delete_member", bare_id(ann.id))

    unassigned = await calls(
        "unassigned_stops.create_unassigned_stop", body=models.CreateUnassignedStopBody.from_dict(_stop(50))
    )
    await calls("unassigned_stops.get_unassigned_stop", bare_id(unassigned.id))
    await calls(
        "unassigned_stops.update_unassigned_stop",
        bare_id(unassigned.id),
        body=models.UpdateUnassignedStopBody.from_dict({"notes": "Later"}),
    )
    await calls(
        "unassigned_stops.import_unassigned_stops",
        body=models.ImportUnassignedStopsBody.from_dict({"unassignedStops": [_stop(51)]}),
    )
    await calls("unassigned_stops.list_unassigned_stops")
    await calls("unassigned_stops.delete_unassigned_stop", bare_id(unassigned.id))

    starts = {"day": 6, "month": 7, "year": 2026}
    plan = await calls(
        "plans.create_plan",
        body=models.CreatePlanBody.from_dict(
            {"title": "Day", "starts": starts, "drivers": [drivers.drivers[0].id]}
        ),
    )
    plan_id = bare_id(plan.id)
    await calls("plans.update_plan", plan_id, body=models.UpdatePlanBody.from_dict({"title": "Day 2"}))
    first = await calls("stops.create_stop", plan_id, body=models.CreateStopBody.from_dict(_stop(0)))
    first_id = bare_id(first.id)
    await calls("stops.get_stop", plan_id, first_id)
    await calls(
        "stops.update_stop", plan_id, first_id, body=models.UpdateStopBody.from_dict({"notes": "Ring"})
    )
    await calls(
        "stops.import_stops", plan_id, body=[models.ImportStopsBodyItem.from_dict(_stop(i)) for i in (1, 2)]
    )
    doomed = await calls("stops.create_stop", plan_id, body=models.CreateStopBody.from_dict(_stop(3)))
    await calls("stops.delete_stop", plan_id, bare_id(doomed.id))

    await calls("plans.optimize_plan", plan_id)
    await calls("plans.distribute_plan", plan_id)
    live = models.UpdateLiveStopBody.from_dict({"notes": "Live"})
    await calls("live_stops.update_live_stop", plan_id, first_id, body=live)
    await calls("live_stops.create_live_stop", plan_id, body=models.CreateLiveStopBody.from_dict(_stop(4)))
    await calls(
        "live_stops.import_live_stops", plan_id, body=[models.ImportLiveStopsBodyItem.from_dict(_stop(5))]
    )
    stops = await calls("plans.list_plan_stops", plan_id)
    delivery = next(s for s in stops.stops if s.type_ == "stop" and s.id != first.id)
    await calls("live_stops.delete_live_stop", plan_id, bare_id(delivery.id))
    reoptimized = await calls("live_plans.reoptimize_plan", plan_id)
    await calls("operations.get_operation", bare_id(reoptimized.id))
    await calls("live_plans.redistribute_plan", plan_id)
    # A live change re-optimized and saved, without distributing it.
    await calls("live_stops.update_live_stop", plan_id, first_id, body=live)
    reoptimized = await calls("live_plans.reoptimize_plan", plan_id)
    await calls("operations.get_operation", bare_id(reoptimized.id))
    await calls("live_plans.save_plan", plan_id)

    body = {"title": "Spare", "starts": starts, "drivers": [drivers.drivers[0].id]}
    spare = await calls("plans.create_plan", body=models.CreatePlanBody.from_dict(body))
    many = [models.ImportStopsBodyItem.from_dict(_stop(i)) for i in range(100, 125)]
    await calls("stops.import_stops", bare_id(spare.id), body=many)
    running = await calls("plans.optimize_plan", bare_id(spare.id))
    canceled = await calls("operations.cancel_operation", bare_id(running.id))
    assert canceled.metadata.canceled
    await calls("plans.delete_plan", bare_id(spare.id))
    assert len(calls.answered) > 45
