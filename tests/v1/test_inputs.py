"""v1's inputs: every body they accept validates against the official v1 request schema,
and every rule of the schema they check says so in a clear ValidationError.

The property builds each input class from wide values (lengths past every bound,
numbers past every range, every enumerated value of any field, None and UNSET),
its nested inputs likewise; an input the constructor refuses is fine, and every
one it accepts, put in the body of each request that takes it, must be valid
under that request's schema in ``tests/emulator/data/public-openapi-v1.json``.
"""

from __future__ import annotations

import datetime
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from emulator.openapi import V1
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import route_planning_async as rp
from route_planning_async import _inputs as shared
from route_planning_async.v1 import _converter, _inputs
from route_planning_async.v1._inputs import (
    UNSET,
    AddressInput,
    DepotInput,
    DepotRouteOverridesInput,
    DepotUpdate,
    DriverInput,
    LiveStopUpdate,
    MemberInput,
    MemberUpdate,
    OrderInfoInput,
    PlanInput,
    PlanRouteOverridesInput,
    PlanUpdate,
    ServiceInfoInput,
    StopInput,
    StopUpdate,
    UnassignedStopInput,
)

_DOCUMENT = Path(__file__).parent.parent / "emulator" / "data" / "public-openapi-v1.json"

SETTINGS = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


# Wide values for every field, by its annotation ----------------------------------------

_ENUMERATED = sorted(
    shared.ACTIVITIES
    | shared.OPTIMIZATION_ORDERS
    | shared.DRIVING_SPEEDS
    | shared.VEHICLE_TYPES
    | _inputs.MEMBER_ROLES
    | _inputs.ROAD_SIDES
    | _inputs.OPTIMIZATION_OBJECTIVES
    | _inputs.OPTIMIZATION_SUB_OBJECTIVES
    | {"kilogram", "pound", "metric-ton", "EUR", "USD", "XXX"}
)
_WORDS = st.sampled_from([*_ENUMERATED, "a@b.co", "Ana.Li@example.com", "bad@", "d1", "drivers/d-1", "x/y"])
_EDGES = [n * "x" for n in (0, 1, 32, 33, 50, 51, 100, 101, 255, 256, 2000, 2001, 2048, 2049)]
_TEXT = (
    _WORDS
    | st.sampled_from([*_EDGES, "abc-1", "\ud800", "ü"])
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=8)
)
_NUMBERS = st.integers(-5, 12000) | st.floats(-1e7, 1e7, allow_nan=False) | st.sampled_from([0, 0.01, 2**53])
_TIMES = st.times() | st.builds(datetime.time, st.integers(0, 23), st.integers(0, 59))
_DATES = st.dates(datetime.date(1990, 1, 1), datetime.date(2110, 12, 31)) | st.datetimes()
_LISTS = (
    st.lists(_TEXT, max_size=3)
    | st.lists(st.sampled_from(["d1", "drivers/d-1", "depots/x", "x/y"]), max_size=3)
    | st.builds(lambda n: [f"d{i}" for i in range(n)], st.sampled_from([0, 50, 51, 101]))
)
_PROPERTIES = st.dictionaries(_TEXT, st.none() | _TEXT, max_size=3)

_CLASSES: dict[str, type] = {
    name: cls for name in _inputs.__all__ if attrs.has(cls := getattr(_inputs, name))
}


def _optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.just(UNSET) | st.none() | strategy


def _for_annotation(annotation: str, depth: int) -> st.SearchStrategy[Any]:
    """Values for a field annotated ``annotation``: right and wrong ones."""
    nested = [name for name in re.findall(r"\w+", annotation) if name in _CLASSES]
    if nested:
        return _optional(built(_CLASSES[nested[0]], depth + 1) if depth < 2 else st.nothing())
    if annotation.startswith("list["):
        return _optional(_LISTS)
    if annotation.startswith("dict["):
        return _optional(_PROPERTIES)
    if "datetime.time" in annotation:
        return _optional(_TIMES)
    if "datetime.date" in annotation:
        return _optional(_DATES)
    if annotation.startswith("bool"):
        return _optional(st.booleans() | st.just(1))
    if annotation.startswith(("int", "float")):
        return _optional(_NUMBERS)
    return _optional(_TEXT)


@functools.cache
def built(cls: type, depth: int = 0) -> st.SearchStrategy[Any]:
    """``cls(**drawn fields)``, or None when the constructor refuses them.

    Each optional field is given one time in three (so that an input with a few
    fields, each right or wrong, is often accepted); a required one always, and a
    required nested input is one its constructor accepted.
    """
    fields = {field.name: _for_annotation(str(field.type), depth) for field in attrs.fields(cls)}
    required = {field.name for field in attrs.fields(cls) if field.default is attrs.NOTHING}
    for name in required:
        fields[name] = fields[name].filter(lambda value: value is not UNSET and value is not None)

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        kwargs = {
            name: draw(strategy)
            for name, strategy in fields.items()
            if name in required or draw(st.integers(0, 2)) == 0
        }
        try:
            return cls(**{name: value for name, value in kwargs.items() if value is not UNSET})
        except rp.ValidationError:
            return None

    return build()


# Which request takes which input, and how its body holds it -----------------------------

Body = Callable[[Any], Any]


def _one(item: Any) -> Any:
    return _converter.unstructure(item)


def _listed(item: Any) -> Any:
    return [_converter.unstructure(item)]


def _unassigned_batch(item: UnassignedStopInput) -> Any:
    return {
        "unassignedStops": [_converter.unstructure(attrs.evolve(item, depot=UNSET))],
        "depot": "depots/d1",
    }


REQUESTS: list[tuple[type, str, str, Body]] = [
    (StopInput, "/plans/{planId}/stops", "post", _one),
    (StopInput, "/plans/{planId}/stops:import", "post", _listed),
    (StopInput, "/plans/{planId}/stops:liveCreate", "post", _one),
    (StopInput, "/plans/{planId}/stops:liveImport", "post", _listed),
    (StopUpdate, "/plans/{planId}/stops/{stopId}", "patch", _one),
    (LiveStopUpdate, "/plans/{planId}/stops/{stopId}:liveUpdate", "post", _one),
    (UnassignedStopInput, "/unassignedStops", "post", _one),
    (UnassignedStopInput, "/unassignedStops:import", "post", _unassigned_batch),
    (_inputs.UnassignedStopUpdate, "/unassignedStops/{unassignedStopId}", "patch", _one),
    (PlanInput, "/plans", "post", _one),
    (PlanUpdate, "/plans/{planId}", "patch", _one),
    (DriverInput, "/drivers", "post", _one),
    (DriverInput, "/drivers:import", "post", _listed),
    (_inputs.DriverUpdate, "/drivers/{driverId}", "patch", _one),
    (DepotInput, "/depots", "post", _one),
    (DepotInput, "/depots:import", "post", _listed),
    (DepotUpdate, "/depots/{depotId}", "patch", _one),
    (MemberInput, "/members", "post", _one),
    (MemberInput, "/members:import", "post", _listed),
    (MemberUpdate, "/members/{memberId}", "patch", _one),
]


def test_every_request_body_of_the_document_has_an_input() -> None:
    document = json.loads(_DOCUMENT.read_text(encoding="utf-8"))
    taking = {
        (template, method)
        for template, methods in document["paths"].items()
        for method, operation in methods.items()
        if isinstance(operation, dict) and "requestBody" in operation
    }
    covered = {(template, method) for _, template, method, _ in REQUESTS}
    assert taking - covered == {("/plans/{planId}:reoptimize", "post")}
    assert not V1.request_errors(
        "/plans/{planId}:reoptimize", "post", _inputs.reoptimization_body("reorder_all_stops")
    )


@pytest.mark.parametrize(
    ("cls", "template", "method", "body"),
    REQUESTS,
    ids=[f"{method} {template} {cls.__name__}" for cls, template, method, _ in REQUESTS],
)
def test_every_accepted_input_is_a_valid_request(cls: type, template: str, method: str, body: Body) -> None:
    @SETTINGS
    @given(built(cls))
    def check(item: Any) -> None:
        if item is None:
            return  # refused before anything was sent
        errors = V1.request_errors(template, method, body(item))
        assert not errors, (item, errors[:5])

    check()


@pytest.mark.parametrize(
    ("cls", "template", "method", "body"), [row for row in REQUESTS if row[3] is _one][:1]
)
def test_the_property_reaches_the_bounds(cls: type, template: str, method: str, body: Body) -> None:
    """The wide values are wide enough: some inputs are refused, some carry every field."""
    seen: set[str] = set()
    refused: list[bool] = []

    @SETTINGS
    @given(built(cls))
    def collect(item: Any) -> None:
        refused.append(item is None)
        seen.update(body(item) if item is not None else ())

    collect()
    assert {"address", "serviceInfo", "clientId", "orderInfo", "allowedDrivers"} <= seen
    assert any(refused)
    assert not all(refused)


# The rules, one by one ---------------------------------------------------------------

_WHERE = AddressInput(city="Lisbon")
_AT_EIGHT = datetime.time(8, 0)


def _depot(**overrides: Any) -> DepotRouteOverridesInput:
    return DepotRouteOverridesInput(**{"start_address": _WHERE, "start_time": _AT_EIGHT, **overrides})


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: ServiceInfoInput(identifier="a-b"), "service_info.identifier"),
        (lambda: ServiceInfoInput(identifier="x" * 33), "service_info.identifier"),
        (lambda: ServiceInfoInput(identifier=""), "service_info.identifier"),
        (lambda: ServiceInfoInput(sla_starts_at=0), "service_info.sla_starts_at"),
        (lambda: ServiceInfoInput(sla_starts_at=1.5), "service_info.sla_starts_at"),
        (
            lambda: ServiceInfoInput(sla_starts_at=datetime.datetime(2026, 3, 2, 8)),
            "service_info.sla_starts_at",
        ),
        (
            lambda: ServiceInfoInput(
                sla_starts_at=datetime.datetime(2026, 3, 2, 8, 0, 0, 5, tzinfo=datetime.UTC)
            ),
            "service_info.sla_starts_at",
        ),
        (lambda: OrderInfoInput(invoice_number=""), "order_info.invoice_number"),
        (lambda: StopInput(address=_WHERE, client_id="x" * 101), "client_id"),
        (lambda: StopInput(address=_WHERE, allowed_drivers=["drivers/a b"]), "allowed_drivers[0]"),
        (lambda: StopInput(address=_WHERE, allowed_drivers=["d"] * 101), "allowed_drivers"),
        (lambda: StopInput(address=_WHERE, service_info={"identifier": "A"}), "service_info"),  # type: ignore[arg-type]
        (lambda: PlanInput(title="t", starts=datetime.date(1999, 12, 31)), "starts"),
        (lambda: PlanInput(title="t", starts=datetime.date(2101, 1, 1)), "starts"),
        (
            lambda: PlanRouteOverridesInput(
                optimization_settings=_inputs.OptimizationSettingsInput(objective="x")
            ),
            "route_overrides.optimization_settings.objective",
        ),
        (lambda: DepotInput(name="", route_overrides=_depot()), "name"),
        (lambda: DepotInput(name="x" * 2049, route_overrides=_depot()), "name"),
        (
            lambda: DepotInput(name="D", route_overrides=_depot(start_time=UNSET)),
            "route_overrides.start_time",
        ),
        (
            lambda: DepotInput(name="D", route_overrides=DepotRouteOverridesInput(start_time=_AT_EIGHT)),
            "route_overrides.start_address",
        ),
        (lambda: _depot(start_address=None), "route_overrides.start_address"),
        (lambda: _depot(start_time=None), "route_overrides.start_time"),
        (lambda: _depot(road_side="middle"), "route_overrides.road_side"),
        (lambda: _depot(max_stops=-1), "route_overrides.max_stops"),
        (lambda: _depot(round_trip="yes"), "route_overrides.round_trip"),
        (lambda: DepotUpdate(name=None), "name"),  # type: ignore[arg-type]
        (lambda: MemberInput(role="owner"), "role"),
        (lambda: MemberInput(role="admin", email="not-an-email"), "email"),
        (lambda: MemberInput(role="admin", linked_driver_id="a/b"), "linked_driver_id"),
        (lambda: MemberInput(role="admin", depots=[]), "depots"),
        (lambda: MemberInput(role="admin", depots=[f"d{i}" for i in range(51)]), "depots"),
        (lambda: MemberUpdate(role="driver"), "role"),
        (lambda: _inputs.check_depot_batch([DepotInput(name="D", route_overrides=_depot())] * 101), "depots"),
        (lambda: _inputs.check_member_batch([MemberInput(role="admin")] * 51), "members"),
        (lambda: _inputs.check_member_batch([object()]), "members[0]"),
        (
            lambda: _inputs.check_no_depot(UnassignedStopInput(address=_WHERE, depot="d"), "stops[2]"),
            "stops[2].depot",
        ),
    ],
)
def test_a_bad_input_names_its_field(make: Callable[[], object], field: str) -> None:
    with pytest.raises(rp.ValidationError) as caught:
        make()
    assert caught.value.field == field


def test_member_requires_a_role() -> None:
    with pytest.raises(TypeError, match="role"):
        MemberInput()  # type: ignore[call-arg]


def test_the_v1_shapes_on_the_wire() -> None:
    stop = StopInput(
        address=_WHERE,
        client_id="c1",
        allowed_drivers=["d1"],
        order_info=OrderInfoInput(invoice_number="INV-1"),
        service_info=ServiceInfoInput(identifier="Express1", sla_starts_at=1_700_000_000),
    )
    assert _converter.unstructure(stop) == {
        "address": {"city": "Lisbon"},
        "orderInfo": {"invoiceNumber": "INV-1"},
        "allowedDrivers": ["drivers/d1"],
        "clientId": "c1",
        "serviceInfo": {"identifier": "Express1", "slaStartsAt": 1_700_000_000},
    }
    assert _converter.unstructure(StopUpdate(service_info=None)) == {"serviceInfo": None}
    member = MemberInput(role="dispatcher", email="a@b.co", linked_driver_id="d1", depots=["x", "depots/x"])
    assert _converter.unstructure(member) == {
        "role": "dispatcher",
        "depots": ["depots/x"],
        "email": "a@b.co",
        "linkedDriverId": "drivers/d1",
    }
    depot = DepotInput(name="North", route_overrides=_depot(round_trip=True, default_time_at_stop=90))
    assert _converter.unstructure(depot) == {
        "name": "North",
        "routeOverrides": {
            "startAddress": {"city": "Lisbon"},
            "startTime": {"hour": 8, "minute": 0},
            "defaultTimeAtStop": 90,
            "roundTrip": True,
        },
    }


def test_v1_has_no_driver_field_and_live_updates_take_no_service_info() -> None:
    names = {field.name for field in attrs.fields(StopInput)}
    assert "driver" not in names
    assert "service_info" in names
    assert "service_info" not in {field.name for field in attrs.fields(LiveStopUpdate)}
    assert "service_info" not in {field.name for field in attrs.fields(UnassignedStopInput)}
    with pytest.raises(TypeError):
        StopInput(address=_WHERE, driver="d1")  # type: ignore[call-arg]


def test_the_bodies_v1_shares_with_v0_2b_are_one_class() -> None:
    from route_planning_async.v0_2b import _inputs as v0_2b

    for name in (
        "AddressInput",
        "RecipientInput",
        "TimingInput",
        "WeightInput",
        "DriverInput",
        "DriverUpdate",
    ):
        assert getattr(_inputs, name) is getattr(v0_2b, name)
    assert _inputs.OrderInfoInput is not v0_2b.OrderInfoInput
    assert _inputs.StopInput is not v0_2b.StopInput


def test_the_batch_limits_are_the_schemas() -> None:
    document = json.loads(_DOCUMENT.read_text(encoding="utf-8"))

    def most(template: str) -> int:
        schema = document["paths"][template]["post"]["requestBody"]["content"]["application/json"]["schema"]
        schema = schema["properties"]["unassignedStops"] if "properties" in schema else schema
        return int(schema["maxItems"])

    assert most("/plans/{planId}/stops:import") == _inputs.MAX_IMPORT_BATCH
    assert most("/plans/{planId}/stops:liveImport") == _inputs.MAX_IMPORT_BATCH
    assert most("/unassignedStops:import") == _inputs.MAX_IMPORT_BATCH
    assert most("/drivers:import") == _inputs.MAX_DRIVER_IMPORT_BATCH
    assert most("/depots:import") == _inputs.MAX_DEPOT_IMPORT_BATCH
    assert most("/members:import") == _inputs.MAX_MEMBER_IMPORT_BATCH


def test_public_names_are_sorted_and_every_field_is_described() -> None:
    assert _inputs.__all__ == sorted(_inputs.__all__, key=lambda name: (not name.isupper(), name))
    for cls in _CLASSES.values():
        doc = cls.__doc__ or ""
        for field in attrs.fields(cls):
            assert f"    {field.name} (" in doc, (cls.__name__, field.name)


def test_the_sla_start_may_be_an_aware_datetime_as_a_stop_reads_it_back() -> None:
    paris = datetime.timezone(datetime.timedelta(hours=1))
    at = datetime.datetime(2026, 3, 2, 9, 0, tzinfo=paris)
    assert ServiceInfoInput(sla_starts_at=at).sla_starts_at == 1_772_438_400
    assert ServiceInfoInput(sla_starts_at=1_772_438_400) == ServiceInfoInput(sla_starts_at=at)
