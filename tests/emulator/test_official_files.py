"""The emulator follows the official files where they speak (v0.2b; v1's own in v1/).

Each test is one infidelity a schema-driven fuzzer found: a ``url`` the files fix, a
409 code an operation does not list, an answer the answer schema refuses, and
requests the files allow that were refused. ``strict_inputs`` (``--strict``) refuses
the unknown keys the default drops.
"""

from __future__ import annotations

import io
from typing import Any

import attrs
import pytest

from route_planning_async.emulator import Emulator, TeamConfig
from route_planning_async.emulator._server._app import MAX_BODY
from route_planning_async.emulator._setup._options import config_from_options

from .conftest import Api, FakeClock, open_api
from .openapi import response_errors

pytestmark = pytest.mark.asyncio

_CAPACITY = TeamConfig(capacity_unit="kilogram")
_ADDRESS = {"addressLineOne": "1 Test Street", "city": "London"}


async def test_vehicle_capacity_disabled_links_the_team_profile(api: Api) -> None:
    plan = await api.plan()
    body = {"address": _ADDRESS, "weight": {"amount": 1, "unit": "kilogram"}}
    answer = await api.call("POST", f"/{plan['id']}/stops", body)
    assert (answer.status, answer.body["code"]) == (403, "vehicle_capacity_disabled")
    assert answer.body["url"] == "https://dispatch.spoke.com/settings/team-profile"
    assert response_errors("/plans/{planId}/stops", "post", 403, answer.body) == []


async def test_save_of_a_distributed_plan_answers_a_code_save_lists(api: Api) -> None:
    plan = await api.optimized_plan(stops=3)
    await api.ok("POST", f"/{plan['id']}:distribute")
    answer = await api.call("POST", f"/{plan['id']}:save")
    # :save lists plan_not_optimized, plan_concurrent_modification and plan_optimization_in_progress.
    assert (answer.status, answer.body["code"]) == (409, "plan_not_optimized")
    assert response_errors("/plans/{planId}:save", "post", 409, answer.body) == []
    redistributed = await api.call("POST", f"/{plan['id']}:redistribute")
    assert (redistributed.status, redistributed.body["code"]) == (409, "plan_already_distributed")


@pytest.mark.route_planning_emulator(
    clock=FakeClock(), instant_optimization_max_stops=0, optimization_delay=3600.0
)
async def test_writes_during_an_optimization_answer_plan_not_writable(api: Api) -> None:
    plan = await api.plan()
    [stop_id] = await api.import_stops(plan["id"], 1)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is False
    writes: list[tuple[str, str, str, Any]] = [
        ("PATCH", "/plans/{planId}", f"/{plan['id']}", {"title": "Renamed"}),
        ("POST", "/plans/{planId}/stops", f"/{plan['id']}/stops", {"address": _ADDRESS}),
        ("POST", "/plans/{planId}/stops:import", f"/{plan['id']}/stops:import", [{"address": _ADDRESS}]),
        ("PATCH", "/plans/{planId}/stops/{stopId}", f"/{stop_id}", {"notes": "Ring"}),
        ("DELETE", "/plans/{planId}/stops/{stopId}", f"/{stop_id}", None),
    ]
    for method, template, path, body in writes:
        answer = await (api.call(method, path) if body is None else api.call(method, path, body))
        assert (answer.status, answer.body["code"]) == (409, "plan_not_writable"), (template, answer.body)
        assert response_errors(template, method.lower(), 409, answer.body) == [], template
    busy = await api.call("POST", f"/{plan['id']}:optimize")
    assert (busy.status, busy.body["code"]) == (409, "plan_optimization_in_progress")


async def _payment_of(api: Api, payment: Any) -> Any:
    plan = await api.plan()
    stop = await api.ok("POST", f"/{plan['id']}/stops", {"address": _ADDRESS, "paymentOnDelivery": payment})
    answer = await api.checked("GET", "/plans/{planId}/stops/{stopId}", f"/{stop['id']}")
    return answer.body["paymentOnDelivery"]


@pytest.mark.parametrize(
    ("sent", "served"),
    [
        ({}, None),
        ({"amount": None, "currency": None}, None),
        ({"amount": 0}, {"amount": 0, "currency": "GBP"}),
        ({"amount": 500, "currency": "EUR"}, {"amount": 500, "currency": "EUR"}),
        ({"currency": "USD"}, {"amount": None, "currency": "USD"}),
    ],
)
async def test_payment_on_delivery_is_served_with_a_currency_or_as_none(
    api: Api, sent: dict[str, Any], served: Any
) -> None:
    assert await _payment_of(api, sent) == served


@pytest.mark.parametrize("body", [None, {"optimizationType": None}])
async def test_reoptimize_refuses_the_nulls_its_schema_does_not_allow(api: Api, body: Any) -> None:
    plan = await api.optimized_plan(stops=2)
    answer = await api.call("POST", f"/{plan['id']}:reoptimize", body)
    assert (answer.status, answer.body["code"]) == (400, "invalid_request")
    assert answer.body["param"] == ("" if body is None else "optimizationType")


async def test_reoptimize_takes_no_body_and_an_empty_one(api: Api) -> None:
    plan = await api.optimized_plan(stops=2)
    await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": _ADDRESS})
    first = await api.call("POST", f"/{plan['id']}:reoptimize")
    assert first.status == 200, first.body
    await api.ok("POST", f"/{plan['id']}:save")
    await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": _ADDRESS})
    second = await api.call("POST", f"/{plan['id']}:reoptimize", {})
    assert second.status == 200, second.body


@pytest.mark.parametrize("size", ["10.0", "7.", "20.00"])
async def test_a_number_typed_page_size_takes_an_integral_float(api: Api, size: str) -> None:
    answer = await api.checked("GET", "/plans", "/plans", params={"maxPageSize": size})
    assert answer.status == 200, answer.body


@pytest.mark.parametrize("size", ["10.5", "1e1", "0.0", "21.0"])
async def test_a_page_size_that_is_not_a_whole_number_in_bounds_is_refused(api: Api, size: str) -> None:
    answer = await api.call("GET", "/plans", params={"maxPageSize": size})
    assert (answer.status, answer.body["param"]) == (400, "maxPageSize")


async def test_an_empty_page_token_is_refused_where_the_schema_sets_a_min_length(api: Api) -> None:
    answer = await api.call("GET", "/plans", params={"pageToken": ""})
    assert (answer.status, answer.body["param"]) == (400, "pageToken")


_WEIGHT = {"amount": 2.5, "unit": "kilogram", "volume": 3}
_OVERRIDES = {"maxStops": 12, "colour": "red"}


@pytest.mark.route_planning_emulator(team=_CAPACITY)
async def test_unknown_keys_in_open_objects_are_dropped_by_default(api: Api) -> None:
    plan = await api.plan()
    stop = await api.ok("POST", f"/{plan['id']}/stops", {"address": _ADDRESS, "weight": _WEIGHT})
    assert stop["weight"] == {"amount": 2.5, "unit": "kilogram"}
    body = {"name": "Eve", "email": "eve@example.com", "routeOverrides": _OVERRIDES}
    driver = await api.ok("POST", "/drivers", body)
    assert "colour" not in driver["routeOverrides"]
    assert driver["routeOverrides"]["maxStops"] == 12
    # The objects the files close still refuse them.
    closed = await api.call("POST", f"/{plan['id']}/stops", {"address": {**_ADDRESS, "floor": 2}})
    assert (closed.status, closed.body["param"]) == (400, "address.floor")


@pytest.mark.route_planning_emulator(team=_CAPACITY, strict_inputs=True)
async def test_strict_inputs_refuses_unknown_keys_in_open_objects(api: Api) -> None:
    plan = await api.plan()
    answer = await api.call("POST", f"/{plan['id']}/stops", {"address": _ADDRESS, "weight": _WEIGHT})
    assert (answer.status, answer.body["param"]) == (400, "weight.volume")
    assert "volume" in answer.body["message"]
    body = {"name": "Eve", "email": "eve@example.com", "routeOverrides": _OVERRIDES}
    answer = await api.call("POST", "/drivers", body)
    assert (answer.status, answer.body["param"]) == (400, "routeOverrides.colour")


async def test_the_strict_flag_turns_strict_inputs_on() -> None:
    assert config_from_options({}).strict_inputs is False
    config = attrs.evolve(config_from_options({"strict": True, "no_limits": True}), speedup=1000.0)
    async with Emulator(config) as emu, open_api(emu) as api:
        body = {"name": "Eve", "email": "eve@example.com", "routeOverrides": _OVERRIDES}
        answer = await api.call("POST", "/drivers", body)
        assert (answer.status, answer.body["param"]) == (400, "routeOverrides.colour")


@pytest.mark.parametrize("duration", [0, -5, 1, 100_000])
async def test_any_integer_attempt_duration_the_schema_allows_is_taken(api: Api, duration: int) -> None:
    plan = await api.plan()
    body = {"address": _ADDRESS, "timing": {"estimatedAttemptDuration": duration}}
    stop = await api.ok("POST", f"/{plan['id']}/stops", body)
    assert stop["timing"]["estimatedAttemptDuration"] == duration
    await api.import_stops(plan["id"], 2)
    assert (await api.ok("POST", f"/{plan['id']}:optimize"))["done"] is True


async def test_a_request_line_over_8_kb_gets_the_json_error(api: Api) -> None:
    answer = await api.call("GET", "/plans", params={"filter.title": "x" * 9000})
    assert answer.status == 400
    assert answer.headers["Content-Type"].startswith("application/json")
    assert answer.body["code"] == "invalid_request"
    assert "8190" in answer.body["message"]
    assert response_errors("/plans", "get", 400, answer.body) == []
    # Just under the line's bound, the answer is the list's own (its filter's 255 characters).
    under = await api.call("GET", "/plans", params={"filter.title": "x" * 7000})
    assert (under.status, under.body["param"]) == (400, "filter.title")


async def test_a_body_over_the_bound_gets_the_json_error(api: Api) -> None:
    # aiohttp's own 413 is plain text; every answer of the service is a JSON object.
    answer = await api.call(
        "POST", "/plans", data=io.BytesIO(b" " * (MAX_BODY + 1)), headers={"Content-Type": "application/json"}
    )
    assert answer.status == 413
    assert answer.headers["Content-Type"].startswith("application/json")
    assert set(answer.body) == {"message", "code", "param", "url"}
    assert answer.body["code"] == "payload_too_large"


async def test_a_path_with_an_encoded_newline_gets_the_json_error(api: Api) -> None:
    answer = await api.call("GET", "/drivers/%0Aab")
    assert answer.status in (400, 404)
    assert answer.headers["Content-Type"].startswith("application/json")
    assert set(answer.body) == {"message", "code", "param", "url"}


async def test_a_custom_stop_property_id_outside_the_id_pattern_is_not_found(api: Api) -> None:
    # The files give this id no pattern, only at most 50 characters.
    answer = await api.checked(
        "GET", "/team/customStopProperties/{customStopPropertyId}", "/team/customStopProperties/%C3%A9t%C3%A9"
    )
    assert answer.status == 404
    too_long = await api.call("GET", "/team/customStopProperties/" + "x" * 51)
    assert (too_long.status, too_long.body["param"]) == (400, "customStopPropertyId")
    # 50 characters, percent-encoded to far more.
    encoded = await api.call("GET", "/team/customStopProperties/" + "%C3%A9" * 50)
    assert encoded.status == 404
