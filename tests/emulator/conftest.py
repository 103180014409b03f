"""Fixtures for the emulator's tests: a running emulator and a raw HTTP client for it.

The tests speak HTTP through aiohttp directly (never through the library's client),
so they check the emulator against the contract, not against the client.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import attrs
import pytest
import pytest_asyncio

from route_planning_async import RateLimits
from route_planning_async.emulator import Emulator, EmulatorConfig
from route_planning_async.emulator.pytest_plugin import (
    MARKER,
    pytest_configure,
    route_planning_client,
    route_planning_emulator,
)

from .openapi import validate_response

__all__ = [
    "Answer",
    "Api",
    "open_api",
    "pytest_configure",
    "route_planning_client",
    "route_planning_emulator",
]

SPEEDUP = 1000.0
"""Tests run the emulator 1000 times faster: a minute of rate limit lasts 60 ms."""

TEST_LIMITS = RateLimits.unlimited()
"""Most tests check behaviour, not pacing; rate-limit tests set ``rate_limits`` with the marker."""

_UNSET: Any = object()


@pytest.fixture
def route_planning_emulator_config(request: pytest.FixtureRequest) -> EmulatorConfig:
    """Test defaults (sped up), then ``@pytest.mark.route_planning_emulator(...)`` overrides."""
    overrides: dict[str, Any] = {"speedup": SPEEDUP, "rate_limits": TEST_LIMITS}
    for marker in reversed(list(request.node.iter_markers(MARKER))):
        overrides.update(marker.kwargs)
    return EmulatorConfig(**overrides)


@pytest.fixture
def emu(route_planning_emulator: Emulator) -> Emulator:
    """The running emulator."""
    return route_planning_emulator


@attrs.define
class FakeClock:
    """A server clock the test moves by hand (pass it as ``clock=``)."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@attrs.frozen
class Answer:
    """One HTTP answer."""

    status: int
    body: Any
    headers: Mapping[str, str]
    raw: bytes


def basic(key: str) -> str:
    """``Basic base64("<key>:")``."""
    return "Basic " + base64.b64encode(f"{key}:".encode()).decode()


class Api:
    """Raw HTTP calls to the emulator, with a few shortcuts for common set-ups."""

    def __init__(self, session: aiohttp.ClientSession, emulator: Emulator) -> None:
        self.session = session
        self.emu = emulator

    async def call(
        self,
        method: str,
        path: str,
        body: Any = _UNSET,
        *,
        data: bytes | io.BytesIO | None = None,
        headers: Mapping[str, str] | None = None,
        params: Any = None,
        auth: str | None = _UNSET,
    ) -> Answer:
        """``method`` ``base_url + path``; ``body`` is sent as JSON with its Content-Type."""
        sent = {"Authorization": basic(self.emu.api_key)} if auth is _UNSET else {}
        if auth is not _UNSET and auth is not None:
            sent["Authorization"] = auth
        if body is not _UNSET:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        async with self.session.request(
            method, self.emu.base_url + path, data=data, headers=sent, params=params, ssl=self.emu.ssl_context
        ) as response:
            raw = await response.read()
            try:
                parsed = json.loads(raw) if raw and response.content_type == "application/json" else None
            except ValueError:
                parsed = None  # the malformed_json fault
            return Answer(response.status, parsed, response.headers, raw)

    async def checked(
        self, method: str, template: str, path: str, body: Any = _UNSET, **kwargs: Any
    ) -> Answer:
        """The call, with its answer validated against the OpenAPI ``template``'s schema."""
        answer = await self.call(method, path, body, **kwargs)
        validate_response(template, method, answer.status, answer.body)
        return answer

    async def ok(self, method: str, path: str, body: Any = _UNSET, **kwargs: Any) -> Any:
        """The call's JSON body, asserting a 2xx answer."""
        answer = await self.call(method, path, body, **kwargs)
        assert 200 <= answer.status < 300, (answer.status, answer.body)
        return answer.body

    async def plan(self, **fields: Any) -> dict[str, Any]:
        """A new plan (two drivers, a recent date) with ``fields`` overriding."""
        body = {
            "title": "Test plan",
            "starts": {"day": 2, "month": 6, "year": 2025},
            "drivers": ["drivers/driver-ana", "drivers/driver-ben"],
            **fields,
        }
        plan: dict[str, Any] = await self.ok("POST", "/plans", body)
        return plan

    async def import_stops(self, plan_id: str, count: int, *, start: int = 0, **extra: Any) -> list[str]:
        """Import ``count`` geocodable stops; returns their ids."""
        stops = [
            {"address": {"addressLineOne": f"{i} Test Street", "city": "London"}, **extra}
            for i in range(start, start + count)
        ]
        ids: list[str] = []
        for offset in range(0, len(stops), 100):
            result = await self.ok("POST", f"/{plan_id}/stops:import", stops[offset : offset + 100])
            assert result["failed"] == []
            ids.extend(result["success"])
        return ids

    async def optimized_plan(self, stops: int = 6, **fields: Any) -> dict[str, Any]:
        """A plan with ``stops`` stops, optimized (small plans finish at once)."""
        plan = await self.plan(**fields)
        await self.import_stops(plan["id"], stops)
        operation = await self.ok("POST", f"/{plan['id']}:optimize")
        assert operation["done"] is True
        optimized: dict[str, Any] = await self.ok("GET", f"/{plan['id']}")
        return optimized


@contextlib.asynccontextmanager
async def open_api(emulator: Emulator) -> AsyncIterator[Api]:
    """Raw HTTP access to an emulator started by the test itself."""
    async with aiohttp.ClientSession() as session:
        yield Api(session, emulator)
    assert emulator.internal_errors == [], emulator.internal_errors


@pytest_asyncio.fixture
async def api(emu: Emulator) -> AsyncIterator[Api]:
    """Raw HTTP access to ``emu``."""
    async with open_api(emu) as opened:
        yield opened
