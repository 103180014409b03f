"""Every endpoint answers over HTTPS with the contract's shapes (validated against the OpenAPI schemas)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from route_planning_async.emulator import Emulator

from .conftest import Api, FakeClock

pytestmark = pytest.mark.asyncio

GATE = "6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01"

FULL_STOP: dict[str, Any] = {
    "address": {
        "addressName": "Office",
        "addressLineOne": "1 Long Lane",
        "addressLineTwo": "Floor 2",
        "city": "London",
        "state": "Greater London",
        "zip": "EC1A 1AA",
        "country": "GB",
    },
    "timing": {
        "earliestAttemptTime": {"hour": 8, "minute": 0},
        "latestAttemptTime": {"hour": 20, "minute": 30},
        "estimatedAttemptDuration": 90,
    },
    "recipient": {"externalId": "order-1", "email": "r@example.com", "phone": "+44123", "name": "Rae"},
    "orderInfo": {
        "products": ["tea", "milk"],
        "sellerOrderId": "S-1",
        "sellerName": "Shop",
        "sellerWebsite": "x.io",
    },
    "proofOfAttemptRequirements": {"enabled": True},
    "allowedDrivers": ["drivers/driver-cleo"],
    "activity": "pickup",
    "optimizationOrder": "first",
    "packageCount": 3,
    "notes": "Ring twice",
    "circuitClientId": "client-9",
    "barcodes": ["123", "456"],
    "customProperties": {GATE: "4711"},
}


async def test_plans_create(api: Api) -> None:
    answer = await api.checked(
        "POST",
        "/plans",
        "/plans",
        {
            "title": "Monday",
            "starts": {"day": 3, "month": 6, "year": 2025},
            "drivers": ["drivers/driver-ana"],
        },
    )
    assert answer.status == 200
    plan = answer.body
    assert plan["id"].startswith("plans/")
    assert plan["title"] == "Monday"
    assert plan["starts"] == {"day": 3, "month": 6, "year": 2025}
    # "When a plan is created without a depot, the team's main depot is used."
    assert plan["depot"] == "depots/main"
    assert (plan["distributed"], plan["writable"], plan["optimization"]) == (False, True, "creating")
    assert [d["id"] for d in plan["drivers"]] == ["drivers/driver-ana"]
    assert plan["routes"] == []


async def test_plans_create_ignores_duplicate_drivers_and_takes_a_depot(api: Api) -> None:
    plan = await api.plan(drivers=["drivers/driver-ben", "drivers/driver-ben"], depot="depots/north")
    assert [d["id"] for d in plan["drivers"]] == ["drivers/driver-ben"]
    assert plan["depot"] == "depots/north"


async def test_plans_list(api: Api) -> None:
    created = [await api.plan(title=f"P{i}") for i in range(3)]
    answer = await api.checked("GET", "/plans", "/plans")
    assert answer.status == 200
    assert [p["id"] for p in answer.body["plans"]] == [p["id"] for p in created]
    assert answer.body["nextPageToken"] is None


async def test_plans_get(api: Api) -> None:
    plan = await api.plan()
    answer = await api.checked("GET", "/plans/{planId}", f"/{plan['id']}")
    assert answer.status == 200
    assert answer.body == plan


async def test_plans_update_changes_only_present_fields(api: Api) -> None:
    plan = await api.plan()
    answer = await api.checked("PATCH", "/plans/{planId}", f"/{plan['id']}", {"title": "Renamed"})
    assert answer.status == 200
    assert answer.body == {**plan, "title": "Renamed"}
    answer = await api.checked(
        "PATCH", "/plans/{planId}", f"/{plan['id']}", {"drivers": ["drivers/driver-dan"]}
    )
    assert [d["id"] for d in answer.body["drivers"]] == ["drivers/driver-dan"]
    assert answer.body["title"] == "Renamed"


async def test_plans_delete(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    answer = await api.checked("DELETE", "/plans/{planId}", f"/{plan['id']}")
    assert (answer.status, answer.raw) == (204, b"")
    assert (await api.call("GET", f"/{plan['id']}")).status == 404
    assert len(emu.state.plans) == 0


async def test_plans_optimize(api: Api) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 4)
    answer = await api.checked("POST", "/plans/{planId}:optimize", f"/{plan['id']}:optimize")
    assert answer.status == 200
    operation = answer.body
    assert operation["id"].startswith("operations/")
    assert operation["type"] == "plan_optimization"
    assert operation["done"] is True
    assert operation["metadata"]["targetPlanId"] == plan["id"]
    assert operation["result"] == {"numOptimizedStops": 4, "skippedStops": []}


async def test_plans_distribute(api: Api) -> None:
    plan = await api.optimized_plan()
    answer = await api.checked("POST", "/plans/{planId}:distribute", f"/{plan['id']}:distribute")
    assert answer.status == 200
    assert answer.body["distributed"] is True


async def test_plans_reoptimize_redistribute(api: Api) -> None:
    plan = await api.optimized_plan()
    await api.ok(
        "POST", f"/{plan['id']}/stops:liveCreate", {"address": {"latitude": 51.5, "longitude": -0.12}}
    )
    answer = await api.checked(
        "POST",
        "/plans/{planId}:reoptimize",
        f"/{plan['id']}:reoptimize",
        {"optimizationType": "reorder_all_stops"},
    )
    assert answer.status == 200
    assert answer.body["done"] is True
    answer = await api.checked("POST", "/plans/{planId}:redistribute", f"/{plan['id']}:redistribute")
    assert answer.status == 200
    assert answer.body["distributed"] is True


async def test_plans_save(api: Api) -> None:
    plan = await api.optimized_plan()
    stops = (await api.ok("GET", f"/{plan['id']}/stops"))["stops"]
    await api.ok("POST", f"/{stops[0]['id']}:liveDelete")
    await api.ok("POST", f"/{plan['id']}:reoptimize")
    answer = await api.checked("POST", "/plans/{planId}:save", f"/{plan['id']}:save")
    assert (answer.status, answer.raw) == (204, b"")


async def test_operations_get(api: Api) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 2)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    answer = await api.checked("GET", "/operations/{operationId}", f"/{operation['id']}")
    assert answer.status == 200
    assert answer.body == operation


@pytest.mark.route_planning_emulator(
    clock=FakeClock(), instant_optimization_max_stops=0, optimization_delay=600.0
)
async def test_operations_list(api: Api, emu: Emulator) -> None:
    # GET /operations is not in the contract; the public OpenAPI document gives it.
    first = await api.plan()
    await api.import_stops(first["id"], 2)
    finished = await api.ok("POST", f"/{first['id']}:optimize")
    cast(FakeClock, emu.config.clock).advance(1.0)  # 600 s of contract time, sped up 1000 times
    second = await api.plan()
    await api.import_stops(second["id"], 3)
    running = await api.ok("POST", f"/{second['id']}:optimize")

    answer = await api.checked("GET", "/operations", "/operations")
    assert answer.status == 200
    operations = answer.body["operations"]
    # Newest first.
    assert [op["id"] for op in operations] == [running["id"], finished["id"]]
    assert [op["done"] for op in operations] == [False, True]
    assert [op["metadata"]["targetPlanId"] for op in operations] == [second["id"], first["id"]]
    assert operations[0]["result"] is None
    assert operations[1]["result"] == {"numOptimizedStops": 2, "skippedStops": []}
    assert answer.body["nextPageToken"] is None
    # Each entry is what GET /operations/<id> answers.
    for operation in operations:
        assert operation == await api.ok("GET", f"/{operation['id']}")

    not_done = await api.checked(
        "GET",
        "/operations",
        "/operations",
        params={"filter[done]": "false", "filter[type]": "plan_optimization"},
    )
    assert [op["id"] for op in not_done.body["operations"]] == [running["id"]]
    done = await api.checked("GET", "/operations", "/operations", params={"filter.done": "true"})
    assert [op["id"] for op in done.body["operations"]] == [finished["id"]]


async def test_operations_list_empty(api: Api) -> None:
    answer = await api.checked("GET", "/operations", "/operations")
    assert answer.body == {"operations": [], "nextPageToken": None}


async def test_stops_create_with_every_field(api: Api) -> None:
    plan = await api.plan()
    answer = await api.checked("POST", "/plans/{planId}/stops", f"/{plan['id']}/stops", FULL_STOP)
    assert answer.status == 200
    stop = answer.body
    assert stop["id"].startswith(plan["id"] + "/stops/")
    assert stop["plan"] == plan["id"]
    assert stop["route"] is None
    assert stop["address"]["address"] == "1 Long Lane, Floor 2, London, Greater London, EC1A 1AA, GB"
    assert stop["address"]["addressLineOne"] == "1 Long Lane"
    assert isinstance(stop["address"]["latitude"], float)
    assert stop["recipient"] == FULL_STOP["recipient"]
    assert stop["orderInfo"] == FULL_STOP["orderInfo"]
    assert stop["timing"] == FULL_STOP["timing"]
    assert stop["allowedDriversIdentifiers"] == ["cleo@example.com"]
    assert (stop["activity"], stop["optimizationOrder"], stop["type"]) == ("pickup", "first", "stop")
    assert (stop["packageCount"], stop["notes"], stop["circuitClientId"]) == (3, "Ring twice", "client-9")
    assert stop["barcodes"] == ["123", "456"]
    assert stop["customProperties"] == {GATE: "4711"}
    assert stop["proofOfAttemptRequirements"] == {"enabled": True}
    assert stop["eta"] is None
    assert stop["etaNullReason"]["reason"] == "not_optimized"
    # "On first creation of the stop the listed drivers are also added to the plan."
    plan_after = await api.ok("GET", f"/{plan['id']}")
    assert "drivers/driver-cleo" in [d["id"] for d in plan_after["drivers"]]


async def test_stops_create_minimal_defaults(api: Api) -> None:
    plan = await api.plan()
    stop = await api.ok("POST", f"/{plan['id']}/stops", {"address": {"latitude": 51.0, "longitude": 0.5}})
    # "always empty when the stop was imported by coordinates only"
    assert stop["address"]["address"] == ""
    assert (stop["address"]["latitude"], stop["address"]["longitude"]) == (51.0, 0.5)
    assert stop["barcodes"] == []
    assert stop["driverIdentifier"] is None
    assert stop["allowedDriversIdentifiers"] == []
    assert stop["notes"] is None
    assert stop["packageCount"] is None
    assert stop["activity"] == "delivery"
    assert stop["optimizationOrder"] == "default"
    assert stop["recipient"] == {"email": None, "externalId": None, "name": None, "phone": None}
    assert stop["orderInfo"] == {
        "products": [],
        "sellerOrderId": None,
        "sellerName": None,
        "sellerWebsite": None,
    }
    assert stop["timing"] == {
        "earliestAttemptTime": None,
        "latestAttemptTime": None,
        "estimatedAttemptDuration": None,
    }
    assert stop["proofOfAttemptRequirements"] == {"enabled": None}
    assert stop["deliveryInfo"] is None
    assert stop["customProperties"] is None


async def test_stops_list(api: Api) -> None:
    plan = await api.plan()
    ids = await api.import_stops(plan["id"], 3)
    answer = await api.checked("GET", "/plans/{planId}/stops", f"/{plan['id']}/stops")
    assert answer.status == 200
    assert [s["id"] for s in answer.body["stops"]] == ids
    assert answer.body["nextPageToken"] is None


async def test_stops_import(api: Api) -> None:
    plan = await api.plan()
    body = [
        FULL_STOP,
        {"address": {"latitude": 1.0, "longitude": 2.0}},
        {"address": {"city": "UNGEOCODABLE town"}},
    ]
    answer = await api.checked("POST", "/plans/{planId}/stops:import", f"/{plan['id']}/stops:import", body)
    assert answer.status == 200
    assert len(answer.body["success"]) == 2
    [failure] = answer.body["failed"]
    assert failure["error"]["message"] == "The address could not be geocoded"
    assert failure["stop"]["address"]["city"] == "UNGEOCODABLE town"
    assert failure["stop"]["recipient"] is None


async def test_stops_get(api: Api) -> None:
    plan = await api.plan()
    created = await api.ok("POST", f"/{plan['id']}/stops", FULL_STOP)
    answer = await api.checked("GET", "/plans/{planId}/stops/{stopId}", f"/{created['id']}")
    assert answer.status == 200
    assert answer.body == created


async def test_stops_update_patch_semantics(api: Api) -> None:
    plan = await api.plan()
    created = await api.ok("POST", f"/{plan['id']}/stops", FULL_STOP)
    patch = {"notes": "Leave at door", "barcodes": ["789"], "recipient": {"name": "Ray"}}
    answer = await api.checked("PATCH", "/plans/{planId}/stops/{stopId}", f"/{created['id']}", patch)
    assert answer.status == 200
    stop = answer.body
    assert stop["notes"] == "Leave at door"
    assert stop["barcodes"] == ["789"]  # arrays are replaced in full
    assert stop["recipient"] == {**FULL_STOP["recipient"], "name": "Ray"}  # absent fields stay
    assert stop["address"] == created["address"]
    assert stop["packageCount"] == 3


async def test_stops_delete(api: Api) -> None:
    plan = await api.plan()
    [stop_id] = await api.import_stops(plan["id"], 1)
    answer = await api.checked("DELETE", "/plans/{planId}/stops/{stopId}", f"/{stop_id}")
    assert (answer.status, answer.raw) == (204, b"")
    assert (await api.call("GET", f"/{stop_id}")).status == 404


async def test_stops_live_create(api: Api) -> None:
    plan = await api.optimized_plan()
    answer = await api.checked(
        "POST",
        "/plans/{planId}/stops:liveCreate",
        f"/{plan['id']}/stops:liveCreate",
        {"address": {"city": "Kew"}},
    )
    assert answer.status == 200
    assert answer.body["pending"] is True
    assert answer.body["stop"]["address"]["address"] == "Kew"


async def test_stops_live_update(api: Api) -> None:
    plan = await api.optimized_plan()
    stop = (await api.ok("GET", f"/{plan['id']}/stops"))["stops"][0]
    body = {"notes": "gate", "timing": {"estimatedAttemptDuration": 30}}
    answer = await api.checked(
        "POST", "/plans/{planId}/stops/{stopId}:liveUpdate", f"/{stop['id']}:liveUpdate", body
    )
    assert answer.status == 200
    assert answer.body["pending"] is True
    assert answer.body["stop"]["notes"] == "gate"
    assert answer.body["stop"]["timing"]["estimatedAttemptDuration"] == 30


async def test_stops_live_delete(api: Api) -> None:
    plan = await api.optimized_plan()
    stop = (await api.ok("GET", f"/{plan['id']}/stops"))["stops"][0]
    answer = await api.checked(
        "POST", "/plans/{planId}/stops/{stopId}:liveDelete", f"/{stop['id']}:liveDelete"
    )
    assert answer.status == 200
    assert answer.body == {"pending": True}


def _unassigned_body() -> dict[str, Any]:
    body = {key: value for key, value in FULL_STOP.items() if key != "allowedDrivers"}
    return {**body, "allowedDrivers": ["drivers/driver-ana"], "depot": "depots/north"}


async def test_unassigned_stops_create(api: Api) -> None:
    answer = await api.checked("POST", "/unassignedStops", "/unassignedStops", _unassigned_body())
    assert answer.status == 200
    stop = answer.body
    assert stop["id"].startswith("unassignedStops/")
    assert stop["depot"] == "depots/north"
    assert stop["allowedDriversIdentifiers"] == ["ana@example.com"]
    assert stop["circuitClientId"] == "client-9"
    assert set(stop) >= {"address", "timing", "recipient", "orderInfo", "activity", "optimizationOrder"}


async def test_unassigned_stops_create_defaults_to_main_depot(api: Api) -> None:
    stop = await api.ok("POST", "/unassignedStops", {"address": {"zip": "SW1A 1AA"}})
    assert stop["depot"] == "depots/main"


async def test_unassigned_stops_list(api: Api) -> None:
    first = await api.ok("POST", "/unassignedStops", {"address": {"zip": "A1"}})
    second = await api.ok("POST", "/unassignedStops", {"address": {"zip": "A2"}})
    answer = await api.checked("GET", "/unassignedStops", "/unassignedStops")
    assert answer.status == 200
    assert [s["id"] for s in answer.body["unassignedStops"]] == [first["id"], second["id"]]


async def test_unassigned_stops_import(api: Api) -> None:
    body = {
        "unassignedStops": [{"address": {"city": "Leeds"}}, {"address": {"city": "UNGEOCODABLE"}}],
        "depot": "depots/north",
    }
    answer = await api.checked("POST", "/unassignedStops:import", "/unassignedStops:import", body)
    assert answer.status == 200
    [stop_id] = answer.body["success"]
    assert stop_id.startswith("unassignedStops/")
    [failure] = answer.body["failed"]
    assert failure["unassignedStop"]["address"]["city"] == "UNGEOCODABLE"
    stop = await api.ok("GET", f"/{stop_id}")
    assert stop["depot"] == "depots/north"


async def test_unassigned_stops_get(api: Api) -> None:
    created = await api.ok("POST", "/unassignedStops", _unassigned_body())
    answer = await api.checked("GET", "/unassignedStops/{unassignedStopId}", f"/{created['id']}")
    assert (answer.status, answer.body) == (200, created)


async def test_unassigned_stops_update(api: Api) -> None:
    created = await api.ok("POST", "/unassignedStops", _unassigned_body())
    body = {"notes": "back door", "depot": "depots/main", "allowedDrivers": ["drivers/driver-ben"]}
    answer = await api.checked("PATCH", "/unassignedStops/{unassignedStopId}", f"/{created['id']}", body)
    assert answer.status == 200
    assert answer.body["notes"] == "back door"
    assert answer.body["depot"] == "depots/main"
    assert answer.body["allowedDriversIdentifiers"] == ["ben@example.com"]
    assert answer.body["recipient"] == created["recipient"]


async def test_unassigned_stops_delete(api: Api) -> None:
    created = await api.ok("POST", "/unassignedStops", {"address": {"zip": "Z"}})
    answer = await api.checked("DELETE", "/unassignedStops/{unassignedStopId}", f"/{created['id']}")
    assert answer.status == 204
    assert (await api.call("GET", f"/{created['id']}")).status == 404


async def test_depots_list_and_get(api: Api) -> None:
    answer = await api.checked("GET", "/depots", "/depots")
    assert answer.body == {
        "depots": [
            {"id": "depots/main", "name": "Main depot"},
            {"id": "depots/north", "name": "North depot"},
        ],
        "nextPageToken": None,
    }
    answer = await api.checked("GET", "/depots/{depotId}", "/depots/north")
    assert answer.body == {"id": "depots/north", "name": "North depot"}


async def test_custom_stop_properties_list(api: Api) -> None:
    answer = await api.checked("GET", "/team/customStopProperties", "/team/customStopProperties")
    assert answer.status == 200
    names = [p["name"] for p in answer.body["customStopProperties"]]
    assert names == ["Gate code", "Floor"]


async def test_routes_and_drivers_by_serialized_id(api: Api) -> None:
    plan = await api.optimized_plan()
    route_id = plan["routes"][0]
    answer = await api.checked("GET", "/routes/{routeId}", f"/{route_id}")
    assert answer.body["id"] == route_id
    assert answer.body["plan"] == plan["id"]
    answer = await api.checked("GET", "/drivers/{driverId}", "/drivers/driver-ana")
    assert answer.body["email"] == "ana@example.com"
