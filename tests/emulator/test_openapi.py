"""Where the contract and the public OpenAPI document differ, the emulator follows the contract.

Each entry of ``KNOWN_DIFFERENCES`` has a test here that shows the difference is real:
a response difference makes the unpatched document reject the emulator's answer, and
a request difference makes the document and the emulator judge one body differently.
"""

from __future__ import annotations

from typing import Any

import pytest

from route_planning_async.emulator import Emulator

from .conftest import Api, open_api
from .openapi import KNOWN_DIFFERENCES, request_errors, response_errors

pytestmark = pytest.mark.asyncio

TESTED = {
    "service_client_id",
    "weight_and_payment",
    "unassigned_tracking_link",
    "operation_result_absent",
    "request_service_client_id",
    "request_barcodes",
    "request_attempt_duration",
    "request_time_of_day",
    "request_weight_and_payment",
}


async def test_every_known_difference_has_a_test() -> None:
    assert {difference.name for difference in KNOWN_DIFFERENCES} == TESTED
    assert all((d.patch is not None) == (d.side == "response") for d in KNOWN_DIFFERENCES)


async def test_validation_catches_a_wrong_body() -> None:
    errors = response_errors("/plans/{planId}", "get", 200, {"id": "plans/x", "title": 5})
    assert any("title" in error for error in errors)
    assert response_errors("/plans/{planId}", "delete", 204, None) == []
    assert response_errors("/plans/{planId}", "delete", 204, {"x": 1}) != []


async def _stop(api: Api) -> dict[str, Any]:
    plan = await api.plan()
    stop: dict[str, Any] = await api.ok(
        "POST", f"/{plan['id']}/stops", {"address": {"city": "Bath"}, "serviceClientId": "c1"}
    )
    return stop


async def test_service_client_id(api: Api) -> None:
    stop = await _stop(api)
    assert stop["serviceClientId"] == "c1"
    assert "circuitClientId" not in stop
    errors = response_errors("/plans/{planId}/stops", "post", 200, stop, without="service_client_id")
    assert any("serviceClientId" in error for error in errors)
    assert any("circuitClientId" in error for error in errors)
    assert response_errors("/plans/{planId}/stops", "post", 200, stop) == []


async def test_weight_and_payment(api: Api) -> None:
    stop = await _stop(api)
    assert "weight" not in stop
    assert "paymentOnDelivery" not in stop
    errors = response_errors("/plans/{planId}/stops", "post", 200, stop, without="weight_and_payment")
    assert any("'weight' is a required property" in error for error in errors)
    unassigned = await api.ok("POST", "/unassignedStops", {"address": {"city": "Bath"}})
    errors = response_errors("/unassignedStops", "post", 200, unassigned, without="weight_and_payment")
    assert any("'paymentOnDelivery' is a required property" in error for error in errors)


async def test_unassigned_tracking_link(api: Api) -> None:
    unassigned = await api.ok("POST", "/unassignedStops", {"address": {"city": "Bath"}})
    assert "trackingLink" not in unassigned
    errors = response_errors("/unassignedStops", "post", 200, unassigned, without="unassigned_tracking_link")
    assert any("'trackingLink' is a required property" in error for error in errors)
    assert response_errors("/unassignedStops", "post", 200, unassigned) == []


async def test_operation_result_absent() -> None:
    config = {"speedup": 1.0, "instant_optimization_max_stops": 0, "optimization_delay": 600.0}
    async with Emulator(**config) as emu, open_api(emu) as api:
        plan = await api.plan()
        await api.import_stops(plan["id"], 1)
        operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is False
    assert "result" not in operation
    errors = response_errors(
        "/plans/{planId}:optimize", "post", 200, operation, without="operation_result_absent"
    )
    assert any("'result' is a required property" in error for error in errors)
    assert response_errors("/plans/{planId}:optimize", "post", 200, operation) == []


async def test_request_service_client_id(api: Api) -> None:
    plan = await api.plan()
    ours = {"address": {"city": "Bath"}, "serviceClientId": "c1"}
    theirs = {"address": {"city": "Bath"}, "circuitClientId": "c1"}
    assert request_errors("/plans/{planId}/stops", "post", ours) != []
    assert request_errors("/plans/{planId}/stops", "post", theirs) == []
    assert (await api.call("POST", f"/{plan['id']}/stops", ours)).status == 200
    assert (await api.call("POST", f"/{plan['id']}/stops", theirs)).status == 400


async def test_request_barcodes(api: Api) -> None:
    plan = await api.plan()
    body = {"address": {"city": "Bath"}, "barcodes": [f"b{i}" for i in range(51)]}
    assert request_errors("/plans/{planId}/stops", "post", body) == []
    answer = await api.call("POST", f"/{plan['id']}/stops", body)
    assert (answer.status, answer.body["param"]) == (400, "barcodes")


async def test_request_attempt_duration(api: Api) -> None:
    plan = await api.plan()
    zero = {"address": {"city": "Bath"}, "timing": {"estimatedAttemptDuration": 0}}
    fraction = {"address": {"city": "Bath"}, "timing": {"estimatedAttemptDuration": 90.5}}
    assert request_errors("/plans/{planId}/stops", "post", zero) == []
    assert request_errors("/plans/{planId}/stops", "post", fraction) != []
    assert (await api.call("POST", f"/{plan['id']}/stops", zero)).status == 400
    assert (await api.call("POST", f"/{plan['id']}/stops", fraction)).status == 200


async def test_request_time_of_day(api: Api) -> None:
    plan = await api.plan()
    body = {"address": {"city": "Bath"}, "timing": {"latestAttemptTime": {"hour": 24, "minute": 0}}}
    assert request_errors("/plans/{planId}/stops", "post", body) == []
    assert (await api.call("POST", f"/{plan['id']}/stops", body)).status == 400


async def test_request_weight_and_payment(api: Api) -> None:
    plan = await api.plan()
    body = {"address": {"city": "Bath"}, "weight": {"amount": 1.5, "unit": "kilogram"}}
    assert request_errors("/plans/{planId}/stops", "post", body) == []
    answer = await api.call("POST", f"/{plan['id']}/stops", body)
    assert (answer.status, answer.body["param"]) == (400, "weight")
