"""The emulator starts, serves HTTPS on loopback and answers an authenticated call."""

from __future__ import annotations

import pytest

from emulator.conftest import Api, basic
from route_planning_async import ConfigurationError
from route_planning_async.emulator import Emulator


@pytest.mark.asyncio
async def test_serves_https_on_loopback(emu: Emulator, api: Api) -> None:
    assert emu.base_url.startswith("https://127.0.0.1:")
    assert emu.base_url.endswith("/public/v0.2b")
    answer = await api.call("GET", "/depots")
    assert answer.status == 200
    assert answer.body["depots"][0] == {"id": "depots/main", "name": "Main depot"}


@pytest.mark.asyncio
async def test_each_version_has_its_base_url(emu: Emulator, api: Api) -> None:
    assert emu.base_url_for("v0.2b") == emu.base_url == emu.origin + "/public/v0.2b"
    assert emu.base_url_for("v1") == emu.origin + "/public/v1"
    with pytest.raises(ConfigurationError, match=r"no API version 'v2'; it serves v0\.2b, v1"):
        emu.base_url_for("v2")
    # A version the emulator does not serve has no endpoints.
    url, headers = emu.origin + "/public/v2/depots", {"Authorization": basic(emu.api_key)}
    async with api.session.get(url, headers=headers, ssl=emu.ssl_context) as answer:
        assert answer.status == 404
    assert emu.log.records[-1].outcome == "not_found"
