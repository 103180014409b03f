"""An answer the models cannot hold names the request it answered.

Before, a create whose answer lacked a required key raised ``DecodeError``
saying only "cannot decode the answer at id: a required key is missing (got
None)": no method, no URL, though every other error about a request carries
``method`` and ``request_url``. Now every ``DecodeError`` of a namespace call
does, in its attributes and at the start of its message.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from support.fake_transport import FakeService, answer
from support.fixtures import BASE_URL, scripted_client

import route_planning_async as rp

pytestmark = pytest.mark.asyncio

ADDRESS = rp.AddressInput(address_line_one="1 Main St", city="Springfield")

Call = Callable[[rp.RoutePlanningClient], Awaitable[Any]]


@pytest.mark.parametrize(
    ("method", "path", "call"),
    [
        ("POST", "/plans", lambda c: c.plans.create(title="Monday", starts=datetime.date(2026, 3, 2))),
        ("POST", "/plans/p1/stops", lambda c: c.stops.create("p1", rp.StopInput(address=ADDRESS))),
        (
            "POST",
            "/unassignedStops",
            lambda c: c.unassigned_stops.create(rp.UnassignedStopInput(address=ADDRESS)),
        ),
        ("POST", "/drivers", lambda c: c.drivers.create(rp.DriverInput(email="ana@example.com"))),
        ("GET", "/plans/p1", lambda c: c.plans.get("p1")),
        ("PATCH", "/plans/p1", lambda c: c.plans.update("p1", title="Tuesday")),
        ("POST", "/plans/p1:optimize", lambda c: c.plans.optimize("p1")),
        ("GET", "/operations/o1", lambda c: c.operations.get("o1")),
    ],
)
async def test_an_answer_missing_a_required_key_names_the_request(method: str, path: str, call: Call) -> None:
    service = FakeService()
    service.on(method, path, answer({}))
    async with scripted_client(service) as client:
        with pytest.raises(rp.DecodeError, match="a required key is missing") as info:
            await call(client)
    url = BASE_URL + path
    assert (info.value.method, info.value.request_url) == (method, url)
    assert str(info.value).startswith(f"{method} {url}: cannot decode the answer at ")
    assert info.value.path


async def test_a_list_item_missing_a_required_key_names_the_request() -> None:
    service = FakeService()
    service.on("GET", "/depots", answer({"depots": [{"name": "no id"}], "nextPageToken": None}))
    async with scripted_client(service) as client:
        with pytest.raises(rp.DecodeError, match=r"at \[0\]\.id: a required key is missing") as info:
            await client.depots.list().collect()
    assert (info.value.method, info.value.request_url) == ("GET", f"{BASE_URL}/depots")
    assert str(info.value).startswith(f"GET {BASE_URL}/depots: ")
