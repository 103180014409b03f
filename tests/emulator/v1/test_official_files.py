"""v1 follows the official v1 file where it speaks: payments keep their amount, a plan may
start in 2100, a depot's ``routeOverrides`` may be patched in part and is open, a stop
search takes an empty page token, and the 403 links are the file's."""

from __future__ import annotations

from typing import Any

import pytest

from route_planning_async.emulator import TeamConfig

from .conftest import V1Api

pytestmark = pytest.mark.asyncio

STARTS = {"day": 2, "month": 3, "year": 2026}
ADDRESS = {"addressLineOne": "1 High Street", "city": "London"}


async def _plan(api: V1Api, **fields: Any) -> dict[str, Any]:
    body = {"title": "Files", "starts": STARTS, "drivers": ["drivers/driver-ana"], **fields}
    plan: dict[str, Any] = await api.ok("POST", "/plans", body)
    return plan


async def test_a_payment_without_a_currency_keeps_its_amount(api: V1Api) -> None:
    plan = await _plan(api)
    body = {"address": ADDRESS, "paymentOnDelivery": {"amount": 500}}
    stop = await api.ok("POST", f"/{plan['id']}/stops", body)
    assert stop["paymentOnDelivery"] == {"amount": 500, "currency": "GBP"}
    assert (await api.ok("GET", f"/{stop['id']}"))["paymentOnDelivery"]["amount"] == 500


async def test_a_plan_may_start_in_2100(api: V1Api) -> None:
    plan = await _plan(api, starts={"day": 31, "month": 12, "year": 2100})
    assert plan["starts"] == {"day": 31, "month": 12, "year": 2100}
    answer = await api.checked(
        "POST", "/plans", {"title": "Too late", "starts": {"day": 1, "month": 1, "year": 2101}}
    )
    assert (answer.status, answer.body["param"]) == (400, "starts")


async def test_a_depot_takes_a_partial_route_overrides_patch(api: V1Api) -> None:
    overrides = {"startAddress": ADDRESS, "startTime": {"hour": 7, "minute": 0}, "maxStops": 30}
    depot = await api.ok("POST", "/depots", {"name": "North", "routeOverrides": overrides})
    patched = await api.ok("PATCH", f"/{depot['id']}", {"routeOverrides": {"maxStops": 40}})
    assert patched["routeOverrides"]["maxStops"] == 40
    assert patched["routeOverrides"]["startTime"] == {"hour": 7, "minute": 0}
    assert patched["routeOverrides"]["startAddress"] == depot["routeOverrides"]["startAddress"]
    # A configured depot (no overrides given through v1) too.
    main = await api.ok("PATCH", "/depots/main", {"routeOverrides": {"roundTrip": True}})
    assert main["routeOverrides"]["roundTrip"] is True
    assert main["routeOverrides"]["startTime"] == {"hour": 9, "minute": 0}


async def test_a_depots_route_overrides_is_open(api: V1Api) -> None:
    overrides = {"startAddress": ADDRESS, "startTime": {"hour": 7, "minute": 0}, "colour": "red"}
    depot = await api.ok("POST", "/depots", {"name": "South", "routeOverrides": overrides})
    assert "colour" not in depot["routeOverrides"]


@pytest.mark.route_planning_emulator(strict_inputs=True)
async def test_strict_inputs_refuses_an_unknown_key_in_a_depots_route_overrides(api: V1Api) -> None:
    overrides = {"startAddress": ADDRESS, "startTime": {"hour": 7, "minute": 0}, "colour": "red"}
    answer = await api.checked("POST", "/depots", {"name": "South", "routeOverrides": overrides})
    assert (answer.status, answer.body["param"]) == (400, "routeOverrides.colour")


async def test_a_stop_search_takes_an_empty_page_token(api: V1Api) -> None:
    answer = await api.checked("GET", "/stops:search", params={"pageToken": ""})
    assert answer.status == 200, answer.body


async def test_vehicle_capacity_disabled_links_the_team_profile(api: V1Api) -> None:
    plan = await _plan(api)
    body = {"address": ADDRESS, "weight": {"amount": 1, "unit": "kilogram"}}
    answer = await api.checked("POST", f"/{plan['id']}/stops", body)
    assert (answer.status, answer.body["code"]) == (403, "vehicle_capacity_disabled")
    assert answer.body["url"] == "https://dispatch.spoke.com/settings/team-profile"


@pytest.mark.route_planning_emulator(team=TeamConfig(capacity_unit="pound"))
async def test_a_list_takes_the_page_size_a_generated_client_sends(api: V1Api) -> None:
    for path in ("/plans", "/drivers", "/depots", "/operations", "/routes", "/unassignedStops"):
        answer = await api.checked(
            "GET", path, params={"maxPageSize": "20.0" if path != "/drivers" else "50.0"}
        )
        assert answer.status == 200, (path, answer.body)
