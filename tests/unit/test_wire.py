"""What the aiohttp transport hands aiohttp, seen through aioresponses (aiohttp < 3.14).

The headers (Authorization, User-Agent, Accept; Content-Type only with a body),
the base URL joined with the path, and the query string as aiohttp sends it.
Request shapes that do not depend on aiohttp (method, path, parameters, body)
are ``test_requests.py``'s, through a scripted transport.
"""

from __future__ import annotations

import base64
import re
from collections.abc import AsyncIterator, Iterator

import attrs
import pytest
import pytest_asyncio
import yarl

pytest.importorskip("aioresponses")

from aioresponses import aioresponses
from support.fixtures import load

import route_planning_async as rp

pytestmark = [pytest.mark.aioresponses, pytest.mark.asyncio]

BASE = "https://api.example.test/public/v0.2b"
KEY = "test-key-5f3a"


def url_pattern(path: str) -> re.Pattern[str]:
    """``BASE + path`` with any query string."""
    return re.compile(re.escape(BASE + path) + r"(\?.*)?$")


@attrs.frozen
class Sent:
    """One request as aiohttp was asked to send it."""

    method: str
    url: yarl.URL
    """The URL aiohttp joined, with the query merged in (aioresponses sorts its items)."""
    params: tuple[tuple[str, str], ...]
    """The query parameters, in the order the transport handed them to aiohttp."""
    headers: dict[str, str]
    raw: bytes | None


def sent(mocked: aioresponses) -> list[Sent]:
    """Every request that reached aioresponses, in order of first appearance."""
    return [
        Sent(
            method=method,
            url=url,
            params=tuple(call.kwargs.get("params") or ()),
            headers=dict(call.kwargs.get("headers") or {}),
            raw=call.kwargs.get("data"),
        )
        for (method, url), calls in mocked.requests.items()
        for call in calls
    ]


def make_client(auth: rp._core.AuthScheme = "basic", base_url: str = BASE) -> rp.RoutePlanningClient:
    return rp.RoutePlanningClient(
        KEY,
        base_url=base_url,
        auth=auth,
        rate_limits=rp.RateLimits.unlimited(),
        retry=rp.RetryPolicy(attempts=1),
    )


@pytest.fixture
def mocked() -> Iterator[aioresponses]:
    with aioresponses() as m:
        yield m


@pytest_asyncio.fixture
async def client(mocked: aioresponses) -> AsyncIterator[rp.RoutePlanningClient]:
    async with make_client() as opened:
        yield opened


async def test_basic_auth_and_user_agent(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.get(f"{BASE}/plans/p1", payload=load("plan.json"))
    await client.plans.get("p1")
    [request] = sent(mocked)
    expected = base64.b64encode(f"{KEY}:".encode()).decode()
    assert request.headers["Authorization"] == f"Basic {expected}"
    assert request.headers["User-Agent"].startswith("route_planning_async/")
    assert request.headers["Accept"] == "application/json"


async def test_bearer_auth(mocked: aioresponses) -> None:
    mocked.get(f"{BASE}/plans/p1", payload=load("plan.json"))
    async with make_client(auth="bearer") as client:
        await client.plans.get("p1")
    [request] = sent(mocked)
    assert request.headers["Authorization"] == f"Bearer {KEY}"


async def test_content_type_only_with_a_body(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.patch(f"{BASE}/plans/p1", payload=load("plan.json"))
    for action in ("optimize", "distribute", "redistribute", "save"):
        mocked.post(
            f"{BASE}/plans/p1:{action}",
            payload=load("plan.json") if action != "optimize" else load("operation_running.json"),
        )
    mocked.post(f"{BASE}/plans/p1/stops/s1:liveDelete", payload={"pending": True})
    mocked.get(f"{BASE}/plans/p1", payload=load("plan.json"))
    mocked.delete(f"{BASE}/plans/p1", payload={})

    await client.plans.update("p1", title="Renamed")
    await client.plans.optimize("p1")
    await client.plans.distribute("p1")
    await client.plans.redistribute("p1")
    await client.plans.save("p1")
    await client.stops.live_delete("plans/p1/stops/s1")
    await client.plans.get("p1")
    await client.plans.delete("p1")

    with_body, *without_body = sent(mocked)
    assert (with_body.method, with_body.raw) == ("PATCH", b'{"title":"Renamed"}')
    assert with_body.headers["Content-Type"] == "application/json"
    assert len(without_body) == 7
    for request in without_body:
        assert request.raw is None
        assert "Content-Type" not in request.headers
        # The Authorization header comes with every request, with a body or not.
        assert request.headers["Authorization"] == with_body.headers["Authorization"]


@pytest.mark.parametrize(
    "base_url",
    [
        "https://eu.example.test:8443/custom/prefix/public/v0.2b/",
        "https://eu.example.test:8443/custom/prefix/public/v0.2b",
    ],
)
async def test_any_https_base_url_works(mocked: aioresponses, base_url: str) -> None:
    mocked.get(
        "https://eu.example.test:8443/custom/prefix/public/v0.2b/depots/d1", payload={"id": "depots/d1"}
    )
    async with make_client(base_url=base_url) as client:
        depot = await client.depots.get("d1")
    assert depot == rp.Depot(id="depots/d1", name="")
    [request] = sent(mocked)
    assert str(request.url) == "https://eu.example.test:8443/custom/prefix/public/v0.2b/depots/d1"


async def test_the_query_string_as_aiohttp_sends_it(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    mocked.get(url_pattern("/plans"), payload={"plans": [], "nextPageToken": None})
    await client.plans.list(filter={"title": "Mon & Tue/é+1"}, max_page_size=2, page_token="a=b").collect()

    [request] = sent(mocked)
    ordered = (("maxPageSize", "2"), ("filter[title]", "Mon & Tue/é+1"), ("pageToken", "a=b"))
    # Handed to aiohttp as ordered pairs, not pre-encoded into the URL ...
    assert request.params == ordered
    assert str(request.url.with_query(None)) == f"{BASE}/plans"
    # ... which percent-encodes them: brackets, '&', '+', '=' and UTF-8 escaped,
    # so each value arrives intact.
    assert set(request.url.raw_query_string.split("&")) == {
        "maxPageSize=2",
        "filter%5Btitle%5D=Mon+%26+Tue/%C3%A9%2B1",
        "pageToken=a%3Db",
    }
    assert sorted(request.url.query.items()) == sorted(ordered)
