"""The JSON answers every version gives alike, and what each version's views must add.

:class:`BaseViews` turns the state's records into the bodies the handlers send
where the versions agree: Driver, Route, Operation, the custom stop property
list, the answers of batch imports and the echo of a refused stop. A version's
views (``v0_2b/_views.py``, ``v1/_views.py``) add Plan, Stop, UnassignedStop and
Depot in its own shapes. Views read the state and change nothing.
"""

from __future__ import annotations

import abc
import datetime
from collections.abc import Callable
from typing import Any

from route_planning_async.emulator._rules._requests import ADDRESS_FIELDS
from route_planning_async.emulator._service._drivers import DriverAddress
from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._team import DriverConfig
from route_planning_async.emulator._store._bodies import empty_recipient
from route_planning_async.emulator._store._records import (
    OperationRecord,
    PlanRecord,
    RouteRecord,
    StopRecord,
    UnassignedStopRecord,
)
from route_planning_async.emulator._store._store import Imported

__all__ = ["BaseViews", "address_json", "failure_echo"]


class BaseViews(abc.ABC):
    """The state's records as JSON, where every version agrees."""

    def __init__(self, state: EmulatorState) -> None:
        self.state = state

    # What each version renders its own way -------------------------------------

    @abc.abstractmethod
    def plan_json(self, plan: PlanRecord) -> dict[str, Any]:
        """The Plan representation."""

    @abc.abstractmethod
    def stop_json(self, record: StopRecord) -> dict[str, Any]:
        """The Stop representation, with its current Route."""

    @abc.abstractmethod
    def unassigned_json(self, record: UnassignedStopRecord) -> dict[str, Any]:
        """The UnassignedStop representation."""

    @abc.abstractmethod
    def depot_json(self, depot_id: str) -> dict[str, Any]:
        """The Depot representation."""

    # What every version renders alike -------------------------------------------

    @staticmethod
    def plan_fields(plan: PlanRecord) -> dict[str, Any]:
        """The fields of the Plan representation every version has (not ``drivers``)."""
        return {
            "id": f"plans/{plan.id}",
            "title": plan.title,
            "starts": {"day": plan.starts.day, "month": plan.starts.month, "year": plan.starts.year},
            "depot": f"depots/{plan.depot_id}",
            "distributed": plan.distributed,
            "writable": plan.writable,
            "optimization": plan.optimization,
            "routes": [f"routes/{route_id}" for route_id in plan.route_ids],
        }

    def driver_json(self, driver: DriverConfig) -> dict[str, Any]:
        """The Driver representation (alone, and inside a plan), with the start and end addresses
        its route overrides gave it."""

        def tod(value: datetime.time | None) -> dict[str, int] | None:
            return None if value is None else {"hour": value.hour, "minute": value.minute}

        start, end = self.state.driver_addresses(driver.id)
        return {
            "id": f"drivers/{driver.id}",
            "name": driver.name,
            "email": driver.email,
            "phone": driver.phone,
            "displayName": driver.display_name,
            "active": driver.active,
            "depots": [f"depots/{d}" for d in (driver.depots or (self.state.main_depot_id,))],
            "routeOverrides": {
                "startTime": tod(driver.start_time),
                "endTime": tod(driver.end_time),
                "startAddress": address_json(start),
                "endAddress": address_json(end),
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

    def custom_stop_properties_json(self) -> list[dict[str, Any]]:
        """The custom stop property definitions."""
        return [
            {
                "id": prop.id,
                "name": prop.name,
                "visibleToDrivers": prop.visible_to_drivers,
                "visibleToRecipients": prop.visible_to_recipients,
            }
            for prop in self.state.team.custom_stop_properties
        ]

    def import_json(
        self, imported: Imported[Any], name: Callable[[Any], str], echo_as: str, echo: Callable[[int], Any]
    ) -> dict[str, Any]:
        """The answer of a batch import: the ``name`` of each record stored, and each item refused,
        its error and ``echo(place)`` under ``echo_as`` (``stop``, ``unassignedStop``, ``driver``)."""
        return {
            "success": [name(record) for record in imported.stored],
            "failed": [
                {"error": {"message": problem.message}, echo_as: echo(index)}
                for index, problem in imported.refused
            ],
        }


def address_json(given: DriverAddress) -> dict[str, Any] | None:
    """The driverSchema form of a start or end address."""
    if given is None:
        return None
    parts = [
        given.get(key) for key in ("addressLineOne", "addressLineTwo", "city", "state", "zip", "country")
    ]
    return {
        "address": ", ".join(part for part in parts if part),
        "addressLineOne": given.get("addressLineOne") or "",
        "addressLineTwo": given.get("addressLineTwo") or "",
        "latitude": given.get("latitude"),
        "longitude": given.get("longitude"),
        "placeId": None,
        "placeTypes": [],
    }


def failure_echo(fields: dict[str, Any]) -> dict[str, Any]:
    """The ``stop`` (or ``unassignedStop``) of an import failure: the sent address (every key)
    and recipient."""
    address = fields.get("address") or {}
    echo_address = {key: address.get(key) for key in (*ADDRESS_FIELDS, "latitude", "longitude")}
    recipient = fields.get("recipient")
    echo_recipient = None if recipient is None else {**empty_recipient(), **recipient}
    return {"address": echo_address, "recipient": echo_recipient}
