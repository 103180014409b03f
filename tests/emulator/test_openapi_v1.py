"""Where the contract and the official v1 document differ, the emulator's v1 follows the contract.

The v1 counterpart of ``test_openapi.py``: each entry of the v1 document's
``KNOWN_DIFFERENCES`` has a test here that shows the difference is real for v1.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from route_planning_async.emulator import Emulator

from .openapi import V1

pytestmark = pytest.mark.asyncio

TESTED = {"error_one_of_overlap", "request_attempt_duration", "request_time_of_day"}
STOPS = "/plans/{planId}/stops"


class _V1:
    """Raw HTTP calls below the emulator's ``/public/v1``."""

    def __init__(self, session: aiohttp.ClientSession, emu: Emulator) -> None:
        self.session, self.emu = session, emu
        token = base64.b64encode(f"{emu.api_key}:".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}", "Content-Type": "application/json"}

    async def call(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        url = self.emu.base_url_for("v1") + path
        data = json.dumps(body).encode()
        async with self.session.request(
            method, url, data=data, headers=self.headers, ssl=self.emu.ssl_context
        ) as response:
            return response.status, await response.json()

    async def plan(self) -> str:
        status, plan = await self.call(
            "POST", "/plans", {"title": "t", "starts": {"day": 1, "month": 1, "year": 2027}}
        )
        assert status == 200
        plan_id: str = plan["id"]
        return plan_id


@pytest_asyncio.fixture
async def v1_api() -> AsyncIterator[_V1]:
    async with Emulator() as emu, aiohttp.ClientSession() as session:
        yield _V1(session, emu)
        assert emu.internal_errors == []


async def test_every_known_difference_has_a_test() -> None:
    assert {difference.name for difference in V1.KNOWN_DIFFERENCES} == TESTED
    assert all((d.patch is not None) == (d.side == "response") for d in V1.KNOWN_DIFFERENCES)


async def test_validation_catches_a_wrong_body() -> None:
    errors = V1.response_errors("/depots/{depotId}", "get", 200, {"id": "depots/d", "name": 5})
    assert any("name" in error for error in errors)
    assert any("routeOverrides" in error for error in errors)
    assert V1.response_errors("/depots/{depotId}:setMain", "post", 204, None) == []


async def test_error_one_of_overlap(v1_api: _V1) -> None:
    # "Depot not found" matches both the "Driver not found" branch (any message) and
    # the "Depot not found" branch of the 404 oneOf: no body can be valid under it.
    body = {"title": "t", "starts": {"day": 1, "month": 1, "year": 2027}, "depot": "depots/nowhere"}
    status, answer = await v1_api.call("POST", "/plans", body)
    assert (status, answer["message"]) == (404, "Depot not found")
    errors = V1.response_errors("/plans", "post", 404, answer, without="error_one_of_overlap")
    assert any("valid under each of" in error for error in errors)
    assert V1.response_errors("/plans", "post", 404, answer) == []


async def test_request_attempt_duration(v1_api: _V1) -> None:
    plan = await v1_api.plan()
    zero = {"address": {"city": "Bath"}, "timing": {"estimatedAttemptDuration": 0}}
    assert V1.request_errors(STOPS, "post", zero) == []
    status, answer = await v1_api.call("POST", f"/{plan}/stops", zero)
    # The official schema states no lower bound: the emulator takes it, as a service driven by it.
    assert (status, answer["timing"]["estimatedAttemptDuration"]) == (200, 0)


async def test_request_time_of_day(v1_api: _V1) -> None:
    plan = await v1_api.plan()
    body = {"address": {"city": "Bath"}, "timing": {"latestAttemptTime": {"hour": 24, "minute": 0}}}
    assert V1.request_errors(STOPS, "post", body) == []
    status, answer = await v1_api.call("POST", f"/{plan}/stops", body)
    assert (status, answer["param"]) == (400, "timing.latestAttemptTime.hour")
