"""Error answers: authentication, Content-Type, validation, unknown ids, states, 410."""

from __future__ import annotations

import base64
import datetime
from typing import Any

import pytest

from emulator.conftest import Answer, Api
from emulator.openapi import response_errors, validate_response
from route_planning_async.emulator import Emulator

pytestmark = pytest.mark.asyncio


def assert_error(answer: Answer, status: int, code: str, param: str | None = None) -> None:
    assert answer.status == status, (answer.status, answer.body)
    assert set(answer.body) == {"message", "code", "param", "url"}
    assert all(isinstance(value, str) for value in answer.body.values())
    assert answer.body["code"] == code, answer.body
    if param is not None:
        assert answer.body["param"] == param, answer.body


# ----------------------------------------------------------------- authentication


async def test_bearer_auth_is_accepted(api: Api, emu: Emulator) -> None:
    answer = await api.call("GET", "/depots", auth=f"Bearer {emu.api_key}")
    assert answer.status == 200


@pytest.mark.parametrize(
    "header",
    [
        None,
        "Bearer wrong-key",
        "Basic " + base64.b64encode(b"wrong-key:").decode(),
        # The key with a password, or without the colon, is not the documented scheme.
        "Basic " + base64.b64encode(b"emulator-api-key:secret").decode(),
        "Basic " + base64.b64encode(b"emulator-api-key").decode(),
        "Basic !!!not-base64!!!",
        "Token emulator-api-key",
    ],
)
async def test_anything_but_the_key_is_401(api: Api, header: str | None) -> None:
    answer = await api.call("GET", "/plans", auth=header)
    assert_error(answer, 401, "unauthorized")
    validate_response("/plans", "get", 401, answer.body)


async def test_unauthorized_requests_are_logged_without_a_category(api: Api, emu: Emulator) -> None:
    await api.call("GET", "/plans", auth="Bearer nope")
    [record] = emu.log.records
    assert (record.outcome, record.status, record.category, record.admitted) == (
        "unauthorized",
        401,
        None,
        False,
    )


# ----------------------------------------------------------------- routing


async def test_unknown_path_is_404_and_wrong_method_405(api: Api) -> None:
    assert_error(await api.call("GET", "/nothing/here"), 404, "not_found")
    answer = await api.call("PUT", "/plans")
    assert_error(answer, 405, "method_not_allowed")
    assert set(answer.headers["Allow"].split(", ")) == {"GET", "POST"}


async def test_outside_the_base_path_is_404(api: Api, emu: Emulator) -> None:
    async with api.session.get(emu.origin + "/public/v0.1/plans", ssl=emu.ssl_context) as response:
        assert response.status == 404


@pytest.mark.parametrize(
    ("path", "param"),
    [
        ("/plans/" + "x" * 51, "planId"),
        ("/plans/bad.id", "planId"),
        ("/plans/bad%20id", "planId"),
        ("/operations/op$1", "operationId"),
        ("/unassignedStops/a.b", "unassignedStopId"),
        ("/plans/ok/stops/no.pe", "stopId"),
    ],
)
async def test_malformed_path_ids_are_400(api: Api, path: str, param: str) -> None:
    assert_error(await api.call("GET", path), 400, "invalid_request", param)


# ----------------------------------------------------------------- bodies


async def test_body_without_json_content_type_is_400(api: Api) -> None:
    body = b'{"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}}'
    answer = await api.call("POST", "/plans", data=body, headers={"Content-Type": "text/plain"})
    assert_error(answer, 400, "unsupported_content_type", "Content-Type")
    answer = await api.call("POST", "/plans", data=body)
    assert_error(answer, 400, "unsupported_content_type")
    answer = await api.call(
        "POST", "/plans", data=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert answer.status == 200


async def test_malformed_json_is_400(api: Api) -> None:
    answer = await api.call(
        "POST", "/plans", data=b'{"title": ', headers={"Content-Type": "application/json"}
    )
    assert_error(answer, 400, "invalid_json")


async def test_missing_body_is_400(api: Api) -> None:
    assert_error(await api.call("POST", "/plans"), 400, "invalid_request")


async def test_body_on_a_bodyless_action_is_400(api: Api) -> None:
    plan = await api.plan()
    answer = await api.call("POST", f"/{plan['id']}:optimize", {})
    assert_error(answer, 400, "invalid_request")


@pytest.mark.route_planning_emulator(strict=False)
async def test_lenient_mode_accepts_a_body_on_actions_and_unknown_fields(api: Api) -> None:
    plan = await api.plan(color="blue")
    await api.import_stops(plan["id"], 1)
    assert (await api.call("POST", f"/{plan['id']}:optimize", {})).status == 200


PLAN_CASES: list[tuple[dict[str, Any], str]] = [
    ({"starts": {"day": 1, "month": 6, "year": 2025}}, "title"),
    ({"title": "", "starts": {"day": 1, "month": 6, "year": 2025}}, "title"),
    ({"title": "x" * 256, "starts": {"day": 1, "month": 6, "year": 2025}}, "title"),
    ({"title": 5, "starts": {"day": 1, "month": 6, "year": 2025}}, "title"),
    ({"title": "T"}, "starts"),
    ({"title": "T", "starts": {"day": 31, "month": 2, "year": 2025}}, "starts"),
    ({"title": "T", "starts": {"day": 1, "month": 13, "year": 2025}}, "starts.month"),
    ({"title": "T", "starts": {"day": 1, "month": 6}}, "starts.year"),
    ({"title": "T", "starts": {"day": 1, "month": 6, "year": 1990}}, "starts"),
    ({"title": "T", "starts": {"day": 1, "month": 6, "year": 2150}}, "starts"),
    ({"title": "T", "starts": {"day": 1.5, "month": 6, "year": 2025}}, "starts.day"),
    ({"title": "T", "starts": {"day": True, "month": 6, "year": 2025}}, "starts.day"),
    ({"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}, "drivers": ["driver-ana"]}, "drivers[0]"),
    ({"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}, "drivers": "drivers/a"}, "drivers"),
    ({"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}, "depot": "main"}, "depot"),
    ({"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}, "extra": 1}, "extra"),
]


@pytest.mark.parametrize(("body", "param"), PLAN_CASES)
async def test_plan_body_rules(api: Api, body: dict[str, Any], param: str) -> None:
    answer = await api.call("POST", "/plans", body)
    assert_error(answer, 400, "invalid_request", param)
    validate_response("/plans", "post", 400, answer.body)


async def test_plan_drivers_at_most_50(api: Api) -> None:
    drivers = [f"drivers/d{i}" for i in range(51)]
    assert_error(
        await api.call(
            "POST",
            "/plans",
            {"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}, "drivers": drivers},
        ),
        400,
        "invalid_request",
        "drivers",
    )


async def test_plan_unknown_driver_404_inactive_400_unknown_depot_404(api: Api) -> None:
    starts = {"day": 1, "month": 6, "year": 2025}
    answer = await api.call("POST", "/plans", {"title": "T", "starts": starts, "drivers": ["drivers/ghost"]})
    assert_error(answer, 404, "driver_not_found")
    answer = await api.call(
        "POST", "/plans", {"title": "T", "starts": starts, "drivers": ["drivers/driver-paused"]}
    )
    assert_error(answer, 400, "driver_not_active")
    answer = await api.call("POST", "/plans", {"title": "T", "starts": starts, "depot": "depots/ghost"})
    assert_error(answer, 404, "depot_not_found")


def _stop(**fields: Any) -> dict[str, Any]:
    return {"address": {"addressLineOne": "1 Road"}, **fields}


STOP_CASES: list[tuple[dict[str, Any], str]] = [
    ({}, "address"),
    ({"address": {}}, "address"),
    ({"address": {"addressName": ""}}, "address.addressName"),
    ({"address": {"city": "c" * 101}}, "address.city"),
    ({"address": {"latitude": 51.0}}, "address.longitude"),
    ({"address": {"longitude": 0.1}}, "address.latitude"),
    ({"address": {"latitude": 91, "longitude": 0}}, "address.latitude"),
    ({"address": {"latitude": 0, "longitude": -180.5}}, "address.longitude"),
    ({"address": {"latitude": "51", "longitude": 0}}, "address.latitude"),
    ({"address": {"street": "x"}}, "address.street"),
    (_stop(timing={"earliestAttemptTime": {"hour": 24, "minute": 0}}), "timing.earliestAttemptTime.hour"),
    (_stop(timing={"latestAttemptTime": {"hour": 3, "minute": 60}}), "timing.latestAttemptTime.minute"),
    (_stop(timing={"latestAttemptTime": {"hour": 3}}), "timing.latestAttemptTime.minute"),
    (_stop(timing={"estimatedAttemptDuration": 0.5}), "timing.estimatedAttemptDuration"),
    (_stop(recipient={"email": ""}), "recipient.email"),
    (_stop(recipient={"externalId": 7}), "recipient.externalId"),
    (_stop(orderInfo={"products": "tea"}), "orderInfo.products"),
    (_stop(proofOfAttemptRequirements={"enabled": "yes"}), "proofOfAttemptRequirements.enabled"),
    (_stop(driver="drivers/driver-ana", allowedDrivers=["drivers/driver-ben"]), "allowedDrivers"),
    (_stop(driver="driver-ana"), "driver"),
    (_stop(allowedDrivers=[f"drivers/d{i}" for i in range(101)]), "allowedDrivers"),
    (_stop(activity="delivering"), "activity"),
    (_stop(optimizationOrder="middle"), "optimizationOrder"),
    (_stop(packageCount=0), "packageCount"),
    (_stop(packageCount=10001), "packageCount"),
    (_stop(packageCount=True), "packageCount"),
    (_stop(notes=""), "notes"),
    (_stop(notes="n" * 2001), "notes"),
    (_stop(circuitClientId=""), "circuitClientId"),
    (_stop(circuitClientId="s" * 101), "circuitClientId"),
    (_stop(barcodes=[str(i) for i in range(201)]), "barcodes"),
    (_stop(barcodes=[""]), "barcodes[0]"),
    (_stop(barcodes=["b" * 256]), "barcodes[0]"),
    (_stop(barcodes=None), "barcodes"),
    (_stop(customProperties={"not-a-property": "x"}), "customProperties.not-a-property"),
    (_stop(customProperties=["x"]), "customProperties"),
    (_stop(serviceClientId="x"), "serviceClientId"),
    (_stop(timing={"estimatedAttemptDuration": 90.5}), "timing.estimatedAttemptDuration"),
    (_stop(weight={"amount": 1.005, "unit": "kilogram"}), "weight.amount"),
    (_stop(weight={"amount": 1, "unit": "stone"}), "weight.unit"),
    (_stop(weight={"amount": 1}), "weight.unit"),
    (_stop(paymentOnDelivery={"amount": 1.5}), "paymentOnDelivery.amount"),
    (_stop(paymentOnDelivery={"currency": "XYZ"}), "paymentOnDelivery.currency"),
    (_stop(customProperties={"prop-1": ""}), "customProperties.prop-1"),
]


@pytest.mark.parametrize(("body", "param"), STOP_CASES)
async def test_stop_body_rules(api: Api, body: dict[str, Any], param: str) -> None:
    plan = await api.plan()
    answer = await api.call("POST", f"/{plan['id']}/stops", body)
    assert_error(answer, 400, "invalid_request", param)
    validate_response("/plans/{planId}/stops", "post", 400, answer.body)


async def test_stop_rules_hold_at_the_limits(api: Api) -> None:
    plan = await api.plan()
    body = _stop(
        notes="n" * 2000,
        packageCount=10000,
        circuitClientId="s" * 100,
        barcodes=["b" * 255] * 200,
        paymentOnDelivery={"amount": 2**53 - 1, "currency": "ZAR"},
        customProperties={"6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01": None},
        allowedDrivers=["drivers/driver-ana"] * 100,
        timing={
            "earliestAttemptTime": {"hour": 0, "minute": 0},
            "latestAttemptTime": {"hour": 23, "minute": 59},
            "estimatedAttemptDuration": 1,
        },
    )
    assert (await api.call("POST", f"/{plan['id']}/stops", body)).status == 200


async def test_stop_unknown_driver_is_404_and_ungeocodable_is_422(api: Api) -> None:
    plan = await api.plan()
    answer = await api.call("POST", f"/{plan['id']}/stops", _stop(allowedDrivers=["drivers/ghost"]))
    assert_error(answer, 404, "driver_not_found", "allowedDrivers[0]")
    answer = await api.call(
        "POST", f"/{plan['id']}/stops", {"address": {"addressLineOne": "1 Ungeocodable Rd"}}
    )
    assert_error(answer, 422, "geocoding_failed")
    # addressName is display only and is not used for geocoding.
    answer = await api.call("POST", f"/{plan['id']}/stops", {"address": {"addressName": "Home"}})
    assert_error(answer, 422, "geocoding_failed")


@pytest.mark.parametrize("field", ["address", "circuitClientId"])
async def test_stop_update_cannot_change_location_or_client_id(api: Api, field: str) -> None:
    plan = await api.plan()
    [stop_id] = await api.import_stops(plan["id"], 1)
    value: Any = {"city": "Elsewhere"} if field == "address" else "c2"
    answer = await api.call("PATCH", f"/{stop_id}", {field: value})
    assert_error(answer, 400, "invalid_request", field)


async def test_import_size_and_item_paths(api: Api) -> None:
    plan = await api.plan()
    assert_error(await api.call("POST", f"/{plan['id']}/stops:import", []), 400, "invalid_request")
    too_many = [_stop() for _ in range(101)]
    assert_error(await api.call("POST", f"/{plan['id']}/stops:import", too_many), 400, "invalid_request")
    bad = [_stop(), _stop(notes="")]
    assert_error(
        await api.call("POST", f"/{plan['id']}/stops:import", bad), 400, "invalid_request", "[1].notes"
    )
    assert_error(await api.call("POST", f"/{plan['id']}/stops:import", {"stops": []}), 400, "invalid_request")
    # A 400 imports nothing.
    assert (await api.ok("GET", f"/{plan['id']}/stops"))["stops"] == []


async def test_import_per_stop_failures_keep_the_rest(api: Api) -> None:
    plan = await api.plan()
    body = [_stop(), _stop(allowedDrivers=["drivers/ghost"]), _stop(customProperties={"nope": "1"})]
    result = await api.ok("POST", f"/{plan['id']}/stops:import", body)
    assert len(result["success"]) == 1
    assert [f["error"]["message"] for f in result["failed"]] == [
        "Driver not found",
        "[2].customProperties.nope: is not the id of a custom stop property of the team",
    ]


async def test_unassigned_import_rules(api: Api) -> None:
    assert_error(await api.call("POST", "/unassignedStops:import", []), 400, "invalid_request")
    assert_error(
        await api.call("POST", "/unassignedStops:import", {"depot": None}),
        400,
        "invalid_request",
        "unassignedStops",
    )
    body = {"unassignedStops": [{"address": {"city": "X"}, "driver": "drivers/driver-ana"}]}
    assert_error(
        await api.call("POST", "/unassignedStops:import", body),
        400,
        "invalid_request",
        "unassignedStops[0].driver",
    )
    body = {"unassignedStops": [{"address": {"city": "X"}}], "depot": "depots/ghost"}
    assert_error(await api.call("POST", "/unassignedStops:import", body), 404, "depot_not_found")


async def test_reoptimize_body_rules(api: Api) -> None:
    plan = await api.optimized_plan()
    answer = await api.call("POST", f"/{plan['id']}:reoptimize", {"optimizationType": "shuffle"})
    assert_error(answer, 400, "invalid_request", "optimizationType")


# ----------------------------------------------------------------- unknown ids


@pytest.mark.parametrize(
    ("method", "path", "code"),
    [
        ("GET", "/plans/nope", "plan_not_found"),
        ("PATCH", "/plans/nope", "plan_not_found"),
        ("DELETE", "/plans/nope", "plan_not_found"),
        ("POST", "/plans/nope:optimize", "plan_not_found"),
        ("POST", "/plans/nope:distribute", "plan_not_found"),
        ("POST", "/plans/nope:reoptimize", "plan_not_found"),
        ("POST", "/plans/nope:redistribute", "plan_not_found"),
        ("POST", "/plans/nope:save", "plan_not_found"),
        ("GET", "/plans/nope/stops", "plan_not_found"),
        ("GET", "/operations/nope", "operation_not_found"),
        ("GET", "/unassignedStops/nope", "unassigned_stop_not_found"),
        ("DELETE", "/unassignedStops/nope", "unassigned_stop_not_found"),
        ("GET", "/depots/nope", "depot_not_found"),
        ("GET", "/routes/nope", "route_not_found"),
        ("GET", "/drivers/nope", "driver_not_found"),
    ],
)
async def test_unknown_ids_are_404(api: Api, method: str, path: str, code: str) -> None:
    body: Any = {"title": "x"} if method == "PATCH" else None
    answer = await (api.call(method, path, body) if body else api.call(method, path))
    assert_error(answer, 404, code)


async def test_unknown_stop_is_404(api: Api) -> None:
    plan = await api.plan()
    for method in ("GET", "DELETE"):
        assert_error(await api.call(method, f"/{plan['id']}/stops/nope"), 404, "stop_not_found")
    assert_error(await api.call("PATCH", f"/{plan['id']}/stops/nope", {"notes": "x"}), 404, "stop_not_found")


# ----------------------------------------------------------------- states


async def test_plain_writes_on_a_non_writable_plan_are_409(api: Api) -> None:
    plan = await api.optimized_plan()
    stop = (await api.ok("GET", f"/{plan['id']}/stops"))["stops"][0]
    cases = [
        ("PATCH", f"/{plan['id']}", {"title": "x"}, "/plans/{planId}"),
        ("POST", f"/{plan['id']}/stops", _stop(), "/plans/{planId}/stops"),
        ("POST", f"/{plan['id']}/stops:import", [_stop()], "/plans/{planId}/stops:import"),
        ("PATCH", f"/{stop['id']}", {"notes": "x"}, "/plans/{planId}/stops/{stopId}"),
    ]
    for method, path, body, template in cases:
        answer = await api.call(method, path, body)
        assert_error(answer, 409, "plan_not_writable")
        assert answer.body["message"] == "Plan is not writable"
        validate_response(template, method, 409, answer.body)
    assert_error(await api.call("DELETE", f"/{stop['id']}"), 409, "plan_not_writable")
    # Delete removes the plan even when it is not writable (Plans, rule 2).
    assert (await api.call("DELETE", f"/{plan['id']}")).status == 204


@pytest.mark.parametrize(
    ("method", "suffix", "body"),
    [
        ("GET", "/stops", None),
        ("POST", "/stops", _stop()),
        ("POST", "/stops:import", [_stop()]),
        ("POST", "/stops:liveCreate", _stop()),
        ("GET", "/stops/s1", None),
        ("PATCH", "/stops/s1", {"notes": "x"}),
        ("DELETE", "/stops/s1", None),
        ("POST", "/stops/s1:liveUpdate", {"notes": "x"}),
        ("POST", "/stops/s1:liveDelete", None),
    ],
)
async def test_stop_operations_on_plans_before_2023_04_01_are_410(
    api: Api, method: str, suffix: str, body: Any
) -> None:
    plan = await api.plan(starts={"day": 31, "month": 3, "year": 2023})
    path = f"/{plan['id']}{suffix}"
    answer = await (api.call(method, path) if body is None else api.call(method, path, body))
    assert_error(answer, 410, "stops_unavailable")


async def test_plans_from_2023_04_01_have_stops(api: Api) -> None:
    plan = await api.plan(starts={"day": 1, "month": 4, "year": 2023})
    assert (await api.call("GET", f"/{plan['id']}/stops")).status == 200


@pytest.mark.route_planning_emulator(inaccessible_before=datetime.date(2024, 1, 1))
async def test_plans_beyond_the_data_access_period_are_403(api: Api) -> None:
    old = await api.plan(starts={"day": 31, "month": 12, "year": 2023})
    recent = await api.plan(starts={"day": 1, "month": 1, "year": 2024})
    for method, suffix in (("GET", ""), ("POST", ":optimize"), ("GET", "/stops"), ("DELETE", "")):
        answer = await api.call(method, f"/{old['id']}{suffix}")
        assert_error(answer, 403, "plan_inaccessible")
    # The link is the one the official schema fixes: the service's upgrade page.
    assert response_errors("/plans/{planId}", "get", 403, answer.body) == []
    assert answer.body["url"] == "https://dispatch.spoke.com/paywall"
    assert (await api.call("GET", f"/{recent['id']}")).status == 200
