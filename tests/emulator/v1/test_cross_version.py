"""One store, two versions: what is made through one version reads back through the other."""

from __future__ import annotations

import pytest

from .conftest import V1Api

STARTS = {"day": 2, "month": 3, "year": 2026}
ADDRESS = {"addressLineOne": "1 High Street", "city": "London"}


@pytest.mark.asyncio
async def test_a_plan_and_stop_made_through_v0_2b_read_through_v1(api: V1Api) -> None:
    plan = await api.v0(
        "POST", "/plans", "/plans", {"title": "Old", "starts": STARTS, "drivers": ["drivers/driver-ana"]}
    )
    stop = await api.v0(
        "POST",
        f"/{plan['id']}/stops",
        "/plans/{planId}/stops",
        {
            "address": ADDRESS,
            "circuitClientId": "legacy-1",
            "driver": "drivers/driver-ben",
            "paymentOnDelivery": {"amount": 1250, "currency": "GBP"},
        },
    )
    assert stop["driverIdentifier"] == "ben@example.com"

    read = await api.ok("GET", f"/{plan['id']}")
    assert read["drivers"] == ["drivers/driver-ana", "drivers/driver-ben"]
    assert read["routeOverrides"] is None
    same = await api.ok("GET", f"/{stop['id']}")
    assert same["clientId"] == "legacy-1"
    assert same["allowedDrivers"] == ["drivers/driver-ben"]
    assert same["paymentOnDelivery"] == {"amount": 1250, "currency": "GBP"}
    assert same["orderInfo"]["invoiceNumber"] is None
    assert same["serviceInfo"] == {"status": "empty"}
    assert "circuitClientId" not in same
    assert "driverIdentifier" not in same
    listed = await api.ok("GET", f"/{plan['id']}/stops")
    assert [s["id"] for s in listed["stops"]] == [stop["id"]]


@pytest.mark.asyncio
async def test_what_v1_writes_reads_back_through_v1_and_v0_2b_shows_its_own_fields(api: V1Api) -> None:
    plan = await api.ok(
        "POST",
        "/plans",
        {
            "title": "New",
            "starts": STARTS,
            "drivers": ["drivers/driver-ana"],
            "routeOverrides": {"startTime": {"hour": 6, "minute": 15}, "vehicleType": "bike"},
        },
    )
    stop = await api.ok(
        "POST",
        f"/{plan['id']}/stops",
        {
            "address": ADDRESS,
            "clientId": "new-1",
            "allowedDrivers": ["drivers/driver-ana"],
            "orderInfo": {"invoiceNumber": "INV-7", "sellerName": "Shop"},
            "serviceInfo": {"slaStartsAt": 1772409600},
        },
    )
    assert stop["orderInfo"]["invoiceNumber"] == "INV-7"
    assert stop["serviceInfo"] == {
        "status": "available",
        "value": {"identifier": None, "slaStartsAt": 1772409600},
    }

    old_plan = await api.v0("GET", f"/{plan['id']}", "/plans/{planId}")
    assert [d["id"] for d in old_plan["drivers"]] == ["drivers/driver-ana"]
    old_stop = await api.v0("GET", f"/{stop['id']}", "/plans/{planId}/stops/{stopId}")
    assert old_stop["circuitClientId"] == "new-1"
    assert old_stop["allowedDriversIdentifiers"] == ["ana@example.com"]
    assert "invoiceNumber" not in old_stop["orderInfo"]
    assert old_stop["orderInfo"]["sellerName"] == "Shop"

    # A v0.2b update keeps what only v1 has.
    await api.v0("PATCH", f"/{stop['id']}", "/plans/{planId}/stops/{stopId}", {"notes": "Gate code 12"})
    again = await api.ok("GET", f"/{stop['id']}")
    assert again["notes"] == "Gate code 12"
    assert again["orderInfo"]["invoiceNumber"] == "INV-7"
    assert again["serviceInfo"]["status"] == "available"
    patched = await api.ok("PATCH", f"/{stop['id']}", {"orderInfo": {"invoiceNumber": "INV-8"}})
    assert patched["orderInfo"] == {**again["orderInfo"], "invoiceNumber": "INV-8"}
    cleared = await api.ok("PATCH", f"/{stop['id']}", {"serviceInfo": None})
    assert cleared["serviceInfo"] == {"status": "empty"}
    assert (await api.ok("GET", f"/{plan['id']}"))["routeOverrides"]["startTime"] == {"hour": 6, "minute": 15}


@pytest.mark.asyncio
async def test_unassigned_stops_and_depots_are_shared(api: V1Api) -> None:
    made = await api.v0(
        "POST",
        "/unassignedStops",
        "/unassignedStops",
        {"address": ADDRESS, "allowedDrivers": ["drivers/driver-cleo"], "circuitClientId": "u-1"},
    )
    read = await api.ok("GET", f"/{made['id']}")
    assert read["allowedDrivers"] == ["drivers/driver-cleo"]
    assert read["clientId"] == "u-1"
    depot = await api.ok(
        "POST",
        "/depots",
        {
            "name": "South",
            "routeOverrides": {
                "startAddress": {"addressLineOne": "9 Brixton Road", "city": "London"},
                "startTime": {"hour": 8, "minute": 0},
            },
        },
    )
    old = await api.v0("GET", "/depots", "/depots")
    assert depot["id"] in [d["id"] for d in old["depots"]]
    assert (await api.checked("POST", f"/{depot['id']}:setMain")).status == 204
    plan = await api.v0("POST", "/plans", "/plans", {"title": "South run", "starts": STARTS})
    assert plan["depot"] == depot["id"]


@pytest.mark.asyncio
async def test_start_and_end_stops_carry_the_depots_address(api: V1Api) -> None:
    plan = await api.ok(
        "POST", "/plans", {"title": "Run", "starts": STARTS, "drivers": ["drivers/driver-ana"]}
    )
    await api.ok("POST", f"/{plan['id']}/stops:import", [{"address": ADDRESS}])
    await api.ok("POST", f"/{plan['id']}:optimize")
    route_id = (await api.ok("GET", f"/{plan['id']}"))["routes"][0]
    stops = (await api.ok("GET", f"/{route_id}/stops"))["stops"]
    start, end = stops[0], stops[-1]
    assert (start["type"], end["type"]) == ("start", "end")
    for terminal in (start, end):
        assert terminal["address"]["placeId"] == "depot-main"
        assert terminal["address"]["addressLineOne"] == "1 Example Street"
        assert terminal["address"]["address"].startswith("Main depot, 1 Example Street")
