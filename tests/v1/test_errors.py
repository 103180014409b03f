"""The error tree for v1: the 412 a driver of another depot gets, and the error
codes each API version names (``_errors/_codes.py``), read from the official documents."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

import route_planning_async as rp
from route_planning_async._core import Endpoint, Request, Response, error_for
from route_planning_async._errors._answers import error_for_status
from route_planning_async._rate_limits._limits import Category
from route_planning_async._versions import API_VERSIONS

DATA = Path(__file__).parent.parent / "emulator" / "data"
DOCUMENTS = {"v0.2b": DATA / "public-openapi-v0.2b.json", "v1": DATA / "public-openapi-v1.json"}


def body(**fields: str) -> bytes:
    return json.dumps(fields).encode()


def _codes_of(document: Path) -> dict[str, set[int]]:
    """Every error ``code`` an error answer of the document names, with its statuses."""
    spec = json.loads(document.read_text())
    found: dict[str, set[int]] = {}

    def walk(schema: Any, status: int) -> None:
        if isinstance(schema, dict):
            code = schema.get("properties", {}).get("code", {})
            for value in code.get("enum", []) if isinstance(code, dict) else []:
                found.setdefault(value, set()).add(status)
            for value in schema.values():
                walk(value, status)
        elif isinstance(schema, list):
            for value in schema:
                walk(value, status)

    for operations in spec["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for status, answer in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    walk(answer, int(status))
    return found


@pytest.mark.parametrize("version", API_VERSIONS)
def test_each_version_names_the_codes_of_its_document(version: str) -> None:
    assert {code.value for code in rp.ErrorCode.for_version(version)} == set(_codes_of(DOCUMENTS[version]))


def test_the_codes_only_some_versions_name() -> None:
    v0_2b, v1 = rp.ErrorCode.for_version("v0.2b"), rp.ErrorCode.for_version("v1")
    assert {code.value for code in v1 - v0_2b} == {
        "operating_area_violation",
        "operating_area_missing_coordinates",
        "service_not_available_at_depot",
        "service_activity_not_supported",
        "sla_start_not_clearable",
        "service_offering_not_found",
    }
    assert v0_2b - v1 == {rp.ErrorCode.MAIN_DEPOT_NOT_FOUND}
    assert set(rp.ErrorCode) == v0_2b | v1
    assert rp.ErrorCode.PLAN_NOT_WRITABLE.versions == {"v0.2b", "v1"}
    assert rp.ErrorCode.SLA_START_NOT_CLEARABLE.versions == {"v1"}
    with pytest.raises(ValueError, match="unknown API version 'v2'"):
        rp.ErrorCode.for_version("v2")


def test_a_code_is_read_as_the_answering_versions() -> None:
    assert rp.ErrorCode.parse("main_depot_not_found", "v0.2b") is rp.ErrorCode.MAIN_DEPOT_NOT_FOUND
    assert rp.ErrorCode.parse("main_depot_not_found", "v1") is None
    assert rp.ErrorCode.parse("operating_area_violation", "v0.2b") is None
    assert rp.ErrorCode.parse("operating_area_violation", "v1") is rp.ErrorCode.OPERATING_AREA_VIOLATION
    assert rp.ErrorCode.parse("operating_area_violation") is rp.ErrorCode.OPERATING_AREA_VIOLATION


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, "operating_area_violation"),
        (400, "operating_area_missing_coordinates"),
        (400, "service_not_available_at_depot"),
        (400, "service_activity_not_supported"),
        (400, "sla_start_not_clearable"),
        (404, "service_offering_not_found"),
    ],
)
def test_a_v1_code_keeps_its_status_class(status: int, code: str) -> None:
    error = error_for_status(status, body(message="m", code=code, param="serviceOffering"), api_version="v1")
    assert type(error) is {400: rp.BadRequestError, 404: rp.NotFoundError}[status]
    assert (error.code, error.error_code, error.api_version) == (code, rp.ErrorCode(code), "v1")
    assert error.param == "serviceOffering"
    # v0.2b does not name the code: the string is kept, the member is not given.
    older = error_for_status(status, body(message="m", code=code), api_version="v0.2b")
    assert (older.code, older.error_code) == (code, None)


def test_main_depot_not_found_is_not_a_v1_code() -> None:
    answer = body(message="Main depot not found", code="main_depot_not_found")
    error = error_for_status(404, answer, api_version="v1")
    assert (error.code, error.error_code) == ("main_depot_not_found", None)


def test_a_version_picks_a_code_class_only_for_its_own_codes() -> None:
    answer = body(message="Plan is not writable", code="plan_not_writable")
    error = error_for_status(409, answer, api_version="v1")
    assert type(error) is rp.PlanNotWritableError
    assert error.error_code is rp.ErrorCode.PLAN_NOT_WRITABLE


@pytest.mark.parametrize(
    ("message", "advice"),
    [
        ("Driver is not linked to plan", "add the driver to the plan first (plans.update)"),
        ("Driver does not share depot with plan", "link the driver to the plan's depot"),
    ],
)
def test_412_says_what_to_do_for_its_message(message: str, advice: str) -> None:
    error = error_for_status(412, body(message=message, param="drivers"), api_version="v1")
    assert type(error) is rp.PreconditionFailedError
    assert isinstance(error, rp.APIError)
    assert (error.status, error.message, error.code, error.error_code) == (412, message, None, None)
    assert error.param == "drivers"
    text = str(error)
    assert text.startswith(f"412: {message}. ")
    assert advice in text
    assert "plans.update" in (error.hint() or "")


def test_the_request_names_the_version_its_errors_read_codes_as() -> None:
    request = Request("PATCH", "/plans/p1/stops/s1", Category.WRITE, body=b"{}", api_version="v1")
    answer = Response(404, {}, body(message="gone", code="service_offering_not_found"))
    error = error_for(request, answer, base_url="https://api.example.test/public/v1")
    assert isinstance(error, rp.NotFoundError)
    assert error.error_code is rp.ErrorCode.SERVICE_OFFERING_NOT_FOUND
    assert error.request_url == "https://api.example.test/public/v1/plans/p1/stops/s1"
    older = Request("GET", "/plans/p1", Category.READ, api_version="v0.2b")
    assert error_for(older, answer).error_code is None  # type: ignore[attr-defined]
    assert Request("GET", "/plans/p1", Category.READ).api_version is None


def test_an_endpoint_gives_its_requests_its_version() -> None:
    endpoint = Endpoint("plans.get", "GET", "/plans/{plan}", Category.READ, False, api_version="v1")
    assert endpoint.request({"plan": "p1"}).api_version == "v1"
    assert (
        Endpoint("plans.get", "GET", "/plans/{plan}", Category.READ, False)
        .request({"plan": "p1"})
        .api_version
        is None
    )


def test_every_endpoint_names_its_version() -> None:
    from route_planning_async.v0_2b._endpoints import ENDPOINTS as V0_2B
    from route_planning_async.v1._endpoints import ENDPOINTS as V1

    assert {endpoint.api_version for endpoint in V0_2B.values()} == {"v0.2b"}
    assert {endpoint.api_version for endpoint in V1.values()} == {"v1"}


@pytest.mark.asyncio
async def test_the_v1_client_raises_412_for_a_driver_of_another_depot() -> None:
    from route_planning_async.emulator import Emulator
    from route_planning_async.v1 import DriverInput, RoutePlanningClient

    async with Emulator(speedup=1000) as emu:
        address = emu.base_url_for("v1")
        async with RoutePlanningClient(emu.api_key, base_url=address, ssl=emu.ssl_context) as client:
            north = await client.drivers.create(
                DriverInput(name="Nia", email="nia@example.com", depots=["depots/north"])
            )
            plan = await client.plans.create(title="Main run", starts=datetime.date(2026, 3, 2))
            with pytest.raises(rp.PreconditionFailedError) as info:
                await client.plans.update(plan.id, drivers=["drivers/driver-ana", north.id])
    error = info.value
    assert (error.status, error.code, error.api_version) == (412, None, "v1")
    assert error.message == "Driver does not share depot with plan"
    assert error.param == "drivers[1]"
    assert "link the driver to the plan's depot" in str(error)
