"""v0.2b's JSON answers: Plan, Stop, UnassignedStop and Depot as the contract shows them.

The stored stop body is v0.2b's own form, so a stop is served as kept, with its
current Route; a plan carries its drivers in full; a depot is only ``id`` and
``name``. What every version renders alike is in ``emulator/_wire/_views.py``.
"""

from __future__ import annotations

from typing import Any

from route_planning_async.emulator._store._records import PlanRecord, StopRecord, UnassignedStopRecord
from route_planning_async.emulator._wire._views import BaseViews

__all__ = ["Views"]


class Views(BaseViews):
    """The state's records as v0.2b's JSON."""

    def plan_json(self, plan: PlanRecord) -> dict[str, Any]:
        """The Plan representation, with each driver in full."""
        drivers = [self.state.any_driver(driver_id) for driver_id in plan.driver_ids]
        return {
            **self.plan_fields(plan),
            "drivers": [self.driver_json(driver) for driver in drivers if driver is not None],
        }

    def stop_json(self, record: StopRecord) -> dict[str, Any]:
        """The Stop representation, with its current Route."""
        body = dict(record.body)
        route = self.state.routes.get(record.route_id) if record.route_id else None
        body["route"] = None if route is None else self.route_json(route)
        return body

    def unassigned_json(self, record: UnassignedStopRecord) -> dict[str, Any]:
        """The UnassignedStop representation."""
        return dict(record.body)

    def depot_json(self, depot_id: str) -> dict[str, Any]:
        """The Depot representation: only ``id`` and ``name`` (contract, Depot)."""
        depot = self.state.depot(depot_id)
        return {"id": f"depots/{depot.id}", "name": depot.name}
