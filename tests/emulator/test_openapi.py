"""Where the contract and the public OpenAPI document differ, the emulator follows the contract.

Each entry of ``KNOWN_DIFFERENCES`` has a test here that shows the difference is real:
a response difference makes the unpatched document reject the emulator's answer, and
a request difference makes the document and the emulator judge one body differently.
"""

from __future__ import annotations

from typing import Any

import pytest

from route_planning_async.emulator import Emulator, TeamConfig

from .conftest import Api, open_api
from .openapi import KNOWN_DIFFERENCES, request_errors, response_errors

pytestmark = pytest.mark.asyncio

TESTED = {
    "error_one_of_overlap",
    "request_attempt_duration",
    "request_time_of_day",
}


async def test_every_known_difference_has_a_test() -> None:
    assert {difference.name for difference in KNOWN_DIFFERENCES} == TESTED
    assert all((d.patch is not None) == (d.side == "response") for d in KNOWN_DIFFERENCES)


async def test_validation_catches_a_wrong_body() -> None:
    errors = response_errors("/plans/{planId}", "get", 200, {"id": "plans/x", "title": 5})
    assert any("title" in error for error in errors)
    assert response_errors("/plans/{planId}", "delete", 204, None) == []
    assert response_errors("/plans/{planId}", "delete", 204, {"x": 1}) != []


async def _stop(api: Api, **fields: Any) -> dict[str, Any]:
    plan = await api.plan()
    stop: dict[str, Any] = await api.ok(
        "POST", f"/{plan['id']}/stops", {"address": {"city": "Bath"}, **fields}
    )
    return stop


async def test_error_one_of_overlap(api: Api) -> None:
    # "Depot not found" matches both the "Driver not found" branch (any message) and
    # the "Depot not found" branch of the 404 oneOf: no body can be valid under it.
    starts = {"day": 1, "month": 1, "year": 2027}
    answer = await api.call("POST", "/plans", {"title": "t", "starts": starts, "depot": "depots/nowhere"})
    assert (answer.status, answer.body["message"]) == (404, "Depot not found")
    errors = response_errors("/plans", "post", 404, answer.body, without="error_one_of_overlap")
    assert any("valid under each of" in error for error in errors)
    assert response_errors("/plans", "post", 404, answer.body) == []


async def test_official_stop_shape(api: Api) -> None:
    stop = await _stop(api, circuitClientId="c1", paymentOnDelivery={"amount": 1250, "currency": "EUR"})
    assert stop["circuitClientId"] == "c1"
    assert "serviceClientId" not in stop
    assert stop["weight"] is None
    assert stop["paymentOnDelivery"] == {"amount": 1250, "currency": "EUR"}
    assert response_errors("/plans/{planId}/stops", "post", 200, stop) == []
    unassigned = await api.ok(
        "POST", "/unassignedStops", {"address": {"city": "Bath"}, "circuitClientId": "c2"}
    )
    assert unassigned["trackingLink"] is None
    assert unassigned["circuitClientId"] == "c2"
    assert response_errors("/unassignedStops", "post", 200, unassigned) == []


async def test_operation_result_is_null_while_running() -> None:
    config = {"speedup": 1.0, "instant_optimization_max_stops": 0, "optimization_delay": 600.0}
    async with Emulator(**config) as emu, open_api(emu) as api:
        plan = await api.plan()
        await api.import_stops(plan["id"], 1)
        operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is False
    assert operation["result"] is None
    assert response_errors("/plans/{planId}:optimize", "post", 200, operation) == []


async def test_the_contract_name_of_the_client_id_is_refused(api: Api) -> None:
    plan = await api.plan()
    ours = {"address": {"city": "Bath"}, "serviceClientId": "c1"}
    theirs = {"address": {"city": "Bath"}, "circuitClientId": "c1"}
    assert request_errors("/plans/{planId}/stops", "post", ours) != []
    assert request_errors("/plans/{planId}/stops", "post", theirs) == []
    answer = await api.call("POST", f"/{plan['id']}/stops", ours)
    assert (answer.status, answer.body["param"]) == (400, "serviceClientId")
    assert (await api.call("POST", f"/{plan['id']}/stops", theirs)).status == 200


async def test_official_bounds(api: Api) -> None:
    plan = await api.plan()
    many = {"address": {"city": "Bath"}, "barcodes": [f"b{i}" for i in range(200)]}
    assert request_errors("/plans/{planId}/stops", "post", many) == []
    assert (await api.call("POST", f"/{plan['id']}/stops", many)).status == 200
    too_many = {"address": {"city": "Bath"}, "barcodes": [f"b{i}" for i in range(201)]}
    assert request_errors("/plans/{planId}/stops", "post", too_many) != []
    answer = await api.call("POST", f"/{plan['id']}/stops", too_many)
    assert (answer.status, answer.body["param"]) == (400, "barcodes")
    fraction = {"address": {"city": "Bath"}, "timing": {"estimatedAttemptDuration": 90.5}}
    assert request_errors("/plans/{planId}/stops", "post", fraction) != []
    answer = await api.call("POST", f"/{plan['id']}/stops", fraction)
    assert (answer.status, answer.body["param"]) == (400, "timing.estimatedAttemptDuration")
    null_value = {"address": {"city": "Bath"}, "customProperties": {"prop-1": None}}
    assert request_errors("/plans/{planId}/stops", "post", null_value) == []


async def test_request_attempt_duration(api: Api) -> None:
    plan = await api.plan()
    zero = {"address": {"city": "Bath"}, "timing": {"estimatedAttemptDuration": 0}}
    assert request_errors("/plans/{planId}/stops", "post", zero) == []
    # The official schema states no lower bound: the emulator takes it, as a service driven by it.
    assert (await api.call("POST", f"/{plan['id']}/stops", zero)).status == 200


async def test_request_time_of_day(api: Api) -> None:
    plan = await api.plan()
    body = {"address": {"city": "Bath"}, "timing": {"latestAttemptTime": {"hour": 24, "minute": 0}}}
    assert request_errors("/plans/{planId}/stops", "post", body) == []
    assert (await api.call("POST", f"/{plan['id']}/stops", body)).status == 400


async def test_weight_needs_vehicle_capacity(api: Api) -> None:
    plan = await api.plan()
    body = {"address": {"city": "Bath"}, "weight": {"amount": 1.5, "unit": "kilogram"}}
    assert request_errors("/plans/{planId}/stops", "post", body) == []
    answer = await api.call("POST", f"/{plan['id']}/stops", body)
    assert (answer.status, answer.body["code"], answer.body["param"]) == (
        403,
        "vehicle_capacity_disabled",
        "weight",
    )


@pytest.mark.route_planning_emulator(team=TeamConfig(capacity_unit="kilogram"))
async def test_weight_with_vehicle_capacity_on(api: Api) -> None:
    stop = await _stop(api, weight={"amount": 1.5, "unit": "kilogram"})
    assert stop["weight"] == {"amount": 1.5, "unit": "kilogram"}
    plan = await api.plan()
    answer = await api.call(
        "POST",
        f"/{plan['id']}/stops",
        {"address": {"city": "Bath"}, "weight": {"amount": 1, "unit": "pound"}},
    )
    assert (answer.status, answer.body["param"]) == (400, "weight.unit")
