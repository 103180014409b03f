"""The calls with a request body that both versions' clients make alike, for the request
conformance (``test_requests.py``): each version gives its own input strategies and
adds its own calls (``requests_v0_2b.py``, ``requests_v1.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import attrs
from hypothesis import strategies as st

import route_planning_async as rp

from .strategies import DRIVER_INPUT, DRIVER_UPDATE

__all__ = ["PLAN", "Call", "Case", "StopInputs", "shared_cases"]

Call = Callable[[Any, Any], Awaitable[Any]]
Case = tuple[str, st.SearchStrategy[Any], str, str, str, Any, Call]
"""A call: its name, the inputs drawn, the request method and path, the document's
template, the reply, the call."""

PLAN = {"id": "plans/p1", "title": "t", "starts": {"day": 1, "month": 1, "year": 2027}}
"""A reply to a plan call."""
_STOP = {"id": "plans/p1/stops/s1"}
_UNASSIGNED = {"id": "unassignedStops/u1"}
_IMPORTED = {"success": [], "failed": []}
_PENDING = {"pending": True, "stop": None}
_DRIVER = {"id": "drivers/d1", "name": "n", "email": None, "phone": None, "active": True, "depots": []}


@attrs.frozen
class StopInputs:
    """A version's strategies of the stop inputs."""

    stop: st.SearchStrategy[Any]
    """Stop inputs (create, import, live create)."""
    update: st.SearchStrategy[Any]
    """Stop updates."""
    live_update: st.SearchStrategy[Any]
    """Live stop updates."""
    unassigned: st.SearchStrategy[Any]
    """Unassigned stop inputs (create)."""
    unassigned_batch: st.SearchStrategy[Any]
    """Unassigned stop inputs of a batch import (the batch names the depot)."""
    unassigned_update: st.SearchStrategy[Any]
    """Unassigned stop updates."""


def _batch(inputs: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    return st.lists(inputs, min_size=1, max_size=3)


def shared_cases(inputs: StopInputs) -> list[Case]:
    """The stop, unassigned stop, driver and re-optimization calls of both versions."""
    return [
        ("stops.create", inputs.stop, "POST", "/plans/p1/stops", "/plans/{planId}/stops", _STOP,
         lambda c, item: c.stops.create("p1", item)),
        ("stops.import_batch", _batch(inputs.stop), "POST", "/plans/p1/stops:import",
         "/plans/{planId}/stops:import", _IMPORTED, lambda c, items: c.stops.import_batch("p1", items)),
        ("stops.update", inputs.update, "PATCH", "/plans/p1/stops/s1", "/plans/{planId}/stops/{stopId}",
         _STOP, lambda c, item: c.stops.update("plans/p1/stops/s1", item)),
        ("stops.live_create", inputs.stop, "POST", "/plans/p1/stops:liveCreate",
         "/plans/{planId}/stops:liveCreate", _PENDING, lambda c, item: c.stops.live_create("p1", item)),
        ("stops.live_update", inputs.live_update, "POST", "/plans/p1/stops/s1:liveUpdate",
         "/plans/{planId}/stops/{stopId}:liveUpdate", _PENDING,
         lambda c, item: c.stops.live_update("plans/p1/stops/s1", item)),
        ("stops.live_import_batch", _batch(inputs.stop), "POST", "/plans/p1/stops:liveImport",
         "/plans/{planId}/stops:liveImport", {**_IMPORTED, "pending": True},
         lambda c, items: c.stops.live_import_batch("p1", items)),
        ("unassigned_stops.create", inputs.unassigned, "POST", "/unassignedStops", "/unassignedStops",
         _UNASSIGNED, lambda c, item: c.unassigned_stops.create(item)),
        ("unassigned_stops.import_batch", _batch(inputs.unassigned_batch), "POST", "/unassignedStops:import",
         "/unassignedStops:import", _IMPORTED,
         lambda c, items: c.unassigned_stops.import_batch(items, depot="depot-1")),
        ("unassigned_stops.update", inputs.unassigned_update, "PATCH", "/unassignedStops/u1",
         "/unassignedStops/{unassignedStopId}", _UNASSIGNED,
         lambda c, item: c.unassigned_stops.update("u1", item)),
        ("drivers.create", DRIVER_INPUT, "POST", "/drivers", "/drivers", _DRIVER,
         lambda c, item: c.drivers.create(item)),
        ("drivers.update", DRIVER_UPDATE, "PATCH", "/drivers/d1", "/drivers/{driverId}", _DRIVER,
         lambda c, item: c.drivers.update("d1", item)),
        ("drivers.import_batch", _batch(DRIVER_INPUT), "POST", "/drivers:import", "/drivers:import",
         _IMPORTED, lambda c, items: c.drivers.import_batch(items)),
        ("plans.reoptimize", st.sampled_from([None, *rp.ReoptimizationType, "fastest"]), "POST",
         "/plans/p1:reoptimize", "/plans/{planId}:reoptimize", {"id": "operations/o1"},
         lambda c, v: c.plans.reoptimize("p1", optimization_type=v)),
    ]  # fmt: skip
