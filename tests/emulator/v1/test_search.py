"""``GET /stops:search``: the handler over the search (keyword, filter, sort, pages, bad parameters)."""

from __future__ import annotations

import pytest

from .conftest import V1Api

STARTS = {"day": 2, "month": 3, "year": 2026}


async def _stops(api: V1Api) -> str:
    plan = await api.ok("POST", "/plans", {"title": "Search", "starts": STARTS})
    bodies = [
        {
            "address": {"addressLineOne": f"{n} {street}", "city": "London"},
            "recipient": {"externalId": f"ext-{n}", "name": name},
            "packageCount": n,
            "orderInfo": {"invoiceNumber": f"INV-{n}"},
        }
        for n, street, name in (
            (1, "Baker Street", "Holmes"),
            (2, "Abbey Road", "Ringo"),
            (3, "Baker Street", "Watson"),
            (4, "Fleet Street", "Todd"),
        )
    ]
    await api.ok("POST", f"/{plan['id']}/stops:import", bodies)
    await api.ok(
        "POST", "/unassignedStops", {"address": {"addressLineOne": "5 Baker Street"}, "notes": "later"}
    )
    return str(plan["id"])


def _ids(answer: dict[str, object]) -> list[str]:
    items = answer["stops"]
    assert isinstance(items, list)
    return [item[item["type"]]["recipient"]["name"] or item["type"] for item in items]


@pytest.mark.asyncio
async def test_the_search_filters_sorts_and_matches_keywords(api: V1Api) -> None:
    plan_id = await _stops(api)
    by_filter = await api.ok(
        "GET",
        "/stops:search",
        params={
            "filter": f'planId = "{plan_id}" and packageCount >= 2',
            "sortField": "packageCount",
            "sortOrder": "desc",
        },
    )
    assert _ids(by_filter) == ["Todd", "Watson", "Ringo"]
    by_invoice = await api.ok("GET", "/stops:search", params={"filter": 'orderInfo.invoiceNumber = "INV-3"'})
    assert _ids(by_invoice) == ["Watson"]
    by_keyword = await api.ok("GET", "/stops:search", params={"keyword": "Baker"})
    assert sorted(_ids(by_keyword)) == ["Holmes", "Watson", "unassignedStop"]
    nothing = await api.ok("GET", "/stops:search", params={"filter": 'notes = "no such note"'})
    assert nothing == {"stops": [], "nextPageToken": None}


@pytest.mark.asyncio
async def test_the_search_pages_with_its_token(api: V1Api) -> None:
    await _stops(api)
    query = {"sortField": "packageCount", "maxPageSize": "2"}
    first = await api.ok("GET", "/stops:search", params=query)
    second = await api.ok("GET", "/stops:search", params={**query, "pageToken": first["nextPageToken"]})
    third = await api.ok("GET", "/stops:search", params={**query, "pageToken": second["nextPageToken"]})
    assert _ids(first) + _ids(second) + _ids(third) == ["Holmes", "Ringo", "Watson", "Todd", "unassignedStop"]
    assert third["nextPageToken"] is None
    changed = await api.checked(
        "GET", "/stops:search", params={**query, "sortOrder": "desc", "pageToken": first["nextPageToken"]}
    )
    assert (changed.status, changed.body["param"]) == (400, "pageToken")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"filter": "packageCount >"}, "filter"),
        ({"filter": 'nosuchfield = "x"'}, "filter"),
        ({"filter": 'packageCount = "many"'}, "filter"),
        ({"sortField": "notes"}, "sortField"),
        ({"sortOrder": "sideways"}, "sortOrder"),
        ({"maxPageSize": "21"}, "maxPageSize"),
        ({"keyword": ""}, "keyword"),
        ({"filter": "x" * 2049}, "filter"),
    ],
)
async def test_bad_search_parameters_are_answered_400_naming_them(
    api: V1Api, params: dict[str, str], param: str
) -> None:
    answer = await api.checked("GET", "/stops:search", params=params)
    assert answer.status == 400
    assert answer.body["param"] == param


@pytest.mark.asyncio
@pytest.mark.parametrize("keyword", ["", "k" * 256])
async def test_a_keyword_out_of_bounds_is_told_its_own_bounds(api: V1Api, keyword: str) -> None:
    # The official file: keyword 1 to 255 characters (filter's bound, 2,048, is another).
    answer = await api.checked("GET", "/stops:search", params={"keyword": keyword})
    assert answer.status == 400
    assert answer.body["message"] == f"keyword: must be 1 to 255 characters long, got {len(keyword)}"


class _Clock:
    """A wall clock an hour later at each reading."""

    def __init__(self) -> None:
        self.now = 1_780_000_000.0

    def __call__(self) -> float:
        self.now += 3600
        return self.now


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(wall_clock=_Clock())
async def test_the_search_reads_when_each_stop_was_made(api: V1Api) -> None:
    plan = await api.ok("POST", "/plans", {"title": "Made", "starts": STARTS})
    for name in ("First", "Second", "Third"):
        await api.ok(
            "POST",
            f"/{plan['id']}/stops",
            {"address": {"addressLineOne": "1 Road"}, "recipient": {"name": name}},
        )
    oldest_first = await api.ok("GET", "/stops:search", params={"sortField": "createdAt"})
    assert _ids(oldest_first) == ["First", "Second", "Third"]
    newest_first = await api.ok(
        "GET", "/stops:search", params={"sortField": "createdAt", "sortOrder": "desc"}
    )
    assert _ids(newest_first) == ["Third", "Second", "First"]
    since = await api.ok("GET", "/stops:search", params={"filter": 'createdAt >= "2026-01-01"'})
    assert len(since["stops"]) == 3
    before = await api.ok("GET", "/stops:search", params={"filter": 'createdAt < "2026-01-01T00:00:00Z"'})
    assert before["stops"] == []


@pytest.mark.asyncio
async def test_a_filter_nested_1000_deep_is_one_400_naming_the_filter(api: V1Api) -> None:
    text = "(" * 1000 + 'notes = "x"' + ")" * 1000
    answer = await api.checked("GET", "/stops:search", params={"filter": text})
    assert answer.status == 400
    assert (answer.body["code"], answer.body["param"]) == ("invalid_argument", "filter")
    assert "at most 64 levels" in answer.body["message"]
    assert api.emu.internal_errors == []


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"sortField": "packageCount"},
        {"sortField": "packageCount", "sortOrder": "desc"},
        {"keyword": "Street"},
    ],
)
async def test_deleting_stops_already_seen_between_pages_skips_and_repeats_none(
    api: V1Api, params: dict[str, str]
) -> None:
    plan = await api.ok("POST", "/plans", {"title": "Paged", "starts": STARTS})
    bodies = [
        {
            "address": {
                "addressLineOne": f"{n} {'Long Street' if n % 3 else 'Short Street'}",
                "city": "London",
            },
            "recipient": {"name": f"stop-{n}"},
            "packageCount": 1 + n % 4,  # ties, broken by the documents' order
        }
        for n in range(30)
    ]
    await api.ok("POST", f"/{plan['id']}/stops:import", bodies)
    seen: list[str] = []
    deleted: set[str] = set()
    ids: dict[str, str] = {}
    query = {**params, "maxPageSize": "5"}
    token: str | None = None
    while True:
        page = await api.ok(
            "GET", "/stops:search", params={**query, **({"pageToken": token} if token else {})}
        )
        for item in page["stops"]:
            stop = item["stop"]
            seen.append(stop["recipient"]["name"])
            ids[stop["recipient"]["name"]] = stop["id"]
        # Two stops already seen (the last of this page among them) are deleted before the next page.
        for name in [seen[-1], *[n for n in seen if n not in deleted][:1]]:
            if name not in deleted:
                await api.ok("DELETE", f"/{ids[name]}")
                deleted.add(name)
        token = page["nextPageToken"]
        if token is None:
            break
    assert len(seen) == len(set(seen)), "a stop was served twice"
    assert set(seen) == {f"stop-{n}" for n in range(30)}, "a stop never deleted was skipped"
