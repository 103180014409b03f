"""The emulator starts, serves HTTPS on loopback and answers an authenticated call."""

from __future__ import annotations

import pytest

from route_planning_async.emulator import Emulator

from .conftest import Api


@pytest.mark.asyncio
async def test_serves_https_on_loopback(emu: Emulator, api: Api) -> None:
    assert emu.base_url.startswith("https://127.0.0.1:")
    assert emu.base_url.endswith("/public/v0.2b")
    answer = await api.call("GET", "/depots")
    assert answer.status == 200
    assert answer.body["depots"][0] == {"id": "depots/main", "name": "Main depot"}
