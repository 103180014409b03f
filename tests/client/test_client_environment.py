"""What the client takes from its environment: the key and the address, and aiohttp tracing.

``RoutePlanningClient()`` with no key reads ``ROUTE_PLANNING_API_KEY`` (and
``ROUTE_PLANNING_BASE_URL``), as the command line always has; ``trace_configs=``
reaches the aiohttp session the client creates.
"""

from __future__ import annotations

import types
from typing import Any

import aiohttp
import pytest

import route_planning_async as rp
from route_planning_async.emulator import Emulator

KEY = "sk-live-0123456789abcdef"


def test_no_key_reads_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_API_KEY", KEY)
    monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", "https://api.example.test/public/v0.2b")
    client = rp.RoutePlanningClient()
    assert client.base_url == "https://api.example.test/public/v0.2b"
    assert client._headers["Authorization"] == rp.RoutePlanningClient(KEY)._headers["Authorization"]


def test_no_key_and_no_variable_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTE_PLANNING_API_KEY", raising=False)
    with pytest.raises(rp.ConfigurationError, match="no api_key given and ROUTE_PLANNING_API_KEY is not set"):
        rp.RoutePlanningClient()


@pytest.mark.parametrize("value", ["", "   ", "key\r\nX-Injected: 1"])
def test_a_bad_key_in_the_variable_names_the_variable_not_the_value(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_API_KEY", value)
    with pytest.raises(rp.ConfigurationError, match=r"^ROUTE_PLANNING_API_KEY: api_key must") as caught:
        rp.RoutePlanningClient()
    assert "X-Injected" not in str(caught.value)


def test_an_explicit_key_wins_over_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_API_KEY", "from-the-environment")
    explicit = rp.RoutePlanningClient(KEY, auth="bearer")
    assert explicit._headers["Authorization"] == f"Bearer {KEY}"


@pytest.mark.asyncio
async def test_trace_configs_see_every_request_of_the_clients_own_session() -> None:
    started: list[tuple[str, str]] = []

    async def on_request_start(
        session: aiohttp.ClientSession, context: types.SimpleNamespace, params: Any
    ) -> None:
        started.append((params.method, params.url.path))

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    async with Emulator(speedup=60) as emu, emu.client(trace_configs=[trace]) as client:
        plans = await client.plans.list().collect()
        depots = await client.depots.list().collect()
    assert plans == []
    assert depots
    assert [method for method, _ in started] == ["GET", "GET"]
    assert started[0][1].endswith("/plans")
    assert started[1][1].endswith("/depots")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"trace_configs": ["not a trace config"]}, "trace_configs must be aiohttp.TraceConfig"),
        ({"trace_configs": [aiohttp.TraceConfig()], "transport": object()}, "trace_configs= applies"),
    ],
)
def test_bad_trace_configs_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(rp.ConfigurationError, match=message):
        rp.RoutePlanningClient(KEY, **kwargs)


@pytest.mark.parametrize(
    ("host", "problem"),
    [
        ("a" * 64 + ".example.com", "has a label longer than 63 characters"),
        ("api..example.com", "has an empty label"),
        ("xn--", "has a label IDNA cannot encode"),
        ("xn--.example.com", "has a label IDNA cannot encode"),
    ],
)
def test_a_host_no_request_can_reach_is_refused_where_the_url_is_given(
    monkeypatch: pytest.MonkeyPatch, host: str, problem: str
) -> None:
    url = f"https://{host}/public/v0.2b"
    with pytest.raises(rp.ConfigurationError, match=f"base_url's host {problem}"):
        rp.RoutePlanningClient("k", base_url=url)
    monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", url)
    with pytest.raises(rp.ConfigurationError, match=f"ROUTE_PLANNING_BASE_URL.*host {problem}"):
        rp.RoutePlanningClient("k")
    # A name IDNA encodes is taken.
    assert (
        rp.RoutePlanningClient("k", base_url="https://bücher.example/v").base_url
        == "https://xn--bcher-kva.example/v"
    )
