"""v1 webhook events: ``version`` v1, the stop in v1's shape, signed with ``spoke-signature`` only."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from emulator.openapi import V1
from route_planning_async import ConfigurationError
from route_planning_async.emulator import Emulator
from route_planning_async.webhooks import SIGNATURE_HEADER, verify_signature

SECRET = "v1-webhook-secret"
STARTS = {"day": 2, "month": 3, "year": 2026}


async def _distribute_one_stop(emu: Emulator) -> None:
    headers = {"Authorization": f"Bearer {emu.api_key}"}
    base = emu.base_url_for("v1")
    async with aiohttp.ClientSession(headers=headers) as session:

        async def post(path: str, body: Any = None) -> Any:
            async with session.post(base + path, json=body, ssl=emu.ssl_context) as response:
                assert response.status == 200, await response.text()
                return await response.json()

        plan = await post("/plans", {"title": "Hooks", "starts": STARTS, "drivers": ["drivers/driver-ana"]})
        await post(
            f"/{plan['id']}/stops", {"address": {"addressLineOne": "1 High Street"}, "clientId": "w-1"}
        )
        await post(f"/{plan['id']}:optimize")
        await post(f"/{plan['id']}:distribute")


@pytest.mark.asyncio
@pytest.mark.parametrize("version", ["v1", "v0.2b"])
async def test_webhook_events_carry_their_version_and_only_the_spoke_signature(version: str) -> None:
    received: list[tuple[dict[str, str], bytes]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append((dict(request.headers), await request.read()))
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook", hook)
    async with TestServer(app) as receiver:
        url = str(receiver.make_url("/hook"))
        async with Emulator(
            speedup=1000, webhook_url=url, webhook_secret=SECRET, webhook_version=version
        ) as emu:
            await _distribute_one_stop(emu)
            await emu.webhooks.drain()
    assert len(received) == 1
    headers, body = received[0]
    signatures = {name.lower() for name in headers if "signature" in name.lower()}
    assert signatures == {SIGNATURE_HEADER}
    assert verify_signature(body, headers[SIGNATURE_HEADER], SECRET)
    event = json.loads(body)
    assert (event["type"], event["version"]) == ("stop.allocated", version)
    stop = event["data"]
    if version == "v1":
        assert stop["clientId"] == "w-1"
        assert stop["eta"]["status"] == "available"
        assert stop["allowedDrivers"] == []
        errors = V1.response_errors("/plans/{planId}/stops/{stopId}", "get", 200, stop)
        assert errors == []
    else:
        assert stop["circuitClientId"] == "w-1"


def test_a_webhook_version_the_emulator_does_not_serve_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="no API version 'v9'"):
        Emulator(webhook_url="http://127.0.0.1:9/hook", webhook_version="v9")
