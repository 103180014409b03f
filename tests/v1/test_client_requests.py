"""v1 request shapes of all 52 operations, through a scripted transport.

For each call: method, path, query, the exact JSON body (or none), weight and
rate-limit category, and the model that comes back. One more test holds the
official document's operations, the endpoint table and these cases to one set.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import pytest_asyncio
from support.fake_transport import FakeService, answer

from route_planning_async import RateLimits, RetryPolicy, ValidationError
from route_planning_async._pagination import Paginator
from route_planning_async._rate_limits._limits import Category
from route_planning_async.v1 import (
    AddressInput,
    Depot,
    DepotImportResult,
    DepotInput,
    DepotRouteOverridesInput,
    Driver,
    DriverImportResult,
    DriverInput,
    ImportResult,
    LiveChange,
    LiveImportResult,
    Member,
    MemberImportResult,
    MemberInput,
    Operation,
    Plan,
    PlanInput,
    RecipientInput,
    Route,
    RoutePlanningClient,
    Stop,
    StopInput,
    UnassignedStop,
    UnassignedStopInput,
)
from route_planning_async.v1._endpoints import ENDPOINTS, OPERATION_IDS
from route_planning_async.v1.search import field

BASE = "https://api.example.test/public/v1"
DOCUMENT = Path(__file__).resolve().parent.parent / "emulator" / "data" / "public-openapi-v1.json"
NO_BODY = object()
STOP_ID = "plans/p1/stops/s1"
ADDRESS = AddressInput(address_line_one="1 Main St", latitude=39.78, longitude=-89.65)
ADDRESS_JSON = {"addressLineOne": "1 Main St", "latitude": 39.78, "longitude": -89.65}
STOP = StopInput(address=ADDRESS, recipient=RecipientInput(external_id="x1"))
STOP_JSON = {"address": ADDRESS_JSON, "recipient": {"externalId": "x1"}}
DEPOT = DepotInput(
    name="North",
    route_overrides=DepotRouteOverridesInput(start_address=ADDRESS, start_time=datetime.time(8, 30)),
)
DEPOT_JSON = {
    "name": "North",
    "routeOverrides": {"startAddress": ADDRESS_JSON, "startTime": {"hour": 8, "minute": 30}},
}
MEMBER = MemberInput(role="dispatcher", email="ann@example.com")
PAGE_OF = {"nextPageToken": None}
PLAN = {"id": "plans/p1", "title": "Monday", "starts": {"day": 23, "month": 11, "year": 2026}}


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest_asyncio.fixture
async def client(service: FakeService) -> AsyncIterator[RoutePlanningClient]:
    async with RoutePlanningClient(
        "test-key",
        base_url=BASE,
        rate_limits=RateLimits.unlimited(),
        retry=RetryPolicy(attempts=1),
        transport=service,
    ) as opened:
        yield opened
    service.assert_done()


Call = Callable[[RoutePlanningClient], Awaitable[Any]]


@attrs.frozen
class Case:
    name: str
    call: Call
    method: str
    path: str
    body: Any = NO_BODY
    query: tuple[tuple[str, str], ...] = ()
    status: int = 200
    answer: Any = None
    result: type | None = None
    weight: int = 1


def _list(make: Callable[[RoutePlanningClient], Paginator[Any]]) -> Call:
    async def call(client: RoutePlanningClient) -> Any:
        return await make(client).collect()

    return call


CASES = [
    # Plans
    Case(
        "plans.create",
        lambda c: c.plans.create(
            PlanInput(title="Monday", starts=datetime.date(2026, 11, 23), drivers=["d1"])
        ),
        "POST",
        "/plans",
        body={"title": "Monday", "starts": {"day": 23, "month": 11, "year": 2026}, "drivers": ["drivers/d1"]},
        answer=PLAN,
        result=Plan,
    ),
    Case(
        "plans.list",
        _list(lambda c: c.plans.list(filter={"title": "Monday"}, max_page_size=20)),
        "GET",
        "/plans",
        query=(("maxPageSize", "20"), ("filter[title]", "Monday")),
        answer={"plans": [PLAN], **PAGE_OF},
    ),
    Case(
        "plans.get",
        lambda c: c.plans.get("plans/p1"),
        "GET",
        "/plans/p1",
        answer=PLAN,
        result=Plan,
    ),
    Case(
        "plans.update",
        lambda c: c.plans.update("p1", title="Tuesday", depot="depots/d2"),
        "PATCH",
        "/plans/p1",
        body={"title": "Tuesday", "depot": "depots/d2"},
        answer=PLAN,
        result=Plan,
    ),
    Case("plans.delete", lambda c: c.plans.delete("p1"), "DELETE", "/plans/p1", status=204),
    Case(
        "plans.optimize",
        lambda c: c.plans.optimize("p1"),
        "POST",
        "/plans/p1:optimize",
        answer={"id": "operations/o1"},
        result=Operation,
    ),
    Case(
        "plans.distribute",
        lambda c: c.plans.distribute("p1"),
        "POST",
        "/plans/p1:distribute",
        answer=PLAN,
        result=Plan,
    ),
    Case(
        "plans.reoptimize",
        lambda c: c.plans.reoptimize("p1", optimization_type="reorder_all_stops"),
        "POST",
        "/plans/p1:reoptimize",
        body={"optimizationType": "reorder_all_stops"},
        answer={"id": "operations/o1"},
        result=Operation,
    ),
    Case(
        "plans.redistribute",
        lambda c: c.plans.redistribute("p1"),
        "POST",
        "/plans/p1:redistribute",
        answer=PLAN,
        result=Plan,
    ),
    Case("plans.save", lambda c: c.plans.save("p1"), "POST", "/plans/p1:save", status=204),
    # Stops
    Case(
        "stops.create",
        lambda c: c.stops.create("p1", STOP),
        "POST",
        "/plans/p1/stops",
        body=STOP_JSON,
        answer={"id": STOP_ID},
        result=Stop,
    ),
    Case(
        "stops.list",
        _list(lambda c: c.stops.list("p1", filter={"external_id": "x1"}, max_page_size=10)),
        "GET",
        "/plans/p1/stops",
        query=(("maxPageSize", "10"), ("filter[externalId]", "x1")),
        answer={"stops": [{"id": STOP_ID}], **PAGE_OF},
    ),
    Case(
        "stops.import_batch",
        lambda c: c.stops.import_batch("p1", [STOP, STOP]),
        "POST",
        "/plans/p1/stops:import",
        body=[STOP_JSON, STOP_JSON],
        answer={"success": [STOP_ID, "plans/p1/stops/s2"], "failed": []},
        result=ImportResult,
        weight=2,
    ),
    Case(
        "stops.get",
        lambda c: c.stops.get(STOP_ID),
        "GET",
        "/plans/p1/stops/s1",
        answer={"id": STOP_ID},
        result=Stop,
    ),
    Case(
        "stops.update",
        lambda c: c.stops.update(STOP_ID, notes="Ring twice", allowed_drivers=["d1"]),
        "PATCH",
        "/plans/p1/stops/s1",
        body={"notes": "Ring twice", "allowedDrivers": ["drivers/d1"]},
        answer={"id": STOP_ID},
        result=Stop,
    ),
    Case("stops.delete", lambda c: c.stops.delete(STOP_ID), "DELETE", "/plans/p1/stops/s1", status=204),
    Case(
        "stops.live_create",
        lambda c: c.stops.live_create("p1", STOP),
        "POST",
        "/plans/p1/stops:liveCreate",
        body=STOP_JSON,
        answer={"pending": True},
        result=LiveChange,
    ),
    Case(
        "stops.live_update",
        lambda c: c.stops.live_update(STOP_ID, notes="Gate B"),
        "POST",
        "/plans/p1/stops/s1:liveUpdate",
        body={"notes": "Gate B"},
        answer={"pending": True},
        result=LiveChange,
    ),
    Case(
        "stops.live_delete",
        lambda c: c.stops.live_delete(STOP_ID),
        "POST",
        "/plans/p1/stops/s1:liveDelete",
        answer={"pending": True},
        result=LiveChange,
    ),
    Case(
        "stops.live_import_batch",
        lambda c: c.stops.live_import_batch("p1", [STOP]),
        "POST",
        "/plans/p1/stops:liveImport",
        body=[STOP_JSON],
        answer={"success": [STOP_ID], "failed": [], "pending": True},
        result=LiveImportResult,
    ),
    Case(
        "stops.search",
        _list(
            lambda c: c.stops.search(
                keyword="london",
                filter=field("activity") == "delivery",
                sort_field="createdAt",
                sort_order="desc",
                max_page_size=5,
            )
        ),
        "GET",
        "/stops:search",
        query=(
            ("keyword", "london"),
            ("filter", 'activity = "delivery"'),
            ("maxPageSize", "5"),
            ("sortField", "createdAt"),
            ("sortOrder", "desc"),
        ),
        answer={
            "stops": [
                {"type": "stop", "stop": {"id": STOP_ID}},
                {"type": "unassignedStop", "unassignedStop": {"id": "unassignedStops/u1"}},
                {"type": "somethingNewer", "somethingNewer": {}},
            ],
            **PAGE_OF,
        },
    ),
    # Unassigned stops
    Case(
        "unassigned_stops.create",
        lambda c: c.unassigned_stops.create(UnassignedStopInput(address=ADDRESS)),
        "POST",
        "/unassignedStops",
        body={"address": ADDRESS_JSON},
        answer={"id": "unassignedStops/u1"},
        result=UnassignedStop,
    ),
    Case(
        "unassigned_stops.list",
        _list(lambda c: c.unassigned_stops.list(filter={"externalId": "x1"})),
        "GET",
        "/unassignedStops",
        query=(("filter[externalId]", "x1"),),
        answer={"unassignedStops": [], **PAGE_OF},
    ),
    Case(
        "unassigned_stops.import_batch",
        lambda c: c.unassigned_stops.import_batch([UnassignedStopInput(address=ADDRESS)], depot="d1"),
        "POST",
        "/unassignedStops:import",
        body={"unassignedStops": [{"address": ADDRESS_JSON}], "depot": "depots/d1"},
        answer={"success": ["unassignedStops/u1"], "failed": []},
        result=ImportResult,
    ),
    Case(
        "unassigned_stops.get",
        lambda c: c.unassigned_stops.get("u1"),
        "GET",
        "/unassignedStops/u1",
        answer={"id": "unassignedStops/u1"},
        result=UnassignedStop,
    ),
    Case(
        "unassigned_stops.update",
        lambda c: c.unassigned_stops.update("unassignedStops/u1", notes="Back door"),
        "PATCH",
        "/unassignedStops/u1",
        body={"notes": "Back door"},
        answer={"id": "unassignedStops/u1"},
        result=UnassignedStop,
    ),
    Case(
        "unassigned_stops.delete",
        lambda c: c.unassigned_stops.delete("u1"),
        "DELETE",
        "/unassignedStops/u1",
        status=204,
    ),
    # Operations
    Case(
        "operations.get",
        lambda c: c.operations.get("operations/o1"),
        "GET",
        "/operations/o1",
        answer={"id": "operations/o1"},
        result=Operation,
    ),
    Case(
        "operations.list",
        _list(lambda c: c.operations.list(filter={"done": False}, max_page_size=20)),
        "GET",
        "/operations",
        query=(("maxPageSize", "20"), ("filter[done]", "false")),
        answer={"operations": [{"id": "operations/o1"}], **PAGE_OF},
    ),
    Case(
        "operations.cancel",
        lambda c: c.operations.cancel("o1"),
        "POST",
        "/operations/o1:cancel",
        answer={"id": "operations/o1", "metadata": {"canceled": True}},
        result=Operation,
    ),
    # Depots
    Case(
        "depots.list",
        _list(lambda c: c.depots.list(max_page_size=20)),
        "GET",
        "/depots",
        query=(("maxPageSize", "20"),),
        answer={"depots": [{"id": "depots/d1", "name": "North"}], **PAGE_OF},
    ),
    Case(
        "depots.get",
        lambda c: c.depots.get("d1"),
        "GET",
        "/depots/d1",
        answer={"id": "depots/d1"},
        result=Depot,
    ),
    Case(
        "depots.create",
        lambda c: c.depots.create(DEPOT),
        "POST",
        "/depots",
        body=DEPOT_JSON,
        answer={"id": "depots/d1", "name": "North"},
        result=Depot,
    ),
    Case(
        "depots.update",
        lambda c: c.depots.update("depots/d1", name="South"),
        "PATCH",
        "/depots/d1",
        body={"name": "South"},
        answer={"id": "depots/d1", "name": "South"},
        result=Depot,
    ),
    Case("depots.delete", lambda c: c.depots.delete("d1"), "DELETE", "/depots/d1", status=204),
    Case(
        "depots.set_main", lambda c: c.depots.set_main("depots/d1"), "POST", "/depots/d1:setMain", status=204
    ),
    Case(
        "depots.import_batch",
        lambda c: c.depots.import_batch([DEPOT]),
        "POST",
        "/depots:import",
        body=[DEPOT_JSON],
        answer={"success": ["depots/d1"], "failed": []},
        result=DepotImportResult,
    ),
    # Members
    Case(
        "members.create",
        lambda c: c.members.create(MEMBER),
        "POST",
        "/members",
        body={"email": "ann@example.com", "role": "dispatcher"},
        answer={"id": "members/m1"},
        result=Member,
    ),
    Case(
        "members.update",
        lambda c: c.members.update("members/m1", role="admin"),
        "PATCH",
        "/members/m1",
        body={"role": "admin"},
        answer={"id": "members/m1"},
        result=Member,
    ),
    Case("members.delete", lambda c: c.members.delete("m1"), "DELETE", "/members/m1", status=204),
    Case(
        "members.import_batch",
        lambda c: c.members.import_batch([MEMBER]),
        "POST",
        "/members:import",
        body=[{"email": "ann@example.com", "role": "dispatcher"}],
        answer={"success": ["members/m1"], "failed": []},
        result=MemberImportResult,
    ),
    # Drivers
    Case(
        "drivers.list",
        _list(lambda c: c.drivers.list(filter={"active": True}, max_page_size=50)),
        "GET",
        "/drivers",
        query=(("maxPageSize", "50"), ("filter[active]", "true")),
        answer={"drivers": [{"id": "drivers/d1"}], **PAGE_OF},
    ),
    Case(
        "drivers.create",
        lambda c: c.drivers.create(DriverInput(name="Dee", email="dee@example.com")),
        "POST",
        "/drivers",
        body={"name": "Dee", "email": "dee@example.com"},
        answer={"id": "drivers/d1"},
        result=Driver,
    ),
    Case(
        "drivers.get",
        lambda c: c.drivers.get("d1"),
        "GET",
        "/drivers/d1",
        answer={"id": "drivers/d1"},
        result=Driver,
    ),
    Case(
        "drivers.update",
        lambda c: c.drivers.update("drivers/d1", display_name="D"),
        "PATCH",
        "/drivers/d1",
        body={"displayName": "D"},
        answer={"id": "drivers/d1"},
        result=Driver,
    ),
    Case("drivers.delete", lambda c: c.drivers.delete("d1"), "DELETE", "/drivers/d1", status=204),
    Case(
        "drivers.import_batch",
        lambda c: c.drivers.import_batch([DriverInput(email="dee@example.com")]),
        "POST",
        "/drivers:import",
        body=[{"email": "dee@example.com"}],
        answer={"success": ["drivers/d1"], "failed": []},
        result=DriverImportResult,
    ),
    # Routes
    Case(
        "routes.list",
        _list(lambda c: c.routes.list(max_page_size=20)),
        "GET",
        "/routes",
        query=(("maxPageSize", "20"),),
        answer={"routes": [{"id": "routes/r1"}], **PAGE_OF},
    ),
    Case(
        "routes.get",
        lambda c: c.routes.get("routes/r1"),
        "GET",
        "/routes/r1",
        answer={"id": "routes/r1"},
        result=Route,
    ),
    Case(
        "routes.list_stops",
        _list(lambda c: c.routes.list_stops("r1", filter={"external_id": "x1"}, max_page_size=10)),
        "GET",
        "/routes/r1/stops",
        query=(("maxPageSize", "10"), ("filter[externalId]", "x1")),
        answer={"stops": [{"id": STOP_ID}], **PAGE_OF},
    ),
    # Custom stop properties
    Case(
        "custom_stop_properties.list",
        _list(lambda c: c.custom_stop_properties.list()),
        "GET",
        "/team/customStopProperties",
        answer={"customStopProperties": [{"id": "c1"}], **PAGE_OF},
    ),
    Case(
        "custom_stop_properties.get",
        lambda c: c.custom_stop_properties.get("c1"),
        "GET",
        "/team/customStopProperties/c1",
        answer={"id": "c1"},
    ),
]


def test_the_official_operations_the_endpoint_table_and_these_cases_are_one_set() -> None:
    document = json.loads(DOCUMENT.read_text())
    official = {
        (method.upper(), path, operation["operationId"])
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
        if method in ("get", "post", "patch", "delete", "put")
    }
    assert len(official) == 52
    table = set()
    for name, endpoint in ENDPOINTS.items():
        # The table's {placeholders} are the document's {<name>Id}.
        path = endpoint.template
        for placeholder in (
            "plan",
            "stop",
            "unassigned_stop",
            "operation",
            "depot",
            "member",
            "driver",
            "route",
        ):
            camel = "".join(part.capitalize() if i else part for i, part in enumerate(placeholder.split("_")))
            path = path.replace(f"{{{placeholder}}}", f"{{{camel}Id}}")
        path = path.replace("{custom_stop_property}", "{customStopPropertyId}")
        table.add((endpoint.method, path, OPERATION_IDS[name]))
    assert table == official
    assert {case.name for case in CASES} == set(ENDPOINTS)
    assert len(CASES) == len(ENDPOINTS) == 52


def test_every_endpoint_is_in_the_v1_category_the_public_text_gives() -> None:
    categories = {name: endpoint.category for name, endpoint in ENDPOINTS.items()}
    assert categories["drivers.create"] is Category.DRIVER_CREATE
    assert categories["drivers.import_batch"] is Category.DRIVER_IMPORT
    assert categories["depots.import_batch"] is Category.DEPOT_IMPORT
    assert categories["members.import_batch"] is Category.MEMBER_IMPORT
    assert categories["stops.search"] is Category.READ
    batch = {"stops.import_batch", "stops.live_import_batch", "unassigned_stops.import_batch"}
    assert {n for n, c in categories.items() if c is Category.BATCH_IMPORT} == batch
    assert {n for n, c in categories.items() if c is Category.OPTIMIZE} == {
        "plans.optimize",
        "plans.reoptimize",
    }
    for name, endpoint in ENDPOINTS.items():
        if endpoint.method == "GET":
            assert endpoint.category is Category.READ, name
        elif categories[name] not in (Category.BATCH_IMPORT, Category.OPTIMIZE) and "import" not in name:
            assert endpoint.category in (Category.WRITE, Category.DRIVER_CREATE), name
    limits = RateLimits.public_docs()
    assert all(limits.for_category(category) for category in set(categories.values()))


@pytest.mark.asyncio
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
async def test_request_shape(case: Case, client: RoutePlanningClient, service: FakeService) -> None:
    body = None if case.status == 204 else case.answer
    service.on(case.method, case.path, answer(body, status=case.status))
    result = await case.call(client)
    [request] = service.requests
    [sent] = service.sent
    assert (sent.method, sent.path, sent.query) == (case.method, case.path, case.query)
    if case.body is NO_BODY:
        assert request.body is None
    else:
        assert sent.body == case.body
    assert request.category is ENDPOINTS[case.name].category
    assert request.weight == case.weight
    if case.result is not None:
        assert isinstance(result, case.result)
    if case.status == 204:
        assert result is None


@pytest.mark.asyncio
async def test_search_yields_stops_and_unassigned_stops_and_skips_unknown_kinds(
    client: RoutePlanningClient, service: FakeService
) -> None:
    hits = [
        {"type": "stop", "stop": {"id": STOP_ID}},
        {"type": "unassignedStop", "unassignedStop": {"id": "unassignedStops/u1"}},
    ]
    service.on(
        "GET",
        "/stops:search",
        answer({"stops": hits[:1], "nextPageToken": "t2"}),
        answer({"stops": [*hits[1:], {"type": "newKind", "newKind": {}}], "nextPageToken": None}),
    )
    found = [hit async for hit in client.stops.search(filter='notes ~= "gate"')]
    assert [type(hit) for hit in found] == [Stop, UnassignedStop]
    assert [hit.id for hit in found] == [STOP_ID, "unassignedStops/u1"]
    first, second = service.sent
    assert first.query == (("filter", 'notes ~= "gate"'),)
    assert second.query == (("filter", 'notes ~= "gate"'), ("pageToken", "t2"))


@pytest.mark.asyncio
async def test_a_search_page_token_has_no_length_bound_as_the_document_says(
    client: RoutePlanningClient, service: FakeService
) -> None:
    long = "t" * 400  # the other lists' tokens stop at 255
    service.on(
        "GET",
        "/stops:search",
        answer({"stops": [{"type": "stop", "stop": {"id": STOP_ID}}], "nextPageToken": long}),
        answer({"stops": [], "nextPageToken": None}),
        answer({"stops": [], "nextPageToken": None}),
    )
    assert [hit.id for hit in await client.stops.search(keyword="gate").collect()] == [STOP_ID]
    assert await client.stops.search(keyword="gate", page_token=long).collect() == []
    assert [sent.query for sent in service.sent][1:] == [(("keyword", "gate"), ("pageToken", long))] * 2
    with pytest.raises(ValidationError, match="at least 1 character"):
        client.stops.search(page_token="")
    with pytest.raises(ValidationError, match="1 to 255 characters, got 400"):
        client.plans.list(page_token=long)


@pytest.mark.parametrize(
    ("arguments", "field_name"),
    [
        ({"keyword": ""}, "keyword"),
        ({"keyword": "x" * 256}, "keyword"),
        ({"filter": ""}, "filter"),
        ({"filter": "a" * 2049}, "filter"),
        ({"filter": 3}, "filter"),
        ({"sort_field": "nope"}, "sort_field"),
        ({"sort_order": "up"}, "sort_order"),
        ({"max_page_size": 0}, "max_page_size"),
        ({"max_page_size": 21}, "max_page_size"),
    ],
)
@pytest.mark.asyncio
async def test_search_arguments_are_checked_before_anything_is_sent(
    client: RoutePlanningClient, arguments: dict[str, Any], field_name: str
) -> None:
    with pytest.raises(ValidationError) as raised:
        client.stops.search(**arguments)
    assert raised.value.field == field_name


@pytest.mark.asyncio
async def test_updates_refuse_what_v1_cannot_change(client: RoutePlanningClient) -> None:
    with pytest.raises(ValidationError, match="location"):
        await client.stops.update(STOP_ID, address=ADDRESS)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="e-mail"):
        await client.members.update("m1", email="b@example.com")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        await client.plans.create(PlanInput(title="T", starts=datetime.date(2026, 1, 1)), title="U")
    with pytest.raises(ValidationError):
        await client.depots.create({"name": "North"})  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_plans_create_takes_keywords_as_v0_2b_does(
    client: RoutePlanningClient, service: FakeService
) -> None:
    service.on("POST", "/plans", answer(PLAN))
    await client.plans.create(title="Monday", starts=datetime.date(2026, 11, 23), drivers=("d1",))
    [sent] = service.sent
    assert sent.body == {
        "title": "Monday",
        "starts": {"day": 23, "month": 11, "year": 2026},
        "drivers": ["drivers/d1"],
    }


@pytest.mark.asyncio
async def test_get_by_serialized_id_reads_through_each_namespace(
    client: RoutePlanningClient, service: FakeService
) -> None:
    service.on("GET", "/depots/d1", answer({"id": "depots/d1"}))
    service.on("GET", "/plans/p1/stops/s1", answer({"id": STOP_ID}))
    assert isinstance(await client.get("depots/d1"), Depot)
    assert isinstance(await client.get(STOP_ID), Stop)
    with pytest.raises(ValidationError):
        await client.get("members/m1")


@pytest.mark.asyncio
async def test_raw_finds_v1_categories(client: RoutePlanningClient, service: FakeService) -> None:
    service.on("POST", "/depots:import", answer({"success": [], "failed": []}))
    response = await client.raw.request("POST", "/depots:import", json=[{"name": "N", "routeOverrides": {}}])
    assert response.status == 200
    assert service.requests[0].category is Category.DEPOT_IMPORT


def test_the_client_defaults_to_v1s_address_and_the_public_documentations_limits() -> None:
    client = RoutePlanningClient("key")
    assert client.base_url == "https://api.spoke.com/public/v1"
    assert client.rate_limits == RateLimits.public_docs()
    assert {"plans", "stops", "depots", "members", "routes", "operations"} <= set(vars(client))
