"""The v0.2b calls of the request conformance (``test_requests.py``): the calls both
versions share, with v0.2b's inputs, and v0.2b's own."""

from __future__ import annotations

from hypothesis import strategies as st

import route_planning_async as rp

from .cases import PLAN, Case, StopInputs, shared_cases
from .strategies import ADDRESS, DATES, DRIVERS, TEXT, built, optional, order_info, stop_fields

__all__ = ["CASES"]

_COMMON = stop_fields(order_info(rp.OrderInfoInput), rp.ProofOfAttemptRequirements)
_STOP_INPUT = built(
    rp.StopInput, address=ADDRESS, driver=optional(st.just("d9")), client_id=optional(TEXT), **_COMMON
)
_STOP_UPDATE = built(rp.StopUpdate, **_COMMON)
_UNASSIGNED_INPUT = built(rp.UnassignedStopInput, address=ADDRESS, client_id=optional(TEXT), **_COMMON)
_INPUTS = StopInputs(
    stop=_STOP_INPUT,
    update=_STOP_UPDATE,
    live_update=_STOP_UPDATE,
    unassigned=_UNASSIGNED_INPUT,
    unassigned_batch=_UNASSIGNED_INPUT,
    unassigned_update=built(rp.UnassignedStopUpdate, depot=optional(st.just("depot-1")), **_COMMON),
)

CASES: list[Case] = [
    *shared_cases(_INPUTS),
    ("plans.create", st.tuples(TEXT, DATES, DRIVERS), "POST", "/plans", "/plans", PLAN,
     lambda c, v: c.plans.create(title=v[0], starts=v[1], drivers=v[2])),
    ("plans.update", st.tuples(TEXT, DRIVERS), "PATCH", "/plans/p1", "/plans/{planId}", PLAN,
     lambda c, v: c.plans.update("p1", title=v[0], drivers=v[1])),
]  # fmt: skip
"""Each v0.2b call with a body."""
