"""The endpoints only the official schema has (drivers, routes, operation cancel, live
import, one custom stop property), over HTTPS, each answer validated against the schema."""

from __future__ import annotations

from typing import Any

import pytest

from route_planning_async import RateLimits, Rule
from route_planning_async.emulator import Emulator

from .conftest import Api, open_api

pytestmark = pytest.mark.asyncio

GATE = "6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01"
DRIVER: dict[str, Any] = {
    "name": "Zoe Quinn",
    "displayName": "Zoe",
    "email": "zoe@example.com",
    "phone": "+440000000042",
    "depots": ["depots/north", "depots/north"],
    "routeOverrides": {
        "startAddress": {
            "addressLineOne": "9 Yard Road",
            "city": "London",
            "latitude": 51.6,
            "longitude": -0.2,
        },
        "endAddress": None,
        "startTime": {"hour": 6, "minute": 45},
        "endTime": {"hour": 15, "minute": 0},
        "maxStops": 12,
        "drivingSpeed": "slower",
        "deliverySpeed": None,
        "vehicleType": "electric_cargo_bike",
    },
}


async def test_drivers_list_get_and_filter(api: Api) -> None:
    listed = await api.checked("GET", "/drivers", "/drivers", params={"maxPageSize": "2"})
    assert listed.status == 200
    assert [d["id"] for d in listed.body["drivers"]] == ["drivers/driver-ana", "drivers/driver-ben"]
    token = listed.body["nextPageToken"]
    rest = await api.checked("GET", "/drivers", "/drivers", params={"maxPageSize": "2", "pageToken": token})
    assert [d["id"] for d in rest.body["drivers"]] == ["drivers/driver-cleo", "drivers/driver-dan"]
    paused = await api.checked("GET", "/drivers", "/drivers", params={"filter.active": "false"})
    assert [d["id"] for d in paused.body["drivers"]] == ["drivers/driver-paused"]
    assert paused.body["nextPageToken"] is None
    bad = await api.checked("GET", "/drivers", "/drivers", params={"filter[active]": "yes"})
    assert bad.status == 400
    too_big = await api.checked("GET", "/drivers", "/drivers", params={"maxPageSize": "51"})
    assert too_big.status == 400
    one = await api.checked("GET", "/drivers/{driverId}", "/drivers/driver-cleo")
    assert one.body["routeOverrides"]["startTime"] == {"hour": 7, "minute": 30}
    missing = await api.checked("GET", "/drivers/{driverId}", "/drivers/nobody")
    assert (missing.status, missing.body["message"]) == (404, "Driver not found")


async def test_driver_create_update_delete(api: Api) -> None:
    created = await api.checked("POST", "/drivers", "/drivers", DRIVER)
    assert created.status == 200, created.body
    driver = created.body
    assert driver["depots"] == ["depots/north"]
    assert driver["active"] is True
    start = driver["routeOverrides"]["startAddress"]
    assert (start["addressLineOne"], start["latitude"]) == ("9 Yard Road", 51.6)
    assert driver["routeOverrides"]["deliverySpeed"] == "average"
    bare = driver["id"].removeprefix("drivers/")
    patched = await api.checked(
        "PATCH", "/drivers/{driverId}", f"/drivers/{bare}", {"displayName": "Z", "depots": None}
    )
    assert patched.status == 200
    assert (patched.body["displayName"], patched.body["depots"]) == ("Z", ["depots/main"])
    assert patched.body["routeOverrides"] == driver["routeOverrides"]
    refused = await api.checked(
        "PATCH", "/drivers/{driverId}", f"/drivers/{bare}", {"email": "x@example.com"}
    )
    assert refused.status == 400
    taken = await api.checked("POST", "/drivers", "/drivers", {"email": "zoe@example.com"})
    assert taken.status == 422
    removed = await api.call("DELETE", f"/drivers/{bare}")
    assert (removed.status, removed.raw) == (204, b"")
    again = await api.checked("DELETE", "/drivers/{driverId}", f"/drivers/{bare}")
    assert again.status == 404
    # A removed driver's e-mail is free again.
    back = await api.checked("POST", "/drivers", "/drivers", {"email": "zoe@example.com"})
    assert back.status == 200
    assert back.body["id"] != driver["id"]


@pytest.mark.parametrize(
    "body",
    [
        {"email": "not-an-email"},
        {"active": False},
        {"depots": []},
        {"depots": ["main"]},
        {"routeOverrides": {"maxStops": -1}},
        {"routeOverrides": {"vehicleType": "boat"}},
        {"routeOverrides": {"startTime": {"hour": 25, "minute": 0}}},
        {"routeOverrides": {"startAddress": {"latitude": 91}}},
        {"name": ""},
    ],
)
async def test_driver_bodies_outside_the_schema_are_400(api: Api, body: dict[str, Any]) -> None:
    answer = await api.checked("POST", "/drivers", "/drivers", body)
    assert answer.status == 400, answer.body


async def test_driver_import(api: Api) -> None:
    body = [{"name": "A", "email": "a@example.com"}, {"name": "dup", "phone": "+440000000001"}, {}]
    answer = await api.checked("POST", "/drivers:import", "/drivers:import", body)
    assert answer.status == 200
    assert len(answer.body["success"]) == 2
    assert answer.body["failed"] == [
        {"error": {"message": "A driver with this phone is already in the team"}, "driver": body[1]}
    ]
    for size in (0, 51):
        refused = await api.checked("POST", "/drivers:import", "/drivers:import", [{}] * size)
        assert refused.status == 400


async def test_driver_create_and_import_have_limits_of_their_own() -> None:
    limits = RateLimits.default().replace("read", Rule(100, 1.0))
    async with Emulator(speedup=1.0, rate_limits=limits) as emu, open_api(emu) as api:
        first = await api.call("POST", "/drivers", {"email": "one@example.com"})
        second = await api.call("POST", "/drivers", {"email": "two@example.com"})
        assert (first.status, second.status) == (200, 429)
        imports = [await api.call("POST", "/drivers:import", [{"phone": f"+1{i}"}]) for i in range(3)]
        assert [a.status for a in imports] == [200, 200, 429]
        # Writes are not counted against driver create.
        assert (
            await api.call("POST", "/plans", {"title": "t", "starts": {"day": 2, "month": 6, "year": 2025}})
        ).status == 200
        rejected = {record.category for record in emu.log.rejected()}
        assert rejected == {"driver_create", "driver_import"}


async def test_routes_get(api: Api) -> None:
    plan = await api.optimized_plan()
    answer = await api.checked("GET", "/routes/{routeId}", "/" + plan["routes"][0])
    assert answer.status == 200
    assert answer.body["plan"] == plan["id"]
    missing = await api.checked("GET", "/routes/{routeId}", "/routes/none")
    assert (missing.status, missing.body["message"]) == (404, "Route not found")


async def test_operation_cancel() -> None:
    slow = Emulator(
        speedup=1000.0,
        rate_limits=RateLimits.unlimited(),
        instant_optimization_max_stops=0,
        optimization_delay=3600.0,
    )
    async with slow as running, open_api(running) as api:
        plan = await api.plan()
        await api.import_stops(plan["id"], 3)
        operation = await api.ok("POST", f"/{plan['id']}:optimize")
        assert operation["done"] is False
        bare = operation["id"].removeprefix("operations/")
        path = "/operations/{operationId}:cancel"
        canceled = await api.checked("POST", path, f"/operations/{bare}:cancel")
        assert canceled.status == 200
        assert canceled.body["metadata"]["canceled"] is True
        assert canceled.body["done"] is True
        assert canceled.body.get("result") is None  # the official schema: nullable
        assert (await api.ok("GET", f"/{plan['id']}"))["writable"] is True
        done = await api.checked("POST", path, f"/operations/{bare}:cancel")
        assert (done.status, done.body["code"]) == (409, "operation_already_done")
        missing = await api.checked("POST", path, "/operations/nothing:cancel")
        assert (missing.status, missing.body["code"]) == (404, "operation_not_found")


async def test_live_import_on_a_writable_and_on_an_optimized_plan(api: Api) -> None:
    path = "/plans/{planId}/stops:liveImport"
    stops = [{"address": {"addressLineOne": f"{i} Live Lane", "city": "London"}} for i in range(3)]
    writable = await api.plan()
    answer = await api.checked("POST", path, f"/{writable['id']}/stops:liveImport", stops)
    assert answer.status == 200
    assert (answer.body["pending"], len(answer.body["success"]), answer.body["failed"]) == (False, 3, [])
    assert len((await api.ok("GET", f"/{writable['id']}/stops"))["stops"]) == 3

    optimized = await api.optimized_plan()
    bad = {"address": {"addressLineOne": "1 UNGEOCODABLE Road"}}
    answer = await api.checked("POST", path, f"/{optimized['id']}/stops:liveImport", [*stops, bad])
    assert answer.status == 200
    assert answer.body["pending"] is True
    assert len(answer.body["success"]) == 3
    assert len(answer.body["failed"]) == 1
    plan = await api.ok("GET", f"/{optimized['id']}")
    assert plan["optimization"] == "editing"
    # Pending stops are not listed until the session is applied.
    listed = (await api.ok("GET", f"/{optimized['id']}/stops"))["stops"]
    assert len([stop for stop in listed if stop["type"] == "stop"]) == 6
    for size in (0, 101):
        refused = await api.checked("POST", path, f"/{optimized['id']}/stops:liveImport", stops[:1] * size)
        assert refused.status == 400


async def test_custom_stop_property_get(api: Api) -> None:
    path = "/team/customStopProperties/{customStopPropertyId}"
    answer = await api.checked("GET", path, f"/team/customStopProperties/{GATE}")
    assert answer.status == 200
    assert answer.body["name"] == "Gate code"
    missing = await api.checked("GET", path, "/team/customStopProperties/nothing")
    assert missing.status == 404
