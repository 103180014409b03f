"""The service offerings a stop's ``serviceInfo`` names (v1), checked and rendered.

A stop in a plan may name one of the team's service offerings
(``TeamConfig.service_offerings``) by its ``identifier``, and an SLA start
(``slaStartsAt``, epoch seconds). The v1 document's rules, each with its error:

- no offering has the identifier: 404 ``service_offering_not_found``;
- the offering does not serve the stop's activity: 400 ``service_activity_not_supported``;
- it is not offered at the plan's depot: 400 ``service_not_available_at_depot``;
- the stop lies outside its operating area: 400 ``operating_area_violation``, or
  400 ``operating_area_missing_coordinates`` when the stop has no coordinates;
- an update clears ``slaStartsAt`` while an offering is assigned: 400
  ``sla_start_not_clearable``.

An offering assigned without an SLA start starts it when assigned. The SLA is due
``horizon_days`` later, on the team's calendar.
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from route_planning_async.emulator._routing._geo import haversine_m
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._setup._team import ServiceOfferingConfig, TeamConfig

__all__ = ["checked_service", "service_json"]


def _offering(team: TeamConfig, identifier: str, param: str) -> ServiceOfferingConfig:
    for offering in team.service_offerings:
        if offering.identifier == identifier:
            return offering
    raise Problem(
        404,
        "No current service offering matches the provided identifier",
        "service_offering_not_found",
        param,
    )


def checked_service(
    team: TeamConfig,
    service: dict[str, Any] | None,
    *,
    activity: str,
    depot_id: str,
    location: tuple[float | None, float | None],
    now: float,
    prefix: str = "",
    cleared_start: bool = False,
) -> dict[str, Any] | None:
    """The stop's ``serviceInfo`` as kept, once the rules allow it (``cleared_start``: the
    update sent ``slaStartsAt: null``)."""
    if not service or service.get("identifier") is None:
        return service
    param = f"{prefix}serviceInfo"
    offering = _offering(team, service["identifier"], f"{param}.identifier")
    if cleared_start:
        raise Problem(
            400,
            "Cannot clear slaStartsAt on a stop with an assigned service.",
            "sla_start_not_clearable",
            f"{param}.slaStartsAt",
        )
    if activity not in offering.activities:
        raise Problem(
            400,
            f"The service {offering.identifier} does not support the activity {activity!r}",
            "service_activity_not_supported",
            f"{prefix}activity",
        )
    if offering.depots and depot_id not in offering.depots:
        raise Problem(
            400,
            f"The service {offering.identifier} is not offered at the stop's depot",
            "service_not_available_at_depot",
            f"{param}.identifier",
        )
    if offering.area_radius_km is not None and offering.area_latitude is not None:
        latitude, longitude = location
        if latitude is None or longitude is None or offering.area_longitude is None:
            raise Problem(
                400,
                "The service has an operating area but the stop has no coordinates",
                "operating_area_missing_coordinates",
                f"{prefix}address",
            )
        distance = haversine_m(latitude, longitude, offering.area_latitude, offering.area_longitude)
        if distance > offering.area_radius_km * 1000:
            raise Problem(
                400,
                f"The service {offering.identifier} does not operate in the stop's area",
                "operating_area_violation",
                f"{prefix}address",
            )
    if service.get("slaStartsAt") is None:
        return {**service, "slaStartsAt": round(now)}
    return service


def service_json(team: TeamConfig, service: dict[str, Any] | None, has_payment: bool) -> dict[str, Any]:
    """v1's ``serviceInfo`` union: ``empty``, or ``available`` with the SLA start alone, or with
    the offering in full."""
    service = service or {}
    start = service.get("slaStartsAt")
    if start is None:
        return {"status": "empty"}
    if service.get("identifier") is None:
        return {"status": "available", "value": {"identifier": None, "slaStartsAt": start}}
    offering = _offering(team, service["identifier"], "serviceInfo.identifier")
    zone = zoneinfo.ZoneInfo(team.timezone)
    due = datetime.datetime.fromtimestamp(start, zone).date() + datetime.timedelta(days=offering.horizon_days)
    due_time = offering.due_time
    return {
        "status": "available",
        "value": {
            "identifier": offering.identifier,
            "name": offering.name,
            "slaStartsAt": start,
            "slaDueDate": {"day": due.day, "month": due.month, "year": due.year},
            "slaDueTime": None if due_time is None else {"hour": due_time.hour, "minute": due_time.minute},
            "deliveryHorizon": {"unit": "days", "value": offering.horizon_days},
            "price": {"value": offering.price, "currency": offering.currency},
            "hasPaymentOnDelivery": has_payment,
            "definedAt": start,
        },
    }
