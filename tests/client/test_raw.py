"""``client.raw``: any endpoint, answered as the HTTP response itself, through the scheduler."""

from __future__ import annotations

import datetime

import pytest

import route_planning_async as rp
from route_planning_async.emulator import Emulator

pytestmark = pytest.mark.asyncio


async def test_a_raw_get_gives_the_status_headers_and_body_of_a_modelled_answer() -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        plan = await client.plans.create(title="Monday", starts=datetime.date(2026, 3, 2))
        answer = await client.raw.get(plan.id)
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("application/json")
        assert answer.json()["title"] == "Monday"
        assert client.stats[rp.Category.READ].requests == 1


async def test_an_error_status_is_returned_not_raised() -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        answer = await client.raw.get("/plans/nope")
        assert answer.status == 404
        assert not answer.ok
        assert answer.json()["code"] == "plan_not_found"


async def test_a_raw_post_with_a_body_goes_in_the_endpoints_category() -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        body = {"title": "Tuesday", "starts": {"day": 3, "month": 3, "year": 2026}}
        answer = await client.raw.request("post", "/plans", json=body)
        assert answer.status == 200
        assert answer.json()["title"] == "Tuesday"
        assert client.stats[rp.Category.WRITE].requests == 1
        [record] = emu.log.select(route="plans.create")
        assert record.category is rp.Category.WRITE


async def test_a_path_outside_the_table_needs_its_category() -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        with pytest.raises(rp.ValidationError, match="not in the endpoint table: give category="):
            await client.raw.get("/vehicles")
        answer = await client.raw.request("GET", "/vehicles", category="read")
        assert answer.status == 404
        assert len(emu.log) == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"method": "PUT", "path": "/plans"}, "method"),
        ({"method": "GET", "path": "../plans"}, "path"),
        ({"method": "GET", "path": "//evil.example/plans"}, "path"),
        ({"method": "GET", "path": "/plans?x=1"}, "path"),
        ({"method": "GET", "path": "/plans", "category": "optimize"}, "category"),
        ({"method": "GET", "path": "/plans", "category": "nope"}, "category"),
        ({"method": "POST", "path": "/plans/p1/stops:import", "weight": 0}, "weight"),
    ],
)
async def test_a_bad_raw_request_is_refused_before_anything_is_sent(
    kwargs: dict[str, object], field: str
) -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        with pytest.raises(rp.ValidationError) as caught:
            await client.raw.request(**kwargs)  # type: ignore[arg-type]
        assert caught.value.field == field
        assert len(emu.log) == 0


async def test_a_raw_batch_import_weighs_its_stops() -> None:
    # A 100-stop import counts 100 stops against the 1,000-stops-a-minute rule,
    # as the typed import_batch does, unless the caller gives a weight.
    async with Emulator(speedup=60) as emu, emu.client() as client:
        plan = await client.plans.create(title="Monday", starts=datetime.date(2026, 3, 2))
        stops = [{"address": {"addressLineOne": f"{n} Main St", "city": "London"}} for n in range(100)]
        answer = await client.raw.request("POST", f"{plan.id}/stops:import", json=stops)
        assert answer.status == 200
        assert len(answer.json()["success"]) == 100
        [record] = emu.log.select(route="stops.import_batch")
        assert record.weight == 100


@pytest.mark.parametrize(
    ("path", "category"),
    [
        # yarl removes dot segments before sending: each of these would reach
        # another endpoint than the one the category was chosen for.
        ("plans/./P:optimize", "read"),
        ("plans/./P/stops:import", "write"),
        ("/plans/P/./stops", "read"),
        ("./plans", "read"),
        ("plans/.", "read"),
        ("plans/P/..", "read"),
    ],
)
async def test_a_raw_path_with_dot_segments_is_refused_before_admission(path: str, category: str) -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        with pytest.raises(rp.ValidationError, match=r"'\.' or '\.\.' segment") as caught:
            await client.raw.request("POST", path, category=category, json=[{"x": 1}])
        assert caught.value.field == "path"
        assert repr(path) in str(caught.value)
        assert all(stats.requests == 0 for stats in client.stats.values())
        assert len(emu.log) == 0


async def test_a_raw_path_with_dots_inside_a_segment_is_still_accepted() -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        answer = await client.raw.request("GET", "/files/v1.2", category="read")
        assert answer.status == 404
        assert len(emu.log) == 1


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"x": None}, "query.x"),
        ({"x": True}, "query.x"),
        ({"x": float("nan")}, "query.x"),
        ({"x": float("inf")}, "query.x"),
        ({"x": b"bytes"}, "query.x"),
        ({"x": ["a", "b"]}, "query.x"),
        ({"x": "\ud800"}, "query.x"),
        ({1: "a"}, "query"),
        ([("x", None)], "query[0]"),
        ([("x",)], "query[0]"),
        (["xy"], "query[0]"),
        (b"x=1", "query"),
        ("x=1", "query"),
        (42, "query"),
    ],
)
async def test_a_bad_raw_query_is_refused_before_admission(query: object, field: str) -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        with pytest.raises(rp.ValidationError) as caught:
            await client.raw.request("GET", "/plans", query=query)  # type: ignore[arg-type]
        assert caught.value.field == field
        assert all(stats.requests == 0 for stats in client.stats.values())
        assert len(emu.log) == 0


async def test_a_raw_query_takes_str_int_and_float_values() -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        answer = await client.raw.get("/plans", query={"maxPageSize": 2})
        assert answer.status == 200
        answer = await client.raw.request("GET", "/plans", query=[("maxPageSize", "2")])
        assert answer.status == 200
        assert len(emu.log) == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"x": float("nan")}, "json.x"),
        ({"x": [1, float("inf")]}, "json.x[1]"),
        ({"x": -float("inf")}, "json.x"),
        (float("nan"), "json"),
        ({"x": {1, 2}}, "json.x"),
        ({"x": b"bytes"}, "json.x"),
        ({"x": object()}, "json.x"),
        ({1: "one"}, "json"),
        ({"a": {"b": "\ud800"}}, "json.a.b"),
    ],
)
async def test_a_raw_body_that_is_not_json_is_refused_before_admission(body: object, field: str) -> None:
    async with Emulator(speedup=60) as emu, emu.client() as client:
        with pytest.raises(rp.ValidationError) as caught:
            await client.raw.request("POST", "/plans", json=body)
        assert caught.value.field == field
        assert all(stats.requests == 0 for stats in client.stats.values())
        assert len(emu.log) == 0


async def test_a_raw_body_that_contains_itself_is_refused() -> None:
    body: dict[str, object] = {"title": "loop"}
    body["self"] = body
    async with Emulator(speedup=60) as emu, emu.client() as client:
        with pytest.raises(rp.ValidationError, match="contains itself") as caught:
            await client.raw.request("POST", "/plans", json=body)
        assert caught.value.field == "json.self"
        assert len(emu.log) == 0
