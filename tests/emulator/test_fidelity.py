"""What clients written against the service rely on: depot stops with full addresses, reachable
seed drivers, addresses placed near the city they name."""

from __future__ import annotations

from typing import Any

import pytest

from route_planning_async.emulator import DriverConfig, EmulatorConfig, TeamConfig
from route_planning_async.emulator._routing._geo import CITIES, geocode, haversine_m

from .conftest import Api

pytestmark = pytest.mark.asyncio

_ADDRESS_KEYS = {
    "address",
    "addressLineOne",
    "addressLineTwo",
    "latitude",
    "longitude",
    "placeId",
    "placeTypes",
}


def _assert_full_depot_address(stop: dict[str, Any], depot_id: str = "main") -> None:
    depot = next(d for d in EmulatorConfig().team.depots if d.id == depot_id)
    address = stop["address"]
    assert set(address) == _ADDRESS_KEYS
    assert address["address"] == "Main depot, 1 Example Street, London, WC2N 5DU, GB"
    assert address["address"].split(",")[1].strip() == "1 Example Street"  # a third-party tool's split
    assert address["addressLineOne"] == "1 Example Street"
    assert address["addressLineTwo"] == "London, WC2N 5DU, GB"
    assert address["placeId"] == "depot-main"
    assert (address["latitude"], address["longitude"]) == (depot.latitude, depot.longitude)


async def test_depot_stops_carry_the_depots_full_address_in_the_plan_and_route_lists(api: Api) -> None:
    plan = await api.optimized_plan(6)
    answer = await api.checked("GET", "/plans/{planId}/stops", f"/{plan['id']}/stops")
    stops = answer.body["stops"]
    terminals = [stop for stop in stops if stop["type"] in ("start", "end")]
    assert len(terminals) == 2 * len(plan["routes"])
    for stop in terminals:
        _assert_full_depot_address(stop)
    for route_id in plan["routes"]:
        own = sorted((s for s in stops if s["route"]["id"] == route_id), key=lambda s: s["stopPosition"])
        assert (own[0]["type"], own[-1]["type"]) == ("start", "end")
        for stop in (own[0], own[-1]):
            single = await api.checked("GET", "/plans/{planId}/stops/{stopId}", "/" + stop["id"])
            _assert_full_depot_address(single.body)


async def test_every_seed_driver_has_an_email_and_a_phone(api: Api) -> None:
    drivers = (await api.ok("GET", "/drivers"))["drivers"]
    assert [d["id"] for d in drivers][:4] == [
        "drivers/driver-ana", "drivers/driver-ben", "drivers/driver-cleo", "drivers/driver-dan",
    ]  # fmt: skip
    for driver in drivers:
        assert driver["email"], driver
        assert driver["phone"], driver


@pytest.mark.route_planning_emulator(
    team=TeamConfig(
        drivers=(DriverConfig("driver-x", "X", None, "+15550000000"), DriverConfig("driver-y", "Y"))
    )
)
async def test_a_driver_without_contact_details_only_when_the_team_says_so(api: Api) -> None:
    drivers = (await api.ok("GET", "/drivers"))["drivers"]
    assert [(d["email"], d["phone"]) for d in drivers] == [(None, "+15550000000"), (None, None)]
    plan = await api.plan(drivers=["drivers/driver-x"])
    body = {"address": {"addressLineOne": "1 A Street"}, "allowedDrivers": ["drivers/driver-x"]}
    stop = await api.ok("POST", f"/{plan['id']}/stops", body)
    assert stop["allowedDriversIdentifiers"] == ["+15550000000"]


async def test_a_seattle_address_is_placed_near_seattle(api: Api) -> None:
    plan = await api.plan()
    body = {"address": {"addressLineOne": "400 Broad St", "city": "Seattle", "state": "WA", "country": "US"}}
    stop = await api.ok("POST", f"/{plan['id']}/stops", body)
    seattle = CITIES["seattle"]
    assert haversine_m(*seattle, stop["address"]["latitude"], stop["address"]["longitude"]) <= 15_001


@pytest.mark.parametrize("city", sorted(CITIES))
async def test_every_known_city_is_placed_near_itself_and_deterministically(city: str) -> None:
    depot = (51.5074, -0.1278)
    address = {"addressLineOne": "12 Main Street", "city": city.title(), "country": "Somewhere"}
    placed = geocode(address, depot, "UNGEOCODABLE")
    assert placed is not None
    assert placed == geocode(address, depot, "UNGEOCODABLE")
    assert 500 <= haversine_m(*CITIES[city], placed.latitude, placed.longitude) <= 15_001
    # A one-line address naming the city in any case also lands there; a word containing it does not.
    line = geocode({"addressLineOne": f"5 Market Road, {city.upper()}"}, depot, "")
    assert line is not None
    assert haversine_m(*CITIES[city], line.latitude, line.longitude) <= 15_001


async def test_an_unknown_town_falls_back_to_the_depots_area() -> None:
    depot = (47.0, 8.0)
    placed = geocode({"addressLineOne": "3 Londonderry Lane", "city": "Nowhere"}, depot, "")
    assert placed is not None
    assert haversine_m(*depot, placed.latitude, placed.longitude) <= 15_001
