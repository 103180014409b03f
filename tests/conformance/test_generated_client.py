"""A client generated from the official v1 document runs a working day against the emulator.

openapi-python-client (a test dependency) generates a client from the v1 document
once per test session (``generated_client.py``); the emulator serves v1 over a real
socket; and the generated async functions, called with the generated defaults, take
depots, drivers, a plan, a stop import, its optimization and operations, the
distribution, routes, route stops and a stop search through it. Every answer must be
a 2xx that decodes into the generated model of its status, with no key the document
does not name.
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
    async with Emulator(speedup=1000, rate_limits=rp.RateLimits.unlimited()) as emu:
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
