"""The emulator's route optimizer: simple, deterministic, and good enough to check a client.

1. Stops are sorted by their bearing around the depot (ties by id) and cut into
   consecutive sectors, one per driver, of near-equal size.
2. A stop whose ``allowedDrivers`` excludes its sector's driver, or whose driver is
   full (``maxStops``), goes to the allowed driver with room whose sector is nearest.
   Stops with nowhere to go are skipped (``impossible_number_of_stops``, or
   ``no_allowed_driver`` when none of its allowed drivers is on the plan). A stop
   pinned to a driver by re-optimization keeps it.
3. Each route visits its ``first`` stops, then its ``default`` stops, then its
   ``last`` stops (contract, stop body ``optimizationOrder``), each group by nearest
   neighbour from the current position (ties by id). Groups of more than 300 stops
   are swept by bearing and distance instead, so a 100,000-stop plan is ordered in
   well under a second.
4. Driving at a constant speed from the driver's start time, a stop reached after its
   ``latestAttemptTime`` is skipped with ``impossible_time_window``; one reached before
   its ``earliestAttemptTime`` waits.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from route_planning_async.emulator._routing._geo import bearing, haversine_m

__all__ = ["OptDriver", "OptStop", "Outcome", "Visit", "optimize"]


@attrs.frozen
class OptDriver:
    """A driver of the plan, as the optimizer sees it."""

    ref: str
    """``drivers/<id>``."""
    start_seconds: int
    """Route start, in seconds after midnight."""
    max_stops: int | None = None
    """Capacity; None is unlimited."""


@attrs.frozen
class OptStop:
    """A stop to place."""

    id: str
    """Serialized stop id."""
    latitude: float
    """Decimal degrees."""
    longitude: float
    """Decimal degrees."""
    order: str = "default"
    """``first``, ``last`` or ``default``."""
    earliest: int | None = None
    """Earliest arrival, seconds after midnight."""
    latest: int | None = None
    """Latest arrival, seconds after midnight."""
    duration: float = 120.0
    """Seconds spent at the stop."""
    allowed: frozenset[str] = frozenset()
    """Driver refs allowed for the stop; empty means any."""
    pinned: str | None = None
    """Driver ref the stop must stay with (re-optimization of unchanged stops)."""


@attrs.frozen
class Visit:
    """One stop of a route, once ordered and timed."""

    stop_id: str
    """Serialized stop id."""
    position: int
    """1-based position in the route."""
    travel_seconds: float
    """Seconds from the previous stop (or the depot)."""
    travel_meters: float
    """Meters from the previous stop (or the depot)."""
    arrival_seconds: float
    """Arrival, seconds after midnight."""


@attrs.frozen
class Outcome:
    """Routes per driver (only drivers with stops) and the skipped stops."""

    routes: dict[str, list[Visit]]
    """Driver ref to its visits, in route order."""
    skipped: list[tuple[str, str]]
    """``(stop id, reason)`` pairs."""

    @property
    def optimized_count(self) -> int:
        """Stops that got a route."""
        return sum(len(visits) for visits in self.routes.values())


def optimize(
    depot: tuple[float, float],
    drivers: Sequence[OptDriver],
    stops: Sequence[OptStop],
    speed_mps: float,
) -> Outcome:
    """Assign, order and time ``stops``. Drivers must be non-empty."""
    if not drivers:
        raise ValueError("optimize needs at least one driver")
    assigned, skipped = _assign(depot, drivers, stops)
    routes: dict[str, list[Visit]] = {}
    for driver in drivers:
        mine = assigned.get(driver.ref, [])
        if not mine:
            continue
        visits, late = _time_route(depot, driver, _order(depot, mine), speed_mps)
        skipped.extend((stop.id, "impossible_time_window") for stop in late)
        if visits:
            routes[driver.ref] = visits
    return Outcome(routes, skipped)


def _assign(
    depot: tuple[float, float], drivers: Sequence[OptDriver], stops: Sequence[OptStop]
) -> tuple[dict[str, list[OptStop]], list[tuple[str, str]]]:
    on_plan = {driver.ref: index for index, driver in enumerate(drivers)}
    load = dict.fromkeys(on_plan, 0)
    assigned: dict[str, list[OptStop]] = {ref: [] for ref in on_plan}
    skipped: list[tuple[str, str]] = []

    def has_room(ref: str) -> bool:
        cap = drivers[on_plan[ref]].max_stops
        return cap is None or load[ref] < cap

    ordered = sorted(stops, key=lambda s: (bearing(depot[0], depot[1], s.latitude, s.longitude), s.id))
    total = len(ordered)
    for index, stop in enumerate(ordered):
        if stop.pinned is not None and stop.pinned in on_plan:
            candidates = [stop.pinned]
        else:
            candidates = [ref for ref in on_plan if not stop.allowed or ref in stop.allowed]
        if not candidates:
            skipped.append((stop.id, "no_allowed_driver"))
            continue
        target = index * len(drivers) // max(total, 1)
        with_room = [ref for ref in candidates if has_room(ref)]
        if not with_room:
            skipped.append((stop.id, "impossible_number_of_stops"))
            continue
        chosen = min(with_room, key=lambda ref: (abs(on_plan[ref] - target), on_plan[ref]))
        assigned[chosen].append(stop)
        load[chosen] += 1
    return assigned, skipped


NEAREST_NEIGHBOUR_MAX = 300
"""Largest group ordered by nearest neighbour (quadratic); larger ones are swept."""


def _order(depot: tuple[float, float], stops: list[OptStop]) -> list[OptStop]:
    route: list[OptStop] = []
    here = depot
    for group in ("first", "default", "last"):
        left = sorted(
            (s for s in stops if (s.order if s.order in ("first", "last") else "default") == group),
            key=lambda s: s.id,
        )
        if len(left) > NEAREST_NEIGHBOUR_MAX:
            left.sort(
                key=lambda s: (
                    round(bearing(depot[0], depot[1], s.latitude, s.longitude), 2),
                    haversine_m(depot[0], depot[1], s.latitude, s.longitude),
                    s.id,
                )
            )
            route.extend(left)
            here = (left[-1].latitude, left[-1].longitude)
            continue
        while left:
            nearest = min(left, key=lambda s: (haversine_m(here[0], here[1], s.latitude, s.longitude), s.id))
            left.remove(nearest)
            route.append(nearest)
            here = (nearest.latitude, nearest.longitude)
    return route


def _time_route(
    depot: tuple[float, float], driver: OptDriver, route: list[OptStop], speed_mps: float
) -> tuple[list[Visit], list[OptStop]]:
    visits: list[Visit] = []
    late: list[OptStop] = []
    here = depot
    clock = float(driver.start_seconds)
    for stop in route:
        meters = haversine_m(here[0], here[1], stop.latitude, stop.longitude)
        seconds = meters / speed_mps
        arrival = clock + seconds
        if stop.earliest is not None and arrival < stop.earliest:
            arrival = float(stop.earliest)
        if stop.latest is not None and arrival > stop.latest:
            late.append(stop)
            continue
        visits.append(Visit(stop.id, len(visits) + 1, round(seconds, 1), round(meters, 1), arrival))
        clock = arrival + stop.duration
        here = (stop.latitude, stop.longitude)
    return visits, late
