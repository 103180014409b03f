"""The client's paginators, through a scripted transport.

Every page request resends the original parameters plus the page token; pages
expose their items and tokens; a listing can resume from a token; a token that
comes back twice, or one that cannot be sent, ends the iteration with an error
rather than a loop. (The emulator's own paging is ``emulator/test_pagination.py``'s.)
"""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from support.fake_transport import FakeService, answer
from support.fixtures import load, scripted_client

import route_planning_async as rp

pytestmark = pytest.mark.asyncio

BASE = "https://api.example.test/public/v0.2b"


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest_asyncio.fixture
async def client(service: FakeService) -> AsyncIterator[rp.RoutePlanningClient]:
    async with scripted_client(service) as opened:
        yield opened


async def test_pagination_resends_every_original_parameter(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    first, second = load("plan.json"), {**load("plan.json"), "id": "plans/p2"}
    service.on(
        "GET",
        "/plans",
        answer({"plans": [first], "nextPageToken": "page-2"}),
        answer({"plans": [second], "nextPageToken": "page-3"}),
        answer({"plans": [], "nextPageToken": None}),
    )

    paginator = client.plans.list(
        filter={"startsGte": datetime.date(2026, 11, 1), "title": "Monday"}, max_page_size=2
    )
    plans = [plan.id async for plan in paginator]

    assert plans == ["plans/p1", "plans/p2"]
    original = (("maxPageSize", "2"), ("filter[startsGte]", "2026-11-01"), ("filter[title]", "Monday"))
    assert [(sent.method, sent.path, sent.query) for sent in service.sent] == [
        ("GET", "/plans", original),
        ("GET", "/plans", (*original, ("pageToken", "page-2"))),
        ("GET", "/plans", (*original, ("pageToken", "page-3"))),
    ]


async def test_pages_expose_items_and_tokens(service: FakeService, client: rp.RoutePlanningClient) -> None:
    service.on(
        "GET",
        "/plans/p1/stops",
        answer({"stops": [load("stop.json")], "nextPageToken": "t2"}),
        answer({"stops": [load("stop_unoptimized.json")], "nextPageToken": None}),
    )
    pages = [page async for page in client.stops.list("p1").pages()]
    assert all(isinstance(page, rp.Page) for page in pages)
    assert [page.next_page_token for page in pages] == ["t2", None]
    assert [[stop.id for stop in page.items] for page in pages] == [
        ["plans/p1/stops/s1"],
        ["plans/p1/stops/s2"],
    ]
    assert [sent.query for sent in service.sent] == [(), (("pageToken", "t2"),)]


async def test_list_can_resume_from_a_page_token(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on("GET", "/unassignedStops", answer({"unassignedStops": [], "nextPageToken": None}))
    assert await client.unassigned_stops.list(max_page_size=5, page_token="resume-here").collect() == []
    [sent] = service.sent
    assert sent.query == (("maxPageSize", "5"), ("pageToken", "resume-here"))


async def test_a_repeated_page_token_stops_the_iteration(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on("GET", "/depots", forever=answer({"depots": [load("depot.json")], "nextPageToken": "same"}))
    with pytest.raises(rp.RoutePlanningError, match="twice"):
        await client.depots.list().collect()
    assert [sent.query for sent in service.sent] == [(), (("pageToken", "same"),)]


async def test_an_unusable_page_token_stops_the_iteration(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on("GET", "/depots", answer({"depots": [load("depot.json")], "nextPageToken": ""}))
    with pytest.raises(rp.RoutePlanningError, match="unusable page token"):
        await client.depots.list().collect()
    assert len(service.sent) == 1


async def test_a_page_token_over_the_bound_stops_the_iteration_and_is_not_printed_whole(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    long = "secret-looking-token-" * 20
    service.on("GET", "/depots", answer({"depots": [load("depot.json")], "nextPageToken": long}))
    with pytest.raises(rp.RoutePlanningError, match="unusable page token") as raised:
        await client.depots.list().collect()
    assert "1 to 255 characters, got 420" in str(raised.value)
    assert long not in str(raised.value)
    assert len(service.sent) == 1


async def test_a_page_token_or_filter_with_a_lone_surrogate_is_refused_before_sending(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    lone = "caf\udce9"  # "café" read as Latin-1 bytes with surrogateescape
    with pytest.raises(rp.ValidationError, match="page_token: cannot be encoded as UTF-8"):
        client.plans.list(page_token=lone)
    with pytest.raises(rp.ValidationError, match=r"filter\[title\]: cannot be encoded as UTF-8"):
        client.plans.list(filter={"title": lone})
    assert service.sent == []
