"""The JSON answers: each record as the contract's representation.

:class:`Views` turns records (``_records.py``) into the bodies the handlers send:
Plan, Driver, Route, Stop (with its current Route), UnassignedStop, Operation,
Depot and the custom stop property list, in the official schema's shapes. It
reads the store and changes nothing.
"""

from __future__ import annotations

import datetime
from typing import Any

from route_planning_async.emulator._config import DriverConfig
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._records import (
    OperationRecord,
    PlanRecord,
    RouteRecord,
    StopRecord,
    UnassignedStopRecord,
)
from route_planning_async.emulator._store import Store

__all__ = ["Views"]


class Views(Store):
    """The store's records as JSON."""

    def plan_json(self, plan: PlanRecord) -> dict[str, Any]:
        """The Plan representation."""
        return {
            "id": f"plans/{plan.id}",
            "title": plan.title,
            "starts": {"day": plan.starts.day, "month": plan.starts.month, "year": plan.starts.year},
            "depot": f"depots/{plan.depot_id}",
            "distributed": plan.distributed,
            "writable": plan.writable,
            "optimization": plan.optimization,
            "drivers": [self.driver_json(self._drivers[d]) for d in plan.driver_ids if d in self._drivers],
            "routes": [f"routes/{route_id}" for route_id in plan.route_ids],
        }

    def driver_json(self, driver: DriverConfig) -> dict[str, Any]:
        """The Driver representation (inside a plan)."""

        def tod(value: datetime.time | None) -> dict[str, int] | None:
            return None if value is None else {"hour": value.hour, "minute": value.minute}

        return {
            "id": f"drivers/{driver.id}",
            "name": driver.name,
            "email": driver.email,
            "phone": driver.phone,
            "displayName": driver.display_name,
            "active": driver.active,
            "depots": [f"depots/{d}" for d in (driver.depots or (self.team.main_depot.id,))],
            "routeOverrides": {
                "startTime": tod(driver.start_time),
                "endTime": tod(driver.end_time),
                "startAddress": None,
                "endAddress": None,
                "maxStops": driver.max_stops,
                "drivingSpeed": driver.driving_speed,
                "deliverySpeed": driver.delivery_speed,
                "vehicleType": driver.vehicle_type,
            },
        }

    def route_json(self, route: RouteRecord) -> dict[str, Any]:
        """The Route representation."""
        return {
            "id": f"routes/{route.id}",
            "title": route.title,
            "stopCount": route.stop_count,
            "driver": f"drivers/{route.driver_id}",
            "plan": f"plans/{route.plan_id}",
            "state": {
                "completed": False,
                "completedAt": None,
                "distributed": route.distributed_at is not None,
                "distributedAt": route.distributed_at,
                "notifiedRecipients": False,
                "notifiedRecipientsAt": None,
                "started": False,
                "startedAt": None,
            },
        }

    def stop_json(self, record: StopRecord) -> dict[str, Any]:
        """The Stop representation, with its current Route."""
        body = dict(record.body)
        route = self.routes.get(record.route_id) if record.route_id else None
        body["route"] = None if route is None else self.route_json(route)
        return body

    def unassigned_json(self, record: UnassignedStopRecord) -> dict[str, Any]:
        """The UnassignedStop representation."""
        return dict(record.body)

    def operation_json(self, operation: OperationRecord) -> dict[str, Any]:
        """The operation representation; ``result`` is null until done (official schema: the
        key is required; the contract leaves it out)."""
        body: dict[str, Any] = {
            "id": f"operations/{operation.id}",
            "type": "plan_optimization",
            "done": operation.done,
            "metadata": {
                "canceled": operation.canceled,
                "startedAt": operation.started_at,
                "finishedAt": operation.finished_at,
                "startedBy": "api",
                "targetPlanId": f"plans/{operation.plan_id}",
            },
            "result": None,
        }
        if operation.done:
            if operation.failure is not None:
                code, message = operation.failure
                body["result"] = {"code": code, "message": message}
            elif operation.outcome is not None:
                outcome = operation.outcome
                compact = outcome.optimized_count == 0 and not outcome.skipped
                body["result"] = {
                    "numOptimizedStops": operation.num_stops if compact else outcome.optimized_count,
                    "skippedStops": [
                        {"id": stop_id, "reason": reason} for stop_id, reason in outcome.skipped
                    ],
                }
        return body

    def depot_json(self, depot_id: str) -> dict[str, Any]:
        """The Depot representation: only ``id`` and ``name`` (contract, Depot)."""
        depot = self._depots.get(depot_id)
        if depot is None:
            raise Problem.not_found("Depot not found", "depot_not_found")
        return {"id": f"depots/{depot.id}", "name": depot.name}

    def custom_stop_properties_json(self) -> list[dict[str, Any]]:
        """The custom stop property definitions."""
        return [
            {
                "id": prop.id,
                "name": prop.name,
                "visibleToDrivers": prop.visible_to_drivers,
                "visibleToRecipients": prop.visible_to_recipients,
            }
            for prop in self.team.custom_stop_properties
        ]
