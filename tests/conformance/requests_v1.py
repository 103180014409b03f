"""The v1 calls of the request conformance (``test_requests.py``): each call with a
request body, the inputs Hypothesis draws for it, and the answer it is given."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import strategies as st

from route_planning_async import v1

from .strategies import (
    ADDRESS,
    DATES,
    DRIVER_INPUT,
    DRIVER_UPDATE,
    DRIVERS,
    EMAILS,
    NUMBERS,
    TEXT,
    TIME,
    built,
    optional,
    order_info,
    stop_fields,
)

__all__ = ["CASES"]

Call = Callable[[Any, Any], Awaitable[Any]]
Case = tuple[str, st.SearchStrategy[Any], str, str, str, Any, Call]

_COMMON = stop_fields(
    order_info(v1.OrderInfoInput, invoice_number=optional(TEXT)), v1.ProofOfAttemptRequirementsInput
)
_SERVICE = built(
    v1.ServiceInfoInput,
    identifier=optional(st.from_regex(r"[A-Za-z0-9]{1,32}", fullmatch=True) | TEXT),
    sla_starts_at=optional(st.integers(-5, 2**33)),
)
_STOP_INPUT = built(
    v1.StopInput, address=ADDRESS, client_id=optional(TEXT), service_info=optional(_SERVICE), **_COMMON
)
_STOP_UPDATE = built(v1.StopUpdate, service_info=optional(_SERVICE), **_COMMON)
_LIVE_UPDATE = built(v1.LiveStopUpdate, **_COMMON)
_UNASSIGNED_INPUT = built(
    v1.UnassignedStopInput,
    address=ADDRESS,
    client_id=optional(TEXT),
    depot=optional(st.just("depot-1")),
    **_COMMON,
)
_UNASSIGNED_UPDATE = built(v1.UnassignedStopUpdate, depot=optional(st.just("depot-1")), **_COMMON)

_VEHICLES = st.sampled_from([*v1.VehicleType, "rocket"])
_DEPOT_OVERRIDES = built(
    v1.DepotRouteOverridesInput,
    start_address=ADDRESS,
    start_time=TIME,
    end_address=optional(ADDRESS),
    end_time=optional(TIME),
    default_time_at_stop=optional(NUMBERS),
    max_stops=optional(st.integers(-1, 3000)),
    vehicle_type=optional(_VEHICLES),
    road_side=optional(st.sampled_from([*v1.RoadSide, "middle"])),
    round_trip=optional(st.booleans()),
)
_DEPOT_INPUT = built(v1.DepotInput, name=TEXT, route_overrides=_DEPOT_OVERRIDES)
_DEPOT_UPDATE = built(v1.DepotUpdate, name=optional(TEXT), route_overrides=optional(_DEPOT_OVERRIDES))
_DEPOT_IDS = st.lists(st.sampled_from(["depots/main", "north", "bad id!"]), max_size=3)
_MEMBER_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "name": optional(TEXT),
    "display_name": optional(TEXT),
    "depots": optional(_DEPOT_IDS),
    "role": st.sampled_from([*v1.MemberRole, "superuser"]),
}
_MEMBER_INPUT = built(
    v1.MemberInput,
    email=optional(EMAILS | TEXT),
    linked_driver_id=optional(st.sampled_from(["drivers/d1", "d2", "bad id!"])),
    **_MEMBER_FIELDS,
)
_MEMBER_UPDATE = built(v1.MemberUpdate, **{**_MEMBER_FIELDS, "role": optional(_MEMBER_FIELDS["role"])})
_SETTINGS = built(
    v1.OptimizationSettingsInput,
    objective=st.sampled_from([*v1.OptimizationObjective, "fastest"]),
    sub_objective=optional(st.sampled_from([*v1.OptimizationSubObjective, "other"])),
)
_SPEEDS = st.sampled_from([*v1.RelativeSpeed, "warp"])
_PLAN_OVERRIDES = built(
    v1.PlanRouteOverridesInput,
    start_address=optional(ADDRESS),
    end_address=optional(ADDRESS),
    start_time=optional(TIME),
    end_time=optional(TIME),
    max_stops=optional(st.integers(-1, 3000)),
    driving_speed=optional(_SPEEDS),
    delivery_speed=optional(_SPEEDS),
    vehicle_type=optional(_VEHICLES),
    optimization_settings=optional(_SETTINGS),
)
_PLAN_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "drivers": optional(DRIVERS),
    "depot": optional(st.sampled_from(["depots/main", "north"])),
    "route_overrides": optional(_PLAN_OVERRIDES),
}
_PLAN_INPUT = built(v1.PlanInput, title=TEXT, starts=DATES, **_PLAN_FIELDS)
_PLAN_UPDATE = built(v1.PlanUpdate, title=optional(TEXT), starts=optional(DATES), **_PLAN_FIELDS)

_STOP = {"id": "plans/p1/stops/s1"}
_UNASSIGNED = {"id": "unassignedStops/u1"}
_IMPORTED = {"success": [], "failed": []}
_PENDING = {"pending": True, "stop": None}
_PLAN = {"id": "plans/p1", "title": "t", "starts": {"day": 1, "month": 1, "year": 2027}}
_DRIVER = {"id": "drivers/d1"}
_DEPOT = {"id": "depots/d1", "name": "n"}
_MEMBER = {"id": "members/m1"}


def _case(
    name: str, inputs: st.SearchStrategy[Any], method: str, path: str, template: str, reply: Any, call: Call
) -> Case:
    return (name, inputs, method, path, template, reply, call)


def _batch(inputs: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    return st.lists(inputs, min_size=1, max_size=3)


CASES: list[Case] = [
    _case(
        "stops.create",
        _STOP_INPUT,
        "POST",
        "/plans/p1/stops",
        "/plans/{planId}/stops",
        _STOP,
        lambda c, item: c.stops.create("p1", item),
    ),
    _case(
        "stops.import_batch",
        _batch(_STOP_INPUT),
        "POST",
        "/plans/p1/stops:import",
        "/plans/{planId}/stops:import",
        _IMPORTED,
        lambda c, items: c.stops.import_batch("p1", items),
    ),
    _case(
        "stops.update",
        _STOP_UPDATE,
        "PATCH",
        "/plans/p1/stops/s1",
        "/plans/{planId}/stops/{stopId}",
        _STOP,
        lambda c, item: c.stops.update("plans/p1/stops/s1", item),
    ),
    _case(
        "stops.live_create",
        _STOP_INPUT,
        "POST",
        "/plans/p1/stops:liveCreate",
        "/plans/{planId}/stops:liveCreate",
        _PENDING,
        lambda c, item: c.stops.live_create("p1", item),
    ),
    _case(
        "stops.live_update",
        _LIVE_UPDATE,
        "POST",
        "/plans/p1/stops/s1:liveUpdate",
        "/plans/{planId}/stops/{stopId}:liveUpdate",
        _PENDING,
        lambda c, item: c.stops.live_update("plans/p1/stops/s1", item),
    ),
    _case(
        "stops.live_import_batch",
        _batch(_STOP_INPUT),
        "POST",
        "/plans/p1/stops:liveImport",
        "/plans/{planId}/stops:liveImport",
        {**_IMPORTED, "pending": True},
        lambda c, items: c.stops.live_import_batch("p1", items),
    ),
    _case(
        "unassigned_stops.create",
        _UNASSIGNED_INPUT,
        "POST",
        "/unassignedStops",
        "/unassignedStops",
        _UNASSIGNED,
        lambda c, item: c.unassigned_stops.create(item),
    ),
    _case(
        "unassigned_stops.import_batch",
        _batch(built(v1.UnassignedStopInput, address=ADDRESS, client_id=optional(TEXT), **_COMMON)),
        "POST",
        "/unassignedStops:import",
        "/unassignedStops:import",
        _IMPORTED,
        lambda c, items: c.unassigned_stops.import_batch(items, depot="depot-1"),
    ),
    _case(
        "unassigned_stops.update",
        _UNASSIGNED_UPDATE,
        "PATCH",
        "/unassignedStops/u1",
        "/unassignedStops/{unassignedStopId}",
        _UNASSIGNED,
        lambda c, item: c.unassigned_stops.update("u1", item),
    ),
    _case(
        "drivers.create",
        DRIVER_INPUT,
        "POST",
        "/drivers",
        "/drivers",
        _DRIVER,
        lambda c, item: c.drivers.create(item),
    ),
    _case(
        "drivers.update",
        DRIVER_UPDATE,
        "PATCH",
        "/drivers/d1",
        "/drivers/{driverId}",
        _DRIVER,
        lambda c, item: c.drivers.update("d1", item),
    ),
    _case(
        "drivers.import_batch",
        _batch(DRIVER_INPUT),
        "POST",
        "/drivers:import",
        "/drivers:import",
        _IMPORTED,
        lambda c, items: c.drivers.import_batch(items),
    ),
    _case(
        "depots.create",
        _DEPOT_INPUT,
        "POST",
        "/depots",
        "/depots",
        _DEPOT,
        lambda c, item: c.depots.create(item),
    ),
    _case(
        "depots.update",
        _DEPOT_UPDATE,
        "PATCH",
        "/depots/d1",
        "/depots/{depotId}",
        _DEPOT,
        lambda c, item: c.depots.update("d1", item),
    ),
    _case(
        "depots.import_batch",
        _batch(_DEPOT_INPUT),
        "POST",
        "/depots:import",
        "/depots:import",
        _IMPORTED,
        lambda c, items: c.depots.import_batch(items),
    ),
    _case(
        "members.create",
        _MEMBER_INPUT,
        "POST",
        "/members",
        "/members",
        _MEMBER,
        lambda c, item: c.members.create(item),
    ),
    _case(
        "members.update",
        _MEMBER_UPDATE,
        "PATCH",
        "/members/m1",
        "/members/{memberId}",
        _MEMBER,
        lambda c, item: c.members.update("m1", item),
    ),
    _case(
        "members.import_batch",
        _batch(_MEMBER_INPUT),
        "POST",
        "/members:import",
        "/members:import",
        _IMPORTED,
        lambda c, items: c.members.import_batch(items),
    ),
    _case(
        "plans.create", _PLAN_INPUT, "POST", "/plans", "/plans", _PLAN, lambda c, item: c.plans.create(item)
    ),
    _case(
        "plans.update",
        _PLAN_UPDATE,
        "PATCH",
        "/plans/p1",
        "/plans/{planId}",
        _PLAN,
        lambda c, item: c.plans.update("p1", item),
    ),
    _case(
        "plans.reoptimize",
        st.sampled_from([None, *v1.ReoptimizationType, "fastest"]),
        "POST",
        "/plans/p1:reoptimize",
        "/plans/{planId}:reoptimize",
        {"id": "operations/o1"},
        lambda c, v: c.plans.reoptimize("p1", optimization_type=v),
    ),
]
"""Each v1 call with a body (its name, the inputs drawn, the request method and path,
the document's template, the reply, the call)."""
