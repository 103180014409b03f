"""v1's depot rule: a plan's drivers, and the drivers its stops name, work at the plan's depot."""

from __future__ import annotations

import pytest

from .conftest import V1Api

STARTS = {"day": 2, "month": 3, "year": 2026}
ADDRESS = {"addressLineOne": "1 High Street", "city": "London"}


async def _north_driver(api: V1Api) -> str:
    driver = await api.ok(
        "POST", "/drivers", {"name": "Nia", "email": "nia@example.com", "depots": ["depots/north"]}
    )
    return str(driver["id"])


@pytest.mark.asyncio
async def test_a_plan_update_naming_a_driver_of_another_depot_is_refused_with_412(api: V1Api) -> None:
    north = await _north_driver(api)
    plan = await api.ok("POST", "/plans", {"title": "Main run", "starts": STARTS})
    refused = await api.checked("PATCH", f"/{plan['id']}", {"drivers": ["drivers/driver-ana", north]})
    assert refused.status == 412
    assert refused.body == {"message": "Driver does not share depot with plan", "param": "drivers[1]"}
    moved = await api.checked("PATCH", f"/{plan['id']}", {"depot": "depots/north"})
    assert moved.status == 200
    assert (await api.ok("PATCH", f"/{plan['id']}", {"drivers": [north]}))["drivers"] == [north]
    # Back to the main depot with a north driver on it: refused too.
    back = await api.checked("PATCH", f"/{plan['id']}", {"depot": "depots/main"})
    assert back.status == 412
    assert "code" not in back.body


@pytest.mark.asyncio
async def test_a_stop_naming_a_driver_of_another_depot_is_refused_with_412(api: V1Api) -> None:
    north = await _north_driver(api)
    plan = await api.ok("POST", "/plans", {"title": "Main run", "starts": STARTS})
    created = await api.checked(
        "POST", f"/{plan['id']}/stops", {"address": ADDRESS, "allowedDrivers": [north]}
    )
    assert created.status == 412
    assert created.body == {"message": "Driver is not linked to plan", "param": "allowedDrivers[0]"}
    batch = [{"address": ADDRESS}, {"address": ADDRESS, "allowedDrivers": ["drivers/driver-ana", north]}]
    imported = await api.checked("POST", f"/{plan['id']}/stops:import", batch)
    assert imported.status == 412
    assert imported.body["param"] == "[1].allowedDrivers[1]"
    assert (await api.ok("GET", f"/{plan['id']}/stops"))["stops"] == []
    fine = await api.ok(
        "POST", f"/{plan['id']}/stops", {"address": ADDRESS, "allowedDrivers": ["drivers/driver-ana"]}
    )
    updated = await api.checked("PATCH", f"/{fine['id']}", {"allowedDrivers": [north]})
    assert updated.status == 412


@pytest.mark.asyncio
async def test_v0_2b_keeps_allowing_drivers_of_other_depots(api: V1Api) -> None:
    north = await _north_driver(api)
    plan = await api.v0("POST", "/plans", "/plans", {"title": "Old rules", "starts": STARTS})
    updated = await api.v0("PATCH", f"/{plan['id']}", "/plans/{planId}", {"drivers": [north]})
    assert [d["id"] for d in updated["drivers"]] == [north]
