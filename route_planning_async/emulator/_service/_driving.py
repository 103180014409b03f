"""A driver working through a distributed route, as the driver app would report it.

The API has no call for this (the driver app reports it), so a test asks for it
with ``Emulator.simulate_route``. In order, as the service's webhook events
tell it:

1. the route starts: each stop gets its recipient tracking link
   (``stop.tracking_link_added``) and is out for delivery (``stop.out_for_delivery``);
2. stop by stop, in route order: the attempt fills ``deliveryInfo``
   (``stop.attempted_delivery``), then the driver leaves (``stop.departed``).
"""

from __future__ import annotations

from collections.abc import Mapping

from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._store._records import StopRecord

__all__ = ["drive_route"]

_DELIVERED = "delivered_to_recipient"
_PICKED_UP = "picked_up_from_customer"


def drive_route(
    state: EmulatorState, route_id: str, outcomes: Mapping[str, str], *, tracking_origin: str
) -> list[StopRecord]:
    """Drive ``route_id`` (``routes/<id>`` or bare) to the end; returns its stops in route order.

    ``outcomes`` maps stop ids (``plans/<p>/stops/<s>``) to the ``DeliveryState`` value of
    their attempt; the others succeed (``delivered_to_recipient``, or
    ``picked_up_from_customer`` for a pickup). The stops' events go to the state's
    ``stop_events`` listeners as they happen.

    :raises LookupError: no such route.
    :raises ValueError: the route was not distributed (its driver does not have it).
    """
    bare = route_id.removeprefix("routes/")
    route = state.routes.get(bare)
    plan = state.plans.get(route.plan_id) if route is not None else None
    if route is None or plan is None:
        raise LookupError(f"no route {route_id!r}")
    if route.distributed_at is None:
        raise ValueError(f"route {route_id!r} was not distributed: its driver cannot start it")
    stops = sorted(
        (record for record in plan.stops.values() if record.route_id == bare and not record.terminal),
        key=lambda record: record.body.get("stopPosition") or 0,
    )
    for record in stops:
        record.body["trackingLink"] = f"{tracking_origin}/track/{plan.id}/{record.id}"
        state.emit("stop.tracking_link_added", record)
    for record in stops:
        state.emit("stop.out_for_delivery", record)
    for record in stops:
        default = _PICKED_UP if record.body.get("activity") == "pickup" else _DELIVERED
        outcome = outcomes.get(record.body["id"], default)
        now = round(state.config.wall_clock())
        record.body["deliveryInfo"] = {
            "attempted": True,
            "attemptedAt": now,
            "arrivedAt": now,
            "timeAtStopInfo": {"arrivedAt": now, "departedAt": now, "isEstimated": True},
            "timeAtStopInfoNullReason": None,
            "attemptedLocation": {"latitude": record.latitude, "longitude": record.longitude},
            "driverProvidedInternalNotes": None,
            "driverProvidedRecipientNotes": None,
            "photoUrls": [],
            "recipientProvidedNotes": None,
            "signatureUrl": None,
            "signeeName": None,
            "state": outcome,
            "succeeded": not outcome.startswith("failed_"),
        }
        state.emit("stop.attempted_delivery", record)
        state.emit("stop.departed", record)
    return stops
