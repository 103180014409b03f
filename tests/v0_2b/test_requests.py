"""Request shapes of every endpoint, through a scripted transport (any aiohttp).

For each call: method, path, query parameters, the exact JSON body (or no body
at all for the action calls), the request's weight, and the model that comes
back; error answers and answers of the wrong shape. What aiohttp then puts on
the wire (headers, URL joining, query encoding) is ``test_wire.py``'s.
"""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import attrs
import pytest
import pytest_asyncio
from support.fake_transport import FakeService, answer
from support.fixtures import load, scripted_client

import route_planning_async as rp

pytestmark = pytest.mark.asyncio

BASE = "https://api.example.test/public/v0.2b"
KEY = "test-key-5f3a"
NO_BODY = object()


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest_asyncio.fixture
async def client(service: FakeService) -> AsyncIterator[rp.RoutePlanningClient]:
    async with scripted_client(service, KEY) as opened:
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
    weight: int = 1


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
        weight=2,
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
    # The rest of the official schema (public API documentation; not in the contract)
    Case(
        "custom_stop_properties.get",
        lambda c: c.custom_stop_properties.get("6f1c7a7e-0000-4000-8000-000000000001"),
        "GET",
        "/team/customStopProperties/6f1c7a7e-0000-4000-8000-000000000001",
        answer=load("custom_stop_property.json"),
        result=rp.CustomStopProperty,
    ),
    Case(
        "operations.cancel",
        lambda c: c.operations.cancel("operations/o1"),
        "POST",
        "/operations/o1:cancel",
        answer=load("operation_canceled.json"),
        result=rp.Operation,
    ),
    Case(
        "stops.live_import_batch",
        lambda c: c.stops.live_import_batch(
            "plans/p1", [rp.StopInput(address=ADDRESS), rp.StopInput(address=rp.AddressInput(city="Paris"))]
        ),
        "POST",
        "/plans/p1/stops:liveImport",
        body=[{"address": ADDRESS_JSON}, {"address": {"city": "Paris"}}],
        answer=load("live_import_result.json"),
        result=rp.LiveImportResult,
        weight=2,
    ),
    Case(
        "routes.get",
        lambda c: c.routes.get("routes/r1"),
        "GET",
        "/routes/r1",
        answer=load("route.json"),
        result=rp.Route,
    ),
    Case(
        "drivers.list",
        _list(lambda c: c.drivers.list(filter={"active": True}, max_page_size=50)),
        "GET",
        "/drivers",
        params=(("maxPageSize", "50"), ("filter[active]", "true")),
        answer={"drivers": [load("driver.json")], "nextPageToken": None},
        result=list,
    ),
    Case(
        "drivers.get",
        lambda c: c.drivers.get("d1"),
        "GET",
        "/drivers/d1",
        answer=load("driver.json"),
        result=rp.Driver,
    ),
    Case(
        "drivers.create",
        lambda c: c.drivers.create(
            rp.DriverInput(
                name="Ana Lima",
                email="ana@example.com",
                depots=["main", "depots/main", "north"],
                route_overrides=rp.RouteOverridesInput(
                    start_time=datetime.time(7, 30),
                    start_address=rp.AddressInput(address_line_one="1 Depot Way"),
                    max_stops=40,
                    vehicle_type="car",
                ),
            )
        ),
        "POST",
        "/drivers",
        body={
            "name": "Ana Lima",
            "email": "ana@example.com",
            "depots": ["depots/main", "depots/north"],
            "routeOverrides": {
                "startAddress": {"addressLineOne": "1 Depot Way"},
                "startTime": {"hour": 7, "minute": 30},
                "maxStops": 40,
                "vehicleType": "car",
            },
        },
        answer=load("driver.json"),
        result=rp.Driver,
    ),
    Case(
        "drivers.create minimal",
        lambda c: c.drivers.create(rp.DriverInput(phone="+440000000009")),
        "POST",
        "/drivers",
        body={"phone": "+440000000009"},
        answer=load("driver.json"),
        result=rp.Driver,
    ),
    Case(
        "drivers.update",
        lambda c: c.drivers.update("drivers/d1", display_name="Ana L.", depots=None),
        "PATCH",
        "/drivers/d1",
        body={"displayName": "Ana L.", "depots": None},
        answer=load("driver.json"),
        result=rp.Driver,
    ),
    Case(
        "drivers.update object",
        lambda c: c.drivers.update(
            "d1", rp.DriverUpdate(route_overrides=rp.RouteOverridesInput(driving_speed="faster"))
        ),
        "PATCH",
        "/drivers/d1",
        body={"routeOverrides": {"drivingSpeed": "faster"}},
        answer=load("driver.json"),
        result=rp.Driver,
    ),
    Case("drivers.delete", lambda c: c.drivers.delete("drivers/d1"), "DELETE", "/drivers/d1", status=204),
    Case(
        "drivers.import_batch",
        lambda c: c.drivers.import_batch(
            [rp.DriverInput(name="Ana", email="ana@example.com"), rp.DriverInput(name="Ben", phone="+44")]
        ),
        "POST",
        "/drivers:import",
        body=[{"name": "Ana", "email": "ana@example.com"}, {"name": "Ben", "phone": "+44"}],
        answer=load("driver_import_result.json"),
        result=rp.DriverImportResult,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_endpoint_request_shape(
    service: FakeService, client: rp.RoutePlanningClient, case: Case
) -> None:
    service.on(case.method, case.path, answer(case.answer, status=case.status))

    result: Any = await case.call(client)

    [request] = service.requests
    [sent] = service.sent
    assert (sent.method, sent.path, sent.query) == (case.method, case.path, case.params)
    if case.body is NO_BODY:
        assert request.body is None
    else:
        assert sent.body == case.body
    assert sent.weight == case.weight
    if case.result is None:
        assert result is None
    else:
        assert isinstance(result, case.result)
        if isinstance(result, list):
            assert result
            assert len({type(item) for item in result}) == 1


async def test_every_endpoint_of_the_table_is_covered() -> None:
    from route_planning_async.v0_2b._endpoints import ENDPOINTS

    covered = {case.name.split(" ")[0] for case in CASES}
    assert covered == set(ENDPOINTS)


@pytest.mark.parametrize(
    ("serialized_id", "path", "fixture", "model"),
    [
        ("plans/p1", "/plans/p1", "plan.json", rp.Plan),
        ("plans/p1/stops/s1", "/plans/p1/stops/s1", "stop.json", rp.Stop),
        ("unassignedStops/u1", "/unassignedStops/u1", "unassigned_stop.json", rp.UnassignedStop),
        ("operations/o1", "/operations/o1", "operation_success.json", rp.Operation),
        ("depots/main", "/depots/main", "depot.json", rp.Depot),
        ("routes/r1", "/routes/r1", "route.json", rp.Route),
        ("drivers/d1", "/drivers/d1", "driver.json", rp.Driver),
    ],
)
async def test_client_get_dispatches_on_the_serialized_id(
    service: FakeService,
    client: rp.RoutePlanningClient,
    serialized_id: str,
    path: str,
    fixture: str,
    model: type,
) -> None:
    service.on("GET", path, answer(load(fixture)))
    result = await client.get(serialized_id)
    assert isinstance(result, model)
    assert [(s.method, s.path, s.query, s.body) for s in service.sent] == [("GET", path, (), None)]


async def test_import_batch_weighs_the_number_of_stops(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on("POST", "/plans/p1/stops:import", answer(load("import_result.json")))
    service.on("POST", "/unassignedStops:import", answer(load("unassigned_import_result.json")))
    await client.stops.import_batch("p1", [rp.StopInput(address=ADDRESS)] * 7)
    await client.unassigned_stops.import_batch([rp.UnassignedStopInput(address=ADDRESS)] * 3)
    assert [(r.category, r.weight) for r in service.requests] == [
        (rp.Category.BATCH_IMPORT, 7),
        (rp.Category.BATCH_IMPORT, 3),
    ]


async def test_import_many_goes_through_import_batch(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on(
        "POST",
        "/plans/p1/stops:import",
        answer({"success": ["plans/p1/stops/a", "plans/p1/stops/b"], "failed": []}),
    )
    service.on("POST", "/unassignedStops:import", answer({"success": ["unassignedStops/u1"], "failed": []}))
    stops = [rp.StopInput(address=ADDRESS), rp.StopInput(address=rp.AddressInput(city="Paris"))]
    report = await client.stops.import_many("p1", stops)
    unassigned = await client.unassigned_stops.import_many(
        [rp.UnassignedStopInput(address=ADDRESS)], depot="north"
    )
    assert list(report.created_ids()) == [(0, "plans/p1/stops/a"), (1, "plans/p1/stops/b")]
    assert list(unassigned.created_ids()) == [(0, "unassignedStops/u1")]
    assert [(s.method, s.path, s.body, s.weight) for s in service.sent] == [
        ("POST", "/plans/p1/stops:import", [{"address": ADDRESS_JSON}, {"address": {"city": "Paris"}}], 2),
        (
            "POST",
            "/unassignedStops:import",
            {"unassignedStops": [{"address": ADDRESS_JSON}], "depot": "depots/north"},
            1,
        ),
    ]


async def test_error_answers_become_exceptions(service: FakeService, client: rp.RoutePlanningClient) -> None:
    service.on(
        "PATCH",
        "/plans/p1",
        answer({"message": "Plan is not writable", "code": "plan_not_writable"}, status=409),
    )
    with pytest.raises(rp.PlanNotWritableError) as info:
        await client.plans.update("p1", title="x")
    assert info.value.status == 409
    assert info.value.code == "plan_not_writable"
    assert info.value.method == "PATCH"
    assert info.value.request_url == f"{BASE}/plans/p1"


async def test_an_answer_of_the_wrong_shape_is_a_clear_error(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on("GET", "/plans/p1", answer({"id": "plans/p1", "title": "t", "starts": "2026-11-23"}))
    with pytest.raises(rp.DecodeError, match="at starts: expected a Date object") as info:
        await client.plans.get("p1")
    assert (info.value.path, info.value.value) == ("starts", "2026-11-23")
    service.on("GET", "/plans/p2", answer([1, 2]))
    with pytest.raises(rp.RoutePlanningError, match="expected a JSON object"):
        await client.plans.get("p2")
    service.on("GET", "/depots", answer({"depots": [{"name": "no id"}], "nextPageToken": None}))
    with pytest.raises(rp.DecodeError, match=r"at \[0\]\.id: a required key is missing"):
        await client.depots.list().collect()


@pytest.mark.parametrize("body", [[1, 2], "plans/p2", 3, None])
async def test_an_answer_that_is_not_a_json_object_is_a_decode_error(
    service: FakeService, client: rp.RoutePlanningClient, body: object
) -> None:
    service.on("GET", "/plans/p2", answer(body))
    with pytest.raises(rp.DecodeError, match="expected a JSON object") as info:
        await client.plans.get("p2")
    assert (info.value.path, info.value.value) == ("", body)
    assert info.value.method == "GET"
    assert info.value.request_url == f"{BASE}/plans/p2"
    assert str(info.value).startswith(f"GET {BASE}/plans/p2: ")


@pytest.mark.parametrize("body", [[{"id": "depots/d1"}], "depots"])
async def test_a_list_page_that_is_not_a_json_object_is_a_decode_error(
    service: FakeService, client: rp.RoutePlanningClient, body: object
) -> None:
    service.on("GET", "/depots", answer(body))
    with pytest.raises(rp.DecodeError, match="expected a JSON object") as info:
        await client.depots.list().collect()
    assert (info.value.method, info.value.request_url) == ("GET", f"{BASE}/depots")


async def test_new_endpoints_go_in_their_rate_limit_categories(
    service: FakeService, client: rp.RoutePlanningClient
) -> None:
    service.on("POST", "/drivers", answer(load("driver.json")))
    service.on("POST", "/drivers:import", answer(load("driver_import_result.json")))
    service.on("POST", "/operations/o1:cancel", answer(load("operation_canceled.json")))
    service.on("POST", "/plans/p1/stops:liveImport", answer(load("live_import_result.json")))
    await client.drivers.create(rp.DriverInput(email="a@example.com"))
    await client.drivers.import_batch([rp.DriverInput(email="a@example.com")] * 3)
    await client.operations.cancel("o1")
    await client.stops.live_import_batch("p1", [rp.StopInput(address=ADDRESS)] * 4)
    assert [(r.category, r.weight) for r in service.requests] == [
        (rp.Category.DRIVER_CREATE, 1),
        (rp.Category.DRIVER_IMPORT, 1),
        (rp.Category.WRITE, 1),
        (rp.Category.BATCH_IMPORT, 4),
    ]


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda c: c.drivers.get("drivers/../x"), "driver_id"),
        (lambda c: c.routes.get("routes/a?b"), "route_id"),
        (lambda c: c.operations.cancel("operations/"), "operation_id"),
        (lambda c: c.custom_stop_properties.get("../team"), "custom_stop_property_id"),
        (lambda c: c.drivers.list(filter={"active": "yes"}), "filter[active]"),
        (lambda c: c.drivers.list(filter={"name": "Ana"}), "filter"),
        (lambda c: c.drivers.list(max_page_size=51), "max_page_size"),
        (lambda c: c.drivers.update("d1", email="x@example.com"), "email"),
        (lambda c: c.drivers.update("d1", active=False), "active"),
        (lambda c: c.drivers.import_batch([]), "drivers"),
        (lambda c: c.drivers.import_batch([rp.DriverInput(email="a@example.com")] * 51), "drivers"),
        (lambda c: c.drivers.import_batch(["ana@example.com"]), "drivers[0]"),
        (lambda c: c.drivers.create("ana@example.com"), "driver"),
        (lambda c: c.stops.live_import_batch("p1", []), "stops"),
    ],
)
async def test_bad_input_of_the_new_calls_is_refused_before_sending(
    service: FakeService, client: rp.RoutePlanningClient, call: Call, field: str
) -> None:

    async def invoke() -> Any:
        result = call(client)
        return await (result.collect() if isinstance(result, rp.Paginator) else result)

    with pytest.raises(rp.ValidationError) as info:
        await invoke()
    assert info.value.field == field
    assert service.sent == []


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: rp.DriverInput(email="not an e-mail"), "email"),
        (lambda: rp.DriverInput(name=""), "name"),
        (lambda: rp.DriverInput(phone="x" * 256), "phone"),
        (lambda: rp.DriverInput(depots=[]), "depots"),
        (lambda: rp.DriverInput(depots=[f"d{i}" for i in range(51)]), "depots"),
        (lambda: rp.DriverInput(depots=["depots/a b"]), "depots[0]"),
        (lambda: rp.RouteOverridesInput(max_stops=-1), "route_overrides.max_stops"),
        (lambda: rp.RouteOverridesInput(driving_speed="fast"), "route_overrides.driving_speed"),
        (lambda: rp.RouteOverridesInput(vehicle_type="boat"), "route_overrides.vehicle_type"),
        (
            lambda: rp.RouteOverridesInput(start_time=datetime.time(7, 30, 5)),
            "route_overrides.start_time",
        ),
        (lambda: rp.RouteOverridesInput(end_address="1 Main St"), "route_overrides.end_address"),
        (lambda: rp.DriverInput(route_overrides="late"), "route_overrides"),
    ],
)
async def test_driver_inputs_check_the_official_schema_bounds(make: Callable[[], object], field: str) -> None:
    with pytest.raises(rp.ValidationError) as info:
        make()
    assert info.value.field == field
