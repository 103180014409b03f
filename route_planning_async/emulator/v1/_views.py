"""v1's JSON answers, rendered from the one store every version shares.

The store keeps a stop's body in v0.2b's form; v1 serves it renamed and
reshaped (v1 document, migration guide): ``clientId`` for ``circuitClientId``,
``allowedDrivers`` as driver ids for ``driverIdentifier`` and
``allowedDriversIdentifiers``, ``eta`` and ``deliveryInfo.timeAtStopInfo`` as
``{status, value}`` unions for the ``...NullReason`` fields, and
``orderInfo.invoiceNumber`` and ``serviceInfo`` (``_service/_services.py``) from what v1
wrote beside the body. A plan carries driver ids and its ``routeOverrides``; a depot its
``routeOverrides`` (null for the configured depots, which were given none);
a member its roles. What every version renders alike is in ``emulator/_wire/_views.py``.
"""

from __future__ import annotations

from typing import Any

from route_planning_async.emulator._rules._requests import OVERRIDE_FIELDS
from route_planning_async.emulator._service._services import service_json
from route_planning_async.emulator._setup._team import DepotConfig
from route_planning_async.emulator._store._records import (
    MemberRecord,
    PlanRecord,
    StopRecord,
    UnassignedStopRecord,
)
from route_planning_async.emulator._wire._views import BaseViews, address_json

__all__ = ["Views"]

_COPIED = (
    "id",
    "address",
    "barcodes",
    "estimatedTravelDuration",
    "estimatedTravelDistance",
    "notes",
    "packageCount",
    "weight",
    "type",
    "packageLabel",
    "stopPosition",
    "trackingLink",
    "webAppLink",
    "placeInVehicle",
    "recipient",
    "activity",
    "proofOfAttemptRequirements",
    "plan",
    "timing",
    "optimizationOrder",
    "customProperties",
)
"""Stop keys v1 serves as the store keeps them."""

_UNASSIGNED_COPIED = (
    "id",
    "depot",
    "address",
    "barcodes",
    "notes",
    "packageCount",
    "weight",
    "recipient",
    "activity",
    "trackingLink",
    "timing",
    "optimizationOrder",
    "proofOfAttemptRequirements",
    "customProperties",
)
"""Unassigned stop keys v1 serves as the store keeps them."""

_PLAN_OVERRIDES = tuple(name for name in OVERRIDE_FIELDS if not name.endswith("Address"))
"""The plan's route overrides served as kept (the addresses are rendered)."""


def _eta(value: dict[str, Any] | None) -> dict[str, Any]:
    if value is None:
        return {"status": "pending", "pendingReason": "not_optimized"}
    return {"status": "available", "value": dict(value)}


def _delivery_info(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    info = {k: v for k, v in value.items() if k not in ("arrivedAt", "timeAtStopInfoNullReason")}
    time_at_stop = value.get("timeAtStopInfo")
    info["timeAtStopInfo"] = (
        {"status": "pending", "pendingReason": "not_yet_arrived"}
        if time_at_stop is None
        else {"status": "available", "value": dict(time_at_stop)}
    )
    return info


def _order_info(body: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    return {**body["orderInfo"], "invoiceNumber": extra.get("invoiceNumber")}


def _depot_address(depot: DepotConfig) -> dict[str, Any]:
    return {
        "address": depot.one_line,
        "addressLineOne": depot.address_line_one,
        "addressLineTwo": depot.second_line,
        "latitude": depot.latitude,
        "longitude": depot.longitude,
        "placeId": depot.served_place_id,
        "countryCode": depot.country or None,
    }


def _sent_address(given: dict[str, Any] | None) -> dict[str, Any] | None:
    if given is None:
        return None
    rendered = address_json(given)
    assert rendered is not None
    return {
        "address": rendered["address"],
        "addressLineOne": rendered["addressLineOne"],
        "addressLineTwo": rendered["addressLineTwo"],
        "latitude": rendered["latitude"],
        "longitude": rendered["longitude"],
        "placeId": None,
        "countryCode": given.get("country"),
    }


class Views(BaseViews):
    """The state's records as v1's JSON."""

    def plan_json(self, plan: PlanRecord) -> dict[str, Any]:
        """The Plan representation: driver ids, and the plan's ``routeOverrides``."""
        return {
            **self.plan_fields(plan),
            "drivers": [f"drivers/{driver_id}" for driver_id in plan.driver_ids],
            "routeOverrides": self._plan_overrides(plan.route_overrides),
        }

    @staticmethod
    def _plan_overrides(given: dict[str, Any] | None) -> dict[str, Any] | None:
        if given is None:
            return None
        result: dict[str, Any] = {key: given.get(key) for key in _PLAN_OVERRIDES}
        result["startAddress"] = address_json(given.get("startAddress"))
        result["endAddress"] = address_json(given.get("endAddress"))
        settings = given.get("optimizationSettings") or {}
        result["optimizationSettings"] = {
            "objective": settings.get("objective") or "minimize_drivers",
            "subObjective": settings.get("subObjective"),
        }
        return result

    def stop_json(self, record: StopRecord) -> dict[str, Any]:
        """The Stop representation, with its current Route."""
        body = record.body
        result = {key: body.get(key) for key in _COPIED}
        route = self.state.routes.get(record.route_id) if record.route_id else None
        result.update(
            allowedDrivers=[f"drivers/{driver_id}" for driver_id in record.allowed_driver_ids],
            orderInfo=_order_info(body, record.extra),
            deliveryInfo=_delivery_info(body.get("deliveryInfo")),
            paymentOnDelivery=body.get("paymentOnDelivery"),
            route=None if route is None else self.route_json(route),
            eta=_eta(body.get("eta")),
            clientId=body.get("circuitClientId"),
            serviceInfo=service_json(
                self.state.team, record.extra.get("serviceInfo"), body.get("paymentOnDelivery") is not None
            ),
        )
        return result

    def unassigned_json(self, record: UnassignedStopRecord) -> dict[str, Any]:
        """The UnassignedStop representation."""
        body = record.body
        result = {key: body.get(key) for key in _UNASSIGNED_COPIED}
        drivers = self.state.driver_ids_of(body.get("allowedDriversIdentifiers") or [])
        result.update(
            allowedDrivers=[f"drivers/{driver_id}" for driver_id in drivers],
            orderInfo=_order_info(body, record.extra),
            paymentOnDelivery=body.get("paymentOnDelivery"),
            clientId=body.get("circuitClientId"),
        )
        return result

    def depot_json(self, depot_id: str) -> dict[str, Any]:
        """The Depot representation: ``id``, ``name`` and the ``routeOverrides`` v1 gave it."""
        depot = self.state.depot(depot_id)
        given = self.state.depot_overrides.get(depot.id)
        overrides: dict[str, Any] | None = None
        if given is not None:
            overrides = {
                **given,
                "startAddress": _depot_address(depot),
                "endAddress": _sent_address(given.get("endAddress")),
            }
        return {"id": f"depots/{depot.id}", "name": depot.name, "routeOverrides": overrides}

    def member_json(self, member: MemberRecord) -> dict[str, Any]:
        """The Member representation."""
        driver = member.linked_driver_id
        return {
            "id": f"members/{member.id}",
            "name": member.name,
            "email": member.email,
            "phone": None,
            "linkedDriverId": None if driver is None else f"drivers/{driver}",
            "displayName": member.display_name,
            "active": True,
            # None or not given: the team's main depot (v1 document), as for a driver.
            "depots": [f"depots/{depot_id}" for depot_id in (member.depots or (self.state.main_depot_id,))],
            "roles": [member.role],
        }
