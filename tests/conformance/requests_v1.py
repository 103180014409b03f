"""The v1 calls of the request conformance (``test_requests.py``): the calls both
versions share, with v1's inputs, and v1's own (depots, members, plans)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from route_planning_async import v1

from .cases import PLAN, Case, StopInputs, shared_cases
from .strategies import (
    ADDRESS,
    DATES,
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

_INPUTS = StopInputs(
    stop=_STOP_INPUT,
    update=_STOP_UPDATE,
    live_update=built(v1.LiveStopUpdate, **_COMMON),
    unassigned=built(
        v1.UnassignedStopInput,
        address=ADDRESS,
        client_id=optional(TEXT),
        depot=optional(st.just("depot-1")),
        **_COMMON,
    ),
    unassigned_batch=built(v1.UnassignedStopInput, address=ADDRESS, client_id=optional(TEXT), **_COMMON),
    unassigned_update=built(v1.UnassignedStopUpdate, depot=optional(st.just("depot-1")), **_COMMON),
)
_DEPOT = {"id": "depots/d1", "name": "n"}
_MEMBER = {"id": "members/m1"}
_IMPORTED = {"success": [], "failed": []}


def _batch(inputs: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    return st.lists(inputs, min_size=1, max_size=3)


CASES: list[Case] = [
    *shared_cases(_INPUTS),
    ("depots.create", _DEPOT_INPUT, "POST", "/depots", "/depots", _DEPOT,
     lambda c, item: c.depots.create(item)),
    ("depots.update", _DEPOT_UPDATE, "PATCH", "/depots/d1", "/depots/{depotId}", _DEPOT,
     lambda c, item: c.depots.update("d1", item)),
    ("depots.import_batch", _batch(_DEPOT_INPUT), "POST", "/depots:import", "/depots:import", _IMPORTED,
     lambda c, items: c.depots.import_batch(items)),
    ("members.create", _MEMBER_INPUT, "POST", "/members", "/members", _MEMBER,
     lambda c, item: c.members.create(item)),
    ("members.update", _MEMBER_UPDATE, "PATCH", "/members/m1", "/members/{memberId}", _MEMBER,
     lambda c, item: c.members.update("m1", item)),
    ("members.import_batch", _batch(_MEMBER_INPUT), "POST", "/members:import", "/members:import", _IMPORTED,
     lambda c, items: c.members.import_batch(items)),
    ("plans.create", _PLAN_INPUT, "POST", "/plans", "/plans", PLAN, lambda c, item: c.plans.create(item)),
    ("plans.update", _PLAN_UPDATE, "PATCH", "/plans/p1", "/plans/{planId}", PLAN,
     lambda c, item: c.plans.update("p1", item)),
]  # fmt: skip
"""Each v1 call with a body."""
