"""Pagination and filters (contract, Pagination; Limits for maxPageSize)."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.conftest import Api, FakeClock

pytestmark = pytest.mark.asyncio

SLOW_OPTIMIZATIONS = pytest.mark.route_planning_emulator(
    clock=FakeClock(), instant_optimization_max_stops=0, optimization_delay=600.0
)
"""Optimizations that run until the test moves the fake clock by a second."""


async def collect(api: Api, path: str, key: str, params: dict[str, str] | None = None) -> list[list[Any]]:
    """Every page of a list, re-sending the original parameters with each token."""
    pages: list[list[Any]] = []
    token: str | None = None
    while True:
        query = dict(params or {})
        if token is not None:
            query["pageToken"] = token
        page = await api.ok("GET", path, params=query)
        pages.append(page[key])
        token = page["nextPageToken"]
        if token is None:
            return pages


async def test_plans_default_page_size_is_10_and_pages_cover_everything(api: Api) -> None:
    ids = [(await api.plan(title=f"P{i}"))["id"] for i in range(23)]
    pages = await collect(api, "/plans", "plans")
    assert [len(page) for page in pages] == [10, 10, 3]
    assert [p["id"] for page in pages for p in page] == ids


async def test_exact_multiple_ends_without_an_empty_page(api: Api) -> None:
    for i in range(4):
        await api.plan(title=f"P{i}")
    pages = await collect(api, "/plans", "plans", {"maxPageSize": "2"})
    assert [len(page) for page in pages] == [2, 2]


async def test_stops_max_page_size_range(api: Api) -> None:
    plan = await api.plan()
    ids = await api.import_stops(plan["id"], 25)
    pages = await collect(api, f"/{plan['id']}/stops", "stops", {"maxPageSize": "10"})
    assert [len(page) for page in pages] == [10, 10, 5]
    assert [s["id"] for page in pages for s in page] == ids
    for bad in ("0", "11", "-1", "2.5", "ten"):
        answer = await api.call("GET", f"/{plan['id']}/stops", params={"maxPageSize": bad})
        assert (answer.status, answer.body["param"]) == (400, "maxPageSize"), bad


@pytest.mark.parametrize(("path", "maximum", "default"), [("/plans", 20, 10), ("/unassignedStops", 20, 20)])
async def test_max_page_size_ranges_of_plans_and_unassigned(
    api: Api, path: str, maximum: int, default: int
) -> None:
    assert (await api.call("GET", path, params={"maxPageSize": str(maximum)})).status == 200
    answer = await api.call("GET", path, params={"maxPageSize": str(maximum + 1)})
    assert (answer.status, answer.body["param"]) == (400, "maxPageSize")
    for i in range(default + 1):
        if path == "/plans":
            await api.plan(title=f"P{i}")
        else:
            await api.ok("POST", "/unassignedStops", {"address": {"zip": f"Z{i}"}})
    first = await api.ok("GET", path)
    assert len(first["plans" if path == "/plans" else "unassignedStops"]) == default
    assert first["nextPageToken"] is not None


async def test_a_page_request_with_different_parameters_is_400(api: Api) -> None:
    for i in range(3):
        await api.plan(title=f"Route {i}")
    first = await api.ok("GET", "/plans", params={"maxPageSize": "1", "filter[title]": "Route"})
    token = first["nextPageToken"]
    assert token
    answer = await api.call(
        "GET", "/plans", params={"maxPageSize": "2", "filter[title]": "Route", "pageToken": token}
    )
    assert (answer.status, answer.body["code"], answer.body["param"]) == (
        400,
        "invalid_page_token",
        "pageToken",
    )
    # Dropping a parameter is a difference too.
    answer = await api.call("GET", "/plans", params={"maxPageSize": "1", "pageToken": token})
    assert answer.status == 400
    answer = await api.call(
        "GET", "/plans", params={"maxPageSize": "1", "filter[title]": "Route", "pageToken": token}
    )
    assert answer.status == 200
    # The same page can be asked for again (a retried GET).
    again = await api.call(
        "GET", "/plans", params={"maxPageSize": "1", "filter[title]": "Route", "pageToken": token}
    )
    assert again.body == answer.body


async def test_unknown_and_malformed_tokens_are_400(api: Api) -> None:
    for token in ("not-a-token", "x" * 256, ""):
        answer = await api.call("GET", "/plans", params={"pageToken": token})
        assert (answer.status, answer.body["param"]) == (400, "pageToken"), token


async def test_a_token_belongs_to_its_list(api: Api) -> None:
    for i in range(2):
        await api.plan(title=f"P{i}")
    token = (await api.ok("GET", "/plans", params={"maxPageSize": "1"}))["nextPageToken"]
    answer = await api.call("GET", "/unassignedStops", params={"maxPageSize": "1", "pageToken": token})
    assert answer.status == 400


async def test_deleting_between_pages_skips_nothing(api: Api) -> None:
    ids = [(await api.plan(title=f"P{i}"))["id"] for i in range(6)]
    first = await api.ok("GET", "/plans", params={"maxPageSize": "3"})
    await api.ok("DELETE", f"/{ids[0]}")
    await api.ok("DELETE", f"/{ids[4]}")
    second = await api.ok("GET", "/plans", params={"maxPageSize": "3", "pageToken": first["nextPageToken"]})
    assert [p["id"] for p in second["plans"]] == [ids[3], ids[5]]
    assert second["nextPageToken"] is None


@pytest.mark.parametrize("form", ["filter[{}]", "filter.{}"])
async def test_plan_filters_in_both_forms(api: Api, form: str) -> None:
    await api.plan(title="Monday north", starts={"day": 1, "month": 5, "year": 2025})
    await api.plan(title="Tuesday north", starts={"day": 2, "month": 5, "year": 2025})
    await api.plan(title="Monday south", starts={"day": 5, "month": 5, "year": 2025})
    by_title = await api.ok("GET", "/plans", params={form.format("title"): "monday"})
    assert [p["title"] for p in by_title["plans"]] == ["Monday north", "Monday south"]
    by_date = await api.ok("GET", "/plans", params={form.format("startsGte"): "2025-05-02"})
    assert [p["title"] for p in by_date["plans"]] == ["Tuesday north", "Monday south"]
    both = await api.ok(
        "GET", "/plans", params={form.format("startsGte"): "2025-05-02", form.format("title"): "Mon"}
    )
    assert [p["title"] for p in both["plans"]] == ["Monday south"]


@pytest.mark.parametrize("form", ["filter[externalId]", "filter.externalId"])
async def test_stop_filter_external_id(api: Api, form: str) -> None:
    plan = await api.plan()
    body = [{"address": {"city": f"C{i}"}, "recipient": {"externalId": f"order-{i % 3}"}} for i in range(9)]
    await api.ok("POST", f"/{plan['id']}/stops:import", body)
    page = await api.ok("GET", f"/{plan['id']}/stops", params={form: "order-1"})
    assert [s["recipient"]["externalId"] for s in page["stops"]] == ["order-1"] * 3
    unassigned = await api.ok(
        "POST", "/unassignedStops", {"address": {"city": "U"}, "recipient": {"externalId": "u1"}}
    )
    page = await api.ok("GET", "/unassignedStops", params={form: "u1"})
    assert [s["id"] for s in page["unassignedStops"]] == [unassigned["id"]]


async def test_filter_pages_stay_filtered(api: Api) -> None:
    plan = await api.plan()
    body = [
        {"address": {"city": f"C{i}"}, "recipient": {"externalId": "x" if i % 2 else "y"}} for i in range(30)
    ]
    await api.ok("POST", f"/{plan['id']}/stops:import", body)
    pages = await collect(api, f"/{plan['id']}/stops", "stops", {"filter[externalId]": "x"})
    assert [len(page) for page in pages] == [10, 5]


@pytest.mark.parametrize(
    ("path", "params", "param"),
    [
        ("/plans", {"filter[externalId]": "x"}, "filter.externalId"),
        ("/plans", {"filter.startsGte": "2025-13-01"}, "filter.startsGte"),
        ("/plans", {"filter.startsGte": "01/05/2025"}, "filter.startsGte"),
        ("/plans", {"filter[title]": "t" * 256}, "filter.title"),
        ("/plans", {"sort": "title"}, "sort"),
        ("/depots", {"filter[title]": "x"}, "filter.title"),
        ("/team/customStopProperties", {"maxPageSize": "1"}, "maxPageSize"),
    ],
)
async def test_unknown_or_bad_query_parameters_are_400(
    api: Api, path: str, params: dict[str, str], param: str
) -> None:
    answer = await api.call("GET", path, params=params)
    assert (answer.status, answer.body["param"]) == (400, param)


async def test_both_forms_of_one_filter_at_once_are_400(api: Api) -> None:
    answer = await api.call("GET", "/plans", params={"filter[title]": "a", "filter.title": "a"})
    assert (answer.status, answer.body["param"]) == (400, "filter.title")


async def test_depots_paginate(api: Api) -> None:
    first = await api.ok("GET", "/depots", params={"maxPageSize": "1"})
    assert [d["id"] for d in first["depots"]] == ["depots/main"]
    second = await api.ok("GET", "/depots", params={"maxPageSize": "1", "pageToken": first["nextPageToken"]})
    assert [d["id"] for d in second["depots"]] == ["depots/north"]
    assert second["nextPageToken"] is None


async def optimizations(api: Api, count: int) -> list[str]:
    """Start ``count`` optimizations, one per new plan; their operation ids, oldest first."""
    ids: list[str] = []
    for i in range(count):
        plan = await api.plan(title=f"P{i}")
        await api.import_stops(plan["id"], 1)
        ids.append((await api.ok("POST", f"/{plan['id']}:optimize"))["id"])
    return ids


async def test_operations_pages_are_newest_first_with_a_default_of_20(api: Api) -> None:
    ids = await optimizations(api, 23)
    pages = await collect(api, "/operations", "operations")
    assert [len(page) for page in pages] == [20, 3]
    assert [op["id"] for page in pages for op in page] == ids[::-1]
    pages = await collect(api, "/operations", "operations", {"maxPageSize": "10"})
    assert [len(page) for page in pages] == [10, 10, 3]
    assert [op["id"] for page in pages for op in page] == ids[::-1]


async def test_operations_max_page_size_range(api: Api) -> None:
    assert (await api.call("GET", "/operations", params={"maxPageSize": "20"})).status == 200
    assert (await api.call("GET", "/operations", params={"maxPageSize": "1"})).status == 200
    for bad in ("0", "21", "-1", "2.5"):
        answer = await api.call("GET", "/operations", params={"maxPageSize": bad})
        assert (answer.status, answer.body["param"]) == (400, "maxPageSize"), bad


async def test_operations_started_between_pages_are_not_served_later(api: Api) -> None:
    ids = await optimizations(api, 3)
    first = await api.ok("GET", "/operations", params={"maxPageSize": "2"})
    assert [op["id"] for op in first["operations"]] == [ids[2], ids[1]]
    newer = await optimizations(api, 1)
    second = await api.ok(
        "GET", "/operations", params={"maxPageSize": "2", "pageToken": first["nextPageToken"]}
    )
    # The page goes on below the last one served: nothing skipped or repeated.
    assert [op["id"] for op in second["operations"]] == [ids[0]]
    assert second["nextPageToken"] is None
    fresh = await api.ok("GET", "/operations", params={"maxPageSize": "1"})
    assert [op["id"] for op in fresh["operations"]] == newer


async def test_an_operations_page_request_with_different_parameters_is_400(api: Api) -> None:
    await optimizations(api, 3)
    query = {"maxPageSize": "1", "filter[done]": "true"}
    token = (await api.ok("GET", "/operations", params=query))["nextPageToken"]
    assert token
    for changed in ({**query, "filter[done]": "false"}, {"maxPageSize": "1"}, {**query, "maxPageSize": "2"}):
        answer = await api.call("GET", "/operations", params={**changed, "pageToken": token})
        assert (answer.status, answer.body["code"], answer.body["param"]) == (
            400,
            "invalid_page_token",
            "pageToken",
        ), changed
    assert (await api.call("GET", "/operations", params={**query, "pageToken": token})).status == 200
    # A token of another list is refused too.
    answer = await api.call("GET", "/plans", params={"maxPageSize": "1", "pageToken": token})
    assert answer.status == 400


@SLOW_OPTIMIZATIONS
@pytest.mark.parametrize("form", ["filter[{}]", "filter.{}"])
async def test_operation_filters_in_both_forms(api: Api, form: str) -> None:
    finished = await optimizations(api, 2)
    assert isinstance(api.emu.config.clock, FakeClock)
    api.emu.config.clock.advance(1.0)
    running = await optimizations(api, 2)

    async def listed(params: dict[str, str]) -> list[str]:
        pages = await collect(api, "/operations", "operations", {"maxPageSize": "1", **params})
        return [op["id"] for page in pages for op in page]

    assert await listed({form.format("done"): "false"}) == running[::-1]
    assert await listed({form.format("done"): "true"}) == finished[::-1]
    every = await listed({form.format("type"): "plan_optimization"})
    assert every == (finished + running)[::-1]
    both = {form.format("done"): "false", form.format("type"): "plan_optimization"}
    assert await listed(both) == running[::-1]
    # Finishing moves an operation from one filter to the other.
    api.emu.config.clock.advance(1.0)
    assert await listed({form.format("done"): "false"}) == []
    assert await listed({form.format("done"): "true"}) == every


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"filter[done]": "yes"}, "filter.done"),
        ({"filter.done": "True"}, "filter.done"),
        ({"filter[done]": ""}, "filter.done"),
        ({"filter[type]": "plan_import"}, "filter.type"),
        ({"filter[targetPlanId]": "plans/x"}, "filter.targetPlanId"),
        ({"filter[done]": "true", "filter.done": "true"}, "filter.done"),
        ({"pageToken": "not-a-token"}, "pageToken"),
        ({"order": "asc"}, "order"),
    ],
)
async def test_bad_operation_list_queries_are_400(api: Api, params: dict[str, str], param: str) -> None:
    answer = await api.checked("GET", "/operations", "/operations", params=params)
    assert (answer.status, answer.body["param"]) == (400, param)
