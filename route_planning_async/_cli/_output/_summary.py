"""What a distributed plan looks like, route by route: plain data for tables and JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs

from route_planning_async import Plan, Stop

__all__ = ["RouteSummary", "summarize_routes"]


@attrs.frozen
class RouteSummary:
    """One route of an optimized plan."""

    route_id: str
    """The route's id, ``routes/<id>``."""
    driver_id: str | None
    """The route's driver, ``drivers/<id>``."""
    driver_name: str
    """The driver's display name, or its id when it has none."""
    stop_count: int
    """Deliveries on the route (the ``start`` and ``end`` stops are not counted)."""
    distance_m: float
    """Meters driven, from the start to the end stop."""
    driving_s: float
    """Seconds driven, from the start to the end stop (time at the stops not included)."""
    first_eta: datetime | None
    """Estimated arrival at the first delivery."""
    last_eta: datetime | None
    """Estimated arrival at the last delivery."""
    coordinates: tuple[tuple[float, float], ...] = ()
    """(latitude, longitude) of every delivery in driving order, for a map."""

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON data (times as ISO 8601)."""
        return {
            "route": self.route_id,
            "driver": self.driver_id,
            "driver_name": self.driver_name,
            "stops": self.stop_count,
            "distance_m": round(self.distance_m, 1),
            "driving_s": round(self.driving_s, 1),
            "first_eta": self.first_eta.isoformat() if self.first_eta else None,
            "last_eta": self.last_eta.isoformat() if self.last_eta else None,
        }


def _driver_names(plan: Plan) -> Mapping[str, str]:
    names: dict[str, str] = {}
    for driver in plan.drivers:
        names[driver.id] = driver.display_name or driver.name or driver.email or driver.id
    return names


def _order(stop: Stop) -> tuple[int, float]:
    # stopPosition orders the optimized route: the start stop is 0, deliveries
    # count from 1 and the end stop is last (contract, Stop: stopPosition).
    rank = {"start": 0, "stop": 1, "end": 2}.get(stop.type, 1)
    return rank, stop.stop_position if stop.stop_position is not None else 0.0


def summarize_routes(plan: Plan, stops: Iterable[Stop]) -> list[RouteSummary]:
    """One summary per route of ``plan``, in driver order; stops without a route are left out."""
    by_route: dict[str, list[Stop]] = {}
    for stop in stops:
        if stop.route is not None:
            by_route.setdefault(stop.route.id, []).append(stop)
    names = _driver_names(plan)
    driver_order: dict[str, int] = {driver.id: index for index, driver in enumerate(plan.drivers)}
    summaries: list[RouteSummary] = []
    for route_id, route_stops in by_route.items():
        route_stops.sort(key=_order)
        route = route_stops[0].route
        assert route is not None  # grouped by it above
        deliveries = [stop for stop in route_stops if stop.type == "stop"]
        etas = [stop.eta.estimated_arrival_at for stop in deliveries if stop.eta is not None]
        summaries.append(
            RouteSummary(
                route_id=route_id,
                driver_id=route.driver,
                driver_name=names.get(route.driver or "", route.driver or "—"),
                stop_count=len(deliveries),
                distance_m=sum(stop.estimated_travel_distance or 0.0 for stop in route_stops),
                driving_s=sum(stop.estimated_travel_duration or 0.0 for stop in route_stops),
                first_eta=min(etas) if etas else None,
                last_eta=max(etas) if etas else None,
                coordinates=_coordinates(deliveries),
            )
        )
    summaries.sort(
        key=lambda summary: (driver_order.get(summary.driver_id or "", len(driver_order)), summary.route_id)
    )
    return summaries


def _coordinates(stops: Sequence[Stop]) -> tuple[tuple[float, float], ...]:
    return tuple(
        (stop.address.latitude, stop.address.longitude)
        for stop in stops
        if stop.address.latitude is not None and stop.address.longitude is not None
    )
