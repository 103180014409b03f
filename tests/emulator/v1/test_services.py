"""v1's service offerings: ``serviceInfo`` checked against the team's offerings, with the document's codes."""

from __future__ import annotations

import pytest

from route_planning_async.emulator import DepotConfig, ServiceOfferingConfig, TeamConfig

from .conftest import V1Api

STARTS = {"day": 2, "month": 3, "year": 2026}
LONDON = {"addressLineOne": "1 High Street", "city": "London"}
NEXTDAY = {"identifier": "NEXTDAY"}

NORTH_ONLY = TeamConfig(
    depots=(
        DepotConfig("main", "Main depot", 51.5074, -0.1278),
        DepotConfig("north", "North depot", 51.5560, -0.1180),
    ),
    service_offerings=(ServiceOfferingConfig("NORTH", "North only", depots=("north",)),),
)


async def _plan(api: V1Api, **fields: object) -> str:
    plan = await api.ok("POST", "/plans", {"title": "Services", "starts": STARTS, **fields})
    return str(plan["id"])


@pytest.mark.asyncio
async def test_a_stop_takes_an_offering_and_serves_it_in_full(api: V1Api) -> None:
    plan_id = await _plan(api)
    stop = await api.ok("POST", f"/{plan_id}/stops", {"address": LONDON, "serviceInfo": NEXTDAY})
    service = stop["serviceInfo"]
    assert service["status"] == "available"
    value = service["value"]
    assert (value["identifier"], value["name"]) == ("NEXTDAY", "Next day delivery")
    assert value["deliveryHorizon"] == {"unit": "days", "value": 1}
    assert value["slaStartsAt"] > 0
    again = await api.ok("PATCH", f"/{stop['id']}", {"serviceInfo": {"slaStartsAt": 1772409600}})
    assert again["serviceInfo"]["value"]["slaDueDate"] == {"day": 3, "month": 3, "year": 2026}
    cleared = await api.ok("PATCH", f"/{stop['id']}", {"serviceInfo": None})
    assert cleared["serviceInfo"] == {"status": "empty"}


@pytest.mark.asyncio
async def test_an_unknown_offering_is_404_service_offering_not_found(api: V1Api) -> None:
    plan_id = await _plan(api)
    created = await api.checked(
        "POST", f"/{plan_id}/stops", {"address": LONDON, "serviceInfo": {"identifier": "NOPE"}}
    )
    assert (created.status, created.body["code"]) == (404, "service_offering_not_found")
    stop = await api.ok("POST", f"/{plan_id}/stops", {"address": LONDON})
    updated = await api.checked("PATCH", f"/{stop['id']}", {"serviceInfo": {"identifier": "NOPE"}})
    assert (updated.status, updated.body["code"], updated.body["param"]) == (
        404,
        "service_offering_not_found",
        "serviceInfo.identifier",
    )


@pytest.mark.asyncio
async def test_the_offering_must_serve_the_activity_and_the_area(api: V1Api) -> None:
    plan_id = await _plan(api)
    pickup = await api.checked(
        "POST", f"/{plan_id}/stops", {"address": LONDON, "activity": "pickup", "serviceInfo": NEXTDAY}
    )
    assert (pickup.status, pickup.body["code"]) == (400, "service_activity_not_supported")
    far = await api.checked(
        "POST",
        f"/{plan_id}/stops",
        {"address": {"addressLineOne": "1 Rue de Rivoli", "city": "Paris"}, "serviceInfo": NEXTDAY},
    )
    assert (far.status, far.body["code"]) == (400, "operating_area_violation")
    stop = await api.ok("POST", f"/{plan_id}/stops", {"address": LONDON, "serviceInfo": NEXTDAY})
    to_pickup = await api.checked("PATCH", f"/{stop['id']}", {"activity": "pickup"})
    assert (to_pickup.status, to_pickup.body["code"]) == (400, "service_activity_not_supported")
    unclear = await api.checked("PATCH", f"/{stop['id']}", {"serviceInfo": {"slaStartsAt": None}})
    assert (unclear.status, unclear.body["code"]) == (400, "sla_start_not_clearable")


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(team=NORTH_ONLY)
async def test_the_offering_must_be_offered_at_the_plans_depot(api: V1Api) -> None:
    main = await _plan(api)
    refused = await api.checked(
        "POST", f"/{main}/stops", {"address": LONDON, "serviceInfo": {"identifier": "NORTH"}}
    )
    assert (refused.status, refused.body["code"]) == (400, "service_not_available_at_depot")
    north = await _plan(api, depot="depots/north")
    await api.ok("POST", f"/{north}/stops", {"address": LONDON, "serviceInfo": {"identifier": "NORTH"}})
