"""Request shapes of every endpoint, seen on the wire through aioresponses.

For each call: method, URL, query string, headers (Authorization, User-Agent,
Content-Type only with a body), the exact JSON body (or no body at all for the
action calls), and the model that comes back.
"""

from __future__ import annotations

import base64
import datetime
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
import pytest_asyncio

pytest.importorskip("aioresponses")

from aioresponses import aioresponses

import route_planning_async as rp
from route_planning_async._core import Request

pytestmark = [pytest.mark.aioresponses, pytest.mark.asyncio]

BASE = "https://api.example.test/public/v0.2b"
KEY = "test-key-5f3a"
FIXTURES = Path(__file__).parent / "fixtures"
NO_BODY = object()


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def url_pattern(path: str) -> re.Pattern[str]:
    """``BASE + path`` with any query string."""
    return re.compile(re.escape(BASE + path) + r"(\?.*)?$")


@attrs.frozen
class Sent:
    method: str
    url: str
    params: tuple[tuple[str, str], ...]
    headers: dict[str, str]
    body: Any
    raw: bytes | None


def sent(mocked: aioresponses) -> list[Sent]:
    """Every request that reached aioresponses, in order of first appearance."""
    out = []
    for (method, url), calls in mocked.requests.items():
        for call in calls:
            raw = call.kwargs.get("data")
            out.append(
                Sent(
                    method=method,
                    url=str(url.with_query(None)),
                    params=tuple(call.kwargs.get("params") or ()),
                    headers=dict(call.kwargs.get("headers") or {}),
                    body=NO_BODY if raw is None else json.loads(raw),
                    raw=raw,
                )
            )
    return out


def make_client(auth: rp._core.AuthScheme = "basic") -> rp.RoutePlanningClient:
    return rp.RoutePlanningClient(
        KEY,
        base_url=BASE,
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


STOP_ID = "plans/p1/stops/s1"
ADDRESS = rp.AddressInput(address_line_one="1 Main St", city="Springfield", latitude=39.78, longitude=-89.65)
ADDRESS_JSON = {"addressLineOne": "1 Main St", "city": "Springfield", "latitude": 39.78, "longitude": -89.65}

Call = Callable[[rp.RoutePlanningClient], Awaitable[Any]]


@attrs.frozen
class Case:
    name: str
    call: Call
    method: str
    path: str
    body: Any = NO_BODY
    params: tuple[tuple[str, str], ...] = ()
    status: int = 200
    answer: Any = None
    result: type | None = None


def _list(make: Callable[[rp.RoutePlanningClient], rp.Paginator[Any]]) -> Call:
    async def call(client: rp.RoutePlanningClient) -> Any:
        return await make(client).collect()

    return call


CASES = [
    # Plans
    Case(
        "plans.create",
        lambda c: c.plans.create(
            title="Monday",
            starts=datetime.date(2026, 11, 23),
            drivers=["d1", "drivers/d2", "d1"],
            depot="depots/main",
        ),
        "POST",
        "/plans",
        body={
            "title": "Monday",
            "starts": {"day": 23, "month": 11, "year": 2026},
            "drivers": ["drivers/d1", "drivers/d2"],
            "depot": "depots/main",
        },
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case(
        "plans.create minimal",
        lambda c: c.plans.create(title="Tuesday", starts=datetime.date(2026, 11, 24)),
        "POST",
        "/plans",
        body={"title": "Tuesday", "starts": {"day": 24, "month": 11, "year": 2026}},
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case(
        "plans.list",
        _list(lambda c: c.plans.list(filter={"title": "Monday"}, max_page_size=20)),
        "GET",
        "/plans",
        params=(("maxPageSize", "20"), ("filter[title]", "Monday")),
        answer={"plans": [load("plan.json")], "nextPageToken": None},
        result=list,
    ),
    Case(
        "plans.get",
        lambda c: c.plans.get("plans/p1"),
        "GET",
        "/plans/p1",
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case(
        "plans.get bare id",
        lambda c: c.plans.get("p1"),
        "GET",
        "/plans/p1",
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case(
        "plans.update",
        lambda c: c.plans.update("p1", title="Renamed", drivers=["d9"], depot=None),
        "PATCH",
        "/plans/p1",
        body={"title": "Renamed", "drivers": ["drivers/d9"], "depot": None},
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case(
        "plans.update object",
        lambda c: c.plans.update("plans/p1", rp.PlanUpdate(starts=datetime.date(2026, 12, 1))),
        "PATCH",
        "/plans/p1",
        body={"starts": {"day": 1, "month": 12, "year": 2026}},
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case("plans.delete", lambda c: c.plans.delete("plans/p1"), "DELETE", "/plans/p1", answer={}),
    Case(
        "plans.optimize",
        lambda c: c.plans.optimize("plans/p1"),
        "POST",
        "/plans/p1:optimize",
        answer=load("operation_running.json"),
        result=rp.Operation,
    ),
    Case(
        "plans.distribute",
        lambda c: c.plans.distribute("p1"),
        "POST",
        "/plans/p1:distribute",
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case(
        "plans.reoptimize",
        lambda c: c.plans.reoptimize("p1"),
        "POST",
        "/plans/p1:reoptimize",
        body={},
        answer=load("operation_running.json"),
        result=rp.Operation,
    ),
    Case(
        "plans.reoptimize with type",
        lambda c: c.plans.reoptimize("p1", optimization_type=rp.ReoptimizationType.REORDER_ALL_STOPS),
        "POST",
        "/plans/p1:reoptimize",
        body={"optimizationType": "reorder_all_stops"},
        answer=load("operation_running.json"),
        result=rp.Operation,
    ),
    Case(
        "plans.redistribute",
        lambda c: c.plans.redistribute("p1"),
        "POST",
        "/plans/p1:redistribute",
        answer=load("plan.json"),
        result=rp.Plan,
    ),
    Case("plans.save", lambda c: c.plans.save("p1"), "POST", "/plans/p1:save", status=204),
    # Operations
    Case(
        "operations.get",
        lambda c: c.operations.get("operations/o1"),
        "GET",
        "/operations/o1",
        answer=load("operation_success.json"),
        result=rp.Operation,
    ),
    Case(
        "operations.list",
        _list(
            lambda c: c.operations.list(filter={"done": False, "type": "plan_optimization"}, max_page_size=20)
        ),
        "GET",
        "/operations",
        params=(("maxPageSize", "20"), ("filter[done]", "false"), ("filter[type]", "plan_optimization")),
        answer={"operations": [load("operation_running.json")], "nextPageToken": None},
        result=list,
    ),
    Case(
        "operations.list done",
        _list(lambda c: c.operations.list(filter={"done": True})),
        "GET",
        "/operations",
        params=(("filter[done]", "true"),),
        answer={"operations": [load("operation_success.json"), load("operation_failure.json")]},
        result=list,
    ),
    # Stops
    Case(
        "stops.create",
        lambda c: c.stops.create(
            "plans/p1", rp.StopInput(address=ADDRESS, notes="Ring twice", allowed_drivers=["d1"])
        ),
        "POST",
        "/plans/p1/stops",
        body={"address": ADDRESS_JSON, "allowedDrivers": ["drivers/d1"], "notes": "Ring twice"},
        answer=load("stop.json"),
        result=rp.Stop,
    ),
    Case(
        "stops.list",
        _list(lambda c: c.stops.list("p1", filter={"externalId": "cust-42"}, max_page_size=10)),
        "GET",
        "/plans/p1/stops",
        params=(("maxPageSize", "10"), ("filter[externalId]", "cust-42")),
        answer={"stops": [load("stop.json"), load("stop_unoptimized.json")], "nextPageToken": None},
        result=list,
    ),
    Case(
        "stops.get",
        lambda c: c.stops.get(STOP_ID),
        "GET",
        "/plans/p1/stops/s1",
        answer=load("stop.json"),
        result=rp.Stop,
    ),
    Case(
        "stops.update",
        lambda c: c.stops.update(
            STOP_ID,
            notes=None,
            barcodes=["B1"],
            timing=rp.TimingInput(earliest_attempt_time=datetime.time(10, 15)),
        ),
        "PATCH",
        "/plans/p1/stops/s1",
        body={
            "timing": {"earliestAttemptTime": {"hour": 10, "minute": 15}},
            "notes": None,
            "barcodes": ["B1"],
        },
        answer=load("stop.json"),
        result=rp.Stop,
    ),
    Case("stops.delete", lambda c: c.stops.delete(STOP_ID), "DELETE", "/plans/p1/stops/s1", answer={}),
    Case(
        "stops.import_batch",
        lambda c: c.stops.import_batch(
            "p1",
            [
                rp.StopInput(address=ADDRESS),
                rp.StopInput(address=rp.AddressInput(city="Paris"), package_count=2),
            ],
        ),
        "POST",
        "/plans/p1/stops:import",
        body=[{"address": ADDRESS_JSON}, {"address": {"city": "Paris"}, "packageCount": 2}],
        answer=load("import_result.json"),
        result=rp.ImportResult,
    ),
    Case(
        "stops.live_create",
        lambda c: c.stops.live_create("p1", rp.StopInput(address=ADDRESS)),
        "POST",
        "/plans/p1/stops:liveCreate",
        body={"address": ADDRESS_JSON},
        answer=load("live_change.json"),
        result=rp.LiveChange,
    ),
    Case(
        "stops.live_update",
        lambda c: c.stops.live_update(
            STOP_ID,
            rp.StopUpdate(notes="Leave at door", timing=rp.TimingInput(estimated_attempt_duration=300)),
        ),
        "POST",
        "/plans/p1/stops/s1:liveUpdate",
        body={"timing": {"estimatedAttemptDuration": 300}, "notes": "Leave at door"},
        answer=load("live_change.json"),
        result=rp.LiveChange,
    ),
    Case(
        "stops.live_delete",
        lambda c: c.stops.live_delete(STOP_ID),
        "POST",
        "/plans/p1/stops/s1:liveDelete",
        answer=load("live_delete.json"),
        result=rp.LiveChange,
    ),
    # Unassigned stops
    Case(
        "unassigned_stops.create",
        lambda c: c.unassigned_stops.create(
            rp.UnassignedStopInput(address=ADDRESS, depot="main", package_count=1)
        ),
        "POST",
        "/unassignedStops",
        body={"address": ADDRESS_JSON, "depot": "depots/main", "packageCount": 1},
        answer=load("unassigned_stop.json"),
        result=rp.UnassignedStop,
    ),
    Case(
        "unassigned_stops.list",
        _list(lambda c: c.unassigned_stops.list(filter={"external_id": "cust-1"})),
        "GET",
        "/unassignedStops",
        params=(("filter[externalId]", "cust-1"),),
        answer={"unassignedStops": [load("unassigned_stop.json")], "nextPageToken": None},
        result=list,
    ),
    Case(
        "unassigned_stops.get",
        lambda c: c.unassigned_stops.get("unassignedStops/u1"),
        "GET",
        "/unassignedStops/u1",
        answer=load("unassigned_stop.json"),
        result=rp.UnassignedStop,
    ),
    Case(
        "unassigned_stops.update",
        lambda c: c.unassigned_stops.update("u1", depot="depots/north", activity="pickup"),
        "PATCH",
        "/unassignedStops/u1",
        body={"activity": "pickup", "depot": "depots/north"},
        answer=load("unassigned_stop.json"),
        result=rp.UnassignedStop,
    ),
    Case(
        "unassigned_stops.delete",
        lambda c: c.unassigned_stops.delete("u1"),
        "DELETE",
        "/unassignedStops/u1",
        answer={},
    ),
    Case(
        "unassigned_stops.import_batch",
        lambda c: c.unassigned_stops.import_batch([rp.UnassignedStopInput(address=ADDRESS)], depot="north"),
        "POST",
        "/unassignedStops:import",
        body={"unassignedStops": [{"address": ADDRESS_JSON}], "depot": "depots/north"},
        answer=load("unassigned_import_result.json"),
        result=rp.ImportResult,
    ),
    Case(
        "unassigned_stops.import_batch main depot",
        lambda c: c.unassigned_stops.import_batch([rp.UnassignedStopInput(address=ADDRESS, notes="n")]),
        "POST",
        "/unassignedStops:import",
        body={"unassignedStops": [{"address": ADDRESS_JSON, "notes": "n"}]},
        answer=load("unassigned_import_result.json"),
        result=rp.ImportResult,
    ),
    # Reference lists
    Case(
        "depots.list",
        _list(lambda c: c.depots.list()),
        "GET",
        "/depots",
        answer={"depots": [load("depot.json")], "nextPageToken": None},
        result=list,
    ),
    Case(
        "depots.get",
        lambda c: c.depots.get("main"),
        "GET",
        "/depots/main",
        answer=load("depot.json"),
        result=rp.Depot,
    ),
    Case(
        "custom_stop_properties.list",
        _list(lambda c: c.custom_stop_properties.list()),
        "GET",
        "/team/customStopProperties",
        answer={"customStopProperties": [load("custom_stop_property.json")]},
        result=list,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_endpoint_request_shape(
    mocked: aioresponses, client: rp.RoutePlanningClient, case: Case
) -> None:
    if case.answer is None:
        mocked.add(url_pattern(case.path), case.method, status=case.status)
    else:
        mocked.add(url_pattern(case.path), case.method, status=case.status, payload=case.answer)

    result: Any = await case.call(client)

    [request] = sent(mocked)
    assert request.method == case.method
    assert request.url == BASE + case.path
    assert request.params == case.params
    if case.body is NO_BODY:
        assert request.raw is None
        assert "Content-Type" not in request.headers
    else:
        assert request.body == case.body
        assert request.headers["Content-Type"] == "application/json"
    if case.result is None:
        assert result is None
    else:
        assert isinstance(result, case.result)
        if isinstance(result, list):
            assert result
            assert len({type(item) for item in result}) == 1


async def test_every_endpoint_of_the_table_is_covered() -> None:
    from route_planning_async._endpoints import ENDPOINTS

    covered = {case.name.split(" ")[0] for case in CASES}
    assert covered == set(ENDPOINTS)


async def test_action_calls_send_no_body(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    for action in ("optimize", "distribute", "redistribute", "save"):
        mocked.post(
            f"{BASE}/plans/p1:{action}",
            payload=load("plan.json") if action != "optimize" else load("operation_running.json"),
        )
    mocked.post(f"{BASE}/plans/p1/stops/s1:liveDelete", payload={"pending": True})
    await client.plans.optimize("p1")
    await client.plans.distribute("p1")
    await client.plans.redistribute("p1")
    await client.plans.save("p1")
    await client.stops.live_delete(STOP_ID)
    requests = sent(mocked)
    assert len(requests) == 5
    for request in requests:
        assert request.raw is None
        assert "Content-Type" not in request.headers


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


async def test_pagination_resends_every_original_parameter(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    first, second = load("plan.json"), {**load("plan.json"), "id": "plans/p2"}
    mocked.get(url_pattern("/plans"), payload={"plans": [first], "nextPageToken": "page-2"})
    mocked.get(url_pattern("/plans"), payload={"plans": [second], "nextPageToken": "page-3"})
    mocked.get(url_pattern("/plans"), payload={"plans": [], "nextPageToken": None})

    paginator = client.plans.list(
        filter={"startsGte": datetime.date(2026, 11, 1), "title": "Monday"}, max_page_size=2
    )
    plans = [plan.id async for plan in paginator]

    assert plans == ["plans/p1", "plans/p2"]
    original = (("maxPageSize", "2"), ("filter[startsGte]", "2026-11-01"), ("filter[title]", "Monday"))
    assert [request.params for request in sent(mocked)] == [
        original,
        (*original, ("pageToken", "page-2")),
        (*original, ("pageToken", "page-3")),
    ]


async def test_pages_expose_items_and_tokens(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.get(url_pattern("/plans/p1/stops"), payload={"stops": [load("stop.json")], "nextPageToken": "t2"})
    mocked.get(
        url_pattern("/plans/p1/stops"),
        payload={"stops": [load("stop_unoptimized.json")], "nextPageToken": None},
    )
    pages = [page async for page in client.stops.list("p1").pages()]
    assert [page.next_page_token for page in pages] == ["t2", None]
    assert [[stop.id for stop in page.items] for page in pages] == [[STOP_ID], ["plans/p1/stops/s2"]]
    assert all(isinstance(page, rp.Page) for page in pages)


async def test_list_can_resume_from_a_page_token(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    mocked.get(url_pattern("/unassignedStops"), payload={"unassignedStops": [], "nextPageToken": None})
    assert await client.unassigned_stops.list(max_page_size=5, page_token="resume-here").collect() == []
    [request] = sent(mocked)
    assert request.params == (("maxPageSize", "5"), ("pageToken", "resume-here"))


async def test_a_repeated_page_token_stops_the_iteration(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    mocked.get(
        url_pattern("/depots"), payload={"depots": [load("depot.json")], "nextPageToken": "same"}, repeat=True
    )
    with pytest.raises(rp.RoutePlanningError, match="twice"):
        await client.depots.list().collect()
    assert len(sent(mocked)) == 2


@pytest.mark.parametrize(
    ("serialized_id", "path", "fixture", "model"),
    [
        ("plans/p1", "/plans/p1", "plan.json", rp.Plan),
        ("plans/p1/stops/s1", "/plans/p1/stops/s1", "stop.json", rp.Stop),
        ("unassignedStops/u1", "/unassignedStops/u1", "unassigned_stop.json", rp.UnassignedStop),
        ("operations/o1", "/operations/o1", "operation_success.json", rp.Operation),
        ("depots/main", "/depots/main", "depot.json", rp.Depot),
    ],
)
async def test_client_get_dispatches_on_the_serialized_id(
    mocked: aioresponses,
    client: rp.RoutePlanningClient,
    serialized_id: str,
    path: str,
    fixture: str,
    model: type,
) -> None:
    mocked.get(BASE + path, payload=load(fixture))
    result = await client.get(serialized_id)
    assert isinstance(result, model)
    [request] = sent(mocked)
    assert (request.method, request.url) == ("GET", BASE + path)


async def test_import_batch_weighs_the_number_of_stops(mocked: aioresponses) -> None:
    seen: list[Request] = []

    class Spy(rp.RoutePlanningClient):
        async def _execute(self, request: Request) -> Any:
            seen.append(request)
            return await super()._execute(request)

    mocked.post(f"{BASE}/plans/p1/stops:import", payload=load("import_result.json"))
    mocked.post(f"{BASE}/unassignedStops:import", payload=load("unassigned_import_result.json"))
    async with Spy(KEY, base_url=BASE, rate_limits=rp.RateLimits.unlimited()) as client:
        await client.stops.import_batch("p1", [rp.StopInput(address=ADDRESS)] * 7)
        await client.unassigned_stops.import_batch([rp.UnassignedStopInput(address=ADDRESS)] * 3)
    assert [(r.category, r.weight) for r in seen] == [
        (rp.Category.BATCH_IMPORT, 7),
        (rp.Category.BATCH_IMPORT, 3),
    ]


async def test_error_answers_become_exceptions(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.patch(
        f"{BASE}/plans/p1",
        status=409,
        payload={"message": "Plan is not writable", "code": "plan_not_writable"},
    )
    with pytest.raises(rp.PlanNotWritableError) as info:
        await client.plans.update("p1", title="x")
    assert info.value.status == 409
    assert info.value.code == "plan_not_writable"


async def test_any_https_base_url_works(mocked: aioresponses) -> None:
    other = "https://eu.example.test:8443/custom/prefix/public/v0.2b/"
    mocked.get(
        "https://eu.example.test:8443/custom/prefix/public/v0.2b/depots/d1", payload={"id": "depots/d1"}
    )
    async with rp.RoutePlanningClient(KEY, base_url=other, rate_limits=rp.RateLimits.unlimited()) as client:
        depot = await client.depots.get("d1")
    assert depot == rp.Depot(id="depots/d1", name="")


# The workflow entry points on the namespaces reach their modules -------------------


async def test_plans_optimize_and_wait(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.post(f"{BASE}/plans/p1:optimize", payload=load("operation_running.json"))
    mocked.get(f"{BASE}/operations/o1", payload=load("operation_success.json"))
    operation = await client.plans.optimize_and_wait("plans/p1", poll_interval=0.001, max_poll_interval=0.001)
    assert isinstance(operation.result, rp.OptimizationSuccess)
    assert [(r.method, r.url) for r in sent(mocked)] == [
        ("POST", f"{BASE}/plans/p1:optimize"),
        ("GET", f"{BASE}/operations/o1"),
    ]


async def test_plans_optimize_and_wait_finds_the_running_optimization_in_the_operation_list(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    busy = {"message": "An optimization is in progress", "code": "plan_optimization_in_progress"}
    mocked.post(f"{BASE}/plans/p1:optimize", status=409, payload=busy)
    other_plan = {**load("operation_running.json"), "id": "operations/o0"}
    other_plan["metadata"] = {**other_plan["metadata"], "targetPlanId": "plans/p0"}
    mocked.get(url_pattern("/operations"), payload={"operations": [other_plan], "nextPageToken": "t2"})
    mocked.get(
        url_pattern("/operations"),
        payload={"operations": [load("operation_running.json")], "nextPageToken": "t3"},
    )
    mocked.get(f"{BASE}/operations/o1", payload=load("operation_success.json"))

    operation = await client.plans.optimize_and_wait("p1", poll_interval=0.001, max_poll_interval=0.001)

    assert operation.id == "operations/o1"
    assert isinstance(operation.result, rp.OptimizationSuccess)
    running = (("filter[done]", "false"), ("filter[type]", "plan_optimization"))
    # The match is on the second page: the list stops there, the third page is never asked for.
    assert [(r.method, r.url, r.params) for r in sent(mocked)] == [
        ("POST", f"{BASE}/plans/p1:optimize", ()),
        ("GET", f"{BASE}/operations", running),
        ("GET", f"{BASE}/operations", (*running, ("pageToken", "t2"))),
        ("GET", f"{BASE}/operations/o1", ()),
    ]


def _operation(operation_id: str, plan: str, started: float) -> dict[str, Any]:
    answer = load("operation_success.json")
    answer["id"] = operation_id
    answer["metadata"] = {**answer["metadata"], "targetPlanId": plan, "startedAt": started}
    return answer


async def test_plans_optimize_and_wait_returns_the_latest_finished_optimization_in_any_list_order(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    busy = {"message": "An optimization is in progress", "code": "plan_optimization_in_progress"}
    mocked.post(f"{BASE}/plans/p1:optimize", status=409, payload=busy)
    # It finished between the 409 and the listing: nothing of plans/p1 runs any more.
    mocked.get(url_pattern("/operations"), payload={"operations": [], "nextPageToken": None})
    mocked.get(
        f"{BASE}/plans/p1", payload={**load("plan.json"), "optimization": "optimized", "writable": False}
    )
    # Oldest first here, and the latest of plans/p1 on the first page: every page is read.
    first_page = [
        _operation("operations/old", "plans/p1", 1795400000),
        _operation("operations/latest", "plans/p1", 1795420000),
    ]
    second_page = [
        _operation("operations/other-plan", "plans/p0", 1795430000),
        _operation("operations/older", "plans/p1", 1795300000),
    ]
    mocked.get(url_pattern("/operations"), payload={"operations": first_page, "nextPageToken": "t2"})
    mocked.get(url_pattern("/operations"), payload={"operations": second_page, "nextPageToken": None})

    operation = await client.plans.optimize_and_wait("p1", poll_interval=0.001, max_poll_interval=0.001)

    assert operation.id == "operations/latest"
    assert isinstance(operation.result, rp.OptimizationSuccess)
    running = (("filter[done]", "false"), ("filter[type]", "plan_optimization"))
    finished = (("filter[done]", "true"), ("filter[type]", "plan_optimization"))
    assert [(r.method, r.url, r.params) for r in sent(mocked)] == [
        ("POST", f"{BASE}/plans/p1:optimize", ()),
        ("GET", f"{BASE}/operations", running),
        ("GET", f"{BASE}/plans/p1", ()),
        ("GET", f"{BASE}/operations", finished),
        ("GET", f"{BASE}/operations", (*finished, ("pageToken", "t2"))),
    ]


async def test_plans_optimize_and_wait_raises_when_the_list_shows_no_operation_of_the_optimized_plan(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    busy = {"message": "An optimization is in progress", "code": "plan_optimization_in_progress"}
    mocked.post(f"{BASE}/plans/p1:optimize", status=409, payload=busy)
    mocked.get(url_pattern("/operations"), payload={"operations": [], "nextPageToken": None}, repeat=True)
    mocked.get(
        f"{BASE}/plans/p1", payload={**load("plan.json"), "optimization": "optimized", "writable": False}
    )
    with pytest.raises(rp.RoutePlanningError, match="the operation list does not show") as caught:
        await client.plans.optimize_and_wait("p1", poll_interval=0.001, max_poll_interval=0.001)
    assert isinstance(caught.value.__cause__, rp.OptimizationInProgressError)
    assert len(sent(mocked)) == 4


async def test_operations_wait_and_wait_many(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.get(f"{BASE}/operations/o1", payload=load("operation_running.json"))
    mocked.get(f"{BASE}/operations/o1", payload=load("operation_success.json"))
    mocked.get(f"{BASE}/operations/o2", payload=load("operation_failure.json"))
    done = await client.operations.wait("operations/o1", poll_interval=0.001, max_poll_interval=0.001)
    assert done.done is True
    finished = [op.id async for op in client.operations.wait_many(["operations/o2"], poll_interval=0.001)]
    assert finished == ["operations/o2"]


async def test_plans_live_edit(mocked: aioresponses, client: rp.RoutePlanningClient) -> None:
    mocked.post(f"{BASE}/plans/p1/stops/s1:liveUpdate", payload=load("live_change.json"))
    mocked.post(f"{BASE}/plans/p1:reoptimize", payload=load("operation_success.json"))
    mocked.post(f"{BASE}/plans/p1:redistribute", payload=load("plan.json"))
    async with client.plans.live_edit("plans/p1", poll_interval=0.001, max_poll_interval=0.001) as edit:
        await edit.update(STOP_ID, notes="Ring twice")
    requests = sent(mocked)
    assert [(r.method, r.url) for r in requests] == [
        ("POST", f"{BASE}/plans/p1/stops/s1:liveUpdate"),
        ("POST", f"{BASE}/plans/p1:reoptimize"),
        ("POST", f"{BASE}/plans/p1:redistribute"),
    ]
    assert requests[0].body == {"notes": "Ring twice"}


async def test_import_many_goes_through_import_batch(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    mocked.post(
        f"{BASE}/plans/p1/stops:import",
        payload={"success": ["plans/p1/stops/a", "plans/p1/stops/b"], "failed": []},
    )
    mocked.post(f"{BASE}/unassignedStops:import", payload={"success": ["unassignedStops/u1"], "failed": []})
    stops = [rp.StopInput(address=ADDRESS), rp.StopInput(address=rp.AddressInput(city="Paris"))]
    await client.stops.import_many("p1", stops)
    await client.unassigned_stops.import_many([rp.UnassignedStopInput(address=ADDRESS)], depot="north")
    requests = sent(mocked)
    assert requests[0].body == [{"address": ADDRESS_JSON}, {"address": {"city": "Paris"}}]
    assert requests[1].body == {"unassignedStops": [{"address": ADDRESS_JSON}], "depot": "depots/north"}


async def test_an_answer_of_the_wrong_shape_is_a_clear_error(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    mocked.get(f"{BASE}/plans/p1", payload={"id": "plans/p1", "title": "t", "starts": "2026-11-23"})
    with pytest.raises(rp.RoutePlanningError, match="shape of Plan"):
        await client.plans.get("p1")
    mocked.get(f"{BASE}/plans/p2", body=b"[1, 2]", content_type="application/json")
    with pytest.raises(rp.RoutePlanningError, match="expected a JSON object"):
        await client.plans.get("p2")
    mocked.get(url_pattern("/depots"), payload={"depots": [{"name": "no id"}], "nextPageToken": None})
    with pytest.raises(rp.RoutePlanningError, match="shape of Depot"):
        await client.depots.list().collect()


async def test_an_unusable_page_token_stops_the_iteration(
    mocked: aioresponses, client: rp.RoutePlanningClient
) -> None:
    mocked.get(url_pattern("/depots"), payload={"depots": [load("depot.json")], "nextPageToken": ""})
    with pytest.raises(rp.RoutePlanningError, match="unusable page token"):
        await client.depots.list().collect()
    assert len(sent(mocked)) == 1
